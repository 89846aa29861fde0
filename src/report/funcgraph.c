/*
 * The report's function_graph look-ahead (see funcgraph.h).  trace-cmd 3.1
 * peeks at the next record in time order whatever its CPU; so does this.
 */
#include "report/funcgraph.h"

#include <stdlib.h>
#include <string.h>

#include "util/die.h"

static bool common_pid(const struct tf_event *ev, unsigned long long *pid)
{
	struct tep_format_field *f = tep_find_common_field(ev->event, "common_pid");
	return f && tep_read_number_field(f, ev->record->data, pid) == 0;
}

bool rp_fg_hold(struct rp_fg *h, struct tep_handle *tep, const struct tf_event *ev)
{
	unsigned long long pid;
	struct fg_event fe;
	if (!ev->event || !fg_parse(ev->event, ev->record, &fe) || !fe.entry)
		return false;
	if (!common_pid(ev, &pid))
		return false;
	size_t size = ev->record->size > 0 ? (size_t)ev->record->size : 0;
	if (size > h->cap) {
		h->data = xrealloc(h->data, size);
		h->cap = size;
	}
	memcpy(h->data, ev->record->data, size);
	h->rec = *ev->record;
	h->rec.data = h->data;
	h->ev = *ev;
	h->ev.record = &h->rec;
	h->fe = fe;
	h->pid = (int)pid;
	h->held = true;
	(void)tep;
	return true;
}

bool rp_fg_is_leaf_exit(const struct rp_fg *h, struct tep_handle *tep, const struct tf_event *next)
{
	unsigned long long pid;
	struct fg_event fe;
	(void)tep;
	if (!h->held || !next->event || !fg_parse(next->event, next->record, &fe) || fe.entry)
		return false;
	if (!common_pid(next, &pid))
		return false;
	return (int)pid == h->pid && fe.func == h->fe.func;
}

void rp_fg_free(struct rp_fg *h)
{
	free(h->data);
	memset(h, 0, sizeof(*h));
}

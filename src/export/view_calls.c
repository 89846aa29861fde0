/*
 * function_graph calls as the view page's flame chart (see view_calls.h).
 * The events are told apart and read by fg_parse, as calls and export do.
 */
#include "export/view_calls.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "tracefile/funcgraph.h"
#include "util/die.h"
#include "util/json.h"

static size_t slot_of(const struct vw_calls *c, uint64_t addr)
{
	size_t i = (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & (c->cap - 1);
	while (c->addr[i] && c->addr[i] != addr)
		i = (i + 1) & (c->cap - 1);
	return i;
}

static void grow(struct vw_calls *c)
{
	struct vw_calls old = *c;
	c->cap = old.cap ? 2 * old.cap : 256;
	c->addr = xcalloc(c->cap, sizeof(*c->addr));
	c->index = xcalloc(c->cap, sizeof(*c->index));
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.addr[i])
			continue;
		size_t k = slot_of(c, old.addr[i]);
		c->addr[k] = old.addr[i];
		c->index[k] = old.index[i];
	}
	free(old.addr);
	free(old.index);
}

/* The function's index in the page's fgFuncs, named on first use. */
static int func_index(struct vw_calls *c, struct tep_handle *tep, uint64_t func)
{
	if (!func)
		func = 1;	/* 0 marks an empty slot; no function lives there */
	if ((c->n + 1) * 2 > c->cap)
		grow(c);
	size_t i = slot_of(c, func);
	if (c->addr[i])
		return c->index[i];
	const char *name = tep_find_function(tep, func);
	char hex[24];
	snprintf(hex, sizeof(hex), "%llx", (unsigned long long)func);
	if (c->n)
		sb_addc(&c->names, ',');
	json_strn_html(&c->names, name ? name : hex, strlen(name ? name : hex));
	c->addr[i] = func;
	c->index[i] = (int)c->n++;
	return c->index[i];
}

/* The row of the exit's call and when it was entered; false: not drawn (cut). */
static bool close_call(struct vw_calls *c, struct vw_calls_task *t, const struct fg_event *fg,
		       uint64_t ts, uint64_t dur, bool keep, int *row, uint64_t *start)
{
	for (int i = t->nopen - 1; i >= 0; i--) {
		if (t->open[i].func != fg->func || t->open[i].depth != fg->depth)
			continue;
		*start = t->open[i].ts;
		*row = i;
		t->nopen = i;	/* the calls opened after it lost their exits */
		return true;
	}
	if (t->skipped) {
		t->skipped--;
		c->cut += keep;
		return false;
	}
	/* Entered before the recording: what is open began later, so lost its exit. */
	t->nopen = 0;
	*start = ts - (dur < ts ? dur : ts);
	*row = fg->depth;
	return true;
}

bool vw_calls_event(struct vw_calls *c, struct vw_calls_task **tp, struct tep_event *ev,
		    struct tep_record *rec, uint64_t ts, uint64_t t0, bool keep)
{
	struct fg_event fg;
	uint64_t start;
	int row;

	if (!fg_parse(ev, rec, &fg))
		return false;
	if (!*tp)
		*tp = xcalloc(1, sizeof(**tp));
	struct vw_calls_task *t = *tp;
	if (fg.entry) {
		if (t->nopen == VW_CALLS_STACK)
			t->skipped++;
		else
			t->open[t->nopen++] = (struct vw_calls_open){ ts, fg.func, fg.depth };
		return true;
	}
	uint64_t dur = fg.rettime - fg.calltime;
	if (!close_call(c, t, &fg, ts, dur, keep, &row, &start) || !keep || ts < t0)
		return true;
	if (row < 0 || row >= VW_CALLS_DEPTH) {
		c->cut++;
		return true;
	}
	if (start < t0)
		start = t0;
	sb_printf(&t->slices, "%llu,%llu,%d,%d,%llu,", (unsigned long long)(start - t0),
		  (unsigned long long)(ts - t0), row, func_index(c, ev->tep, fg.func),
		  (unsigned long long)dur);
	c->slices++;
	return true;
}

void vw_calls_meta(const struct vw_calls *c, FILE *out)
{
	fprintf(out, ",\n\"fgFuncs\":[%s],\"fgDepth\":%d,\"fgCut\":%ld", sb_str(&c->names),
		VW_CALLS_DEPTH, c->cut);
}

void vw_calls_task_free(struct vw_calls_task *t)
{
	if (!t)
		return;
	sb_free(&t->slices);
	free(t);
}

void vw_calls_free(struct vw_calls *c)
{
	free(c->addr);
	free(c->index);
	sb_free(&c->names);
	memset(c, 0, sizeof(*c));
}

/*
 * What both exporters share: the first pass over the trace (task names, each
 * CPU's switch times), field access, and how an event maps to a slice or an
 * instant.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "export/export.h"
#include "syscalls/table.h"
#include "tracefile/fields.h"
#include "tracefile/funcgraph.h"
#include "tracefile/reader.h"
#include "util/die.h"

int ex_parse_format(const char *name, enum ex_format *f)
{
	if (!strcmp(name, "chrome"))
		*f = EX_CHROME;
	else if (!strcmp(name, "perfetto"))
		*f = EX_PERFETTO;
	else
		return -1;
	return 0;
}

bool ex_num(struct tep_event *ev, struct tep_record *rec, const char *name, long long *v)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	unsigned long long u;

	if (!f || f->offset < 0 || f->offset + f->size > rec->size)
		return false;
	if (tep_read_number_field(f, rec->data, &u) < 0)
		return false;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int shift = 64 - 8 * f->size;
		*v = (long long)(u << shift) >> shift;
	} else {
		*v = (long long)u;
	}
	return true;
}

bool ex_str(struct tep_event *ev, struct tep_record *rec, const char *name, char *buf, size_t n)
{
	return tf_field_copy(tep_find_field(ev, name), rec, buf, n);
}

int ex_tgid(const struct ex_scan *s, int tid)
{
	void *tgid = tid > 0 ? tidmap_get(&s->tgids, tid) : NULL;
	return tgid ? (int)(intptr_t)tgid : tid;
}

const char *ex_name(const struct ex_scan *s, int tid)
{
	if (tid <= 0)
		return tid == 0 ? "swapper" : "<...>";
	const char *n = tidmap_get(&s->names, tid);
	return n ? n : "<...>";
}

static void set_name(struct ex_scan *s, int tid, const char *comm)
{
	if (tid <= 0 || !comm[0] || !strcmp(comm, "<...>"))
		return;
	char *old = tidmap_get(&s->names, tid);
	if (old && !strcmp(old, comm))
		return;
	free(old);
	tidmap_put(&s->names, tid, xstrdup(comm));
}

static struct ex_cpu *get_cpu(struct ex_scan *s, int cpu)
{
	if (cpu >= s->ncpus) {
		int n = cpu + 1;
		s->cpu = xrealloc(s->cpu, (size_t)n * sizeof(*s->cpu));
		memset(s->cpu + s->ncpus, 0, (size_t)(n - s->ncpus) * sizeof(*s->cpu));
		s->ncpus = n;
	}
	return &s->cpu[cpu];
}

static void scan_switch(struct ex_scan *s, struct ex_cpu *c, struct tf_event *e)
{
	char comm[32];
	long long pid;

	if (c->nsw == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->sw = xrealloc(c->sw, c->cap * sizeof(*c->sw));
	}
	c->sw[c->nsw++] = e->ts;
	if (ex_num(e->event, e->record, "prev_pid", &pid) &&
	    ex_str(e->event, e->record, "prev_comm", comm, sizeof(comm))) {
		set_name(s, (int)pid, comm);
		if (c->nsw == 1) {
			c->first_prev_pid = (int)pid;
			snprintf(c->first_prev_comm, sizeof(c->first_prev_comm), "%s", comm);
		}
	}
	if (ex_num(e->event, e->record, "next_pid", &pid) &&
	    ex_str(e->event, e->record, "next_comm", comm, sizeof(comm)))
		set_name(s, (int)pid, comm);
}

/*
 * Events whose pid and comm fields are not one task's current name: the
 * waiter's comm with the waited-for pid, the comm before an exec.
 */
static const char *const not_a_name[] = { "sched_process_wait", "sched_prepare_exec" };

/* Names from the events that carry one: wakeups and forks. */
static void scan_names(struct ex_scan *s, struct tf_event *e)
{
	char comm[32];
	long long pid;

	for (size_t i = 0; i < sizeof(not_a_name) / sizeof(not_a_name[0]); i++)
		if (!strcmp(e->event->name, not_a_name[i]))
			return;

	if (ex_num(e->event, e->record, "pid", &pid) &&
	    ex_str(e->event, e->record, "comm", comm, sizeof(comm)))
		set_name(s, (int)pid, comm);
	if (ex_num(e->event, e->record, "child_pid", &pid) &&
	    ex_str(e->event, e->record, "child_comm", comm, sizeof(comm)))
		set_name(s, (int)pid, comm);
}

int ex_scan(struct tf_reader *r, struct ex_scan *s, char *err, size_t errlen)
{
	struct tep_handle *tep = tf_reader_tep(r);
	struct tf_event e;
	int rc;

	memset(s, 0, sizeof(*s));
	get_cpu(s, tf_reader_info(r)->cpus > 0 ? tf_reader_info(r)->cpus - 1 : 0);
	while ((rc = tf_reader_next(r, &e, err, errlen)) == 1) {
		struct ex_cpu *c = get_cpu(s, e.cpu);
		int pid = tep_data_pid(tep, e.record);

		if (!s->events++)
			s->first_ts = e.ts;
		s->last_ts = e.ts;
		if (!c->seen) {
			c->seen = true;
			c->first_ts = e.ts;
		}
		if (pid > 0 && !tidmap_get(&s->names, pid))
			set_name(s, pid, tep_data_comm_from_pid(tep, pid));
		if (!e.event)
			continue;
		if (!strcmp(e.event->name, "sched_switch"))
			scan_switch(s, c, &e);
		else
			scan_names(s, &e);
	}
	tidmap_foreach(&s->names, slot) {
		int tgid = tf_reader_tgid(r, slot->tid);
		if (tgid > 0 && tgid != slot->tid)
			tidmap_put(&s->tgids, slot->tid, (void *)(intptr_t)tgid);
	}
	return rc;
}

void ex_scan_free(struct ex_scan *s)
{
	tidmap_foreach(&s->names, slot)
		free(slot->val);
	tidmap_free(&s->names);
	tidmap_free(&s->tgids);
	for (int i = 0; i < s->ncpus; i++)
		free(s->cpu[i].sw);
	free(s->cpu);
	memset(s, 0, sizeof(*s));
}

static void syscall_name(long long nr, char *name, size_t n)
{
	const struct sc_entry *sc = sc_by_nr((long)nr);

	if (sc && sc->name)
		snprintf(name, n, "%s", sc->name);
	else
		snprintf(name, n, "syscall_%lld", nr);
}

/* A user tracepoint NAME_begin / NAME_end (docs/tracepoints.md) is a slice NAME on its thread. */
static enum ex_kind user_kind(const struct tep_event *ev, char *name, size_t n)
{
	size_t len = strlen(ev->name);

	if (len > 6 && !strcmp(ev->name + len - 6, "_begin")) {
		snprintf(name, n, "%s:%.*s", ev->system, (int)(len - 6), ev->name);
		return EXK_BEGIN;
	}
	if (len > 4 && !strcmp(ev->name + len - 4, "_end")) {
		snprintf(name, n, "%s:%.*s", ev->system, (int)(len - 4), ev->name);
		return EXK_END;
	}
	return EXK_INSTANT;
}

enum ex_kind ex_classify(struct tep_event *ev, struct tep_record *rec, char *name, size_t n)
{
	long long nr;

	if (!strcmp(ev->system, "raw_syscalls") && ex_num(ev, rec, "id", &nr)) {
		bool enter = !strcmp(ev->name, "sys_enter");
		if (enter || !strcmp(ev->name, "sys_exit")) {
			syscall_name(nr, name, n);
			return enter ? EXK_BEGIN : EXK_END;
		}
	}
	if (!strcmp(ev->system, "syscalls")) {
		if (!strncmp(ev->name, "sys_enter_", 10)) {
			snprintf(name, n, "%s", ev->name + 10);
			return EXK_BEGIN;
		}
		if (!strncmp(ev->name, "sys_exit_", 9)) {
			snprintf(name, n, "%s", ev->name + 9);
			return EXK_END;
		}
	}
	struct fg_event fg;
	if (fg_parse(ev, rec, &fg)) {
		/* function_graph calls nest as slices, like syscalls, on their thread. */
		const char *fn = tep_find_function(ev->tep, fg.func);
		if (fn)
			snprintf(name, n, "%s", fn);
		else
			snprintf(name, n, "%llx", (unsigned long long)fg.func);
		return fg.entry ? EXK_BEGIN : EXK_END;
	}
	snprintf(name, n, "%s:%s", ev->system, ev->name);
	if (ev->id >= TF_USER_EVENT_ID_BASE)
		return user_kind(ev, name, n);
	if (!strcmp(ev->system, "sched")) {
		if (!strcmp(ev->name, "sched_switch"))
			return EXK_SWITCH;
		if (!strcmp(ev->name, "sched_waking") || !strcmp(ev->name, "sched_wakeup") ||
		    !strcmp(ev->name, "sched_wakeup_new"))
			return EXK_WAKE;
	}
	return EXK_INSTANT;
}

enum ex_kind ex_nest(struct tidmap *depth, int tid, enum ex_kind k)
{
	if (tid <= 0 && (k == EXK_BEGIN || k == EXK_END))
		return EXK_INSTANT;	/* tidmap keys are positive; idle makes no syscalls */
	uintptr_t d = (uintptr_t)tidmap_get(depth, tid);

	if (k == EXK_BEGIN) {
		tidmap_put(depth, tid, (void *)(d + 1));
		return k;
	}
	if (k != EXK_END)
		return k;
	if (!d)
		return EXK_INSTANT;
	if (d == 1)
		tidmap_del(depth, tid);
	else
		tidmap_put(depth, tid, (void *)(d - 1));
	return EXK_END;
}

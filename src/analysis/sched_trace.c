/*
 * trace.dat -> struct sa_event: finds the sched events' formats once, caches
 * their fields, and reads each record's fields straight from its data.
 */
#include "sched_trace.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "tracefile/fields.h"
#include "tracefile/reader.h"
#include "util/die.h"

const char *const st_event_names[ST_NEVENTS] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exec", "sched_process_exit",
	"sched_stat_runtime",
};

/* Fields per event: [0..3] numbers or strings as each event needs (see decode()). */
struct st_format {
	int id;
	struct tep_format_field *f[4];
};

static const char *const field_names[ST_NEVENTS][4] = {
	[ST_SWITCH] = { "prev_pid", "next_pid", "prev_state", "prev_comm" },
	[ST_WAKING] = { "pid", "target_cpu", "comm", NULL },
	[ST_WAKEUP] = { "pid", "target_cpu", "comm", NULL },
	[ST_WAKEUP_NEW] = { "pid", "target_cpu", "comm", NULL },
	[ST_MIGRATE] = { "pid", "dest_cpu", "comm", NULL },
	[ST_FORK] = { "parent_pid", "child_pid", "parent_comm", "child_comm" },
	[ST_EXEC] = { "pid", "old_pid", "filename", NULL },
	[ST_EXIT] = { "pid", NULL, "comm", NULL },
	[ST_RUNTIME] = { "pid", "runtime", "comm", NULL },
};

struct st_loader {
	struct st_trace *t;
	struct tf_reader *r;
	struct st_format fmt[ST_NEVENTS];
	struct tf_syscall_map sys;
	struct tep_format_field *next_comm;
	char s1[256], s2[256];
	bool exact_pid;		/* the file names the command's pid */
	/* Interrupt context per CPU, from the timer and irq events: see waker(). */
	int ctx_id[6];				/* hrtimer_expire_entry/exit, irq_handler_.., softirq_.. */
	struct tep_format_field *softirq_vec;
	int ncpus;
	signed char *in_hrtimer, *softirq_vec_now;	/* per CPU; vec -1: none */
	/*
	 * per CPU: its next loss of events, cut and counted before its record came, as
	 * counted then (-1: the file did not count it); 0: none
	 */
	long long *cut_ahead;
	int ncut;
};

/* The context events, in ctx_id's order. */
static const char *const ctx_events[6][2] = {
	{ "timer", "hrtimer_expire_entry" }, { "timer", "hrtimer_expire_exit" },
	{ "irq", "irq_handler_entry" }, { "irq", "irq_handler_exit" },
	{ "irq", "softirq_entry" }, { "irq", "softirq_exit" },
};

/* Trace flags in common_flags (the kernel's TRACE_FLAG_*). */
#define TF_HARDIRQ 0x08
#define TF_SOFTIRQ 0x10
#define TF_NMI 0x40
#define SOFTIRQ_TIMER 1
#define SOFTIRQ_HRTIMER 8

static long long num(struct tep_format_field *f, const struct tep_record *rec)
{
	unsigned long long v = 0;

	if (!f || tep_read_number_field(f, rec->data, &v) < 0)
		return 0;
	if (f->size == 4 && (f->flags & TEP_FIELD_IS_SIGNED))
		return (int)v;
	return (long long)v;
}

/* A char[] or __data_loc string field, NUL-terminated in buf. */
static const char *str(struct tep_format_field *f, const struct tep_record *rec, char *buf,
		       size_t len)
{
	tf_field_copy(f, rec, buf, len);
	return buf;
}

/* The events' syscall number, first and third arguments (the args array's, or fields). */
static bool decode_syscall(struct st_loader *l, const struct tf_event *ev, struct sa_event *e)
{
	const struct tf_syscall_event *s = tf_syscall_map_get(&l->sys, ev->event->id);
	if (!s || !s->nr)
		return false;
	struct tep_format_field *arg = s->args;
	struct tep_format_field *arg3 = !s->raw && arg && arg->next ? arg->next->next : NULL;
	e->kind = s->kind == 1 ? SA_SYS_ENTER : SA_SYS_EXIT;
	e->pid = e->cur;
	e->state = (long)num(s->nr, ev->record);
	int sz = arg && (arg->flags & TEP_FIELD_IS_ARRAY) ? (int)arg->elementsize :
		 arg ? (int)arg->size : 0;
	if (s->kind == 1 && sz > 0 && sz <= 8 && arg->offset + sz <= ev->record->size)
		e->arg = tep_read_number(ev->event->tep, (char *)ev->record->data + arg->offset, sz);
	if (s->kind == 1 && arg && (arg->flags & TEP_FIELD_IS_ARRAY)) {
		if (sz > 0 && sz <= 8 && arg->arraylen >= 3 &&
		    arg->offset + 3 * sz <= ev->record->size)
			e->arg3 = tep_read_number(ev->event->tep,
						  (char *)ev->record->data + arg->offset + 2 * sz, sz);
	} else if (s->kind == 1 && arg3) {
		e->arg3 = (uint64_t)num(arg3, ev->record);
	}
	return true;
}

static void find_formats(struct st_loader *l)
{
	struct tep_handle *tep = tf_reader_tep(l->r);

	for (int i = 0; i < ST_NEVENTS; i++) {
		struct tep_event *ev = tep_find_event_by_name(tep, "sched", st_event_names[i]);
		l->fmt[i].id = ev ? ev->id : -1;
		l->t->has[i] = ev != NULL;
		for (int k = 0; ev && k < 4; k++)
			if (field_names[i][k])
				l->fmt[i].f[k] = tep_find_field(ev, field_names[i][k]);
		if (i == ST_SWITCH && ev)
			l->next_comm = tep_find_field(ev, "next_comm");
	}
	l->t->use_waking = l->t->has[ST_WAKING];
	tf_syscall_map_build(&l->sys, tep, NULL);
	for (int i = 0; i < 6; i++) {
		struct tep_event *ev = tep_find_event_by_name(tep, ctx_events[i][0], ctx_events[i][1]);
		l->ctx_id[i] = ev ? ev->id : -1;
		if (ev && i == 4)
			l->softirq_vec = tep_find_field(ev, "vec");
	}
	l->t->has_hrtimer = l->ctx_id[0] >= 0 && l->ctx_id[1] >= 0;
	l->t->has_irq = l->ctx_id[2] >= 0;
	l->t->has_softirq = l->ctx_id[4] >= 0 && l->ctx_id[5] >= 0 && l->softirq_vec;
}

static const enum sa_kind kinds[ST_NEVENTS] = {
	SA_SWITCH, SA_WAKEUP, SA_WAKEUP, SA_WAKEUP_NEW, SA_MIGRATE, SA_FORK, SA_EXEC, SA_EXIT,
	SA_RUNTIME,
};

static int which(const struct st_loader *l, int id)
{
	for (int i = 0; i < ST_NEVENTS; i++)
		if (l->fmt[i].id == id)
			return i;
	return -1;
}

/* A timer or irq event: the CPU's interrupt context as it changes (true when it was one). */
static bool track_context(struct st_loader *l, const struct tf_event *ev)
{
	int id = ev->event->id, k = -1;

	for (int i = 0; i < 6; i++)
		if (l->ctx_id[i] == id)
			k = i;
	if (k < 0)
		return false;
	if (ev->cpu >= l->ncpus) {
		int n = ev->cpu + 1;
		l->in_hrtimer = xrealloc(l->in_hrtimer, (size_t)n);
		l->softirq_vec_now = xrealloc(l->softirq_vec_now, (size_t)n);
		memset(l->in_hrtimer + l->ncpus, 0, (size_t)(n - l->ncpus));
		memset(l->softirq_vec_now + l->ncpus, -1, (size_t)(n - l->ncpus));
		l->ncpus = n;
	}
	if (ev->cpu < 0)
		return true;
	if (k == 0)
		l->in_hrtimer[ev->cpu] = 1;
	else if (k == 1)
		l->in_hrtimer[ev->cpu] = 0;
	else if (k == 4)
		l->softirq_vec_now[ev->cpu] = (signed char)num(l->softirq_vec, ev->record);
	else if (k == 5)
		l->softirq_vec_now[ev->cpu] = -1;
	return true;
}

/*
 * Who made a wakeup: its record's context flags say whether it ran in a hard or
 * soft interrupt; inside a hrtimer's expiry (or the timer softirqs) it is a
 * timer; in the idle task's own context it is idle (a wakeup queued to this
 * CPU and run by its idle loop); otherwise the task that was running.
 */
static int waker(struct st_loader *l, const struct tf_event *ev, int cur)
{
	int flags = tep_data_flags(tf_reader_tep(l->r), (struct tep_record *)ev->record);
	bool cpu_ok = ev->cpu >= 0 && ev->cpu < l->ncpus;

	if (flags < 0)
		return 0;
	if (flags & (TF_HARDIRQ | TF_NMI))
		return 1 + (cpu_ok && l->in_hrtimer[ev->cpu] ? SA_WK_TIMER : SA_WK_HARDIRQ);
	if (flags & TF_SOFTIRQ) {
		int vec = cpu_ok ? l->softirq_vec_now[ev->cpu] : -1;
		return 1 + (vec == SOFTIRQ_TIMER || vec == SOFTIRQ_HRTIMER ? SA_WK_TIMER :
			    SA_WK_SOFTIRQ);
	}
	return 1 + (cur == 0 ? SA_WK_IDLE : SA_WK_TASK);
}

/* The record as an sa_event: a sched event's meaning, or just who ran (SA_RUNS). */
static bool decode(struct st_loader *l, const struct tf_event *ev, struct sa_event *e)
{
	int i = which(l, ev->event->id);
	const struct tep_record *rec = ev->record;
	/* Every record says who ran on its CPU: that fills switch-ins the kernel did not record. */
	*e = (struct sa_event){ .kind = SA_RUNS, .ts = ev->ts, .cpu = ev->cpu, .has_cur = true,
				.cur = tep_data_pid(tf_reader_tep(l->r), (struct tep_record *)rec) };
	if (i < 0 && track_context(l, ev))
		return true;
	if (i < 0 && decode_syscall(l, ev, e))
		return true;
	if (i < 0 || (i == ST_WAKEUP && l->t->use_waking))
		return true;
	struct tep_format_field **f = l->fmt[i].f;
	e->kind = kinds[i];
	e->pid = (int)num(f[0], rec);
	switch (i) {
	case ST_SWITCH:
		e->pid2 = (int)num(f[1], rec);
		e->state = (long)num(f[2], rec);
		e->comm = str(f[3], rec, l->s1, sizeof(l->s1));
		e->comm2 = str(l->next_comm, rec, l->s2, sizeof(l->s2));
		break;
	case ST_FORK:
		e->pid2 = (int)num(f[1], rec);
		e->comm = str(f[2], rec, l->s1, sizeof(l->s1));
		e->comm2 = str(f[3], rec, l->s2, sizeof(l->s2));
		break;
	case ST_RUNTIME:
		e->arg = (uint64_t)num(f[1], rec);
		e->comm = str(f[2], rec, l->s1, sizeof(l->s1));
		break;
	default:
		e->cpu2 = (int)num(f[1], rec);
		e->comm = str(f[2], rec, l->s1, sizeof(l->s1));
		if (e->kind == SA_WAKEUP)
			e->waker = waker(l, ev, e->cur);
		break;
	}
	return true;
}

static char *note(struct tf_reader *r, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; i < tf_reader_nnotes(r); i++) {
		const char *s = tf_reader_note(r, i);
		if (strncmp(s, key, n) == 0 && s[n] == '=')
			return xstrdup(s + n + 1);
	}
	return NULL;
}

static const char *base(const char *s)
{
	const char *slash = strrchr(s, '/');
	return slash ? slash + 1 : s;
}

/* The command's program name: the first word of the note, without its directory. */
void st_command_name(const char *command, char *buf, size_t len)
{
	size_t n = strcspn(command, " "), start = n;

	while (start > 0 && command[start - 1] != '/')
		start--;
	n -= start;
	if (n >= len)
		n = len - 1;
	memcpy(buf, command + start, n);
	buf[n] = 0;
}

/*
 * The pid that exec'd the recorded command, when the file has no "command_pid=" note:
 * the first exec of a program named like the command's first word (a wrapper such
 * as taskset then execs the real program in the same pid).  A concurrent run of
 * the same program that execs first in a whole-system recording would be taken
 * instead: only the note is exact.
 */
static void match_command(struct st_loader *l, const struct sa_event *e)
{
	char want[256];

	if (l->t->command_pid || !l->t->command || e->kind != SA_EXEC || l->exact_pid)
		return;
	st_command_name(l->t->command, want, sizeof(want));
	if (strcmp(base(e->comm), want) == 0)
		l->t->command_pid = e->pid;
}

uint64_t st_ns_of_seconds(double secs)
{
	if (secs <= 0)
		return 0;
	if (secs >= 1.8e10)
		return UINT64_MAX;
	return (uint64_t)(secs * 1e9 + 0.5);
}

struct st_loader *st_begin(struct st_trace *t, const struct st_options *o, struct tf_reader *r,
			   char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	if (!tf_reader_info(r)->ts_usecs) {
		snprintf(err, errlen, "%s: the trace clock (%s) does not count nanoseconds; "
			 "record with a ns clock (mono, local, global)", o->input,
			 tf_reader_info(r)->clock);
		return NULL;
	}
	struct st_loader *l = xcalloc(1, sizeof(*l));
	l->t = t;
	l->r = r;
	find_formats(l);
	if (!t->has[ST_SWITCH]) {
		snprintf(err, errlen, "%s has no sched:sched_switch events; record them "
			 "(tracekit record records them by default)", o->input);
		tf_syscall_map_free(&l->sys);
		free(l);
		return NULL;
	}
	t->command = note(r, "command");
	t->pids = note(r, "pids");
	t->follow = note(r, "follow");
	t->maps = note(r, "maps");
	char *cpid = note(r, "command_pid");
	if (cpid) {
		t->command_pid = atoi(cpid);
		l->exact_pid = t->command_pid > 0;
		free(cpid);
	}
	t->cpus = tf_reader_info(r)->cpus;
	if (tf_reader_info(r)->user_cpu >= 0)
		t->cpus = tf_reader_info(r)->user_cpu;	/* the kernel's CPUs only */
	sa_init(&t->a, o->has_from ? st_ns_of_seconds(o->from) : 0, o->has_to ? st_ns_of_seconds(o->to) : 0);
	return l;
}

int st_waker_of(struct st_loader *l, const struct tf_event *ev)
{
	if (!ev->event || !ev->record)
		return 0;
	return waker(l, ev, tep_data_pid(tf_reader_tep(l->r), (struct tep_record *)ev->record));
}

/*
 * A task switched in here while it still runs on another CPU for all we know, and
 * that CPU's next record comes after a loss of events: its switch-out there is in
 * the gap.  The gap is cut now (its slice there ends at that CPU's last event), not
 * when that CPU's next record is read: else it would be drawn running there up to
 * this switch-in, inside the gap.
 */
static void cut_gap_ahead(struct st_loader *l, const struct sa_event *e)
{
	uint64_t ts;
	long long missed;
	/* Instance buffers share CPU numbers with the top-level one, whose gaps alone are seen. */
	if (e->kind != SA_SWITCH || e->pid2 <= 0 || tf_reader_ninstances(l->r))
		return;
	const struct sa_task *t = sa_task_find(&l->t->a, e->pid2);
	if (!t || t->state != SA_RUNNING || t->cpu < 0 || t->cpu == e->cpu ||
	    !tf_reader_gap_ahead(l->r, t->cpu, &ts, &missed) || ts < e->ts)
		return;
	if (t->cpu >= l->ncut) {
		int n = t->cpu + 1;
		l->cut_ahead = xrealloc(l->cut_ahead, (size_t)n * sizeof(*l->cut_ahead));
		memset(l->cut_ahead + l->ncut, 0, (size_t)(n - l->ncut) * sizeof(*l->cut_ahead));
		l->ncut = n;
	}
	/* Counted now: a --to or a filter may stop before the record that carries it. */
	l->t->lost += missed > 0 ? missed : 1;
	sa_lost(&l->t->a, t->cpu, ts);
	l->cut_ahead[t->cpu] = missed;	/* never 0: the record follows a loss */
}

void st_feed(struct st_loader *l, const struct tf_event *ev)
{
	/* The CPU's first event after a gap cut ahead carries the loss: cut already. */
	long long was = ev->cpu >= 0 && ev->cpu < l->ncut ? l->cut_ahead[ev->cpu] : 0;
	if (was)
		l->cut_ahead[ev->cpu] = 0;
	if (ev->missed && was) {
		/* a filter may have carried more losses onto it than the record seen ahead had */
		if (was > 0 && ev->missed > was)
			l->t->lost += ev->missed - was;
	} else if (ev->missed) {
		l->t->lost += ev->missed > 0 ? ev->missed : 1;
		sa_lost(&l->t->a, ev->cpu, ev->ts);
	}
	struct sa_event e;
	if (!ev->event || !decode(l, ev, &e))
		return;
	match_command(l, &e);
	cut_gap_ahead(l, &e);
	sa_feed(&l->t->a, &e);
}

void st_end(struct st_loader *l, uint64_t last)
{
	sa_finish(&l->t->a, last);
	tf_syscall_map_free(&l->sys);
	free(l->in_hrtimer);
	free(l->cut_ahead);
	free(l->softirq_vec_now);
	free(l);
}

int st_load(struct st_trace *t, const struct st_options *o, char *err, size_t errlen)
{
	struct tf_event ev;
	uint64_t to = o->has_to ? st_ns_of_seconds(o->to) : UINT64_MAX, last = 0;
	int rc = -1;

	memset(t, 0, sizeof(*t));
	struct tf_reader *r = tf_reader_open(o->input, err, errlen);
	if (!r)
		return -1;
	if (tf_reader_set_filters(r, o->filters, o->nfilters, err, errlen) < 0) {
		tf_reader_close(r);
		return -2;
	}
	struct st_loader *l = st_begin(t, o, r, err, errlen);
	if (!l)
		goto out;
	uint64_t after_to = 0;	/* the first event, when it comes after --to */
	bool fed = false;
	while ((rc = tf_reader_next(r, &ev, err, errlen)) == 1) {
		if (ev.ts > to) {
			/* The trace goes on past --to: every state seen lasts until then. */
			last = to;
			after_to = fed ? 0 : ev.ts;
			break;
		}
		last = ev.ts;
		fed = true;
		st_feed(l, &ev);
	}
	st_end(l, last);
	rc = rc < 0 ? -1 : 0;
	if (rc == 0 && after_to) {
		snprintf(err, errlen, "--to %.6f: %s's events start at %.6f s, after it (see "
			 "tracekit report --stat)", o->to, o->input, (double)after_to / 1e9);
		rc = -1;
	}
	/* the file ended before --from (a window in a quiet stretch inside it is no error) */
	if (rc == 0 && o->has_from && fed && last < to && t->a.last_ts < t->a.from) {
		snprintf(err, errlen, "--from %.6f: %s's events end at %.6f s, before it (see "
			 "tracekit report --stat)", o->from, o->input, (double)t->a.last_ts / 1e9);
		rc = -1;
	}
out:
	tf_reader_close(r);
	return rc;
}

void st_free(struct st_trace *t)
{
	sa_free(&t->a);
	free(t->command);
	free(t->pids);
	free(t->follow);
	free(t->maps);
	for (int i = 0; i < t->nnames; i++)
		free(t->names[i]);
	free(t->names);
}

/*
 * tracekit report --syscalls: the syscall events of a trace.dat
 * (raw_syscalls:sys_enter/sys_exit or syscalls:sys_enter_NAME/sys_exit_NAME)
 * as strace's lines, through the same decoders as `tracekit syscalls`.
 *
 * A trace file holds the arguments, not the memory they point to, so every
 * decoder runs on an empty snapshot: pointers print as addresses (stderr says
 * so once).  Entry and exit are paired per thread; a line is printed at its
 * exit, stamped with its entry time; calls still open at the end of the file
 * print as "<unfinished ...>".
 */
#include <event-parse.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "syscalls/format.h"
#include "tracefile/reader.h"
#include "tracefile/fields.h"
#include "util/die.h"
#include "util/tidmap.h"

#define RET_COLUMN 40

struct open_call {
	struct sc_call c;
	struct strbuf text;
	uint64_t ts;
};

struct rp_sys {
	struct tf_syscall_map map;
	struct tidmap calls;
	struct sc_fmt fmt;
	struct strbuf line, ret;
	FILE *out;
	unsigned long printed;
};

/* syscalls:sys_*_NAME's number, for an event without __syscall_nr. */
static long nr_of_name(const char *name)
{
	const struct sc_entry *ent = sc_by_name(name);
	return ent ? ent->nr : -1;
}

static long event_nr(const struct tf_syscall_event *e, const struct tep_record *rec)
{
	if (e->nr) {
		long long v = (long long)tf_field_num(e->nr, rec, 0);
		return e->nr->size == 4 ? (int)v : (long)v;
	}
	return e->fixed_nr;
}

static void print_line(struct rp_sys *s, int tid, uint64_t ts, const char *text, const char *ret)
{
	struct strbuf *l = &s->line;
	sb_reset(l);
	sb_printf(l, "%llu.%06llu %-5d ", (unsigned long long)(ts / 1000000000u),
		  (unsigned long long)(ts % 1000000000u / 1000), tid);
	size_t start = l->len;
	sb_add(l, text);
	if (ret) {
		size_t col = l->len - start;
		do
			sb_addc(l, ' ');
		while (++col < RET_COLUMN);
		sb_add(l, ret[0] == ' ' ? ret + 1 : ret);
	}
	sb_addc(l, '\n');
	fwrite(sb_str(l), 1, l->len, s->out);
	s->printed++;
}

static void free_call(struct open_call *oc)
{
	sc_call_reset(&oc->c);
	sc_mem_free(&oc->c.mem);
	sb_free(&oc->text);
	free(oc);
}

static void on_enter_event(struct rp_sys *s, int tid, long nr, const struct tf_syscall_event *e,
		     const struct tep_record *rec, uint64_t ts)
{
	struct open_call *oc = tidmap_del(&s->calls, tid);
	if (oc) {
		sb_add(&oc->text, " <unfinished ...>)");
		print_line(s, tid, oc->ts, sb_str(&oc->text), " = ?");
		free_call(oc);
	}
	oc = xcalloc(1, sizeof(*oc));
	oc->ts = ts;
	oc->c.tid = tid;
	oc->c.out = &oc->text;
	oc->c.fmt = &s->fmt;
	sc_call_reset(&oc->c);
	oc->c.nr = nr;
	oc->c.ent = sc_by_nr(nr);
	oc->c.resumes = -1;
	int nargs = oc->c.ent ? oc->c.ent->nargs : 6;
	struct tep_format_field *f = e->args;
	for (int i = 0; i < 6 && i < nargs && f; i++) {
		oc->c.args[i] = tf_field_num(f, rec, e->raw ? i : 0);
		if (!e->raw)
			f = f->next;
	}
	sc_decode_entry(&oc->c);
	tidmap_put(&s->calls, tid, oc);
}

static void on_exit_event(struct rp_sys *s, int tid, long nr, const struct tf_syscall_event *e,
		    const struct tep_record *rec)
{
	struct open_call *oc = tidmap_del(&s->calls, tid);
	if (!oc || oc->c.nr != nr) {
		/* Its entry is before the file starts (or was lost). */
		if (oc)
			free_call(oc);
		return;
	}
	oc->c.ret = (int64_t)tf_field_num(e->ret, rec, 0);
	sc_decode_exit(&oc->c);
	sb_reset(&s->ret);
	sc_format_ret(&oc->c, &s->ret, false);
	print_line(s, tid, oc->ts, sb_str(&oc->text), sb_str(&s->ret));
	free_call(oc);
}

int rp_syscalls(const struct rp_options *o, FILE *out, char *err, size_t errlen)
{
	struct tf_reader *r = tf_reader_open(o->input, err, errlen);
	if (!r)
		return -1;
	if (o->cpus && tf_reader_select_cpus(r, o->cpus, o->ncpus) < 0) {
		snprintf(err, errlen, "%s: cannot select CPUs", o->input);
		tf_reader_close(r);
		return -1;
	}
	struct rp_sys s = { .out = out, .fmt = { .strsize = 32 } };
	struct tep_handle *tep = tf_reader_tep(r);
	tf_syscall_map_build(&s.map, tep, nr_of_name);
	if (!s.map.n) {
		snprintf(err, errlen, "%s holds no syscall events (record with -e raw_syscalls or "
			 "-e 'syscalls:*')", o->input);
		tf_reader_close(r);
		return -1;
	}
	warnmsg("%s holds syscall arguments, not the memory they point to: pointers print as addresses",
		o->input);
	struct tf_event ev;
	int rc, status = 0;
	while ((rc = tf_reader_next(r, &ev, err, errlen)) > 0) {
		const struct tf_syscall_event *e = ev.event ? tf_syscall_map_get(&s.map, ev.event->id) : NULL;
		if (!e)
			continue;
		double secs = (double)ev.ts / 1e9;
		if ((o->has_from && secs < o->from) || (o->has_to && secs > o->to))
			continue;
		int tid = tep_data_pid(tep, ev.record);
		long nr = event_nr(e, ev.record);
		if (e->kind == 1)
			on_enter_event(&s, tid, nr, e, ev.record, ev.ts);
		else
			on_exit_event(&s, tid, nr, e, ev.record);
	}
	if (rc < 0)
		status = -1;
	tidmap_foreach(&s.calls, slot) {
		struct open_call *oc = slot->val;
		sb_add(&oc->text, " <unfinished ...>");
		print_line(&s, slot->tid, oc->ts, sb_str(&oc->text), NULL);
		free_call(oc);
	}
	tidmap_free(&s.calls);
	sb_free(&s.line);
	sb_free(&s.ret);
	tf_syscall_map_free(&s.map);
	tf_reader_close(r);
	return status;
}

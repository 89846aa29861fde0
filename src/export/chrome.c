/*
 * Chrome Trace Event JSON: {"displayTimeUnit":"ns","traceEvents":[...]}.
 *
 * Each CPU is a thread of a made-up "CPUs" process; the tasks that ran on it are
 * complete ("X") slices from one sched_switch to the next, idle left blank.
 * Syscalls are B/E slices on their thread; every other event is an instant ("i")
 * with its fields as args.  Times are µs with the nanoseconds as decimals.
 * Events come out in time order: each CPU slice is written at its start, its
 * end being known from the first pass.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "export/export.h"
#include "export/writers.h"
#include "tracefile/merge.h"
#include "tracefile/reader.h"
#include "util/die.h"
#include "util/json.h"

/* CPU lanes live in a process no real pid reaches (pid_max is at most 2^22). */
#define CPU_PID 0x7fff0000

struct chrome {
	FILE *out;
	const struct ex_scan *s;
	size_t *next_sw;	/* per CPU: how many of its switches are written */
	bool *started;		/* per CPU: its first slice is written */
	struct tidmap depth;	/* per thread: open syscall slices */
	bool *first;		/* no event written yet (several machines share it) */
	/* Several files: machine i's pids shifted by i * MACHINE_PIDS, its CPUs in a process
	 * of their own, its names prefixed with the machine's ("guest: "). */
	int pid_base;
	int cpu_pid;
	const char *prefix;
	bool guest;
};

#define MACHINE_PIDS 10000000

/* A string up to its NUL (fields are padded arrays), escaped as util/json.h says. */
static void put_str(FILE *f, const char *p, size_t n)
{
	json_fputn(f, p, strnlen(p, n));
}

static void put_cstr(FILE *f, const char *s)
{
	json_fputs(f, s);
}

static void put_ts(FILE *f, const char *key, uint64_t ns)
{
	fprintf(f, ",\"%s\":%llu.%03u", key, (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

/* A task's pid or tid on the output: shifted by its machine's base (not the CPUs' ids). */
static int shifted(const struct chrome *c, int id)
{
	return id > 0 && id < MACHINE_PIDS ? id + c->pid_base : id;
}

static void begin(struct chrome *c, const char *ph, int pid, int tid)
{
	fprintf(c->out, "%s\n{\"ph\":\"%s\",\"pid\":%d,\"tid\":%d", *c->first ? "" : ",", ph,
		shifted(c, pid), shifted(c, tid));
	*c->first = false;
}

static void meta(struct chrome *c, const char *what, int pid, int tid, const char *name)
{
	begin(c, "M", pid, tid);
	fprintf(c->out, ",\"name\":\"%s\",\"args\":{\"name\":", what);
	if (c->prefix[0]) {
		char full[128];
		snprintf(full, sizeof(full), "%s: %s", c->prefix, name);
		put_cstr(c->out, full);
	} else {
		put_cstr(c->out, name);
	}
	fputs("}}", c->out);
}

static void write_meta(struct chrome *c)
{
	char name[64];

	meta(c, "process_name", c->cpu_pid, c->cpu_pid, c->guest ? "vCPUs" : "CPUs");
	for (int i = 0; i < c->s->ncpus; i++) {
		snprintf(name, sizeof(name), "%s %d", c->guest ? "vCPU" : "CPU", i);
		meta(c, "thread_name", c->cpu_pid, c->cpu_pid + 1 + i, name);
		begin(c, "M", c->cpu_pid, c->cpu_pid + 1 + i);
		fprintf(c->out, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}", i);
	}
	/* Threads under their process (the file's saved tgids); a process is named by its leader. */
	tidmap_foreach(&c->s->names, slot) {
		int tgid = ex_tgid(c->s, slot->tid);
		if (tgid == slot->tid)
			meta(c, "process_name", tgid, tgid, slot->val);
		meta(c, "thread_name", tgid, slot->tid, slot->val);
	}
}

/* A task's run on a CPU: from start to end, an X slice on the CPU's lane. */
static void cpu_slice(struct chrome *c, int cpu, uint64_t start, uint64_t end, int pid,
		      const char *comm)
{
	begin(c, "X", c->cpu_pid, c->cpu_pid + 1 + cpu);
	put_ts(c->out, "ts", start);
	put_ts(c->out, "dur", end - start);
	fputs(",\"cat\":\"sched\",\"name\":", c->out);
	put_cstr(c->out, comm);
	fprintf(c->out, ",\"args\":{\"pid\":%d,\"cpu\":%d}}", pid, cpu);
}

static uint64_t slice_end(const struct chrome *c, int cpu, size_t k)
{
	const struct ex_cpu *ec = &c->s->cpu[cpu];
	return k < ec->nsw ? ec->sw[k] : c->s->last_ts;
}

/* Whoever ran before a CPU's first switch ran, as far as we know, from its first event. */
static void cpu_start(struct chrome *c, int cpu)
{
	const struct ex_cpu *ec = &c->s->cpu[cpu];

	c->started[cpu] = true;
	if (ec->nsw && ec->first_prev_pid > 0)
		cpu_slice(c, cpu, ec->first_ts, ec->sw[0], ec->first_prev_pid, ec->first_prev_comm);
}

static void on_switch(struct chrome *c, struct tf_event *e)
{
	size_t k = ++c->next_sw[e->cpu];
	long long next;
	char comm[32];

	if (!ex_num(e->event, e->record, "next_pid", &next) || next == 0)
		return;
	if (!ex_str(e->event, e->record, "next_comm", comm, sizeof(comm)))
		snprintf(comm, sizeof(comm), "%s", ex_name(c->s, (int)next));
	cpu_slice(c, e->cpu, e->ts, slice_end(c, e->cpu, k), (int)next, comm);
}

/* The event's fields as a JSON object: numbers, strings, arrays of numbers. */
static void put_field(FILE *f, struct tep_format_field *fl, struct tep_record *rec)
{
	unsigned off = (unsigned)fl->offset, len = (unsigned)fl->size, size = (unsigned)rec->size;
	const char *data = rec->data;

	if (off > size || len > size - off) {
		fputs("null", f);
		return;
	}
	if (fl->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned loc = (unsigned)tep_read_number(fl->event->tep, data + off, 4);
		off = (loc & 0xffff) + ((fl->flags & TEP_FIELD_IS_RELATIVE) ? off + len : 0);
		len = loc >> 16;
		if (off > size || len > size - off) {
			fputs("null", f);
			return;
		}
	}
	if (fl->flags & TEP_FIELD_IS_STRING) {
		put_str(f, data + off, len);
		return;
	}
	bool sign = fl->flags & TEP_FIELD_IS_SIGNED;
	unsigned es = (fl->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) ?
		(fl->elementsize > 0 ? (unsigned)fl->elementsize : 1) : len;
	bool array = es != len || (fl->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC));
	if (es != 1 && es != 2 && es != 4 && es != 8) {
		fputs("null", f);
		return;
	}
	if (array)
		putc('[', f);
	for (unsigned i = 0; i + es <= len; i += es) {
		unsigned long long v = tep_read_number(fl->event->tep, data + off + i, (int)es);
		if (i)
			putc(',', f);
		if (sign && es < 8)
			fprintf(f, "%lld", (long long)(v << (64 - 8 * es)) >> (64 - 8 * es));
		else if (sign)
			fprintf(f, "%lld", (long long)v);
		else
			fprintf(f, "%llu", v);
	}
	if (array)
		putc(']', f);
}

static void put_args(FILE *f, struct tep_event *ev, struct tep_record *rec)
{
	fputs(",\"args\":{", f);
	for (struct tep_format_field *fl = ev->format.fields; fl; fl = fl->next) {
		put_cstr(f, fl->name);
		putc(':', f);
		put_field(f, fl, rec);
		if (fl->next)
			putc(',', f);
	}
	putc('}', f);
}

static void on_event(struct chrome *c, struct tep_handle *tep, struct tf_event *e)
{
	int pid = tep_data_pid(tep, e->record);
	char name[256];

	if (!e->event) {
		begin(c, "i", ex_tgid(c->s, pid), pid);
		put_ts(c->out, "ts", e->ts);
		fprintf(c->out, ",\"s\":\"t\",\"name\":\"unknown event\",\"args\":{\"id\":%d}}",
			tep_data_type(tep, e->record));
		return;
	}
	enum ex_kind k = ex_classify(e->event, e->record, name, sizeof(name));
	if (k == EXK_SWITCH) {
		on_switch(c, e);
		return;
	}
	k = ex_nest(&c->depth, pid, k);
	if (k == EXK_INSTANT && (!strcmp(e->event->system, "syscalls") ||
				 !strcmp(e->event->system, "raw_syscalls")))
		snprintf(name, sizeof(name), "%s:%s", e->event->system, e->event->name);
	begin(c, k == EXK_BEGIN ? "B" : k == EXK_END ? "E" : "i", ex_tgid(c->s, pid), pid);
	put_ts(c->out, "ts", e->ts);
	if (k == EXK_WAKE || k == EXK_INSTANT)
		fputs(",\"s\":\"t\"", c->out);
	fprintf(c->out, ",\"cat\":");
	put_cstr(c->out, e->event->system);
	fputs(",\"name\":", c->out);
	put_cstr(c->out, name);
	put_args(c->out, e->event, e->record);
	putc('}', c->out);
}

static void chrome_start(struct chrome *c, const struct ex_scan *s, FILE *out, bool *first,
			 int machine, const char *prefix, bool guest)
{
	*c = (struct chrome){ .out = out, .s = s, .first = first, .prefix = prefix,
			      .guest = guest, .pid_base = machine * MACHINE_PIDS,
			      .cpu_pid = CPU_PID - machine * 0x10000 };
	c->next_sw = xcalloc((size_t)s->ncpus + 1, sizeof(*c->next_sw));
	c->started = xcalloc((size_t)s->ncpus + 1, sizeof(*c->started));
	write_meta(c);
}

static int chrome_event(struct chrome *c, struct tep_handle *tep, struct tf_event *e, char *err,
			size_t errlen)
{
	if (e->cpu >= c->s->ncpus) {
		snprintf(err, errlen, "CPU %d appeared on the second reading only", e->cpu);
		return -1;
	}
	if (!c->started[e->cpu])
		cpu_start(c, e->cpu);
	on_event(c, tep, e);
	return 0;
}

static void chrome_finish(struct chrome *c)
{
	free(c->next_sw);
	free(c->started);
	tidmap_free(&c->depth);
}

int ex_write_chrome(struct tf_reader *r, const struct ex_scan *s, FILE *out, char *err,
		    size_t errlen)
{
	struct chrome c;
	bool first = true;
	struct tf_event e;
	int rc;

	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	chrome_start(&c, s, out, &first, 0, "", false);
	while ((rc = tf_reader_next(r, &e, err, errlen)) == 1)
		if ((rc = chrome_event(&c, tf_reader_tep(r), &e, err, errlen)) < 0)
			break;
	fputs("\n]}\n", out);
	chrome_finish(&c);
	return rc;
}

int ex_write_chrome_merged(struct tf_merge *m, const struct ex_scan *s, FILE *out, char *err,
			   size_t errlen)
{
	int n = tf_merge_nmachines(m);
	struct chrome c[TF_MAX_MACHINES];
	bool first = true;
	struct tf_event e;
	int rc;

	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	for (int i = 0; i < n; i++) {
		const struct tf_machine *x = tf_merge_machine(m, i);
		chrome_start(&c[i], &s[i], out, &first, i, x->name, x->host >= 0);
	}
	while ((rc = tf_merge_next(m, &e, err, errlen)) == 1)
		if ((rc = chrome_event(&c[e.machine], tf_reader_tep(tf_merge_machine(m, e.machine)->r),
				       &e, err, errlen)) < 0)
			break;
	fputs("\n]}\n", out);
	for (int i = 0; i < n; i++)
		chrome_finish(&c[i]);
	return rc;
}

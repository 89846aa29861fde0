/*
 * tracekit report's driver and text printer.  The line is trace-cmd report's
 * (3.x, default options): "%16s-%-5d [%03d]", the time as seconds.usecs for ns
 * clocks (raw counts otherwise), the event name padded to 20 columns, then the
 * event's own print format through libtraceevent.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "report/fastprint.h"
#include "tracefile/filtercheck.h"
#include "report/funcgraph.h"
#include "report/report.h"
#include "report/stat.h"
#include "tracefile/merge.h"
#include "tracefile/reader.h"

void rp_format_line(struct tep_handle *tep, struct tep_record *rec, struct tep_event *ev,
		    int cpu, bool ts_usecs, struct trace_seq *s)
{
	static const char spaces[] = "                    ";	/* 20 */
	const char *name = ev ? ev->name : "(NULL)";
	size_t len = strlen(name);

	if (rec->missed_events > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]\n", cpu, rec->missed_events);
	else if (rec->missed_events < 0)
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]\n", cpu);
	tep_print_event(tep, s, rec, ts_usecs ? "%16s-%-5d [%03d] %6.1000d:" : "%16s-%-5d [%03d]%12d:",
			TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_TIME);
	trace_seq_printf(s, " %s: ", name);
	if (len < 20)
		trace_seq_printf(s, "%.*s", (int)(20 - len), spaces);
	tep_print_event(tep, s, rec, "%s", TEP_PRINT_INFO);
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
}

/* Seconds to the trace clock's units: ns for ns clocks, raw counts otherwise. */
static uint64_t to_units(double secs, bool ns)
{
	double v = ns ? secs * 1e9 : secs;

	if (v <= 0)
		return 0;
	if (v >= 18446744073709551615.0)
		return UINT64_MAX;
	return (uint64_t)(v + 0.5);
}

/* What each file (machine) needs of its own: its formats, filter, printer, counts. */
struct per_machine {
	struct tf_reader *r;
	struct tep_handle *tep;
	struct tep_event_filter *filter;	/* NULL: none, or (skip) none of -F fits it */
	bool skip;
	uint64_t from, to;
	struct rp_stat *stat;
	struct rp_fast *fast;
};

struct run {
	const struct rp_options *o;
	struct tf_merge *m;
	int nm;
	struct per_machine pm[TF_MAX_MACHINES];
	/* the machine of the event at hand: its reader, tep, filter, printer, counts */
	struct tf_reader *r;
	struct tep_handle *tep;
	struct tep_event_filter *filter;
	uint64_t from, to;
	struct rp_stat *stat;
	struct rp_fast *fast;	/* text mode's compiled printer; NULL: the reference one */
	FILE *out;
	struct trace_seq s;
	struct rp_buf buf;	/* its output, written out in big blocks */
	struct rp_fg fg;	/* a funcgraph_entry waiting for the next event (text mode) */
	int name_width;		/* files or instance buffers named on each line: the longest */
};

static void use_machine(struct run *x, int i)
{
	struct per_machine *p = &x->pm[i];

	x->r = p->r;
	x->tep = p->tep;
	x->filter = p->filter;
	x->from = p->from;
	x->to = p->to;
	x->stat = p->stat;
	x->fast = p->fast;
}

#define FLUSH_AT (256u << 10)

static int flush_buf(struct run *x)
{
	size_t n = x->buf.len;

	x->buf.len = 0;
	return fwrite(x->buf.p, 1, n, x->out) == n ? 0 : -1;
}

/* A buffer's name (from the file: anything) as a JSON string and a comma. */
static void json_name(struct trace_seq *t, const char *name)
{
	trace_seq_putc(t, '"');
	for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
		if (*c == '"' || *c == '\\')
			trace_seq_printf(t, "\\%c", *c);
		else if (*c < 0x20 || *c >= 0x7f)
			trace_seq_printf(t, "\\u%04x", *c);
		else
			trace_seq_putc(t, (char)*c);
	}
	trace_seq_puts(t, "\",");
}

/*
 * A file with instance buffers: as trace-cmd report does, each line starts with
 * its buffer's name right-aligned to the longest and ": ", blanks for the
 * top-level buffer.  Several files: the file's name as given, the buffer's for an
 * instance's events (trace-cmd report's habit).
 */
static int buffer_prefix(struct run *x, const struct tf_event *ev, char *buf, size_t len)
{
	if (!x->name_width)
		return 0;
	if (ev->buffer)
		return snprintf(buf, len, "%*s: ", x->name_width, ev->buffer);
	if (x->nm > 1)
		return snprintf(buf, len, "%*s: ", x->name_width,
				tf_merge_machine(x->m, ev->machine)->path);
	return snprintf(buf, len, "%*s  ", x->name_width, "");
}

static int emit_fast(struct run *x, const struct tf_event *ev)
{
	char prefix[300];
	int n = buffer_prefix(x, ev, prefix, sizeof(prefix));

	if (n > 0 && rp_buf_put(&x->buf, prefix, (size_t)n < sizeof(prefix) ? (size_t)n :
				sizeof(prefix) - 1) < 0)
		return -1;
	if (rp_fast_line(x->fast, ev->record, ev->event, ev->cpu, &x->buf) < 0)
		return -1;
	if (rp_buf_put(&x->buf, "\n", 1) < 0)
		return -1;
	return x->buf.len >= FLUSH_AT ? flush_buf(x) : 0;
}

static bool wanted(struct run *x, const struct tf_event *ev)
{
	if (x->o->has_from && ev->ts < x->from)
		return false;
	if (x->o->has_to && ev->ts > x->to)
		return false;
	if (x->filter && tep_filter_match(x->filter, ev->record) != TEP_ERRNO__FILTER_MATCH)
		return false;
	return true;
}

static int emit(struct run *x, const struct tf_event *ev)
{
	if (x->o->mode == RP_STAT) {
		rp_stat_add(x->stat, ev);
		return 0;
	}
	if (x->fast)
		return emit_fast(x, ev);
	trace_seq_reset(&x->s);
	if (x->o->mode == RP_JSON) {
		rp_format_json(x->tep, ev->record, ev->event, ev->cpu, &x->s);
		if (x->name_width && x->s.len && x->s.buffer[0] == '{') {
			/* Which machine and buffer, first: {"machine":"NAME","buffer":"NAME"
			 * or null,... */
			struct trace_seq t;
			trace_seq_init(&t);
			trace_seq_putc(&t, '{');
			if (x->nm > 1) {
				trace_seq_puts(&t, "\"machine\":");
				json_name(&t, tf_merge_machine(x->m, ev->machine)->name);
			}
			trace_seq_puts(&t, "\"buffer\":");
			if (ev->buffer)
				json_name(&t, ev->buffer);
			else
				trace_seq_puts(&t, "null,");
			trace_seq_printf(&t, "%.*s", (int)x->s.len - 1, x->s.buffer + 1);
			trace_seq_reset(&x->s);
			trace_seq_printf(&x->s, "%.*s", (int)t.len, t.buffer);
			trace_seq_destroy(&t);
		}
	} else {
		char prefix[300];
		if (buffer_prefix(x, ev, prefix, sizeof(prefix)) > 0)
			trace_seq_puts(&x->s, prefix);
		rp_format_line(x->tep, ev->record, ev->event, ev->cpu,
			       tf_reader_info(x->r)->ts_usecs, &x->s);
	}
	if (x->s.state != TRACE_SEQ__GOOD)
		return -1;
	trace_seq_putc(&x->s, '\n');
	return fwrite(x->s.buffer, 1, x->s.len, x->out) == x->s.len ? 0 : -1;
}

/* The held funcgraph_entry, as a leaf with exit's duration or (exit NULL) nested. */
static int emit_held(struct run *x, const struct tf_event *exit)
{
	use_machine(x, x->fg.ev.machine);
	x->fg.held = false;
	fg_set_leaf(x->tep, exit ? exit->record : NULL);
	int ret = emit(x, &x->fg.ev);
	fg_set_leaf(x->tep, NULL);
	return ret;
}

static int loop(struct run *x, char *err, size_t errlen)
{
	struct tf_event ev;
	int ret;

	for (int i = 0; x->o->mode == RP_TEXT && i < x->nm; i++) {
		if (x->nm > 1)
			fprintf(x->out, "%*s: ", x->name_width, tf_merge_machine(x->m, i)->path);
		fprintf(x->out, "cpus=%d\n", tf_reader_info(x->pm[i].r)->cpus);
	}
	while ((ret = tf_merge_next(x->m, &ev, err, errlen)) > 0) {
		if (x->fg.held) {
			bool leaf = ev.machine == x->fg.ev.machine &&
				    rp_fg_is_leaf_exit(&x->fg, x->pm[ev.machine].tep, &ev);
			if (emit_held(x, leaf ? &ev : NULL) < 0)
				goto write_error;
			if (leaf)
				continue;
		}
		use_machine(x, ev.machine);
		if (x->pm[ev.machine].skip)
			continue;
		if (x->o->has_to && ev.ts > x->to && x->nm == 1)
			break;	/* time order: nothing later can match */
		if (!wanted(x, &ev))
			continue;
		if (x->o->mode == RP_TEXT && rp_fg_hold(&x->fg, x->tep, &ev))
			continue;
		if (emit(x, &ev) < 0)
			goto write_error;
	}
	if (ret < 0)
		return -1;
	if (x->fg.held && emit_held(x, NULL) < 0)
		goto write_error;
	if (x->buf.len && flush_buf(x) < 0) {
		snprintf(err, errlen, "write error: %s", strerror(errno));
		return -1;
	}
	for (int i = 0; x->o->mode == RP_STAT && i < x->nm; i++) {
		if (x->nm > 1)
			fprintf(x->out, "%s%s (%s):\n", i ? "\n" : "", tf_merge_machine(x->m, i)->path,
				tf_merge_machine(x->m, i)->name);
		rp_stat_print(x->pm[i].stat, x->pm[i].r, x->out);
	}
	return 0;
write_error:
	snprintf(err, errlen, "write error: %s", strerror(errno));
	return -1;
}

static bool getenv_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0") != 0;
}

/* TRACEKIT_REPORT_DEBUG: which paths read and printed the events, on stderr. */
static void debug_paths(struct run *x)
{
	for (int i = 0; i < x->nm; i++) {
		const char *why = NULL;
		char summary[700] = "off";

		tf_reader_fast(x->pm[i].r, &why);
		if (x->pm[i].fast)
			rp_fast_summary(x->pm[i].fast, summary, sizeof(summary));
		fprintf(stderr, "tracekit: report: %s%sreader: %s%s; printer: %s\n",
			x->nm > 1 ? tf_merge_machine(x->m, i)->path : "", x->nm > 1 ? ": " : "",
			why ? "libtracecmd, because of " : "fast", why ? why : "", summary);
	}
}

/* One file's part of the run: its filter, CPUs, time window, printer and counts. */
static int setup_machine(struct run *x, int i, char *err, size_t errlen)
{
	const struct rp_options *o = x->o;
	struct per_machine *p = &x->pm[i];
	const struct tf_info *info;

	p->r = tf_merge_machine(x->m, i)->r;
	p->tep = tf_reader_tep(p->r);
	info = tf_reader_info(p->r);
	for (int k = 0; k < tf_reader_ninstances(p->r); k++) {
		int len = (int)strlen(tf_reader_instance(p->r, k));
		if (len > x->name_width)
			x->name_width = len > 256 ? 256 : len;
	}
	if (o->cpus && tf_reader_select_cpus(p->r, o->cpus, o->ncpus) < 0) {
		snprintf(err, errlen, "cannot select CPUs: %s", strerror(errno));
		return -1;
	}
	if (o->nfilters) {
		char why[1024];
		p->filter = tf_filter_make(p->tep, o->filters, o->nfilters, why, sizeof(why));
		/* Of several files, one without the event shows none of it (trace-cmd's way). */
		if (!p->filter && x->nm == 1) {
			snprintf(err, errlen, "%s", why);
			return -2;
		}
		p->skip = !p->filter;
		if (p->skip && !err[0])
			snprintf(err, errlen, "%s", why);
	}
	p->from = to_units(o->from, info->ts_usecs);
	p->to = to_units(o->to, info->ts_usecs);
	if (o->mode == RP_STAT && !(p->stat = rp_stat_new()))
		goto oom;
	if (o->mode == RP_TEXT && !getenv_set("TRACEKIT_REPORT_GENERIC") &&
	    !(p->fast = rp_fast_new(p->tep, info->ts_usecs)))
		goto oom;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

/* --cpu N that no file has: a usage mistake. */
static int check_cpus(struct run *x, char *err, size_t errlen)
{
	const struct rp_options *o = x->o;
	int most = 0;

	for (int i = 0; i < x->nm; i++)
		if (tf_reader_info(x->pm[i].r)->cpus > most)
			most = tf_reader_info(x->pm[i].r)->cpus;
	for (int i = 0; o->cpus && i < o->ncpus; i++) {
		if (o->cpus[i] && i >= most) {
			snprintf(err, errlen, "--cpu %d: %s has CPUs 0-%d", i,
				 x->nm == 1 ? tf_merge_machine(x->m, 0)->path : "no file",
				 most - 1);
			return -1;
		}
	}
	return 0;
}

int rp_run(const struct rp_options *o, FILE *out, char *err, size_t errlen)
{
	struct run x = { .o = o, .out = out };
	const char *one[1] = { o->input };
	int ret = -1;

	x.m = tf_merge_open(o->ninputs ? o->inputs : one, o->ninputs ? o->ninputs : 1, err,
			    errlen);
	if (!x.m)
		return -1;
	x.nm = tf_merge_nmachines(x.m);
	for (int i = 0; x.nm > 1 && i < x.nm; i++) {
		int len = (int)strlen(tf_merge_machine(x.m, i)->path);
		if (len > x.name_width)
			x.name_width = len > 256 ? 256 : len;
	}
	err[0] = '\0';
	for (int i = 0; i < x.nm; i++) {
		ret = setup_machine(&x, i, err, errlen);
		if (ret < 0)
			goto out;
	}
	ret = -2;
	bool any = false;
	for (int i = 0; i < x.nm; i++)
		any |= !x.pm[i].skip;
	if (!any)
		goto out;	/* no file takes the -F filters: err says why for the first */
	ret = -1;
	if (check_cpus(&x, err, errlen) < 0)
		goto out;
	err[0] = '\0';
	use_machine(&x, 0);
	trace_seq_init(&x.s);
	ret = loop(&x, err, errlen);
	trace_seq_destroy(&x.s);
	if (getenv_set("TRACEKIT_REPORT_DEBUG"))
		debug_paths(&x);
out:
	for (int i = 0; i < x.nm; i++) {
		rp_fast_free(x.pm[i].fast);
		rp_stat_free(x.pm[i].stat);
		if (x.pm[i].filter)
			tep_filter_free(x.pm[i].filter);
	}
	rp_fg_free(&x.fg);
	free(x.buf.p);
	tf_merge_close(x.m);
	return ret;
}

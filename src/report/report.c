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

struct run {
	const struct rp_options *o;
	struct tf_reader *r;
	struct tep_handle *tep;
	struct tep_event_filter *filter;
	uint64_t from, to;
	FILE *out;
	struct trace_seq s;
	struct rp_stat *stat;
	struct rp_fast *fast;	/* text mode's compiled printer; NULL: the reference one */
	struct rp_buf buf;	/* its output, written out in big blocks */
	struct rp_fg fg;	/* a funcgraph_entry waiting for the next event (text mode) */
	int name_width;		/* the file has instance buffers: their longest name, else 0 */
};

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
 * top-level buffer.
 */
static int buffer_prefix(struct run *x, const struct tf_event *ev, char *buf, size_t len)
{
	if (!x->name_width)
		return 0;
	if (ev->buffer)
		return snprintf(buf, len, "%*s: ", x->name_width, ev->buffer);
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
			/* Which buffer, first: {"buffer":"NAME" or null,... */
			struct trace_seq t;
			trace_seq_init(&t);
			trace_seq_puts(&t, "{\"buffer\":");
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

	if (x->o->mode == RP_TEXT)
		fprintf(x->out, "cpus=%d\n", tf_reader_info(x->r)->cpus);
	while ((ret = tf_reader_next(x->r, &ev, err, errlen)) > 0) {
		if (x->fg.held) {
			bool leaf = rp_fg_is_leaf_exit(&x->fg, x->tep, &ev);
			if (emit_held(x, leaf ? &ev : NULL) < 0)
				goto write_error;
			if (leaf)
				continue;
		}
		if (x->o->has_to && ev.ts > x->to)
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
	if (x->o->mode == RP_STAT)
		rp_stat_print(x->stat, x->r, x->out);
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
	const char *why = NULL;
	char summary[700] = "off";

	tf_reader_fast(x->r, &why);
	if (x->fast)
		rp_fast_summary(x->fast, summary, sizeof(summary));
	fprintf(stderr, "tracekit: report: reader: %s%s; printer: %s\n",
		why ? "libtracecmd, because of " : "fast", why ? why : "", summary);
}

int rp_run(const struct rp_options *o, FILE *out, char *err, size_t errlen)
{
	struct run x = { .o = o, .out = out };
	int ret = -1;

	x.r = tf_reader_open(o->input, err, errlen);
	if (!x.r)
		return -1;
	x.tep = tf_reader_tep(x.r);
	for (int i = 0; i < tf_reader_ninstances(x.r); i++) {
		int len = (int)strlen(tf_reader_instance(x.r, i));
		if (len > x.name_width)
			x.name_width = len > 256 ? 256 : len;
	}
	for (int i = 0; o->cpus && i < o->ncpus; i++) {
		if (o->cpus[i] && i >= tf_reader_info(x.r)->cpus) {
			snprintf(err, errlen, "--cpu %d: %s has CPUs 0-%d", i, o->input,
				 tf_reader_info(x.r)->cpus - 1);
			goto out;
		}
	}
	if (o->cpus && tf_reader_select_cpus(x.r, o->cpus, o->ncpus) < 0) {
		snprintf(err, errlen, "cannot select CPUs: %s", strerror(errno));
		goto out;
	}
	if (o->nfilters && !(x.filter = tf_filter_make(x.tep, o->filters, o->nfilters, err, errlen))) {
		ret = -2;	/* a -F that does not fit the file: a usage error */
		goto out;
	}
	x.from = to_units(o->from, tf_reader_info(x.r)->ts_usecs);
	x.to = to_units(o->to, tf_reader_info(x.r)->ts_usecs);
	if (o->mode == RP_STAT && !(x.stat = rp_stat_new())) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (o->mode == RP_TEXT && !getenv_set("TRACEKIT_REPORT_GENERIC") &&
	    !(x.fast = rp_fast_new(x.tep, tf_reader_info(x.r)->ts_usecs))) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	trace_seq_init(&x.s);
	ret = loop(&x, err, errlen);
	trace_seq_destroy(&x.s);
	if (getenv_set("TRACEKIT_REPORT_DEBUG"))
		debug_paths(&x);
out:
	rp_fast_free(x.fast);
	rp_fg_free(&x.fg);
	free(x.buf.p);
	rp_stat_free(x.stat);
	if (x.filter)
		tep_filter_free(x.filter);
	tf_reader_close(x.r);
	return ret;
}

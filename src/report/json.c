/*
 * --json: one object per event, fields typed from the event's format:
 *   {"ts":NS,"cpu":N,"pid":P,"comm":"..","event":"sys:name","fields":{..}}
 * Integers are numbers (signed ones sign-extended), char arrays and __data_loc
 * strings are strings, other arrays are arrays of numbers.  Every read is checked
 * against the record's size: a short record gives null, never a read past it.
 */
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "report/report.h"
#include "tracefile/funcgraph.h"
#include "util/json.h"

static void put_seq(void *sink, const char *p, size_t n)
{
	trace_seq_printf(sink, "%.*s", (int)n, p);
}

/* A string field up to its NUL (fields are padded arrays), escaped as util/json.h says. */
static void put_json_str(struct trace_seq *s, const char *p, size_t n)
{
	json_escape(p, strnlen(p, n), 0, put_seq, s);
}

static void put_number(struct trace_seq *s, struct tep_handle *tep, const void *p, int size,
		       bool is_signed)
{
	unsigned long long v = tep_read_number(tep, p, size);

	if (!is_signed || size >= 8) {
		if (is_signed)
			trace_seq_printf(s, "%lld", (long long)v);
		else
			trace_seq_printf(s, "%llu", v);
		return;
	}
	int shift = 64 - 8 * size;
	trace_seq_printf(s, "%lld", (long long)(v << shift) >> shift);
}

/* Where a field's data is and how long: dynamic (__data_loc/__rel_loc) or fixed. */
static bool field_span(struct tep_handle *tep, struct tep_format_field *f,
		       const struct tep_record *rec, unsigned *off, unsigned *len)
{
	unsigned size = (unsigned)rec->size;

	if ((unsigned)f->offset > size || (unsigned)f->size > size - (unsigned)f->offset)
		return false;
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC)) {
		*off = (unsigned)f->offset;
		*len = (unsigned)f->size;
		return true;
	}
	unsigned loc = (unsigned)tep_read_number(tep, (char *)rec->data + f->offset, 4);
	*off = loc & 0xffff;
	*len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*off += (unsigned)f->offset + (unsigned)f->size;
	return *off <= size && *len <= size - *off;
}

static void put_field(struct trace_seq *s, struct tep_handle *tep, struct tep_format_field *f,
		      const struct tep_record *rec)
{
	unsigned off, len;
	const char *data = rec->data;
	bool sign = f->flags & TEP_FIELD_IS_SIGNED;

	if (!field_span(tep, f, rec, &off, &len)) {
		trace_seq_puts(s, "null");
		return;
	}
	if (f->flags & TEP_FIELD_IS_STRING) {
		put_json_str(s, data + off, len);
		return;
	}
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		int es = f->elementsize > 0 ? f->elementsize : 1;
		if (es != 1 && es != 2 && es != 4 && es != 8)
			es = 1;
		trace_seq_putc(s, '[');
		for (unsigned i = 0; i + (unsigned)es <= len; i += (unsigned)es) {
			if (i)
				trace_seq_putc(s, ',');
			put_number(s, tep, data + off + i, es, sign);
		}
		trace_seq_putc(s, ']');
		return;
	}
	if (len == 1 || len == 2 || len == 4 || len == 8)
		put_number(s, tep, data + off, (int)len, sign);
	else
		trace_seq_puts(s, "null");
}

/* function_graph events: the function's name, the depth, and an exit's duration. */
static void put_graph(struct trace_seq *s, struct tep_handle *tep, struct tep_event *ev,
		      struct tep_record *rec)
{
	struct fg_event e;
	if (!fg_parse(ev, rec, &e))
		return;
	const char *name = tep_find_function(tep, e.func);
	char hex[24];
	snprintf(hex, sizeof(hex), "%llx", (unsigned long long)e.func);
	trace_seq_printf(s, ",\"graph\":{\"type\":\"%s\",\"function\":", e.entry ? "entry" : "exit");
	put_json_str(s, name ? name : hex, strlen(name ? name : hex));
	trace_seq_printf(s, ",\"depth\":%d", e.depth);
	if (!e.entry)
		trace_seq_printf(s, ",\"duration_ns\":%llu",
				 (unsigned long long)(e.rettime - e.calltime));
	trace_seq_putc(s, '}');
}

void rp_format_json(struct tep_handle *tep, struct tep_record *rec, struct tep_event *ev,
		    int cpu, struct trace_seq *s)
{
	int pid = tep_data_pid(tep, rec);
	const char *comm = tep_data_comm_from_pid(tep, pid);

	trace_seq_printf(s, "{\"ts\":%llu,\"cpu\":%d,\"pid\":%d,\"comm\":", rec->ts, cpu, pid);
	put_json_str(s, comm, strlen(comm));
	if (!ev) {
		trace_seq_printf(s, ",\"event\":null,\"id\":%d}", tep_data_type(tep, rec));
		return;
	}
	trace_seq_puts(s, ",\"event\":");
	char name[512];
	snprintf(name, sizeof(name), "%s:%s", ev->system, ev->name);
	put_json_str(s, name, strlen(name));
	trace_seq_puts(s, ",\"fields\":{");
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		put_json_str(s, f->name, strlen(f->name));
		trace_seq_putc(s, ':');
		put_field(s, tep, f, rec);
		if (f->next)
			trace_seq_putc(s, ',');
	}
	trace_seq_putc(s, '}');
	put_graph(s, tep, ev, rec);
	if (rec->missed_events)
		trace_seq_printf(s, ",\"missed_before\":%lld}", rec->missed_events);
	else
		trace_seq_putc(s, '}');
}

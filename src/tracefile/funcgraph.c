/*
 * function_graph's lines, trace-cmd report's way (see funcgraph.h).
 *
 * The layout, as trace-cmd 3.1 prints it after "funcgraph_entry: " padding:
 * a two-column overhead marker, the duration in microseconds with three
 * decimals (none once the whole part has 7 digits) padded to 7 characters,
 * " us ", then "|  ", then two spaces per depth level and the function.
 * A nested entry has spaces where the marker and duration would be.
 */
#include "tracefile/funcgraph.h"

#include <stdio.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#define INDENT 2

static __thread struct tep_record *leaf_exit;

void fg_set_leaf(struct tep_handle *tep, struct tep_record *exit_rec)
{
	(void)tep;
	leaf_exit = exit_rec;
}

static bool field(struct tep_event *ev, struct tep_record *rec, const char *name,
		  unsigned long long *val)
{
	struct tep_format_field *f = tep_find_field(ev, name);
	return f && tep_read_number_field(f, rec->data, val) == 0;
}

bool fg_parse(struct tep_event *ev, struct tep_record *rec, struct fg_event *out)
{
	unsigned long long v;
	if (!ev || strcmp(ev->system, "ftrace"))
		return false;
	memset(out, 0, sizeof(*out));
	if (!strcmp(ev->name, "funcgraph_entry"))
		out->entry = true;
	else if (strcmp(ev->name, "funcgraph_exit"))
		return false;
	if (!field(ev, rec, "func", &v))
		return false;
	out->func = v;
	if (!field(ev, rec, "depth", &v) || v > FG_MAX_DEPTH)
		return false;
	out->depth = (int)v;
	if (out->entry)
		return true;
	if (!field(ev, rec, "calltime", &v))
		return false;
	out->calltime = v;
	if (!field(ev, rec, "rettime", &v))
		return false;
	out->rettime = v;
	return true;
}

static void overhead(struct trace_seq *s, unsigned long long ns)
{
	const char *mark = ns > 1000000000ULL ? "$ " : ns > 1000000ULL ? "# " :
			   ns > 100000ULL ? "! " : ns > 10000ULL ? "+ " : "  ";
	trace_seq_puts(s, mark);
}

static void duration(struct trace_seq *s, unsigned long long ns)
{
	char num[48];
	int len = snprintf(num, sizeof(num), "%llu", ns / 1000);
	if (len < 7)
		len += snprintf(num + len, sizeof(num) - (size_t)len, ".%03llu", ns % 1000);
	trace_seq_printf(s, "%s us ", num);
	for (int i = len; i < 7; i++)
		trace_seq_putc(s, ' ');
	trace_seq_puts(s, "|  ");
}

static void indent_func(struct trace_seq *s, struct tep_handle *tep, int depth,
			unsigned long long func, const char *tail)
{
	for (int i = 0; i < depth * INDENT; i++)
		trace_seq_putc(s, ' ');
	const char *name = tep_find_function(tep, func);
	if (name)
		trace_seq_printf(s, "%s()%s", name, tail);
	else
		trace_seq_printf(s, "%llx()%s", func, tail);
}

static int entry_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
			 void *context)
{
	struct fg_event in, out;
	(void)context;
	if (!fg_parse(ev, rec, &in))
		return trace_seq_putc(s, '!');
	struct tep_record *exit_rec = leaf_exit;
	leaf_exit = NULL;
	struct tep_event *exit_ev = exit_rec ? tep_find_event_by_record(ev->tep, exit_rec) : NULL;
	if (exit_ev && fg_parse(exit_ev, exit_rec, &out) && !out.entry) {
		unsigned long long ns = out.rettime - out.calltime;
		overhead(s, ns);
		duration(s, ns);
		indent_func(s, ev->tep, in.depth, in.func, ";");
		return 0;
	}
	trace_seq_puts(s, "  ");
	trace_seq_puts(s, "           |  ");
	indent_func(s, ev->tep, in.depth, in.func, " {");
	return 0;
}

static int exit_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *ev,
			void *context)
{
	struct fg_event out;
	(void)context;
	if (!fg_parse(ev, rec, &out))
		return trace_seq_putc(s, '!');
	unsigned long long ns = out.rettime - out.calltime;
	overhead(s, ns);
	duration(s, ns);
	for (int i = 0; i < out.depth * INDENT; i++)
		trace_seq_putc(s, ' ');
	trace_seq_putc(s, '}');
	return 0;
}

void fg_register(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, "ftrace", "funcgraph_entry", entry_handler, NULL);
	tep_register_event_handler(tep, -1, "ftrace", "funcgraph_exit", exit_handler, NULL);
}

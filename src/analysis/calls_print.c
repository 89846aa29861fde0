/*
 * tracekit calls' output: the function table (perf report's columns: the
 * longest total first), the call tree with inclusive and self time, folded
 * stacks for flamegraph.pl and speedscope, and JSON with the same facts.
 * Times are microseconds with three decimals, as trace-cmd report prints
 * function_graph durations, so the two can be compared by eye.
 */
#include "analysis/calls.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/die.h"
#include "util/json.h"
#include "util/strbuf.h"

static void put_us(FILE *out, int width, uint64_t ns)
{
	fprintf(out, " %*" PRIu64 ".%03" PRIu64, width - 4, ns / 1000, ns % 1000);
}

static void put_name(FILE *out, const char *name, uint64_t func)
{
	if (name)
		fputs(name, out);
	else
		fprintf(out, "%" PRIx64, func);
}

static void print_table(struct calls *c, const struct calls_options *o, FILE *out)
{
	size_t n;
	struct calls_fn **v = calls_sorted(c, &n);
	fprintf(out, "%10s %12s %12s %12s %12s %12s  %s%s\n", "calls", "total us", "self us",
		"avg us", "p99 us", "max us", o->by == CALLS_BY_ALL ? "" :
		o->by == CALLS_BY_THREAD ? "thread  " : "process  ", "function");
	for (size_t i = 0; i < n && (!o->top || i < (size_t)o->top); i++) {
		struct calls_fn *f = v[i];
		fprintf(out, "%10" PRIu64, f->calls);
		put_us(out, 12, f->total);
		put_us(out, 12, f->self);
		put_us(out, 12, f->total / f->calls);
		put_us(out, 12, calls_p99(f));
		put_us(out, 12, f->max);
		fputs("  ", out);
		if (o->by != CALLS_BY_ALL)
			fprintf(out, "%s-%d  ", f->comm, f->key);
		put_name(out, f->name, f->func);
		fputc('\n', out);
	}
	if (o->top && n > (size_t)o->top)
		fprintf(out, "%10s (%zu more; --top 0 shows all)\n", "...", n - (size_t)o->top);
	free(v);
}

static int by_node_total(const void *a, const void *b)
{
	const struct calls_node *x = *(struct calls_node *const *)a;
	const struct calls_node *y = *(struct calls_node *const *)b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* n's children, longest first (count in *k); free the array only. */
static struct calls_node **children(const struct calls_node *n, size_t *k)
{
	*k = 0;
	for (struct calls_node *ch = n->child; ch; ch = ch->next)
		(*k)++;
	struct calls_node **v = xmalloc(sizeof(*v) * (*k + 1));
	size_t i = 0;
	for (struct calls_node *ch = n->child; ch; ch = ch->next)
		v[i++] = ch;
	qsort(v, *k, sizeof(*v), by_node_total);
	return v;
}

/* A process node's total: its depth-0 calls together. */
static void sum_processes(struct calls *c)
{
	for (struct calls_node *p = c->root.child; p; p = p->next) {
		p->total = p->calls = 0;
		for (struct calls_node *ch = p->child; ch; ch = ch->next) {
			p->total += ch->total;
			p->calls += ch->calls;
		}
	}
}

static void print_tree(const struct calls_node *n, int depth, uint64_t cut, FILE *out)
{
	size_t k;
	struct calls_node **v = children(n, &k);
	for (size_t i = 0; i < k; i++) {
		const struct calls_node *ch = v[i];
		if (ch->total < cut)
			continue;	/* sorted, but process nodes below have their own cut */
		put_us(out, 13, ch->total);
		put_us(out, 12, depth ? ch->self : 0);
		fprintf(out, " %8" PRIu64 "  %*s", ch->calls, depth * 2, "");
		put_name(out, ch->name, ch->func);
		fputc('\n', out);
		print_tree(ch, depth + 1, cut, out);
	}
	free(v);
}

int calls_print_text(struct calls *c, const struct calls_options *o, FILE *out)
{
	sum_processes(c);
	fprintf(out, "%s: %" PRIu64 " calls in %d tasks", o->input, c->exits, c->tasks);
	if (c->lost)
		fprintf(out, "; %" PRIu64 " events lost (calls around them are cut short)", c->lost);
	fputs("\n\n", out);
	print_table(c, o, out);
	fprintf(out, "\nHottest paths (inclusive and self us, calls; under %g%% of their process "
		"cut):\n", o->min_percent);
	size_t k;
	struct calls_node **v = children(&c->root, &k);
	for (size_t i = 0; i < k; i++) {
		put_us(out, 13, v[i]->total);
		put_us(out, 12, 0);
		fprintf(out, " %8" PRIu64 "  %s\n", v[i]->calls, v[i]->name);
		uint64_t cut = (uint64_t)((double)v[i]->total * o->min_percent / 100.0);
		print_tree(v[i], 1, cut, out);
	}
	free(v);
	return ferror(out) ? -1 : 0;
}

static void folded(const struct calls_node *n, struct strbuf *path, FILE *out)
{
	size_t len = path->len;
	if (len)
		sb_addc(path, ';');
	if (n->name)
		sb_add(path, n->name);
	else
		sb_printf(path, "%" PRIx64, n->func);
	if (n->func && n->self)
		fprintf(out, "%s %" PRIu64 "\n", sb_str(path), n->self);
	size_t k;
	struct calls_node **v = children(n, &k);
	for (size_t i = 0; i < k; i++)
		folded(v[i], path, out);
	free(v);
	sb_truncate(path, len);
}

int calls_print_folded(struct calls *c, FILE *out)
{
	struct strbuf path = STRBUF_INIT;
	size_t k;
	struct calls_node **v = children(&c->root, &k);
	for (size_t i = 0; i < k; i++)
		folded(v[i], &path, out);
	free(v);
	sb_free(&path);
	return ferror(out) ? -1 : 0;
}

static void json_name(struct strbuf *sb, const char *name, uint64_t func)
{
	char hex[24];
	snprintf(hex, sizeof(hex), "%" PRIx64, func);
	json_str(sb, name ? name : hex);
}

static void json_tree(const struct calls_node *n, struct strbuf *sb)
{
	size_t k;
	struct calls_node **v = children(n, &k);
	sb_add(sb, "[");
	for (size_t i = 0; i < k; i++) {
		const struct calls_node *ch = v[i];
		sb_add(sb, i ? ",{\"name\":" : "{\"name\":");
		json_name(sb, ch->name, ch->func);
		sb_printf(sb, ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64
			  ",\"children\":", ch->calls, ch->total, ch->func ? ch->self : 0);
		json_tree(ch, sb);
		sb_add(sb, "}");
	}
	sb_add(sb, "]");
	free(v);
}

int calls_print_json(struct calls *c, const struct calls_options *o, FILE *out)
{
	struct strbuf sb = STRBUF_INIT;
	sum_processes(c);
	sb_add(&sb, "{\"file\":");
	json_str(&sb, o->input);
	sb_printf(&sb, ",\"calls\":%" PRIu64 ",\"tasks\":%d,\"lost_events\":%" PRIu64
		  ",\"by\":\"%s\",\"functions\":[", c->exits, c->tasks, c->lost,
		  o->by == CALLS_BY_ALL ? "all" : o->by == CALLS_BY_THREAD ? "thread" : "process");
	size_t n;
	struct calls_fn **v = calls_sorted(c, &n);
	for (size_t i = 0; i < n; i++) {
		struct calls_fn *f = v[i];
		sb_add(&sb, i ? ",{\"function\":" : "{\"function\":");
		json_name(&sb, f->name, f->func);
		if (o->by != CALLS_BY_ALL) {
			sb_printf(&sb, ",\"%s\":%d,\"comm\":", o->by == CALLS_BY_THREAD ? "tid" : "pid",
				  f->key);
			json_str(&sb, f->comm);
		}
		sb_printf(&sb, ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64
			  ",\"avg_ns\":%" PRIu64 ",\"p99_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64 "}",
			  f->calls, f->total, f->self, f->total / f->calls, calls_p99(f), f->max);
	}
	free(v);
	sb_add(&sb, "],\"tree\":");
	json_tree(&c->root, &sb);
	sb_add(&sb, "}\n");
	fputs(sb_str(&sb), out);
	sb_free(&sb);
	return ferror(out) ? -1 : 0;
}

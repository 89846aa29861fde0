/*
 * Reading a function_graph recording into struct calls (see calls.h).
 *
 * Per task, two arrays indexed by depth: the call-tree node each open call
 * is at, and the time its finished children took.  An entry at depth d opens
 * node_at[d] under node_at[d-1]; an exit at depth d closes it, its self time
 * being its duration less child_ns[d+1], and adds its duration to child_ns[d].
 */
#include "analysis/calls.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "tracefile/funcgraph.h"
#include "tracefile/reader.h"
#include "util/die.h"
#include "util/tidmap.h"

#define MAX_DEPTH 256

struct task {
	int pid, key;
	struct calls_node *comm_node;
	struct calls_node *node_at[MAX_DEPTH];
	uint64_t child_ns[MAX_DEPTH + 1];
};

static const char *keep(struct calls *c, const char *s)
{
	c->strings = xrealloc(c->strings, sizeof(char *) * (c->nstrings + 1));
	return c->strings[c->nstrings++] = xstrdup(s);
}

static struct calls_node *child_of(struct calls_node *parent, uint64_t func, const char *name)
{
	for (struct calls_node *n = parent->child; n; n = n->next)
		if (n->func == func && (func || !strcmp(n->name, name)))
			return n;
	struct calls_node *n = xcalloc(1, sizeof(*n));
	n->func = func;
	n->name = name;
	n->parent = parent;
	n->next = parent->child;
	parent->child = n;
	return n;
}

static size_t slot_of(const struct calls *c, uint64_t func, int key)
{
	uint64_t h = (func ^ ((uint64_t)(unsigned)key * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
	size_t i = (size_t)(h >> 17) & (c->cap - 1);
	while (c->fns[i] && (c->fns[i]->func != func || c->fns[i]->key != key))
		i = (i + 1) & (c->cap - 1);
	return i;
}

static void grow(struct calls *c)
{
	struct calls_fn **old = c->fns;
	size_t oldcap = c->cap;
	c->cap = oldcap ? oldcap * 2 : 1024;
	c->fns = xcalloc(c->cap, sizeof(*c->fns));
	for (size_t i = 0; i < oldcap; i++)
		if (old[i])
			c->fns[slot_of(c, old[i]->func, old[i]->key)] = old[i];
	free(old);
}

static struct calls_fn *fn_of(struct calls *c, struct tep_handle *tep, uint64_t func,
			      int key, const char *comm)
{
	if ((c->nfns + 1) * 2 > c->cap)
		grow(c);
	size_t i = slot_of(c, func, key);
	if (!c->fns[i]) {
		struct calls_fn *f = xcalloc(1, sizeof(*f));
		f->func = func;
		f->key = key;
		f->comm = comm;
		const char *name = tep_find_function(tep, func);
		f->name = name ? keep(c, name) : NULL;
		c->fns[i] = f;
		c->nfns++;
	}
	return c->fns[i];
}

static const char *name_of(struct calls *c, struct tep_handle *tep, uint64_t func)
{
	struct calls_fn *f = fn_of(c, tep, func, -1, NULL);	/* key -1: the name cache */
	return f->name;
}

static struct task *task_of(struct calls *c, struct tidmap *tasks, struct tf_reader *r,
			    struct tep_handle *tep, int pid, const struct calls_options *o)
{
	/* Keyed by pid + 1: the idle task is pid 0, which tidmap takes for a free slot. */
	struct task *t = tidmap_get(tasks, pid + 1);
	if (t)
		return t;
	t = xcalloc(1, sizeof(*t));
	t->pid = pid;
	int tgid = tf_reader_tgid(r, pid);
	t->key = o->by == CALLS_BY_THREAD ? pid : o->by == CALLS_BY_PROCESS ? (tgid ? tgid : pid) : 0;
	const char *comm = keep(c, tep_data_comm_from_pid(tep, pid));
	t->comm_node = child_of(&c->root, 0, comm);
	tidmap_put(tasks, pid + 1, t);
	c->tasks++;
	return t;
}

static void add_dur(struct calls_fn *f, uint64_t dur, uint64_t self)
{
	f->calls++;
	f->total += dur;
	f->self += self;
	if (dur > f->max)
		f->max = dur;
	if (f->ndurs == f->cap) {
		f->cap = f->cap ? f->cap * 2 : 16;
		f->durs = xrealloc(f->durs, f->cap * sizeof(*f->durs));
	}
	f->durs[f->ndurs++] = dur;
}

static void on_call(struct calls *c, struct tep_handle *tep, struct task *t, const struct fg_event *e)
{
	if (e->depth < 0 || e->depth >= MAX_DEPTH)
		return;
	struct calls_node *parent = e->depth ? t->node_at[e->depth - 1] : t->comm_node;
	if (!parent)
		parent = t->comm_node;	/* the caller's entry came before the recording */
	t->node_at[e->depth] = child_of(parent, e->func, name_of(c, tep, e->func));
	t->child_ns[e->depth + 1] = 0;
}

static void on_return(struct calls *c, struct tep_handle *tep, struct task *t, const struct fg_event *e)
{
	int d = e->depth;
	if (d < 0 || d >= MAX_DEPTH || e->rettime < e->calltime)
		return;
	uint64_t dur = e->rettime - e->calltime;
	uint64_t kids = t->child_ns[d + 1];
	uint64_t self = dur > kids ? dur - kids : 0;
	t->child_ns[d + 1] = 0;
	t->child_ns[d] += dur;
	struct calls_node *n = t->node_at[d];
	if (!n || n->func != e->func) {
		struct calls_node *parent = d && t->node_at[d - 1] ? t->node_at[d - 1] : t->comm_node;
		n = child_of(parent, e->func, name_of(c, tep, e->func));
	}
	n->calls++;
	n->total += dur;
	n->self += self;
	t->node_at[d] = NULL;
	add_dur(fn_of(c, tep, e->func, t->key, t->comm_node->name), dur, self);
	c->exits++;
}

int calls_load(struct calls *c, const struct calls_options *o, char *err, size_t errlen)
{
	memset(c, 0, sizeof(*c));
	c->root.name = "";
	struct tf_reader *r = tf_reader_open(o->input, err, errlen);
	if (!r)
		return -1;
	struct tep_handle *tep = tf_reader_tep(r);
	struct tidmap tasks = { 0 };
	struct tf_event ev;
	int ret;
	while ((ret = tf_reader_next(r, &ev, err, errlen)) > 0) {
		struct fg_event e;
		if (ev.missed)
			c->lost += ev.missed > 0 ? (uint64_t)ev.missed : 1;
		if (!ev.event || !fg_parse(ev.event, ev.record, &e))
			continue;
		c->events++;
		int pid = tep_data_pid(tep, ev.record);
		struct task *t = task_of(c, &tasks, r, tep, pid, o);
		if (e.entry)
			on_call(c, tep, t, &e);
		else
			on_return(c, tep, t, &e);
	}
	tidmap_foreach(&tasks, s)
		free(s->val);
	tidmap_free(&tasks);
	tf_reader_close(r);
	if (ret < 0)
		return -1;
	if (!c->exits) {
		snprintf(err, errlen, "%s has no function_graph calls (record with tracekit record "
			 "-p function_graph)", o->input);
		return -1;
	}
	return 0;
}

static void free_nodes(struct calls_node *n)
{
	while (n) {
		struct calls_node *next = n->next;
		free_nodes(n->child);
		free(n);
		n = next;
	}
}

void calls_free(struct calls *c)
{
	for (size_t i = 0; i < c->cap; i++) {
		if (c->fns[i]) {
			free(c->fns[i]->durs);
			free(c->fns[i]);
		}
	}
	free(c->fns);
	free_nodes(c->root.child);
	for (size_t i = 0; i < c->nstrings; i++)
		free(c->strings[i]);
	free(c->strings);
	memset(c, 0, sizeof(*c));
}

static int by_total(const void *a, const void *b)
{
	const struct calls_fn *x = *(struct calls_fn *const *)a, *y = *(struct calls_fn *const *)b;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

struct calls_fn **calls_sorted(const struct calls *c, size_t *n)
{
	struct calls_fn **v = xmalloc(sizeof(*v) * (c->nfns + 1));
	*n = 0;
	for (size_t i = 0; i < c->cap; i++)
		if (c->fns[i] && c->fns[i]->calls)
			v[(*n)++] = c->fns[i];
	qsort(v, *n, sizeof(*v), by_total);
	return v;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

uint64_t calls_p99(struct calls_fn *f)
{
	if (!f->ndurs)
		return 0;
	qsort(f->durs, f->ndurs, sizeof(*f->durs), cmp_u64);
	/* The nearest-rank p99: the smallest duration at least 99% of calls do not exceed. */
	size_t rank = (f->ndurs * 99 + 99) / 100;
	return f->durs[rank - 1];
}

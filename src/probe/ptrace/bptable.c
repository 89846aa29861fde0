/* Breakpoints by address; see bptable.h. */
#include "bptable.h"

#include <stdlib.h>
#include <string.h>

#include "tracekit/probe.h"
#include "util/die.h"

static size_t hash(uint64_t addr, size_t cap)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

struct bp *bpt_get(const struct bptable *t, uint64_t addr)
{
	if (!t->cap)
		return NULL;
	for (size_t i = hash(addr, t->cap);; i = (i + 1) & (t->cap - 1)) {
		struct bp *b = t->slot[i];
		if (!b || b->addr == addr)
			return b;
	}
}

static void insert(struct bptable *t, struct bp *b)
{
	size_t i = hash(b->addr, t->cap);
	while (t->slot[i])
		i = (i + 1) & (t->cap - 1);
	t->slot[i] = b;
	t->n++;
}

static void grow(struct bptable *t)
{
	struct bptable old = *t;
	t->cap = old.cap ? old.cap * 2 : 64;
	t->slot = xcalloc(t->cap, sizeof(*t->slot));
	t->n = 0;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slot[i])
			insert(t, old.slot[i]);
	free(old.slot);
}

struct bp *bpt_add(struct bptable *t, uint64_t addr)
{
	struct bp *b = bpt_get(t, addr);
	if (b)
		return b;
	if ((t->n + 1) * 2 > t->cap)
		grow(t);
	b = xcalloc(1, sizeof(*b));
	b->addr = addr;
	insert(t, b);
	return b;
}

void bpt_copy(struct bptable *dst, const struct bptable *src)
{
	bpt_foreach(src, s) {
		struct bp *d = bpt_add(dst, s->addr);
		*d = *s;
		d->probes = s->cap ? xmalloc(s->cap * sizeof(*s->probes)) : NULL;
		if (s->n)
			memcpy(d->probes, s->probes, s->n * sizeof(*s->probes));
	}
}

void bpt_free(struct bptable *t)
{
	bpt_foreach(t, b) {
		free(b->probes);
		free(b);
	}
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

void bp_add_probe(struct bp *b, struct tk_probe *p)
{
	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 2;
		b->probes = xrealloc(b->probes, b->cap * sizeof(*b->probes));
	}
	b->probes[b->n++] = p;
	b->has_post |= p->post_handler != NULL;
	b->has_ret |= p->ret_handler != NULL;
}

bool bp_has_probe(const struct bp *b, const struct tk_probe *p)
{
	for (unsigned i = 0; i < b->n; i++)
		if (b->probes[i] == p)
			return true;
	return false;
}

bool bp_del_probe(struct bp *b, const struct tk_probe *p)
{
	bool found = false;
	unsigned j = 0;
	b->has_post = b->has_ret = false;
	for (unsigned i = 0; i < b->n; i++) {
		if (b->probes[i] == p) {
			found = true;
			continue;
		}
		b->probes[j++] = b->probes[i];
		b->has_post |= b->probes[i]->post_handler != NULL;
		b->has_ret |= b->probes[i]->ret_handler != NULL;
	}
	b->n = j;
	return found;
}

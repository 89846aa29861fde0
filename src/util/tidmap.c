/* tid -> pointer map; see tidmap.h. */
#include "tidmap.h"

#include <stdint.h>
#include <stdlib.h>

#include "die.h"

static size_t home(pid_t tid, size_t cap)
{
	return ((uint32_t)tid * 2654435761u) & (cap - 1);
}

static struct tidmap_slot *find(const struct tidmap *m, pid_t tid)
{
	if (!m->cap)
		return NULL;
	for (size_t i = home(tid, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (m->slot[i].tid == tid)
			return &m->slot[i];
		if (!m->slot[i].tid)
			return NULL;
	}
}

void *tidmap_get(const struct tidmap *m, pid_t tid)
{
	struct tidmap_slot *s = find(m, tid);
	return s ? s->val : NULL;
}

static void insert(struct tidmap *m, pid_t tid, void *val)
{
	size_t i = home(tid, m->cap);
	while (m->slot[i].tid)
		i = (i + 1) & (m->cap - 1);
	m->slot[i] = (struct tidmap_slot){ tid, val };
	m->n++;
}

void tidmap_put(struct tidmap *m, pid_t tid, void *val)
{
	struct tidmap_slot *s = find(m, tid);
	if (s) {
		s->val = val;
		return;
	}
	if ((m->n + 1) * 2 > m->cap) {
		struct tidmap_slot *old = m->slot;
		size_t oldcap = m->cap;
		m->cap = oldcap ? oldcap * 2 : 64;
		m->slot = xcalloc(m->cap, sizeof(*m->slot));
		m->n = 0;
		for (size_t i = 0; i < oldcap; i++)
			if (old[i].tid)
				insert(m, old[i].tid, old[i].val);
		free(old);
	}
	insert(m, tid, val);
}

void *tidmap_del(struct tidmap *m, pid_t tid)
{
	struct tidmap_slot *s = find(m, tid);
	if (!s)
		return NULL;
	void *val = s->val;
	size_t i = (size_t)(s - m->slot), mask = m->cap - 1;
	s->tid = 0;
	m->n--;
	/* Shift later members of the probe chain back so lookups still reach them. */
	for (size_t j = (i + 1) & mask; m->slot[j].tid; j = (j + 1) & mask) {
		size_t h = home(m->slot[j].tid, m->cap);
		if (((j - h) & mask) >= ((j - i) & mask)) {
			m->slot[i] = m->slot[j];
			m->slot[j].tid = 0;
			i = j;
		}
	}
	return val;
}

void tidmap_free(struct tidmap *m)
{
	free(m->slot);
	m->slot = NULL;
	m->cap = m->n = 0;
}

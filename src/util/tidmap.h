/*
 * tidmap: thread id -> pointer.  Open addressing with linear probing and
 * backward-shift delete: tracers look a thread up on every ptrace stop.
 */
#ifndef TRACEKIT_UTIL_TIDMAP_H
#define TRACEKIT_UTIL_TIDMAP_H

#include <stddef.h>
#include <sys/types.h>

struct tidmap_slot {
	pid_t tid;	/* 0: free */
	void *val;
};

struct tidmap {
	struct tidmap_slot *slot;
	size_t cap;	/* a power of two */
	size_t n;
};

void *tidmap_get(const struct tidmap *m, pid_t tid);
/* Set tid's value (replacing any). */
void tidmap_put(struct tidmap *m, pid_t tid, void *val);
/* Remove tid; returns its value or NULL. */
void *tidmap_del(struct tidmap *m, pid_t tid);
void tidmap_free(struct tidmap *m);

#define tidmap_foreach(m, s) \
	for (struct tidmap_slot *s = (m)->slot; (m)->slot && s < (m)->slot + (m)->cap; s++) if (s->tid)

#endif

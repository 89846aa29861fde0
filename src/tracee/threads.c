/* The traced-thread table; see threads.h. */
#include "threads.h"

#include <stdlib.h>

#include "util/die.h"

struct thr *thr_find(struct thr_table *t, pid_t tid)
{
	return tidmap_get(&t->map, tid);
}

struct thr *thr_add(struct thr_table *t, pid_t tid)
{
	struct thr *p = thr_find(t, tid);
	if (p)
		return p;
	p = xcalloc(1, sizeof(*p));
	p->tid = tid;
	p->tgid = tid;
	tidmap_put(&t->map, tid, p);
	t->n++;
	return p;
}

void thr_del(struct thr_table *t, pid_t tid)
{
	struct thr *p = tidmap_del(&t->map, tid);
	if (p) {
		free(p);
		t->n--;
	}
}

void thr_free(struct thr_table *t)
{
	tidmap_foreach(&t->map, s)
		free(s->val);
	tidmap_free(&t->map);
	t->n = 0;
}

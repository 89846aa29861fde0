/*
 * register_trace_<name>(probe, data): the program's own callbacks on a
 * tracepoint, several per tracepoint, as in the kernel.  A tracepoint's list
 * is an array replaced whole under a lock and read without one; a replaced
 * array stays allocated until the tracepoint goes away, because a thread may
 * still be walking it (the kernel waits for an RCU grace period instead).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "runtime.h"

#define EXPORT __attribute__((visibility("default")))

/* Replaced arrays, freed when their tracepoint is unregistered. */
struct retired {
	struct tk_tracepoint *tp;
	struct tk_tp_probe *list;
	struct retired *next;
};

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static struct retired *retired;

static int count(const struct tk_tp_probe *p)
{
	int n = 0;

	while (p && p[n].fn)
		n++;
	return n;
}

static int publish(struct tk_tracepoint *tp, struct tk_tp_probe *list)
{
	struct tk_tp_probe *old = tp->probes;

	if (old) {
		struct retired *r = malloc(sizeof(*r));

		if (!r)
			return -1;
		*r = (struct retired){ tp, old, retired };
		retired = r;
	}
	__atomic_store_n(&tp->probes, list, __ATOMIC_RELEASE);
	if (list)
		__atomic_or_fetch(&tp->state, TK_TP_PROBES, __ATOMIC_RELEASE);
	else
		__atomic_and_fetch(&tp->state, ~TK_TP_PROBES, __ATOMIC_RELEASE);
	return 0;
}

EXPORT int tk_tp_probe_add(struct tk_tracepoint *tp, void (*fn)(void), void *data)
{
	int ret = -1;

	if (!fn) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&probe_lock);
	int n = count(tp->probes);
	for (int i = 0; i < n; i++) {
		if (tp->probes[i].fn == fn && tp->probes[i].data == data) {
			errno = EEXIST;
			goto out;
		}
	}
	struct tk_tp_probe *list = calloc((size_t)n + 2, sizeof(*list));
	if (!list)
		goto out;
	for (int i = 0; i < n; i++)
		list[i] = tp->probes[i];
	list[n] = (struct tk_tp_probe){ fn, data };
	ret = publish(tp, list);
	if (ret)
		free(list);
out:
	pthread_mutex_unlock(&probe_lock);
	return ret;
}

EXPORT int tk_tp_probe_del(struct tk_tracepoint *tp, void (*fn)(void), void *data)
{
	int ret = -1, n, k = 0;
	struct tk_tp_probe *list = NULL;

	pthread_mutex_lock(&probe_lock);
	n = count(tp->probes);
	for (int i = 0; i < n; i++)
		k += tp->probes[i].fn == fn && tp->probes[i].data == data;
	if (!k) {
		errno = ENOENT;
		goto out;
	}
	if (n > 1) {
		list = calloc((size_t)n, sizeof(*list));
		if (!list)
			goto out;
		k = 0;
		for (int i = 0; i < n; i++) {
			if (tp->probes[i].fn != fn || tp->probes[i].data != data)
				list[k++] = tp->probes[i];
		}
	}
	ret = publish(tp, list);
	if (ret)
		free(list);
out:
	pthread_mutex_unlock(&probe_lock);
	return ret;
}

void tk_tp_probes_release(struct tk_tracepoint *tp)
{
	pthread_mutex_lock(&probe_lock);
	for (struct retired **r = &retired; *r;) {
		struct retired *x = *r;

		if (x->tp == tp) {
			*r = x->next;
			free(x->list);
			free(x);
		} else {
			r = &x->next;
		}
	}
	free(tp->probes);
	tp->probes = NULL;
	__atomic_and_fetch(&tp->state, ~TK_TP_PROBES, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&probe_lock);
}

/* The threads a tracer follows: per-thread ptrace state, kept in a tidmap. */
#ifndef TRACEKIT_TRACEE_THREADS_H
#define TRACEKIT_TRACEE_THREADS_H

#include <stdbool.h>
#include <sys/types.h>

#include "tracee.h"
#include "util/tidmap.h"

struct thr {
	pid_t tid;
	pid_t tgid;
	bool startup;		/* its first ptrace-stop is ours, not the program's */
	bool hidden;		/* before the traced command's execve: report nothing */
	bool in_syscall;
	bool seccomp_exit;	/* entered through a seccomp stop: restart to catch the exit */
	bool listening;		/* in a group-stop, restarted with PTRACE_LISTEN */
	bool attached;		/* -p: detach on the way out rather than leave it */
	long nr;
	struct tr_action act;
};

struct thr_table {
	struct tidmap map;
	size_t n;
};

struct thr *thr_find(struct thr_table *t, pid_t tid);
/* The thread, added (zeroed, tgid = tid) if new. */
struct thr *thr_add(struct thr_table *t, pid_t tid);
void thr_del(struct thr_table *t, pid_t tid);
void thr_free(struct thr_table *t);

#define thr_foreach(t, p) \
	tidmap_foreach(&(t)->map, s_##p) for (struct thr *p = s_##p->val; p; p = NULL)

#endif

/*
 * The causes of a process's threads not running; see struct sa_why in sched.h.
 * A process meets few distinct causes (its siblings and neighbours, a handful
 * of syscalls and locks), so a flat array searched linearly is enough; past
 * SA_WHY_MAX distinct causes the rest are summed under one "other" entry.
 */
#include "sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "syscalls/table.h"
#include "util/die.h"

#define FUTEX_NR 202	/* x86_64: futex waits get their word as the cause */

bool sa_why_is_futex(long nr)
{
	return nr == FUTEX_NR;
}

static bool same(const struct sa_why *a, const struct sa_why *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == SA_WHY_WAIT)
		return a->holder == b->holder;
	return a->nr == b->nr && a->addr == b->addr && a->joined == b->joined;
}

void sa_why_add(struct sa_proc *p, const struct sa_why *w)
{
	if (!w->ns)
		return;
	for (size_t i = 0; i < p->nwhy; i++) {
		if (same(&p->why[i], w)) {
			p->why[i].ns += w->ns;
			return;
		}
	}
	struct sa_why other = *w;
	if (p->nwhy >= SA_WHY_MAX) {
		other.holder = -1;
		other.nr = -3;
		other.addr = 0;
		other.joined = 0;
		for (size_t i = 0; i < p->nwhy; i++) {
			if (same(&p->why[i], &other)) {
				p->why[i].ns += w->ns;
				return;
			}
		}
	}
	if (p->nwhy == p->capwhy) {
		p->capwhy = p->capwhy ? p->capwhy * 2 : 8;
		p->why = xrealloc(p->why, p->capwhy * sizeof(*p->why));
	}
	p->why[p->nwhy++] = other;
}

static int longest_first(const void *x, const void *y)
{
	const struct sa_why *a = x, *b = y;
	return a->ns < b->ns ? 1 : a->ns > b->ns ? -1 : 0;
}

void sa_why_sort(struct sa_proc *p)
{
	if (p->nwhy > 1)
		qsort(p->why, p->nwhy, sizeof(*p->why), longest_first);
}

/* Syscalls by the kind of wait they are; the rest of the syscalls are "syscall". */
static const char *const io_calls[] = {
	"read", "write", "pread64", "pwrite64", "readv", "writev", "preadv", "pwritev", "preadv2",
	"pwritev2", "recvfrom", "recvmsg", "recvmmsg", "sendto", "sendmsg", "sendmmsg", "poll",
	"ppoll", "select", "pselect6", "epoll_wait", "epoll_pwait", "epoll_pwait2", "accept",
	"accept4", "connect", "fsync", "fdatasync", "sync_file_range", "open", "openat", "openat2",
	"io_getevents", "io_pgetevents", "io_uring_enter", "sendfile", "splice", "tee", "msync",
	NULL,
};
static const char *const sleep_calls[] = {
	"nanosleep", "clock_nanosleep", "pause", "rt_sigsuspend", "rt_sigtimedwait", "alarm", NULL,
};
static const char *const join_calls[] = { "wait4", "waitid", NULL };

static bool named_in(const char *name, const char *const *list)
{
	for (; name && *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

enum sa_cause sa_why_cause(const struct sa_why *w)
{
	if (w->kind == SA_WHY_WAIT)
		return SA_CAUSE_CPU;
	const char *name = sa_why_syscall(w->nr);
	if (w->joined || named_in(name, join_calls))
		return SA_CAUSE_JOIN;
	if (sa_why_is_futex(w->nr))
		return SA_CAUSE_LOCK;
	if (named_in(name, io_calls))
		return SA_CAUSE_IO;
	if (w->nr == SA_WHY_NOSYS || w->nr == SA_WHY_UNTRACED || named_in(name, sleep_calls))
		return SA_CAUSE_SLEEP;
	return SA_CAUSE_SYSCALL;
}

const char *sa_cause_name(enum sa_cause c)
{
	static const char *const names[] = { "cpu", "lock", "join", "io", "sleep", "syscall" };
	return names[c];
}

const char *sa_why_syscall(long nr)
{
	const struct sc_entry *e = nr >= 0 ? sc_by_nr(nr) : NULL;
	return e && e->name ? e->name : NULL;
}

void sa_why_label(const struct sa_analysis *a, const struct sa_proc *p, const struct sa_why *w,
		  char *buf, size_t len)
{
	if (w->kind == SA_WHY_WAIT) {
		const struct sa_task *h = w->holder > 0 ? sa_task_find(a, w->holder) : NULL;
		if (w->holder == 0)
			snprintf(buf, len, "waiting for a CPU that was idle (waking it up)");
		else if (w->holder < 0)
			snprintf(buf, len, "waiting for a CPU (holders older than the kept history)");
		else
			snprintf(buf, len, "waiting for a CPU held by %s:%d%s", h ? h->comm : "?",
				 w->holder, h && h->proc == p ? " (same process)" : "");
		return;
	}
	const char *name = sa_why_syscall(w->nr);
	if (w->nr == SA_WHY_UNTRACED && a->syscalls)	/* before the first syscall event */
		snprintf(buf, len, "sleeping or blocked, syscall not known (before the syscall events)");
	else if (w->nr == SA_WHY_UNTRACED)
		snprintf(buf, len, "sleeping or blocked (record raw_syscalls to see in which syscall)");
	else if (w->nr == SA_WHY_NOSYS)
		snprintf(buf, len, "sleeping or blocked outside a syscall (page fault, exit...)");
	else if (w->nr == -3)
		snprintf(buf, len, "sleeping or blocked in other syscalls");
	else if (w->joined) {
		const struct sa_task *j = sa_task_find(a, w->joined);
		snprintf(buf, len, "waiting for thread %s:%d to exit (a join, futex on 0x%llx)",
			 j ? j->comm : "?", w->joined, (unsigned long long)w->addr);
	} else if (sa_why_is_futex(w->nr) && w->sym)
		snprintf(buf, len, "sleeping on the lock `%s` (futex on 0x%llx)", w->sym,
			 (unsigned long long)w->addr);
	else if (sa_why_is_futex(w->nr))
		snprintf(buf, len, "sleeping in futex on 0x%llx (a lock or condition)",
			 (unsigned long long)w->addr);
	else if (named_in(name, join_calls))
		snprintf(buf, len, "waiting for a child to exit (%s)", name);
	else if (name)
		snprintf(buf, len, "sleeping or blocked in %s", name);
	else
		snprintf(buf, len, "sleeping or blocked in syscall %ld", w->nr);
}

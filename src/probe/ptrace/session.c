/*
 * The C API of include/tracekit/probe.h over the tracee engine: a session is
 * one tracer (src/tracee) run without syscall stops, whose SIGTRAPs come to
 * hit.c, plus the processes and threads it follows.  Processes appear at
 * exec (probes placed in the new image), at attach (-p), and at fork (a
 * copy of the parent's breakpoints: the child's memory is a copy too).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine.h"
#include "util/die.h"

void sess_warn(struct tk_session *s, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (s->warn)
		s->warn(msg, s->warn_arg);
	else
		fprintf(stderr, "tracekit: probe: %s\n", msg);
}

static struct pproc *proc_new(struct tk_session *s, pid_t pid)
{
	struct pproc *p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->memfd = -1;
	tidmap_put(&s->procs, pid, p);
	return p;
}

static void proc_free(struct tk_session *s, struct pproc *p)
{
	tidmap_del(&s->procs, p->pid);
	if (p->memfd >= 0)
		close(p->memfd);
	bpt_free(&p->bps);
	free(p->pages);
	free(p);
}

/* A forked child: the parent's breakpoints, scratch pages and trampoline, in its own memory. */
static struct pproc *proc_fork(struct tk_session *s, const struct pproc *parent, pid_t pid)
{
	struct pproc *p = proc_new(s, pid);
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	p->memfd = open(path, O_RDWR | O_CLOEXEC);
	bpt_copy(&p->bps, &parent->bps);
	p->npages = parent->npages;
	p->pages = xmalloc((parent->npages + 1) * sizeof(*p->pages));
	memcpy(p->pages, parent->pages, parent->npages * sizeof(*p->pages));
	p->tramp = parent->tramp;
	p->sc_insn = parent->sc_insn;
	p->rbrk = parent->rbrk;
	p->addr_ok = parent->addr_ok;
	p->pending = parent->pending;
	return p;
}

static pid_t parent_of(pid_t pid)
{
	char path[64], line[256];
	int ppid = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "PPid: %d", &ppid) == 1)
			break;
	if (f)
		fclose(f);
	return ppid;
}

struct pproc *sess_proc(struct tk_session *s, pid_t tgid)
{
	struct pproc *p = tidmap_get(&s->procs, tgid);
	if (p)
		return p;
	/* A child can trap before its parent's fork event reaches us. */
	struct pproc *parent = tidmap_get(&s->procs, parent_of(tgid));
	return parent ? proc_fork(s, parent, tgid) : NULL;
}

struct pthr *sess_thread(struct tk_session *s, pid_t tid, pid_t tgid)
{
	struct pthr *th = tidmap_get(&s->threads, tid);
	if (th)
		return th;
	th = xcalloc(1, sizeof(*th));
	th->tid = tid;
	th->tgid = tgid;
	tidmap_put(&s->threads, tid, th);
	struct pproc *p = tidmap_get(&s->procs, tgid);
	if (p)
		p->nthreads++;
	return th;
}

static void thread_gone(struct tk_session *s, pid_t tid)
{
	struct pthr *th = tidmap_del(&s->threads, tid);
	if (!th)
		return;
	struct pproc *p = tidmap_get(&s->procs, th->tgid);
	if (p && p->nthreads && !--p->nthreads)
		proc_free(s, p);
	free(th->rs);
	free(th);
}

/* exec replaced the image: the old process state goes, the new one gets its probes. */
static void on_exec(struct tk_session *s, pid_t tid, pid_t tgid)
{
	/* Its other threads are gone (collected first: deleting moves the map's slots). */
	pid_t *gone = xmalloc((s->threads.n + 1) * sizeof(*gone));
	size_t n = 0;
	tidmap_foreach(&s->threads, slot)
		if (((struct pthr *)slot->val)->tgid == tgid)
			gone[n++] = slot->tid;
	for (size_t i = 0; i < n; i++) {
		struct pthr *th = tidmap_del(&s->threads, gone[i]);
		free(th->rs);
		free(th);
	}
	free(gone);
	struct pproc *old = tidmap_get(&s->procs, tgid);
	if (old)
		proc_free(s, old);
	struct pproc *p = proc_new(s, tgid);
	p->addr_ok = s->spawned && !s->first_exec_seen;
	s->first_exec_seen = true;
	sess_thread(s, tid, tgid);
	/* Out of the exec stop (inside execve) first: a clean stop to run mmap from. */
	if (pm_step(tgid, tid) == 0)
		place_install(s, p, tid);
}

static void on_new(struct tk_session *s, const struct tr_event *ev)
{
	struct pthr *parent = tidmap_get(&s->threads, ev->old_tid);
	if (!parent)
		return;
	struct pthr *th;
	if (ev->tgid != ev->tid) {
		sess_thread(s, ev->tid, ev->tgid);
		return;
	}
	struct pproc *pp = tidmap_get(&s->procs, parent->tgid);
	if (pp && !tidmap_get(&s->procs, ev->tid))
		proc_fork(s, pp, ev->tid);
	th = sess_thread(s, ev->tid, ev->tgid);
	if (!th->nrs && parent->nrs) {
		/* the child's stack holds the same swapped return addresses */
		th->caprs = th->nrs = parent->nrs;
		th->rs = xmalloc(parent->nrs * sizeof(*th->rs));
		memcpy(th->rs, parent->rs, parent->nrs * sizeof(*th->rs));
	}
}

static bool attaching(const struct tk_session *s, pid_t tgid)
{
	for (int i = 0; i < s->nattach; i++)
		if (s->attach[i] == tgid)
			return true;
	return false;
}

static int on_event(struct tracer *t, const struct tr_event *ev, struct tr_action *act, void *ctx)
{
	(void)t;
	(void)act;
	struct tk_session *s = ctx;
	switch (ev->kind) {
	case TR_EXEC:
		on_exec(s, ev->tid, ev->tgid);
		break;
	case TR_NEW:
		on_new(s, ev);
		break;
	case TR_READY:
		if (attaching(s, ev->tgid) && !tidmap_get(&s->procs, ev->tgid)) {
			struct pproc *p = proc_new(s, ev->tgid);
			p->addr_ok = true;
			sess_thread(s, ev->tid, ev->tgid);
			place_install(s, p, ev->tid);
		} else if (tidmap_get(&s->procs, ev->tgid)) {
			sess_thread(s, ev->tid, ev->tgid);
		}
		break;
	case TR_EXITED:
	case TR_KILLED:
	case TR_DETACHED:
		thread_gone(s, ev->tid);
		break;
	default:
		break;
	}
	return 0;
}

static int on_trap(struct tracer *t, pid_t tid, pid_t tgid, const siginfo_t *si, void *ctx)
{
	(void)t;
	return hit_trap(ctx, tid, tgid, si);
}

static void on_detach(struct tracer *t, pid_t tid, pid_t tgid, int status, void *ctx)
{
	(void)t;
	struct tk_session *s = ctx;
	if (tid) {
		hit_detach_thread(s, tid, tgid, status);
		return;
	}
	tidmap_foreach(&s->procs, slot)
		place_restore_all(s, slot->val);
}

struct tk_session *tk_session_new(void)
{
	struct tk_session *s = xcalloc(1, sizeof(*s));
	s->o.follow = true;
	s->o.no_syscalls = true;
	s->o.ready_events = true;
	s->o.on_event = on_event;
	s->o.on_trap = on_trap;
	s->o.on_detach = on_detach;
	s->o.ctx = s;
	return s;
}

int tk_session_spawn(struct tk_session *s, char *const argv[])
{
	if (s->tr) {
		snprintf(s->err, sizeof(s->err), "the session already has a tracee");
		errno = EBUSY;
		return -1;
	}
	/* Our int3s would kill it without us: it ends with the tracer. */
	s->o.exitkill = true;
	s->tr = tracer_spawn(argv, &s->o, s->err, sizeof(s->err));
	if (!s->tr)
		return -1;
	s->spawned = true;
	return 0;
}

int tk_session_attach(struct tk_session *s, pid_t pid)
{
	if (s->tr) {
		snprintf(s->err, sizeof(s->err), "the session already has a tracee");
		errno = EBUSY;
		return -1;
	}
	s->attach = xrealloc(s->attach, (size_t)(s->nattach + 1) * sizeof(*s->attach));
	s->attach[s->nattach++] = pid;
	s->tr = tracer_attach(&pid, 1, &s->o, s->err, sizeof(s->err));
	return s->tr ? 0 : -1;
}

int tk_session_run(struct tk_session *s)
{
	if (!s->tr) {
		snprintf(s->err, sizeof(s->err), "nothing to run: spawn or attach first");
		errno = EINVAL;
		return -1;
	}
	int rc = tracer_run(s->tr);
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "cannot run the command: %s", strerror(-rc));
		return -1;
	}
	return rc;
}

void tk_session_stop(struct tk_session *s)
{
	if (s->tr)
		tracer_stop(s->tr);
}

void tk_session_free(struct tk_session *s)
{
	if (!s)
		return;
	tracer_free(s->tr);
	tidmap_foreach(&s->procs, slot) {
		struct pproc *p = slot->val;
		if (p->memfd >= 0)
			close(p->memfd);
		bpt_free(&p->bps);
		free(p->pages);
		free(p);
	}
	tidmap_free(&s->procs);
	tidmap_foreach(&s->threads, slot) {
		struct pthr *th = slot->val;
		free(th->rs);
		free(th);
	}
	tidmap_free(&s->threads);
	for (size_t i = 0; i < s->nprobes; i++) {
		free(s->probes[i]->priv);
		s->probes[i]->priv = NULL;
	}
	free(s->probes);
	free(s->attach);
	free(s);
}

const char *tk_session_error(const struct tk_session *s)
{
	return s->err;
}

void tk_session_set_warn(struct tk_session *s, void (*warn)(const char *msg, void *arg), void *arg)
{
	s->warn = warn;
	s->warn_arg = arg;
}

int tk_probe_register(struct tk_session *s, struct tk_probe *p)
{
	for (size_t i = 0; i < s->nprobes; i++) {
		if (s->probes[i] == p) {
			snprintf(s->err, sizeof(s->err), "this probe is registered already");
			errno = EBUSY;
			return -1;
		}
	}
	p->nhit = p->nmissed = 0;
	if (place_prepare(p, s->err, sizeof(s->err)) < 0) {
		free(p->priv);
		p->priv = NULL;
		errno = EINVAL;
		return -1;
	}
	if (s->nprobes == s->capprobes) {
		s->capprobes = s->capprobes ? s->capprobes * 2 : 8;
		s->probes = xrealloc(s->probes, s->capprobes * sizeof(*s->probes));
	}
	s->probes[s->nprobes++] = p;
	/* Processes running now get it at their next stop (this one at once). */
	tidmap_foreach(&s->procs, slot) {
		struct pproc *pp = slot->val;
		if (pp->memfd < 0)
			continue;
		if (pp->pid == s->cur_tgid)
			place_all(s, pp, s->cur_tid);
		else
			pp->pending = true;
	}
	return 0;
}

int tk_probe_unregister(struct tk_session *s, struct tk_probe *p)
{
	size_t i;
	for (i = 0; i < s->nprobes && s->probes[i] != p; i++)
		;
	if (i == s->nprobes) {
		snprintf(s->err, sizeof(s->err), "this probe is not registered");
		errno = ENOENT;
		return -1;
	}
	memmove(&s->probes[i], &s->probes[i + 1], (s->nprobes - i - 1) * sizeof(*s->probes));
	s->nprobes--;
	tidmap_foreach(&s->procs, slot) {
		struct pproc *pp = slot->val;
		place_remove(s, pp, pp->pid == s->cur_tgid ? s->cur_tid : 0, p);
	}
	free(p->priv);
	p->priv = NULL;
	return 0;
}

/*
 * The ptrace engine: spawn or seize, then one wait loop that turns every
 * ptrace-stop into a struct tr_event for the caller and restarts the thread
 * the way that stop requires.
 *
 * Restart rules, from ptrace(2):
 *  - syscall stops restart with PTRACE_SYSCALL (PTRACE_CONT under a seccomp
 *    filter, except right after a seccomp stop, to catch that call's exit);
 *  - signal-delivery stops restart with the signal, so the program gets it;
 *  - group-stops (PTRACE_EVENT_STOP with a stopping signal) restart with
 *    PTRACE_LISTEN, so Ctrl-Z and SIGCONT work on a traced program;
 *  - other event stops (fork, clone, exec, interrupt) restart plainly.
 */
#include "tracee.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <grp.h>
#include <pwd.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seccomp.h"
#include "threads.h"
#include "util/die.h"
#include "util/stopsig.h"

struct tracer {
	struct tr_options o;
	struct thr_table thr;
	pid_t first;		/* the spawned command: its exit is our exit */
	int exit_status;
	int term_signal;	/* the signal that killed the command, 0: none */
	bool spawned;
	volatile sig_atomic_t stop;
	unsigned processes;	/* distinct processes seen, for tracer_single() */
	int exec_pipe;		/* the spawned child writes errno here if execve fails */
	long spin_ns;		/* how long to poll for the next stop before sleeping */
	struct rusage ru;	/* wait4's usage of the process of the last stop */
	int exec_errno;
	/* The processes we started from, fixed before running: tracer_stop() interrupts them. */
	pid_t wake[8];
	int nwake;
};

unsigned long tracer_ptrace_options(const struct tr_options *o)
{
	unsigned long opt = PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXEC;
	if (o->follow)
		opt |= PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK;
	if (o->seccomp)
		opt |= PTRACE_O_TRACESECCOMP | PTRACE_O_EXITKILL;
	if (o->exitkill)
		opt |= PTRACE_O_EXITKILL;
	return opt;
}

static long spin_window_ns(void);

static struct tracer *tracer_new(const struct tr_options *o)
{
	struct tracer *t = xcalloc(1, sizeof(*t));
	t->o = *o;
	t->spin_ns = spin_window_ns();
	return t;
}

int tr_resolve(const char *cmd, char *out, size_t len)
{
	if (strchr(cmd, '/')) {
		snprintf(out, len, "%s", cmd);
		return access(out, X_OK);
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	int err = ENOENT;
	for (const char *p = path; *p;) {
		const char *end = strchrnul(p, ':');
		snprintf(out, len, "%.*s/%s", (int)(end - p), p, cmd);
		if (access(out, X_OK) == 0)
			return 0;
		if (errno != ENOENT)
			err = errno;
		p = *end ? end + 1 : end;
	}
	errno = err;
	return -1;
}

/* In the child before exec: the user's groups, gid and uid (strace -u); 0 or errno. */
static int become_user(const char *user)
{
	struct passwd *pw = getpwnam(user);
	if (!pw)
		return ENOENT;
	if (initgroups(user, pw->pw_gid) < 0 || setregid(pw->pw_gid, pw->pw_gid) < 0 ||
	    setreuid(pw->pw_uid, pw->pw_uid) < 0)
		return errno;
	return 0;
}

struct tracer *tracer_spawn(char *const argv[], const struct tr_options *o, char *err, size_t errlen)
{
	char path[4096];
	if (tr_resolve(argv[0], path, sizeof(path)) < 0) {
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(errno));
		return NULL;
	}
	struct tr_filter *filter = NULL;
	if (o->seccomp && !(filter = tr_seccomp_build(o->seccomp_nrs, o->seccomp_n, err, errlen)))
		return NULL;

	/* The child reports a failed execve through this pipe; success closes it. */
	int pfd[2];
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		tr_seccomp_free(filter);
		return NULL;
	}
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		tr_seccomp_free(filter);
		return NULL;
	}
	if (pid == 0) {
		close(pfd[0]);
		child_signals_as_inherited();
		kill(getpid(), SIGSTOP);
		int e = o->user ? become_user(o->user) : 0;
		if (!e && filter)
			e = tr_seccomp_install(filter);
		if (!e) {
			if (o->envp)
				execve(path, argv, o->envp);
			else
				execv(path, argv);
			e = errno;
		}
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	tr_seccomp_free(filter);

	int st;
	struct tracer *t = tracer_new(o);
	t->exec_pipe = -1;
	t->first = pid;
	t->spawned = true;
	t->wake[t->nwake++] = pid;
	if (waitpid(pid, &st, WSTOPPED) < 0 || !WIFSTOPPED(st) ||
	    ptrace(PTRACE_SEIZE, pid, 0L, tracer_ptrace_options(o)) < 0) {
		snprintf(err, errlen, "cannot trace '%s': %s", argv[0], strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, &st, 0);
		close(pfd[0]);
		free(t);
		return NULL;
	}
	struct thr *th = thr_add(&t->thr, pid);
	th->startup = true;
	th->hidden = true;
	t->processes = 1;
	t->exec_pipe = pfd[0];
	kill(pid, SIGCONT);
	return t;
}

/* Seize one thread; it keeps running until PTRACE_INTERRUPT stops it for us. */
static int seize(struct tracer *t, pid_t tid, pid_t tgid)
{
	if (ptrace(PTRACE_SEIZE, tid, 0L, tracer_ptrace_options(&t->o)) < 0)
		return -1;
	struct thr *th = thr_add(&t->thr, tid);
	th->tgid = tgid;
	th->startup = true;
	th->attached = true;
	ptrace(PTRACE_INTERRUPT, tid, 0L, 0L);
	return 0;
}

/* The pid tracing tid (TracerPid in /proc/TID/status); 0 if none or unknown. */
static int tracer_of(pid_t tid)
{
	char path[64], line[128];
	int tracer = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %d", &tracer) == 1)
			break;
	fclose(f);
	return tracer;
}

/*
 * Why PTRACE_SEIZE of tid failed with EPERM, as advice: another tracer holds it,
 * or it is not ours (root can trace it), or the kernel protects it (root too).
 */
static void eperm_hint(pid_t tid, char *buf, size_t len)
{
	int tracer = tracer_of(tid);
	if (tracer > 0)
		snprintf(buf, len, " (already traced by pid %d: one tracer at a time)", tracer);
	else if (geteuid() != 0)
		snprintf(buf, len, " (not yours; try as root)");
	else
		snprintf(buf, len, " (the kernel refuses to trace it, even for root)");
}

/* Seize every thread of pid, looping until /proc/pid/task shows no new one. */
static int seize_process(struct tracer *t, pid_t pid, char *err, size_t errlen)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	for (int round = 0; round < 8; round++) {
		DIR *d = opendir(dir);
		if (!d) {
			snprintf(err, errlen, "cannot attach to pid %d: %s", pid,
				 errno == ENOENT ? "no such process" : strerror(errno));
			return -1;
		}
		int added = 0;
		for (struct dirent *e; (e = readdir(d));) {
			pid_t tid = (pid_t)atoi(e->d_name);
			if (tid <= 0 || thr_find(&t->thr, tid))
				continue;
			if (seize(t, tid, pid) < 0) {
				if (errno == ESRCH)
					continue;
				int e = errno;
				char hint[96] = "";
				if (e == EPERM)
					eperm_hint(tid, hint, sizeof(hint));
				snprintf(err, errlen, "cannot attach to pid %d: %s%s", pid, strerror(e),
					 hint);
				closedir(d);
				return -1;
			}
			added++;
		}
		closedir(d);
		if (!added)
			return 0;
	}
	return 0;
}

/*
 * strace -D: we stay the command (same pid, same parent); a grandchild
 * traces us.  In this process: wait until the grandchild has seized us,
 * then exec.  Never returns here; in the grandchild returns its tracer.
 */
struct tracer *tracer_spawn_daemonized(char *const argv[], const struct tr_options *o, int mode,
				       char *err, size_t errlen)
{
	char path[4096];
	if (tr_resolve(argv[0], path, sizeof(path)) < 0) {
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(errno));
		return NULL;
	}
	struct tr_filter *filter = NULL;
	if (o->seccomp && !(filter = tr_seccomp_build(o->seccomp_nrs, o->seccomp_n, err, errlen)))
		return NULL;
	int sync[2];
	if (pipe(sync) < 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		tr_seccomp_free(filter);
		return NULL;
	}
	pid_t command = getpid();
	pid_t child = fork();
	if (child < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		tr_seccomp_free(filter);
		return NULL;
	}
	if (child > 0) {
		char ready;
		close(sync[1]);
		waitpid(child, NULL, 0);
		/* EOF instead of a byte: the tracer could not seize us; run untraced, as strace would not. */
		if (read(sync[0], &ready, 1) != 1)
			_exit(1);
		close(sync[0]);
		child_signals_as_inherited();
		int e = o->user ? become_user(o->user) : 0;
		if (!e && filter)
			e = tr_seccomp_install(filter);
		if (!e) {
			if (o->envp)
				execve(path, argv, o->envp);
			else
				execv(path, argv);
			e = errno;
		}
		fprintf(stderr, "cannot run '%s': %s\n", argv[0], strerror(e));
		_exit(127);
	}
	tr_seccomp_free(filter);
	close(sync[0]);
	if (mode == 2)
		setpgid(0, 0);
	else if (mode >= 3)
		setsid();
	if (fork() != 0)
		_exit(0);	/* the middle process: the tracer is nobody's child now */
	struct tracer *t = tracer_new(o);
	t->exec_pipe = -1;
	t->first = command;
	t->wake[t->nwake++] = command;
	if (seize(t, command, command) < 0) {
		snprintf(err, errlen, "cannot trace pid %d: %s", (int)command, strerror(errno));
		close(sync[1]);
		free(t);
		return NULL;
	}
	thr_find(&t->thr, command)->hidden = true;	/* shown from its exec on */
	t->processes = 1;
	if (write(sync[1], "x", 1) != 1) {
		close(sync[1]);
		return t;
	}
	close(sync[1]);
	return t;
}

int tracer_attach_more(struct tracer *t, const pid_t *pids, int n, char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		if (t->nwake < (int)(sizeof(t->wake) / sizeof(t->wake[0])))
			t->wake[t->nwake++] = pids[i];
		if (seize_process(t, pids[i], err, errlen) < 0)
			return i;
		t->processes++;
	}
	return n;
}

struct tracer *tracer_attach(const pid_t *pids, int n, const struct tr_options *o, char *err, size_t errlen)
{
	struct tracer *t = tracer_new(o);
	t->exec_pipe = -1;
	for (int i = 0; i < n; i++) {
		if (t->nwake < (int)(sizeof(t->wake) / sizeof(t->wake[0])))
			t->wake[t->nwake++] = pids[i];
		if (seize_process(t, pids[i], err, errlen) < 0) {
			tracer_stop(t);
			tracer_run(t);	/* lets go of whatever was seized already */
			tracer_free(t);
			return NULL;
		}
		t->processes++;
	}
	return t;
}

/*
 * Called from signal handlers: the flag, then a PTRACE_INTERRUPT of the
 * processes we started from.  Without it a stop requested just after the run
 * loop looked at the flag waits in waitpid until the tracee stops by itself,
 * which a tracee asleep (or running code with no probe in it) never does.  The
 * interrupt makes it stop now; the loop lets it go on and sees the flag.
 * Only plain syscalls on a fixed array here: async-signal-safe.
 */
void tracer_stop(struct tracer *t)
{
	t->stop = 1;
	for (int i = 0; i < t->nwake; i++)
		ptrace(PTRACE_INTERRUPT, t->wake[i], 0L, 0L);
}

int tracer_term_signal(const struct tracer *t)
{
	return t->term_signal;
}

pid_t tracer_command(const struct tracer *t)
{
	return t->spawned || t->o.follow || t->first ? t->first : 0;
}

int tracer_count(const struct tracer *t)
{
	return (int)t->thr.n;
}

bool tracer_single(const struct tracer *t)
{
	return t->thr.n <= 1;
}

/*
 * Without process_vm_readv (a kernel without it, or a seccomp filter that
 * refuses it): a word at a time with PTRACE_PEEKDATA, as strace falls back.
 */
static long peek_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		uint64_t at = (addr + got) & ~(uint64_t)7;
		size_t skip = (size_t)(addr + got - at);
		errno = 0;
		long w = ptrace(PTRACE_PEEKDATA, tid, (void *)(uintptr_t)at, NULL);
		if (errno)
			break;
		size_t take = sizeof(w) - skip < len - got ? sizeof(w) - skip : len - got;
		memcpy((char *)buf + got, (char *)&w + skip, take);
		got += take;
	}
	return got ? (long)got : -1;
}

static bool no_vm_readv;

long tracer_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	pid_t tid = (pid_t)(intptr_t)ctx;
	if (no_vm_readv)
		return peek_read(tid, addr, buf, len);
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	if (n < 0 && errno == ENOSYS) {
		no_vm_readv = true;
		return peek_read(tid, addr, buf, len);
	}
	if (n >= 0 || errno != EFAULT)
		return n;
	/* A range running into an unmapped page: take what precedes it, page by page. */
	size_t got = 0;
	while (got < len) {
		size_t chunk = 4096 - ((addr + got) & 4095);
		if (chunk > len - got)
			chunk = len - got;
		local = (struct iovec){ (char *)buf + got, chunk };
		remote = (struct iovec){ (void *)(uintptr_t)(addr + got), chunk };
		n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	return got ? (long)got : -1;
}

/*
 * Two pages of one stopped thread's memory: a call's arguments mostly lie in
 * a page or two (a buffer may cross into the next), so reading each page
 * once saves a process_vm_readv per string or struct, as strace's cache
 * does.  Valid until the caller resets it, which it does at every stop.
 */
#define RC_PAGE 4096
static struct rc_page {
	bool valid;
	pid_t tid;
	uint64_t page;
	unsigned char data[RC_PAGE];
} rcache[2];
static unsigned rc_last;	/* the slot used last: a miss replaces the other */

void tracer_read_cache_reset(void)
{
	rcache[0].valid = rcache[1].valid = false;
}

static const struct rc_page *rc_get(pid_t tid, uint64_t page)
{
	for (unsigned i = 0; i < 2; i++)
		if (rcache[i].valid && rcache[i].tid == tid && rcache[i].page == page) {
			rc_last = i;
			return &rcache[i];
		}
	struct rc_page *p = &rcache[rc_last ^ 1];
	struct iovec local = { p->data, RC_PAGE }, remote = { (void *)(uintptr_t)page, RC_PAGE };
	p->valid = false;
	if (process_vm_readv(tid, &local, 1, &remote, 1, 0) != RC_PAGE)
		return NULL;
	p->valid = true;
	p->tid = tid;
	p->page = page;
	rc_last ^= 1;
	return p;
}

long tracer_read_cached(void *ctx, uint64_t addr, void *buf, size_t len)
{
	pid_t tid = (pid_t)(intptr_t)ctx;
	size_t got = 0;
	if (len > RC_PAGE || no_vm_readv)
		return tracer_read(ctx, addr, buf, len);
	while (got < len) {
		uint64_t at = addr + got, page = at & ~(uint64_t)(RC_PAGE - 1);
		const struct rc_page *p = rc_get(tid, page);
		if (!p)
			break;
		size_t off = (size_t)(at - page), n = RC_PAGE - off;
		if (n > len - got)
			n = len - got;
		memcpy((char *)buf + got, p->data + off, n);
		got += n;
	}
	if (got < len) {
		/* not a whole readable page: what the plain reader can get */
		long n = tracer_read(ctx, addr + got, (char *)buf + got, len - got);
		if (n > 0)
			got += (size_t)n;
	}
	return got ? (long)got : -1;
}

static void now(struct tr_event *ev)
{
	clock_gettime(CLOCK_REALTIME, &ev->ts);
	clock_gettime(CLOCK_MONOTONIC, &ev->mono);
}

static int emit(struct tracer *t, struct tr_event *ev, struct tr_action *act)
{
	struct tr_action none = { 0 };
	if (!t->o.on_event)
		return 0;
	now(ev);
	ev->stime = t->ru.ru_stime;
	if (t->o.on_event(t, ev, act ? act : &none, t->o.ctx))
		t->stop = 1;
	return 0;
}

static void set_reg(pid_t tid, size_t off, uint64_t v)
{
	ptrace(PTRACE_POKEUSER, tid, (void *)off, (void *)(uintptr_t)v);
}

static void restart(struct tracer *t, struct thr *th, int sig)
{
	int req = PTRACE_SYSCALL;
	if ((t->o.seccomp && !th->seccomp_exit) || t->o.no_syscalls)
		req = PTRACE_CONT;
	ptrace(req, th->tid, 0L, (long)sig);
}

static void on_syscall_stop(struct tracer *t, struct thr *th)
{
	struct __ptrace_syscall_info info = { 0 };	/* valgrind cannot see the kernel fill it */
	if (th->in_syscall && th->act.quiet_exit) {
		/* The stop after a plain entry stop is its exit: one ptrace call fewer, as strace. */
		th->in_syscall = false;
		memset(&th->act, 0, sizeof(th->act));
		restart(t, th, 0);
		return;
	}
	if (ptrace(PTRACE_GET_SYSCALL_INFO, th->tid, sizeof(info), &info) <= 0) {
		restart(t, th, 0);
		return;
	}
	struct tr_event ev = { .tid = th->tid, .tgid = th->tgid, .ip = info.instruction_pointer,
			       .sp = info.stack_pointer };
	if (info.op == PTRACE_SYSCALL_INFO_ENTRY || info.op == PTRACE_SYSCALL_INFO_SECCOMP) {
		if (th->in_syscall && info.op == PTRACE_SYSCALL_INFO_ENTRY && th->seccomp_exit) {
			/* Older kernels report an entry stop after the seccomp stop: same call. */
			restart(t, th, 0);
			return;
		}
		/* entry and seccomp share the layout of the nr and args */
		ev.kind = TR_SYSCALL_ENTRY;
		ev.nr = (long)info.entry.nr;
		memcpy(ev.args, info.entry.args, sizeof(ev.args));
		th->nr = ev.nr;
		th->in_syscall = true;
		th->seccomp_exit = info.op == PTRACE_SYSCALL_INFO_SECCOMP;
		memset(&th->act, 0, sizeof(th->act));
		/* Before the command's execve we report only that execve, as strace does. */
		if (!th->hidden || ev.nr == SYS_execve || ev.nr == SYS_execveat)
			emit(t, &ev, &th->act);
		if (th->act.delay_enter_us)
			usleep(th->act.delay_enter_us);
		if (th->act.skip)
			set_reg(th->tid, offsetof(struct user_regs_struct, orig_rax), (uint64_t)-1);
		/* only a plain entry stop is surely followed by its own exit stop */
		if (th->seccomp_exit || th->act.skip || th->act.signal || th->act.delay_exit_us)
			th->act.quiet_exit = false;
		if (th->seccomp_exit)
			ptrace(PTRACE_SYSCALL, th->tid, 0L, 0L);
		else
			restart(t, th, 0);
		return;
	}
	if (info.op == PTRACE_SYSCALL_INFO_EXIT) {
		ev.kind = TR_SYSCALL_EXIT;
		ev.nr = th->nr;
		ev.ret = info.exit.rval;
		if (th->act.skip) {
			set_reg(th->tid, offsetof(struct user_regs_struct, rax), (uint64_t)th->act.retval);
			ev.ret = th->act.retval;
		}
		int sig = th->act.signal;
		if (th->act.delay_exit_us)
			usleep(th->act.delay_exit_us);
		bool was_in = th->in_syscall;
		th->in_syscall = false;
		th->seccomp_exit = false;
		/* A failed execve of the command ends its line as strace's does. */
		if (was_in && (!th->hidden || ev.nr == SYS_execve || ev.nr == SYS_execveat))
			emit(t, &ev, NULL);
		memset(&th->act, 0, sizeof(th->act));
		restart(t, th, sig);
		return;
	}
	restart(t, th, 0);
}

static bool stopping_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static void on_event_stop(struct tracer *t, struct thr *th, int status)
{
	int event = status >> 16;
	int sig = WSTOPSIG(status);
	unsigned long msg = 0;
	struct tr_event ev = { .tid = th->tid, .tgid = th->tgid };

	switch (event) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE: {
		ptrace(PTRACE_GETEVENTMSG, th->tid, 0L, &msg);
		pid_t child = (pid_t)msg;
		bool known = thr_find(&t->thr, child) != NULL;
		struct thr *c = thr_add(&t->thr, child);
		if (!known)
			c->startup = true;
		c->hidden = th->hidden;
		c->attached = th->attached;
		/* A thread shares its creator's process unless the clone made a new one. */
		c->tgid = child;
		if (event == PTRACE_EVENT_CLONE) {
			char path[64], buf[256];
			snprintf(path, sizeof(path), "/proc/%d/status", child);
			FILE *f = fopen(path, "r");
			while (f && fgets(buf, sizeof(buf), f))
				if (sscanf(buf, "Tgid: %d", &c->tgid) == 1)
					break;
			if (f)
				fclose(f);
		}
		if (c->tgid == child)
			t->processes++;
		ev.kind = TR_NEW;
		ev.tid = child;
		ev.tgid = c->tgid;
		ev.old_tid = th->tid;
		if (!th->hidden)
			emit(t, &ev, NULL);
		restart(t, th, 0);
		return;
	}
	case PTRACE_EVENT_EXEC: {
		ptrace(PTRACE_GETEVENTMSG, th->tid, 0L, &msg);
		pid_t old = (pid_t)msg;
		if (old != th->tid) {
			/* A non-leader thread exec'd: it takes over the leader's tid. */
			struct thr *o = thr_find(&t->thr, old);
			if (o) {
				struct thr saved = *o;
				thr_del(&t->thr, old);
				pid_t tid = th->tid;
				*th = saved;
				th->tid = tid;
			}
		}
		bool first_exec = th->hidden;
		if (th->hidden && t->exec_pipe >= 0) {
			close(t->exec_pipe);
			t->exec_pipe = -1;
		}
		th->hidden = false;
		ev.kind = TR_EXEC;
		ev.tid = th->tid;
		ev.old_tid = old;
		emit(t, &ev, NULL);
		if (t->o.detach_on_exec && !first_exec) {
			/* After exec a process has one thread: this one, stopped, so it can go now. */
			ptrace(PTRACE_DETACH, th->tid, 0L, 0L);
			ev.kind = TR_DETACHED;
			emit(t, &ev, NULL);
			if (th->tid == t->first)
				t->first = 0;
			thr_del(&t->thr, th->tid);
			return;
		}
		restart(t, th, 0);
		return;
	}
	case PTRACE_EVENT_SECCOMP:
		/* A filtered syscall's entry: PTRACE_GET_SYSCALL_INFO says SECCOMP. */
		on_syscall_stop(t, th);
		return;
	case PTRACE_EVENT_STOP:
		/* Our spawned child's first stop is our own SIGSTOP; a seized process may be stopped for real. */
		if (stopping_signal(sig) && (!th->startup || th->attached)) {
			/* A group-stop: stay stopped, but let SIGCONT through (PTRACE_LISTEN). */
			ev.kind = TR_GROUP_STOP;
			ev.sig = sig;
			if (!th->hidden && !th->listening)
				emit(t, &ev, NULL);
			th->listening = true;
			ptrace(PTRACE_LISTEN, th->tid, 0L, 0L);
			return;
		}
		if (th->startup && !th->hidden && t->o.ready_events) {
			ev.kind = TR_READY;
			emit(t, &ev, NULL);
		}
		th->startup = false;
		th->listening = false;
		restart(t, th, 0);
		return;
	default:
		restart(t, th, 0);
		return;
	}
}

static void on_signal_stop(struct tracer *t, struct thr *th, int sig)
{
	struct tr_event ev = { .kind = TR_SIGNAL, .tid = th->tid, .tgid = th->tgid, .sig = sig };
	if (ptrace(PTRACE_GETSIGINFO, th->tid, 0L, &ev.si) < 0) {
		/* Not a signal-delivery stop after all (a group-stop without SEIZE semantics). */
		restart(t, th, 0);
		return;
	}
	th->listening = false;
	/* where the signal stopped it (-i): the syscall info's registers are there at any stop */
	struct __ptrace_syscall_info info = { 0 };
	if (ptrace(PTRACE_GET_SYSCALL_INFO, th->tid, sizeof(info), &info) > 0) {
		ev.ip = info.instruction_pointer;
		ev.sp = info.stack_pointer;
	}
	if (sig == SIGTRAP && t->o.on_trap) {
		int r = t->o.on_trap(t, th->tid, th->tgid, &ev.si, t->o.ctx);
		if (r) {
			ptrace(r == TR_TRAP_STEP ? PTRACE_SINGLESTEP : PTRACE_CONT, th->tid, 0L, 0L);
			return;
		}
	}
	if (!th->hidden)
		emit(t, &ev, NULL);
	restart(t, th, sig);
}

static void on_gone(struct tracer *t, pid_t tid, int status)
{
	struct thr *th = thr_find(&t->thr, tid);
	struct tr_event ev = { .tid = tid, .tgid = th ? th->tgid : tid };
	if (WIFEXITED(status)) {
		ev.kind = TR_EXITED;
		ev.status = WEXITSTATUS(status);
	} else {
		ev.kind = TR_KILLED;
		ev.sig = WTERMSIG(status);
		ev.core = WCOREDUMP(status);
	}
	if (tid == t->first) {
		t->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		t->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
		if (th && th->hidden && t->exec_pipe >= 0) {
			int e = 0;
			if (read(t->exec_pipe, &e, sizeof(e)) == sizeof(e))
				t->exec_errno = e;
		}
	}
	if (th && !th->hidden)
		emit(t, &ev, NULL);
	if (!th && tid != t->first) {
		ev.kind = TR_STRAY_EXIT;
		emit(t, &ev, NULL);
	}
	thr_del(&t->thr, tid);
}

/*
 * Let go of every thread: interrupt the running ones, wait for each stop,
 * then PTRACE_DETACH, handing back a signal that was about to be delivered.
 * Threads in a group-stop stay stopped, as they were before we came.
 */
static void detach_all(struct tracer *t)
{
	thr_foreach(&t->thr, th) {
		if (ptrace(PTRACE_INTERRUPT, th->tid, 0L, 0L) < 0 && errno == ESRCH)
			th->startup = false;
	}
	if (t->o.on_detach)
		t->o.on_detach(t, 0, 0, 0, t->o.ctx);
	while (t->thr.n) {
		int status;
		pid_t tid = waitpid(-1, &status, __WALL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!WIFSTOPPED(status)) {
			on_gone(t, tid, status);
			continue;
		}
		struct thr *th = thr_find(&t->thr, tid);
		int sig = 0;
		if (!(status >> 16) && (WSTOPSIG(status) & 0x7f) != SIGTRAP)
			sig = WSTOPSIG(status);	/* a signal-delivery stop: pass it on */
		if (th && th->in_syscall && th->act.skip)
			set_reg(tid, offsetof(struct user_regs_struct, rax), (uint64_t)th->act.retval);
		if (th && t->o.on_detach)
			t->o.on_detach(t, tid, th->tgid, status, t->o.ctx);
		ptrace(PTRACE_DETACH, tid, 0L, (long)sig);
		if (th) {
			struct tr_event ev = { .kind = TR_DETACHED, .tid = tid, .tgid = th->tgid };
			emit(t, &ev, NULL);
		}
		thr_del(&t->thr, tid);
	}
}

/*
 * Wait for the next stop.  A traced syscall-heavy program stops every few
 * microseconds; when tracer and tracee run on different CPUs, sleeping in
 * waitpid costs a cross-CPU wakeup and an idle exit per stop (tens of
 * microseconds, most of strace's cost there).  So first poll for a short
 * while (spin_ns), and sleep only when nothing comes.  With a single CPU to
 * run on, polling would only delay the tracee: then spin_ns is 0.
 */
static pid_t wait_next(struct tracer *t, int *status)
{
	if (t->spin_ns) {
		struct timespec start, now;
		clock_gettime(CLOCK_MONOTONIC, &start);
		do {
			pid_t tid = wait4(-1, status, __WALL | WNOHANG, &t->ru);
			if (tid != 0)
				return tid;
			/* Anything else runnable here (the tracee itself, maybe) goes first. */
			sched_yield();
			clock_gettime(CLOCK_MONOTONIC, &now);
		} while ((now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec) <
			 t->spin_ns);
	}
	if (t->o.on_idle)
		t->o.on_idle(t->o.ctx);
	return wait4(-1, status, __WALL, &t->ru);
}

/* TRACEKIT_SPIN_US overrides the polling window (0 turns it off). */
static long spin_window_ns(void)
{
	cpu_set_t set;
	const char *env = getenv("TRACEKIT_SPIN_US");
	if (env)
		return atol(env) * 1000;
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) < 2)
		return 0;
	return 50 * 1000;
}

int tracer_run(struct tracer *t)
{
	while (t->thr.n) {
		if (t->stop) {
			if (t->spawned && t->o.seccomp) {
				/* A filtered tracee must not run on without us (EXITKILL ends it). */
				break;
			}
			detach_all(t);
			break;
		}
		int status;
		pid_t tid = wait_next(t, &status);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (!WIFSTOPPED(status)) {
			on_gone(t, tid, status);
			continue;
		}
		struct thr *th = thr_find(&t->thr, tid);
		if (!th && !t->o.follow) {
			/* CLONE_PTRACE hands us a child we did not ask for: it runs on untraced */
			int sig = WSTOPSIG(status);
			ptrace(PTRACE_DETACH, tid, 0, sig == SIGSTOP || status >> 16 ? 0 : sig);
			struct tr_event ev = { .kind = TR_STRANGER, .tid = tid, .tgid = tid };
			emit(t, &ev, NULL);
			continue;
		}
		if (!th) {
			/* A new child can stop before its parent's fork event arrives. */
			th = thr_add(&t->thr, tid);
			th->startup = true;
		}
		int sig = WSTOPSIG(status);
		if (sig == (SIGTRAP | 0x80))
			on_syscall_stop(t, th);
		else if (status >> 16)
			on_event_stop(t, th, status);
		else
			on_signal_stop(t, th, sig);
	}
	if (t->exec_errno)
		return -t->exec_errno;
	return t->exit_status;
}

void tracer_free(struct tracer *t)
{
	if (!t)
		return;
	if (t->exec_pipe >= 0)
		close(t->exec_pipe);
	thr_free(&t->thr);
	free(t);
}

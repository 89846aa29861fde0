/*
 * `tracekit syscalls --kernel`: the calls come from the kernel, the program
 * never stops.  The BPF program (kernel_bpf.c) filters to the traced pid tree
 * and copies what the decoders declared (where BPF is refused, an ftrace
 * instance gives the same records without memory: kernel_ftrace.c).  This
 * file starts or names the tasks, reads the records, puts them back in order
 * of their stamps (times, or the BPF program's counter when no time is
 * shown: CPUs commit them slightly out of order) and hands them to
 * kernel_events.c.
 *
 * Records wait REORDER_NS in a buffer before they are printed: a record
 * taken earlier on another CPU can arrive a little later, never that late.
 */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kernel_bpf.h"
#include "kernel_events.h"
#include "kernel_ftrace.h"
#include "kernel_plan.h"
#include "tracee/spawn.h"
#include "tracee/tracee.h"
#include "util/die.h"
#include "util/stopsig.h"
#include "util/tidmap.h"

#define REORDER_NS 30000000ull
#define POLL_MS 10
#define DEFAULT_BUFFER_KB 16384

/* A record as it arrived; seq keeps the arrival order among equal timestamps. */
struct queued {
	uint64_t seq;
	struct km_hdr h;	/* and its regions */
};

struct pending {
	struct queued **rec;
	size_t head, n, cap;	/* rec[head..n) wait to be printed */
	uint64_t seq;
};

#define QUIET_NS 250000000ull	/* no record for this long: the ring holds nothing of the dead */
/*
 * A one-record call (its record comes at the call's exit) in flight for this
 * long gets its entry queued from the BPF map, in time for REORDER_NS to put
 * it before what other tasks did meanwhile: the lines are then strace's,
 * "<unfinished ...>" and all, and a program blocked in read() shows it.
 */
#define STALL_NS 5000000ull
#define STALL_TASKS 4096	/* tasks looked at (in the mapped slots: no syscall each) */

/*
 * Where the record stamps stood when (mono ns): without clock the stamps are
 * order numbers (kernel_bpf.h), and the reorder window and the stall delay,
 * both times, are turned into stamps by these marks, one a millisecond at
 * most (a busy loop polls far more often: the window must not outgrow them).
 */
struct mark {
	uint64_t at, stamp;
};

#define MARKS 64
#define MARK_NS 1000000ull
_Static_assert(REORDER_NS / MARK_NS + 2 < MARKS, "the marks must span the reorder window");

struct run {
	struct sc_options *o;
	bool clock;		/* stamps are times; else order numbers (the BPF program's) */
	struct mark marks[MARKS];
	int nmarks;
	struct km_bpf *bpf;	/* the source: the BPF program, */
	struct km_ftrace *ft;	/* or the fallback's ftrace instance */
	struct km_printer *pr;
	struct pending q;
	struct tidmap stalled;	/* tid -> the entry time of its call last queued as KM_STALLED */
	pid_t child;
	int go;			/* write a byte: the held child execs */
	int exec_err;		/* read: errno of a failed exec */
	int status;		/* the child's wait status */
	bool child_done;
};

static volatile sig_atomic_t stop_requested;	/* the signal that ends the run, 0 while none */

static void on_stop(int sig)
{
	stop_requested = sig;
}

static uint64_t mono_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Record stamps mean times, unless the output needs none (then a clock read a call is saved). */
static bool wants_clock(const struct sc_options *o)
{
	return o->ts.format || o->relative || o->show_time || o->summary || o->json;
}

/* Remember where the stamps stand now; keep what the reorder window still asks about. */
static void mark(struct run *r, uint64_t now)
{
	if (r->clock || (r->nmarks && r->marks[r->nmarks - 1].at + MARK_NS > now))
		return;
	int keep = 0;
	while (keep + 1 < r->nmarks && r->marks[keep + 1].at + REORDER_NS <= now)
		keep++;
	if (r->nmarks - keep == MARKS)
		keep++;
	memmove(r->marks, r->marks + keep, (size_t)(r->nmarks - keep) * sizeof(r->marks[0]));
	r->nmarks -= keep;
	r->marks[r->nmarks++] = (struct mark){ now, km_bpf_stamps(r->bpf) };
}

/* The stamp of time t (mono ns): every record stamped up to it happened by then. */
static uint64_t stamp_at(const struct run *r, uint64_t t)
{
	if (r->clock)
		return t;
	uint64_t s = 0;
	for (int i = 0; i < r->nmarks && r->marks[i].at <= t; i++)
		s = r->marks[i].stamp;
	return s;
}

static int src_poll(struct run *r, int ms, int (*fn)(void *ctx, void *rec, size_t len), void *ctx)
{
	return r->ft ? km_ftrace_poll(r->ft, ms, fn, ctx) : km_bpf_poll(r->bpf, ms, fn, ctx);
}

static int src_add(struct run *r, pid_t tid, bool pending, char *err, size_t errlen)
{
	return r->ft ? km_ftrace_add_task(r->ft, tid, pending, err, errlen) :
		       km_bpf_add_task(r->bpf, tid, pending, err, errlen);
}

/*
 * Keep the queue sorted by (stamp, arrival) as records come: they arrive
 * nearly in order, so the place is found a few steps from the end.
 */
static int queue_record(void *ctx, void *data, size_t len)
{
	struct pending *q = ctx;
	if (len < sizeof(struct km_hdr))
		return 0;
	if (q->n == q->cap) {
		q->cap = q->cap ? q->cap * 2 : 1024;
		q->rec = xrealloc(q->rec, q->cap * sizeof(*q->rec));
	}
	struct queued *e = xmalloc(offsetof(struct queued, h) + len);
	e->seq = q->seq++;
	memcpy(&e->h, data, len);
	size_t at = q->n;
	while (at > q->head && q->rec[at - 1]->h.ts > e->h.ts)
		at--;
	/* The whole call came before its entry was printed: the stand-in entry goes. */
	for (size_t i = at; e->h.type == KM_CALL && i > q->head && q->rec[i - 1]->h.ts == e->h.ts; i--)
		if (q->rec[i - 1]->h.type == KM_STALLED && q->rec[i - 1]->h.tid == e->h.tid)
			q->rec[i - 1]->h.type = 0;
	memmove(q->rec + at + 1, q->rec + at, (q->n - at) * sizeof(*q->rec));
	q->rec[at] = e;
	q->n++;
	return 0;
}

/*
 * A one-record call at the head of the queue with records of its time behind
 * it (or with some perhaps still to come: its exit is inside the reorder
 * window) is printed in two halves: the lines come out as two records would
 * have given them, "<unfinished ...>" and all.
 */
static bool needs_split(const struct pending *q, uint64_t upto)
{
	const struct km_hdr *h = &q->rec[q->head]->h;
	return h->type == KM_CALL &&
	       (h->exit_ts > upto || (q->head + 1 < q->n && q->rec[q->head + 1]->h.ts < h->exit_ts));
}

/* The head record, its entry printed, goes back in the queue as its exit half. */
static void requeue_exit(struct pending *q)
{
	struct queued *e = q->rec[q->head];
	e->h.type = KM_CALL_EXIT;
	e->h.ts = e->h.exit_ts;
	size_t at = q->head + 1;
	while (at < q->n && q->rec[at]->h.ts <= e->h.ts)
		at++;
	memmove(q->rec + q->head, q->rec + q->head + 1, (at - q->head - 1) * sizeof(*q->rec));
	q->rec[at - 1] = e;
}

/* Print the records older than upto (all of them with upto = UINT64_MAX). */
static void drain(struct run *r, uint64_t upto)
{
	struct pending *q = &r->q;
	while (q->head < q->n && q->rec[q->head]->h.ts <= upto) {
		struct km_hdr *h = &q->rec[q->head]->h;
		if (needs_split(q, upto)) {
			h->type = KM_CALL_ENTRY;
			km_printer_record(r->pr, h);
			requeue_exit(q);
			continue;
		}
		km_printer_record(r->pr, h);
		free(q->rec[q->head++]);
	}
	if (q->head == q->n) {
		q->head = q->n = 0;
	} else if (q->head > q->n / 2) {
		memmove(q->rec, q->rec + q->head, (q->n - q->head) * sizeof(*q->rec));
		q->n -= q->head;
		q->head = 0;
	}
}

/* Fork the command held on a pipe: it execs once its pid is in the kernel's task map. */
static int spawn_held(struct run *r, char err[], size_t errlen)
{
	char path[4096];
	struct held_child held;
	if (tr_resolve(r->o->argv[0], path, sizeof(path)) < 0) {
		snprintf(err, errlen, "cannot run '%s': %s", r->o->argv[0], strerror(errno));
		return -1;
	}
	/* -E: the command's environment is ours with its changes (the held child execs with ours). */
	for (int i = 0; i < r->o->nenv; i++) {
		char name[256];
		const char *ch = r->o->env[i];
		size_t klen = strcspn(ch, "=");
		snprintf(name, sizeof(name), "%.*s", (int)(klen < sizeof(name) ? klen : sizeof(name) - 1), ch);
		if (ch[klen])
			setenv(name, ch + klen + 1, 1);
		else
			unsetenv(name);
	}
	if (held_spawn(path, r->o->argv, &held, err, errlen) < 0)
		return -1;
	r->child = held.pid;
	r->go = held.go;
	r->exec_err = held.failed;
	return 0;
}

static void reap(struct run *r, int flags)
{
	if (r->child <= 0 || r->child_done)
		return;
	int st;
	pid_t p = waitpid(r->child, &st, flags);
	if (p == r->child) {
		r->status = st;
		r->child_done = true;
	}
}

/*
 * Our children, the command and any it made ours (CLONE_PARENT: the
 * command's sibling), without waiting: as strace, a stranger is reaped and
 * named, else it would stay a zombie that the command may wait to vanish.
 */
static void reap_all(struct run *r)
{
	int st;
	pid_t p;
	while ((p = waitpid(-1, &st, WNOHANG | __WALL)) > 0) {
		if (p == r->child) {
			r->status = st;
			r->child_done = true;
		} else if (!(r->o->quiet_set & SC_QUIET_EXIT)) {
			errmsg("Exit of unknown pid %d ignored", (int)p);
		}
	}
}

/* Tasks whose exit record was lost would keep the run waiting: drop the ones that are gone. */
static void forget_vanished(struct run *r)
{
	pid_t tids[256];
	int n = km_printer_tids(r->pr, tids, 256);
	for (int i = 0; i < n && i < 256; i++)
		if (kill(tids[i], 0) < 0 && errno == ESRCH)
			km_printer_forget(r->pr, tids[i]);
}

/* Entries of one-record calls that have not returned for STALL_NS, queued as records. */
static void queue_stalled(struct run *r, uint64_t now)
{
	static pid_t tids[STALL_TASKS];
	int n = r->bpf ? km_printer_tids(r->pr, tids, STALL_TASKS) : 0;
	uint64_t stalled_by = stamp_at(r, now - STALL_NS);
	for (int i = 0; i < n && i < STALL_TASKS; i++) {
		struct km_task t;
		/* The entry's stamp stands for the call (never 0): queued once. */
		if (km_bpf_task(r->bpf, tids[i], &t) < 0 || !(t.state & KM_INCALL) || t.ts > stalled_by ||
		    (uintptr_t)tidmap_get(&r->stalled, tids[i]) == t.ts)
			continue;
		tidmap_put(&r->stalled, tids[i], (void *)(uintptr_t)t.ts);
		struct km_hdr h = { .ts = t.ts, .type = KM_STALLED, .tid = (uint32_t)tids[i], .nr = t.nr };
		memcpy(h.args, t.args, sizeof(h.args));
		queue_record(&r->q, &h, sizeof(h));
	}
}

static bool finished(struct run *r)
{
	if (r->o->argv && !r->child_done)
		return false;
	return km_printer_live(r->pr) <= 0;
}

/*
 * Whether every task traced is gone, its exit record queued: the command is
 * reaped and each task the printer knows, or a queued fork makes known, has
 * its exit in the queue.  Then no record can come later (a BPF record is in
 * the ring before its task goes on, and these tasks are gone): the rest is
 * printed without waiting out the reorder window, which a run of a short
 * command would otherwise spend idle.
 */
static bool all_gone(const struct run *r)
{
	if (!r->bpf || !r->o->argv || !r->child_done)
		return false;
	long n = km_printer_live(r->pr);
	for (size_t i = r->q.head; i < r->q.n; i++) {
		uint32_t type = r->q.rec[i]->h.type;
		n += type == KM_FORK ? 1 : type == KM_GONE ? -1 : 0;
	}
	return n <= 0;
}

static void loop(struct run *r)
{
	uint64_t last_arrival = mono_now();
	uint64_t arrived = 0;
	while (!stop_requested) {
		if (src_poll(r, POLL_MS, queue_record, &r->q) < 0)
			break;
		uint64_t now = mono_now();
		mark(r, now);
		bool idle = r->q.seq == arrived;
		queue_stalled(r, now);
		if (!idle)
			last_arrival = now;
		arrived = r->q.seq;
		drain(r, stamp_at(r, now - REORDER_NS));
		if (idle)	/* a quiet moment: a call in flight shows, as strace shows it while it waits */
			km_printer_flush(r->pr);
		if (r->o->argv)
			reap_all(r);
		if (r->child_done && all_gone(r)) {
			src_poll(r, 0, queue_record, &r->q);
			drain(r, UINT64_MAX);
		}
		/* Only once everything that arrived is printed and the ring has been quiet a while. */
		if (r->child_done && r->q.head == r->q.n && now - last_arrival > QUIET_NS) {
			last_arrival = now;
			forget_vanished(r);
		}
		if (finished(r)) {
			/* Records committed after the last poll: one more look, then everything left. */
			src_poll(r, 0, queue_record, &r->q);
			break;
		}
	}
	src_poll(r, 0, queue_record, &r->q);
	drain(r, UINT64_MAX);
}

static size_t ring_bytes(unsigned kb)
{
	size_t want = (size_t)(kb ? kb : DEFAULT_BUFFER_KB) * 1024, n = 4096;
	while (n < want)
		n <<= 1;
	return n;
}

static int list_threads(pid_t pid, pid_t *tids, int max)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	if (!d)
		return -1;
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) && n < max;)
		if (e->d_name[0] != '.')
			tids[n++] = (pid_t)atoi(e->d_name);
	closedir(d);
	return n;
}

static int start_tasks(struct run *r, char *err, size_t errlen)
{
	struct sc_options *o = r->o;
	if (o->argv) {
		if (spawn_held(r, err, errlen) < 0)
			return -1;
		km_printer_task(r->pr, r->child, r->child, false);
		return src_add(r, r->child, true, err, errlen);
	}
	for (int i = 0; i < o->npids; i++) {
		if (kill(o->pids[i], 0) < 0 && errno == ESRCH) {
			snprintf(err, errlen, "cannot attach to process %d: no such process", (int)o->pids[i]);
			return -1;
		}
		/* With -f every thread of the process; without, the named task, as strace -p does. */
		int n = 0;
		if (o->follow) {
			pid_t tids[1024];
			n = list_threads(o->pids[i], tids, 1024);
			for (int k = 0; k < n && k < 1024; k++) {
				km_printer_task(r->pr, tids[k], o->pids[i], true);
				if (src_add(r, tids[k], false, err, errlen) < 0)
					return -1;
			}
		}
		if (n <= 0) {
			km_printer_task(r->pr, o->pids[i], o->pids[i], true);
			if (src_add(r, o->pids[i], false, err, errlen) < 0)
				return -1;
		}
	}
	return 0;
}

/* Whether tid is in a group stop (state T in /proc, not t: a ptrace stop is someone else's). */
static bool group_stopped(pid_t tid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	const char *paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] == 'T';
}

/* The held command's exec: 0, or its errno. */
static int release(struct run *r)
{
	char b = 1;
	int e = 0;
	if (write(r->go, &b, 1) != 1)
		e = EPIPE;
	close(r->go);
	r->go = -1;
	if (!e && read(r->exec_err, &e, sizeof(e)) != sizeof(e))
		e = 0;
	close(r->exec_err);
	r->exec_err = -1;
	return e;
}

/*
 * As strace when the command cannot be executed: its failed execve shows,
 * not the calls the held child makes on its way out (strace shows nothing
 * before a first exec succeeds but the exec), then strace's words and the
 * exit it reports (its child exits 1).
 */
static void exec_failed(struct run *r, int e)
{
	src_poll(r, 0, queue_record, &r->q);
	for (size_t i = r->q.head; i < r->q.n; i++) {
		const struct km_hdr *h = &r->q.rec[i]->h;
		if (h->nr == SYS_execve || h->nr == SYS_execveat)
			km_printer_record(r->pr, h);
	}
	km_printer_flush(r->pr);
	errmsg("exec: %s", strerror(e));
	if (!(r->o->quiet_set & SC_QUIET_EXIT))
		km_printer_event(r->pr, r->child, "+++ exited with 1 +++");
}

static void report_losses(struct run *r)
{
	uint64_t lost = r->ft ? km_ftrace_lost(r->ft) : km_bpf_lost(r->bpf);
	uint64_t cut = r->ft ? 0 : km_bpf_truncated(r->bpf);
	uint64_t unreadable = km_printer_unreadable(r->pr);
	if (lost)
		errmsg("%llu events lost: the ring buffer was full (raise --buffer-size, now %zu KiB)",
		       (unsigned long long)lost, ring_bytes(r->o->buffer_kb) / 1024);
	if (cut)
		warnmsg("%llu calls had more memory than one record holds (16 KiB): the rest prints as addresses",
			(unsigned long long)cut);
	if (unreadable && r->o->quiet < 2)
		warnmsg("%llu reads of traced memory failed in the kernel (pages not in memory yet, or "
			"bad pointers): those arguments print as addresses", (unsigned long long)unreadable);
}

static int exit_status(struct run *r)
{
	if (!r->o->argv)
		return 0;
	if (WIFSIGNALED(r->status))
		return 128 + WTERMSIG(r->status);
	return WEXITSTATUS(r->status);
}

/*
 * The BPF program, or where the kernel refuses it (and --kernel=bpf was not
 * asked for) the ftrace instance, saying so in one line.
 */
static int open_source(struct run *r, const struct km_plan *plans, char *err, size_t errlen)
{
	const struct sc_options *o = r->o;
	enum km_bpf_fail why = KM_FAIL_NOBPF;
	if (o->ksource != SC_KS_FTRACE) {
		r->clock = wants_clock(o);
		bool fds = (o->fmt.yflag || o->fmt.decode_fds) && o->summary != 1;
		r->bpf = km_bpf_open(plans, o->follow, r->clock, fds,
				     o->fmt.decode_pids & SC_DPID_PIDNS, ring_bytes(o->buffer_kb), &why,
				     err, errlen);
		if (r->bpf)
			return 0;
		if (o->ksource == SC_KS_BPF || why == KM_FAIL_PERM)
			return -1;
		warnmsg("--kernel: %s; using the syscall tracepoints of an ftrace instance instead "
			"(pointer arguments print as addresses)", err);
	} else if (o->quiet < 2) {	/* -o with a command implies -q, as in strace: not this */
		warnmsg("--kernel=ftrace: pointer arguments print as addresses");
	}
	r->clock = true;	/* ftrace stamps its events */
	r->ft = km_ftrace_open(o->follow, o->buffer_kb, err, errlen);
	return r->ft ? 0 : -1;
}

/*
 * The kernel names tasks by the initial PID namespace's numbers (BPF's ids,
 * ftrace's pids): tracekit in a namespace of its own (a container, unshare
 * -p) would trace and print the wrong tasks, or none.  Its inode is fixed
 * (PROC_PID_INIT_INO).
 */
static bool in_initial_pidns(void)
{
	struct stat st;
	return stat("/proc/self/ns/pid", &st) < 0 || st.st_ino == 0xEFFFFFFCu;
}

int sc_run_kernel(struct sc_options *o)
{
	char err[512] = "";
	struct run r = { .o = o, .go = -1, .exec_err = -1 };
	static struct km_plan plans[KM_NR_MAX];
	if (!in_initial_pidns()) {
		errmsg("--kernel: tracekit runs in a PID namespace of its own, and the kernel numbers "
		       "tasks by the initial one's: run it there, or without --kernel");
		return 1;
	}
	km_plan_build(plans, o->filter, &o->fmt, o->summary == 1, o->npaths > 0);
	/* First: a Ctrl-C from here on ends the run through the cleanup below. */
	catch_stop_signals(on_stop);
	default_sigchld();
	if (open_source(&r, plans, err, sizeof(err)) < 0) {
		errmsg("--kernel: %s", err);
		return 1;
	}
	int status = 1;
	if (!(r.pr = km_printer_new(o, err, sizeof(err)))) {
		errmsg("%s", err);
		km_bpf_close(r.bpf);
		km_ftrace_close(r.ft);
		return o->summary && o->sort ? 2 : 1;
	}
	int attached = start_tasks(&r, err, sizeof(err));
	if (attached == 0)
		attached = r.ft ? km_ftrace_attach(r.ft, err, sizeof(err)) :
				  km_bpf_attach(r.bpf, err, sizeof(err));
	if (attached < 0) {
		errmsg("%s", err);
		goto out;
	}
	if (!o->argv && !o->quiet)
		for (int i = 0; i < o->npids; i++)
			fprintf(stderr, "%s: Process %d attached\n", o->progname, (int)o->pids[i]);
	/*
	 * A stopped task: ptrace reports its group stop at attach, strace prints
	 * it.  Which signal stopped it /proc does not say: SIGSTOP, the usual.
	 */
	for (int i = 0; !o->argv && i < o->npids; i++)
		if (group_stopped(o->pids[i]))
			km_printer_stopped(r.pr, o->pids[i], SIGSTOP);
	if (!o->argv)
		km_printer_flush(r.pr);
	if (o->argv && !stop_requested) {
		int e = release(&r);
		if (e) {
			reap(&r, 0);
			if (o->as_strace) {
				exec_failed(&r, e);
				status = 1;
				goto out;
			}
			errmsg("cannot run '%s': %s", o->argv[0], strerror(e));
			status = 127;
			goto out;
		}
		spawn_release_standard_fds();
	}
	loop(&r);
	if (o->argv && !r.child_done) {
		/* Stopped by a signal: the command got it too (same group), or is ended now. */
		kill(r.child, SIGKILL);
		reap(&r, 0);
	}
	if (!o->argv && !o->quiet)
		for (int i = 0; i < o->npids; i++)
			fprintf(stderr, "%s: Process %d detached\n", o->progname, (int)o->pids[i]);
	report_losses(&r);
	status = exit_status(&r);
out:
	if (r.go >= 0)
		close(r.go);
	if (r.exec_err >= 0)
		close(r.exec_err);
	reap(&r, 0);
	km_bpf_close(r.bpf);
	km_ftrace_close(r.ft);
	for (size_t i = r.q.head; i < r.q.n; i++)
		free(r.q.rec[i]);
	free(r.q.rec);
	tidmap_free(&r.stalled);
	if (km_printer_free(r.pr) < 0 && status == 0)
		status = 1;
	if (stop_requested && !o->argv) {
		/* As strace: stopped by a fatal signal, we die of it once we have let go. */
		fflush(NULL);
		signal(stop_requested, SIG_DFL);
		raise(stop_requested);
	}
	if (o->argv && r.child_done && WIFSIGNALED(r.status) && status == 128 + WTERMSIG(r.status))
		die_of_signal(WTERMSIG(r.status));
	return status;
}

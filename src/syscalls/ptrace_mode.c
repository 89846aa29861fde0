/*
 * `tracekit syscalls` in ptrace mode: src/tracee reports stops, this file
 * turns them into strace's lines.  Per thread it keeps the call in flight:
 * decoded at entry with the memory its decoder declared, finished at exit,
 * printed through output.c (or as JSON, or only counted for -c).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/kvm.h>

#include "callstate.h"
#include "dumpio.h"
#include "format.h"
#include "json.h"
#include "kvm_vcpu.h"
#include "lines.h"
#include "output.h"
#include "print_signal.h"
#include "session.h"
#include "summary.h"
#include "tracee/tracee.h"
#include "tracee/fdpath.h"
#include "tracee/spawn.h"
#include "tracee/unwind.h"
#include "util/die.h"
#include "util/stopsig.h"
#include "util/tidmap.h"

struct thread {
	struct sc_callstate cs;
	bool injected;
	struct timespec start_real, start_mono;
	struct timeval start_stime;	/* system CPU time at entry: -c without -w sums its growth */
	uint64_t ip;		/* -i: where the last call was made */
	const char *poke_exit;	/* inject=...:poke_exit= of the call in flight */
	bool poked, delayed;	/* tampered with: "(INJECTED: args)", "(DELAYED)" */
	struct sc_fmt fmt;	/* the run's, with this call's abbrev= */
	struct sc_inject_counts *inj_counts;	/* when= counts this thread's calls, as strace */
};

struct session {
	struct sc_options *o;
	struct sc_output *w;
	struct sc_summary *sum;
	struct tidmap threads;
	struct tr_unwinder *unwind;
	struct tr_fdpath *fdpath;
	struct strbuf tmp;
	bool hold_entry;	/* print a call only at its exit (status=, -P, --json) */
};

static struct tracer *active;
static volatile sig_atomic_t fatal_signal;	/* the signal that made us stop, re-raised at the end */

static void on_stop_signal(int sig)
{
	if (!fatal_signal)
		fatal_signal = sig;
	if (active)
		tracer_stop(active);
}

static struct thread *thread_get(struct session *s, pid_t tid, pid_t tgid)
{
	struct thread *th = tidmap_get(&s->threads, tid);
	if (th)
		return th;
	th = xcalloc(1, sizeof(*th));
	th->fmt = s->o->fmt;
	sc_callstate_init(&th->cs, tid, tgid, &th->fmt);
	tidmap_put(&s->threads, tid, th);
	return th;
}

static void thread_free(struct thread *th)
{
	if (!th)
		return;
	sc_callstate_free(&th->cs);
	sc_inject_counts_free(th->inj_counts);
	free(th);
}

/*
 * inject=...:poke_enter=@argN=HEX: the bytes go where argument N points;
 * true when each wrote some.  As strace: what fits before unmapped memory is
 * written (with a warning), a poke of nothing or of an argument the call
 * lacks is skipped with a warning, and the line does not claim it.
 */
static bool poke(const char *prog, pid_t tid, const struct sc_entry *ent,
		 const uint64_t *args, const char *spec)
{
	bool all = true;
	char path[64], *copy = xstrdup(spec), *save = NULL;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)tid);
	int fd = open(path, O_RDWR | O_CLOEXEC);
	for (char *t = strtok_r(copy, ",", &save); fd >= 0 && t; t = strtok_r(NULL, ",", &save)) {
		/* parsed already: "@argN=" then pairs of hex digits */
		unsigned argn = (unsigned)(t[4] - '0');
		if (ent && ent->name && argn > ent->nargs) {
			fprintf(stderr, "%s: poke: Failed to tamper with process %d: requested to "
				"tamper with argument #%u, but system call '%s' has only %u arguments\n",
				prog, (int)tid, argn, ent->name, ent->nargs);
			all = false;
			continue;
		}
		uint64_t addr = args[argn - 1];
		unsigned char data[1024];
		size_t n = 0;
		for (const char *h = t + 6; h[0] && h[1] && n < sizeof(data); h += 2) {
			char byte[3] = { h[0], h[1], 0 };
			data[n++] = (unsigned char)strtoul(byte, NULL, 16);
		}
		ssize_t w = addr ? pwrite(fd, data, n, (off_t)addr) : -1;
		if (w > 0 && (size_t)w < n)
			fprintf(stderr, "%s: poke: pid:%d short write (%zd < %zu) @%#" PRIx64 "\n",
				prog, (int)tid, w, n, addr);
		if (w <= 0) {
			fprintf(stderr, "%s: poke: Failed to tamper with process %d: couldn't poke\n",
				prog, (int)tid);
			all = false;
		}
	}
	if (fd >= 0)
		close(fd);
	else
		all = false;
	free(copy);
	tracer_read_cache_reset();	/* what we read of it may be stale now */
	return all;
}

/* As strace, a string cut short by unreadable memory is said on stderr. */
static void warn_cut_string(const char *prog, struct sc_call *c)
{
	struct sc_snapshot *m = &c->mem;
	if (!m->cut_str_addr)
		return;
	fprintf(stderr, "%s: string: short read (%u < %u) @%#" PRIx64 ": %s\n", prog,
		m->cut_str_got, m->cut_str_want, m->cut_str_addr, strerror(m->cut_str_errno));
	m->cut_str_addr = 0;
}

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void on_entry(struct session *s, struct tracer *t, const struct tr_event *ev,
		     struct tr_action *act)
{
	struct thread *th = thread_get(s, ev->tid, ev->tgid);
	struct sc_call *c = &th->cs.call;
	sc_callstate_begin(&th->cs, ev->nr, ev->args, ev->sp, s->o->filter);
	th->start_real = ev->ts;
	th->start_mono = ev->mono;
	th->start_stime = ev->stime;
	th->ip = ev->ip;
	th->injected = th->poked = th->delayed = false;
	th->poke_exit = NULL;
	if (!th->cs.shown) {
		/* Its exit is not read, unless restart_syscall is traced and may resume it. */
		act->quiet_exit = !sc_filter_traced(s->o->filter, SYS_restart_syscall);
		return;
	}
	/* abbrev= lists the calls printed abbreviated: the others print whole, as with -v. */
	th->fmt = s->o->fmt;
	th->fmt.verbose = s->o->fmt.verbose || !sc_filter_in(s->o->filter, SC_QUAL_ABBREV, ev->nr);
	th->fmt.by_addr = !sc_filter_in(s->o->filter, SC_QUAL_VERBOSE, ev->nr);
	sc_mem_fetch(c, SC_AT_ENTRY, tracer_read_cached, (void *)(intptr_t)ev->tid);
	if (s->o->npaths && !sc_touches_path(c, s->o->paths, s->o->npaths)) {
		th->cs.shown = false;
		return;
	}
	/* As strace: only calls that are traced (trace=, -P) are tampered with. */
	const struct sc_inject *inj = NULL;
	if (sc_filter_injects(s->o->filter, ev->nr)) {
		if (!th->inj_counts)
			th->inj_counts = sc_inject_counts_new();
		inj = sc_filter_inject_counted(s->o->filter, th->inj_counts, ev->nr);
	}
	if (inj) {
		th->injected = inj->error || inj->has_retval;
		th->poke_exit = inj->poke_exit;
		th->poked = false;
		th->delayed = inj->delay_enter_us || inj->delay_exit_us;
		act->skip = th->injected;
		act->retval = inj->error ? -(int64_t)inj->error : inj->retval;
		act->signal = inj->signal;
		act->delay_enter_us = inj->delay_enter_us;
		act->delay_exit_us = inj->delay_exit_us;
	}
	if (inj && inj->poke_enter) {
		th->poked = poke(s->o->progname, ev->tid, c->ent, ev->args, inj->poke_enter);
		/* the call is printed with what it will see */
		sc_mem_reset(&c->mem);
		sc_mem_fetch(c, SC_AT_ENTRY, tracer_read_cached, (void *)(intptr_t)ev->tid);
	}
	warn_cut_string(s->o->progname, c);
	if (sc_filter_in(s->o->filter, SC_QUAL_RAW, ev->nr))
		sc_decode_entry_raw(c);
	else
		sc_decode_entry(c);
	th->cs.entry_len = th->cs.text.len;
	if (s->o->summary == 1 || s->hold_entry)
		return;
	out_set_multi(s->w, !tracer_single(t));
	out_set_lead(s->w, ev->nr, ev->ip);
	out_call_entry(s->w, ev->tid, &ev->ts, &ev->mono, sb_str(&th->cs.text));
	th->cs.printed_entry = true;
	if (c->rv == SC_RV_NONE && c->done_at_entry && !th->injected) {
		/* exit, exit_group: no return to wait for, "= ?" now, as strace does. */
		out_call_gone(s->w, ev->tid, c->ent->name, true);
		th->cs.shown = false;
	}
}

static void print_stack(struct session *s, struct thread *th, pid_t tid)
{
	sb_reset(&s->tmp);
	if (tr_unwind(s->unwind, tid, th->cs.tgid, &s->tmp) >= 0)
		out_text(s->w, tid, sb_str(&s->tmp));
}

static void on_exit_stop(struct session *s, struct tracer *t, const struct tr_event *ev)
{
	struct thread *th = tidmap_get(&s->threads, ev->tid);
	if (!th || !th->cs.in_call)
		return;
	struct sc_call *c = &th->cs.call;
	sc_callstate_end(&th->cs, ev->ret);
	if (th->poke_exit && poke(s->o->progname, ev->tid, c->ent, c->args, th->poke_exit))
		th->poked = true;
	if (!th->cs.shown)
		return;
	double took = seconds_between(&th->start_mono, &ev->mono);
	if (s->sum) {
		/* as strace: the system CPU time the call took, or with -w its wall-clock time */
		int64_t cpu_ns = (int64_t)(ev->stime.tv_sec - th->start_stime.tv_sec) * 1000000000 +
				 (int64_t)(ev->stime.tv_usec - th->start_stime.tv_usec) * 1000;
		uint64_t ns = s->o->wall ? (uint64_t)(took * 1e9) : cpu_ns > 0 ? (uint64_t)cpu_ns : 0;
		sc_summary_add(s->sum, c->nr, ns, sc_failed(c));
	}
	if (s->o->summary == 1)
		return;
	if (!sc_filter_status(s->o->filter, c->ret, true)) {
		return;
	}
	sc_mem_fetch(c, SC_AT_EXIT, tracer_read_cached, (void *)(intptr_t)ev->tid);
	warn_cut_string(s->o->progname, c);
	sc_decode_exit(c);
	if (s->o->kvm_vcpu && c->nr == SYS_ioctl && (uint32_t)c->args[1] == KVM_RUN &&
	    c->ret == 0 && !c->rv_extra[0])
		kvm_vcpu_exit_note(ev->tid, (int)c->args[0], c->rv_extra, sizeof(c->rv_extra));

	struct strbuf *ret = &s->tmp;
	sb_reset(ret);
	if (th->injected && c->rv == SC_RV_NONE)
		c->rv = SC_RV_DEC;	/* exit_group made to fail returns after all */
	sc_format_ret(c, ret, false);
	/* strace's notes on what tampering did to this call */
	if (th->poked)
		sb_add(ret, th->injected ? " (INJECTED: args, retval)" : " (INJECTED: args)");
	else if (th->injected)
		sb_add(ret, " (INJECTED)");
	if (th->delayed)
		sb_add(ret, " (DELAYED)");
	if (s->o->show_time)
		sc_format_took(ret, (uint64_t)(took * 1e9), s->o->time_width);

	if (!s->o->json) {
		out_set_multi(s->w, !tracer_single(t));
		out_set_lead(s->w, c->nr, th->ip);
	}
	sc_callstate_print_exit(&th->cs, s->w, s->o->json, &th->start_real, &th->start_mono, &ev->ts,
				&ev->mono, sb_str(ret), took);
	if (s->o->json)
		return;
	struct strbuf dump = STRBUF_INIT;
	sc_dumpio(&dump, c, s->o->filter, tracer_read_cached, (void *)(intptr_t)ev->tid);
	if (dump.len)
		out_text(s->w, ev->tid, sb_str(&dump));
	sb_free(&dump);
	if (s->unwind) {
		print_stack(s, th, ev->tid);
		if (c->ent && (c->ent->classes & SC_MEMORY) && !sc_failed(c))
			tr_unwind_invalidate(s->unwind, th->cs.tgid);
	}
}

/* The thread died inside a call (exit_group, or killed): "= ?". */
static void cut_short(struct session *s, struct thread *th)
{
	if (!th || !th->cs.in_call || !th->cs.shown || s->o->summary == 1)
		return;
	if (!sc_filter_status(s->o->filter, 0, false))
		return;
	sc_callstate_print_cut(&th->cs, s->w, s->o->json, &th->start_real, &th->start_mono);
}

static void on_signal(struct session *s, struct tracer *t, const struct tr_event *ev)
{
	if (s->o->summary == 1 || !sc_filter_signal(s->o->filter, ev->sig))
		return;
	struct thread *th = thread_get(s, ev->tid, ev->tgid);
	struct strbuf text = STRBUF_INIT;
	sc_signal_text(&text, s->o->json, &ev->ts, th->cs.tgid, ev->tid, ev->sig, &ev->si, &s->o->fmt);
	if (s->o->json)
		out_raw(s->w, ev->tid, sb_str(&text));
	else {
		out_set_lead(s->w, th->cs.call.nr, ev->ip ? ev->ip : th->ip);
		out_set_multi(s->w, !tracer_single(t));
		out_event(s->w, ev->tid, &ev->ts, &ev->mono, sb_str(&text));
	}
	sb_free(&text);
}

static void on_gone(struct session *s, struct tracer *t, const struct tr_event *ev)
{
	struct thread *th = tidmap_del(&s->threads, ev->tid);
	cut_short(s, th);
	pid_t tgid = th ? th->cs.tgid : ev->tid;
	/* a process that is gone has no instruction pointer: -i prints ?s, as strace */
	out_set_lead(s->w, th ? th->cs.call.nr : -1, SC_IP_UNKNOWN);
	thread_free(th);
	if (s->unwind && tgid == ev->tid)
		tr_unwind_invalidate(s->unwind, tgid);
	if (s->o->summary == 1 || (s->o->quiet_set & SC_QUIET_EXIT))
		return;
	struct strbuf text = STRBUF_INIT;
	bool killed = ev->kind != TR_EXITED;
	sc_exit_text(&text, s->o->json, &ev->ts, tgid, ev->tid, killed, killed ? ev->sig : ev->status,
		     ev->core);
	if (s->o->json) {
		out_raw(s->w, ev->tid, sb_str(&text));
	} else {
		out_set_multi(s->w, tracer_count(t) > 1);
		out_event(s->w, ev->tid, &ev->ts, &ev->mono, sb_str(&text));
	}
	out_set_multi(s->w, !tracer_single(t));
	sb_free(&text);
}

static int on_event(struct tracer *t, const struct tr_event *ev, struct tr_action *act, void *ctx)
{
	struct session *s = ctx;
	tracer_read_cache_reset();	/* a new stop: memory may have changed */
	switch (ev->kind) {
	case TR_SYSCALL_ENTRY:
		on_entry(s, t, ev, act);
		break;
	case TR_SYSCALL_EXIT:
		on_exit_stop(s, t, ev);
		break;
	case TR_SIGNAL:
		on_signal(s, t, ev);
		break;
	case TR_GROUP_STOP:
		if (s->o->summary != 1 && !s->o->json) {
			struct strbuf text = STRBUF_INIT;
			struct sc_call c = { .tid = ev->tid, .out = &text };
			sb_add(&text, "--- stopped by ");
			p_signal(&c, (uint64_t)ev->sig);
			sb_add(&text, " ---");
			out_event(s->w, ev->tid, &ev->ts, &ev->mono, sb_str(&text));
			sb_free(&text);
		}
		break;
	case TR_EXEC:
		if (ev->old_tid != ev->tid) {
			/* The exec'ing thread became the leader: its call in flight moves with it. */
			struct thread *leader = tidmap_del(&s->threads, ev->tid);
			cut_short(s, leader);
			thread_free(leader);
			if (s->o->summary != 1 && !s->o->json) {
				out_call_pid_changed(s->w, ev->old_tid, ev->tid);
				if (!(s->o->quiet_set & SC_QUIET_THREAD_EXECVE)) {
					char text[64];
					snprintf(text, sizeof(text), "+++ superseded by execve in pid %d +++",
						 (int)ev->old_tid);
					out_event(s->w, ev->tid, &ev->ts, &ev->mono, text);
				}
			}
			struct thread *th = tidmap_del(&s->threads, ev->old_tid);
			if (th) {
				th->cs.call.tid = ev->tid;
				tidmap_put(&s->threads, ev->tid, th);
			}
		}
		if (s->unwind)
			tr_unwind_invalidate(s->unwind, ev->tgid);
		out_remember_comm(s->w, ev->tid);
		break;
	case TR_EXITED:
	case TR_KILLED:
		on_gone(s, t, ev);
		break;
	case TR_NEW:
		thread_get(s, ev->tid, ev->tgid);
		out_remember_comm(s->w, ev->tid);
		break;
	case TR_DETACHED: {
		struct thread *th = tidmap_del(&s->threads, ev->tid);
		if (th && th->cs.in_call && th->cs.shown && !s->o->json && s->o->summary != 1 &&
		    (th->cs.printed_entry || sc_filter_status_kind(s->o->filter, SC_STATUS_DETACHED))) {
			/* status=detached: a call held back until its outcome shows now */
			if (!th->cs.printed_entry)
				out_call_entry(s->w, ev->tid, &th->start_real, &th->start_mono, sb_str(&th->cs.text));
			out_call_detached(s->w, ev->tid);
		}
		thread_free(th);
		if (!(s->o->quiet_set & SC_QUIET_ATTACH))
			fprintf(stderr, "%s: Process %d detached\n", s->o->progname, (int)ev->tid);
		break;
	}
	case TR_READY:	/* not asked for (ready_events) */
		break;
	case TR_STRANGER:
		if (!(s->o->quiet_set & SC_QUIET_ATTACH))
			errmsg("Detached unknown pid %d", (int)ev->tid);
		break;
	case TR_STRAY_EXIT:
		if (!(s->o->quiet_set & SC_QUIET_EXIT))
			errmsg("Exit of unknown pid %d ignored", (int)ev->tid);
		break;
	}
	return 0;
}

/*
 * -I, as strace: anywhere leaves the signals' default actions; waiting
 * catches them to detach and stop; never ignores them (and never_tstp
 * SIGTSTP too).  Without -I: never for `-o FILE COMMAND` (the command gets
 * the terminal's signals, not us), waiting otherwise.
 */
static void on_idle(void *ctx)
{
	struct session *s = ctx;
	out_flush(s->w);
}

static void catch_signals(const struct sc_options *o)
{
	int intr = o->intr;
	if (!intr)
		intr = o->daemonize ? SC_INTR_NEVER_TSTP :
		       o->outfile && o->argv ? SC_INTR_NEVER : SC_INTR_WAITING;
	struct sigaction sa = { .sa_handler = SIG_IGN };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTTOU, &sa, NULL);
	sigaction(SIGTTIN, &sa, NULL);
	if (intr == SC_INTR_ANYWHERE)
		return;
	if (intr == SC_INTR_NEVER_TSTP)
		sigaction(SIGTSTP, &sa, NULL);
	/* No SA_RESTART: the wait loop must wake up to detach. */
	sa.sa_handler = intr == SC_INTR_WAITING ? on_stop_signal : SIG_IGN;
	int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* The command's environment: ours with -E's changes (VAR=VAL sets, VAR unsets). */
static char **make_env(const struct sc_options *o)
{
	size_t n = 0;
	while (environ[n])
		n++;
	char **env = xcalloc(n + (size_t)o->nenv + 1, sizeof(char *));
	memcpy(env, environ, n * sizeof(char *));
	for (int i = 0; i < o->nenv; i++) {
		const char *ch = o->env[i];
		size_t klen = strcspn(ch, "=");
		size_t j = 0;
		while (j < n && !(strncmp(env[j], ch, klen) == 0 && env[j][klen] == '='))
			j++;
		if (ch[klen]) {
			env[j] = (char *)ch;
			if (j == n)
				n++;
		} else if (j < n) {
			memmove(&env[j], &env[j + 1], (n - j) * sizeof(char *));
			n--;
		}
	}
	env[n] = NULL;
	return env;
}

static int seccomp_list(struct sc_options *o, int **nrs)
{
	int n = sc_filter_traced_list(o->filter, NULL, 0);
	*nrs = xcalloc((size_t)n + 1, sizeof(int));
	return sc_filter_traced_list(o->filter, *nrs, n);
}

int sc_run_ptrace(struct sc_options *o)
{
	char err[4096 + 512] = "";	/* room for a whole path in the message */
	struct session s = { .o = o };
	s.hold_entry = o->json || !sc_filter_status_all(o->filter);
	if (!(s.w = out_open(o, err, sizeof(err)))) {
		errmsg("%s", err);
		return 1;
	}
	if (o->summary) {
		s.sum = sc_summary_new();
		if (o->overhead_ns >= 0)
			sc_summary_set_overhead(s.sum, (uint64_t)o->overhead_ns);
	}
	if (o->summary && o->columns && sc_summary_set_columns(s.sum, o->columns, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		out_close(s.w);
		sc_summary_free(s.sum);
		return 2;
	}
	if (o->summary && o->sort && sc_summary_set_sort(s.sum, o->sort, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		out_close(s.w);
		sc_summary_free(s.sum);
		return 2;
	}
	if (o->stack)
		s.unwind = tr_unwind_new();
	o->fmt.nl_proto = tr_fd_netlink_proto;	/* netlink messages decode by protocol */
	if (o->fmt.yflag) {
		s.fdpath = tr_fdpath_new(o->fmt.yflag);
		tr_fdpath_set_kinds(s.fdpath, o->fmt.decode_fds);
		o->fmt.fd_path = tr_fd_path;
		o->fmt.fd_ctx = s.fdpath;
	}

	int *nrs = NULL;
	char **env = o->nenv ? make_env(o) : NULL;
	struct tr_options to = { .follow = o->follow, .seccomp = o->seccomp, .on_event = on_event, .ctx = &s,
				 .envp = env, .user = o->user, .detach_on_exec = o->detach_on_execve,
				 .on_idle = on_idle };
	if (o->seccomp)
		to.seccomp_n = seccomp_list(o, &nrs);
	to.seccomp_nrs = nrs;
	if (o->debug)	/* -d: as strace's first debug line, which its tests look for */
		fprintf(stderr, "%s: ptrace_setoptions = %#lx\n", o->progname,
			tracer_ptrace_options(&to));

	struct tracer *t;
	if (o->argv && o->daemonize)
		t = tracer_spawn_daemonized(o->argv, &to, o->daemonize, err, sizeof(err));
	else if (o->argv)
		t = tracer_spawn(o->argv, &to, err, sizeof(err));
	else
		t = tracer_attach(o->pids, o->npids, &to, err, sizeof(err));
	int spawn_errno = errno;	/* why the command could not be found, if it was not */
	free(nrs);
	free(env);
	int status = 1, term_signal = 0;
	/* as strace: a pid that cannot be attached is said, the command is traced anyway */
	int attached = o->npids;
	if (t && o->argv && o->npids &&
	    (attached = tracer_attach_more(t, o->pids, o->npids, err, sizeof(err))) < o->npids)
		errmsg("%s", err);
	if (!t) {
		/* as strace: a command it cannot find or name is an exec failure */
		int gone = 0;
		if (o->as_strace && o->argv && !strncmp(err, "cannot run '", 12))
			errmsg("exec: %s", strerror(spawn_errno));
		/* and a pid that is not there, in its words */
		else if (o->as_strace && sscanf(err, "cannot attach to pid %d", &gone) == 1 &&
			 strstr(err, ": no such process"))
			errmsg("attach: ptrace(PTRACE_SEIZE, %d): No such process", gone);
		else
			errmsg("%s", err);
		goto out;
	}
	if (!(o->quiet_set & SC_QUIET_ATTACH))
		for (int i = 0; i < attached; i++)
			fprintf(stderr, "%s: Process %d attached\n", o->progname, (int)o->pids[i]);
	for (int i = 0; i < o->npids; i++)
		out_remember_comm(s.w, o->pids[i]);
	if (o->argv && o->daemonize && !(o->quiet_set & SC_QUIET_ATTACH))
		fprintf(stderr, "%s: Process %d attached\n", o->progname, (int)tracer_command(t));
	if (o->argv)
		spawn_release_standard_fds();
	active = t;
	catch_signals(o);
	status = tracer_run(t);
	term_signal = tracer_term_signal(t);
	active = NULL;
	if (status < 0 && o->as_strace) {
		/* strace's words, and the child's exit it reports: its child exits 1 */
		errmsg("exec: %s", strerror(-status));
		if (!o->json && !(o->quiet_set & SC_QUIET_EXIT) && o->summary != 1)
			out_event(s.w, tracer_command(t), NULL, NULL, "+++ exited with 1 +++");
		status = 1;
	} else if (status < 0) {
		/* strace's status when the command cannot be executed */
		errmsg("cannot run '%s': %s", o->argv[0], strerror(-status));
		status = 1;
	}
	tracer_free(t);
out:
	tidmap_foreach(&s.threads, slot)
		thread_free(slot->val);
	tidmap_free(&s.threads);
	if (s.sum) {
		sc_summary_print(s.sum, out_main(s.w));
		sc_summary_free(s.sum);
	}
	sc_tips_print(&o->tips, out_main(s.w));
	if (out_close(s.w) < 0 && status == 0)
		status = 1;
	tr_unwind_free(s.unwind);
	tr_fdpath_free(s.fdpath);
	sb_free(&s.tmp);
	if (fatal_signal) {
		/* As strace: stopped by a fatal signal, we die of it once we have let go. */
		signal(fatal_signal, SIG_DFL);
		raise(fatal_signal);
	}
	if (term_signal && status == 128 + term_signal)
		die_of_signal(term_signal);
	return status;
}

/*
 * Records of the kernel mode's BPF program → strace's lines (see
 * kernel_events.h).  Per thread it keeps the call in flight, as the ptrace
 * mode does: decoded at entry, finished at exit.  The decoders' memory comes
 * from the regions the program copied: mem.c's fetch runs over them with a
 * reader that serves those bytes, so every decoder is the ptrace mode's.
 */
#include <signal.h>
#include <stdlib.h>
#include <limits.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "callstate.h"
#include "dumpio.h"
#include "format.h"
#include "json.h"
#include "lines.h"
#include "kernel_events.h"
#include "kernel_fds.h"
#include "output.h"
#include "print_pid.h"
#include "print_signal.h"
#include "summary.h"
#include "tracee/fdpath.h"
#include "tracee/tracee.h"
#include "util/die.h"
#include "util/tidmap.h"

struct thread {
	struct sc_callstate cs;
	struct sc_fmt fmt;	/* the run's, with -e abbrev=/verbose= applied to the call in flight */
	bool attached;		/* from -p: its first record may be a call's exit */
	bool seen;		/* a record of it was handled */
	struct km_hdr *deferred;	/* an entry whose memory the kernel retries at exit */
	int exit_arg;		/* exit/exit_group's status, -1: not called (for GONE without a code) */
	int last_sig;
	uint64_t start_ns;
	uint64_t end_ns;	/* the last call's exit */
	struct strbuf held;	/* signal lines waiting for the call in flight to end */
	bool stopped;		/* in a group stop: its SIGSTOP was delivered */
	/*
	 * The SIGCONT that woke it, default-ignored so dropped at generation:
	 * ptrace reports it when dequeued, after the lower signals pending, so
	 * it waits for the thread's next record (a lower one that kills the
	 * thread first, as the SIGHUP of an orphaned process group, leaves it
	 * unsaid: waking_passed).
	 */
	struct strbuf waking;
	uint64_t waking_ts;
	bool waking_passed;
	/* A leader gone before its group (KM_GONE_LEADER_FIRST): its exit line, said with the group's end. */
	bool leader_gone;
	struct km_hdr gone;
};

struct km_printer {
	struct sc_options *o;
	struct sc_output *w;
	struct sc_summary *sum;
	struct tr_fdpath *fdpath;
	struct km_fds *fds;	/* -y: descriptors the trace saw made */
	const struct km_hdr *fdrec;	/* -y: the record being decoded, with what its descriptors were */
	struct tidmap threads;
	struct strbuf tmp;
	bool hold_entry;
	int64_t real_off;	/* CLOCK_REALTIME - CLOCK_MONOTONIC, ns */
	int live;
	bool stops;		/* a thread stopped once: records look for a held SIGCONT */
	uint64_t unreadable;
};

/* The regions of one or two records taken at one point of the call, as a reader for mem.c. */
struct regions {
	const struct km_hdr *h[2];
	unsigned when;
};

static const struct km_region *first_region(const struct km_hdr *h)
{
	return (const struct km_region *)(h + 1);
}

static const struct km_region *next_region(const struct km_region *r)
{
	return (const struct km_region *)((const unsigned char *)(r + 1) + ((r->len + 7) & ~7u));
}

/* The region of rg holding addr, or NULL. */
static const struct km_region *find_region(const struct regions *rg, uint64_t addr)
{
	for (int k = 0; k < 2; k++) {
		const struct km_hdr *h = rg->h[k];
		const struct km_region *r = h ? first_region(h) : NULL;
		for (unsigned i = 0; h && i < h->nregions; i++, r = next_region(r))
			if (r->when == rg->when && addr >= r->addr && addr < r->addr + r->len)
				return r;
	}
	return NULL;
}

static long read_regions(void *ctx, uint64_t addr, void *buf, size_t len);

/* The exit's copies, else the entry's (a write's buffer): for -e read=/write= dumps. */
static long read_either(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct regions **rg = ctx;
	long n = read_regions(rg[0], addr, buf, len);
	return n > 0 ? n : read_regions(rg[1], addr, buf, len);
}

/* mem.c's reader: bytes at addr from the copied regions, across adjacent ones. */
static long read_regions(void *ctx, uint64_t addr, void *buf, size_t len)
{
	size_t got = 0;
	while (got < len) {
		const struct km_region *r = find_region(ctx, addr + got);
		if (!r)
			break;
		size_t avail = (size_t)(r->addr + r->len - (addr + got));
		size_t n = avail < len - got ? avail : len - got;
		memcpy((unsigned char *)buf + got, (const unsigned char *)(r + 1) + (addr + got - r->addr), n);
		got += n;
	}
	return got ? (long)got : -1;
}

/* Whether regions were left out of the records (KM_DATA_LIMIT): their copies end anywhere. */
static bool regions_cut(const struct regions *rg)
{
	for (int i = 0; i < 2; i++)
		if (rg->h[i] && (rg->h[i]->truncated & KM_HDR_CUT))
			return true;
	return false;
}

/* Whether h holds regions copied at when (an exit's retry of its entry's copies). */
static bool has_regions(const struct km_hdr *h, unsigned when)
{
	const struct km_region *r = first_region(h);
	for (unsigned i = 0; i < h->nregions; i++, r = next_region(r))
		if (r->when == when)
			return true;
	return false;
}

/* Reads that failed for good: an entry's count once its retry at exit is known. */
static void count_faults(struct km_printer *p, const struct km_hdr *h, unsigned when)
{
	const struct km_region *r = first_region(h);
	for (unsigned i = 0; i < h->nregions; i++, r = next_region(r))
		p->unreadable += r->fault && r->when == when;
}

static void learn_new_fd(struct km_printer *p, const struct km_hdr *h, const struct sc_call *c, pid_t tgid);

static struct timespec ts_of(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / 1000000000u),
				  .tv_nsec = (long)(ns % 1000000000u) };
}

static struct timespec real_of(const struct km_printer *p, uint64_t ns)
{
	return ts_of(ns + (uint64_t)p->real_off);
}

static struct thread *thread_get(struct km_printer *p, pid_t tid, pid_t tgid)
{
	struct thread *th = tidmap_get(&p->threads, tid);
	if (th)
		return th;
	th = xcalloc(1, sizeof(*th));
	sc_callstate_init(&th->cs, tid, tgid, &p->o->fmt);
	th->exit_arg = -1;
	th->fmt = p->o->fmt;
	th->cs.call.fmt = &th->fmt;
	tidmap_put(&p->threads, tid, th);
	p->live++;
	return th;
}

static void thread_free(struct thread *th)
{
	if (!th)
		return;
	sc_callstate_free(&th->cs);
	sb_free(&th->held);
	sb_free(&th->waking);
	free(th->deferred);
	free(th);
}

static void set_multi(struct km_printer *p)
{
	out_set_multi(p->w, p->live > 1);
}

static void decode_entry(struct km_printer *p, struct thread *th, const struct km_hdr *a,
			 const struct km_hdr *b, bool live);

/* A call begins: the thread's state from the record's arguments; the thread, NULL when not decoded. */
static struct thread *begin_call(struct km_printer *p, const struct km_hdr *h)
{
	struct thread *th = thread_get(p, (pid_t)h->tid, (pid_t)h->tgid);
	th->seen = true;
	sc_callstate_begin(&th->cs, h->nr, h->args, h->sp, p->o->filter);
	th->start_ns = h->ts;
	if (h->nr == 60 || h->nr == 231)	/* exit, exit_group */
		th->exit_arg = (int)(h->args[0] & 0xff);
	/* abbrev= lists the calls printed abbreviated: the others print whole, as with -v. */
	th->fmt = p->o->fmt;
	th->fmt.verbose = p->o->fmt.verbose || !sc_filter_in(p->o->filter, SC_QUAL_ABBREV, h->nr);
	th->fmt.by_addr = !sc_filter_in(p->o->filter, SC_QUAL_VERBOSE, h->nr);
	free(th->deferred);
	th->deferred = NULL;
	if (!th->cs.shown)
		return NULL;
	if (p->o->summary == 1 && !p->o->npaths)
		return NULL;	/* counted at exit, never printed */
	return th;
}

static void on_enter(struct km_printer *p, const struct km_hdr *h)
{
	struct thread *th = begin_call(p, h);
	if (!th) {
		/* Not shown, sent for the descriptors it makes: its path is in this record (-y). */
		struct thread *t = tidmap_get(&p->threads, (pid_t)h->tid);
		if (t && !t->cs.shown && km_fds_tracks(h->nr)) {
			struct regions rg = { { h, NULL }, SC_AT_ENTRY };
			sc_mem_fetch(&t->cs.call, SC_AT_ENTRY, read_regions, &rg);
		}
		return;
	}
	if (h->faults) {
		/* Decoded at exit, with what the kernel copies again once the call has run. */
		size_t len = sizeof(*h) + h->size;
		th->deferred = xmalloc(len);
		memcpy(th->deferred, h, len);
		return;
	}
	decode_entry(p, th, h, NULL, true);
}

static void decode_entry_from(struct km_printer *p, struct thread *th, uint64_t ts, sc_read_fn read,
			      void *ctx, bool live);

/* The entry half from regions of a (and b); printed now when live. */
static void decode_entry(struct km_printer *p, struct thread *th, const struct km_hdr *a,
			 const struct km_hdr *b, bool live)
{
	struct regions rg = { { a, b }, SC_AT_ENTRY };
	decode_entry_from(p, th, a->ts, read_regions, &rg, live);
}

/* The entry half with memory from read; printed now when live. */
static void decode_entry_from(struct km_printer *p, struct thread *th, uint64_t ts, sc_read_fn read,
			      void *ctx, bool live)
{
	struct sc_call *c = &th->cs.call;
	sc_mem_fetch(c, SC_AT_ENTRY, read, ctx);
	sc_mem_uncut(c, read != read_regions || !regions_cut(ctx));
	if (sc_filter_in(p->o->filter, SC_QUAL_RAW, c->nr))
		sc_decode_entry_raw(c);
	else
		sc_decode_entry(c);
	th->cs.entry_len = th->cs.text.len;
	if (p->o->npaths && !sc_touches_path(c, p->o->paths, p->o->npaths)) {
		th->cs.shown = false;
		return;
	}
	if (p->o->summary == 1 || p->hold_entry || !live)
		return;
	struct timespec real = real_of(p, ts), mono = ts_of(ts);
	set_multi(p);
	out_set_lead(p->w, c->nr, SC_IP_UNKNOWN);
	out_call_entry(p->w, c->tid, &real, &mono, sb_str(&th->cs.text));
	th->cs.printed_entry = true;
	if (c->rv == SC_RV_NONE && c->done_at_entry) {
		out_call_gone(p->w, c->tid, c->ent->name, true);
		th->cs.shown = false;
	}
}

/* Signal lines held while the thread was in a call: NUL-separated texts. */
static void flush_held(struct km_printer *p, struct thread *th, uint64_t ns)
{
	if (!th->held.len)
		return;
	struct timespec real = real_of(p, ns), mono = ts_of(ns);
	set_multi(p);
	out_set_lead(p->w, th->cs.call.nr, SC_IP_UNKNOWN);
	for (const char *s = sb_str(&th->held); s < sb_str(&th->held) + th->held.len; s += strlen(s) + 1)
		out_event(p->w, th->cs.call.tid, &real, &mono, s);
	sb_reset(&th->held);
}

/* The exit of a call whose entry came before we attached: strace's "<... read resumed>". */
static void resumed_only(struct km_printer *p, const struct km_hdr *h)
{
	const struct sc_entry *e = sc_by_nr(h->nr);
	struct sc_call c = { .tid = (pid_t)h->tid, .nr = h->nr, .ent = e, .ret = h->ret, .has_ret = true,
			     .fmt = &p->o->fmt };
	if (!sc_filter_traced(p->o->filter, h->nr) || p->o->summary == 1 || p->o->json)
		return;
	sb_reset(&p->tmp);
	sc_format_ret(&c, &p->tmp, false);
	struct timespec real = real_of(p, h->ts), mono = ts_of(h->ts);
	set_multi(p);
	out_set_lead(p->w, c.nr, SC_IP_UNKNOWN);
	out_call_exit(p->w, c.tid, &real, &mono, e && e->name ? e->name : "?", ")", sb_str(&p->tmp));
}

/* The exit half; ts is the exit's time (a KM_CALL's exit_ts). */
static void on_exit_rec(struct km_printer *p, const struct km_hdr *h, uint64_t ts)
{
	struct thread *th = tidmap_get(&p->threads, (pid_t)h->tid);
	if (!th)
		return;
	bool first = !th->seen;
	th->seen = true;
	/* Returned to a pending SIGKILL: ptrace never saw it return, the call ends "= ?" when the task goes. */
	if (h->ret == KM_RET_KILLED)
		return;
	if (!th->cs.in_call) {
		/* A new task's return from clone/fork is not a call it made; an attached one's is. */
		if (first && th->attached)
			resumed_only(p, h);
		return;
	}
	struct sc_call *c = &th->cs.call;
	if (th->deferred) {
		count_faults(p, h, SC_AT_ENTRY);
		p->fdrec = th->deferred;	/* its descriptors as they were at entry */
		decode_entry(p, th, th->deferred, h, false);
		p->fdrec = h;
		free(th->deferred);
		th->deferred = NULL;
	}
	/* What was not read counts where it prints: not for calls sent only for their descriptors. */
	if (th->cs.shown)
		count_faults(p, h, SC_AT_EXIT);
	sc_callstate_end(&th->cs, h->ret);
	th->end_ns = ts;
	if (!th->cs.shown) {
		/* Not traced, sent for the descriptors it made (kernel_plan.c): they decode later calls. */
		if (km_fds_tracks(c->nr)) {
			struct regions rg = { { h, NULL }, SC_AT_ENTRY };
			/* A two-record call's entry memory came with its entry (on_enter), or again now. */
			if (h->type != KM_EXIT || has_regions(h, SC_AT_ENTRY))
				sc_mem_fetch(c, SC_AT_ENTRY, read_regions, &rg);
			km_fds_update(p->fds, th->cs.tgid, c);
		}
		goto held;
	}
	double took = (double)(ts - th->start_ns) / 1e9;
	if (p->sum)
		sc_summary_add(p->sum, c->nr, ts - th->start_ns, sc_failed(c));
	if (p->o->summary == 1 || !sc_filter_status(p->o->filter, c->ret, true))
		goto held;
	struct regions rg = { { h, NULL }, SC_AT_EXIT };
	sc_mem_fetch(c, SC_AT_EXIT, read_regions, &rg);
	sc_mem_uncut(c, !regions_cut(&rg));
	sc_pid_reaped(c);
	/* A pidfd clone made prints at its own exit (parent_tid=[3<anon_inode:[pidfd]>]). */
	if (p->fds && c->nr == SYS_clone)
		km_fds_update(p->fds, th->cs.tgid, c);
	sc_decode_exit(c);
	if (p->fds)
		km_fds_update(p->fds, th->cs.tgid, c);
	learn_new_fd(p, h, c, th->cs.tgid);

	struct strbuf *ret = &p->tmp;
	sb_reset(ret);
	sc_format_ret(c, ret, false);
	if (p->o->show_time)
		sc_format_took(ret, ts - th->start_ns, p->o->time_width);
	struct timespec start = real_of(p, th->start_ns), smono = ts_of(th->start_ns);
	struct timespec real = real_of(p, ts), mono = ts_of(ts);
	if (!p->o->json) {
		set_multi(p);
		out_set_lead(p->w, c->nr, SC_IP_UNKNOWN);
	}
	sc_callstate_print_exit(&th->cs, p->w, p->o->json, &start, &smono, &real, &mono, sb_str(ret),
				took);
	if (!p->o->json && sc_filter_dumps(p->o->filter)) {
		/* -e read=/write=: what the call moved, from the copies of both its ends. */
		struct regions out = { { h, NULL }, SC_AT_EXIT }, in = { { h, NULL }, SC_AT_ENTRY };
		struct regions *both[2] = { &out, &in };
		struct strbuf dump = STRBUF_INIT;
		sc_dumpio(&dump, c, p->o->filter, read_either, both);
		if (dump.len)
			out_text(p->w, c->tid, sb_str(&dump));
		sb_free(&dump);
	}
held:
	flush_held(p, th, ts);
}

/*
 * A whole call in one record.  Its entry may be shown already: a call that
 * did not return for a while had its entry read from the task map
 * (on_stalled).
 */
static void call_entry(struct km_printer *p, const struct km_hdr *h)
{
	struct thread *th = tidmap_get(&p->threads, (pid_t)h->tid);
	if (th && th->cs.in_call && th->start_ns == h->ts)
		return;
	th = begin_call(p, h);
	if (th) {
		count_faults(p, h, SC_AT_ENTRY);
		decode_entry(p, th, h, NULL, true);
	}
}

/*
 * The entry of a one-record call that had not returned a while ago
 * (kernel_mode.c took it from the task map), shown now; its memory is read
 * from the process: the call has not changed it (struct km_plan's one).
 */
static void on_stalled(struct km_printer *p, const struct km_hdr *h)
{
	struct thread *th = tidmap_get(&p->threads, (pid_t)h->tid);
	if (!th || h->ts <= th->end_ns)
		return;
	struct km_hdr e = *h;
	e.type = KM_ENTER;
	e.tgid = (uint32_t)th->cs.tgid;
	th = begin_call(p, &e);
	if (th)
		decode_entry_from(p, th, h->ts, tracer_read, (void *)(intptr_t)h->tid, true);
}

/* The thread died inside a call (exit_group, or killed): "= ?". */
static void cut_short(struct km_printer *p, struct thread *th)
{
	if (!th->cs.in_call || !th->cs.shown || p->o->summary == 1)
		return;
	if (th->deferred) {
		count_faults(p, th->deferred, SC_AT_ENTRY);
		decode_entry(p, th, th->deferred, NULL, false);
		if (!th->cs.shown)
			return;
	}
	if (!sc_filter_status(p->o->filter, 0, false))
		return;
	struct timespec start = real_of(p, th->start_ns), smono = ts_of(th->start_ns);
	if (!p->o->json)
		out_set_lead(p->w, th->cs.call.nr, SC_IP_UNKNOWN);
	sc_callstate_print_cut(&th->cs, p->w, p->o->json, &start, &smono);
}

/*
 * The ftrace source's exit events carry no code (nr -1): the status the
 * thread gave exit_group, else the fatal signal it was last given.
 */
static int exit_code(const struct thread *th, const struct km_hdr *h)
{
	if (h->nr != -1)
		return (int)h->ret;
	if (th->exit_arg >= 0)
		return th->exit_arg << 8;
	return th->last_sig;
}

static void exit_line(struct km_printer *p, struct thread *th, pid_t tid, const struct km_hdr *h)
{
	pid_t tgid = th->cs.tgid;
	int code = exit_code(th, h), sig = code & 0x7f;
	struct timespec real = real_of(p, h->ts), mono = ts_of(h->ts);
	struct strbuf text = STRBUF_INIT;
	sc_exit_text(&text, p->o->json, &real, tgid, tid, sig != 0, sig ? sig : (code >> 8) & 0xff,
		     code & 0x80);
	if (p->o->json)
		out_raw(p->w, tid, sb_str(&text));
	else
		out_event(p->w, tid, &real, &mono, sb_str(&text));
	sb_free(&text);
}

static bool shows_exits(const struct km_printer *p)
{
	return p->o->summary != 1 && p->o->quiet < 2 && !(p->o->quiet_set & SC_QUIET_EXIT);
}

/* A leader that went first is said once the last other thread of its group has gone. */
static void leader_after_group(struct km_printer *p, pid_t tgid)
{
	struct thread *lt = tidmap_get(&p->threads, tgid);
	if (!lt || !lt->leader_gone)
		return;
	tidmap_foreach(&p->threads, slot) {
		const struct thread *th = slot->val;
		if (slot->tid != tgid && th->cs.tgid == tgid)
			return;
	}
	out_set_lead(p->w, lt->cs.call.nr, SC_IP_UNKNOWN);
	if (shows_exits(p))
		exit_line(p, lt, tgid, &lt->gone);
	if (p->fds)
		km_fds_gone(p->fds, tgid);
	km_printer_forget(p, tgid);
}

/* The SIGCONT held while the thread was stopped, said now: the thread runs on. */
static void flush_waking(struct km_printer *p, struct thread *th)
{
	th->stopped = false;
	if (!th->waking.len)
		return;
	struct timespec real = real_of(p, th->waking_ts), mono = ts_of(th->waking_ts);
	set_multi(p);
	out_set_lead(p->w, th->cs.call.nr, SC_IP_UNKNOWN);
	out_event(p->w, th->cs.call.tid, &real, &mono, sb_str(&th->waking));
	sb_reset(&th->waking);
}

static void on_gone(struct km_printer *p, const struct km_hdr *h)
{
	pid_t tid = (pid_t)h->tid;
	struct thread *th = tidmap_get(&p->threads, tid);
	/* Killed by another thread's execve: the exec says it, as ptrace does (on_exec). */
	if (!th || h->nr == KM_GONE_SUPERSEDED)
		return;
	set_multi(p);
	cut_short(p, th);
	flush_held(p, th, h->ts);
	if (th->waking_passed)
		sb_reset(&th->waking);	/* the lower signal delivered since killed it */
	flush_waking(p, th);
	if (h->nr == KM_GONE_LEADER_FIRST) {
		/* As wait() reports a leader: once its group is gone (or an execve replaced it). */
		th->cs.in_call = false;
		th->leader_gone = true;
		th->gone = *h;
		th->gone.nr = KM_GONE_EXIT;
		/*
		 * After exit_group the group's code is the leader's: threads the
		 * trace does not follow (KVM's user worker, threads without -f) add
		 * nothing to say, and no record says when they go.
		 */
		if (th->cs.call.nr == SYS_exit_group)
			leader_after_group(p, tid);
		return;
	}
	out_set_lead(p->w, th->cs.call.nr, SC_IP_UNKNOWN);
	if (shows_exits(p))
		exit_line(p, th, tid, h);
	pid_t tgid = th->cs.tgid;
	if (p->fds && tid == tgid)
		km_fds_gone(p->fds, tid);
	km_printer_forget(p, tid);
	if (tid != tgid)
		leader_after_group(p, tgid);
}

/* For the ftrace source's exit codes: a signal that kills unless handled. */
static bool fatal_by_default(int sig)
{
	static const int fatal[] = { SIGKILL, SIGSEGV, SIGABRT, SIGTERM, SIGINT, SIGBUS, SIGILL, SIGFPE };
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		if (fatal[i] == sig)
			return true;
	return false;
}

static void on_signal(struct km_printer *p, const struct km_hdr *h)
{
	struct thread *th = tidmap_get(&p->threads, (pid_t)h->tid);
	if (!th)
		return;
	if (fatal_by_default(h->nr))
		th->last_sig = h->nr;
	/* SIGKILL has no delivery ptrace could show: the task just goes. */
	if (h->nr == SIGKILL || p->o->summary == 1 || !sc_filter_signal(p->o->filter, h->nr))
		return;
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (h->nregions)
		memcpy(&si, first_region(h) + 1, 48);
	struct timespec real = real_of(p, h->ts), mono = ts_of(h->ts);
	struct strbuf text = STRBUF_INIT;
	sc_signal_text(&text, p->o->json, &real, th->cs.tgid, (pid_t)h->tid, h->nr, &si, &p->o->fmt);
	if (p->o->json) {
		out_raw(p->w, (pid_t)h->tid, sb_str(&text));
	} else if (th->cs.in_call) {
		/* Ignored, so never delivered: ptrace reports it when the call returns; so do we. */
		sb_add(&th->held, sb_str(&text));
		sb_addc(&th->held, '\0');
	} else if (th->stopped && h->nr == SIGCONT) {
		th->stopped = false;
		sb_reset(&th->waking);
		sb_add(&th->waking, sb_str(&text));
		th->waking_ts = h->ts;
		th->waking_passed = false;
	} else {
		if (h->nr > SIGCONT)
			flush_waking(p, th);	/* dequeued after it */
		else if (th->waking.len)
			th->waking_passed = true;
		set_multi(p);
		out_set_lead(p->w, th->cs.call.nr, SC_IP_UNKNOWN);
		out_event(p->w, (pid_t)h->tid, &real, &mono, sb_str(&text));
		if (h->nr == SIGSTOP) {
			/* Delivered, SIGSTOP stops the thread (it cannot be caught): ptrace's group stop. */
			out_event(p->w, (pid_t)h->tid, &real, &mono, "--- stopped by SIGSTOP ---");
			th->stopped = p->stops = true;
		}
	}
	sb_free(&text);
}

static void on_exec(struct km_printer *p, const struct km_hdr *h)
{
	pid_t old = (pid_t)h->args[0], tid = (pid_t)h->tid;
	if (p->fds)
		km_fds_exec(p->fds, (pid_t)h->tgid);
	if (old == tid)
		return;
	/*
	 * The exec'ing thread became the leader, as the ptrace mode says it: the
	 * leader's call cut short, the execve's line "<pid changed to ...>", the
	 * leader superseded; the exec'ing thread's call in flight moves with it.
	 */
	struct thread *leader = tidmap_get(&p->threads, tid), *execing = tidmap_get(&p->threads, old);
	set_multi(p);
	if (execing && execing->deferred && execing->cs.in_call) {
		/* Its entry waited for memory the exec has replaced: shown now, with what was read. */
		struct km_hdr *d = execing->deferred;
		execing->deferred = NULL;
		count_faults(p, d, SC_AT_ENTRY);
		decode_entry(p, execing, d, NULL, true);
		free(d);
	}
	if (leader)
		cut_short(p, leader);
	if (p->o->summary != 1 && !p->o->json) {
		out_call_pid_changed(p->w, old, tid);
		if (!(p->o->quiet_set & SC_QUIET_THREAD_EXECVE)) {
			char text[64];
			struct timespec real = real_of(p, h->ts), mono = ts_of(h->ts);
			snprintf(text, sizeof(text), "+++ superseded by execve in pid %d +++", (int)old);
			out_set_lead(p->w, leader ? leader->cs.call.nr : 0, SC_IP_UNKNOWN);
			out_event(p->w, tid, &real, &mono, text);
		}
	}
	km_printer_forget(p, tid);
	struct thread *th = tidmap_del(&p->threads, old);
	if (th) {
		th->cs.call.tid = tid;
		tidmap_put(&p->threads, tid, th);
	}
}

/* --pidns-translation: the task's ids as its call saw them (see print_pid.h). */
static void on_pids(const struct km_hdr *h)
{
	struct km_pids k;
	if (!h->nregions || first_region(h)->len < sizeof(k))
		return;
	memcpy(&k, first_region(h) + 1, sizeof(k));
	struct sc_pid_level lv[KM_PIDNS_DEPTH];
	size_t n = k.levels < KM_PIDNS_DEPTH ? k.levels : KM_PIDNS_DEPTH;
	for (size_t i = 0; i < n; i++) {
		lv[i].ns = k.lv[i].ns;
		memcpy(lv[i].id, k.lv[i].id, sizeof(lv[i].id));
	}
	sc_pid_learn((pid_t)h->tid, lv, n);
}

void km_printer_record(struct km_printer *p, const struct km_hdr *h)
{
	p->fdrec = h;
	if (p->stops && h->type != KM_SIGNAL && h->type != KM_GONE) {
		struct thread *th = tidmap_get(&p->threads, (pid_t)h->tid);
		if (th && (th->stopped || th->waking.len))
			flush_waking(p, th);
	}
	switch (h->type) {
	case KM_ENTER:
		on_enter(p, h);
		break;
	case KM_EXIT:
		on_exit_rec(p, h, h->ts);
		break;
	case KM_CALL:
		call_entry(p, h);
		on_exit_rec(p, h, h->exit_ts);
		break;
	case KM_CALL_ENTRY:
		call_entry(p, h);
		break;
	case KM_CALL_EXIT:
		on_exit_rec(p, h, h->ts);
		break;
	case KM_STALLED:
		on_stalled(p, h);
		break;
	case KM_FORK:
		thread_get(p, (pid_t)h->args[0], (pid_t)h->args[1]);
		if (p->fds)
			km_fds_fork(p->fds, (pid_t)h->tgid, (pid_t)h->args[1]);
		break;
	case KM_GONE:
		on_gone(p, h);
		break;
	case KM_SIGNAL:
		on_signal(p, h);
		break;
	case KM_EXEC:
		on_exec(p, h);
		break;
	case KM_PIDS:
		on_pids(h);
		break;
	}
	p->fdrec = NULL;
}

/* Magic numbers of the file systems whose files /proc names by kind, not by path. */
#define SOCKFS_MAGIC 0x534F434Bu
#define PIPEFS_MAGIC 0x50495045u
#define ANON_INODE_FS_MAGIC 0x09041934u
#define PID_FS_MAGIC 0x50494446u	/* pidfds since Linux 6.9 */

/*
 * What /proc/PID/fd/N would have said at the call, from the BPF program's
 * struct km_fdinfo: a path from its names, or the kind of a pseudo file.
 * False when it cannot be told (a walk cut short, a file system we do not
 * name); nothing in out when /proc could not say it either (PATH_MAX).
 */
static bool fdinfo_target(const struct km_region *r, struct strbuf *out)
{
	struct km_fdinfo fi;
	if (r->len < sizeof(fi))
		return false;
	memcpy(&fi, r + 1, sizeof(fi));
	const char *names = (const char *)(r + 1) + sizeof(fi), *end = names + (r->len - sizeof(fi));
	const char *name[256];
	int depth = 0;
	for (const char *n = names; n < end && depth < fi.depth && depth < 256; n += strlen(n) + 1) {
		if (!memchr(n, 0, (size_t)(end - n)))
			return false;
		name[depth++] = n;
	}
	if (depth != fi.depth)
		return false;
	if (fi.magic == SOCKFS_MAGIC || fi.magic == PIPEFS_MAGIC) {
		sb_printf(out, "%s:[%llu]", fi.magic == SOCKFS_MAGIC ? "socket" : "pipe",
			  (unsigned long long)fi.ino);
		return true;
	}
	if (fi.magic == PID_FS_MAGIC) {
		sb_add(out, "anon_inode:[pidfd]");	/* as /proc names it */
		return true;
	}
	if (fi.magic == ANON_INODE_FS_MAGIC) {
		if (!depth)
			return false;
		sb_printf(out, "anon_inode:%s", name[0]);
		return true;
	}
	if (fi.cut)
		return false;
	for (int i = depth - 1; i >= 0; i--)
		sb_printf(out, "/%s", name[i]);
	if (!depth)
		sb_addc(out, '/');
	if (fi.deleted)
		sb_add(out, " (deleted)");
	/* /proc's readlink fails for a path of PATH_MAX bytes or more: no text, as strace. */
	if (out->len >= PATH_MAX)
		sb_reset(out);
	return true;
}

/*
 * -y from the record's own lookups (kmode.h's struct km_fdinfo): the text
 * of fd as the call saw it, -1 when fd was looked up and not open then (or
 * has no text of the kinds asked), -2 when the record does not tell.
 */
/* The record's struct km_fdinfo region of fd, or NULL. */
static const struct km_region *fd_region(const struct km_hdr *h, int fd)
{
	const struct km_region *r = first_region(h);
	for (unsigned i = 0; h && (h->truncated & KM_HDR_FDS) && i < h->nregions; i++, r = next_region(r))
		if (r->when == KM_WHEN_FD && r->addr == KM_FD_ADDR + (uint32_t)fd &&
		    r->len >= sizeof(struct km_fdinfo))
			return r;
	return NULL;
}

/* The record being decoded, when tid's: a thread of the process has the same descriptors. */
static const struct km_hdr *fd_record(const struct km_printer *p, pid_t tid)
{
	const struct km_hdr *h = p->fdrec;
	return h && ((pid_t)h->tid == tid || (pid_t)h->tgid == tid) ? h : NULL;
}

static int fd_at_call(struct km_printer *p, const struct km_hdr *h, int fd, char *buf, size_t len)
{
	if (!h || !(h->truncated & KM_HDR_FDS))
		return -2;
	const struct km_region *r = fd_region(h, fd);
	if (r) {
		struct km_fdinfo fi;
		struct strbuf target = STRBUF_INIT;
		bool told = fdinfo_target(r, &target);
		if (!told || !target.len) {
			sb_free(&target);
			return told ? -1 : -2;	/* told, but empty: too long for /proc too */
		}
		memcpy(&fi, r + 1, sizeof(fi));
		fi.proto[sizeof(fi.proto) - 1] = '\0';
		struct tr_sock_facts sk = {
			.family = fi.family,
			.sport = fi.sport,
			.dport = fi.dport,
			.saddr = fi.saddr,
			.daddr = fi.daddr,
			.peer_ino = fi.peer_ino,
			.unix_path = fi.unix_path,
			.unix_path_len = fi.unix_len > 2 ? fi.unix_len - 2u : 0,
			.nl_proto = fi.nl_proto,
			.portid = fi.portid,
		};
		struct tr_fd_facts f = {
			.sock = fi.proto[0] ? &sk : NULL,
			.target = sb_str(&target),
			.deleted = fi.deleted,
			.mode = fi.mode,
			.rdev = makedev(fi.rdev >> 20, fi.rdev & 0xfffff),
			.sock_proto = fi.proto[0] ? fi.proto : NULL,
			.pid = (int)fi.pid,
		};
		int n = tr_fd_describe(p->fdpath, fd, &f, buf, len);
		sb_free(&target);
		return n;
	}
	if (h->truncated & KM_HDR_CUT)
		return -2;
	/* Every value that could be a descriptor was looked up: one not found was not open. */
	bool args = h->type != KM_EXIT, ret = h->type != KM_ENTER && h->type != KM_STALLED;
	for (int i = 0; args && i < 6; i++)
		if ((int)h->args[i] == fd)
			return -1;
	return ret && h->ret == fd ? -1 : -2;
}

/*
 * -y: a new descriptor the record looked up (bpf's maps, KVM's vCPUs, io_uring's
 * rings, which no open() names) is remembered, for later calls that hold it
 * in memory (bpf's attr, io_uring_register's arrays): only arguments and the
 * return value are looked up in the kernel.
 */
static void learn_new_fd(struct km_printer *p, const struct km_hdr *h, const struct sc_call *c, pid_t tgid)
{
	char buf[PATH_MAX];
	if (!p->fds || p->o->fmt.yflag != 1 || c->rv != SC_RV_FD || c->ret < 0 || c->ret >= (1 << 20))
		return;
	if (fd_at_call(p, h, (int)c->ret, buf, sizeof(buf)) > 0)
		km_fds_learn(p->fds, tgid, (int)c->ret, buf);
}

/* -y: what the trace saw the descriptor made from, else /proc while the process lives. */
static int fd_path(void *ctx, pid_t tid, int fd, char *buf, size_t len)
{
	struct km_printer *p = ctx;
	int n = fd_at_call(p, fd_record(p, tid), fd, buf, len);
	if (n != -2)
		return n;
	const struct thread *th = tidmap_get(&p->threads, tid);
	if (p->o->fmt.yflag < 2 && km_fds_path(p->fds, th ? th->cs.tgid : tid, fd, buf, len) >= 0)
		return (int)strlen(buf);
	return tr_fd_path(p->fdpath, tid, fd, buf, len);
}

/*
 * The printer nl_proto asks (the decoders' hook takes no context; one
 * printer a run).
 */
static const struct km_printer *nl_printer;

/* Netlink sockets by what the trace saw socket() make, else /proc while the process lives. */
static int nl_proto(pid_t tid, int fd)
{
	const struct km_printer *p = nl_printer;
	const struct thread *th = p ? tidmap_get(&p->threads, tid) : NULL;
	int proto = p ? km_fds_netlink(p->fds, th ? th->cs.tgid : tid, fd) : -2;
	return proto != -2 ? proto : tr_fd_netlink_proto(tid, fd);
}

/* -P: what the trace saw the descriptor made from, else /proc while the process lives. */
static int fd_target(void *ctx, pid_t tid, int fd, char *buf, size_t len)
{
	struct km_printer *p = ctx;
	const struct thread *th = tidmap_get(&p->threads, tid);
	if (km_fds_path(p->fds, th ? th->cs.tgid : tid, fd, buf, len) >= 0)
		return (int)strlen(buf);
	char link[64];
	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, fd);
	ssize_t n = len ? readlink(link, buf, len - 1) : -1;
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

struct km_printer *km_printer_new(struct sc_options *o, char *err, size_t errlen)
{
	struct km_printer *p = xcalloc(1, sizeof(*p));
	p->o = o;
	p->hold_entry = o->json || !sc_filter_status_all(o->filter);
	if (!(p->w = out_open(o, err, errlen))) {
		free(p);
		return NULL;
	}
	if (o->summary) {
		p->sum = sc_summary_new();
		if (o->overhead_ns >= 0)
			sc_summary_set_overhead(p->sum, (uint64_t)o->overhead_ns);
	}
	if (o->summary && ((o->columns && sc_summary_set_columns(p->sum, o->columns, err, errlen) < 0) ||
			   (o->sort && sc_summary_set_sort(p->sum, o->sort, err, errlen) < 0))) {
		out_close(p->w);
		sc_summary_free(p->sum);
		free(p);
		return NULL;
	}
	/* Netlink messages decode by protocol: the descriptors the trace saw made say it. */
	p->fds = km_fds_new();
	nl_printer = p;
	o->fmt.nl_proto = nl_proto;
	if (o->fmt.yflag || o->npaths) {
		/*
		 * Resolved from what the trace saw, else /proc when printed, a moment
		 * after the call (see docs/syscalls.md); -P matches descriptors so too.
		 */
		p->fdpath = tr_fdpath_new(o->fmt.yflag ? o->fmt.yflag : 1);
		tr_fdpath_set_kinds(p->fdpath, o->fmt.decode_fds);
		if (o->fmt.yflag)
			o->fmt.fd_path = fd_path;
		o->fmt.fd_target = fd_target;
		o->fmt.fd_ctx = p;
	}
	struct timespec r, m;
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	p->real_off = ((int64_t)r.tv_sec - m.tv_sec) * 1000000000 + (r.tv_nsec - m.tv_nsec);
	return p;
}

void km_printer_task(struct km_printer *p, pid_t tid, pid_t tgid, bool attached)
{
	thread_get(p, tid, tgid)->attached = attached;
	if ((p->o->fmt.yflag || p->o->npaths) && tid == tgid)
		km_fds_seed(p->fds, tgid);
}

void km_printer_stopped(struct km_printer *p, pid_t tid, int sig)
{
	if (p->o->summary == 1 || p->o->json)
		return;
	struct strbuf text = STRBUF_INIT;
	struct sc_call c = { .tid = tid, .out = &text };
	struct timespec r, m;
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	sb_add(&text, "--- stopped by ");
	p_signal(&c, (uint64_t)sig);
	sb_add(&text, " ---");
	set_multi(p);
	out_event(p->w, tid, &r, &m, sb_str(&text));
	sb_free(&text);
}

void km_printer_event(struct km_printer *p, pid_t tid, const char *text)
{
	if (p->o->summary == 1 || p->o->json)
		return;
	struct timespec r, m;
	clock_gettime(CLOCK_REALTIME, &r);
	clock_gettime(CLOCK_MONOTONIC, &m);
	set_multi(p);
	out_event(p->w, tid, &r, &m, text);
}

void km_printer_flush(struct km_printer *p)
{
	out_flush(p->w);
}

int km_printer_live(const struct km_printer *p)
{
	return p->live;
}

void km_printer_forget(struct km_printer *p, pid_t tid)
{
	struct thread *th = tidmap_del(&p->threads, tid);
	if (!th)
		return;
	p->live--;
	thread_free(th);
}

int km_printer_tids(const struct km_printer *p, pid_t *tids, int max)
{
	int n = 0;
	tidmap_foreach(&p->threads, slot) {
		if (n < max)
			tids[n] = slot->tid;
		n++;
	}
	return n;
}

uint64_t km_printer_unreadable(const struct km_printer *p)
{
	return p->unreadable;
}

int km_printer_free(struct km_printer *p)
{
	tidmap_foreach(&p->threads, slot) {
		struct thread *th = slot->val;
		/* Detached (-p) inside a call: as the ptrace mode says it. */
		if (th->cs.in_call && th->cs.shown && th->cs.printed_entry && !p->o->json)
			out_call_gone(p->w, slot->tid, th->cs.call.ent ? th->cs.call.ent->name : "?", false);
		thread_free(th);
	}
	tidmap_free(&p->threads);
	if (p->sum) {
		sc_summary_print(p->sum, out_main(p->w));
		sc_summary_free(p->sum);
	}
	int rc = out_close(p->w);
	tr_fdpath_free(p->fdpath);
	km_fds_free(p->fds);
	if (nl_printer == p)
		nl_printer = NULL;
	sb_free(&p->tmp);
	free(p);
	return rc;
}

/*
 * What happens at a trap.  Three traps are ours:
 *  - an int3 of a breakpoint (SIGTRAP, si_code SI_KERNEL, rip one past it):
 *    pre-handlers, return-address swap for return probes, then the copy of
 *    the instruction runs from its slot — straight through and back into the
 *    program when no probe there has a post-handler (one stop per hit), or
 *    single-stepped when one has;
 *  - the single-step of such a copy (TRAP_TRACE): post-handlers, and the
 *    slot's jump back taken in the tracer;
 *  - the return trampoline's int3: return handlers, then on to the real
 *    return address.
 * Anything else is the program's own SIGTRAP and is delivered.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine.h"
#include "util/die.h"

#define SNAP_MAX 64	/* probes on one address a hit looks at */

static long ctx_read(const struct tk_probe_ctx *c, uint64_t addr, void *buf, size_t len)
{
	return tracer_read((void *)(intptr_t)c->tid, addr, buf, len);
}

static void ctx_init(struct tk_probe_ctx *c, struct tk_session *s, const struct pthr *th,
		     uint64_t addr, const struct user_regs_struct *r)
{
	memset(c, 0, sizeof(*c));
	c->session = s;
	c->pid = th->tgid;
	c->tid = th->tid;
	c->addr = addr;
	c->regs = *r;
	c->read = ctx_read;
}

/* The probes of b as they are now: handlers may (un)register probes meanwhile. */
static unsigned snapshot(const struct bp *b, struct tk_probe **snap)
{
	unsigned n = b->n < SNAP_MAX ? b->n : SNAP_MAX;
	if (n)
		memcpy(snap, b->probes, n * sizeof(*snap));
	return n;
}

static void push_frame(struct pproc *p, struct pthr *th, const struct bp *b,
		       const struct user_regs_struct *r, uint64_t veto, struct tk_probe **snap,
		       unsigned n)
{
	unsigned max = 64;
	for (unsigned i = 0; i < n; i++)
		if (snap[i]->ret_handler && snap[i]->maxactive > 0 && (unsigned)snap[i]->maxactive < max)
			max = (unsigned)snap[i]->maxactive;
	uint64_t ret;
	if (th->nrs >= max || pm_read(p->memfd, r->rsp, &ret, 8) < 0 ||
	    pm_write(p->memfd, th->tid, r->rsp, &p->tramp, 8) < 0) {
		for (unsigned i = 0; i < n; i++)
			if (snap[i]->ret_handler)
				snap[i]->nmissed++;
		return;
	}
	if (th->nrs == th->caprs) {
		th->caprs = th->caprs ? th->caprs * 2 : 8;
		th->rs = xrealloc(th->rs, th->caprs * sizeof(*th->rs));
	}
	th->rs[th->nrs++] = (struct retframe){ .ret = ret, .sp_slot = r->rsp, .func = b->addr,
					       .veto = veto };
}

static int set_regs(pid_t tid, const struct user_regs_struct *r, int how)
{
	ptrace(PTRACE_SETREGS, tid, 0L, r);
	return how;
}

static int on_breakpoint(struct tk_session *s, struct pproc *p, struct pthr *th, struct bp *b,
			 struct user_regs_struct *r)
{
	if (b->internal)
		place_libs_changed(s, p, th->tid);
	struct tk_probe *snap[SNAP_MAX];
	unsigned n = snapshot(b, snap);
	struct tk_probe_ctx c;
	r->rip = b->addr;	/* handlers see the probed address, as uprobes show it */
	ctx_init(&c, s, th, b->addr, r);
	bool skip = false;
	uint64_t veto = 0;
	for (unsigned i = 0; i < n; i++) {
		struct tk_probe *pr = snap[i];
		pr->nhit++;
		if (!pr->pre_handler)
			continue;
		int rc = pr->pre_handler(pr, &c);
		if (rc && pr->ret_handler)
			veto |= 1ull << i;
		else if (rc)
			skip = true;
	}
	*r = c.regs;
	if (skip)	/* the handler set rip: the instruction is not run */
		return set_regs(th->tid, r, TR_TRAP_CONT);
	if (b->has_ret)
		push_frame(p, th, b, r, veto, snap, n);
	if (b->has_post) {
		th->stepping = b->addr;
		r->rip = b->slot_addr;
		return set_regs(th->tid, r, TR_TRAP_STEP);
	}
	r->rip = b->insn.kind == XOL_JMP ? b->insn.target : b->slot_addr;
	return set_regs(th->tid, r, TR_TRAP_CONT);
}

/* Where a step of b's copy left rip: 1 done (rip moved to the program), 0 still in the slot. */
static int step_landed(const struct bp *b, struct user_regs_struct *r)
{
	for (unsigned i = 0; i < b->slot.nexit; i++) {
		if (r->rip == b->slot_addr + b->slot.exit[i].off) {
			r->rip = b->slot.exit[i].dest;
			return 1;
		}
	}
	return !(r->rip >= b->slot_addr && r->rip < b->slot_addr + b->slot.size);
}

static int on_step(struct tk_session *s, struct pproc *p, struct pthr *th)
{
	struct user_regs_struct r;
	struct bp *b = bpt_get(&p->bps, th->stepping);
	th->stepping = 0;
	if (!b || ptrace(PTRACE_GETREGS, th->tid, 0L, &r) < 0)
		return TR_TRAP_CONT;
	if (!step_landed(b, &r)) {
		th->stepping = b->addr;	/* a copy of two instructions (call r/m): one more */
		return TR_TRAP_STEP;
	}
	struct tk_probe *snap[SNAP_MAX];
	unsigned n = b->removed ? 0 : snapshot(b, snap);
	struct tk_probe_ctx c;
	ctx_init(&c, s, th, b->addr, &r);
	for (unsigned i = 0; i < n; i++)
		if (snap[i]->post_handler)
			snap[i]->post_handler(snap[i], &c);
	return set_regs(th->tid, &c.regs, TR_TRAP_CONT);
}

/* The frame this return belongs to: the last one pushed at this stack slot. */
static bool pop_frame(struct pthr *th, uint64_t rsp, struct retframe *out)
{
	uint64_t slot = rsp - 8;	/* ret popped it */
	/* frames deeper than this one were skipped by longjmp or an exception */
	while (th->nrs && th->rs[th->nrs - 1].sp_slot < slot)
		th->nrs--;
	if (!th->nrs)
		return false;
	*out = th->rs[--th->nrs];
	return true;
}

static int on_return(struct tk_session *s, struct pproc *p, struct pthr *th,
		     struct user_regs_struct *r)
{
	struct retframe f;
	if (!pop_frame(th, r->rsp, &f)) {
		sess_warn(s, "thread %d returned to the trampoline with no return address on record",
			  (int)th->tid);
		return 0;
	}
	r->rip = f.ret;
	struct bp *b = bpt_get(&p->bps, f.func);
	struct tk_probe *snap[SNAP_MAX];
	unsigned n = b && !b->removed ? snapshot(b, snap) : 0;
	struct tk_probe_ctx c;
	ctx_init(&c, s, th, f.func, r);
	c.func = f.func;
	c.ret_addr = f.ret;
	for (unsigned i = 0; i < n; i++)
		if (snap[i]->ret_handler && !(f.veto & (1ull << i)))
			snap[i]->ret_handler(snap[i], &c);
	return set_regs(th->tid, &c.regs, TR_TRAP_CONT);
}

int hit_trap(struct tk_session *s, pid_t tid, pid_t tgid, const siginfo_t *si)
{
	struct pproc *p = sess_proc(s, tgid);
	if (!p || p->memfd < 0)
		return 0;
	struct pthr *th = sess_thread(s, tid, tgid);
	s->cur_tid = tid;
	s->cur_tgid = tgid;
	if (p->pending)
		place_all(s, p, tid);
	int rc = 0;
	struct user_regs_struct r;
	if (si->si_code == TRAP_TRACE && th->stepping) {
		rc = on_step(s, p, th);
	} else if (si->si_code == SI_KERNEL && ptrace(PTRACE_GETREGS, tid, 0L, &r) == 0) {
		th->stepping = 0;	/* a signal handler took the thread out of a step */
		struct bp *b = bpt_get(&p->bps, r.rip - 1);
		if (r.rip - 1 == p->tramp) {
			rc = on_return(s, p, th, &r);
		} else if (b && b->removed) {
			/* it trapped just before the byte went back: run the original */
			r.rip = b->addr;
			rc = set_regs(tid, &r, TR_TRAP_CONT);
		} else if (b) {
			rc = on_breakpoint(s, p, th, b, &r);
		}
	}
	s->cur_tid = 0;
	s->cur_tgid = 0;
	return rc;
}

/* Is a SIGTRAP pending for tid (it trapped, but an interrupt stop came first)? */
static bool sigtrap_pending(pid_t tid)
{
	char path[64], line[256];
	unsigned long long mask = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SigPnd: %llx", &mask) == 1)
			break;
	if (f)
		fclose(f);
	return mask & (1ull << (SIGTRAP - 1));
}

/*
 * The thread's last stop before we let go: a trap of ours must not reach the
 * program once we are gone (it would kill it), and rip must be in the program.
 */
void hit_detach_thread(struct tk_session *s, pid_t tid, pid_t tgid, int status)
{
	struct pproc *p = sess_proc(s, tgid);
	struct pthr *th = tidmap_get(&s->threads, tid);
	if (!p || !WIFSTOPPED(status))
		return;
	/* Take a queued SIGTRAP now, as a signal-delivery stop we can drop; other signals go back. */
	uint64_t others = 0;
	for (int i = 0; i < 8 && (status >> 16) && sigtrap_pending(tid); i++) {
		int st;
		if (ptrace(PTRACE_CONT, tid, 0L, 0L) < 0 || waitpid(tid, &st, __WALL) != tid ||
		    !WIFSTOPPED(st))
			return;
		if (!(st >> 16) && WSTOPSIG(st) == SIGTRAP)
			status = st;
		else if (!(st >> 16) && WSTOPSIG(st) < 64)
			others |= 1ull << WSTOPSIG(st);
	}
	for (int sig = 1; sig < 64; sig++)
		if (others & (1ull << sig))
			syscall(SYS_tgkill, tgid, tid, sig);
	if ((status >> 16) || WSTOPSIG(status) != SIGTRAP)
		return;
	struct user_regs_struct r;
	if (ptrace(PTRACE_GETREGS, tid, 0L, &r) < 0)
		return;
	struct bp *b;
	struct retframe f;
	if (th && th->stepping && (b = bpt_get(&p->bps, th->stepping))) {
		step_landed(b, &r);	/* inside the slot it runs on by itself */
	} else if (r.rip - 1 == p->tramp && th && pop_frame(th, r.rsp, &f)) {
		r.rip = f.ret;
	} else if ((b = bpt_get(&p->bps, r.rip - 1))) {
		r.rip = b->addr;	/* the original byte is back: run it */
	}
	ptrace(PTRACE_SETREGS, tid, 0L, &r);
}

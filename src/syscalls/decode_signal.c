/*
 * Signals: sending (kill, tgkill, sigqueue), handling (rt_sigaction,
 * sigaltstack), masks (rt_sigprocmask and friends), waiting and signalfd.
 */
#include <stdio.h>

#include "print_signal.h"

/* rt_sigaction(SIGINT, {sa_handler=..., ...}, NULL, 8) */
SC_DECODER(rt_sigaction, MEM_STRUCT_IN(1, struct sc_kernel_sigaction),
	   MEM_STRUCT_OUT(2, struct sc_kernel_sigaction))
{
	if (c->entering) {
		p_sig(c, (int)c->args[0]);
		p_sep(c);
		p_kernel_sigaction(c, c->args[1]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[2]))
		p_kernel_sigaction(c, c->args[2]);
	out(c, ", %llu", (unsigned long long)c->args[3]);
	return 0;
}

SC_DECODER(rt_sigprocmask, MEM_SIGSET_IN(1, 3), MEM_SIGSET_OUT(2, 3))
{
	if (c->entering) {
		p_xval(c, &xlat_sigprocmask_cmds, c->args[0], "SIG_???");
		p_sep(c);
		p_sigset(c, c->args[1], c->args[3]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[2]))
		p_sigset(c, c->args[2], c->args[3]);
	out(c, ", %llu", (unsigned long long)c->args[3]);
	return 0;
}

/* The one rt_* call that accepts a set shorter than 8 bytes. */
SC_DECODER(rt_sigpending, MEM_SIGSET_OUT(0, 1))
{
	uint64_t addr = c->args[0], size = c->args[1], mask = 0;
	if (c->entering)
		return 0;
	if (sc_failed(c) || size < 1 || size > SC_NSIG_BYTES)
		p_addr(c, addr);
	else if (p_fetch(c, addr, &mask, (size_t)size) == 0)
		p_sigset_val(c, &mask, (size_t)size);
	out(c, ", %llu", (unsigned long long)size);
	return 0;
}

SC_DECODER(rt_sigsuspend, MEM_SIGSET_IN(0, 1))
{
	p_sigset(c, c->args[0], c->args[1]);
	out(c, ", %llu", (unsigned long long)c->args[1]);
	return SC_DONE;
}

/* The signal taken, named after the return value: "= 12 (SIGUSR2)". */
static void rv_signal(struct sc_call *c)
{
	char buf[16];
	const char *s = sc_sig_str((int)c->ret, buf, sizeof(buf));
	c->rv_extra[0] = '\0';
	if (!c->entering && !sc_failed(c) && s)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", s);
}

/* The siginfo is the only out-parameter: with none, everything prints at entry. */
SC_DECODER(rt_sigtimedwait, MEM_SIGSET_IN(0, 3), MEM_STRUCT_OUT(1, siginfo_t),
	   MEM_STRUCT_IN(2, struct timespec))
{
	if (c->entering) {
		p_sigset(c, c->args[0], c->args[3]);
		p_sep(c);
		if (c->args[1])
			return 0;
		/* No siginfo: all arguments now, the signal's name at exit. */
		out(c, "NULL, ");
		p_timespec(c, c->args[2]);
		out(c, ", %llu", (unsigned long long)c->args[3]);
		return 0;
	}
	if (c->args[1]) {
		if (!p_failed_addr(c, c->args[1]))
			p_siginfo(c, c->args[1]);
		p_sep(c);
		p_timespec(c, c->args[2]);
		out(c, ", %llu", (unsigned long long)c->args[3]);
	}
	rv_signal(c);
	return 0;
}

SC_DECODER(rt_sigqueueinfo, MEM_STRUCT_IN(2, siginfo_t))
{
	out(c, "%d, ", (int)c->args[0]);
	p_sig(c, (int)c->args[1]);
	p_sep(c);
	p_siginfo(c, c->args[2]);
	return SC_DONE;
}

SC_DECODER(rt_tgsigqueueinfo, MEM_STRUCT_IN(3, siginfo_t))
{
	p_pid(c, c->args[0]);
	p_sep(c);
	p_pid(c, c->args[1]);
	p_sep(c);
	p_sig(c, (int)c->args[2]);
	p_sep(c);
	p_siginfo(c, c->args[3]);
	return SC_DONE;
}

SC_DECODER(pidfd_send_signal, MEM_STRUCT_IN(2, siginfo_t))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_sig(c, (int)c->args[1]);
	p_sep(c);
	p_siginfo(c, c->args[2]);
	p_sep(c);
	p_flags(c, &xlat_pidfd_send_signal_flags, (unsigned)c->args[3], "PIDFD_SIGNAL_???");
	return SC_DONE;
}

SC_DECODER(kill)
{
	p_pid(c, c->args[0]);
	p_sep(c);
	p_sig(c, (int)c->args[1]);
	return SC_DONE;
}

SC_DECODER(tkill)
{
	p_pid(c, c->args[0]);
	p_sep(c);
	p_sig(c, (int)c->args[1]);
	return SC_DONE;
}

SC_DECODER(tgkill)
{
	p_pid(c, c->args[0]);
	p_sep(c);
	p_pid(c, c->args[1]);
	p_sep(c);
	p_sig(c, (int)c->args[2]);
	return SC_DONE;
}

/*
 * strace reads the restored mask from the signal frame on the stack.  The
 * frame's address is the stack pointer, which a decoder is not given, so
 * the mask cannot be declared nor printed: it shows as unknown.
 */
/*
 * rt_sigreturn has no arguments: the mask it restores is in the signal frame
 * on the stack.  The restorer's `ret` popped pretcode, so the stack pointer is
 * at the kernel's struct ucontext, whose uc_sigmask follows uc_flags, uc_link,
 * uc_stack (24 bytes) and the 256-byte sigcontext.
 */
#define UC_SIGMASK_OFFSET (8 + 8 + 24 + 256)

SC_DECODER(rt_sigreturn, MEM_STACK_IN(UC_SIGMASK_OFFSET, uint64_t))
{
	uint64_t mask;
	out(c, "{mask=");
	if (c->sp && sc_mem_read(c, c->sp + UC_SIGMASK_OFFSET, &mask, sizeof(mask)) == 0)
		p_sigset_val(c, &mask, sizeof(mask));
	else
		out(c, "?");
	out(c, "}");
	return SC_DONE;
}

static void p_stack_t(struct sc_call *c, uint64_t addr)
{
	stack_t ss;
	if (p_fetch(c, addr, &ss, sizeof(ss)) < 0)
		return;
	out(c, "{ss_sp=");
	p_addr(c, (uint64_t)(uintptr_t)ss.ss_sp);
	out(c, ", ss_flags=");
	p_flags(c, &xlat_sigaltstack_flags, (unsigned)ss.ss_flags, "SS_???");
	out(c, ", ss_size=%zu}", ss.ss_size);
}

SC_DECODER(sigaltstack, MEM_STRUCT_IN(0, stack_t), MEM_STRUCT_OUT(1, stack_t))
{
	if (c->entering) {
		p_stack_t(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_stack_t(c, c->args[1]);
	return 0;
}

SC_DECODER(pause)
{
	(void)c;
	return SC_DONE;
}

SC_DECODER(alarm)
{
	out(c, "%u", (unsigned)c->args[0]);
	return SC_DONE;
}

SC_DECODER(signalfd4, MEM_SIGSET_IN(1, 2))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_sigset(c, c->args[1], c->args[2]);
	out(c, ", %llu, ", (unsigned long long)c->args[2]);
	p_flags(c, &xlat_sfd_flags, (unsigned)c->args[3], "SFD_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(signalfd, MEM_SIGSET_IN(1, 2))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_sigset(c, c->args[1], c->args[2]);
	out(c, ", %llu", (unsigned long long)c->args[2]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

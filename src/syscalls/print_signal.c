/*
 * Signal printers shared by the signal, process and time families: names,
 * sets ([INT TERM], ~[RTMIN RT_1]), handlers and siginfo, as strace prints them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "print_pid.h"
#include "print_signal.h"

#define SC_SIGRTMIN 32
#define SC_SIGRTMAX 64

const char *sc_sig_str(int sig, char *buf, size_t len)
{
	const char *s = sc_signame(sig);
	if (s)
		return s;
	if (sig == SC_SIGRTMIN)
		return "SIGRTMIN";
	if (sig > SC_SIGRTMIN && sig <= SC_SIGRTMAX) {
		snprintf(buf, len, "SIGRT_%d", sig - SC_SIGRTMIN);
		return buf;
	}
	return NULL;
}

/* num (already formatted) under -X: raw alone, verbose with the name as a comment, else the name. */
static void p_styled(struct sc_call *c, const char *num, const char *name)
{
	if (!name || xlat_style != XLAT_STYLE_ABBREV)
		out(c, "%s", num);
	if (name && xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " /* %s */", name);
	else if (name && xlat_style == XLAT_STYLE_ABBREV)
		out(c, "%s", name);
}

void p_sig(struct sc_call *c, int sig)
{
	char buf[16];
	const char *s = sc_sig_str(sig, buf, sizeof(buf));
	/* -X raw: the number; -X verbose: the number and the name as a comment */
	if (!s || xlat_style != XLAT_STYLE_ABBREV)
		out(c, "%d", sig);
	if (s && xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " /* %s */", s);
	else if (s && xlat_style == XLAT_STYLE_ABBREV)
		out(c, "%s", s);
}

static unsigned popcount_bytes(const unsigned char *b, size_t n)
{
	unsigned k = 0;
	for (size_t i = 0; i < n; i++)
		k += (unsigned)__builtin_popcount(b[i]);
	return k;
}

/*
 * strace rounds the set up to 32-bit words and, when two thirds or more of
 * the bits are set, prints the complement after a '~'.
 */
void p_sigset_val(struct sc_call *c, const uint64_t *words, size_t nbytes)
{
	unsigned char b[SC_NSIG_BYTES] = { 0 };
	if (nbytes > SC_NSIG_BYTES)
		nbytes = SC_NSIG_BYTES;
	memcpy(b, words, nbytes);
	size_t size = (nbytes + 3) / 4 * 4;
	if (popcount_bytes(b, size) >= size * 8 * 2 / 3) {
		for (size_t i = 0; i < size; i++)
			b[i] = (unsigned char)~b[i];
		out(c, "~");
	}
	char sep = '[';
	for (size_t i = 0; i < size * 8; i++) {
		if (!(b[i / 8] & (1u << (i % 8))))
			continue;
		int sig = (int)i + 1;
		char buf[16];
		const char *s = sc_sig_str(sig, buf, sizeof(buf));
		char num[16];
		snprintf(num, sizeof(num), "%d", sig);
		out(c, "%c", sep);
		p_styled(c, num, s ? s + 3 : NULL);
		sep = ' ';
	}
	if (sep == '[')
		out(c, "[");
	out(c, "]");
}

/* A sigset of size bytes: the kernel takes 8 here, anything else prints the address. */
void p_sigset(struct sc_call *c, uint64_t addr, uint64_t size)
{
	uint64_t mask = 0;
	if (!addr) {
		out(c, "NULL");
		return;
	}
	if (size < sizeof(long) || size > SC_NSIG_BYTES) {
		p_addr(c, addr);
		return;
	}
	if (p_fetch(c, addr, &mask, (size_t)size) < 0)
		return;
	p_sigset_val(c, &mask, (size_t)size);
}

void p_sa_handler(struct sc_call *c, uint64_t handler)
{
	const char *s = xlat_str(&xlat_sa_handler_values, handler);
	if (s)
		out(c, "%s", s);
	else
		p_addr(c, handler);
}

void p_kernel_sigaction(struct sc_call *c, uint64_t addr)
{
	struct sc_kernel_sigaction sa;
	if (p_fetch(c, addr, &sa, sizeof(sa)) < 0)
		return;
	out(c, "{sa_handler=");
	p_sa_handler(c, sa.handler);
	out(c, ", sa_mask=");
	p_sigset_val(c, &sa.mask, sizeof(sa.mask));
	out(c, ", sa_flags=");
	p_flags(c, &xlat_sigact_flags, sa.flags, "SA_???");
	if (sa.flags & 0x04000000) {	/* SA_RESTORER */
		out(c, ", sa_restorer=");
		p_addr(c, sa.restorer);
	}
	out(c, "}");
}

/* Which table names si_code for this signal, after the generic SI_* codes. */
static const struct xlat *si_code_table(int signo)
{
	switch (signo) {
	case SIGTRAP: return &xlat_sigtrap_codes;
	case SIGCHLD: return &xlat_sigchld_codes;
	case SIGIO: return &xlat_sigpoll_codes;
	case SIGILL: return &xlat_sigill_codes;
	case SIGFPE: return &xlat_sigfpe_codes;
	case SIGSEGV: return &xlat_sigsegv_codes;
	case SIGBUS: return &xlat_sigbus_codes;
	case SIGSYS: return &xlat_sigsys_codes;
	}
	return NULL;
}

static void p_si_code(struct sc_call *c, int code, int signo)
{
	uint64_t v = (uint64_t)(int64_t)code;
	const char *s = xlat_str(&xlat_siginfo_codes, v);
	const struct xlat *x = si_code_table(signo);
	if (!s && x)
		s = xlat_str(x, v);
	char num[16];
	snprintf(num, sizeof(num), "%#x", (unsigned)code);
	p_styled(c, num, s);
}

static void p_si_source(struct sc_call *c, const siginfo_t *si)
{
	out(c, ", si_pid=");
	p_pid(c, si->si_pid, SC_PT_TGID);
	out(c, ", si_uid=");
	if (si->si_uid == (uid_t)-1)
		out(c, "-1");
	else
		out(c, "%u", si->si_uid);
}

static void p_si_value(struct sc_call *c, const siginfo_t *si)
{
	out(c, ", si_int=%d, si_ptr=", si->si_int);
	p_addr(c, (uint64_t)(uintptr_t)si->si_ptr);
}

/* SIGIO's band and descriptor (-y: the descriptor's path). */
static void p_si_band_fd(struct sc_call *c, const siginfo_t *si)
{
	out(c, ", si_band=%ld, si_fd=", si->si_band);
	p_fd(c, (uint64_t)(int64_t)si->si_fd);
}

/* Sent by a process (kill, sigqueue, timers): si_code <= 0. */
static void p_si_user(struct sc_call *c, const siginfo_t *si)
{
	switch (si->si_code) {
	case SI_USER:
	case SI_TKILL:
		p_si_source(c, si);
		return;
	case SI_TIMER:
		out(c, ", si_timerid=%#x, si_overrun=%d", (unsigned)si->si_timerid, si->si_overrun);
		p_si_value(c, si);
		return;
	case SI_SIGIO:
		p_si_band_fd(c, si);
		return;
	}
	p_si_source(c, si);
	if (si->si_ptr)
		p_si_value(c, si);
}

/* Clock ticks, with strace's reading in seconds (100 per second) when not zero. */
static void p_clock_t(struct sc_call *c, const char *name, long v)
{
	out(c, ", %s=%ld", name, v);
	if (v)
		out(c, " /* %ld.%02ld s */", v / 100, v % 100);
}

/* A syscall seccomp trapped or user dispatch caught: where, which, which ABI. */
static void p_si_sys(struct sc_call *c, const siginfo_t *si)
{
	const struct sc_entry *e = NULL;
	out(c, ", si_call_addr=");
	p_addr(c, (uint64_t)(uintptr_t)si->si_call_addr);
	if (si->si_arch == 0xc000003eu)	/* AUDIT_ARCH_X86_64: our table's numbers */
		e = sc_by_nr(si->si_syscall);
	char num[16], name[64];
	snprintf(num, sizeof(num), "%u", (unsigned)si->si_syscall);
	if (e && e->name)
		snprintf(name, sizeof(name), "__NR_%s", e->name);
	out(c, ", si_syscall=");
	p_styled(c, num, e && e->name ? name : NULL);
	out(c, ", si_arch=");
	p_xval(c, &xlat_audit_arch, si->si_arch, "AUDIT_ARCH_???");
}

/* What some fault codes add: the poisoned page's size, the bounds violated, the key. */
static void p_si_fault_extra(struct sc_call *c, const siginfo_t *si)
{
	if (si->si_signo == SIGBUS && (si->si_code == BUS_MCEERR_AR || si->si_code == BUS_MCEERR_AO)) {
		out(c, ", si_addr_lsb=%#x", (unsigned)(unsigned short)si->si_addr_lsb);
	} else if (si->si_signo == SIGSEGV && si->si_code == SEGV_BNDERR) {
		out(c, ", si_lower=");
		p_addr(c, (uint64_t)(uintptr_t)si->si_lower);
		out(c, ", si_upper=");
		p_addr(c, (uint64_t)(uintptr_t)si->si_upper);
	} else if (si->si_signo == SIGSEGV && si->si_code == SEGV_PKUERR) {
		out(c, ", si_pkey=%u", (unsigned)si->si_pkey);
	}
}

static void p_si_kernel(struct sc_call *c, const siginfo_t *si)
{
	switch (si->si_signo) {
	case SIGCHLD:
		p_si_source(c, si);
		out(c, ", si_status=");
		if (si->si_code == CLD_EXITED)
			out(c, "%d", si->si_status);
		else
			p_sig(c, si->si_status);
		p_clock_t(c, "si_utime", si->si_utime);
		p_clock_t(c, "si_stime", si->si_stime);
		return;
	case SIGILL:
	case SIGFPE:
	case SIGBUS:
	case SIGSEGV:
	case SIGTRAP:
		out(c, ", si_addr=");
		p_addr(c, (uint64_t)(uintptr_t)si->si_addr);
		p_si_fault_extra(c, si);
		return;
	case SIGSYS:
		p_si_sys(c, si);
		return;
	case SIGIO:
		if (si->si_code >= POLL_IN && si->si_code <= POLL_HUP)
			p_si_band_fd(c, si);
		return;
	}
	if (si->si_pid || si->si_uid)
		p_si_source(c, si);
	if (si->si_ptr)
		p_si_value(c, si);
}

void p_siginfo_val(struct sc_call *c, const siginfo_t *si)
{
	out(c, "{");
	if (si->si_signo) {
		out(c, "si_signo=");
		p_sig(c, si->si_signo);
		out(c, ", si_code=");
		p_si_code(c, si->si_code, si->si_signo);
		if (si->si_errno) {
			const char *e = si->si_errno > 0 ? sc_errname(si->si_errno) : NULL;
			char num[16];
			snprintf(num, sizeof(num), "%u", (unsigned)si->si_errno);
			out(c, ", si_errno=");
			p_styled(c, num, e);
		}
		if (si->si_code <= 0)
			p_si_user(c, si);
		else
			p_si_kernel(c, si);
	}
	out(c, "}");
}

void p_siginfo(struct sc_call *c, uint64_t addr)
{
	siginfo_t si;
	if (p_fetch(c, addr, &si, sizeof(si)) < 0)
		return;
	p_siginfo_val(c, &si);
}

bool p_failed_addr(struct sc_call *c, uint64_t addr)
{
	if (c->entering || !sc_failed(c))
		return false;
	p_addr(c, addr);
	return true;
}

/* A struct sigevent (timer_create, mq_notify): what to do when the event fires. */
void p_sigevent(struct sc_call *c, uint64_t addr)
{
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	if (p_fetch(c, addr, &sev, SC_SIGEVENT_SIZE) < 0)
		return;
	out(c, "{");
	if (sev.sigev_value.sival_ptr) {
		out(c, "sigev_value={sival_int=%d, sival_ptr=", sev.sigev_value.sival_int);
		p_addr(c, (uint64_t)(uintptr_t)sev.sigev_value.sival_ptr);
		out(c, "}, ");
	}
	out(c, "sigev_signo=");
	if (sev.sigev_notify == SIGEV_SIGNAL || sev.sigev_notify == SIGEV_THREAD ||
	    sev.sigev_notify == SIGEV_THREAD_ID)
		p_sig(c, sev.sigev_signo);
	else
		out(c, "%u", (unsigned)sev.sigev_signo);
	out(c, ", sigev_notify=");
	p_xval(c, &xlat_sigev_notify, (unsigned)sev.sigev_notify, "SIGEV_???");
	if (sev.sigev_notify == SIGEV_THREAD_ID) {
		out(c, ", sigev_notify_thread_id=%d", sev._sigev_un._tid);
	} else if (sev.sigev_notify == SIGEV_THREAD) {
		out(c, ", sigev_notify_function=");
		p_addr(c, (uint64_t)(uintptr_t)sev._sigev_un._sigev_thread._function);
		out(c, ", sigev_notify_attributes=");
		p_addr(c, (uint64_t)(uintptr_t)sev._sigev_un._sigev_thread._attribute);
	}
	out(c, "}");
}

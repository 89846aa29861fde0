/*
 * x86-64 register sets as ptrace moves them (PTRACE_GETREGS, GETFPREGS and
 * the NT_PRSTATUS / NT_FPREGSET regsets): the fields a buffer of the given
 * size holds, then "..." when it is longer than the struct.
 */
#include "print_regs.h"

#include <inttypes.h>
#include <stddef.h>
#include <sys/user.h>

/* user_regs_struct: 27 registers of 8 bytes, in the kernel's order. */
static const char *const gp_names[] = {
	"r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax",
	"rcx", "rdx", "rsi", "rdi", "orig_rax", "rip", "cs", "eflags", "rsp", "ss",
	"fs_base", "gs_base", "ds", "es", "fs", "gs",
};

_Static_assert(sizeof(gp_names) / sizeof(gp_names[0]) * 8 == sizeof(struct user_regs_struct),
	       "user_regs_struct is 27 registers");

/* Fetch what a set of size bytes at addr holds, as far as the struct goes; 0 or -1 (printed). */
static long fetch_set(struct sc_call *c, uint64_t addr, uint64_t size, void *buf, size_t max)
{
	size_t n = size < max ? (size_t)size : max;
	if (!size || size & 7 || sc_mem_read(c, addr, buf, n) < 0) {
		p_addr(c, addr);
		return -1;
	}
	return (long)n;
}

void p_gp_regs(struct sc_call *c, uint64_t addr, uint64_t size)
{
	uint64_t r[sizeof(gp_names) / sizeof(gp_names[0])];
	long n = fetch_set(c, addr, size, r, sizeof(r));
	if (n < 0)
		return;
	out(c, "{");
	for (size_t i = 0; i * 8 < (size_t)n; i++)
		out(c, "%s%s=%#" PRIx64, i ? ", " : "", gp_names[i], r[i]);
	out(c, size > sizeof(r) ? ", ...}" : "}");
}

/* name=[...] of the words of an array the fetched bytes reach into. */
static void p_words(struct sc_call *c, const char *name, const unsigned *w, size_t count,
		    size_t off, size_t fetched)
{
	if (fetched <= off)
		return;
	size_t n = (fetched - off) / 4;
	if (n > count)
		n = count;
	out(c, ", %s=[", name);
	for (size_t i = 0; i < n; i++) {
		if (i && c->fmt && i >= c->fmt->strsize && !c->fmt->verbose) {
			out(c, ", ...");
			break;
		}
		out(c, w[i] ? "%s%#x" : "%s%u", i ? ", " : "", w[i]);
	}
	out(c, "]");
}

void p_fp_regs(struct sc_call *c, uint64_t addr, uint64_t size)
{
	struct user_fpregs_struct f;
	long got = fetch_set(c, addr, size, &f, sizeof(f));
	if (got < 0)
		return;
	size_t n = (size_t)got;
#define FETCHED(field) (n > offsetof(struct user_fpregs_struct, field))
	out(c, "{cwd=%#x", f.cwd);
	if (FETCHED(swd))
		out(c, ", swd=%#x", f.swd);
	if (FETCHED(ftw))
		out(c, ", ftw=%#x", f.ftw);
	if (FETCHED(fop))
		out(c, ", fop=%#x", f.fop);
	if (FETCHED(rip))
		out(c, ", rip=%#llx", (unsigned long long)f.rip);
	if (FETCHED(rdp))
		out(c, ", rdp=%#llx", (unsigned long long)f.rdp);
	if (FETCHED(mxcsr))
		out(c, ", mxcsr=%#x", f.mxcsr);
	if (FETCHED(mxcr_mask))
		out(c, ", mxcr_mask=%#x", f.mxcr_mask);
#undef FETCHED
	p_words(c, "st_space", f.st_space, 32, offsetof(struct user_fpregs_struct, st_space), n);
	p_words(c, "xmm_space", f.xmm_space, 64, offsetof(struct user_fpregs_struct, xmm_space), n);
	p_words(c, "padding", f.padding, 24, offsetof(struct user_fpregs_struct, padding), n);
	out(c, size > sizeof(f) ? ", ...}" : "}");
}

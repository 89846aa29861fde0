/*
 * ptrace: the request, the pid (translated with --pidns-translation), and
 * addr and data as each request uses them, including what the kernel wrote
 * back (PEEK*, GETSIGINFO, PEEKSIGINFO, GET_SYSCALL_INFO...), and the x86-64
 * register sets (GETREGS, GETFPREGS, and the NT_PRSTATUS / NT_FPREGSET regsets).
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <elf.h>
#include <sys/uio.h>
#include <linux/ptrace.h>

#include "print_pid.h"
#include "print_regs.h"
#include "print_signal.h"

#define SIGINFO_SIZE sizeof(siginfo_t)
#define PEEKSIGINFO_MAX 32	/* siginfos copied at most from one PEEKSIGINFO */
#define SYSCALL_INFO_SIZE 88	/* struct ptrace_syscall_info up to seccomp.ret_data */
#define SIGSET_MAX 128

/* The requests whose data the kernel fills: printed at exit. */
static bool data_at_exit(uint64_t req)
{
	switch (req) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
	case PTRACE_PEEKUSR:
	case PTRACE_GETEVENTMSG:
	case PTRACE_GETSIGINFO:
	case PTRACE_GETSIGMASK:
	case PTRACE_PEEKSIGINFO:
	case PTRACE_SECCOMP_GET_FILTER:
	case PTRACE_GET_SYSCALL_INFO:
		return true;
	}
	return false;
}

/* How much of what data points to the decoder reads, by request. */
static size_t data_len(const struct sc_call *c)
{
	uint64_t addr = c->args[2];
	switch (c->args[0]) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
	case PTRACE_PEEKUSR:
	case PTRACE_GETEVENTMSG:
		return sizeof(uint64_t);
	case PTRACE_GETSIGINFO:
	case PTRACE_SETSIGINFO:
		return SIGINFO_SIZE;
	case PTRACE_GETSIGMASK:
	case PTRACE_SETSIGMASK:
		return addr < SIGSET_MAX ? (size_t)addr : SIGSET_MAX;
	case PTRACE_GET_SYSCALL_INFO:
		return addr < SYSCALL_INFO_SIZE ? (size_t)addr : SYSCALL_INFO_SIZE;
	case PTRACE_SECCOMP_GET_METADATA:
		return addr < 2 * sizeof(uint64_t) ? (size_t)addr : 2 * sizeof(uint64_t);
	case PTRACE_GETREGS:
	case PTRACE_SETREGS:
		return SC_GP_REGS_SIZE;
	case PTRACE_GETFPREGS:
	case PTRACE_SETFPREGS:
		return SC_FP_REGS_SIZE;
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		return sizeof(struct iovec);
	}
	return 0;
}

/* A regset's buffer (iov_base) by its NT_ type: registers we know, else the address. */
static void p_regset(struct sc_call *c, uint64_t nt, const struct iovec *iov)
{
	uint64_t base = (uint64_t)(uintptr_t)iov->iov_base;
	if (nt == NT_PRSTATUS)
		p_gp_regs(c, base, iov->iov_len);
	else if (nt == NT_FPREGSET)
		p_fp_regs(c, base, iov->iov_len);
	else
		p_addr(c, base);
}

/* SETREGSET at entry, GETREGSET at exit: {iov_base=REGS, iov_len=N}; the length the kernel left after =>. */
static int p_regset_iov(struct sc_call *c)
{
	uint64_t nt = c->args[2], data = c->args[3];
	bool set = c->args[0] == PTRACE_SETREGSET;
	struct iovec iov;
	if (sc_mem_read(c, data, &iov, sizeof(iov)) < 0) {
		/* an iovec that cannot be read at entry is all there is to print */
		if (c->entering || !set)
			p_addr(c, data);
		else
			out(c, "}");
		return c->entering ? SC_DONE : 0;
	}
	if (c->entering) {
		uint64_t *len = malloc(sizeof(*len));
		if (len)
			*len = iov.iov_len;
		c->priv = len;
		if (!set)
			return 0;
	}
	uint64_t old = c->priv ? *(uint64_t *)c->priv : iov.iov_len;
	if (c->entering || !set) {
		out(c, "{iov_base=");
		p_regset(c, nt, &iov);
		out(c, ", iov_len=%" PRIu64, set || c->entering ? (uint64_t)iov.iov_len : old);
	}
	if (!c->entering && old != iov.iov_len)
		out(c, " => %" PRIu64, (uint64_t)iov.iov_len);
	if (!c->entering)
		out(c, "}");
	return 0;
}

/* PEEKSIGINFO's siginfos, as many as the call returned: read at exit only. */
static size_t peeked_len(const struct sc_call *c)
{
	if (c->args[0] != PTRACE_PEEKSIGINFO || c->ret <= 0)
		return 0;
	return (size_t)(c->ret < PEEKSIGINFO_MAX ? c->ret : PEEKSIGINFO_MAX) * SIGINFO_SIZE;
}

static size_t addr_len(const struct sc_call *c)
{
	return c->args[0] == PTRACE_PEEKSIGINFO ? sizeof(struct ptrace_peeksiginfo_args) : 0;
}

/* A number naming a syscall: __NR_read, with -X raw 0, verbose 0 /\* __NR_read *\/. */
static void p_sysnr(struct sc_call *c, uint64_t nr)
{
	const struct sc_entry *e = nr < 0x100000 ? sc_by_nr((long)nr) : NULL;
	if (!e || xlat_style != XLAT_STYLE_ABBREV)
		out(c, "%" PRIu64, nr);
	if (e && xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " /* __NR_%s */", e->name);
	else if (e && xlat_style == XLAT_STYLE_ABBREV)
		out(c, "__NR_%s", e->name);
}

static void p_args(struct sc_call *c, const uint64_t *args, size_t n)
{
	out(c, ", args=[");
	for (size_t i = 0; i < n; i++)
		out(c, i ? ", %#" PRIx64 : "%#" PRIx64, args[i]);
	out(c, "]");
}

/* -ENOENT, with -X raw -2, verbose -2 /\* -ENOENT *\/. */
static void p_err_val(struct sc_call *c, int64_t v)
{
	const char *name = v < 0 && v > -4096 ? sc_errname((int)-v) : NULL;
	if (!name || xlat_style != XLAT_STYLE_ABBREV)
		out(c, "%" PRId64, v);
	if (name && xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " /* -%s */", name);
	else if (name && xlat_style == XLAT_STYLE_ABBREV)
		out(c, "-%s", name);
}

/* The fields the kernel wrote, as far as both its length and the caller's reach. */
static void p_syscall_info(struct sc_call *c)
{
	struct ptrace_syscall_info si = { 0 };
	uint64_t addr = c->args[3], user_len = c->args[2];
	uint64_t len = sc_failed(c) ? user_len : (uint64_t)c->ret < user_len ? (uint64_t)c->ret : user_len;
	size_t n = len < SYSCALL_INFO_SIZE ? (size_t)len : SYSCALL_INFO_SIZE;
	if (!n || sc_mem_read(c, addr, &si, n) < 0) {
		p_addr(c, addr);
		return;
	}
	out(c, "{op=");
	p_xval(c, &xlat_ptrace_syscall_info_op, si.op, "PTRACE_SYSCALL_INFO_???");
	if (n >= 8) {
		out(c, ", arch=");
		p_xval(c, &xlat_audit_arch, si.arch, "AUDIT_ARCH_???");
	}
	if (n >= 16)
		out(c, ", instruction_pointer=%#" PRIx64, (uint64_t)si.instruction_pointer);
	if (n >= 24)
		out(c, ", stack_pointer=%#" PRIx64, (uint64_t)si.stack_pointer);
	if (n < 32)
		goto done;
	switch (si.op) {
	case PTRACE_SYSCALL_INFO_ENTRY:
		out(c, ", entry={nr=");
		p_sysnr(c, si.entry.nr);
		if (n >= 40)
			p_args(c, (const uint64_t *)si.entry.args, (n - 32) / 8);
		out(c, "}");
		break;
	case PTRACE_SYSCALL_INFO_SECCOMP:
		out(c, ", seccomp={nr=");
		p_sysnr(c, si.seccomp.nr);
		if (n >= 40)
			p_args(c, (const uint64_t *)si.seccomp.args, (n - 32) / 8 < 6 ? (n - 32) / 8 : 6);
		if (n >= SYSCALL_INFO_SIZE)
			out(c, ", ret_data=%u", si.seccomp.ret_data);
		out(c, "}");
		break;
	case PTRACE_SYSCALL_INFO_EXIT:
		out(c, ", exit={rval=");
		if (n >= 33 && si.exit.is_error)
			p_err_val(c, si.exit.rval);
		else
			out(c, "%" PRId64, (int64_t)si.exit.rval);
		if (n >= 33)
			out(c, ", is_error=%u", si.exit.is_error);
		out(c, "}");
		break;
	}
done:
	out(c, "}");
}

static void p_peeksiginfo_args(struct sc_call *c, uint64_t addr)
{
	struct ptrace_peeksiginfo_args a;
	if (p_fetch(c, addr, &a, sizeof(a)) < 0)
		return;
	out(c, "{off=%" PRIu64 ", flags=", (uint64_t)a.off);
	p_flags(c, &xlat_ptrace_peeksiginfo_flags, a.flags, "PTRACE_PEEKSIGINFO_???");
	out(c, ", nr=%d}", a.nr);
}

static void p_siginfo_array(struct sc_call *c, uint64_t addr)
{
	if (sc_failed(c) || c->ret <= 0) {
		p_addr(c, addr);
		return;
	}
	int64_t n = c->ret < PEEKSIGINFO_MAX ? c->ret : PEEKSIGINFO_MAX;
	out(c, "[");
	for (int64_t i = 0; i < n; i++) {
		if (i)
			p_sep(c);
		p_siginfo(c, addr + (uint64_t)i * SIGINFO_SIZE);
	}
	out(c, n < c->ret ? ", ...]" : "]");
}

static void p_u64_at(struct sc_call *c, uint64_t addr)
{
	uint64_t v;
	if (sc_failed(c)) {
		p_addr(c, addr);
		return;
	}
	if (p_fetch(c, addr, &v, sizeof(v)) == 0)
		out(c, "[%#" PRIx64 "]", v);
}

/* {filter_off=N at entry; the flags the kernel wrote at exit, if the caller's size held them. */
static int p_seccomp_metadata(struct sc_call *c)
{
	uint64_t data = c->args[3], size = c->args[2], md[2];
	if (c->entering) {
		if (size < sizeof(md[0])) {
			p_addr(c, data);
			return SC_DONE;
		}
		if (p_fetch(c, data, &md[0], sizeof(md[0])) < 0)
			return SC_DONE;
		out(c, "{filter_off=%" PRIu64, md[0]);
		return 0;
	}
	if (!sc_failed(c) && size > sizeof(md[0])) {
		out(c, ", ");
		if (size < sizeof(md) || sc_mem_read(c, data, md, sizeof(md)) < 0) {
			out(c, "???");
		} else {
			out(c, "flags=");
			p_flags(c, &xlat_seccomp_filter_flags, md[1], "SECCOMP_FILTER_FLAG_???");
			if (size > sizeof(md))
				out(c, ", ...");
		}
	}
	out(c, "}");
	return 0;
}

static int ptrace_exit(struct sc_call *c)
{
	uint64_t req = c->args[0], data = c->args[3];
	switch (req) {
	case PTRACE_PEEKTEXT:
	case PTRACE_PEEKDATA:
	case PTRACE_PEEKUSR:
		p_u64_at(c, data);
		break;
	case PTRACE_GETEVENTMSG: {
		uint64_t v;
		if (sc_failed(c))
			p_addr(c, data);
		else if (p_fetch(c, data, &v, sizeof(v)) == 0)
			out(c, "[%" PRIu64 "]", v);
		break;
	}
	case PTRACE_GETSIGINFO:
		if (sc_failed(c))
			p_addr(c, data);
		else
			p_siginfo(c, data);
		break;
	case PTRACE_GETSIGMASK:
		if (sc_failed(c))
			p_addr(c, data);
		else
			p_sigset(c, data, c->args[2]);
		break;
	case PTRACE_PEEKSIGINFO:
		p_siginfo_array(c, data);
		break;
	case PTRACE_GET_SYSCALL_INFO:
		p_syscall_info(c);
		break;
	case PTRACE_GETREGS:
		p_gp_regs(c, data, SC_GP_REGS_SIZE);
		break;
	case PTRACE_GETFPREGS:
		p_fp_regs(c, data, SC_FP_REGS_SIZE);
		break;
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		p_regset_iov(c);
		break;
	case PTRACE_SECCOMP_GET_METADATA:
		p_seccomp_metadata(c);
		break;
	default:
		p_addr(c, data);
	}
	return 0;
}

/* The regset buffer an iovec at data points to (read for any request: it is only looked at for regsets). */
#define MEM_REGSET { .arg = 3, .off = 0, .kind = SC_MEM_DEREF, .when = SC_AT_ENTRY | SC_AT_EXIT, \
		     .size = SC_FP_REGS_SIZE }

SC_DECODER(ptrace, MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY | SC_AT_EXIT, data_len),
	   MEM_FN(2, SC_MEM_BUF, SC_AT_ENTRY, addr_len), MEM_REGSET,
	   MEM_FN(3, SC_MEM_BUF, SC_AT_EXIT, peeked_len))
{
	uint64_t req = c->args[0], addr = c->args[2], data = c->args[3];
	if (!c->entering)
		return ptrace_exit(c);
	p_xval(c, &xlat_ptrace_cmds, req, "PTRACE_???");
	if (req == PTRACE_TRACEME)
		return SC_DONE;
	p_sep(c);
	p_pid(c, (int)c->args[1], SC_PT_TGID);
	switch (req) {
	case PTRACE_ATTACH:
	case PTRACE_INTERRUPT:
	case PTRACE_KILL:
	case PTRACE_LISTEN:
		return SC_DONE;
	}
	p_sep(c);
	switch (req) {
	case PTRACE_GETSIGMASK:
	case PTRACE_SETSIGMASK:
	case PTRACE_SECCOMP_GET_FILTER:
	case PTRACE_SECCOMP_GET_METADATA:
	case PTRACE_GET_SYSCALL_INFO:
		out(c, "%" PRIu64, addr);
		break;
	case PTRACE_PEEKUSR:
	case PTRACE_POKEUSR:
		p_hex(c, addr);
		break;
	case PTRACE_PEEKSIGINFO:
		p_peeksiginfo_args(c, addr);
		break;
	case PTRACE_SETREGS:
		p_gp_regs(c, data, SC_GP_REGS_SIZE);
		return SC_DONE;
	case PTRACE_SETFPREGS:
		p_fp_regs(c, data, SC_FP_REGS_SIZE);
		return SC_DONE;
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		p_xval(c, &xlat_nt_descriptor_types, addr, "NT_???");
		break;
	case PTRACE_GETREGS:
	case PTRACE_GETFPREGS:
		return 0;	/* the registers' address, at exit */
	default:
		p_addr(c, addr);
	}
	p_sep(c);
	switch (req) {
	case PTRACE_CONT:
	case PTRACE_DETACH:
	case PTRACE_SYSCALL:
	case PTRACE_SINGLESTEP:
	case PTRACE_SINGLEBLOCK:
	case PTRACE_SYSEMU:
	case PTRACE_SYSEMU_SINGLESTEP:
		p_sig(c, (int)data);
		return SC_DONE;
	case PTRACE_SEIZE:
	case PTRACE_SETOPTIONS:
	case PTRACE_OLDSETOPTIONS:
		p_flags(c, &xlat_ptrace_setoptions_flags, data, "PTRACE_O_???");
		return SC_DONE;
	case PTRACE_SETSIGINFO:
		p_siginfo(c, data);
		return SC_DONE;
	case PTRACE_SETSIGMASK:
		p_sigset(c, data, addr);
		return SC_DONE;
	case PTRACE_GETREGSET:
	case PTRACE_SETREGSET:
		return p_regset_iov(c);
	case PTRACE_SECCOMP_GET_METADATA:
		return p_seccomp_metadata(c);
	}
	if (data_at_exit(req))
		return 0;
	p_addr(c, data);
	return SC_DONE;
}

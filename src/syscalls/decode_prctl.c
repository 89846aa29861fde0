/*
 * prctl: the option, then only the arguments that option takes, each the way
 * strace prints it.  Options of one shape are rows of a table; the few with
 * sub-commands or their own encodings have a function each.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "print_pid.h"
#include "decoder.h"
#include "print_bpf.h"
#include "print_signal.h"

#define TASK_COMM_LEN 16

enum pr_shape {
	PR_ARGS,	/* not decoded: arguments 2..5 in hex */
	PR_NONE,	/* no arguments */
	PR_U2,		/* arg2 unsigned */
	PR_D2,		/* arg2 signed */
	PR_U2_ARGS,	/* arg2 unsigned, the rest in hex (they must be 0) */
	PR_XVAL2,	/* arg2 a constant of .x */
	PR_FLAGS2,	/* arg2 flags of .x */
	PR_GET_U,	/* [unsigned] the kernel writes at arg2 */
	PR_GET_XVAL,	/* [constant of .x] the kernel writes at arg2 */
	PR_GET_FLAGS,	/* [flags of .x] the kernel writes at arg2 */
	PR_RET_NAME,	/* arguments in hex; the return value's name from .x */
	PR_RET_FLAGS,	/* no arguments; the return value in hex with its .x flags */
	PR_SPECIAL,	/* a function below */
};

struct pr_row {
	unsigned op;
	unsigned char shape;
	bool u32;		/* arg2 is an unsigned int (strace's printxval, not printxval64) */
	const struct xlat *x;
	const char *dflt;
};

static const struct pr_row pr_rows[] = {
	{ PR_GET_KEEPCAPS, PR_NONE, false, NULL, NULL },
	{ PR_GET_SECCOMP, PR_NONE, false, NULL, NULL },
	{ PR_GET_TIMERSLACK, PR_NONE, false, NULL, NULL },
	{ PR_GET_TIMING, PR_NONE, false, NULL, NULL },
	{ PR_TASK_PERF_EVENTS_DISABLE, PR_NONE, false, NULL, NULL },
	{ PR_TASK_PERF_EVENTS_ENABLE, PR_NONE, false, NULL, NULL },
	{ PR_GET_CHILD_SUBREAPER, PR_GET_U, false, NULL, NULL },
	{ PR_GET_ENDIAN, PR_GET_U, false, NULL, NULL },
	{ PR_GET_FPEMU, PR_GET_U, false, NULL, NULL },
	{ PR_GET_FPEXC, PR_GET_U, false, NULL, NULL },
	{ PR_GET_TSC, PR_GET_XVAL, false, &xlat_pr_tsc, "PR_TSC_???" },
	{ PR_GET_UNALIGN, PR_GET_FLAGS, false, &xlat_pr_unalign_flags, "PR_UNALIGN_???" },
	{ PR_GET_DUMPABLE, PR_RET_NAME, false, &xlat_pr_dumpable, NULL },
	{ PR_MCE_KILL_GET, PR_RET_NAME, false, &xlat_pr_mce_kill_policy, NULL },
	{ PR_GET_SECUREBITS, PR_RET_FLAGS, false, &xlat_secbits, NULL },
	{ PR_GET_FP_MODE, PR_RET_FLAGS, false, &xlat_pr_fp_mode, NULL },
	{ PR_PAC_GET_ENABLED_KEYS, PR_RET_FLAGS, false, &xlat_pr_pac_enabled_keys, NULL },
	{ PR_SET_CHILD_SUBREAPER, PR_U2, false, NULL, NULL },
	{ PR_SET_ENDIAN, PR_U2, false, NULL, NULL },
	{ PR_SET_FPEMU, PR_U2, false, NULL, NULL },
	{ PR_SET_FPEXC, PR_U2, false, NULL, NULL },
	{ PR_SET_KEEPCAPS, PR_U2, false, NULL, NULL },
	{ PR_SET_TIMING, PR_U2, false, NULL, NULL },
	{ PR_SET_TIMERSLACK, PR_D2, false, NULL, NULL },
	{ PR_SET_NO_NEW_PRIVS, PR_U2_ARGS, false, NULL, NULL },
	{ PR_SET_THP_DISABLE, PR_U2_ARGS, false, NULL, NULL },
	{ PR_SET_IO_FLUSHER, PR_U2_ARGS, false, NULL, NULL },
	{ PR_SET_DUMPABLE, PR_XVAL2, false, &xlat_pr_dumpable, "SUID_DUMP_???" },
	{ PR_CAPBSET_DROP, PR_XVAL2, false, &xlat_capabilities, "CAP_???" },
	{ PR_CAPBSET_READ, PR_XVAL2, false, &xlat_capabilities, "CAP_???" },
	{ PR_SET_TSC, PR_XVAL2, true, &xlat_pr_tsc, "PR_TSC_???" },
	{ PR_SET_SECUREBITS, PR_FLAGS2, false, &xlat_secbits, "SECBIT_???" },
	{ PR_SET_UNALIGN, PR_FLAGS2, true, &xlat_pr_unalign_flags, "PR_UNALIGN_???" },
	{ PR_SET_FP_MODE, PR_FLAGS2, true, &xlat_pr_fp_mode, "PR_FP_MODE_???" },
};

static const struct pr_row *pr_row(unsigned op)
{
	for (size_t i = 0; i < sizeof(pr_rows) / sizeof(pr_rows[0]); i++)
		if (pr_rows[i].op == op)
			return &pr_rows[i];
	return NULL;
}

/* Arguments from index first to the fifth, in hex. */
static void p_args_from(struct sc_call *c, int first)
{
	for (int i = first; i <= 4; i++)
		out(c, ", %#" PRIx64, c->args[i]);
}

/* The return value in hex with its flags after it, when any is known. */
static void ret_flags(struct sc_call *c, const struct xlat *x)
{
	if (sc_failed(c) || c->ret == 0)
		return;
	c->rv = SC_RV_HEX;
	if (xlat_style == XLAT_STYLE_RAW)
		return;
	struct strbuf sb = STRBUF_INIT;
	enum xlat_style style = xlat_style;
	xlat_style = XLAT_STYLE_ABBREV;	/* the names, as strace prints them in any -X */
	sb_flags(&sb, x, (uint64_t)c->ret, NULL);
	xlat_style = style;
	if (sb.buf && strncmp(sb.buf, "0x", 2) != 0)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", sb.buf);
	sb_free(&sb);
}

static void ret_name(struct sc_call *c, const struct xlat *x)
{
	const char *s = sc_failed(c) ? NULL : xlat_str(x, (uint64_t)c->ret);
	if (s)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", s);
}

static int pr_row_entry(struct sc_call *c, const struct pr_row *r)
{
	uint64_t arg2 = r->u32 ? (unsigned)c->args[1] : c->args[1];
	switch (r->shape) {
	case PR_NONE:
		return r->op == PR_GET_TIMERSLACK ? 0 : SC_DONE;
	case PR_U2:
		out(c, ", %" PRIu64, arg2);
		return SC_DONE;
	case PR_D2:
		out(c, ", %" PRId64, (int64_t)arg2);
		return SC_DONE;
	case PR_U2_ARGS:
		out(c, ", %" PRIu64, arg2);
		p_args_from(c, 2);
		return SC_DONE;
	case PR_XVAL2:
		p_sep(c);
		p_xval(c, r->x, arg2, r->dflt);
		return SC_DONE;
	case PR_FLAGS2:
		p_sep(c);
		p_flags(c, r->x, arg2, r->dflt);
		return SC_DONE;
	case PR_GET_U:
	case PR_GET_XVAL:
	case PR_GET_FLAGS:
		p_sep(c);
		return 0;
	case PR_RET_NAME:
		if (r->op != PR_GET_DUMPABLE)
			p_args_from(c, 1);
		return 0;
	case PR_RET_FLAGS:
		if (r->op == PR_PAC_GET_ENABLED_KEYS)
			p_args_from(c, 1);
		return 0;
	}
	p_args_from(c, 1);
	return SC_DONE;
}

static int pr_row_exit(struct sc_call *c, const struct pr_row *r)
{
	unsigned v;
	switch (r->shape) {
	case PR_RET_NAME:
		ret_name(c, r->x);
		return 0;
	case PR_NONE:
		if (r->op == PR_GET_TIMERSLACK)
			c->rv = SC_RV_UDEC;	/* nanoseconds, up to ULONG_MAX */
		return 0;
	case PR_RET_FLAGS:
		ret_flags(c, r->x);
		return 0;
	default:
		break;
	}
	if (sc_failed(c)) {
		p_addr(c, c->args[1]);
		return 0;
	}
	if (p_fetch(c, c->args[1], &v, sizeof(v)) < 0)
		return 0;
	out(c, "[");
	if (r->shape == PR_GET_U)
		out(c, "%u", v);
	else if (r->shape == PR_GET_XVAL)
		p_xval(c, r->x, v, r->dflt);
	else
		p_flags(c, r->x, v, r->dflt);
	out(c, "]");
	return 0;
}

/* ---- options with sub-commands or encodings of their own ---------------- */

#define PR_SPEC_MAX_ 2	/* PR_SPEC_L1D_FLUSH: the last with state flags */
#define SVE_VL_LEN_MASK_ 0xffffu
#define TAGGED_ENABLE_ 1u
#define MTE_TCF_MASK_ 6u
#define MTE_TAG_SHIFT_ 3
#define MTE_TAG_MASK_ (0xffffull << MTE_TAG_SHIFT_)

/* PR_SVE_VL_INHERIT|0x40: a vector length and its flags (x: the flags' table). */
static void sb_vl(struct strbuf *sb, uint64_t v, const void *x)
{
	uint64_t flags = v & ~(uint64_t)SVE_VL_LEN_MASK_;
	if (flags) {
		sb_flags(sb, x, flags, NULL);
		sb_addc(sb, '|');
	}
	sb_printf(sb, "%#" PRIx64, v & SVE_VL_LEN_MASK_);
}

/* !PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_SYNC|0x3<<PR_MTE_TAG_SHIFT */
static void sb_tagged(struct strbuf *sb, uint64_t v, const void *unused)
{
	(void)unused;
	uint64_t rest = v & ~(TAGGED_ENABLE_ | MTE_TCF_MASK_ | MTE_TAG_MASK_);
	sb_add(sb, v & TAGGED_ENABLE_ ? "PR_TAGGED_ADDR_ENABLE|" : "!PR_TAGGED_ADDR_ENABLE|");
	sb_xlat(sb, &xlat_pr_mte_tcf, v & MTE_TCF_MASK_, NULL);
	if (v & MTE_TAG_MASK_)
		sb_printf(sb, "|%#llx<<PR_MTE_TAG_SHIFT",
			  (unsigned long long)((v & MTE_TAG_MASK_) >> MTE_TAG_SHIFT_));
	if (rest)
		sb_printf(sb, "|%#" PRIx64, rest);
}

/* The return value in hex, its parts after it in parentheses unless -X raw. */
static void rv_parts(struct sc_call *c, sb_parts_fn parts, const void *arg)
{
	c->rv = SC_RV_HEX;
	if (xlat_style == XLAT_STYLE_RAW)
		return;
	struct strbuf sb = STRBUF_INIT;
	enum xlat_style style = xlat_style;
	xlat_style = XLAT_STYLE_ABBREV;
	parts(&sb, (uint64_t)c->ret, arg);
	xlat_style = style;
	snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", sb_str(&sb));
	sb_free(&sb);
}

static int pr_vl(struct sc_call *c, const struct xlat *x, bool set)
{
	if (c->entering) {
		if (!set)
			return 0;
		p_sep(c);
		if (c->args[1] & ~(uint64_t)SVE_VL_LEN_MASK_)
			sb_xparts(c->out, c->args[1], sb_vl, x);
		else
			p_hex(c, c->args[1]);
		return 0;
	}
	if (sc_failed(c))
		return 0;
	c->rv = SC_RV_HEX;
	if ((uint64_t)c->ret & ~(uint64_t)SVE_VL_LEN_MASK_)
		rv_parts(c, sb_vl, x);
	return 0;
}

static void sb_spec_flags(struct strbuf *sb, uint64_t v, const void *unused)
{
	(void)unused;
	sb_flags(sb, &xlat_pr_spec_get_flags, v, NULL);
}

static int pr_spec(struct sc_call *c, bool set)
{
	uint64_t what = c->args[1];
	if (c->entering) {
		p_sep(c);
		p_xval(c, &xlat_pr_spec_cmds, what, "PR_SPEC_???");
		if (!set)
			return 0;
		p_sep(c);
		if (what <= PR_SPEC_MAX_)
			p_xval(c, &xlat_pr_spec_set_flags, c->args[2], "PR_SPEC_???");
		else
			p_hex(c, c->args[2]);
		return SC_DONE;
	}
	if (sc_failed(c) || what > PR_SPEC_MAX_)
		return 0;
	c->rv = SC_RV_HEX;
	/* Only known bits earn a comment: an unknown 0x20 is the number alone. */
	struct strbuf sb = STRBUF_INIT;
	enum xlat_style style = xlat_style;
	xlat_style = XLAT_STYLE_ABBREV;
	sb_spec_flags(&sb, (uint64_t)c->ret, NULL);
	xlat_style = style;
	if (strncmp(sb_str(&sb), "0x", 2) != 0)
		rv_parts(c, sb_spec_flags, NULL);
	sb_free(&sb);
	return 0;
}

static int pr_sched_core(struct sc_call *c)
{
	uint64_t cookie;
	if (!c->entering) {
		if (sc_failed(c))
			p_addr(c, c->args[4]);
		else if (p_fetch(c, c->args[4], &cookie, sizeof(cookie)) == 0)
			out(c, "[%#" PRIx64 "]", cookie);
		return 0;
	}
	p_sep(c);
	p_xval(c, &xlat_pr_sched_core_cmds, (unsigned)c->args[1], "PR_SCHED_CORE_???");
	unsigned type = (unsigned)c->args[3];
	const char *tn = xlat_str(&xlat_pr_sched_core_pidtypes, type);
	p_sep(c);
	if (type <= 3)	/* PIDTYPE_PID, _TGID, _PGID, _SID */
		p_pid(c, (int)c->args[2], (enum sc_pid_type[]){ SC_PT_TID, SC_PT_TGID, SC_PT_PGID, SC_PT_SID }[type]);
	else
		out(c, "%d", (int)c->args[2]);
	/* the number always, its name as a comment but with -X raw */
	out(c, ", %#x", type);
	if (xlat_style != XLAT_STYLE_RAW)
		out(c, " /* %s */", tn ? tn : "PIDTYPE_???");
	p_sep(c);
	if ((unsigned)c->args[1] == 0)	/* PR_SCHED_CORE_GET: the cookie at exit */
		return 0;
	p_addr(c, c->args[4]);
	return SC_DONE;
}

static int pr_special(struct sc_call *c, unsigned op)
{
	uint64_t a2 = c->args[1], a3 = c->args[2];
	switch (op) {
	case PR_GET_NAME:
		if (c->entering) {
			p_sep(c);
			return 0;
		}
		if (sc_failed(c))
			p_addr(c, a2);
		else
			p_str_max(c, a2, TASK_COMM_LEN);
		return 0;
	case PR_GET_PDEATHSIG: {
		int sig;
		if (c->entering) {
			p_sep(c);
			return 0;
		}
		if (sc_failed(c)) {
			p_addr(c, a2);
		} else if (p_fetch(c, a2, &sig, sizeof(sig)) == 0) {
			out(c, "[");
			p_sig(c, sig);
			out(c, "]");
		}
		return 0;
	}
	case PR_GET_TID_ADDRESS: {
		uint64_t v;
		if (c->entering) {
			p_sep(c);
			return 0;
		}
		if (sc_failed(c))
			p_addr(c, a2);
		else if (p_fetch(c, a2, &v, sizeof(v)) == 0)
			out(c, "[%#" PRIx64 "]", v);
		return 0;
	}
	case PR_SET_NAME:
		p_sep(c);
		p_str_max(c, a2, TASK_COMM_LEN - 1);
		return SC_DONE;
	case PR_SET_PDEATHSIG:
		p_sep(c);
		if (a2 > 128)
			out(c, "%" PRIu64, a2);
		else
			p_sig(c, (int)a2);
		return SC_DONE;
	case PR_SET_PTRACER:
		p_sep(c);
		if ((int)a2 != -1)
			p_pid(c, (int)a2, SC_PT_TGID);
		else
			sb_xlat_d(c->out, &xlat_pr_ptracer, (int)a2, NULL);
		return SC_DONE;
	case PR_CAP_AMBIENT:
		p_sep(c);
		p_xval(c, &xlat_pr_cap_ambient, a2, "PR_CAP_AMBIENT_???");
		if (a2 >= 1 && a2 <= 3) {	/* IS_SET, RAISE, LOWER: a capability */
			p_sep(c);
			p_xval(c, &xlat_capabilities, a3, "CAP_???");
			p_args_from(c, 3);
		} else {
			p_args_from(c, 2);
		}
		return SC_DONE;
	case PR_MCE_KILL:
		p_sep(c);
		p_xval(c, &xlat_pr_mce_kill, a2, "PR_MCE_KILL_???");
		p_sep(c);
		if (a2 == 1)	/* PR_MCE_KILL_SET */
			p_xval(c, &xlat_pr_mce_kill_policy, a3, "PR_MCE_KILL_???");
		else
			p_hex(c, a3);
		p_args_from(c, 3);
		return SC_DONE;
	case PR_SET_VMA:
		p_sep(c);
		p_xval(c, &xlat_pr_set_vma, a2, "PR_SET_VMA_???");
		if (a2 == 0) {	/* PR_SET_VMA_ANON_NAME */
			p_sep(c);
			p_addr(c, a3);
			out(c, ", %" PRIu64 ", ", c->args[3]);
			p_str(c, c->args[4]);
		} else {
			p_args_from(c, 2);
		}
		return SC_DONE;
	case PR_SET_MM:
		p_sep(c);
		p_xval(c, &xlat_pr_set_mm, (unsigned)a2, "PR_SET_MM_???");
		p_args_from(c, 2);
		return SC_DONE;
	case PR_SET_SECCOMP:
		p_sep(c);
		p_xval(c, &xlat_seccomp_mode, a2, "SECCOMP_MODE_???");
		if (a2 == 1)
			return SC_DONE;
		if (a2 == 2) {	/* SECCOMP_MODE_FILTER: the program */
			p_sep(c);
			p_seccomp_fprog(c, a3);
			return SC_DONE;
		}
		p_args_from(c, 2);
		return SC_DONE;
	case PR_SVE_SET_VL:
		return pr_vl(c, &xlat_pr_sve_vl_flags, true);
	case PR_SVE_GET_VL:
		return pr_vl(c, &xlat_pr_sve_vl_flags, false);
	case PR_SME_SET_VL:
		return pr_vl(c, &xlat_pr_sme_vl_flags, true);
	case PR_SME_GET_VL:
		return pr_vl(c, &xlat_pr_sme_vl_flags, false);
	case PR_GET_SPECULATION_CTRL:
		return pr_spec(c, false);
	case PR_SET_SPECULATION_CTRL:
		return pr_spec(c, true);
	case PR_SET_TAGGED_ADDR_CTRL:
		p_sep(c);
		sb_xparts(c->out, a2, sb_tagged, NULL);
		p_args_from(c, 2);
		return SC_DONE;
	case PR_GET_TAGGED_ADDR_CTRL: {
		if (c->entering) {
			p_args_from(c, 1);
			return 0;
		}
		if (!sc_failed(c))
			rv_parts(c, sb_tagged, NULL);
		return 0;
	}
	case PR_PAC_RESET_KEYS:
		p_sep(c);
		p_flags(c, &xlat_pr_pac_keys, a2, "PR_PAC_???");
		p_args_from(c, 2);
		return SC_DONE;
	case PR_PAC_SET_ENABLED_KEYS:
		p_sep(c);
		p_flags(c, &xlat_pr_pac_enabled_keys, a2, "PR_PAC_???");
		p_sep(c);
		p_flags(c, &xlat_pr_pac_enabled_keys, a3, "PR_PAC_???");
		p_args_from(c, 3);
		return SC_DONE;
	case PR_SET_SYSCALL_USER_DISPATCH:
		p_sep(c);
		p_xval(c, &xlat_pr_sud_cmds, a2, "PR_SYS_DISPATCH_???");
		out(c, ", %#" PRIx64 ", %#" PRIx64 ", ", a3, c->args[3]);
		p_addr(c, c->args[4]);
		return SC_DONE;
	case PR_SCHED_CORE:
		return pr_sched_core(c);
	}
	p_args_from(c, 1);
	return SC_DONE;
}

SC_DECODER(prctl, MEM_STR_IN(1), MEM_BYTES_OUT(1, TASK_COMM_LEN), MEM_STR_IN(4),
	   MEM_BYTES_OUT(4, sizeof(uint64_t)), MEM_BYTES_IN(2, 16),
	   MEM_DEREF_IN(2, 8, SC_BPF_FILTER_MAX))
{
	unsigned op = (unsigned)c->args[0];
	const struct pr_row *r = pr_row(op);
	if (c->entering) {
		p_xval(c, &xlat_prctl_options, op, "PR_???");
		return r ? pr_row_entry(c, r) : pr_special(c, op);
	}
	return r ? pr_row_exit(c, r) : pr_special(c, op);
}

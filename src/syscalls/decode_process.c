/*
 * Process lifecycle: exec, clone and fork, wait, exit, pidfds, process
 * groups and sessions, and the per-process knobs (prctl, arch_prctl,
 * personality, robust futex lists, rseq).
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <asm/ldt.h>
#include <linux/sched.h>

#include "print_signal.h"
#include "print_time.h"

/* ---- exec ---------------------------------------------------------------- */

/* After a successful exec the old image is gone: everything prints at entry. */
SC_DECODER(execve, MEM_PATH(0), MEM_STRV(1), MEM_STRV(2))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_strv(c, c->args[1]);
	p_sep(c);
	p_strv_count(c, c->args[2]);
	return SC_DONE;
}

SC_DECODER(execveat, MEM_PATH(1), MEM_STRV(2), MEM_STRV(3))
{
	p_dirfd(c, c->args[0]);
	p_sep(c);
	p_path(c, c->args[1]);
	p_sep(c);
	p_strv(c, c->args[2]);
	p_sep(c);
	p_strv_count(c, c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_execveat_flags, (unsigned)c->args[4], "AT_???");
	return SC_DONE;
}

/* ---- clone and fork ------------------------------------------------------ */

/* Flags without the exit signal, then |SIGCHLD; a bare signal when no flags. */
static void p_clone_flags(struct sc_call *c, uint64_t v)
{
	uint64_t flags = v & ~(uint64_t)CSIGNAL;
	int sig = (int)(v & CSIGNAL);
	if (!flags) {
		p_sig(c, sig);
		return;
	}
	p_flags(c, &xlat_clone_flags, flags, "CLONE_???");
	if (sig) {
		out(c, "|");
		p_sig(c, sig);
	}
}

/* x86_64 order: flags, stack, parent_tid, child_tid, tls; strace prints the stack first. */
SC_DECODER(clone, MEM_BYTES_OUT(2, sizeof(int)))
{
	uint64_t flags = c->args[0];
	if (c->entering) {
		out(c, "child_stack=");
		p_addr(c, c->args[1]);
		out(c, ", flags=");
		p_clone_flags(c, flags);
		if (!(flags & (CLONE_PARENT_SETTID | CLONE_PIDFD | CLONE_CHILD_SETTID |
			       CLONE_CHILD_CLEARTID | CLONE_SETTLS)))
			return SC_DONE;
		return 0;
	}
	if (flags & (CLONE_PARENT_SETTID | CLONE_PIDFD)) {
		int v;
		out(c, ", parent_tid=");
		if (!p_failed_addr(c, c->args[2]) && p_fetch(c, c->args[2], &v, sizeof(v)) == 0)
			out(c, "[%d]", v);
	}
	if (flags & CLONE_SETTLS) {
		out(c, ", tls=");
		p_addr(c, c->args[4]);
	}
	if (flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		out(c, ", child_tidptr=");
		p_addr(c, c->args[3]);
	}
	return 0;
}

/* The first 64 bytes of struct clone_args (up to tls) are the minimum the kernel takes. */
#define CLONE_ARGS_MIN 64

static size_t clone3_len(const struct sc_call *c)
{
	return c->args[1] < sizeof(struct clone_args) ? (size_t)c->args[1] : sizeof(struct clone_args);
}

static void p_clone_args(struct sc_call *c, const struct clone_args *a, size_t size)
{
	out(c, "{flags=");
	uint64_t rest = a->flags;
	/* clone's and clone3's flags print as one set, clone's first. */
	uint64_t clone3_only = 0;
	for (size_t i = 0; i < xlat_clone3_flags.n; i++)
		clone3_only |= xlat_clone3_flags.e[i].val;
	if (rest & ~clone3_only) {
		p_flags(c, &xlat_clone_flags, rest & ~clone3_only, NULL);
		if (rest & clone3_only)
			out(c, "|");
	}
	if (rest & clone3_only || !rest)
		p_flags(c, &xlat_clone3_flags, rest & clone3_only, NULL);
	if (a->flags & CLONE_PIDFD)
		out(c, ", pidfd=%#llx", (unsigned long long)a->pidfd);
	if (a->flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID))
		out(c, ", child_tid=%#llx", (unsigned long long)a->child_tid);
	if (a->flags & CLONE_PARENT_SETTID)
		out(c, ", parent_tid=%#llx", (unsigned long long)a->parent_tid);
	out(c, ", exit_signal=");
	if (a->exit_signal < 0x7fffffff)
		p_sig(c, (int)a->exit_signal);
	else
		out(c, "%llu", (unsigned long long)a->exit_signal);
	out(c, ", stack=%#llx, stack_size=%#llx", (unsigned long long)a->stack,
	    (unsigned long long)a->stack_size);
	if (a->flags & CLONE_SETTLS)
		out(c, ", tls=%#llx", (unsigned long long)a->tls);
	if (a->set_tid || a->set_tid_size)
		out(c, ", set_tid=%#llx, set_tid_size=%llu", (unsigned long long)a->set_tid,
		    (unsigned long long)a->set_tid_size);
	if (size > offsetof(struct clone_args, cgroup) && (a->cgroup || a->flags & CLONE_INTO_CGROUP))
		out(c, ", cgroup=%llu", (unsigned long long)a->cgroup);
	out(c, "}");
}

/*
 * At exit strace shows what the kernel stored behind the pointers in the
 * struct ("=> {parent_tid=[1234]}").  A spec cannot follow a pointer inside
 * a struct, but for parent_tid the kernel stores the child's tid, which is
 * the call's return value; a pidfd is not known and shows as its address.
 */
static bool clone3_has_exit_part(const struct clone_args *a)
{
	return a->flags & (CLONE_PIDFD | CLONE_PARENT_SETTID);
}

/* A length from clone3_len, capped (.size) at the struct this build knows. */
#define MEM_CLONE_ARGS { .arg = 0, .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .len_src = SC_LEN_FN,	\
			 .len_fn = clone3_len, .size = sizeof(struct clone_args) }

SC_DECODER(clone3, MEM_CLONE_ARGS)
{
	struct clone_args a = { 0 };
	size_t size = clone3_len(c);
	bool held = size >= CLONE_ARGS_MIN && sc_mem_read(c, c->args[0], &a, size) == 0;
	if (c->entering) {
		if (size < CLONE_ARGS_MIN)
			p_addr(c, c->args[0]);
		else if (p_fetch(c, c->args[0], &a, size) == 0)
			p_clone_args(c, &a, size);
		if (held && clone3_has_exit_part(&a))
			return 0;
	} else if (held && !sc_failed(c)) {
		const char *sep = " => {";
		if (a.flags & CLONE_PIDFD) {
			out(c, "%spidfd=%#llx", sep, (unsigned long long)a.pidfd);
			sep = ", ";
		}
		if (a.flags & CLONE_PARENT_SETTID)
			out(c, "%sparent_tid=[%lld]", sep, (long long)c->ret);
		out(c, "}");
	}
	out(c, ", %llu", (unsigned long long)c->args[1]);
	return c->entering ? SC_DONE : 0;
}

/* Calls without arguments: getpid and its kin, fork, setsid, sched_yield... */
SC_DECODER(noargs)
{
	(void)c;
	return SC_DONE;
}

/* getpid, getppid, gettid: -Y shows the comm of the pid returned. */
SC_DECODER(getpid)
{
	c->rv = SC_RV_PID;
	return SC_DONE;
}

/* getuid and the other id getters cannot fail: strace prints what they return unsigned. */
SC_DECODER(getid)
{
	c->rv = SC_RV_UDEC_NF;
	return SC_DONE;
}

/* ---- wait and exit ------------------------------------------------------- */

/* [{WIFEXITED(s) && WEXITSTATUS(s) == 0}] and the other shapes of a wait status. */
static void p_wait_status(struct sc_call *c, int st)
{
	char buf[16];
	out(c, "[");
	if (WIFSTOPPED(st)) {
		int sig = WSTOPSIG(st);
		const char *s = sc_sig_str(sig & 0x7f, buf, sizeof(buf));
		out(c, "{WIFSTOPPED(s) && WSTOPSIG(s) == ");
		s ? out(c, "%s", s) : out(c, "%d", sig & 0x7f);
		out(c, "%s}", sig & 0x80 ? " | 0x80" : "");
		st &= ~((sig << 8) | 0x7f);
	} else if (WIFSIGNALED(st)) {
		out(c, "{WIFSIGNALED(s) && WTERMSIG(s) == ");
		p_sig(c, WTERMSIG(st));
		out(c, "%s}", WCOREDUMP(st) ? " && WCOREDUMP(s)" : "");
		st &= ~(WTERMSIG(st) | 0x80);
	} else if (WIFEXITED(st)) {
		out(c, "{WIFEXITED(s) && WEXITSTATUS(s) == %d}", WEXITSTATUS(st));
		st &= ~(WEXITSTATUS(st) << 8);
	} else if (WIFCONTINUED(st)) {
		out(c, "{WIFCONTINUED(s)}");
		st &= ~0xffff;
	} else {
		out(c, "%#x]", (unsigned)st);
		return;
	}
	if ((unsigned)st >> 16) {
		out(c, "|");
		p_xval(c, &xlat_wait_ptrace_events, (unsigned)st >> 16, "PTRACE_EVENT_???");
		out(c, "<<16");
		st &= 0xffff;
	}
	if (st)
		out(c, "|%#x", (unsigned)st);
	out(c, "]");
}

SC_DECODER(wait4, MEM_STRUCT_OUT(1, int), MEM_STRUCT_OUT(3, struct rusage))
{
	int st;
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		return 0;
	}
	if (c->ret == 0 || sc_failed(c))
		p_addr(c, c->args[1]);
	else if (p_fetch(c, c->args[1], &st, sizeof(st)) == 0)
		p_wait_status(c, st);
	p_sep(c);
	p_flags(c, &xlat_wait4_options, (unsigned)c->args[2], "W???");
	p_sep(c);
	if (c->ret > 0)
		p_rusage(c, c->args[3]);
	else
		p_addr(c, c->args[3]);
	return 0;
}

SC_DECODER(waitid, MEM_STRUCT_OUT(2, siginfo_t), MEM_STRUCT_OUT(4, struct rusage))
{
	if (c->entering) {
		p_xval(c, &xlat_waitid_types, (unsigned)c->args[0], "P_???");
		p_sep(c);
		if ((unsigned)c->args[0] == P_PIDFD)
			p_fd(c, c->args[1]);
		else
			p_int(c, c->args[1]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[2]))
		p_siginfo(c, c->args[2]);
	p_sep(c);
	p_flags(c, &xlat_wait4_options, (unsigned)c->args[3], "W???");
	p_sep(c);
	if (!p_failed_addr(c, c->args[4]))
		p_rusage(c, c->args[4]);
	return 0;
}

/* exit and exit_group never return: "= ?". */
SC_DECODER(exit)
{
	p_int(c, c->args[0]);
	c->rv = SC_RV_NONE;
	return SC_DONE;
}

SC_DECODER(exit_group)
{
	p_int(c, c->args[0]);
	c->rv = SC_RV_NONE;
	return SC_DONE;
}

/* ---- pidfds, process groups, sessions ------------------------------------ */

SC_DECODER(pidfd_open)
{
	out(c, "%d, ", (int)c->args[0]);
	p_flags(c, &xlat_pidfd_open_flags, (unsigned)c->args[1], "PIDFD_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(setpgid)
{
	out(c, "%d, %d", (int)c->args[0], (int)c->args[1]);
	return SC_DONE;
}

/* getpgid and getsid: one pid. */
SC_DECODER(getpgid)
{
	p_int(c, c->args[0]);
	return SC_DONE;
}

/* ---- per-process knobs --------------------------------------------------- */

#define ARCH_GET_FS_ 0x1003
#define ARCH_GET_GS_ 0x1004
#define ARCH_GET_CPUID_ 0x1011
#define ARCH_GET_XCOMP_SUPP_ 0x1021
#define ARCH_GET_XCOMP_PERM_ 0x1022
#define ARCH_REQ_XCOMP_PERM_ 0x1023
#define ARCH_GET_XCOMP_GUEST_PERM_ 0x1024
#define ARCH_REQ_XCOMP_GUEST_PERM_ 0x1025

/* An XSAVE feature mask: the number, then (unless -X raw) its names. */
static void sb_xfeature_mask(struct strbuf *sb, uint64_t mask, const char *open, const char *close)
{
	uint64_t known = 0;
	for (size_t i = 0; i < xlat_x86_xfeature_masks.n; i++)
		known |= xlat_x86_xfeature_masks.e[i].val;
	enum xlat_style style = xlat_style;
	xlat_style = XLAT_STYLE_ABBREV;
	sb_add(sb, open);
	if (mask & known)
		sb_flags(sb, &xlat_x86_xfeature_masks, mask, NULL);
	else
		sb_add(sb, "XFEATURE_MASK_???");
	sb_add(sb, close);
	xlat_style = style;
}

static int arch_prctl_get(struct sc_call *c, unsigned code)
{
	uint64_t v;
	if (p_failed_addr(c, c->args[1]) || p_fetch(c, c->args[1], &v, sizeof(v)) < 0)
		return 0;
	if (code == ARCH_GET_FS_ || code == ARCH_GET_GS_) {
		/* A base of 0 reads as a null pointer, as strace prints it. */
		out(c, v ? "[%#llx]" : "[NULL]", (unsigned long long)v);
		return 0;
	}
	out(c, v ? "[%#llx" : "[0", (unsigned long long)v);
	if (v && xlat_style != XLAT_STYLE_RAW)
		sb_xfeature_mask(c->out, v, " /* ", " */");
	out(c, "]");
	return 0;
}

/* ARCH_REQ_XCOMP_PERM: a feature number in, the permitted mask out. */
static int arch_prctl_req(struct sc_call *c)
{
	if (c->entering) {
		uint64_t nr = (unsigned)c->args[1];
		const char *name = xlat_str(&xlat_x86_xfeatures, nr);
		out(c, "%#llx", (unsigned long long)nr);
		if (xlat_style != XLAT_STYLE_RAW)
			out(c, " /* %s */", name ? name : "XFEATURE_???");
		return 0;
	}
	c->rv = SC_RV_HEX;
	if (c->ret > 0 && xlat_style != XLAT_STYLE_RAW) {
		struct strbuf sb = STRBUF_INIT;
		uint64_t known = 0;
		for (size_t i = 0; i < xlat_x86_xfeature_masks.n; i++)
			known |= xlat_x86_xfeature_masks.e[i].val;
		if ((uint64_t)c->ret & known)
			sb_xfeature_mask(&sb, (uint64_t)c->ret, "(", ")");
		snprintf(c->rv_extra, sizeof(c->rv_extra), "%s", sb.buf ? sb_str(&sb) : "");
		sb_free(&sb);
	}
	return 0;
}

SC_DECODER(arch_prctl, MEM_STRUCT_OUT(1, uint64_t))
{
	unsigned code = (unsigned)c->args[0];
	bool get = code == ARCH_GET_FS_ || code == ARCH_GET_GS_ ||
		   code == ARCH_GET_XCOMP_SUPP_ || code == ARCH_GET_XCOMP_PERM_ ||
		   code == ARCH_GET_XCOMP_GUEST_PERM_;
	bool req = code == ARCH_REQ_XCOMP_PERM_ || code == ARCH_REQ_XCOMP_GUEST_PERM_;
	if (c->entering) {
		p_xval(c, &xlat_arch_prctl_codes, code, "ARCH_???");
		if (code == ARCH_GET_CPUID_)	/* takes no argument */
			return SC_DONE;
		p_sep(c);
		if (req)
			return arch_prctl_req(c);
		if (get)
			return 0;
		p_hex(c, c->args[1]);
		return SC_DONE;
	}
	if (req)
		return arch_prctl_req(c);
	return arch_prctl_get(c, code);
}

/* struct user_desc, strace's way: an entry number of -1 ("pick one") as -1. */
static void p_user_desc(struct sc_call *c, uint64_t addr)
{
	struct user_desc u;
	if (p_fetch(c, addr, &u, sizeof(u)) < 0)
		return;
	if (u.entry_number == (unsigned)-1)
		out(c, "{entry_number=-1");
	else
		out(c, "{entry_number=%u", u.entry_number);
	out(c, ", base_addr=%#08x, limit=%#08x, seg_32bit=%u, contents=%u, read_exec_only=%u"
	    ", limit_in_pages=%u, seg_not_present=%u, useable=%u, lm=%u}",
	    u.base_addr, u.limit, u.seg_32bit, u.contents, u.read_exec_only, u.limit_in_pages,
	    u.seg_not_present, u.useable, u.lm);
}

SC_DECODER(modify_ldt, MEM_STRUCT_IN(1, struct user_desc))
{
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		if (c->args[2] == sizeof(struct user_desc))
			p_user_desc(c, c->args[1]);
		else
			p_addr(c, c->args[1]);
		out(c, ", %llu", (unsigned long long)c->args[2]);
		return 0;
	}
	/*
	 * The kernel returns an int as unsigned: an error arrives as 4294967258,
	 * which strace shows with the errno it stands for.
	 */
	uint64_t r = (uint64_t)c->ret;
	if (!sc_failed(c) && r >= 0xfffff000 && r <= 0xffffffff) {
		int err = (int)-(int32_t)r;
		const char *name = sc_errname(err);
		c->rv = SC_RV_UDEC;
		snprintf(c->rv_extra, sizeof(c->rv_extra), "%s (%s)", name ? name : "E???",
			 strerror(err));
	}
	return 0;
}

SC_DECODER(set_tid_address)
{
	out(c, "%#llx", (unsigned long long)c->args[0]);
	return SC_DONE;
}

SC_DECODER(set_robust_list)
{
	p_addr(c, c->args[0]);
	out(c, ", %llu", (unsigned long long)c->args[1]);
	return SC_DONE;
}

SC_DECODER(get_robust_list, MEM_STRUCT_OUT(1, uint64_t), MEM_STRUCT_OUT(2, uint64_t))
{
	uint64_t v;
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]) && p_fetch(c, c->args[1], &v, sizeof(v)) == 0)
		out(c, "[%#llx]", (unsigned long long)v);
	p_sep(c);
	if (!p_failed_addr(c, c->args[2]) && p_fetch(c, c->args[2], &v, sizeof(v)) == 0)
		out(c, "[%llu]", (unsigned long long)v);
	return 0;
}

SC_DECODER(rseq)
{
	p_addr(c, c->args[0]);
	out(c, ", %#x, ", (unsigned)c->args[1]);
	p_flags(c, &xlat_rseq_flags, (unsigned)c->args[2], "RSEQ_FLAG_???");
	out(c, ", %#x", (unsigned)c->args[3]);
	return SC_DONE;
}

/* PER_LINUX|ADDR_NO_RANDOMIZE: a type in the low byte, flags above it. */
static void sp_personality(char *buf, size_t len, unsigned v)
{
	const char *t = xlat_str(&xlat_personality_types, v & 0xff);
	int n = t ? snprintf(buf, len, "%s", t)
		  : snprintf(buf, len, "%#x /* PER_??? */", v & 0xff);
	v &= ~0xffu;
	for (size_t i = 0; i < xlat_personality_flags.n && n < (int)len; i++) {
		unsigned f = (unsigned)xlat_personality_flags.e[i].val;
		if ((v & f) == f) {
			n += snprintf(buf + n, len - (size_t)n, "|%s", xlat_personality_flags.e[i].str);
			v &= ~f;
		}
	}
	if (v && n < (int)len)
		snprintf(buf + n, len - (size_t)n, "|%#x", v);
}

SC_DECODER(personality)
{
	char buf[sizeof(c->rv_extra) - 2];
	unsigned v = (unsigned)c->args[0];
	if (c->entering) {
		if (v == 0xffffffff) {
			out(c, "0xffffffff");
		} else {
			sp_personality(buf, sizeof(buf), v);
			out(c, "%s", buf);
		}
		return 0;
	}
	c->rv = SC_RV_HEX;
	if (!sc_failed(c)) {
		sp_personality(buf, sizeof(buf), (unsigned)c->ret);
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", buf);
	}
	return 0;
}

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

#include "util/die.h"
#include "print_pid.h"
#include "print_signal.h"
#include "print_stat.h"
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

static void p_stored_int(struct sc_call *c, uint64_t addr, bool is_pid);

/* x86_64 order: flags, stack, parent_tid, child_tid, tls; strace prints the stack first. */
SC_DECODER(clone, MEM_BYTES_OUT(2, sizeof(int)))
{
	uint64_t flags = c->args[0];
	c->rv = SC_RV_TID;
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
		out(c, ", parent_tid=");
		if (flags & CLONE_PARENT_SETTID)
			p_pid_at(c, c->args[2], SC_PT_TID);
		else		/* CLONE_PIDFD alone: the kernel stored the pidfd there */
			p_stored_int(c, c->args[2], false);
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
/* Past the struct this build knows the kernel wants zeros: strace shows those up to a page. */
#define CLONE_ARGS_TAIL_MAX 4096
#define SET_TID_MAX 32		/* the kernel's nesting limit of PID namespaces */

static size_t clone3_known(const struct sc_call *c)
{
	return c->args[1] < sizeof(struct clone_args) ? (size_t)c->args[1] : sizeof(struct clone_args);
}

static size_t clone3_len(const struct sc_call *c)
{
	return c->args[1] < CLONE_ARGS_TAIL_MAX ? (size_t)c->args[1] : CLONE_ARGS_TAIL_MAX;
}

/* clone's and clone3's flags as one set: unknown bits last, or "0x... /\* CLONE_??? *\/" alone. */
static void p_clone3_flags(struct sc_call *c, uint64_t v)
{
	static struct xlat_entry both[64];
	static struct xlat all = { .name = "clone_flags+clone3_flags", .e = both };
	if (!all.n) {
		for (size_t i = 0; i < xlat_clone_flags.n && all.n < 64; i++)
			both[all.n++] = xlat_clone_flags.e[i];
		for (size_t i = 0; i < xlat_clone3_flags.n && all.n < 64; i++)
			both[all.n++] = xlat_clone3_flags.e[i];
	}
	p_flags(c, &all, v, "CLONE_???");
}

/* The bytes past the known struct: nothing when all zero, "???" when unreadable. */
static bool p_clone3_tail(struct sc_call *c, const char *prefix)
{
	size_t known = clone3_known(c), len = clone3_len(c);
	if (len <= known)
		return false;
	const unsigned char *p;
	long n = sc_mem_peek(c, c->args[0] + known, len - known, &p);
	if (n < (long)(len - known)) {
		out(c, "%s???", prefix);
		return true;
	}
	size_t i = 0;
	while (i < (size_t)n && !p[i])
		i++;
	if (i == (size_t)n)
		return false;
	size_t shown = (size_t)n < c->fmt->strsize ? (size_t)n : c->fmt->strsize;
	out(c, "%s/* bytes %zu..%zu */ ", prefix, known, len - 1);
	p_hex_bytes(c, p, shown, shown < (size_t)n);
	return true;
}

static void p_set_tid(struct sc_call *c, const struct clone_args *a)
{
	int ids[SET_TID_MAX];
	out(c, ", set_tid=");
	if (!a->set_tid || !a->set_tid_size || a->set_tid_size > SET_TID_MAX ||
	    sc_mem_read(c, a->set_tid, ids, a->set_tid_size * sizeof(int)) < 0) {
		p_addr(c, a->set_tid);
	} else {
		for (size_t i = 0; i < a->set_tid_size; i++)
			out(c, "%s%d", i ? ", " : "[", ids[i]);
		out(c, "]");
	}
	out(c, ", set_tid_size=%llu", (unsigned long long)a->set_tid_size);
}

static void p_clone_args(struct sc_call *c, const struct clone_args *a, size_t size)
{
	out(c, "{flags=");
	p_clone3_flags(c, a->flags);
	if (a->flags & CLONE_PIDFD) {
		out(c, ", pidfd=");
		p_addr(c, a->pidfd);
	}
	if (a->flags & (CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID)) {
		out(c, ", child_tid=");
		p_addr(c, a->child_tid);
	}
	if (a->flags & CLONE_PARENT_SETTID) {
		out(c, ", parent_tid=");
		p_addr(c, a->parent_tid);
	}
	out(c, ", exit_signal=");
	if (a->exit_signal < 0x7fffffff)
		p_sig(c, (int)a->exit_signal);
	else
		out(c, "%llu", (unsigned long long)a->exit_signal);
	out(c, ", stack=");
	p_addr(c, a->stack);
	out(c, ", stack_size=%#llx", (unsigned long long)a->stack_size);
	if (a->flags & CLONE_SETTLS) {
		out(c, ", tls=");
		p_addr(c, a->tls);
	}
	if (a->set_tid || a->set_tid_size)
		p_set_tid(c, a);
	if (size > offsetof(struct clone_args, cgroup) && (a->cgroup || a->flags & CLONE_INTO_CGROUP))
		out(c, ", cgroup=%llu", (unsigned long long)a->cgroup);
	p_clone3_tail(c, ", ");
	out(c, "}");
}

/* An int the kernel stored at addr: [n], NULL, or the address when unreadable. */
static void p_stored_int(struct sc_call *c, uint64_t addr, bool is_pid)
{
	int v;
	if (!addr) {
		out(c, "NULL");
	} else if (sc_mem_read(c, addr, &v, sizeof(v)) < 0) {
		p_addr(c, addr);
	} else if (is_pid) {
		out(c, "[");
		p_pid(c, v, SC_PT_TID);
		out(c, "]");
	} else {
		out(c, "[");
		p_fd(c, (uint64_t)v);
		out(c, "]");
	}
}

/* Length: clone3_len, capped (.size) at the tail strace shows. */
#define MEM_CLONE_ARGS { .arg = 0, .kind = SC_MEM_BUF, .when = SC_AT_ENTRY | SC_AT_EXIT, .len_src = SC_LEN_FN, \
			 .len_fn = clone3_len, .size = CLONE_ARGS_TAIL_MAX }

/* At exit strace shows what the kernel stored behind pidfd and parent_tid: "=> {parent_tid=[1234]}". */
SC_DECODER(clone3, MEM_CLONE_ARGS,
	   MEM_DEREF_IN(0, offsetof(struct clone_args, set_tid), SET_TID_MAX * sizeof(int)),
	   { .arg = 0, .off = offsetof(struct clone_args, pidfd), .kind = SC_MEM_DEREF,
	     .when = SC_AT_EXIT, .size = sizeof(int) },
	   { .arg = 0, .off = offsetof(struct clone_args, parent_tid), .kind = SC_MEM_DEREF,
	     .when = SC_AT_EXIT, .size = sizeof(int) })
{
	struct clone_args a = { 0 };
	size_t size = clone3_known(c);
	bool held = size >= CLONE_ARGS_MIN && sc_mem_read(c, c->args[0], &a, size) == 0;
	c->rv = SC_RV_TID;
	if (c->entering) {
		if (size < CLONE_ARGS_MIN)
			p_addr(c, c->args[0]);
		else if (p_fetch(c, c->args[0], &a, size) == 0)
			p_clone_args(c, &a, size);
		if (held && (a.flags & (CLONE_PIDFD | CLONE_PARENT_SETTID) || clone3_len(c) > size))
			return 0;
	} else if (held && !sc_failed(c)) {
		const char *sep = " => {";
		if (a.flags & CLONE_PIDFD) {
			out(c, "%spidfd=", sep);
			p_stored_int(c, a.pidfd, false);
			sep = ", ";
		}
		if (a.flags & CLONE_PARENT_SETTID) {
			out(c, "%sparent_tid=", sep);
			p_stored_int(c, a.parent_tid, true);
			sep = ", ";
		}
		if (p_clone3_tail(c, sep))
			sep = ", ";
		if (sep[0] == ',')
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

/* Calls whose only output is a pid: each names which id it is (--pidns-translation, -Y). */
SC_DECODER(getpid)
{
	c->rv = SC_RV_TGID;
	return SC_DONE;
}

SC_DECODER(gettid)
{
	c->rv = SC_RV_TID;
	return SC_DONE;
}

SC_DECODER(getpgrp)
{
	c->rv = SC_RV_PGID;
	return SC_DONE;
}

/* fork and vfork */
SC_DECODER(fork)
{
	c->rv = SC_RV_TGID;
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
	c->rv = SC_RV_TGID;
	if (c->entering) {
		p_pid_tgid_pgid(c, (int)c->args[0]);
		p_sep(c);
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
		else if ((unsigned)c->args[0] == P_PID)
			p_pid(c, (int)c->args[1], SC_PT_TGID);
		else if ((unsigned)c->args[0] == P_PGID)
			p_pid(c, (int)c->args[1], SC_PT_PGID);
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
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	p_sep(c);
	p_flags(c, &xlat_pidfd_open_flags, (unsigned)c->args[1], "PIDFD_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(setpgid)
{
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	p_sep(c);
	p_pid(c, (int)c->args[1], SC_PT_PGID);
	return SC_DONE;
}

SC_DECODER(getpgid)
{
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	c->rv = SC_RV_PGID;
	return SC_DONE;
}

SC_DECODER(getsid)
{
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	c->rv = SC_RV_SID;
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

/* user_desc's entry_number, strace's way: -1 ("pick one") as -1. */
static void p_entry_number(struct sc_call *c, uint32_t n)
{
	if (n == (uint32_t)-1)
		out(c, "-1");
	else
		out(c, "%u", n);
}

/* struct user_desc after its entry number, up to the closing brace. */
static void p_user_desc_rest(struct sc_call *c, const struct user_desc *u)
{
	out(c, ", base_addr=%#08x, limit=%#08x, seg_32bit=%u, contents=%u, read_exec_only=%u"
	    ", limit_in_pages=%u, seg_not_present=%u, useable=%u, lm=%u}",
	    u->base_addr, u->limit, u->seg_32bit, u->contents, u->read_exec_only,
	    u->limit_in_pages, u->seg_not_present, u->useable, u->lm);
}

static void p_user_desc(struct sc_call *c, uint64_t addr)
{
	struct user_desc u;
	if (p_fetch(c, addr, &u, sizeof(u)) < 0)
		return;
	out(c, "{entry_number=");
	p_entry_number(c, u.entry_number);
	p_user_desc_rest(c, &u);
}

/* set_thread_area: the descriptor; at exit the entry the kernel picked. */
SC_DECODER(set_thread_area, MEM_STRUCT_INOUT(0, struct user_desc))
{
	struct user_desc u;
	if (c->entering) {
		p_user_desc(c, c->args[0]);
		return 0;
	}
	if (!sc_failed(c) && !(c->fmt && c->fmt->by_addr) &&
	    sc_mem_read(c, c->args[0], &u, sizeof(u)) == 0)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(entry_number=%u)", u.entry_number);
	return 0;
}

/*
 * get_thread_area: the kernel reads only the entry number and fills in the
 * rest, so the struct opens at entry and closes at exit (", ...}" when the
 * call failed).  c->priv marks an entry number printed at entry.
 */
SC_DECODER(get_thread_area, MEM_STRUCT_INOUT(0, struct user_desc))
{
	struct user_desc u;
	uint64_t addr = c->args[0];
	if (c->entering) {
		uint32_t n;
		if (p_fetch(c, addr, &n, sizeof(n)) < 0)
			return 0;
		out(c, "{entry_number=");
		p_entry_number(c, n);
		c->priv = xmalloc(sizeof(n));
		*(uint32_t *)c->priv = n;
		return 0;
	}
	if (!addr || (c->fmt && c->fmt->by_addr))
		return 0;
	if (sc_failed(c) || sc_mem_read(c, addr, &u, sizeof(u)) < 0) {
		if (c->priv)
			out(c, ", ...}");
		return 0;
	}
	if (!c->priv) {
		out(c, " => {entry_number=");
		p_entry_number(c, u.entry_number);
	} else if (*(uint32_t *)c->priv != u.entry_number) {
		out(c, " => ");
		p_entry_number(c, u.entry_number);
	}
	p_user_desc_rest(c, &u);
	return 0;
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
		p_pid(c, (int)c->args[0], SC_PT_TID);
		p_sep(c);
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

/* PER_LINUX|ADDR_NO_RANDOMIZE: a type in the low byte, flags above it (each after -X). */
static void sb_personality(struct strbuf *sb, unsigned v)
{
	sb_xlat(sb, &xlat_personality_types, v & 0xff, "PER_???");
	if (v & ~0xffu) {
		sb_addc(sb, '|');
		sb_flags(sb, &xlat_personality_flags, v & ~0xffu, NULL);
	}
}

SC_DECODER(personality)
{
	unsigned v = (unsigned)c->args[0];
	if (c->entering) {
		if (v == 0xffffffff)
			out(c, "0xffffffff");
		else
			sb_personality(c->out, v);
		return 0;
	}
	c->rv = SC_RV_HEX;
	if (!sc_failed(c)) {
		struct strbuf sb = STRBUF_INIT;
		sb_personality(&sb, (unsigned)c->ret);
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", sb_str(&sb));
		sb_free(&sb);
	}
	return 0;
}

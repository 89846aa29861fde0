/*
 * What a syscall decoder sees and the helpers it prints with.
 *
 * A decoder turns one syscall (number, six raw arguments, return value and
 * the tracee memory it declared) into strace-style text.  It never touches
 * the tracee: it declares, as data, which arguments point to memory and how
 * much of it to copy (struct sc_mem_spec), an engine copies that memory into
 * the call's snapshot, and the decoder reads the snapshot only.  The ptrace
 * engine copies with process_vm_readv; a kernel-side engine can copy the same
 * description in the kernel, so the decoders stay one set.
 *
 * A decoder is written like strace's SYS_FUNC: it is called once at syscall
 * entry (c->entering) and, unless it returns SC_DONE then, once at exit.  At
 * entry it prints the arguments the kernel reads, at exit those it writes.
 *
 *	SC_DECODER(read, MEM_BUF_OUT_RET(1))
 *	{
 *		if (c->entering) {
 *			p_fd(c, c->args[0]);
 *			p_sep(c);
 *			return 0;
 *		}
 *		p_buf_or_addr(c, c->args[1], c->ret);
 *		out(c, ", %llu", (unsigned long long)c->args[2]);
 *		return 0;
 *	}
 */
#ifndef TRACEKIT_SYSCALLS_DECODER_H
#define TRACEKIT_SYSCALLS_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/strbuf.h"
#include "table.h"
#include "xlat.h"

/* ---- the memory a decoder reads, declared as data ---------------------- */

enum sc_mem_kind {
	SC_MEM_NONE = 0,	/* terminates a spec list */
	SC_MEM_STR,	/* NUL-terminated string, up to -s (or PATH_MAX for paths) */
	SC_MEM_BUF,	/* len bytes, len from len_src */
	SC_MEM_ARRAY,	/* count elements of .size bytes, count from len_src */
	SC_MEM_IOVEC,	/* struct iovec[count] and each element's data (up to -s) */
	SC_MEM_MSGHDR,	/* struct msghdr, its name, iovec + data, and control */
	SC_MEM_MMSGHDR,	/* struct mmsghdr[count], each like SC_MEM_MSGHDR */
	SC_MEM_STRV,	/* NULL-terminated array of string pointers (argv, envp) */
	SC_MEM_DEREF,	/* the pointer stored at arg + off, then .size bytes where it points */
	SC_MEM_IOCBV,	/* struct iocb *[count], each iocb and its buffer or iovec (io_submit) */
	SC_MEM_WALK,	/* .walk_fn copies what it finds following pointers (SG_IO's buffers, V4L2's arrays) */
};

/* What a .walk_fn copies through (see sc_walk_grab). */
struct sc_walk;

enum sc_when {
	SC_AT_ENTRY = 1,	/* the kernel reads it: copy before the call */
	SC_AT_EXIT = 2,		/* the kernel writes it: copy after a successful call */
};

enum sc_len_src {
	SC_LEN_FIXED = 0,	/* .size bytes (or elements for arrays) */
	SC_LEN_ARG,		/* the value of argument .len_arg */
	SC_LEN_RET,		/* the return value */
	SC_LEN_ARGPTR,		/* the int that argument .len_arg points to (socklen_t *) */
	SC_LEN_PATH,		/* strings: up to PATH_MAX, whatever -s says */
	SC_LEN_STRSIZE,		/* strings and buffers: up to -s */
	SC_LEN_FN,		/* .len_fn(call) decides, for request-dependent calls (ioctl) */
};

struct sc_call;

/* .arg value meaning "the user stack pointer at the stop" rather than an argument. */
#define SC_ARG_SP 7

struct sc_mem_spec {
	unsigned char arg;	/* which argument holds the pointer (or SC_ARG_SP) */
	unsigned short off;	/* bytes past that address, for fields in a stack frame */
	unsigned char kind;	/* enum sc_mem_kind */
	unsigned char when;	/* enum sc_when bits */
	unsigned char len_src;	/* enum sc_len_src */
	unsigned char len_arg;	/* for SC_LEN_ARG and SC_LEN_ARGPTR */
	bool guess;		/* only some calls hold a pointer there: --kernel copies it if it reads */
	unsigned int size;	/* FIXED length; element size for arrays (a walk's: the largest it
				   prints); else a cap (0: -s for buffers, 64 KiB for SC_LEN_FN) */
	size_t (*len_fn)(const struct sc_call *c);
	void (*walk_fn)(struct sc_walk *w, const struct sc_call *c);
};

#define SC_MEM_MAX 8	/* the kernel mode copies them all (KM_COPY_MAX) */

/* Spec shorthands, named from the kernel's point of view: IN is read by the kernel. */
#define MEM_PATH(a)		{ .arg = (a), .kind = SC_MEM_STR, .when = SC_AT_ENTRY, .len_src = SC_LEN_PATH }
#define MEM_STR_IN(a)		{ .arg = (a), .kind = SC_MEM_STR, .when = SC_AT_ENTRY, .len_src = SC_LEN_STRSIZE }
#define MEM_STR_OUT(a)		{ .arg = (a), .kind = SC_MEM_STR, .when = SC_AT_EXIT, .len_src = SC_LEN_STRSIZE }
#define MEM_BUF_IN(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = (n) }
#define MEM_BUF_OUT(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_ARG, .len_arg = (n) }
#define MEM_BUF_OUT_RET(a)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_RET }
#define MEM_STRUCT_IN(a, T)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .size = sizeof(T) }
/* A pointer inside a struct the kernel reads (pselect6's sigmask): n bytes behind it. */
#define MEM_DEREF_IN(a, o, n)	{ .arg = (a), .off = (o), .kind = SC_MEM_DEREF, .when = SC_AT_ENTRY, .size = (n) }
#define MEM_STRUCT_OUT(a, T)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .size = sizeof(T) }
#define MEM_STRUCT_INOUT(a, T)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY | SC_AT_EXIT, .size = sizeof(T) }
#define MEM_BYTES_IN(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .size = (n) }
#define MEM_BYTES_OUT(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .size = (n) }
#define MEM_BYTES_INOUT(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY | SC_AT_EXIT, .size = (n) }
#define MEM_ARRAY_IN(a, T, n)	{ .arg = (a), .kind = SC_MEM_ARRAY, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = (n), .size = sizeof(T) }
#define MEM_ARRAY_INOUT(a, T, n) { .arg = (a), .kind = SC_MEM_ARRAY, .when = SC_AT_ENTRY | SC_AT_EXIT, .len_src = SC_LEN_ARG, .len_arg = (n), .size = sizeof(T) }
#define MEM_ARRAY_OUT_RET(a, T)	{ .arg = (a), .kind = SC_MEM_ARRAY, .when = SC_AT_EXIT, .len_src = SC_LEN_RET, .size = sizeof(T) }
#define MEM_IOVEC_IN(a, n)	{ .arg = (a), .kind = SC_MEM_IOVEC, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = (n) }
#define MEM_IOVEC_OUT(a, n)	{ .arg = (a), .kind = SC_MEM_IOVEC, .when = SC_AT_EXIT, .len_src = SC_LEN_ARG, .len_arg = (n) }
#define MEM_MSGHDR_IN(a)	{ .arg = (a), .kind = SC_MEM_MSGHDR, .when = SC_AT_ENTRY }
#define MEM_MSGHDR_OUT(a)	{ .arg = (a), .kind = SC_MEM_MSGHDR, .when = SC_AT_ENTRY | SC_AT_EXIT }
#define MEM_MMSGHDR_IN(a, n)	{ .arg = (a), .kind = SC_MEM_MMSGHDR, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = (n) }
#define MEM_MMSGHDR_OUT(a)	{ .arg = (a), .kind = SC_MEM_MMSGHDR, .when = SC_AT_EXIT, .len_src = SC_LEN_RET }
#define MEM_STRV(a)		{ .arg = (a), .kind = SC_MEM_STRV, .when = SC_AT_ENTRY }
/* A sockaddr whose length the kernel reads from argument n (bind, connect, sendto). */
#define MEM_SOCKADDR_IN(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = (n), .size = 128 }
/* A sockaddr the kernel fills, its length in *argument n (accept, getsockname, recvfrom). */
#define MEM_SOCKADDR_OUT(a, n)	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_ARGPTR, .len_arg = (n), .size = 128 }
/* T at the stack pointer plus off, at entry (a signal frame). */
#define MEM_STACK_IN(off_, T)	{ .arg = SC_ARG_SP, .off = (off_), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .size = sizeof(T) }
#define MEM_FN(a, kind_, when_, fn) { .arg = (a), .kind = (kind_), .when = (when_), .len_src = SC_LEN_FN, .len_fn = (fn) }

/* ---- the snapshot: tracee memory copied for one call ---------------------- */

struct sc_region {
	uint64_t addr;
	uint32_t len;		/* bytes held (may be less than asked: see short) */
	unsigned char when;	/* SC_AT_ENTRY or SC_AT_EXIT */
	bool short_read;	/* the tracee had fewer readable bytes than asked */
	unsigned char *data;
};

struct sc_snapshot {
	struct sc_region *r;
	size_t n, cap;
	size_t bytes;		/* copied so far, for stats */
	unsigned misses;	/* decoder reads the spec did not cover */
	/* The first string that ran into unreadable memory before its NUL
	 * (strace warns of it): where, bytes read, bytes wanted, errno. */
	uint64_t cut_str_addr;
	uint32_t cut_str_got, cut_str_want;
	int cut_str_errno;
};

/* Reads tracee memory for the engine; returns bytes read or -1. */
typedef long (*sc_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* ---- formatting options (-s -v -x -y -X) --------------------------------- */

struct sc_fmt {
	unsigned strsize;	/* -s: max string bytes printed (default 32) */
	bool verbose;		/* -v: print structs and arrays whole */
	bool by_addr;		/* -e verbose=!NAME: structs print as their address */
	int xflag;		/* -x: 1 non-ascii strings in hex, 2 (-xx) all in hex,
				   3 (--strings-in-hex=non-ascii-chars) non-ascii bytes as \xNN */
	int yflag;		/* -y: 1 fd paths, 2 (-yy) also socket details */
	unsigned decode_fds;	/* --decode-fds kinds (SC_DFD_* in opts.h), 0 if not given */
	bool raw_ret_hex;	/* not used yet */
	/* Path of fd in tid (for -y); returns length or -1. NULL: no -y. */
	int (*fd_path)(void *ctx, pid_t tid, int fd, char *buf, size_t len);
	/* Optional, for -P: what fd links to in /proc, from the mode's own record (--kernel's); ctx fd_ctx. */
	int (*fd_target)(void *ctx, pid_t tid, int fd, char *buf, size_t len);
	void *fd_ctx;
	unsigned decode_pids;	/* --decode-pids= bits (session.h): pid comments, -Y comm */
	/* NETLINK_* protocol of fd in tid, or -1 (not netlink); NULL: unknown. */
	int (*nl_proto)(pid_t tid, int fd);
};

/* ---- one call ------------------------------------------------------------ */

/* How the return value prints, set by a decoder in c->rv. */
enum sc_rv {
	SC_RV_DEC = 0,		/* default: signed decimal, -1 ERRNO (text) on error */
	SC_RV_HEX,		/* 0x7f... (mmap, brk) */
	SC_RV_OCT,		/* 022 (umask) */
	SC_RV_UDEC,
	SC_RV_FD,		/* a new descriptor: -y prints its path */
	SC_RV_NONE,		/* "= ?" (exit, exit_group, rt_sigreturn when no return) */
	SC_RV_RAW,		/* -e raw=: the value in hex, whatever the call */
	SC_RV_TID,		/* a pid (print_pid.h): gettid, clone */
	SC_RV_TGID,		/* getpid, fork, wait4 */
	SC_RV_PGID,		/* getpgrp, getpgid */
	SC_RV_SID,		/* getsid */
	SC_RV_UDEC_NF,		/* unsigned, and never an error: the call cannot fail (getuid) */
};

/* Return value of a decoder at entry: nothing left to print at exit but the return value. */
#define SC_DONE 1

struct sc_call {
	pid_t tid;
	long nr;
	const struct sc_entry *ent;
	uint64_t args[6];
	uint64_t sp;		/* user stack pointer at entry (rt_sigreturn's frame) */
	int64_t ret;		/* raw: -errno on failure */
	bool entering;
	bool has_ret;		/* exit was seen */
	bool done_at_entry;	/* the decoder printed everything at entry */

	struct strbuf *out;	/* the line being built */
	const struct sc_fmt *fmt;
	struct sc_snapshot mem;

	/* Set by the decoder. */
	enum sc_rv rv;
	char rv_extra[512];	/* printed after the value: "(flags O_RDWR)" */
	void *priv;		/* decoder's own state between entry and exit (freed by engine) */
	long resumes;		/* restart_syscall: the call it resumes (-1: unknown) */
};

#define SC_DECODER(fn, ...)							\
	static int sc_decode_##fn(struct sc_call *c);				\
	const struct sc_decoder sc_dec_##fn = {					\
		.name = #fn, .decode = sc_decode_##fn, .mem = { __VA_ARGS__ }	\
	};									\
	static int sc_decode_##fn(struct sc_call *c)

/*
 * The descriptors and paths (addresses of strings in the snapshot) -P
 * matches a call by.  Without .trace_args: the MEM_PATH arguments, and
 * argument 0 of a %desc call.
 */
struct sc_trace_args {
	int fd[3];
	int nfd;
	uint64_t path[2];
	int npath;
};

struct sc_decoder {
	const char *name;
	int (*decode)(struct sc_call *c);
	struct sc_mem_spec mem[SC_MEM_MAX + 1];
	/* -P: what the call names, when the generic rule (see sc_trace_args) is wrong for it. */
	void (*trace_args)(const struct sc_call *c, struct sc_trace_args *t);
};

/* SC_DECODER for a call whose -P arguments a function says (see .trace_args). */
#define SC_DECODER_FDS(fn, trace_fn, ...)					\
	static int sc_decode_##fn(struct sc_call *c);				\
	const struct sc_decoder sc_dec_##fn = {					\
		.name = #fn, .decode = sc_decode_##fn, .mem = { __VA_ARGS__ },	\
		.trace_args = (trace_fn)					\
	};									\
	static int sc_decode_##fn(struct sc_call *c)

/* ---- reading the snapshot ----------------------------------------------- */

/* Copy len bytes at addr from the snapshot: 0 when all were copied, -1 otherwise. */
int sc_mem_read(struct sc_call *c, uint64_t addr, void *buf, size_t len);
/*
 * Point at the bytes held at addr: returns the count available (up to len)
 * and sets *p, or -1 when the snapshot does not cover addr.
 */
long sc_mem_peek(struct sc_call *c, uint64_t addr, size_t len, const unsigned char **p);

/* True when the copy holding addr stopped at unreadable tracee memory. */
bool sc_mem_cut(struct sc_call *c, uint64_t addr);
/*
 * For an engine whose copies stop at their cap, not only at unreadable memory
 * (--kernel): copies that came short are not cut, but with keep_page_ends those
 * that end at a page's end (the kernel's reads stop there at unmapped memory,
 * and no cap of a record that was not truncated ends there short).
 */
void sc_mem_uncut(struct sc_call *c, bool keep_page_ends);

/* ---- the engine side: fill the snapshot from a spec ---------------------- */

void sc_mem_fetch(struct sc_call *c, unsigned when, sc_read_fn read, void *ctx);
/*
 * For a .walk_fn: copy len bytes at addr into the snapshot (what is readable
 * of them); returns the bytes held and points *p at them.
 */
size_t sc_walk_grab(struct sc_walk *w, uint64_t addr, size_t len, const unsigned char **p);
void sc_mem_reset(struct sc_snapshot *s);
void sc_mem_free(struct sc_snapshot *s);

/* ---- printing helpers ---------------------------------------------------- */

static inline bool sc_failed(const struct sc_call *c)
{
	return c->ret < 0 && c->ret > -4096;
}

void out(struct sc_call *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void p_sep(struct sc_call *c);				/* ", " */
void p_addr(struct sc_call *c, uint64_t addr);		/* NULL or 0x7ffd... */
void p_int(struct sc_call *c, uint64_t v);		/* as a C int */
void p_long(struct sc_call *c, uint64_t v);
void p_ulong(struct sc_call *c, uint64_t v);
void p_hex(struct sc_call *c, uint64_t v);
void p_oct(struct sc_call *c, uint64_t v);		/* 0644 */
void p_fd(struct sc_call *c, uint64_t fd);
/* "<comm>" quoted as strace quotes it ('<' and '>' escaped too). */
void sb_comm(struct strbuf *sb, const char *comm, size_t n);		/* 3, or 3</etc/passwd> with -y */
void p_dirfd(struct sc_call *c, uint64_t fd);		/* AT_FDCWD or p_fd */
void p_path(struct sc_call *c, uint64_t addr);		/* "/etc/passwd" or the address */
void p_str(struct sc_call *c, uint64_t addr);		/* NUL-terminated, up to -s */
void p_str_max(struct sc_call *c, uint64_t addr, size_t max);	/* ... and up to max bytes */
/* len bytes of a buffer, quoted, "..." when longer than -s; the address if not held. */
void p_buf(struct sc_call *c, uint64_t addr, int64_t len);
/* At exit: the buffer when the call succeeded, else its address. */
void p_buf_or_addr(struct sc_call *c, uint64_t addr, int64_t len);
/* Quote raw bytes as strace does (escapes, -x); ellipsis appends "...". */
void p_quoted(struct sc_call *c, const unsigned char *s, size_t n, bool ellipsis);
void p_flags(struct sc_call *c, const struct xlat *x, uint64_t v, const char *dflt);
void p_xval(struct sc_call *c, const struct xlat *x, uint64_t v, const char *dflt);
/*
 * A value whose names come from several tables (a type and its flags, as in
 * mmap's MAP_PRIVATE|MAP_ANONYMOUS): -X raw prints it as one number, -X
 * verbose the number and then abbrev's names in a comment, like strace.
 */
void p_compound(struct sc_call *c, uint64_t v, void (*abbrev)(struct sc_call *c, uint64_t v));
/*
 * The bytes of an extensible struct (open_how, clone_args) past the part
 * known, from offset known to size: nothing when all are zero, ", ???" when
 * unreadable, else ", /\* bytes K..N *\/ "\x.."" as strace shows them.
 */
void p_struct_tail(struct sc_call *c, uint64_t addr, size_t known, uint64_t size);
#define SC_STRUCT_TAIL_MAX 4096	/* bytes of a struct looked at, as strace (a page) */
/* Read a struct into buf; prints the address and returns -1 when not held. */
int p_fetch(struct sc_call *c, uint64_t addr, void *buf, size_t len);
void p_strv(struct sc_call *c, uint64_t addr);		/* ["ls", "-l"] */
void p_strv_count(struct sc_call *c, uint64_t addr);	/* envp without -v: 0x7ffd... /\* 23 vars *\/ */
void p_iov(struct sc_call *c, uint64_t addr, uint64_t cnt, int64_t data_len);
/* p_iov's data_len for a call that failed: the buffers by address. */
#define SC_IOV_ADDR_ONLY INT64_MIN
/*
 * True once the line holds SC_LINE_MAX bytes (or 16 strings of -s, if more).
 * Array printers check it before each element and end with "...": vectors of
 * vectors (1024 messages of 1024 iovecs with control data) from a hostile
 * tracee cannot make one line unbounded, -v or not.
 */
#define SC_LINE_MAX (1u << 20)
bool p_line_full(const struct sc_call *c);
/* Elements of an iovec or mmsghdr vector printed at most, even with -v: UIO_MAXIOV. */
#define SC_VEC_MAX 1024u
void p_msghdr(struct sc_call *c, uint64_t addr, int64_t data_len);
void p_sockaddr(struct sc_call *c, uint64_t addr, int64_t len);
void p_sigset(struct sc_call *c, uint64_t addr, uint64_t size);
void p_sigset_val(struct sc_call *c, const uint64_t *words, size_t nbytes);
void p_signal(struct sc_call *c, uint64_t sig);		/* SIGINT or 100 */
void p_timespec(struct sc_call *c, uint64_t addr);
void p_timeval(struct sc_call *c, uint64_t addr);
void p_mode(struct sc_call *c, uint64_t mode);		/* S_IFREG|0644 or 0644 */
void p_dev(struct sc_call *c, uint64_t dev);		/* makedev(0x8, 0x1) */
void p_errno_ret(struct sc_call *c);			/* for tests */

/* Signal and errno names, shared with the engine's -e signal= and summary. */
const char *sc_signame(int sig);	/* "SIGINT", or NULL */
int sc_sig_by_name(const char *name);	/* 2 for "SIGINT" or "INT", -1 */
const char *sc_errname(int err);	/* "ENOENT", or NULL */
int sc_err_by_name(const char *name);

#endif

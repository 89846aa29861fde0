/*
 * probe_def: one dynamic probe definition, parsed from the kernel's
 * kprobe_events/uprobe_events grammar, and the evaluator of its fetch
 * arguments.  Both backends use this: the kernel backend translates a
 * probe_def to uprobe_events text; the ptrace backend evaluates the fetch
 * args itself at each hit with pd_format_args().
 *
 *   p[:[GRP/]EVENT] [MOD:]SYM[+OFFS]|MEMADDR [FETCHARGS]        kernel probe
 *   r[MAXACTIVE][:[GRP/]EVENT] [MOD:]SYM[+0] [FETCHARGS]        kernel return probe
 *   p[:[GRP/]EVENT] PLACE%return [FETCHARGS]                    return probe (either target)
 *   p[:[GRP/]EVENT] PATH:SYMBOL[+OFFS]|PATH:OFFSET [FETCHARGS]  user probe (r: return)
 *   p[:[GRP/]EVENT] PATH:%PROVIDER:NAME [FETCHARGS]             USDT (sys/sdt.h) probe
 *
 *   FETCHARGS: [NAME=]FETCHARG[:TYPE] ...
 *   FETCHARG:  %REG | @ADDR | @SYM[+|-OFFS] | @+FILEOFFS | $stackN | $stack | $retval |
 *              $comm | $argN | \IMM | +|-[u]OFFS(FETCHARG)
 *   TYPE:      u8..u64 s8..s64 x8..x64 char string ustring symbol b<W>@<O>/<S>, TYPE[N]
 *
 * and perf probe's syntax, without the p/r head (cform), args in C (cexpr.h)
 * made into fetch args by pd_resolve() through BTF or DWARF (cresolve.h):
 *
 *   FUNC[%return] | PATH:FUNC[%return] | PATH:FUNC:N | PATH:FILE:LINE  [ARGS]
 *   ARGS:      [NAME=]EXPR[:TYPE] (EXPR: var->member.member[N], $retval, $current->comm)
 *              or any FETCHARGS above; C args are taken in the p/r form too
 *
 * This header is the contract with the ptrace engine (src/probe/ptrace/): keep
 * it stable; add, do not change.
 */
#ifndef TRACEKIT_PROBE_PROBE_DEF_H
#define TRACEKIT_PROBE_PROBE_DEF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/user.h>

struct strbuf;
struct cx_expr;

enum pd_kind {
	PD_ENTRY,		/* p: */
	PD_RETURN,		/* r: */
};

enum pd_target {
	PD_KERNEL,		/* SYM[+OFFS], MOD:SYM, MEMADDR */
	PD_USER,		/* PATH:SYMBOL[+OFFS], PATH:OFFSET, PATH:%provider:name */
};

enum pd_fetch_op {
	PD_F_REG,		/* %REG: reg = byte offset in struct user_regs_struct */
	PD_F_MEM,		/* @ADDR: value at absolute address addr */
	PD_F_SYM,		/* @SYM+-OFFS: value at symbol sym + offs (addr once resolved) */
	PD_F_FILEOFF,		/* @+OFFS: value at file offset offs of the probed file (user) */
	PD_F_STACKN,		/* $stackN: n-th word on the stack, index n */
	PD_F_STACK,		/* $stack: the stack pointer */
	PD_F_RETVAL,		/* $retval: return value (return probes only) */
	PD_F_COMM,		/* $comm: the task's comm (a string) */
	PD_F_ARGN,		/* $argN: N-th function argument (x86_64 ABI), index n (1-based) */
	PD_F_IMM,		/* \IMM: the immediate value imm */
	PD_F_DEREF,		/* +|-[u]OFFS(child): value at child's value + offs */
};

struct pd_fetch {
	enum pd_fetch_op op;
	unsigned reg;		/* PD_F_REG: offsetof(struct user_regs_struct, field) */
	char reg_name[8];	/* PD_F_REG: the name as the kernel spells it ("di", "r8") */
	unsigned n;		/* PD_F_STACKN, PD_F_ARGN */
	int64_t offs;		/* PD_F_SYM, PD_F_FILEOFF, PD_F_DEREF */
	uint64_t imm;		/* PD_F_IMM */
	char *sym;		/* PD_F_SYM: the symbol's name */
	/*
	 * PD_F_MEM: the address.  PD_F_SYM/PD_F_FILEOFF once resolved
	 * (pd_resolve): the link-time virtual address, offs included; at run
	 * time it is this + pd_ctx.load_bias.
	 */
	uint64_t addr;
	bool resolved;		/* PD_F_SYM/PD_F_FILEOFF: addr is set */
	bool user;		/* PD_F_DEREF: +u form (user memory from a kernel probe) */
	struct pd_fetch *child;	/* PD_F_DEREF */
	int col;		/* 1-based column of this fetch in the spec text */
};

enum pd_type_kind {
	PD_T_U,			/* u8..u64: decimal */
	PD_T_S,			/* s8..s64: signed decimal */
	PD_T_X,			/* x8..x64: 0x hex */
	PD_T_CHAR,		/* 'c' */
	PD_T_STRING,		/* "text" (NUL-terminated, read from the fetched address) */
	PD_T_USTRING,		/* "text" from user memory */
	PD_T_SYMBOL,		/* sym+0xoff/0xsize, or the hex address when unknown */
	PD_T_BITFIELD,		/* b<W>@<O>/<S>: decimal, unsigned */
};

struct pd_type {
	enum pd_type_kind kind;
	unsigned size;		/* bytes read/kept: 1, 2, 4, 8 (container for bitfields; 8 for symbol) */
	unsigned bf_width;	/* PD_T_BITFIELD: W bits ... */
	unsigned bf_offset;	/* ... at bit offset O in the container of size S/8 bytes */
	unsigned array;		/* TYPE[N]: N (0 for a scalar) */
	bool given;		/* written in the spec (else the default: x64, string for $comm) */
};

struct pd_arg {
	char *name;		/* NAME= or the default "argN" (1-based position) */
	struct pd_fetch *fetch;
	struct pd_type type;
	char *text;		/* the arg as written ("len=%si:u64") */
	int col;		/* 1-based column where the arg starts */
	/*
	 * An arg written in C (file->f_path.dentry, r->id, $current->comm):
	 * fetch is NULL until pd_resolve() builds it, and the type (unless
	 * given) from BTF (kernel) or DWARF (programs).  See cexpr.h.
	 */
	struct cx_expr *cexpr;
	/*
	 * $current->pid on a kernel whose fetch args cannot reach current
	 * (6.1): no fetch arg is written; the value is the event's own pid,
	 * put in by whoever prints the line.
	 */
	bool from_event_pid;
};

struct probe_def {
	enum pd_kind kind;
	enum pd_target target;
	unsigned maxactive;	/* r<N>: (kernel return probes), 0 = default */
	char *group;		/* NULL when not given */
	char *event;		/* NULL when not given */

	/* Where: user probes */
	char *path;		/* the binary or library */
	char *usdt_provider;	/* PATH:%provider:name, else NULL */
	char *usdt_name;
	/* Where: kernel probes */
	char *module;		/* MOD: or NULL */
	/* Where: both */
	char *symbol;		/* NULL for an address/offset probe */
	int64_t offset;		/* +OFFS after symbol */
	uint64_t address;	/* MEMADDR (kernel) or OFFSET (user, a file offset as the kernel means it) */
	bool has_address;	/* address given instead of a symbol */

	/* Filled by pd_resolve() for user probes */
	bool resolved;
	uint64_t vaddr;		/* link-time virtual address of the probe point */
	uint64_t file_offset;	/* its offset in the file (what uprobe_events wants) */
	uint64_t func_vaddr;	/* the symbol's own address (== vaddr - offset) */
	uint64_t ref_ctr_offset; /* USDT semaphore's file offset, 0 if none */

	struct pd_arg *args;
	size_t nargs;
	char *text;		/* the whole spec as given */

	/*
	 * perf probe's places (the spec has no p/r head): PATH:FUNC:N is line
	 * N of FUNC (counted from the line of its name), PATH:FILE:LINE a
	 * line of a source file; resolved through DWARF.
	 */
	bool cform;		/* written in perf probe's syntax */
	char *src_file;		/* FILE of FILE:LINE, else NULL */
	unsigned src_line;	/* N of FUNC:N or LINE of FILE:LINE; 0 for none */
	bool has_line;
	/* What pd_resolve() learned that a user should see (-n -v): where a probe moved. */
	char *note;
};

/* Where a parse went wrong: a 1-based column in the spec and one short phrase. */
struct pd_error {
	int col;
	char msg[200];
};

/*
 * Parse one definition.  0, or -1 with err set (column + message, e.g. col 23
 * "unknown type 'u9' (u8, u16, u32, u64, s8.., x8.., char, string, ustring,
 * symbol, b<W>@<O>/<S>)").  The def is empty on failure.  Never reads beyond
 * the NUL, never crashes on any input (fuzzed).
 */
int pd_parse(const char *spec, struct probe_def *def, struct pd_error *err);
void pd_free(struct probe_def *def);
/* "SPEC: column N: MSG" in out, one line, for error messages. */
void pd_error_line(const char *spec, const struct pd_error *err, char *out, size_t outlen);

/*
 * Resolve a user probe through the ELF file: symbol (+offset) to link-time
 * vaddr and file offset (the instruction boundary checked), USDT notes to
 * their place, args and semaphore, @SYM/@+OFFS fetches to vaddrs.  0, or -1
 * with one line in err ("symbol 'pars_line' not found in /bin/x (did you mean
 * parse_line?)").  Kernel probes are left alone (returns 0).
 */
int pd_resolve(struct probe_def *def, char *err, size_t errlen);

/*
 * The state of one hit, for evaluating fetch args (ptrace backend, and unit
 * tests with a fake memory).
 */
struct pd_ctx {
	/* At an entry hit, rip is the probe's address (not past the int3). */
	const struct user_regs_struct *regs;
	bool is_return;		/* a return probe's hit: regs at the return site */
	uint64_t retval;	/* $retval (rax at return) */
	uint64_t func;		/* run-time address of the probed function (return probes) */
	uint64_t ret_ip;	/* where it returned to (return probes) */
	const char *comm;	/* $comm */
	/* run-time address minus link-time address of the probed object (PIE, shared libs) */
	uint64_t load_bias;
	/* Read len bytes at addr of the traced task; <0 on a fault. */
	int (*read)(void *opaque, uint64_t addr, void *buf, size_t len);
	/*
	 * Append "name+0xoff/0xsize" for addr to out; <0 when addr is in no known
	 * symbol (the hex address is printed then).  NULL: always the hex address.
	 */
	int (*symbolize)(void *opaque, uint64_t addr, struct strbuf *out);
	void *opaque;
};

/* Evaluate one fetch tree to a 64-bit value; -1 on a fault (unreadable memory, $retval at entry). */
int pd_eval(const struct pd_fetch *f, const struct pd_ctx *ctx, uint64_t *val);

/*
 * The args as the kernel's trace output prints them: " name=value" for each
 * arg (each preceded by one space, like the kernel's print fmt), values as
 * the kernel prints their type (u: %llu, s: %lld, x: 0x%llx, char: 'c',
 * strings in double quotes, unescaped, arrays {a,b,c}); where a value could
 * not be read, (fault) for a string and 0 for a number, as the kernel prints.
 */
void pd_format_args(const struct probe_def *def, const struct pd_ctx *ctx, struct strbuf *out);

/*
 * The part before the args, as uprobes print it: "(0xIP)" for an entry probe,
 * "(0xRET_IP <- 0xFUNC)" for a return probe.
 */
void pd_format_head(const struct probe_def *def, const struct pd_ctx *ctx, struct strbuf *out);

/* Default group when none is given: "uprobes" / "kprobes", as the kernel. */
const char *pd_default_group(const struct probe_def *def);

#endif

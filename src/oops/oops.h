/*
 * tracekit oops: the model of a decoded kernel report (oops, panic, BUG,
 * WARNING, KASAN, lockup, stall ...) and the engine's API.
 *
 *	text --oops_lines_from_text--> lines (prefixes stripped, wraps joined)
 *	     --oops_parse-------------> reports (kind, registers, frames, code)
 *	     --oops_symbolize---------> file:line, inlined frames, addresses
 *	     --oops_print_text/json---> output
 *
 * Addresses are uint64_t; "has_" flags say whether the log had the fact, so
 * the JSON can say null for what a report lacks.
 */
#ifndef TRACEKIT_OOPS_OOPS_H
#define TRACEKIT_OOPS_OOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/strbuf.h"

/* ---- input lines ------------------------------------------------------ */

/* One log line with its prefixes (timestamp, level, syslog, caller id) removed. */
struct oops_line {
	char *text;
	char caller[16];	/* printk caller id ("T1234", "C3"), "" when none */
	bool prefixed;		/* the raw line had a timestamp/level/syslog prefix */
};

struct oops_lines {
	struct oops_line *v;
	size_t n, cap;
};

/* Split text into lines, strip prefixes, join lines a mail client wrapped. */
void oops_lines_from_text(struct oops_lines *ls, const char *text, size_t len);
void oops_lines_free(struct oops_lines *ls);
/* The text of one line after its prefixes; NULL when none was found.  For tests. */
const char *oops_strip_prefixes(const char *line, char *caller, size_t caller_size);

/* ---- the model -------------------------------------------------------- */

enum oops_kind {
	OK_NONE,
	OK_NULL_DEREF,
	OK_PAGE_FAULT,
	OK_GPF,
	OK_BUG,
	OK_INVALID_OPCODE,
	OK_DIVIDE,
	OK_OOPS,		/* an oops of another or unknown cause */
	OK_WARNING,
	OK_KASAN,
	OK_KCSAN,
	OK_UBSAN,
	OK_KFENCE,
	OK_LOCKDEP,
	OK_SOFT_LOCKUP,
	OK_HARD_LOCKUP,
	OK_RCU_STALL,
	OK_HUNG_TASK,
	OK_MIGHT_SLEEP,
	OK_ATOMIC_SLEEP,	/* scheduling while atomic */
	OK_PANIC,		/* a panic with no oops before it */
	OK_MEMLEAK,		/* kmemleak's unreferenced object */
	OK_OTHER,		/* a report only the syzkaller tables know (syz_table.c) */
};

/* What a kind leads to when the log says nothing more (see verdict.c). */
enum oops_class { OC_OOPS, OC_WARNING, OC_REPORT, OC_PANIC };

struct oops_kind_info {
	enum oops_kind kind;
	const char *name;	/* JSON "kind" */
	const char *title;	/* syzkaller-style title before " in FUNC" */
	enum oops_class cls;
};
const struct oops_kind_info *oops_kind_info(enum oops_kind k);

enum oops_section { OS_NONE, OS_TASK, OS_IRQ, OS_SOFTIRQ, OS_NMI, OS_EXCEPTION };
const char *oops_section_name(enum oops_section s);

/* A symbol reference as the kernel prints it: func+0xoff/0xsize [module]. */
struct oops_sym {
	char *function;		/* NULL when the log had only an address */
	uint64_t offset, size;
	bool has_offset;	/* +off/size was printed */
	char *module;		/* NULL for vmlinux */
	char *build_id;		/* the module's build id when printed (CONFIG_STACKTRACE_BUILD_ID) */
	uint64_t addr;		/* the runtime address printed ([<addr>]) or worked out */
	bool has_addr;
};

/* One source location: a function and its file:line. */
struct oops_loc {
	char *function;
	char *file;
	int line;
};

struct oops_frame {
	struct oops_sym sym;
	bool reliable;		/* no "?" before it */
	enum oops_section section;
	/* Resolved, or printed already decoded ("func (file:line ...)"): */
	char *file;
	int line;
	struct oops_loc *inlined;	/* inlined functions, innermost first */
	size_t ninlined;
	bool size_mismatch;	/* the ELF's symbol size differs from the printed one */
	uint64_t link_addr;	/* address in the ELF or System.map */
	bool has_link_addr;
};

struct oops_stack {
	char *name;		/* "Call Trace", "Allocated by task 12", "Freed by task 12" ... */
	struct oops_frame *frames;
	size_t nframes;
};

struct oops_reg {
	char name[8];
	uint64_t value;
};

struct oops_code {
	uint8_t *bytes;
	size_t nbytes;
	size_t marker;		/* index of the faulting instruction's first byte */
	bool has_marker;
	bool arm64;		/* the words of an arm64 Code: line, stored little-endian */
};

/* The struct member behind a NULL + offset address, as the DWARF tells it (member.c). */
struct oops_null_member {
	char *type;		/* "struct gadget" */
	char *member;		/* "flags", "stats.rx[2]" */
	char *variable;		/* the variable or parameter that pointed to it */
	char *reg;		/* the faulting instruction's base register holding it; NULL: */
				/* guessed from the offset alone among the function's variables */
	char **others;		/* other guesses, "struct gizmo.e (variable z)" */
	size_t nothers;
};
void oops_null_member_free(struct oops_null_member *m);

struct oops_report {
	enum oops_kind kind;
	char *headline;		/* the line that names the report */
	char *detail;		/* KASAN bug type, lockup duration, panic message ... */
	char *title;		/* syzkaller-style */
	char *arch;		/* "x86_64", "arm64", NULL when unknown */

	struct oops_sym where;	/* faulting function (RIP/pc, WARNING at, KASAN in) */
	bool has_where;
	char *src_file;		/* "kernel BUG at", "WARNING ... at", might_sleep "at" */
	int src_line;

	int cpu, pid;		/* -1 when unknown */
	char *comm;
	char *kernel;		/* release, e.g. 6.4.0-rc3+ */
	char *kernel_build;	/* "#49 PREEMPT(full)" */
	char *hardware;
	char *taint;		/* letters, "" for "Not tainted", NULL when not printed */
	char *workqueue;
	char *oops_line;	/* "Oops: 0000 [#1] PREEMPT SMP PTI" */
	int oops_count;		/* N of [#N], 0 when none */
	bool kdump_loaded;

	uint64_t address;	/* faulting data address */
	bool has_address;
	char *kasan_access;	/* "Read", "Write" */
	uint64_t kasan_size;
	uint64_t range_lo, range_hi;	/* KASAN: null-ptr-deref in range [lo-hi] */
	bool has_range;
	uint64_t pf_code;	/* x86 #PF error_code */
	bool has_pf_code;
	uint64_t esr;		/* arm64 ESR */
	bool has_esr;

	struct oops_reg *regs;
	size_t nregs;
	struct oops_code code;
	bool has_code;

	struct oops_stack *stacks;	/* stacks[0] is the call trace when nstacks > 0 */
	size_t nstacks;
	char **modules;		/* Modules linked in */
	size_t nmodules;
	char **message;		/* WARN text and other lines between "cut here" and the headline */
	size_t nmessage;

	char *panic_msg;	/* "Kernel panic - not syncing: X" -> X */
	uint64_t kaslr_offset;
	bool has_kaslr, kaslr_disabled;

	char *guilty;		/* function name of the guilty frame */
	char *guilty_module;
	char *verdict;		/* "panic", "oops", "warning", "report" */
	char *verdict_reason;

	/* Filled by oops_symbolize: */
	char *where_file;
	int where_line;
	struct oops_loc *where_inlined;
	size_t where_ninlined;
	uint64_t where_link_addr;
	bool has_where_link_addr;
	bool symbols_mismatch;	/* the symbol files do not match this kernel */
	char *symbols_note;	/* why, or what was used */
	struct oops_null_member *null_member;	/* NULL+offset's member, when DWARF tells */
	char *code_from;	/* the symbol file the Code bytes came from, when the log had none */

	bool ended;		/* past "---[ end trace" */
	size_t first_line;	/* the headline's index in the lines parsed */
};

struct oops_reports {
	struct oops_report *v;
	size_t n, cap;
};

/* Find and parse every report in lines.  Returns the number found. */
size_t oops_parse(struct oops_reports *rs, const struct oops_lines *ls);
void oops_reports_free(struct oops_reports *rs);
/* The call trace (stacks[0]) or NULL. */
const struct oops_stack *oops_main_stack(const struct oops_report *r);

/* ---- pieces used by the parser (one file each) ------------------------- */

/*
 * kinds.c: the kind a line announces (OK_NONE if none).  *follower is set for
 * lines that continue an open report ("Oops: 0000 [#1]", "invalid opcode",
 * "Kernel panic") and start one only when none is open.
 */
enum oops_kind oops_match_headline(const char *line, bool *follower);
/* frames.c: parse "func+0x1/0x2 [mod]" etc.; 0 on success. */
int oops_parse_frame(const char *line, struct oops_frame *f);
int oops_parse_sym(const char *s, struct oops_sym *sym, const char **end);
void oops_frame_free(struct oops_frame *f);
void oops_sym_free(struct oops_sym *s);
void oops_loc_free(struct oops_loc *l, size_t n);
/* regs.c: register lines; true when the line was one. */
bool oops_parse_regs(struct oops_report *r, const char *line);
/* code.c */
int oops_parse_code(const char *text, struct oops_code *code, bool arm64);
/*
 * Disassemble a report's Code: bytes into sb, the faulting instruction marked.
 * addr is the faulting instruction's address (or 0), label prints before each
 * offset ("func" -> "func+0x1c0").  Returns -1 when capstone fails.
 */
int oops_disassemble(const struct oops_report *r, struct strbuf *sb);
/* text with each Itanium-mangled C++ name (_Z...) demangled, without its parameters (demangle.c). */
char *oops_demangle_names(const char *text);
/* One instruction at the marker, "cmp byte ptr [rax + 4], 0"; for tests. */
int oops_code_fault_insn(const struct oops_report *r, char *out, size_t outsz);

/* tables.c */
const char *oops_taint_meaning(char letter);
/* A phrase for an x86 #PF error code ("not-present page, read, kernel mode"). */
void oops_pf_explain(uint64_t code, struct strbuf *sb);
void oops_esr_explain(uint64_t esr, struct strbuf *sb);
/* What a faulting address suggests (NULL+off, list poison ...), NULL if nothing. */
void oops_address_explain(const struct oops_report *r, struct strbuf *sb);

/* guilty.c */
bool oops_is_helper(const char *function);
void oops_choose_guilty(struct oops_report *r);
/* verdict.c */
void oops_decide_verdict(struct oops_report *r);
/* r comes before p, whose panic took the kernel down. */
void oops_verdict_panicked_later(struct oops_report *r, const struct oops_report *p);

/* ---- symbols ---------------------------------------------------------- */

struct oops_symopts {
	const char *vmlinux;
	const char *modules_dir;
	const char *system_map;
	const char *kallsyms;	/* a kallsyms file; "/proc/kallsyms" when the kernel matches */
	const char *debug_dir;	/* root of .build-id and boot/vmlinux-VERSION (/usr/lib/debug) */
	bool auto_find;		/* look in the standard places when not told */
	bool quiet;
};

/* Resolve frames of every report; notes in each report. 0, or -1 with err set. */
int oops_symbolize(struct oops_reports *rs, const struct oops_symopts *o, char *err, size_t errsz);

/* ---- input ------------------------------------------------------------ */

/* The kernel log from /dev/kmsg (what is there now, without waiting) as text lines. */
int oops_read_kmsg(const char *path, struct strbuf *out, char *err, size_t errsz);
/* The dmesg records a pstore directory holds, oldest part first. */
int oops_read_pstore(const char *dir, struct strbuf *out, char *err, size_t errsz);

/* ---- output ----------------------------------------------------------- */

void oops_print_text(const struct oops_reports *rs, FILE *f);
void oops_print_json(const struct oops_reports *rs, FILE *f);

#endif

/*
 * Constant tables (flags, errno, signals, ...).  Each is written as data in
 * xlat/NAME.in, one constant per line, and turned into a sorted C table at
 * build time; the printers below look values up by table, never by switch.
 */
#ifndef TRACEKIT_SYSCALLS_XLAT_H
#define TRACEKIT_SYSCALLS_XLAT_H

#include <stddef.h>
#include <stdint.h>

#include "util/strbuf.h"

struct xlat_entry {
	uint64_t val;
	const char *str;
};

struct xlat {
	const char *name;
	const struct xlat_entry *e;
	size_t n;
};

/* strace's -X: names (abbrev, the default), numbers (raw), or both (verbose). */
enum xlat_style { XLAT_STYLE_ABBREV, XLAT_STYLE_RAW, XLAT_STYLE_VERBOSE };
extern enum xlat_style xlat_style;

/* The name of val exactly, or NULL. */
const char *xlat_str(const struct xlat *x, uint64_t val);
/* The value of a name, 0 on success, -1 if absent. */
int xlat_val(const struct xlat *x, const char *str, uint64_t *val);

/*
 * Print val as its constant name; when unknown, in hex followed by dflt as a
 * comment (strace's "0x40 /\* MAP_??? *\/"), or plain hex when dflt is NULL.
 * Returns 1 when a name was printed.
 */
int sb_xlat(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt);
/*
 * Print val as FLAG1|FLAG2|0x40 (unknown bits in hex), or "0" when val is 0
 * and no entry is 0.  dflt names the unknown-bits style as in strace: NULL
 * prints the remaining bits in hex.
 */
void sb_flags(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt);

/*
 * A value strace prints from parts (PR_SVE_VL_INHERIT|0x40, a QCMD(), a
 * shifted field): parts() writes them in the default style; -X raw prints the
 * number instead, -X verbose the number with the parts as a comment.
 */
typedef void (*sb_parts_fn)(struct strbuf *sb, uint64_t val, const void *arg);
void sb_xparts(struct strbuf *sb, uint64_t val, sb_parts_fn parts, const void *arg);
/*
 * The same with the number printed as how says (SB_XP_*), and with
 * SB_XP_KEEP_STYLE the parts follow -X too (IOPRIO_PRIO_VALUE(0 /\* ... *\/, 4)).
 */
enum { SB_XP_HEX = 0, SB_XP_UDEC = 1, SB_XP_DEC = 2, SB_XP_KEEP_STYLE = 4 };
void sb_xparts_how(struct strbuf *sb, uint64_t val, unsigned how, sb_parts_fn parts,
		   const void *arg);
/* sb_xlat for a signed value printed in decimal: -1 /\* PR_SET_PTRACER_ANY *\/ */
int sb_xlat_d(struct strbuf *sb, const struct xlat *x, int64_t val, const char *dflt);

/* The generated tables: extern const struct xlat xlat_<file>; */
#include "xlat_tables.h"

#endif

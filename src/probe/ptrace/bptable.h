/*
 * bptable: one process's breakpoints, by address (open addressing: the
 * table is looked up at every hit).  Several probes share one breakpoint.
 * Entries are never deleted: a removed breakpoint stays as a tombstone, so
 * a thread that trapped on it just before it went is recognised and resumed.
 */
#ifndef TRACEKIT_PROBE_PTRACE_BPTABLE_H
#define TRACEKIT_PROBE_PTRACE_BPTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "xol.h"

struct tk_probe;

struct bp {
	uint64_t addr;
	uint8_t code[XOL_INSN_MAX + 1];	/* the original bytes */
	struct xol_insn insn;
	struct xol_slot slot;
	uint64_t slot_addr;
	struct tk_probe **probes;
	unsigned n, cap;
	uint64_t dev, ino;	/* the file mapped here when placed (0, 0: none) */
	bool internal;		/* the dynamic linker's r_brk: libraries come and go */
	bool removed;		/* the original byte is back */
	bool has_post, has_ret;
};

struct bptable {
	struct bp **slot;
	size_t cap, n;
};

struct bp *bpt_get(const struct bptable *t, uint64_t addr);
/* The entry for addr, added zeroed when absent. */
struct bp *bpt_add(struct bptable *t, uint64_t addr);
/* dst (empty) becomes a deep copy of src: a forked child's breakpoints. */
void bpt_copy(struct bptable *dst, const struct bptable *src);
void bpt_free(struct bptable *t);

void bp_add_probe(struct bp *b, struct tk_probe *p);
bool bp_has_probe(const struct bp *b, const struct tk_probe *p);
/* Remove p; true when it was there. */
bool bp_del_probe(struct bp *b, const struct tk_probe *p);

#define bpt_foreach(t, b) \
	for (size_t i_##b = 0; i_##b < (t)->cap; i_##b++) \
		for (struct bp *b = (t)->slot[i_##b]; b; b = NULL)

#endif

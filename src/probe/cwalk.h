/*
 * cwalk: a C expression's chain (cexpr.h) walked through a type graph into a
 * fetch-arg tree and its type.  The graph is BTF's (kernel probes,
 * btfexpr.c) or DWARF's (programs, dwexpr.c); both answer the few questions
 * below, so the walk, the offsets, the choice of type (u32, s64, string for
 * char *, bitfields, arrays) and the messages ("struct file has no member
 * f_paht; did you mean f_path?") are one piece of code.
 */
#ifndef TRACEKIT_PROBE_CWALK_H
#define TRACEKIT_PROBE_CWALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/cexpr.h"
#include "probe/probe_def.h"
#include "util/editdist.h"

enum cw_kind {
	CW_INT,			/* integers, bool, char */
	CW_ENUM,
	CW_PTR,
	CW_STRUCT,		/* struct or union */
	CW_ARRAY,
	CW_FLOAT,
	CW_VOID,
	CW_OTHER,		/* functions, ... */
};

/* One type, typedefs and qualifiers peeled off. */
struct cw_type {
	enum cw_kind kind;
	uint64_t id;		/* the backend's handle of the peeled type */
	unsigned size;		/* bytes (0 unknown) */
	bool is_signed;
	bool is_char;		/* a 1-byte character type (char *: a string) */
	uint64_t target;	/* CW_PTR: pointee, CW_ARRAY: element (unpeeled handles) */
	bool target_void;	/* CW_PTR: void * */
	uint64_t nelems;	/* CW_ARRAY */
	char name[96];		/* "struct file", "int", "char *" for messages */
};

/* A member found by name (through anonymous structs and unions). */
struct cw_member {
	uint64_t type;		/* unpeeled handle */
	uint64_t bit_offset;	/* from the start of the containing struct */
	unsigned bit_size;	/* bitfields: the width, else 0 */
};

struct cw_ops {
	/* Describe handle id (peeling typedefs, const, volatile); -1 when unknown. */
	int (*type)(void *be, uint64_t id, struct cw_type *out);
	/*
	 * Find member name in struct type st; 0 found, -1 not, with the member
	 * names offered to c (closest_offer) for the "did you mean".
	 */
	int (*member)(void *be, const struct cw_type *st, const char *name, struct cw_member *out,
		      struct closest *c);
	void *be;
};

/* Where the walk starts: the variable's value. */
struct cw_start {
	/*
	 * In a register or a constant: fetch is its value.  In memory: fetch
	 * (may be NULL for an absolute address) + offs is where it lies.
	 */
	bool in_memory;
	struct pd_fetch *fetch;	/* taken over by cw_walk */
	int64_t offs;
	uint64_t type;		/* the variable's type handle */
	const char *what;	/* its name for messages: "file", "$retval" */
};

/*
 * Walk e's steps from start; on success a->fetch and a->type (unless given)
 * are set.  -1 with one line in err otherwise.
 */
int cw_walk(const struct cw_ops *ops, struct cw_start *start, const struct cx_expr *e,
	    struct pd_arg *a, char *err, size_t errlen);

/* A fetch node (for the backends building start). */
struct pd_fetch *cw_fetch_new(enum pd_fetch_op op);
void cw_fetch_free(struct pd_fetch *f);

#endif

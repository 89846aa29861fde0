/*
 * cexpr: the C expressions a probe argument may be written in, as perf probe
 * takes them: a variable (a parameter or a local) followed by member
 * accesses and array indexes,
 *
 *	file->f_path.dentry->d_name.name     r->st.bytes     argv[1]     $retval->len
 *	$current->comm
 *
 * Only the syntax lives here; what the names mean comes from BTF (kernel,
 * btfexpr.c) or DWARF (programs, dwexpr.c), and cwalk.c turns the chain into
 * fetch args.  The parser is fuzzed (tests/fuzz/fuzz_cexpr.c).
 */
#ifndef TRACEKIT_PROBE_CEXPR_H
#define TRACEKIT_PROBE_CEXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cx_base {
	CX_VAR,			/* a parameter or local variable by name */
	CX_RETVAL,		/* $retval: the function's return value */
	CX_CURRENT,		/* $current: the running task (kernel probes) */
};

enum cx_step_kind {
	CX_ARROW,		/* ->member */
	CX_DOT,			/* .member */
	CX_INDEX,		/* [N] */
};

struct cx_step {
	enum cx_step_kind kind;
	char *name;		/* CX_ARROW, CX_DOT */
	uint64_t index;		/* CX_INDEX */
	int col;		/* 0-based offset of the step in the expression text */
};

struct cx_expr {
	enum cx_base base;
	char *var;		/* CX_VAR: the variable's name */
	struct cx_step *steps;
	size_t nsteps;
	char *text;		/* the expression as written */
};

/* A C expression starts like this (a raw fetch arg never does). */
bool cx_starts(const char *p, size_t len);

/*
 * Parse exactly [p, p+len).  0, or -1 with the 0-based offset of the problem
 * in *errpos and one short phrase in msg.  e is empty on failure.
 */
int cx_parse(const char *p, size_t len, struct cx_expr *e, int *errpos, char *msg, size_t msglen);
void cx_free(struct cx_expr *e);

/*
 * The argument name perf probe gives it: the last member ("name" for
 * file->f_path.dentry->d_name.name), the variable for a bare one, with
 * "_N" for each index after it; NULL for $retval (the caller's argN).
 */
void cx_default_name(const struct cx_expr *e, char *out, size_t outlen);

/* The expression up to (not including) step n, for messages ("file->f_path"). */
void cx_prefix(const struct cx_expr *e, size_t n, char *out, size_t outlen);

#endif

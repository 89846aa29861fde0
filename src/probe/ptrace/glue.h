/*
 * glue: parsed probe definitions (src/probe/probe_def.h, the grammar shared
 * with the kernel backend) as ptrace probes whose hits print the kernel's
 * trace lines:
 *
 *   myapp-1234  [001] 5021.123456: myapp/parse: (0x55d1c0a01139) line="abc" len=3
 *
 * Built when src/probe/probe_def.h is in the tree (the grammar's branch).
 */
#ifndef TRACEKIT_PROBE_PTRACE_GLUE_H
#define TRACEKIT_PROBE_PTRACE_GLUE_H

#include <stddef.h>
#include <stdio.h>

struct probe_def;
struct tk_session;
struct pg_set;

/*
 * One tk_probe per def (parsed and resolved by pd_resolve: user probes
 * only), registered in s; each hit prints one line to out.  NULL with err
 * when one cannot be registered (those before it are unregistered).
 */
struct pg_set *pg_register(struct tk_session *s, struct probe_def **defs, size_t n, FILE *out,
			   char *err, size_t errlen);
/* Unregister and free (the defs stay the caller's). */
void pg_free(struct tk_session *s, struct pg_set *g);

#endif

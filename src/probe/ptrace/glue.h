/*
 * glue: parsed probe definitions (src/probe/probe_def.h, the grammar shared
 * with the kernel backend) as ptrace probes whose hits print the kernel's
 * trace lines:
 *
 *        myapp-1234    [001] ..... 5021.123456: parse: (0x55d1c0a01139) line="abc" len=3
 *
 * (the latency-flags column is "....." : a tracer does not know them).  :symbol
 * args are named as the kernel backend names them (probe/hitline.h).
 */
#ifndef TRACEKIT_PROBE_PTRACE_GLUE_H
#define TRACEKIT_PROBE_PTRACE_GLUE_H

#include <stddef.h>

struct probe_def;
struct tk_session;
struct pg_set;

/* Called with each hit's line (no newline). */
typedef void (*pg_emit_fn)(const char *line, void *arg);

/*
 * One tk_probe per def (parsed and resolved by pd_resolve: user probes
 * only), registered in s; each hit gives emit one line.  NULL with err when
 * one cannot be registered (those before it are unregistered).
 */
struct pg_set *pg_register(struct tk_session *s, struct probe_def **defs, size_t n,
			   pg_emit_fn emit, void *arg, char *err, size_t errlen);
/* Unregister and free (the defs stay the caller's); s NULL: the session is freed already. */
void pg_free(struct tk_session *s, struct pg_set *g);

#endif

/* The bundled probe targets' libraries. */
#ifndef TRACEKIT_TEST_PROBE_LIB_H
#define TRACEKIT_TEST_PROBE_LIB_H

long lib_add(long a, long b);	/* libprobelib.so, linked */
long dl_mul(long a, long b);	/* libprobedl.so, dlopen()ed */

#endif

/* bench/ust.sh: the same event as an LTTng-UST tracepoint (int, string, long). */
#undef TRACEPOINT_PROVIDER
#define TRACEPOINT_PROVIDER bench

#undef TRACEPOINT_INCLUDE
#define TRACEPOINT_INCLUDE "./bench_lttng_tp.h"

#if !defined(_BENCH_LTTNG_TP_H) || defined(TRACEPOINT_HEADER_MULTI_READ)
#define _BENCH_LTTNG_TP_H

#include <lttng/tracepoint.h>

TRACEPOINT_EVENT(bench, request_done,
	TP_ARGS(int, id, const char *, path, long, usecs),
	TP_FIELDS(
		ctf_integer(int, id, id)
		ctf_string(path, path)
		ctf_integer(long, usecs, usecs)
	)
)

#endif

#include <lttng/tracepoint-event.h>

/* bench/ust.sh: the event all three programs fire, as a tracekit TRACE_EVENT. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM bench

#if !defined(_BENCH_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _BENCH_TRACE_H

#include <tracekit/tracepoint.h>

TRACE_EVENT(request_done,
	TP_PROTO(int id, const char *path, long usecs),
	TP_ARGS(id, path, usecs),
	TP_STRUCT__entry(__field(int, id) __string(path, path) __field(long, usecs)),
	TP_fast_assign(__entry->id = id; __assign_str(path); __entry->usecs = usecs;),
	TP_printk("id=%d path=%s usecs=%ld", __entry->id, __get_str(path), __entry->usecs));

#endif

#define TRACE_INCLUDE_FILE bench_trace
#include <tracekit/define_trace.h>

/* The tracepoint of a library loaded with dlopen (ust_lib.c). */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tktlib

#if !defined(_TKTLIB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TKTLIB_TRACE_H

#include <tracekit/tracepoint.h>

TRACE_EVENT(lib_call,
	TP_PROTO(long value),
	TP_ARGS(value),
	TP_STRUCT__entry(
		__field(long, value)
	),
	TP_fast_assign(
		__entry->value = value;
	),
	TP_printk("value=%ld", __entry->value)
);

#endif

#define TRACE_INCLUDE_FILE ust_lib_trace
#include <tracekit/define_trace.h>

/* The tracepoints of ust_prog: one event per field kind, an event class, a condition. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM tkt

#if !defined(_TKT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TKT_TRACE_H

#include <tracekit/tracepoint.h>

TRACE_EVENT(all_kinds,
	TP_PROTO(int i, unsigned long long u, const char *s, const char *tag,
		 const unsigned char *bytes, int nbytes),
	TP_ARGS(i, u, s, tag, bytes, nbytes),
	TP_STRUCT__entry(
		__field(int, i)
		__field(unsigned long long, u)
		__string(s, s)
		__array(char, tag, 8)
		__dynamic_array(unsigned char, bytes, nbytes)
	),
	TP_fast_assign(
		__entry->i = i;
		__entry->u = u;
		__assign_str(s);
		memset(__entry->tag, 0, sizeof(__entry->tag));
		strncpy(__entry->tag, tag, sizeof(__entry->tag) - 1);
		memcpy(__get_dynamic_array(bytes), bytes, nbytes);
	),
	TP_printk("i=%d u=%llu s=%s tag=%s bytes=%s", __entry->i, __entry->u, __get_str(s),
		  __entry->tag, __print_hex(__get_dynamic_array(bytes),
					    __get_dynamic_array_len(bytes)))
);

DECLARE_EVENT_CLASS(span,
	TP_PROTO(const char *what, int depth),
	TP_ARGS(what, depth),
	TP_STRUCT__entry(
		__string(what, what)
		__field(int, depth)
	),
	TP_fast_assign(
		__assign_str(what);
		__entry->depth = depth;
	),
	TP_printk("what=%s depth=%d", __get_str(what), __entry->depth)
);

DEFINE_EVENT(span, span_begin,
	TP_PROTO(const char *what, int depth),
	TP_ARGS(what, depth));

DEFINE_EVENT(span, span_end,
	TP_PROTO(const char *what, int depth),
	TP_ARGS(what, depth));

TRACE_EVENT_CONDITION(odd_only,
	TP_PROTO(int n),
	TP_ARGS(n),
	TP_CONDITION(n & 1),
	TP_STRUCT__entry(
		__field(int, n)
	),
	TP_fast_assign(
		__entry->n = n;
	),
	TP_printk("n=%d", __entry->n)
);

#endif

#define TRACE_INCLUDE_FILE ust_trace
#include <tracekit/define_trace.h>

/*
 * The tracepoint of examples/silly: the kernel lectures' "sillymod"
 * (a module whose thread wakes every second and fires a tracepoint) as a
 * user program.  The shape is the kernel's: a TRACE_EVENT per event inside
 * the guard, define_trace.h at the bottom outside it.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM silly

#if !defined(_SILLY_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SILLY_TRACE_H

#include <tracekit/tracepoint.h>

TRACE_EVENT(me_silly,
	TP_PROTO(unsigned long time, unsigned long count),
	TP_ARGS(time, count),
	TP_STRUCT__entry(
		__field(unsigned long, time)
		__field(unsigned long, count)
	),
	TP_fast_assign(
		__entry->time = time;
		__entry->count = count;
	),
	TP_printk("time=%lu count=%lu", __entry->time, __entry->count)
);

#endif /* _SILLY_TRACE_H */

/* Outside the guard: in silly.c, which defines CREATE_TRACE_POINTS, this makes the tracepoint. */
#define TRACE_INCLUDE_FILE silly_trace
#include <tracekit/define_trace.h>

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The silly module's own trace event, silly:me_silly, in the kernel's TRACE_EVENT form:
 * prototype, arguments, the record's fields, how they are filled, how they print.
 *
 * Included twice: once as a plain header (declares trace_me_silly()), and once more from
 * <trace/define_trace.h> when silly.c defines CREATE_TRACE_POINTS, which turns the same
 * block into the event's code and its format file under events/silly/me_silly/.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM silly

#if !defined(_SILLY_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _SILLY_TRACE_H

#include <linux/tracepoint.h>

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

/* Outside the guard: define_trace.h includes this file again from where these say. */
#undef TRACE_INCLUDE_PATH
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE silly_trace
#include <trace/define_trace.h>

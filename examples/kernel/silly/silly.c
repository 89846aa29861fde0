// SPDX-License-Identifier: GPL-2.0
/*
 * silly: a module with a trace event of its own (silly_trace.h), fired by a kernel thread
 * once per tick: trace_me_silly(jiffies, count), count going up by one each time.
 *
 *   insmod silly.ko [tick_ms=100]
 *   tracekit list -e 'silly:*' --format
 *   tracekit record -e silly -e sched -- sleep 1; tracekit report
 *   rmmod silly
 *
 * While the event is disabled, trace_me_silly() costs a patched-out branch.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

#define CREATE_TRACE_POINTS
#include "silly_trace.h"

static unsigned int tick_ms = 100;
module_param(tick_ms, uint, 0444);
MODULE_PARM_DESC(tick_ms, "milliseconds between two me_silly events (default 100)");

static struct task_struct *silly_task;

static int silly_thread(void *unused)
{
	unsigned long count = 0;

	while (!kthread_should_stop()) {
		trace_me_silly(jiffies, count++);
		msleep_interruptible(tick_ms);
	}
	return 0;
}

static int __init silly_init(void)
{
	silly_task = kthread_run(silly_thread, NULL, "silly-thread");
	if (IS_ERR(silly_task))
		return PTR_ERR(silly_task);
	return 0;
}

static void __exit silly_exit(void)
{
	kthread_stop(silly_task);
}

module_init(silly_init);
module_exit(silly_exit);
MODULE_DESCRIPTION("a kernel thread firing the module's own trace event, silly:me_silly");
MODULE_LICENSE("GPL");

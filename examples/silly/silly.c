/*
 * silly: a loop that fires the me_silly tracepoint (silly_trace.h) every
 * interval, like the kernel's sillymod fires it from its thread each second.
 *
 *	build/examples/silly/silly [COUNT [INTERVAL_MS]]     (default 5, 1000)
 *	tracekit record -e 'silly:*' -e sched:sched_switch build/examples/silly/silly 5 100
 *	tracekit report
 *
 * Run without tracekit it prints nothing and pays one load per call.
 */
#define _POSIX_C_SOURCE 200809L	/* clock_gettime, nanosleep under -std=c11 */
#include <stdlib.h>
#include <time.h>

#define CREATE_TRACE_POINTS
#include "silly_trace.h"

int main(int argc, char **argv)
{
	unsigned long count = argc > 1 ? strtoul(argv[1], NULL, 10) : 5;
	long interval_ms = argc > 2 ? strtol(argv[2], NULL, 10) : 1000;
	struct timespec pause = { interval_ms / 1000, (interval_ms % 1000) * 1000000 };

	for (unsigned long i = 0; i < count; i++) {
		struct timespec now;

		clock_gettime(CLOCK_MONOTONIC, &now);
		trace_me_silly((unsigned long)now.tv_sec, i);
		if (i + 1 < count)
			nanosleep(&pause, NULL);
	}
	return 0;
}

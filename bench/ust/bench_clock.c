/* The yardstick: one clock_gettime(CLOCK_MONOTONIC) call per "event" (the vDSO's cost). */
#include <time.h>

static inline void clock_once(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	__asm__ __volatile__("" :: "r"(ts.tv_nsec) : "memory");
}

#define FIRE(i) ((void)(i), clock_once())
#include "bench_main.h"

/*
 * The loop every bench program runs: N events of (int, string, long); FIRE(i)
 * is the program's tracepoint.  Prints two costs per event: CPU time of the
 * thread (what the tracepoint costs the program, even when a busy machine
 * keeps it waiting for a CPU) and wall time, in ns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	double c0 = ns(CLOCK_THREAD_CPUTIME_ID), w0 = ns(CLOCK_MONOTONIC);

	for (long i = 0; i < n; i++)
		FIRE(i);
	printf("%.2f %.2f\n", (ns(CLOCK_THREAD_CPUTIME_ID) - c0) / (double)n,
	       (ns(CLOCK_MONOTONIC) - w0) / (double)n);
	return 0;
}

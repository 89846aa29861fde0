/*
 * busy: N threads (argv[1], default 4), each spinning until it has used a fixed
 * amount of CPU time (argv[2] ms, default 200), so a scheduling analysis knows
 * how much each ran: pinned to fewer CPUs than N, they must wait for each other.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAX_THREADS 64

static long spin_ms = 200;

static long long cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *spin(void *arg)
{
	long long end = cpu_ns() + spin_ms * 1000000LL;
	volatile unsigned long x = 0;

	(void)arg;
	while (cpu_ns() < end)
		for (int i = 0; i < 10000; i++)
			x += (unsigned long)i;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	int n = argc > 1 ? atoi(argv[1]) : 4;

	if (argc > 2)
		spin_ms = atol(argv[2]);
	if (n < 1 || n > MAX_THREADS || spin_ms < 1) {
		fprintf(stderr, "usage: busy [THREADS (1-%d)] [CPU MS EACH]\n", MAX_THREADS);
		return 2;
	}
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, spin, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

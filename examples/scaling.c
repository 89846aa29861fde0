/*
 * scaling: N threads share out a fixed amount of work, and every unit of work
 * also updates a shared total under one mutex.  On a machine with fewer CPUs
 * than threads, or with the lock held too long, N threads are not N times
 * faster: `tracekit record` + `tracekit sched` show where the time went (waiting
 * for a CPU behind a sibling, sleeping in futex on the lock's address).
 *
 *   scaling [THREADS [UNITS [LOCKED_US [FREE_US]]]]
 *       defaults: 4 threads, 400 units, 50 us of work inside the lock, 200 us outside
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long units_left, total;
static long locked_us = 50, free_us = 200;

/* Burn this thread's CPU time, not wall time: it is the work the threads share. */
static void work(long us)
{
	struct timespec t0, t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000 + (t.tv_nsec - t0.tv_nsec) / 1000 < us);
}

static void *worker(void *arg)
{
	long done = 0;
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&lock);
		if (units_left == 0) {
			pthread_mutex_unlock(&lock);
			break;
		}
		units_left--;
		work(locked_us);	/* the shared update: everyone queues here */
		total++;
		pthread_mutex_unlock(&lock);
		work(free_us);		/* the part that runs in parallel */
		done++;
	}
	return (void *)done;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	units_left = argc > 2 ? atol(argv[2]) : 400;
	locked_us = argc > 3 ? atol(argv[3]) : 50;
	free_us = argc > 4 ? atol(argv[4]) : 200;
	if (n < 1 || n > 256 || units_left < 0 || locked_us < 0 || free_us < 0) {
		fprintf(stderr, "usage: scaling [THREADS(1-256) [UNITS [LOCKED_US [FREE_US]]]]\n");
		return 2;
	}
	pthread_t *t = calloc((size_t)n, sizeof(*t));
	if (!t)
		return 1;
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < n; i++) {
		void *done;
		pthread_join(t[i], &done);
		printf("thread %d did %ld units\n", i, (long)done);
	}
	printf("total %ld\n", total);
	free(t);
	return 0;
}

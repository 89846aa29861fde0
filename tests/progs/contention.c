/*
 * contention: one thread for each reason a thread is off its CPU, for the
 * timeline's causes (tests/e2e/test_view.py view-contention).  On 2 CPUs:
 *   spinner  always runnable or running (the others wait behind it for a CPU)
 *   napper   1 ms of work, then a 2 ms nanosleep (timer), then a byte down a pipe
 *   reader   blocked in read() on that pipe (I/O)
 *   locker x2  0.5 ms of work under one mutex, 0.2 ms outside (lock)
 *   ticker   50 us of work, 50 us of nanosleep: states far shorter than a pixel
 *   main     joins them all (join)
 *
 *   contention [MS]     run for MS milliseconds (default 300)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct timespec until;
static int pipefd[2];

static double now(clockid_t clk)
{
	struct timespec t;
	clock_gettime(clk, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static int over(void)
{
	return now(CLOCK_MONOTONIC) >= until.tv_sec + until.tv_nsec / 1e9;
}

/* Spin for ms of wall time: CLOCK_MONOTONIC is read without a syscall (vDSO). */
static void work(double ms)
{
	double t0 = now(CLOCK_MONOTONIC);
	while (now(CLOCK_MONOTONIC) - t0 < ms / 1e3)
		;
}

static void *spinner(void *arg)
{
	(void)arg;
	while (!over())
		work(1);
	return NULL;
}

static void *napper(void *arg)
{
	struct timespec nap = { 0, 2 * 1000 * 1000 };
	(void)arg;
	while (!over()) {
		work(1);
		nanosleep(&nap, NULL);
		if (write(pipefd[1], "x", 1) != 1)
			break;
	}
	close(pipefd[1]);
	return NULL;
}

static void *reader(void *arg)
{
	char c;
	(void)arg;
	while (read(pipefd[0], &c, 1) == 1)
		;
	return NULL;
}

static void *ticker(void *arg)
{
	struct timespec nap = { 0, 50 * 1000 };
	(void)arg;
	while (!over()) {
		work(0.05);
		nanosleep(&nap, NULL);
	}
	return NULL;
}

static void *locker(void *arg)
{
	(void)arg;
	while (!over()) {
		pthread_mutex_lock(&lock);
		work(0.5);
		pthread_mutex_unlock(&lock);
		work(0.2);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = { spinner, napper, reader, locker, locker, ticker };
	enum { NTHREADS = sizeof(fns) / sizeof(fns[0]) };
	pthread_t th[NTHREADS];
	long ms = argc > 1 ? atol(argv[1]) : 300;

	if (pipe(pipefd) < 0) {
		perror("contention: pipe");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += ms / 1000;
	until.tv_nsec += ms % 1000 * 1000000;
	if (until.tv_nsec >= 1000000000) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000;
	}
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&th[i], NULL, fns[i], NULL)) {
			fprintf(stderr, "contention: pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(th[i], NULL);
	return 0;
}

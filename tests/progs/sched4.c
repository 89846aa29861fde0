/*
 * sched4: four threads that meet the scheduler in four ways, for checking
 * `tracekit sched`'s run time against the kernel's own count: a spinner (never
 * sleeps), a cycler (spins, then sleeps in clock_nanosleep, in turns) and two
 * threads taking turns on one mutex (spinning while they hold it).  Each thread
 * prints its tid and its CPU time (CLOCK_THREAD_CPUTIME_ID) as it ends:
 *
 *   sched4 [MS]        MS: the spinner's CPU time (default 200); the others scale with it
 *   tid 1234 spinner cpu_ns 200012345
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long ms = 200;

static long long thread_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* Burn us microseconds of this thread's CPU time. */
static void spin(long us)
{
	long long end = thread_ns() + us * 1000LL;
	while (thread_ns() < end)
		;
}

/*
 * The line is made on the stack and written at once: between the clock's reading
 * and the write there is no stdio (its first use allocates, which under qemu TCG
 * costs milliseconds of CPU), so the reading is the CPU time at the write.
 */
static void report(const char *name)
{
	char line[96];
	long long ns = thread_ns();
	int n = snprintf(line, sizeof(line), "tid %ld %s cpu_ns %lld\n", (long)syscall(SYS_gettid),
			 name, ns);
	if (write(1, line, (size_t)n) != n)
		abort();
}

static void *spinner(void *arg)
{
	(void)arg;
	spin(ms * 1000);
	report("spinner");
	return NULL;
}

static void *cycler(void *arg)
{
	(void)arg;
	struct timespec nap = { 0, 2 * 1000 * 1000 };
	for (long i = 0; i < ms / 4; i++) {
		spin(2000);
		clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL);
	}
	report("cycler");
	return NULL;
}

static void *locker(void *arg)
{
	for (long i = 0; i < ms; i++) {
		pthread_mutex_lock(&lock);
		spin(300);
		pthread_mutex_unlock(&lock);
		spin(100);
	}
	report(arg);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[4];

	if (argc > 1)
		ms = atol(argv[1]);
	if (ms <= 0) {
		fprintf(stderr, "usage: sched4 [MS]\n");
		return 2;
	}
	if (pthread_create(&t[0], NULL, spinner, NULL) || pthread_create(&t[1], NULL, cycler, NULL) ||
	    pthread_create(&t[2], NULL, locker, "locker1") ||
	    pthread_create(&t[3], NULL, locker, "locker2")) {
		perror("pthread_create");
		return 1;
	}
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}

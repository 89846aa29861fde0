/*
 * threads: four threads, each making 1000 getppid calls and one write to
 * /dev/null, so that a tracer following threads has to interleave
 * "<unfinished ...>" and "resumed" lines.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NTHREADS 4
#define NCALLS 1000

static int devnull;

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < NCALLS; i++)
		syscall(SYS_getppid);
	if (write(devnull, "t", 1) != 1)
		abort();
	return NULL;
}

int main(void)
{
	pthread_t t[NTHREADS];

	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0) {
		perror("/dev/null");
		return 1;
	}
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 1;
	for (int i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	close(devnull);
	return 0;
}

/*
 * thread_exec: a thread other than the leader calls execve, so the kernel
 * gives it the leader's pid (strace's "<pid changed to N ...>" and
 * "+++ superseded by execve in pid N +++").  Run again with an argument,
 * the new image just exits.
 */
#include <pthread.h>
#include <unistd.h>

#include "progs.h"

static char *self;

static void *exec_self(void *arg)
{
	(void)arg;
	char *argv[] = { self, "again", NULL };
	execve("/proc/self/exe", argv, NULL);
	check(0, "execve");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc > 1)
		return 0;
	self = argv[0];
	check(pthread_create(&t, NULL, exec_self, NULL) == 0, "pthread_create");
	pause();	/* the execve ends this thread too */
	return 1;
}

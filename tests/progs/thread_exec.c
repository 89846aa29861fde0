/*
 * thread_exec: a thread other than the leader calls execve, so the kernel
 * gives it the leader's pid (strace's "<pid changed to N ...>" and
 * "+++ superseded by execve in pid N +++").  Run again with an argument,
 * the new image just exits.
 */
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "progs.h"

static char *self;

/*
 * Whether the leader sleeps in pause().  Until it does, a tracer may catch it
 * between calls as the execve kills it, and strace then prints a stray
 * "???(" for it: the output would differ from run to run.
 */
static int leader_paused(void)
{
	char path[64], buf[512];
	FILE *f;
	char *state;
	long nr = -1;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)getpid());
	f = fopen(path, "r");
	check(f != NULL, path);
	state = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	if (!state || state[1] != ' ' || state[2] != 'S')
		return 0;
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)getpid());
	f = fopen(path, "r");
	check(f != NULL, path);
	if (fscanf(f, "%ld", &nr) != 1)
		nr = -1;
	fclose(f);
	return nr == SYS_pause;
}

static void *exec_self(void *arg)
{
	(void)arg;
	while (!leader_paused())
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
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

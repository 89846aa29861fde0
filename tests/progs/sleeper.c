/*
 * sleeper: a target for "-p PID" attach tests.  Prints its pid (flushed, so
 * a test reading a pipe gets it at once), then sleeps 50 ms and calls
 * getppid, forever, until killed.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };

	printf("%d\n", (int)getpid());
	fflush(stdout);
	for (;;) {
		nanosleep(&nap, NULL);
		syscall(SYS_getppid);
	}
}

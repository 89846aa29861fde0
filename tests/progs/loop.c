/*
 * loop: the benchmark workloads.  "loop getppid N" makes N getppid calls,
 * "loop write N" N one-byte writes to /dev/null, "loop forkexec N" N rounds
 * of fork, exec /bin/true and wait.  Cheap syscalls measure the per-stop
 * cost of a tracer; forkexec measures its process-following cost.
 * "loop pingpong N" passes N numbered messages to a child and back through
 * two pipes: each step waits for the other process, so a trace's order
 * across processes can be checked against what must have come first.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int loop_getppid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

static int loop_write(long n)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (fd < 0) {
		perror("/dev/null");
		return 1;
	}
	for (long i = 0; i < n; i++)
		if (write(fd, "x", 1) != 1) {
			perror("write");
			return 1;
		}
	close(fd);
	return 0;
}

static int loop_forkexec(long n)
{
	for (long i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0) {
			fprintf(stderr, "loop: child %ld failed\n", i);
			return 1;
		}
	}
	return 0;
}

/* Parent writes "%04ld" on one pipe, the child reads it and writes it back on the other. */
static int loop_pingpong(long n)
{
	int there[2], back[2];

	if (pipe(there) < 0 || pipe(back) < 0) {
		perror("pipe");
		return 1;
	}
	pid_t pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	int in = pid ? back[0] : there[0], out = pid ? there[1] : back[1];
	for (long i = 0; i < n; i++) {
		char msg[5];
		if (pid) {
			snprintf(msg, sizeof(msg), "%04ld", i % 10000);
			if (write(out, msg, 4) != 4 || read(in, msg, 4) != 4)
				return 1;
		} else if (read(in, msg, 4) != 4 || write(out, msg, 4) != 4) {
			_exit(1);
		}
	}
	if (!pid)
		_exit(0);
	int status;
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}

int main(int argc, char **argv)
{
	char *end;
	long n;

	if (argc != 3)
		goto usage;
	n = strtol(argv[2], &end, 10);
	if (*end || n < 0)
		goto usage;
	if (!strcmp(argv[1], "getppid"))
		return loop_getppid(n);
	if (!strcmp(argv[1], "write"))
		return loop_write(n);
	if (!strcmp(argv[1], "forkexec"))
		return loop_forkexec(n);
	if (!strcmp(argv[1], "pingpong"))
		return loop_pingpong(n);
usage:
	fprintf(stderr, "usage: loop getppid|write|forkexec|pingpong N\n");
	return 2;
}

/*
 * hello: the example traced by "make demo".  It writes a greeting, reads a
 * file the system always has, and tries one that does not exist, so the
 * trace shows a success, a read and an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	char buf[64];
	ssize_t n;
	int fd;

	printf("hello from tracekit's example\n");
	fflush(stdout);

	fd = open("/etc/passwd", O_RDONLY);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (n < 0)
			return 1;
	}
	if (open("/nonexistent/hello", O_RDONLY) >= 0 || errno != ENOENT)
		return 1;
	return 0;
}

/*
 * Helpers shared by the bundled test programs.  Kept to what every program
 * needs, so each program's trace is its own syscalls plus libc start-up.
 */
#ifndef TRACEKIT_TEST_PROGS_H
#define TRACEKIT_TEST_PROGS_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Any failure is a broken test program: say what failed and stop. */
static inline void check(int ok, const char *what)
{
	if (!ok) {
		perror(what);
		exit(1);
	}
}

/*
 * A private temp dir named after the program and its pid.  Not mkdtemp():
 * glibc draws its random name by rejection sampling, so the number of
 * getrandom calls, and with it the trace, would change from run to run.
 */
static inline void make_tmpdir(char *buf, size_t size, const char *prog)
{
	const char *base = getenv("TMPDIR");

	snprintf(buf, size, "%s/tk-%s-%d", base && *base ? base : "/tmp", prog, (int)getpid());
	check(mkdir(buf, 0700) == 0, "mkdir tmpdir");
}

#endif

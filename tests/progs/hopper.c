/*
 * hopper: one thread that moves between CPU 0 and CPU 1 (argv[1] rounds, default
 * 40), making argv[2] getppid() calls (default 20000) on each before it moves on.
 * Recorded into one-page buffers on a busy machine, a move's switch-out often falls
 * into a loss of events on the CPU it leaves while its switch-in on the other CPU
 * is kept: the case a schedule analysis must not draw across
 * (tests/fixtures/make-lost-migrate-fixture.sh).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 40;
	long calls = argc > 2 ? atol(argv[2]) : 20000;

	for (int r = 0; r < rounds; r++) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(r % 2, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			perror("hopper: sched_setaffinity (two CPUs needed)");
			return 1;
		}
		for (long i = 0; i < calls; i++)
			syscall(SYS_getppid);
	}
	return 0;
}

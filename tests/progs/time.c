/*
 * time: clocks, sleeps and resource queries.  clock_gettime and gettimeofday
 * go through syscall() because libc answers them from the vDSO without
 * entering the kernel, and a tracer would see nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "progs.h"

int main(void)
{
	struct timespec ts, nap = { 0, 1000 * 1000 };
	struct timeval tv;
	struct rusage ru;
	struct rlimit rl;
	struct utsname un;
	struct sysinfo si;

	check(syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) == 0, "clock_gettime");
	check(syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts) == 0, "clock_gettime");
	check(syscall(SYS_gettimeofday, &tv, NULL) == 0, "gettimeofday");
	check(syscall(SYS_nanosleep, &nap, NULL) == 0, "nanosleep");
	check(clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL) == 0, "clock_nanosleep");
	check(getrusage(RUSAGE_SELF, &ru) == 0, "getrusage");
	check(syscall(SYS_getrlimit, RLIMIT_NOFILE, &rl) == 0, "getrlimit");
	check(syscall(SYS_prlimit64, 0, RLIMIT_STACK, NULL, &rl) == 0, "prlimit64");
	check(uname(&un) == 0, "uname");
	check(sysinfo(&si) == 0, "sysinfo");
	return 0;
}

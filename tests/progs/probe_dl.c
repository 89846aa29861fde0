/* libprobedl.so: a library probe_target loads with dlopen() after start-up. */
#include "probe_lib.h"

__attribute__((noinline)) long dl_mul(long a, long b)
{
	__asm__ volatile("");
	return a * b;
}

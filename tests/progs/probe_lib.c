/* libprobelib.so: a library probe_target links against (loaded at start-up). */
#include "probe_lib.h"

__attribute__((noinline)) long lib_add(long a, long b)
{
	__asm__ volatile("");
	return a + b;
}

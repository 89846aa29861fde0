/*
 * The shared library of the probes' test program: one hot function taking
 * a string and an int, so probes on a library (resolved through its own
 * ELF file, loaded at a random base) are tested like probes on the program.
 */
#include <stddef.h>

__attribute__((noinline, visibility("default"))) unsigned lib_hash(const char *s, int seed)
{
	unsigned h = (unsigned)seed;
	for (; *s; s++)
		h = h * 31 + (unsigned char)*s;
	return h;
}

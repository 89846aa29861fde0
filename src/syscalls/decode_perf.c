/*
 * perf_event_open: struct perf_event_attr (print_perf.c), the target (pid,
 * cpu, group) and the flags.  Everything prints at exit, as strace does: on
 * E2BIG the kernel writes back into the attr the size it supports.
 */
#include <inttypes.h>

#include "decoder.h"
#include "print_perf.h"

SC_DECODER(perf_event_open, MEM_BYTES_IN(0, PERF_ATTR_PRINT_MAX), MEM_BYTES_OUT(0, 8))
{
	if (c->entering)
		return 0;
	p_perf_attr(c, c->args[0]);
	out(c, ", %d, %d, ", (int)c->args[1], (int)c->args[2]);
	p_fd(c, (uint64_t)(int64_t)(int)c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_perf_event_open_flags, c->args[4], "PERF_FLAG_???");
	c->rv = SC_RV_FD;
	return 0;
}

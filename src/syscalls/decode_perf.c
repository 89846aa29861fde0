/*
 * perf_event_open: the target (pid, cpu, group) and the flags.  The struct
 * perf_event_attr itself prints as its address for now (strace decodes its
 * fields; see docs/syscalls.md).
 */
#include <inttypes.h>

#include "decoder.h"

SC_DECODER(perf_event_open)
{
	p_addr(c, c->args[0]);
	out(c, ", %d, %d, ", (int)c->args[1], (int)c->args[2]);
	p_fd(c, (uint64_t)(int64_t)(int)c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_perf_event_open_flags, c->args[4], "PERF_FLAG_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

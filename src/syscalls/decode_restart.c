/*
 * restart_syscall: the kernel resuming a call a signal interrupted.  Which
 * call is not in its arguments; the engine remembers it per thread.
 */
#include "decoder.h"

SC_DECODER(restart_syscall)
{
	const struct sc_entry *e = sc_by_nr(c->resumes);
	if (e)
		out(c, "<... resuming interrupted %s ...>", e->name);
	else
		out(c, "<... resuming interrupted call ...>");
	return SC_DONE;
}

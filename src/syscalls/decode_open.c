/* open, openat, creat: a path, an access mode and flags, maybe a mode. */
#include <fcntl.h>

#include "decoder.h"

/* O_RDONLY|O_CLOEXEC: the access mode is a value, the rest are flags. */
static void p_open_flags(struct sc_call *c, uint64_t flags)
{
	p_xval(c, &xlat_open_access_modes, flags & O_ACCMODE, NULL);
	flags &= ~(uint64_t)O_ACCMODE;
	if (flags) {
		out(c, "|");
		p_flags(c, &xlat_open_flags, flags, NULL);
	}
}

/* The mode matters only when the call may create a file. */
static void p_open_tail(struct sc_call *c, uint64_t flags, uint64_t mode)
{
	p_open_flags(c, flags);
	if (flags & (O_CREAT | __O_TMPFILE)) {
		p_sep(c);
		p_oct(c, mode);
	}
}

SC_DECODER(open, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_open_tail(c, c->args[1], c->args[2]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(openat, MEM_PATH(1))
{
	p_dirfd(c, c->args[0]);
	p_sep(c);
	p_path(c, c->args[1]);
	p_sep(c);
	p_open_tail(c, c->args[2], c->args[3]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

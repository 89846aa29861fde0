/* eventfd and eventfd2: an initial count and EFD_* flags, a new descriptor back. */
#include "print_net.h"

SC_DECODER(eventfd)
{
	out(c, "%u", (unsigned)c->args[0]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(eventfd2)
{
	out(c, "%u, ", (unsigned)c->args[0]);
	p_flags(c, &xlat_efd_flags, c->args[1], "EFD_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

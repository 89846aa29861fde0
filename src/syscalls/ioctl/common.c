/* Helpers both ioctl layers share: see common.h. */
#include "common.h"

/* At exit, after ", ": true when the value is to print; the address printed instead when the call failed. */
static bool written(struct sc_call *c, uint64_t arg)
{
	if (c->entering)
		return false;
	p_sep(c);
	if (!sc_failed(c))
		return true;
	p_addr(c, arg);
	return false;
}

int ioctl_getter(struct sc_call *c, uint64_t arg, ioctl_printer *print)
{
	if (written(c, arg))
		print(c, arg);
	return 0;
}

int ioctl_getter_req(struct sc_call *c, unsigned req, uint64_t arg, ioctl_req_printer *print)
{
	if (written(c, arg))
		print(c, req, arg);
	return 0;
}

int ioctl_setter(struct sc_call *c, uint64_t arg, ioctl_printer *print)
{
	p_sep(c);
	print(c, arg);
	return SC_DONE;
}

int ioctl_setter_req(struct sc_call *c, unsigned req, uint64_t arg, ioctl_req_printer *print)
{
	p_sep(c);
	print(c, req, arg);
	return SC_DONE;
}

bool ioctl_all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		if (b[i])
			return false;
	return true;
}

size_t ioctl_strsize(const struct sc_call *c)
{
	return c->fmt ? c->fmt->strsize : 32;
}

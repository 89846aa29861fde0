/*
 * Requests named but not decoded (xlat/ioctl_named.in): their arguments
 * print in hex.  Their names join those of the decoded families that share
 * a number: "FASTRPC_IOCTL_INIT_ATTACH or RNDZAPENTCNT".
 */
#include "ioctl.h"

static int named_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	(void)c, (void)req, (void)arg;
	return IOCTL_UNDECODED;
}

static size_t named_len(const struct sc_call *c, unsigned req)
{
	(void)c, (void)req;
	return 0;
}

const struct ioctl_family ioctl_named = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_named, .decode = named_decode, .arg_len = named_len,
};

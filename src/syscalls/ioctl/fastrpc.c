/*
 * FastRPC requests (<misc/fastrpc.h>): named only, their arguments in hex.
 * Their type 'R' is /dev/random's too: strace names RNDZAPENTCNT's number
 * "FASTRPC_IOCTL_INIT_ATTACH or RNDZAPENTCNT".
 */
#include "ioctl.h"

static int fastrpc_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	(void)c, (void)req, (void)arg;
	return IOCTL_UNDECODED;
}

static size_t fastrpc_len(const struct sc_call *c, unsigned req)
{
	(void)c, (void)req;
	return 0;
}

const struct ioctl_family ioctl_fastrpc = {
	.names = &xlat_ioctl_fastrpc, .decode = fastrpc_decode, .arg_len = fastrpc_len,
};

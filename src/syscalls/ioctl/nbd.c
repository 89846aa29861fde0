/* Network block device requests (<linux/nbd.h>). */
#include <linux/nbd.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ NBD_DISCONNECT, IS_NONE }, { NBD_CLEAR_SOCK, IS_NONE }, { NBD_DO_IT, IS_NONE },
	{ NBD_CLEAR_QUE, IS_NONE }, { NBD_PRINT_DEBUG, IS_NONE },
	{ NBD_SET_SOCK, IS_FD },
	{ NBD_SET_BLKSIZE, IS_ULONG }, { NBD_SET_SIZE, IS_ULONG },
	{ NBD_SET_SIZE_BLOCKS, IS_ULONG }, { NBD_SET_TIMEOUT, IS_ULONG },
};

static int nbd_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req == NBD_SET_FLAGS) {
		p_sep(c);
		p_flags(c, &xlat_nbd_flags, (unsigned long)arg, NULL);
		return SC_DONE;
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t nbd_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_nbd = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_nbd, .decode = nbd_decode, .arg_len = nbd_len,
};

/* Namespace file requests (<linux/nsfs.h>). */
#include <linux/nsfs.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ NS_GET_USERNS, IS_NONE }, { NS_GET_PARENT, IS_NONE },
	{ NS_GET_OWNER_UID, IS_UINT_OUT },
};

static int nsfs_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req != NS_GET_NSTYPE)
		return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
	if (c->entering)
		return 0;
	/* the namespace's type, a CLONE_NEW* flag */
	const char *type = sc_failed(c) ? NULL : xlat_str(&xlat_clone_flags, (uint64_t)c->ret);
	if (type)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", type);
	return 0;
}

static size_t nsfs_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_nsfs = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_nsfs, .decode = nsfs_decode, .arg_len = nsfs_len,
};

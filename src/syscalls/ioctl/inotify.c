/* inotify descriptor requests (<linux/inotify.h>, which clashes with glibc's <fcntl.h>). */
#include <sys/ioctl.h>

#define INOTIFY_IOC_SETNEXTWD _IOW('I', 0, int)

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ INOTIFY_IOC_SETNEXTWD, IS_INT },
};

static int inotify_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t inotify_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_inotify = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_inotify, .decode = inotify_decode, .arg_len = inotify_len,
};

/* Watchdog device requests (<linux/watchdog.h>). */
#include <linux/watchdog.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ WDIOC_KEEPALIVE, IS_NONE },
	{ WDIOC_GETSTATUS, IS_INT_OUT }, { WDIOC_GETBOOTSTATUS, IS_INT_OUT },
	{ WDIOC_GETTEMP, IS_INT_OUT }, { WDIOC_GETTIMEOUT, IS_INT_OUT },
	{ WDIOC_GETPRETIMEOUT, IS_INT_OUT }, { WDIOC_GETTIMELEFT, IS_INT_OUT },
	{ WDIOC_SETTIMEOUT, IS_INT_IN }, { WDIOC_SETPRETIMEOUT, IS_INT_IN },
};

static int watchdog_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t watchdog_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_watchdog = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_watchdog, .decode = watchdog_decode, .arg_len = watchdog_len,
};

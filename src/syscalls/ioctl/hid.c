/*
 * HID requests (hiddev and hidraw): named, not decoded (their arguments
 * print in hex).  Those whose size is the caller's buffer length are named
 * with it, HIDIOCGPHYS(8), as the headers' macros take it.
 */
#include <stdio.h>
#include <sys/ioctl.h>

#include "ioctl.h"

/*
 * The 'H' requests with a length, by direction and number.  hidraw's
 * HIDIOC[SG]INPUT and HIDIOC[SG]OUTPUT (0x09..0x0c, read-write) are left out:
 * their numbers are also hiddev's fixed HIDIOCGREPORTINFO..HIDIOCSUSAGE, the
 * names strace prints.
 */
static const struct {
	unsigned char dir, nr;
	const char *name;
} sized[] = {
	{ _IOC_READ, 0x04, "HIDIOCGRAWNAME" },
	{ _IOC_READ, 0x05, "HIDIOCGRAWPHYS" },
	{ _IOC_READ, 0x06, "HIDIOCGNAME" },
	{ _IOC_READ, 0x08, "HIDIOCGRAWUNIQ" },
	{ _IOC_READ, 0x12, "HIDIOCGPHYS" },
	{ _IOC_READ | _IOC_WRITE, 0x06, "HIDIOCSFEATURE" },
	{ _IOC_READ | _IOC_WRITE, 0x07, "HIDIOCGFEATURE" },
};

static bool hid_name(unsigned req, char *buf, size_t size)
{
	if (_IOC_TYPE(req) != 'H')
		return false;
	for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++)
		if (_IOC_DIR(req) == sized[i].dir && _IOC_NR(req) == sized[i].nr) {
			snprintf(buf, size, "%s(%u)", sized[i].name, _IOC_SIZE(req));
			return true;
		}
	return false;
}

static int hid_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	(void)c, (void)req, (void)arg;
	return IOCTL_UNDECODED;
}

static size_t hid_len(const struct sc_call *c, unsigned req)
{
	(void)c, (void)req;
	return 0;
}

const struct ioctl_family ioctl_hid = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_hid, .name_of = hid_name, .decode = hid_decode, .arg_len = hid_len,
};

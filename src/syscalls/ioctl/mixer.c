/*
 * Sound mixer requests (<linux/soundcard.h>): strace names any 'M' request
 * that reads or writes (not both) MIXER_READ(nr) or MIXER_WRITE(nr), before
 * the names the number has in other families ("MIXER_READ(13) or OTPSELECT").
 * Their arguments are not decoded.
 */
#include <stdio.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static bool mixer_name(unsigned req, char *buf, size_t size)
{
	if (_IOC_TYPE(req) != 'M' || (_IOC_DIR(req) != _IOC_READ && _IOC_DIR(req) != _IOC_WRITE))
		return false;
	snprintf(buf, size, "MIXER_%s(%u)", _IOC_DIR(req) == _IOC_READ ? "READ" : "WRITE",
		 _IOC_NR(req));
	return true;
}

static int mixer_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	(void)c, (void)req, (void)arg;
	return IOCTL_UNDECODED;
}

static size_t mixer_len(const struct sc_call *c, unsigned req)
{
	(void)c, (void)req;
	return 0;
}

const struct ioctl_family ioctl_mixer = {
	.type = IOCTL_ANY_TYPE,
	.name_of = mixer_name, .decode = mixer_decode, .arg_len = mixer_len,
};

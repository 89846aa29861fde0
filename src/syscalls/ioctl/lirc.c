/* Infrared remote control requests (<linux/lirc.h>). */
#include <linux/lirc.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ LIRC_SET_SEND_CARRIER, IS_UINT_IN }, { LIRC_SET_REC_CARRIER, IS_UINT_IN },
	{ LIRC_SET_SEND_DUTY_CYCLE, IS_UINT_IN }, { LIRC_SET_REC_TIMEOUT, IS_UINT_IN },
	{ LIRC_SET_REC_TIMEOUT_REPORTS, IS_UINT_IN }, { LIRC_SET_MEASURE_CARRIER_MODE, IS_UINT_IN },
	{ LIRC_SET_REC_CARRIER_RANGE, IS_UINT_IN }, { LIRC_SET_WIDEBAND_RECEIVER, IS_UINT_IN },
	{ LIRC_GET_REC_RESOLUTION, IS_UINT_OUT }, { LIRC_GET_MIN_TIMEOUT, IS_UINT_OUT },
	{ LIRC_GET_MAX_TIMEOUT, IS_UINT_OUT }, { LIRC_GET_LENGTH, IS_UINT_OUT },
	{ LIRC_GET_REC_TIMEOUT, IS_UINT_OUT },
};

/* [LIRC_MODE_PULSE], [LIRC_CAN_SEND_PULSE|...] or [0x1f]. */
static void p_value(struct sc_call *c, unsigned req, uint64_t arg)
{
	unsigned v;
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	out(c, "[");
	if (req == LIRC_GET_FEATURES)
		p_flags(c, &xlat_lirc_features, v, "LIRC_CAN_???");
	else if (req == LIRC_SET_TRANSMITTER_MASK)
		out(c, "%#x", v);
	else
		p_xval(c, &xlat_lirc_modes, v, "LIRC_MODE_???");
	out(c, "]");
}

static int lirc_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case LIRC_SET_SEND_MODE:
	case LIRC_SET_REC_MODE:
	case LIRC_SET_TRANSMITTER_MASK:
		return ioctl_setter_req(c, req, arg, p_value);
	case LIRC_GET_FEATURES:
	case LIRC_GET_SEND_MODE:
	case LIRC_GET_REC_MODE:
		return ioctl_getter_req(c, req, arg, p_value);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t lirc_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	if (_IOC_TYPE(req) == 'i' && _IOC_SIZE(req) == sizeof(unsigned))
		return sizeof(unsigned);
	return 0;
}

const struct ioctl_family ioctl_lirc = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_lirc, .decode = lirc_decode, .arg_len = lirc_len,
};

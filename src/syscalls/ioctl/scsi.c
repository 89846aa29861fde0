/* SCSI generic requests (<scsi/sg.h>); SG_IO has a file of its own (sg_io.c). */
#include <scsi/sg.h>

#include "ioctl.h"

#define SG_GET_ACCESS_COUNT 0x2289
#define SG_SCSI_RESET_NO_ESCALATE 0x100

static const struct ioctl_shape_entry shapes[] = {
	{ SG_GET_TIMEOUT, IS_NONE },
	{ SG_SET_TRANSFORM, IS_XINT },
	{ SG_GET_REQUEST_TABLE, IS_PTR }, { SG_GET_SCSI_ID, IS_PTR },
	{ SG_NEXT_CMD_LEN, IS_INT_IN }, { SG_SET_COMMAND_Q, IS_INT_IN }, { SG_SET_DEBUG, IS_INT_IN },
	{ SG_SET_FORCE_LOW_DMA, IS_INT_IN }, { SG_SET_FORCE_PACK_ID, IS_INT_IN },
	{ SG_SET_KEEP_ORPHAN, IS_INT_IN }, { SG_SET_RESERVED_SIZE, IS_INT_IN },
	{ SG_SET_TIMEOUT, IS_INT_IN },
	{ SG_EMULATED_HOST, IS_INT_OUT }, { SG_GET_ACCESS_COUNT, IS_INT_OUT },
	{ SG_GET_COMMAND_Q, IS_INT_OUT }, { SG_GET_KEEP_ORPHAN, IS_INT_OUT },
	{ SG_GET_LOW_DMA, IS_INT_OUT }, { SG_GET_NUM_WAITING, IS_INT_OUT },
	{ SG_GET_PACK_ID, IS_INT_OUT }, { SG_GET_RESERVED_SIZE, IS_INT_OUT },
	{ SG_GET_SG_TABLESIZE, IS_INT_OUT }, { SG_GET_TRANSFORM, IS_INT_OUT },
	{ SG_GET_VERSION_NUM, IS_INT_OUT },
};

/* [SG_SCSI_RESET_NO_ESCALATE|SG_SCSI_RESET_DEVICE], or the number when the kind is unknown. */
static void p_reset(struct sc_call *c, uint64_t arg)
{
	unsigned v;
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	unsigned kind = v & ~SG_SCSI_RESET_NO_ESCALATE;
	out(c, "[");
	if (xlat_style == XLAT_STYLE_ABBREV && xlat_str(&xlat_sg_scsi_reset, kind)) {
		if (v & SG_SCSI_RESET_NO_ESCALATE)
			out(c, "SG_SCSI_RESET_NO_ESCALATE|");
		p_xval(c, &xlat_sg_scsi_reset, kind, NULL);
	} else {
		p_xval(c, &xlat_sg_scsi_reset, v, "SG_SCSI_RESET_???");
	}
	out(c, "]");
}

static int scsi_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req == SG_SCSI_RESET) {
		return ioctl_setter(c, arg, p_reset);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t scsi_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	if (req == SG_SCSI_RESET)
		return sizeof(int);
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_scsi = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_scsi, .decode = scsi_decode, .arg_len = scsi_len,
};

/*
 * What a successful V4L2 call returned, printed at exit: the driver's
 * capabilities, format descriptions, buffers, standards, inputs, controls,
 * crop bounds, frame sizes and intervals.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "v4l2.h"

size_t v4l2_arg_size(unsigned req)
{
	return _IOC_SIZE(req) < sizeof(union v4l2_arg) ? _IOC_SIZE(req) : sizeof(union v4l2_arg);
}

/* ", name=1/30"; sep: what goes before it. */
static void p_fract_sep(struct sc_call *c, const char *sep, const char *name,
			const struct v4l2_fract *f)
{
	out(c, "%s%s=%u/%u", sep, name, f->numerator, f->denominator);
}

static void p_fract(struct sc_call *c, const char *name, const struct v4l2_fract *f)
{
	p_fract_sep(c, ", ", name, f);
}

static void p_buffer_flags(struct sc_call *c, uint32_t v)
{
	uint32_t ts_type = v & V4L2_BUF_FLAG_TIMESTAMP_MASK;
	uint32_t ts_src = v & V4L2_BUF_FLAG_TSTAMP_SRC_MASK;
	uint32_t flags = v & ~ts_type & ~ts_src;
	if (xlat_style == XLAT_STYLE_RAW) {
		out(c, "%#x", v);
		return;
	}
	if (flags) {
		p_flags(c, &xlat_v4l2_buf_flags, flags, "V4L2_BUF_FLAG_???");
		out(c, "|");
	}
	p_xval(c, &xlat_v4l2_buf_flags_ts_type, ts_type, "V4L2_BUF_FLAG_TIMESTAMP_???");
	out(c, "|");
	p_xval(c, &xlat_v4l2_buf_flags_ts_src, ts_src, "V4L2_BUF_FLAG_TSTAMP_SRC_???");
}

static void p_buffer(struct sc_call *c, unsigned req, const struct v4l2_buffer *b)
{
	if (req == VIDIOC_DQBUF)
		out(c, ", index=%u", b->index);
	out(c, ", memory=");
	p_xval(c, &xlat_v4l2_memories, b->memory, "V4L2_MEMORY_???");
	if (b->memory == V4L2_MEMORY_MMAP) {
		out(c, ", m.offset=%#x", b->m.offset);
	} else if (b->memory == V4L2_MEMORY_USERPTR) {
		out(c, ", m.userptr=");
		v4l2_p_ptr(c, b->m.userptr);
	}
	out(c, ", length=%u, bytesused=%u, flags=", b->length, b->bytesused);
	p_buffer_flags(c, b->flags);
	if (req == VIDIOC_DQBUF)
		out(c, ", timestamp={tv_sec=%lld, tv_usec=%llu}", (long long)b->timestamp.tv_sec,
		    (unsigned long long)b->timestamp.tv_usec);
	out(c, ", ...");
}

/* Without -v the limits of a control are left out ("..."), as strace does. */
static void p_queryctrl(struct sc_call *c, const struct v4l2_queryctrl *q)
{
	if (!c->fmt || !c->fmt->verbose) {
		out(c, ", ...");
		return;
	}
	out(c, ", minimum=%d, maximum=%d, step=%d, default_value=%d, flags=", q->minimum,
	    q->maximum, q->step, q->default_value);
	p_flags(c, &xlat_v4l2_control_flags, q->flags, "V4L2_CTRL_FLAG_???");
	if (!ioctl_all_zero(q->reserved, sizeof(q->reserved))) {
		out(c, ", reserved=");
		ioctl_p_u32_array(c, q->reserved, 2, true);
	}
}

static void p_query_ext_ctrl(struct sc_call *c, const struct v4l2_query_ext_ctrl *q)
{
	if (!c->fmt || !c->fmt->verbose) {
		out(c, ", ...");
		return;
	}
	out(c, ", minimum=%lld, maximum=%lld, step=%llu, default_value=%lld, flags=",
	    (long long)q->minimum, (long long)q->maximum, (unsigned long long)q->step,
	    (long long)q->default_value);
	p_flags(c, &xlat_v4l2_control_flags, q->flags, "V4L2_CTRL_FLAG_???");
	out(c, ", elem_size=%u, elems=%u, nr_of_dims=%u, dims=", q->elem_size, q->elems,
	    q->nr_of_dims);
	ioctl_p_u32_array(c, q->dims, q->nr_of_dims < V4L2_CTRL_MAX_DIMS ? q->nr_of_dims :
				      V4L2_CTRL_MAX_DIMS, false);
	if (!ioctl_all_zero(q->reserved, sizeof(q->reserved))) {
		out(c, ", reserved=");
		ioctl_p_u32_array(c, q->reserved, 32, true);
	}
}

static void p_ctrl_query(struct sc_call *c, unsigned req, const union v4l2_arg *u)
{
	bool ext = req == VIDIOC_QUERY_EXT_CTRL;
	uint32_t id = ext ? u->qectrl.id : u->qctrl.id;
	const uint32_t *asked = c->priv;
	if (asked && *asked != id) {
		out(c, IOCTL_CHANGED);
		v4l2_p_cid(c, id, false);
	}
	out(c, ", type=");
	p_xval(c, &xlat_v4l2_control_types, ext ? u->qectrl.type : u->qctrl.type,
	       "V4L2_CTRL_TYPE_???");
	out(c, ", name=");
	if (ext) {
		ioctl_p_cstring(c, u->qectrl.name, sizeof(u->qectrl.name));
		p_query_ext_ctrl(c, &u->qectrl);
	} else {
		ioctl_p_cstring(c, (const char *)u->qctrl.name, sizeof(u->qctrl.name));
		p_queryctrl(c, &u->qctrl);
	}
}

static void p_frmsize(struct sc_call *c, const struct v4l2_frmsizeenum *f)
{
	out(c, ", type=");
	p_xval(c, &xlat_v4l2_framesize_types, f->type, "V4L2_FRMSIZE_TYPE_???");
	if (f->type == V4L2_FRMSIZE_TYPE_DISCRETE)
		out(c, ", discrete={width=%u, height=%u}", f->discrete.width, f->discrete.height);
	else if (f->type == V4L2_FRMSIZE_TYPE_STEPWISE)
		out(c, ", stepwise={min_width=%u, max_width=%u, step_width=%u, min_height=%u, "
		       "max_height=%u, step_height=%u}", f->stepwise.min_width, f->stepwise.max_width,
		    f->stepwise.step_width, f->stepwise.min_height, f->stepwise.max_height,
		    f->stepwise.step_height);
}

static void p_frmival(struct sc_call *c, const struct v4l2_frmivalenum *f)
{
	out(c, ", type=");
	p_xval(c, &xlat_v4l2_frameinterval_types, f->type, "V4L2_FRMIVAL_TYPE_???");
	if (f->type == V4L2_FRMIVAL_TYPE_DISCRETE) {
		p_fract(c, "discrete", &f->discrete);
	} else if (f->type == V4L2_FRMIVAL_TYPE_STEPWISE ||
		   f->type == V4L2_FRMIVAL_TYPE_CONTINUOUS) {
		p_fract_sep(c, ", stepwise={", "min", &f->stepwise.min);
		p_fract(c, "max", &f->stepwise.max);
		p_fract(c, "step", &f->stepwise.step);
		out(c, "}");
	}
}

/* What a successful call of a v4l2_simple_entry request returned; "}" in all cases. */
int v4l2_simple_exit(struct sc_call *c, unsigned req, uint64_t arg)
{
	union v4l2_arg u;
	if (req == VIDIOC_S_CROP || sc_failed(c) || sc_mem_read(c, arg, &u, v4l2_arg_size(req)) < 0) {
		out(c, "}");
		return 0;
	}
	switch (req) {
	case VIDIOC_ENUM_FMT:
		out(c, ", flags=");
		p_flags(c, &xlat_v4l2_format_description_flags, u.fmtdesc.flags, "V4L2_FMT_FLAG_???");
		out(c, ", description=");
		ioctl_p_cstring(c, (const char *)u.fmtdesc.description, sizeof(u.fmtdesc.description));
		out(c, ", pixelformat=");
		v4l2_p_fourcc(c, u.fmtdesc.pixelformat, &xlat_v4l2_pix_fmts);
		break;
	case VIDIOC_REQBUFS:
		out(c, IOCTL_CHANGED "%u", u.reqbufs.count);
		break;
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
		p_buffer(c, req, &u.buf);
		break;
	case VIDIOC_ENUMSTD:
		out(c, ", name=");
		ioctl_p_cstring(c, (const char *)u.std.name, sizeof(u.std.name));
		p_fract(c, "frameperiod", &u.std.frameperiod);
		out(c, ", framelines=%u", u.std.framelines);
		break;
	case VIDIOC_ENUMINPUT:
		out(c, ", name=");
		ioctl_p_cstring(c, (const char *)u.input.name, sizeof(u.input.name));
		out(c, ", type=");
		p_xval(c, &xlat_v4l2_input_types, u.input.type, "V4L2_INPUT_TYPE_???");
		break;
	case VIDIOC_G_CTRL:
		out(c, ", value=%d", u.ctrl.value);
		break;
	case VIDIOC_S_CTRL:
		out(c, IOCTL_CHANGED "%d", u.ctrl.value);
		break;
	case VIDIOC_G_TUNER:
		v4l2_p_tuner_rest(c, ", ", &u.tuner);
		break;
	case VIDIOC_S_TUNER:
		v4l2_p_tuner_rest(c, "}" IOCTL_CHANGED "{", &u.tuner);
		break;
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
		p_ctrl_query(c, req, &u);
		break;
	case VIDIOC_CROPCAP:
		out(c, ", bounds=");
		v4l2_p_rect(c, &u.cropcap.bounds);
		out(c, ", defrect=");
		v4l2_p_rect(c, &u.cropcap.defrect);
		p_fract(c, "pixelaspect", &u.cropcap.pixelaspect);
		break;
	case VIDIOC_G_CROP:
		out(c, ", c=");
		v4l2_p_rect(c, &u.crop.c);
		break;
	case VIDIOC_ENUM_FRAMESIZES:
		p_frmsize(c, &u.frmsize);
		break;
	case VIDIOC_ENUM_FRAMEINTERVALS:
		p_frmival(c, &u.frmival);
		break;
	}
	out(c, "}");
	return 0;
}

static void p_kernel_version(struct sc_call *c, uint32_t v)
{
	char name[64];
	snprintf(name, sizeof(name), "KERNEL_VERSION(%u, %u, %u)", v >> 16, (v >> 8) & 0xff,
		 v & 0xff);
	v4l2_p_named(c, v, name, NULL);
}

void v4l2_p_capability(struct sc_call *c, uint64_t arg)
{
	struct v4l2_capability caps;
	if (p_fetch(c, arg, &caps, sizeof(caps)) < 0)
		return;
	out(c, "{driver=");
	ioctl_p_cstring(c, (const char *)caps.driver, sizeof(caps.driver));
	out(c, ", card=");
	ioctl_p_cstring(c, (const char *)caps.card, sizeof(caps.card));
	out(c, ", bus_info=");
	ioctl_p_cstring(c, (const char *)caps.bus_info, sizeof(caps.bus_info));
	out(c, ", version=");
	p_kernel_version(c, caps.version);
	out(c, ", capabilities=");
	p_flags(c, &xlat_v4l2_device_capabilities_flags, caps.capabilities, "V4L2_CAP_???");
	if (caps.device_caps) {
		out(c, ", device_caps=");
		p_flags(c, &xlat_v4l2_device_capabilities_flags, caps.device_caps, "V4L2_CAP_???");
	}
	out(c, "}");
}

int v4l2_create_bufs_exit(struct sc_call *c, uint64_t arg)
{
	struct v4l2_create_buffers b;
	if (!sc_failed(c) && sc_mem_read(c, arg, &b, sizeof(b)) == 0)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "({index=%u, count=%u})", b.index, b.count);
	return 0;
}


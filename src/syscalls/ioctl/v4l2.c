/*
 * Video4Linux2 ioctls (linux/videodev2.h), as strace 6.1 prints them: what
 * the kernel reads at entry, the rest (or the address of a failed call's
 * buffer) at exit; values and formats print through v4l2_print.c, what a
 * successful call returned through v4l2_answer.c.  The window's clips and the
 * extended controls' array are behind pointers: v4l2_walk copies them
 * (ptrace mode; the --kernel mode does not follow them and prints their
 * addresses).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/videodev2.h>

#include "v4l2.h"

/* G_FMT asks with the type only; S_FMT and TRY_FMT give the format, the kernel's follows " => ". */
static int v4l2_format(struct sc_call *c, uint64_t arg, bool get)
{
	struct v4l2_format f;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &f, sizeof(f)) < 0)
			return SC_DONE;
		out(c, "{type=");
		v4l2_p_buf_type(c, f.type);
		if (get)
			return 0;
		if (!v4l2_p_format_fmt(c, ", ", &f)) {
			out(c, "}");
			return SC_DONE;
		}
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &f, sizeof(f)) == 0)
		v4l2_p_format_fmt(c, get ? ", " : "}" IOCTL_CHANGED "{", &f);
	out(c, "}");
	return 0;
}

static void p_streamparm(struct sc_call *c, const struct v4l2_streamparm *s)
{
	bool capture = s->type == V4L2_BUF_TYPE_VIDEO_CAPTURE;
	const struct v4l2_captureparm *cp = &s->parm.capture;
	const struct v4l2_outputparm *op = &s->parm.output;
	out(c, capture ? "parm.capture={capability=" : "parm.output={capability=");
	p_flags(c, &xlat_v4l2_streaming_capabilities, capture ? cp->capability : op->capability,
		"V4L2_CAP_???");
	out(c, capture ? ", capturemode=" : ", outputmode=");
	p_flags(c, &xlat_v4l2_capture_modes, capture ? cp->capturemode : op->outputmode,
		"V4L2_MODE_???");
	if (capture)
		out(c, ", timeperframe=%u/%u, extendedmode=%#x, readbuffers=%u}",
		    cp->timeperframe.numerator, cp->timeperframe.denominator, cp->extendedmode,
		    cp->readbuffers);
	else
		out(c, ", timeperframe=%u/%u, extendedmode=%#x, writebuffers=%u}",
		    op->timeperframe.numerator, op->timeperframe.denominator, op->extendedmode,
		    op->writebuffers);
}

static int v4l2_streamparm(struct sc_call *c, uint64_t arg, bool get)
{
	struct v4l2_streamparm s;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &s, sizeof(s)) < 0)
			return SC_DONE;
		out(c, "{type=");
		v4l2_p_buf_type(c, s.type);
		if (s.type != V4L2_BUF_TYPE_VIDEO_CAPTURE && s.type != V4L2_BUF_TYPE_VIDEO_OUTPUT) {
			out(c, "}");
			return SC_DONE;
		}
		if (!get) {
			out(c, ", ");
			p_streamparm(c, &s);
		}
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &s, sizeof(s)) == 0) {
		out(c, get ? ", " : "}" IOCTL_CHANGED "{");
		p_streamparm(c, &s);
	}
	out(c, "}");
	return 0;
}

static void p_ext_control(struct sc_call *c, const void *elem, uint64_t addr)
{
	(void)addr;
	struct v4l2_ext_control x;
	memcpy(&x, elem, sizeof(x));
	out(c, "{id=");
	p_xval(c, &xlat_v4l2_control_ids, x.id, "V4L2_CID_???");
	out(c, ", size=%u", x.size);
	if (x.size) {
		out(c, ", string=");
		p_buf(c, (uint64_t)(uintptr_t)x.string, x.size);
	} else {
		out(c, ", value=%d, value64=%" PRId64, x.value, (int64_t)x.value64);
	}
	out(c, "}");
}

/* The array is printed at entry for S/TRY, at exit for G and again (what the kernel left) for S/TRY. */
static int v4l2_ext_controls(struct sc_call *c, uint64_t arg, bool get)
{
	struct v4l2_ext_controls x;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &x, sizeof(x)) < 0)
			return SC_DONE;
		out(c, "{ctrl_class=");
		p_xval(c, &xlat_v4l2_control_classes, x.ctrl_class, "V4L2_CTRL_CLASS_???");
		out(c, ", count=%u", x.count);
		if (!x.count) {
			out(c, "}");
			return SC_DONE;
		}
		if (get)
			return 0;
		out(c, ", controls=");
	} else {
		if (sc_mem_read(c, arg, &x, sizeof(x)) < 0) {
			out(c, "}");
			return 0;
		}
		out(c, get ? ", controls=" : "}" IOCTL_CHANGED "{controls=");
	}
	bool ok = ioctl_p_array(c, (uint64_t)(uintptr_t)x.controls, x.count,
				sizeof(struct v4l2_ext_control), p_ext_control);
	if (!c->entering && sc_failed(c))
		out(c, ", error_idx=%u", x.error_idx);
	if (!c->entering || !ok) {
		out(c, "}");
		return c->entering ? SC_DONE : 0;
	}
	return 0;
}

static void p_framebuffer(struct sc_call *c, uint64_t arg)
{
	struct v4l2_framebuffer b;
	if (p_fetch(c, arg, &b, sizeof(b)) < 0)
		return;
	out(c, "{capability=%#x, flags=%#x, base=", b.capability, b.flags);
	v4l2_p_ptr(c, (uint64_t)(uintptr_t)b.base);
	out(c, "}");
}

void v4l2_p_tuner_rest(struct sc_call *c, const char *prefix, const struct v4l2_tuner *t)
{
	out(c, "%sname=", prefix);
	ioctl_p_cstring(c, (const char *)t->name, sizeof(t->name));
	out(c, ", type=");
	p_xval(c, &xlat_v4l2_tuner_types, t->type, "V4L2_TUNER_???");
	out(c, ", capability=");
	p_flags(c, &xlat_v4l2_tuner_capabilities, t->capability, "V4L2_TUNER_CAP_???");
	out(c, ", rangelow=%u, rangehigh=%u, rxsubchans=", t->rangelow, t->rangehigh);
	p_flags(c, &xlat_v4l2_tuner_rxsubchanses, t->rxsubchans, "V4L2_TUNER_SUB_???");
	out(c, ", audmode=");
	p_xval(c, &xlat_v4l2_tuner_audmodes, t->audmode, "V4L2_TUNER_MODE_???");
	out(c, ", signal=%d, afc=%d", t->signal, t->afc);
}

/* Requests whose entry is one struct, the kernel's answer at exit (v4l2_simple_exit). */
static int v4l2_simple_entry(struct sc_call *c, unsigned req, uint64_t arg)
{
	union v4l2_arg u;
	p_sep(c);
	if (p_fetch(c, arg, &u, v4l2_arg_size(req)) < 0)
		return SC_DONE;
	switch (req) {
	case VIDIOC_ENUM_FMT:
		out(c, "{index=%u, type=", u.fmtdesc.index);
		v4l2_p_buf_type(c, u.fmtdesc.type);
		break;
	case VIDIOC_REQBUFS:
		out(c, "{type=");
		v4l2_p_buf_type(c, u.reqbufs.type);
		out(c, ", memory=");
		p_xval(c, &xlat_v4l2_memories, u.reqbufs.memory, "V4L2_MEMORY_???");
		out(c, ", count=%u", u.reqbufs.count);
		break;
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
		out(c, "{type=");
		v4l2_p_buf_type(c, u.buf.type);
		if (req != VIDIOC_DQBUF)
			out(c, ", index=%u", u.buf.index);
		break;
	case VIDIOC_ENUMSTD:
		out(c, "{index=%u", u.std.index);
		break;
	case VIDIOC_ENUMINPUT:
		out(c, "{index=%u", u.input.index);
		break;
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL:
		out(c, "{id=");
		v4l2_p_cid(c, u.ctrl.id, false);
		if (req == VIDIOC_S_CTRL)
			out(c, ", value=%d", u.ctrl.value);
		break;
	case VIDIOC_G_TUNER:
	case VIDIOC_S_TUNER:
		out(c, "{index=%u", u.tuner.index);
		if (req == VIDIOC_S_TUNER)
			v4l2_p_tuner_rest(c, ", ", &u.tuner);
		break;
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
	{
		uint32_t id = req == VIDIOC_QUERYCTRL ? u.qctrl.id : u.qectrl.id;
		out(c, "{id=");
		v4l2_p_cid(c, id, true);
		/* At exit a changed id follows " => ". */
		uint32_t *asked = malloc(sizeof(*asked));
		if (asked) {
			*asked = id;
			c->priv = asked;
		}
		break;
	}
	case VIDIOC_CROPCAP:
		out(c, "{type=");
		v4l2_p_buf_type(c, u.cropcap.type);
		break;
	case VIDIOC_G_CROP:
	case VIDIOC_S_CROP:
		out(c, "{type=");
		v4l2_p_buf_type(c, u.crop.type);
		if (req == VIDIOC_S_CROP) {
			out(c, ", c=");
			v4l2_p_rect(c, &u.crop.c);
		}
		break;
	case VIDIOC_ENUM_FRAMESIZES:
		out(c, "{index=%u, pixel_format=", u.frmsize.index);
		v4l2_p_fourcc(c, u.frmsize.pixel_format, &xlat_v4l2_pix_fmts);
		break;
	case VIDIOC_ENUM_FRAMEINTERVALS:
		out(c, "{index=%u, pixel_format=", u.frmival.index);
		v4l2_p_fourcc(c, u.frmival.pixel_format, &xlat_v4l2_pix_fmts);
		out(c, ", width=%u, height=%u", u.frmival.width, u.frmival.height);
		break;
	}
	return 0;
}

static int v4l2_create_bufs(struct sc_call *c, uint64_t arg)
{
	struct v4l2_create_buffers b;
	p_sep(c);
	if (p_fetch(c, arg, &b, sizeof(b)) < 0)
		return SC_DONE;
	out(c, "{count=%u, memory=", b.count);
	p_xval(c, &xlat_v4l2_memories, b.memory, "V4L2_MEMORY_???");
	out(c, ", format={type=");
	v4l2_p_buf_type(c, b.format.type);
	v4l2_p_format_fmt(c, ", ", &b.format);
	out(c, "}}");
	/* The buffers made print after the return value. */
	return 0;
}

/* [value] of a v4l2_std_id (wide, in hex) or an int: VIDIOC_G/S_STD, VIDIOC_G/S_INPUT. */
static void p_num(struct sc_call *c, uint64_t arg, bool wide)
{
	uint64_t v = 0;
	if (p_fetch(c, arg, &v, wide ? 8 : 4) == 0)
		out(c, wide ? "[%#" PRIx64 "]" : "[%" PRIu64 "]", v);
}

static void p_std(struct sc_call *c, uint64_t arg)
{
	p_num(c, arg, true);
}

static void p_input(struct sc_call *c, uint64_t arg)
{
	p_num(c, arg, false);
}

/* Requests decoded by the same function at entry and at exit; IOCTL_UNDECODED for the others. */
static int v4l2_either(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case VIDIOC_G_FMT:
	case VIDIOC_S_FMT:
	case VIDIOC_TRY_FMT:
		return v4l2_format(c, arg, req == VIDIOC_G_FMT);
	case VIDIOC_G_PARM:
	case VIDIOC_S_PARM:
		return v4l2_streamparm(c, arg, req == VIDIOC_G_PARM);
	case VIDIOC_S_EXT_CTRLS:
	case VIDIOC_TRY_EXT_CTRLS:
	case VIDIOC_G_EXT_CTRLS:
		return v4l2_ext_controls(c, arg, req == VIDIOC_G_EXT_CTRLS);
	case VIDIOC_QUERYCAP:
		return ioctl_getter(c, arg, v4l2_p_capability);
	case VIDIOC_G_FBUF:
		return ioctl_getter(c, arg, p_framebuffer);
	case VIDIOC_G_STD:
		return ioctl_getter(c, arg, p_std);
	case VIDIOC_G_INPUT:
		return ioctl_getter(c, arg, p_input);
	}
	return IOCTL_UNDECODED;
}

static int v4l2_exit(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req == VIDIOC_CREATE_BUFS)
		return v4l2_create_bufs_exit(c, arg);
	return v4l2_simple_exit(c, req, arg);
}

static int v4l2_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (!xlat_str(&xlat_v4l2_ioctls, req))
		return IOCTL_UNDECODED;
	int r = v4l2_either(c, req, arg);
	if (r != IOCTL_UNDECODED)
		return r;
	if (!c->entering)
		return v4l2_exit(c, req, arg);
	switch (req) {
	case VIDIOC_S_STD:
		return ioctl_setter(c, arg, p_std);
	case VIDIOC_S_INPUT:
		return ioctl_setter(c, arg, p_input);
	case VIDIOC_S_FBUF:
		return ioctl_setter(c, arg, p_framebuffer);
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF: {
		uint32_t type;
		p_sep(c);
		if (p_fetch(c, arg, &type, sizeof(type)) == 0) {
			out(c, "[");
			v4l2_p_buf_type(c, type);
			out(c, "]");
		}
		return SC_DONE;
	}
	case VIDIOC_CREATE_BUFS:
		return v4l2_create_bufs(c, arg);
	case VIDIOC_ENUM_FMT:
	case VIDIOC_REQBUFS:
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
	case VIDIOC_ENUMSTD:
	case VIDIOC_ENUMINPUT:
	case VIDIOC_G_CTRL:
	case VIDIOC_S_CTRL:
	case VIDIOC_G_TUNER:
	case VIDIOC_S_TUNER:
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
	case VIDIOC_CROPCAP:
	case VIDIOC_G_CROP:
	case VIDIOC_S_CROP:
	case VIDIOC_ENUM_FRAMESIZES:
	case VIDIOC_ENUM_FRAMEINTERVALS:
		return v4l2_simple_entry(c, req, arg);
	}
	return IOCTL_UNDECODED;
}

static size_t v4l2_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return xlat_str(&xlat_v4l2_ioctls, req) ? _IOC_SIZE(req) : 0;
}

/* The clips of a window format (S_FMT, CREATE_BUFS, ...) at addr. */
static void walk_format(struct sc_walk *w, const struct sc_call *c, uint64_t addr)
{
	struct v4l2_format fmt;
	if (ioctl_walk_read(w, addr, &fmt, sizeof(fmt)) < 0)
		return;
	if (fmt.type == V4L2_BUF_TYPE_VIDEO_OVERLAY || fmt.type == V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY)
		ioctl_keep_array(w, c, (uint64_t)(uintptr_t)fmt.fmt.win.clips, fmt.fmt.win.clipcount,
			   sizeof(struct v4l2_clip));
}

static void v4l2_walk(struct sc_walk *w, const struct sc_call *c, unsigned req)
{
	uint64_t arg = c->args[2];
	if (req == VIDIOC_S_FMT || req == VIDIOC_TRY_FMT || req == VIDIOC_G_FMT) {
		walk_format(w, c, arg);
		return;
	}
	if (req == VIDIOC_CREATE_BUFS) {
		walk_format(w, c, arg + offsetof(struct v4l2_create_buffers, format));
		return;
	}
	if (req != VIDIOC_S_EXT_CTRLS && req != VIDIOC_TRY_EXT_CTRLS && req != VIDIOC_G_EXT_CTRLS)
		return;
	struct v4l2_ext_controls x;
	if (ioctl_walk_read(w, arg, &x, sizeof(x)) < 0)
		return;
	uint64_t base = (uint64_t)(uintptr_t)x.controls;
	ioctl_keep_array(w, c, base, x.count, sizeof(struct v4l2_ext_control));
	size_t budget = IOCTL_WALK_BYTES;
	for (uint64_t i = 0; i < x.count && i <= ioctl_strsize(c) && i < IOCTL_WALK_MAX; i++) {
		struct v4l2_ext_control e;
		if (ioctl_walk_read(w, base + i * sizeof(e), &e, sizeof(e)) < 0)
			break;
		size_t len = e.size < ioctl_strsize(c) + 1 ? e.size : ioctl_strsize(c) + 1;
		if (len > budget)
			break;
		budget -= len;
		const unsigned char *p;
		if (len)
			sc_walk_grab(w, (uint64_t)(uintptr_t)e.string, len, &p);
	}
}

const struct ioctl_family ioctl_v4l2 = {
	.type = 'V',
	.names = &xlat_v4l2_ioctls,
	.decode = v4l2_decode,
	.arg_len = v4l2_arg_len,
	.walk = v4l2_walk,
};

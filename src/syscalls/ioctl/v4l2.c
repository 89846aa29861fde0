/*
 * Video4Linux2 ioctls (linux/videodev2.h), as strace 6.1 prints them: what
 * the kernel reads at entry, the rest (or the address of a failed call's
 * buffer) at exit.  Pixel formats print as v4l2_fourcc('R', 'G', 'B', '1')
 * with the format's name as a comment; control ids by name, else as
 * CLASS+offset.  The window's clips and the extended controls' array are
 * behind pointers: v4l2_follow copies them (ptrace mode; the --kernel mode
 * does not follow them and prints their addresses).
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/videodev2.h>

#include "family.h"

/* A value with a name made here (CLASS+0x12): the -X style decides. */
static void p_named(struct sc_call *c, uint32_t v, const char *name, const char *dflt)
{
	if (xlat_style == XLAT_STYLE_RAW)
		out(c, "%#x", v);
	else if (!name)
		out(c, "%#x /* %s */", v, dflt);
	else if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%#x /* %s */", v, name);
	else
		out(c, "%s", name);
}

/* One character as C writes it in quotes: 'A', '\'', '\xfa'. */
static void p_char(struct sc_call *c, unsigned char ch)
{
	if (ch == '\'' || ch == '\\')
		out(c, "'\\%c'", ch);
	else if (ch >= ' ' && ch < 0x7f)
		out(c, "'%c'", ch);
	else
		out(c, "'\\x%02x'", ch);
}

static void p_fourcc(struct sc_call *c, uint32_t v, const struct xlat *names)
{
	if (xlat_style == XLAT_STYLE_RAW) {
		out(c, "%#x", v);
		return;
	}
	out(c, "v4l2_fourcc(");
	for (int i = 0; i < 4; i++) {
		out(c, i ? ", " : "");
		p_char(c, (unsigned char)(v >> (8 * i)));
	}
	out(c, ")");
	const char *name = xlat_str(names, v);
	if (name)
		out(c, " /* %s */", name);
}

/* A control id; next: the V4L2_CTRL_FLAG_NEXT_* bits a query may OR in. */
static void p_cid(struct sc_call *c, uint32_t cid, bool next)
{
	if (xlat_style == XLAT_STYLE_RAW) {
		out(c, "%#x", cid);
		return;
	}
	uint32_t flags = next ? cid & (V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND) : 0;
	if (flags) {
		p_flags(c, &xlat_v4l2_control_query_flags, flags, "V4L2_CTRL_FLAG_NEXT_???");
		out(c, "|");
		cid &= ~flags;
	}
	const char *name = xlat_str(&xlat_v4l2_control_ids, cid);
	const char *class = xlat_str(&xlat_v4l2_control_classes, cid & 0xffff0000u);
	char buf[96];
	if (!name && class) {
		snprintf(buf, sizeof(buf), "%s+%#x", class, cid & 0xffffu);
		name = buf;
	}
	p_named(c, cid, name, "V4L2_CID_???");
}

static void p_buf_type(struct sc_call *c, uint32_t type)
{
	p_xval(c, &xlat_v4l2_buf_types, type, "V4L2_BUF_TYPE_???");
}

static void p_rect(struct sc_call *c, const struct v4l2_rect *r)
{
	out(c, "{left=%d, top=%d, width=%u, height=%u}", r->left, r->top, r->width, r->height);
}

static void p_ptr(struct sc_call *c, uint64_t p)
{
	if (p)
		out(c, "%#" PRIx64, p);
	else
		out(c, "NULL");
}

static void p_clip(struct sc_call *c, const void *elem, uint64_t addr)
{
	(void)addr;
	struct v4l2_clip clip;
	memcpy(&clip, elem, sizeof(clip));
	out(c, "{c=");
	p_rect(c, &clip.c);
	out(c, "}");
}

static void p_plane_fmt(struct sc_call *c, const void *elem)
{
	struct v4l2_plane_pix_format pf;
	memcpy(&pf, elem, sizeof(pf));
	out(c, "{sizeimage=%u, bytesperline=%u}", pf.sizeimage, pf.bytesperline);
}

static void p_pix(struct sc_call *c, const struct v4l2_pix_format *p)
{
	out(c, "{width=%u, height=%u, pixelformat=", p->width, p->height);
	p_fourcc(c, p->pixelformat, &xlat_v4l2_pix_fmts);
	out(c, ", field=");
	p_xval(c, &xlat_v4l2_fields, p->field, "V4L2_FIELD_???");
	out(c, ", bytesperline=%u, sizeimage=%u, colorspace=", p->bytesperline, p->sizeimage);
	p_xval(c, &xlat_v4l2_colorspaces, p->colorspace, "V4L2_COLORSPACE_???");
	out(c, "}");
}

static void p_pix_mp(struct sc_call *c, const struct v4l2_pix_format_mplane *p)
{
	out(c, "{width=%u, height=%u, pixelformat=", p->width, p->height);
	p_fourcc(c, p->pixelformat, &xlat_v4l2_pix_fmts);
	out(c, ", field=");
	p_xval(c, &xlat_v4l2_fields, p->field, "V4L2_FIELD_???");
	out(c, ", colorspace=");
	p_xval(c, &xlat_v4l2_colorspaces, p->colorspace, "V4L2_COLORSPACE_???");
	out(c, ", plane_fmt=[");
	size_t n = p->num_planes < VIDEO_MAX_PLANES ? p->num_planes : VIDEO_MAX_PLANES;
	for (size_t i = 0; i < n; i++) {
		out(c, i ? ", " : "");
		p_plane_fmt(c, &p->plane_fmt[i]);
	}
	out(c, "], num_planes=%u}", p->num_planes);
}

/* False when the clips could not all be printed. */
static bool p_win(struct sc_call *c, const struct v4l2_window *w)
{
	out(c, "{w=");
	p_rect(c, &w->w);
	out(c, ", field=");
	p_xval(c, &xlat_v4l2_fields, w->field, "V4L2_FIELD_???");
	out(c, ", chromakey=%#x, clips=", w->chromakey);
	bool ok = ioctl_p_array(c, (uint64_t)(uintptr_t)w->clips, w->clipcount,
				sizeof(struct v4l2_clip), p_clip);
	out(c, ", clipcount=%u, bitmap=", w->clipcount);
	p_ptr(c, (uint64_t)(uintptr_t)w->bitmap);
	if (w->global_alpha)
		out(c, ", global_alpha=%#x", w->global_alpha);
	out(c, "}");
	return ok;
}

static void p_vbi(struct sc_call *c, const struct v4l2_vbi_format *v)
{
	out(c, "{sampling_rate=%u, offset=%u, samples_per_line=%u, sample_format=",
	    v->sampling_rate, v->offset, v->samples_per_line);
	p_fourcc(c, v->sample_format, &xlat_v4l2_pix_fmts);
	out(c, ", start=[%d, %d], count=[%u, %u], flags=", v->start[0], v->start[1], v->count[0],
	    v->count[1]);
	p_flags(c, &xlat_v4l2_vbi_flags, v->flags, "V4L2_VBI_???");
	out(c, "}");
}

static void p_sliced(struct sc_call *c, const struct v4l2_sliced_vbi_format *s)
{
	out(c, "{service_set=");
	p_flags(c, &xlat_v4l2_sliced_flags, s->service_set, "V4L2_SLICED_???");
	out(c, ", service_lines=[");
	for (int i = 0; i < 2; i++) {
		out(c, i ? ", [" : "[");
		for (int j = 0; j < 24; j++)
			out(c, s->service_lines[i][j] ? "%s%#x" : "%s%u", j ? ", " : "",
			    s->service_lines[i][j]);
		out(c, "]");
	}
	out(c, "], io_size=%u}", s->io_size);
}

static void p_sdr(struct sc_call *c, const struct v4l2_sdr_format *s)
{
	out(c, "{pixelformat=");
	p_fourcc(c, s->pixelformat, &xlat_v4l2_sdr_fmts);
	if (s->buffersize)
		out(c, ", buffersize=%u", s->buffersize);
	out(c, "}");
}

static void p_meta(struct sc_call *c, const struct v4l2_meta_format *m)
{
	out(c, "{dataformat=");
	p_fourcc(c, m->dataformat, &xlat_v4l2_meta_fmts);
	out(c, ", buffersize=%u}", m->buffersize);
}

/* ", fmt.pix={...}" after prefix for the formats of f's type; false for others or unprinted clips. */
static bool p_format_fmt(struct sc_call *c, const char *prefix, const struct v4l2_format *f)
{
	switch (f->type) {
	case V4L2_BUF_TYPE_VIDEO_CAPTURE:
	case V4L2_BUF_TYPE_VIDEO_OUTPUT:
		out(c, "%sfmt.pix=", prefix);
		p_pix(c, &f->fmt.pix);
		return true;
	case V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE:
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_MPLANE:
		out(c, "%sfmt.pix_mp=", prefix);
		p_pix_mp(c, &f->fmt.pix_mp);
		return true;
	case V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY:
	case V4L2_BUF_TYPE_VIDEO_OVERLAY:
		out(c, "%sfmt.win=", prefix);
		return p_win(c, &f->fmt.win);
	case V4L2_BUF_TYPE_VBI_CAPTURE:
	case V4L2_BUF_TYPE_VBI_OUTPUT:
		out(c, "%sfmt.vbi=", prefix);
		p_vbi(c, &f->fmt.vbi);
		return true;
	case V4L2_BUF_TYPE_SLICED_VBI_CAPTURE:
	case V4L2_BUF_TYPE_SLICED_VBI_OUTPUT:
		out(c, "%sfmt.sliced=", prefix);
		p_sliced(c, &f->fmt.sliced);
		return true;
	case V4L2_BUF_TYPE_SDR_CAPTURE:
	case V4L2_BUF_TYPE_SDR_OUTPUT:
		out(c, "%sfmt.sdr=", prefix);
		p_sdr(c, &f->fmt.sdr);
		return true;
	case V4L2_BUF_TYPE_META_CAPTURE:
	case V4L2_BUF_TYPE_META_OUTPUT:
		out(c, "%sfmt.meta=", prefix);
		p_meta(c, &f->fmt.meta);
		return true;
	}
	return false;
}

/* G_FMT asks with the type only; S_FMT and TRY_FMT give the format, the kernel's follows " => ". */
static int v4l2_format(struct sc_call *c, uint64_t arg, bool get)
{
	struct v4l2_format f;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &f, sizeof(f)) < 0)
			return SC_DONE;
		out(c, "{type=");
		p_buf_type(c, f.type);
		if (get)
			return 0;
		if (!p_format_fmt(c, ", ", &f)) {
			out(c, "}");
			return SC_DONE;
		}
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &f, sizeof(f)) == 0)
		p_format_fmt(c, get ? ", " : "}" IOCTL_CHANGED "{", &f);
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
		p_buf_type(c, s.type);
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
	p_ptr(c, (uint64_t)(uintptr_t)b.base);
	out(c, "}");
}

static void p_tuner_rest(struct sc_call *c, const char *prefix, const struct v4l2_tuner *t)
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

/* The structs of the requests printed by v4l2_simple_entry and v4l2_simple_exit. */
union v4l2_arg {
	struct v4l2_fmtdesc fmtdesc;
	struct v4l2_requestbuffers reqbufs;
	struct v4l2_buffer buf;
	struct v4l2_standard std;
	struct v4l2_input input;
	struct v4l2_control ctrl;
	struct v4l2_tuner tuner;
	struct v4l2_queryctrl qctrl;
	struct v4l2_query_ext_ctrl qectrl;
	struct v4l2_cropcap cropcap;
	struct v4l2_crop crop;
	struct v4l2_frmsizeenum frmsize;
	struct v4l2_frmivalenum frmival;
};

static size_t arg_size(unsigned req)
{
	return _IOC_SIZE(req) < sizeof(union v4l2_arg) ? _IOC_SIZE(req) : sizeof(union v4l2_arg);
}

/* Requests whose entry is one struct, the kernel's answer at exit (v4l2_simple_exit). */
static int v4l2_simple_entry(struct sc_call *c, unsigned req, uint64_t arg)
{
	union v4l2_arg u;
	p_sep(c);
	if (p_fetch(c, arg, &u, arg_size(req)) < 0)
		return SC_DONE;
	switch (req) {
	case VIDIOC_ENUM_FMT:
		out(c, "{index=%u, type=", u.fmtdesc.index);
		p_buf_type(c, u.fmtdesc.type);
		break;
	case VIDIOC_REQBUFS:
		out(c, "{type=");
		p_buf_type(c, u.reqbufs.type);
		out(c, ", memory=");
		p_xval(c, &xlat_v4l2_memories, u.reqbufs.memory, "V4L2_MEMORY_???");
		out(c, ", count=%u", u.reqbufs.count);
		break;
	case VIDIOC_QUERYBUF:
	case VIDIOC_QBUF:
	case VIDIOC_DQBUF:
		out(c, "{type=");
		p_buf_type(c, u.buf.type);
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
		p_cid(c, u.ctrl.id, false);
		if (req == VIDIOC_S_CTRL)
			out(c, ", value=%d", u.ctrl.value);
		break;
	case VIDIOC_G_TUNER:
	case VIDIOC_S_TUNER:
		out(c, "{index=%u", u.tuner.index);
		if (req == VIDIOC_S_TUNER)
			p_tuner_rest(c, ", ", &u.tuner);
		break;
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
	{
		uint32_t id = req == VIDIOC_QUERYCTRL ? u.qctrl.id : u.qectrl.id;
		out(c, "{id=");
		p_cid(c, id, true);
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
		p_buf_type(c, u.cropcap.type);
		break;
	case VIDIOC_G_CROP:
	case VIDIOC_S_CROP:
		out(c, "{type=");
		p_buf_type(c, u.crop.type);
		if (req == VIDIOC_S_CROP) {
			out(c, ", c=");
			p_rect(c, &u.crop.c);
		}
		break;
	case VIDIOC_ENUM_FRAMESIZES:
		out(c, "{index=%u, pixel_format=", u.frmsize.index);
		p_fourcc(c, u.frmsize.pixel_format, &xlat_v4l2_pix_fmts);
		break;
	case VIDIOC_ENUM_FRAMEINTERVALS:
		out(c, "{index=%u, pixel_format=", u.frmival.index);
		p_fourcc(c, u.frmival.pixel_format, &xlat_v4l2_pix_fmts);
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
	p_buf_type(c, b.format.type);
	p_format_fmt(c, ", ", &b.format);
	out(c, "}}");
	/* The buffers made print after the return value. */
	return 0;
}

/* Getters of one value: nothing at entry; at exit [value], or the address of a failed call's. */
static int v4l2_num_out(struct sc_call *c, uint64_t arg, bool wide)
{
	if (c->entering)
		return 0;
	p_sep(c);
	if (sc_failed(c)) {
		p_addr(c, arg);
		return 0;
	}
	uint64_t v = 0;
	if (p_fetch(c, arg, &v, wide ? 8 : 4) == 0)
		out(c, wide ? "[%#" PRIx64 "]" : "[%" PRIu64 "]", v);
	return 0;
}

static int v4l2_num_in(struct sc_call *c, uint64_t arg, bool wide)
{
	uint64_t v = 0;
	p_sep(c);
	if (p_fetch(c, arg, &v, wide ? 8 : 4) == 0)
		out(c, wide ? "[%#" PRIx64 "]" : "[%" PRIu64 "]", v);
	return SC_DONE;
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
		p_ptr(c, b->m.userptr);
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
		p_cid(c, id, false);
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
static int v4l2_simple_exit(struct sc_call *c, unsigned req, uint64_t arg)
{
	union v4l2_arg u;
	if (req == VIDIOC_S_CROP || sc_failed(c) || sc_mem_read(c, arg, &u, arg_size(req)) < 0) {
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
		p_fourcc(c, u.fmtdesc.pixelformat, &xlat_v4l2_pix_fmts);
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
		p_tuner_rest(c, ", ", &u.tuner);
		break;
	case VIDIOC_S_TUNER:
		p_tuner_rest(c, "}" IOCTL_CHANGED "{", &u.tuner);
		break;
	case VIDIOC_QUERYCTRL:
	case VIDIOC_QUERY_EXT_CTRL:
		p_ctrl_query(c, req, &u);
		break;
	case VIDIOC_CROPCAP:
		out(c, ", bounds=");
		p_rect(c, &u.cropcap.bounds);
		out(c, ", defrect=");
		p_rect(c, &u.cropcap.defrect);
		p_fract(c, "pixelaspect", &u.cropcap.pixelaspect);
		break;
	case VIDIOC_G_CROP:
		out(c, ", c=");
		p_rect(c, &u.crop.c);
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
	p_named(c, v, name, NULL);
}

static void p_capability(struct sc_call *c, uint64_t arg)
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

static int v4l2_create_bufs_exit(struct sc_call *c, uint64_t arg)
{
	struct v4l2_create_buffers b;
	if (!sc_failed(c) && sc_mem_read(c, arg, &b, sizeof(b)) == 0)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "({index=%u, count=%u})", b.index, b.count);
	return 0;
}

static int v4l2_exit(struct sc_call *c, unsigned req, uint64_t arg)
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
		p_sep(c);
		if (sc_failed(c))
			p_addr(c, arg);
		else
			p_capability(c, arg);
		return 0;
	case VIDIOC_CREATE_BUFS:
		return v4l2_create_bufs_exit(c, arg);
	case VIDIOC_G_FBUF:
		p_sep(c);
		if (sc_failed(c))
			p_addr(c, arg);
		else
			p_framebuffer(c, arg);
		return 0;
	case VIDIOC_G_STD:
		return v4l2_num_out(c, arg, true);
	case VIDIOC_G_INPUT:
		return v4l2_num_out(c, arg, false);
	}
	return v4l2_simple_exit(c, req, arg);
}

static int v4l2_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (!xlat_str(&xlat_v4l2_ioctls, req))
		return IOCTL_NOT_DECODED;
	if (!c->entering)
		return v4l2_exit(c, req, arg);
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
	case VIDIOC_G_FBUF:
		return 0;
	case VIDIOC_G_STD:
		return v4l2_num_out(c, arg, true);
	case VIDIOC_G_INPUT:
		return v4l2_num_out(c, arg, false);
	case VIDIOC_S_STD:
		return v4l2_num_in(c, arg, true);
	case VIDIOC_S_INPUT:
		return v4l2_num_in(c, arg, false);
	case VIDIOC_S_FBUF:
		p_sep(c);
		p_framebuffer(c, arg);
		return SC_DONE;
	case VIDIOC_STREAMON:
	case VIDIOC_STREAMOFF: {
		uint32_t type;
		p_sep(c);
		if (p_fetch(c, arg, &type, sizeof(type)) == 0) {
			out(c, "[");
			p_buf_type(c, type);
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
	return IOCTL_NOT_DECODED;
}

static size_t v4l2_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return xlat_str(&xlat_v4l2_ioctls, req) ? _IOC_SIZE(req) : 0;
}

/* The clips of a window format (S_FMT, CREATE_BUFS, ...) at addr. */
static void follow_format(struct sc_fetch *f, const struct sc_call *c, uint64_t addr)
{
	struct v4l2_format fmt;
	if (sc_fetch_read(f, addr, &fmt, sizeof(fmt)) < 0)
		return;
	if (fmt.type == V4L2_BUF_TYPE_VIDEO_OVERLAY || fmt.type == V4L2_BUF_TYPE_VIDEO_OUTPUT_OVERLAY)
		ioctl_keep_array(f, c, (uint64_t)(uintptr_t)fmt.fmt.win.clips, fmt.fmt.win.clipcount,
			   sizeof(struct v4l2_clip));
}

static void v4l2_follow(struct sc_fetch *f, const struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req == VIDIOC_S_FMT || req == VIDIOC_TRY_FMT || req == VIDIOC_G_FMT) {
		follow_format(f, c, arg);
		return;
	}
	if (req == VIDIOC_CREATE_BUFS) {
		follow_format(f, c, arg + offsetof(struct v4l2_create_buffers, format));
		return;
	}
	if (req != VIDIOC_S_EXT_CTRLS && req != VIDIOC_TRY_EXT_CTRLS && req != VIDIOC_G_EXT_CTRLS)
		return;
	struct v4l2_ext_controls x;
	if (sc_fetch_read(f, arg, &x, sizeof(x)) < 0)
		return;
	uint64_t base = (uint64_t)(uintptr_t)x.controls;
	ioctl_keep_array(f, c, base, x.count, sizeof(struct v4l2_ext_control));
	size_t budget = IOCTL_FOLLOW_BYTES;
	for (uint64_t i = 0; i < x.count && i <= ioctl_array_max(c) && i < IOCTL_FOLLOW_MAX; i++) {
		struct v4l2_ext_control e;
		if (sc_fetch_read(f, base + i * sizeof(e), &e, sizeof(e)) < 0)
			break;
		size_t len = e.size < ioctl_array_max(c) + 1 ? e.size : ioctl_array_max(c) + 1;
		if (len > budget)
			break;
		budget -= len;
		if (len)
			sc_fetch_keep(f, (uint64_t)(uintptr_t)e.string, len);
	}
}

const struct ioctl_family ioctl_v4l2 = {
	.type = 'V',
	.names = &xlat_v4l2_ioctls,
	.decode = v4l2_decode,
	.arg_len = v4l2_arg_len,
	.follow = v4l2_follow,
};

/*
 * V4L2 values and formats as strace prints them: pixel formats as
 * v4l2_fourcc() calls with their names, control ids by name or as
 * CLASS+offset, struct v4l2_format's union by its type.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "v4l2.h"

/* A value with a name made here (CLASS+0x12): the -X style decides. */
void v4l2_p_named(struct sc_call *c, uint32_t v, const char *name, const char *dflt)
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

void v4l2_p_fourcc(struct sc_call *c, uint32_t v, const struct xlat *names)
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
void v4l2_p_cid(struct sc_call *c, uint32_t cid, bool next)
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
	v4l2_p_named(c, cid, name, "V4L2_CID_???");
}

void v4l2_p_buf_type(struct sc_call *c, uint32_t type)
{
	p_xval(c, &xlat_v4l2_buf_types, type, "V4L2_BUF_TYPE_???");
}

void v4l2_p_rect(struct sc_call *c, const struct v4l2_rect *r)
{
	out(c, "{left=%d, top=%d, width=%u, height=%u}", r->left, r->top, r->width, r->height);
}

void v4l2_p_ptr(struct sc_call *c, uint64_t p)
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
	v4l2_p_rect(c, &clip.c);
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
	v4l2_p_fourcc(c, p->pixelformat, &xlat_v4l2_pix_fmts);
	out(c, ", field=");
	p_xval(c, &xlat_v4l2_fields, p->field, "V4L2_FIELD_???");
	out(c, ", bytesperline=%u, sizeimage=%u, colorspace=", p->bytesperline, p->sizeimage);
	p_xval(c, &xlat_v4l2_colorspaces, p->colorspace, "V4L2_COLORSPACE_???");
	out(c, "}");
}

static void p_pix_mp(struct sc_call *c, const struct v4l2_pix_format_mplane *p)
{
	out(c, "{width=%u, height=%u, pixelformat=", p->width, p->height);
	v4l2_p_fourcc(c, p->pixelformat, &xlat_v4l2_pix_fmts);
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
	v4l2_p_rect(c, &w->w);
	out(c, ", field=");
	p_xval(c, &xlat_v4l2_fields, w->field, "V4L2_FIELD_???");
	out(c, ", chromakey=%#x, clips=", w->chromakey);
	bool ok = ioctl_p_array(c, (uint64_t)(uintptr_t)w->clips, w->clipcount,
				sizeof(struct v4l2_clip), p_clip);
	out(c, ", clipcount=%u, bitmap=", w->clipcount);
	v4l2_p_ptr(c, (uint64_t)(uintptr_t)w->bitmap);
	if (w->global_alpha)
		out(c, ", global_alpha=%#x", w->global_alpha);
	out(c, "}");
	return ok;
}

static void p_vbi(struct sc_call *c, const struct v4l2_vbi_format *v)
{
	out(c, "{sampling_rate=%u, offset=%u, samples_per_line=%u, sample_format=",
	    v->sampling_rate, v->offset, v->samples_per_line);
	v4l2_p_fourcc(c, v->sample_format, &xlat_v4l2_pix_fmts);
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
	v4l2_p_fourcc(c, s->pixelformat, &xlat_v4l2_sdr_fmts);
	if (s->buffersize)
		out(c, ", buffersize=%u", s->buffersize);
	out(c, "}");
}

static void p_meta(struct sc_call *c, const struct v4l2_meta_format *m)
{
	out(c, "{dataformat=");
	v4l2_p_fourcc(c, m->dataformat, &xlat_v4l2_meta_fmts);
	out(c, ", buffersize=%u}", m->buffersize);
}

/* ", fmt.pix={...}" after prefix for the formats of f's type; false for others or unprinted clips. */
bool v4l2_p_format_fmt(struct sc_call *c, const char *prefix, const struct v4l2_format *f)
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


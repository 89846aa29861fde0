/*
 * Console and keyboard requests (<linux/kd.h>, key symbols from
 * <linux/keyboard.h>): LEDs, modes, key tables, fonts, unicode maps.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/kd.h>
#include <linux/keyboard.h>

#include "ioctl.h"

#define KD_FONT_NAME_MAX 32	/* KD_FONT_OP_SET_DEFAULT's name, as the kernel reads it */
#define KD_FONT_CHAR_BYTES 32	/* a glyph row-set: 32 rows whatever the height */
#define PIT_TICK_RATE 1193182	/* the PC speaker's clock, KIOCSOUND's divisor base */
/* The VGA ports KDADDIO accepts (the vt driver's, not in the uapi headers). */
#define GPFIRST 0x3b4
#define GPLAST 0x3df

/* A number and what it means: the name, the number, or both (-X). */
static void p_named(struct sc_call *c, const char *num, const char *name)
{
	if (xlat_style == XLAT_STYLE_ABBREV)
		out(c, "%s", name);
	else if (xlat_style == XLAT_STYLE_RAW)
		out(c, "%s", num);
	else
		out(c, "%s /* %s */", num, name);
}

/* A comment strace adds unless -X raw. */
static void p_note(struct sc_call *c, const char *fmt, const char *arg)
{
	if (xlat_style == XLAT_STYLE_RAW)
		return;
	out(c, " /* ");
	out(c, fmt, arg);
	out(c, " */");
}

/* len bytes in hex ("\x80\x81"...), at most -s of them; the address when unreadable. */
static void p_hexbytes(struct sc_call *c, uint64_t addr, size_t len)
{
	size_t max = ioctl_strsize(c), need = len > max ? max + 1 : len;
	const unsigned char *p;
	if (!addr) {
		out(c, "NULL");
		return;
	}
	if (need && sc_mem_peek(c, addr, need, &p) < (long)need) {
		p_addr(c, addr);
		return;
	}
	out(c, "\"");
	for (size_t i = 0; i < len && i < max; i++)
		out(c, "\\x%02x", p[i]);
	out(c, "\"%s", len > max ? "..." : "");
}

/*
 * A NUL-terminated string in a field of lim bytes; false when neither its
 * NUL nor lim bytes could be read.  A field whose last byte must be the NUL
 * (the font name) shows lim - 1 characters at most, another all lim.
 */
static bool p_cstr(struct sc_call *c, uint64_t addr, size_t lim, bool nul_in_field)
{
	const unsigned char *p;
	long n = sc_mem_peek(c, addr, lim, &p);
	if (n < 0)
		return false;
	const unsigned char *nul = memchr(p, 0, (size_t)n);
	if (!nul && (size_t)n < lim)
		return false;
	size_t len = nul ? (size_t)(nul - p) : lim;
	size_t max = nul_in_field ? lim - 1 : lim;
	if (ioctl_strsize(c) < max)
		max = ioctl_strsize(c);
	bool more = nul_in_field ? !nul || len > max : len >= max;
	p_quoted(c, p, len < max ? len : max, more);
	return true;
}

static void p_char(struct sc_call *c, unsigned char ch)
{
	static const char esc[] = "\t\n\v\f\r";
	static const char letter[] = "tnvfr";
	const char *e = ch ? strchr(esc, ch) : NULL;
	if (ch == '\'' || ch == '\\')
		out(c, "'\\%c'", ch);
	else if (e)
		out(c, "'\\%c'", letter[e - esc]);
	else if (ch >= ' ' && ch < 0x7f)
		out(c, "'%c'", ch);
	else
		out(c, "'\\x%02x'", ch);
}

/*
 * An array of cnt elements at addr: strace's print_array (an element that
 * cannot be read ends it with its address, -s caps the count); more than
 * max elements is shown as "...".
 */
static void p_array(struct sc_call *c, uint64_t addr, size_t cnt, size_t max, size_t esz,
		    void (*p_elem)(struct sc_call *c, const unsigned char *e))
{
	if (!cnt) {
		out(c, "[]");
		return;
	}
	if (!addr) {
		out(c, "NULL");
		return;
	}
	size_t n = cnt < max ? cnt : max;
	for (size_t i = 0; i < n; i++) {
		const unsigned char *e;
		uint64_t at = addr + i * esz;
		if (sc_mem_peek(c, at, esz, &e) < (long)esz) {
			if (!i) {
				p_addr(c, addr);
				return;
			}
			out(c, ", ... /* ");
			p_addr(c, at);
			out(c, " */]");
			return;
		}
		if (i >= ioctl_strsize(c)) {
			out(c, ", ...]");
			return;
		}
		out(c, i ? ", " : "[");
		p_elem(c, e);
	}
	out(c, "%s]", cnt > max ? ", ..." : "");
}

/* ---- key symbols ---------------------------------------------------------- */

static bool is_char_type(unsigned type)
{
	return type == KT_LATIN || type == KT_META || type == KT_LETTER || type == KT_DEAD2;
}

/* K_F1, K(KT_LATIN, 'a'), K(KT_SPEC, 0x14) or K(0xf, 0). */
static void p_keysym(struct sc_call *c, unsigned v)
{
	unsigned type = KTYP(v), val = KVAL(v);
	const char *name = xlat_str(&xlat_kd_keysyms, v);
	const char *tname = xlat_str(&xlat_kd_key_types, type);
	out(c, v ? "%#x" : "0", v);
	if (xlat_style == XLAT_STYLE_RAW)
		return;
	out(c, " /* ");
	if (name && !is_char_type(type))
		out(c, "%s", name);
	else if (tname && is_char_type(type)) {
		out(c, "K(%s, ", tname);
		p_char(c, (unsigned char)val);
		out(c, ")");
	} else if (tname)
		out(c, "K(%s, %s%x)", tname, val ? "0x" : "", val);
	else
		out(c, "K(%#x, %s%x)", type, val ? "0x" : "", val);
	out(c, " */");
}

/* A function key's number as KVAL(K_F1). */
static void p_kbfunc(struct sc_call *c, unsigned char func)
{
	char num[16], name[64];
	const char *s = xlat_str(&xlat_kd_keysyms, K(KT_FN, func));
	snprintf(num, sizeof(num), func ? "%#x" : "0", func);
	if (!s) {
		out(c, "%s", num);
		return;
	}
	snprintf(name, sizeof(name), "KVAL(%s)", s);
	p_named(c, num, name);
}

/* ---- structs -------------------------------------------------------------- */

static void p_kbentry_head(struct sc_call *c, uint64_t arg)
{
	const unsigned char *p;
	if (!arg || sc_mem_peek(c, arg, 2, &p) < 2) {
		p_addr(c, arg);
		return;
	}
	out(c, "{kb_table=");
	if (xlat_str(&xlat_kd_kbtables, p[0]))
		p_xval(c, &xlat_kd_kbtables, p[0], NULL);
	else
		p_flags(c, &xlat_kd_kbmods, p[0], NULL);
	out(c, ", kb_index=%u", p[1]);
}

static void p_kbentry_value(struct sc_call *c, uint64_t arg)
{
	unsigned short v;
	out(c, ", kb_value=");
	if (sc_mem_read(c, arg + 2, &v, sizeof(v)) < 0)
		out(c, "???");
	else
		p_keysym(c, v);
}

/* struct kbsentry: the function key at entry, its string when the kernel reads or wrote it. */
static bool p_kbsentry_head(struct sc_call *c, uint64_t arg)
{
	const unsigned char *p;
	if (!arg || sc_mem_peek(c, arg, 1, &p) < 1) {
		if (c->entering)
			p_addr(c, arg);
		return false;
	}
	if (c->entering) {
		out(c, "{kb_func=");
		p_kbfunc(c, p[0]);
	}
	return true;
}

static void p_kbsentry_string(struct sc_call *c, uint64_t arg)
{
	out(c, ", kb_string=");
	if (!p_cstr(c, arg + 1, sizeof(((struct kbsentry *)0)->kb_string), false))
		out(c, "???");
}

static void p_diacr(struct sc_call *c, const unsigned char *e)
{
	out(c, "{diacr=");
	p_char(c, e[0]);
	out(c, ", base=");
	p_char(c, e[1]);
	out(c, ", result=");
	p_char(c, e[2]);
	out(c, "}");
}

static void p_diacruc(struct sc_call *c, const unsigned char *e)
{
	struct kbdiacruc d;
	memcpy(&d, e, sizeof(d));
	out(c, "{diacr=%#x, base=%#x, result=%#x}", d.diacr, d.base, d.result);
}

/* struct kbdiacrs and kbdiacrsuc: a count and up to 256 entries in place. */
static void p_diacrs(struct sc_call *c, uint64_t arg, bool uc)
{
	unsigned cnt;
	if (p_fetch(c, arg, &cnt, sizeof(cnt)) < 0)
		return;
	out(c, "{kb_cnt=%u, %s=", cnt, uc ? "kbdiacruc" : "kbdiacr");
	if (uc)
		p_array(c, arg + 4, cnt, 256, sizeof(struct kbdiacruc), p_diacruc);
	else
		p_array(c, arg + 4, cnt, 256, sizeof(struct kbdiacr), p_diacr);
	out(c, "}");
}

static void p_unipair(struct sc_call *c, const unsigned char *e)
{
	struct unipair u;
	memcpy(&u, e, sizeof(u));
	out(c, "{unicode=%#x, fontpos=%#x}", u.unicode, u.fontpos);
}

static void p_unichar(struct sc_call *c, const unsigned char *e)
{
	unsigned short v;
	char num[16], name[48];
	memcpy(&v, e, sizeof(v));
	snprintf(num, sizeof(num), v ? "%#hx" : "0", v);
	if ((v & ~UNI_DIRECT_MASK) != UNI_DIRECT_BASE) {
		out(c, "%s", num);
		return;
	}
	snprintf(name, sizeof(name), "UNI_DIRECT_BASE+%s", v & UNI_DIRECT_MASK ? "" : "0");
	if (v & UNI_DIRECT_MASK)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "%#x", v & UNI_DIRECT_MASK);
	p_named(c, num, name);
}

static void p_unimap_entries(struct sc_call *c, const struct unimapdesc *u)
{
	out(c, ", entries=");
	p_array(c, (uint64_t)(uintptr_t)u->entries, u->entry_ct, SIZE_MAX, sizeof(struct unipair),
		p_unipair);
	out(c, "}");
}

static void p_fontdesc(struct sc_call *c, const struct consolefontdesc *d, bool data)
{
	uint64_t p = (uint64_t)(uintptr_t)d->chardata;
	out(c, "{charcount=%u, charheight=%u, chardata=", d->charcount, d->charheight);
	if (data)
		p_hexbytes(c, p, (size_t)d->charcount * KD_FONT_CHAR_BYTES);
	else
		p_addr(c, p);
	out(c, "}");
}

static size_t font_op_len(const struct console_font_op *f)
{
	return (size_t)((f->width + 7) / 8) * KD_FONT_CHAR_BYTES * f->charcount;
}

static void p_font_op_sizes(struct sc_call *c, const struct console_font_op *f, bool data)
{
	uint64_t p = (uint64_t)(uintptr_t)f->data;
	out(c, "width=%u, height=%u, charcount=%u, data=", f->width, f->height, f->charcount);
	if (data)
		p_hexbytes(c, p, font_op_len(f));
	else
		p_addr(c, p);
}

static int p_font_op(struct sc_call *c, uint64_t arg)
{
	struct console_font_op f;
	if (p_fetch(c, arg, &f, sizeof(f)) < 0)
		return c->entering ? SC_DONE : 0;
	if (!c->entering) {
		if (!sc_failed(c) && f.op != KD_FONT_OP_SET && f.op != KD_FONT_OP_COPY) {
			if (f.op == KD_FONT_OP_SET_DEFAULT) {
				out(c, " => {width=%u, height=%u}", f.width, f.height);
			} else {
				out(c, " => {");
				p_font_op_sizes(c, &f, f.op == KD_FONT_OP_GET);
				out(c, "}");
			}
		}
		return 0;
	}
	out(c, "{op=");
	p_xval(c, &xlat_kd_font_ops, f.op, "KD_FONT_OP_???");
	switch (f.op) {
	case KD_FONT_OP_SET_DEFAULT:
		out(c, ", width=%u, height=%u, data=", f.width, f.height);
		if (!f.data)
			out(c, "NULL");
		else if (!p_cstr(c, (uint64_t)(uintptr_t)f.data, KD_FONT_NAME_MAX, true))
			p_addr(c, (uint64_t)(uintptr_t)f.data);
		break;
	case KD_FONT_OP_COPY:
		out(c, ", height=%u}", f.height);
		return SC_DONE;
	default:
		out(c, ", flags=");
		p_flags(c, &xlat_kd_font_flags, f.flags, "KD_FONT_FLAG_???");
		out(c, ", ");
		p_font_op_sizes(c, &f, f.op == KD_FONT_OP_SET);
		break;
	}
	out(c, "}");
	return f.op == KD_FONT_OP_SET ? SC_DONE : 0;
}

/* ---- scalars -------------------------------------------------------------- */

static void p_sound(struct sc_call *c, uint64_t arg)
{
	char hz[32] = "off";
	out(c, "%" PRIu64, arg);
	if (arg && arg <= PIT_TICK_RATE)
		snprintf(hz, sizeof(hz), "%" PRIu64 " Hz", PIT_TICK_RATE / arg);
	p_note(c, "%s", hz);
}

static void p_tone(struct sc_call *c, uint64_t arg)
{
	unsigned ticks = (arg >> 16) & 0xffff, count = arg & 0xffff;
	char note[64] = "off";
	if (ticks)
		out(c, "%u<<16|%u", ticks, count);
	else
		out(c, "%u", count);
	if (ticks && count)
		snprintf(note, sizeof(note), "%u Hz, %u ms", PIT_TICK_RATE / count, ticks);
	p_note(c, "%s", note);
}

static void p_io_port(struct sc_call *c, uint64_t arg)
{
	char note[32];
	out(c, arg ? "%#" PRIx64 : "0", arg);
	if (arg >= GPFIRST && arg <= GPLAST) {
		snprintf(note, sizeof(note), "GPFIRST + %u", (unsigned)(arg - GPFIRST));
		p_note(c, "%s", note);
	}
}

static void p_sigaccept(struct sc_call *c, uint64_t arg)
{
	char num[24], name[24];
	const char *s = arg >= 1 && arg < 65 ? sc_signame((int)arg) : NULL;
	if (arg < 1 || arg >= 65) {
		out(c, "%" PRIu64, arg);
		return;
	}
	if (!s)
		snprintf(name, sizeof(name), arg == 32 ? "SIGRTMIN" : "SIGRT_%d", (int)arg - 32);
	snprintf(num, sizeof(num), "%d", (int)arg);
	p_named(c, num, s ? s : name);
}

/* K_RAW, or -1 /\* K_??? *\/ (the mode is signed). */
static void p_kbmode(struct sc_call *c, int v)
{
	const char *s = xlat_str(&xlat_kd_kbmodes, (unsigned)v);
	char num[16];
	snprintf(num, sizeof(num), "%d", v);
	if (s)
		p_named(c, num, s);
	else
		out(c, "%s%s", num, xlat_style == XLAT_STYLE_RAW ? "" : " /* K_??? */");
}

/* What a G* request wrote: [value] in the style of its S* twin. */
static void p_out_value(struct sc_call *c, unsigned req, uint64_t arg)
{
	unsigned char b;
	int i;
	if (req == KDGETLED || req == KDGKBTYPE || req == KDGKBLED) {
		if (p_fetch(c, arg, &b, 1) < 0)
			return;
		out(c, "[");
		if (req == KDGETLED)
			p_flags(c, &xlat_kd_leds, b, "LED_???");
		else if (req == KDGKBLED)
			p_flags(c, &xlat_kd_kbleds, b, "LED_???");
		else
			p_xval(c, &xlat_kd_kbtypes, b, "KB_???");
		out(c, "]");
		return;
	}
	if (p_fetch(c, arg, &i, sizeof(i)) < 0)
		return;
	out(c, "[");
	if (req == KDGETMODE)
		p_xval(c, &xlat_kd_modes, (unsigned)i, "KD_???");
	else if (req == KDGKBMODE)
		p_kbmode(c, i);
	else
		p_xval(c, &xlat_kd_meta, (unsigned)i, "K_???");
	out(c, "]");
}

/* ---- requests ------------------------------------------------------------- */

/* Requests whose argument is the value itself. */
static int kd_value(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case KIOCSOUND:
		p_sound(c, arg);
		break;
	case KDMKTONE:
		p_tone(c, arg);
		break;
	case KDSETLED:
		p_flags(c, &xlat_kd_leds, arg & 0xff, "LED_???");
		break;
	case KDSKBLED:
		p_flags(c, &xlat_kd_kbleds, arg & 0xff, "LED_???");
		break;
	case KDADDIO:
	case KDDELIO:
		p_io_port(c, arg);
		break;
	case KDSETMODE:
		p_xval(c, &xlat_kd_modes, (unsigned)arg, "KD_???");
		break;
	case KDSKBMODE:
		p_kbmode(c, (int)arg);
		break;
	case KDSKBMETA:
		p_xval(c, &xlat_kd_meta, (unsigned)arg, "K_???");
		break;
	case KDSIGACCEPT:
		p_sigaccept(c, arg);
		break;
	default:
		return IOCTL_UNDECODED;
	}
	return SC_DONE;
}

/* Requests the kernel only writes through: shown at exit, the address when it failed. */
static int kd_out(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (c->entering)
		return 0;
	p_sep(c);
	if (sc_failed(c)) {
		p_addr(c, arg);
		return 0;
	}
	switch (req) {
	case GIO_SCRNMAP:
		p_hexbytes(c, arg, E_TABSZ);
		break;
	case GIO_FONT:
		p_hexbytes(c, arg, 8192);
		break;
	case GIO_CMAP:
		p_hexbytes(c, arg, 48);
		break;
	case KDGKBDIACR:
		p_diacrs(c, arg, false);
		break;
	case KDGKBDIACRUC:
		p_diacrs(c, arg, true);
		break;
	case GIO_UNISCRNMAP:
		if (arg)
			p_array(c, arg, E_TABSZ, E_TABSZ, 2, p_unichar);
		else
			out(c, "NULL");
		break;
	default:
		p_out_value(c, req, arg);
		break;
	}
	return 0;
}

static bool held(struct sc_call *c, uint64_t addr, size_t n)
{
	const unsigned char *p;
	return addr && sc_mem_peek(c, addr, n, &p) >= (long)n;
}

/* Requests with a struct the kernel reads (and sometimes writes back). */
static int kd_struct(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case KDGKBENT:
	case KDSKBENT:
		if (c->entering) {
			p_kbentry_head(c, arg);
			if (req == KDSKBENT && held(c, arg, 2)) {
				p_kbentry_value(c, arg);
				out(c, "}");
				return SC_DONE;
			}
			return req == KDSKBENT ? SC_DONE : 0;
		}
		if (!held(c, arg, 2))
			return 0;
		if (!sc_failed(c))
			p_kbentry_value(c, arg);
		out(c, "}");
		return 0;
	case KDGKBSENT:
	case KDSKBSENT:
		if (!p_kbsentry_head(c, arg))
			return c->entering ? (req == KDSKBSENT ? SC_DONE : 0) : 0;
		if (req == KDSKBSENT || (!c->entering && !sc_failed(c)))
			p_kbsentry_string(c, arg);
		if (c->entering && req == KDGKBSENT)
			return 0;
		out(c, "}");
		return SC_DONE;
	case KDGETKEYCODE:
	case KDSETKEYCODE: {
		struct kbkeycode k;
		if (c->entering) {
			if (p_fetch(c, arg, &k, sizeof(k)) < 0)
				return SC_DONE;
			out(c, "{scancode=%#x, keycode=%#x", k.scancode, k.keycode);
			if (req == KDSETKEYCODE) {
				out(c, "}");
				return SC_DONE;
			}
			return 0;
		}
		if (!sc_failed(c) && sc_mem_read(c, arg, &k, sizeof(k)) == 0)
			out(c, " => %#x", k.keycode);
		out(c, "}");
		return 0;
	}
	case KDKBDREP: {
		struct kbd_repeat r;
		if (c->entering) {
			if (p_fetch(c, arg, &r, sizeof(r)) < 0)
				return SC_DONE;
			out(c, "{delay=%d, period=%d}", r.delay, r.period);
			return 0;
		}
		if (!sc_failed(c) && sc_mem_read(c, arg, &r, sizeof(r)) == 0)
			out(c, " => {delay=%d, period=%d}", r.delay, r.period);
		return 0;
	}
	case GIO_UNIMAP:
	case PIO_UNIMAP: {
		struct unimapdesc u;
		if (c->entering) {
			if (p_fetch(c, arg, &u, sizeof(u)) < 0)
				return SC_DONE;
			out(c, "{entry_ct=%u", u.entry_ct);
			if (req == GIO_UNIMAP)
				return 0;
			p_unimap_entries(c, &u);
			return SC_DONE;
		}
		if (sc_mem_read(c, arg, &u, sizeof(u)) < 0)
			return 0;
		out(c, " => %u", u.entry_ct);
		if (sc_failed(c)) {
			out(c, ", entries=");
			p_addr(c, (uint64_t)(uintptr_t)u.entries);
			out(c, "}");
		} else {
			p_unimap_entries(c, &u);
		}
		return 0;
	}
	case GIO_FONTX:
	case PIO_FONTX: {
		struct consolefontdesc d;
		if (c->entering) {
			if (p_fetch(c, arg, &d, sizeof(d)) < 0)
				return SC_DONE;
			p_fontdesc(c, &d, req == PIO_FONTX);
			return req == GIO_FONTX ? 0 : SC_DONE;
		}
		if (!sc_failed(c) && sc_mem_read(c, arg, &d, sizeof(d)) == 0) {
			out(c, " => ");
			p_fontdesc(c, &d, true);
		}
		return 0;
	}
	case KDFONTOP:
		return p_font_op(c, arg);
	}
	return IOCTL_UNDECODED;
}

/* Requests with what the kernel reads behind the pointer, all shown at entry. */
static int kd_in(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case PIO_SCRNMAP:
		p_hexbytes(c, arg, E_TABSZ);
		break;
	case PIO_FONT:
		p_hexbytes(c, arg, 8192);
		break;
	case PIO_CMAP:
		p_hexbytes(c, arg, 48);
		break;
	case KDSKBDIACR:
		p_diacrs(c, arg, false);
		break;
	case KDSKBDIACRUC:
		p_diacrs(c, arg, true);
		break;
	case PIO_UNISCRNMAP:
		if (arg)
			p_array(c, arg, E_TABSZ, E_TABSZ, 2, p_unichar);
		else
			out(c, "NULL");
		break;
	case PIO_UNIMAPCLR: {
		struct unimapinit u;
		if (p_fetch(c, arg, &u, sizeof(u)) == 0)
			out(c, "{advised_hashsize=%u, advised_hashstep=%u, advised_hashlevel=%u}",
			    u.advised_hashsize, u.advised_hashstep, u.advised_hashlevel);
		break;
	}
	default:
		return IOCTL_UNDECODED;
	}
	return SC_DONE;
}

static int kd_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case KDENABIO:
	case KDDISABIO:
	case KDMAPDISP:
	case KDUNMAPDISP:
	case PIO_FONTRESET:
		return SC_DONE;
	case KDGETLED:
	case KDGKBTYPE:
	case KDGKBLED:
	case KDGETMODE:
	case KDGKBMODE:
	case KDGKBMETA:
	case GIO_SCRNMAP:
	case GIO_FONT:
	case GIO_CMAP:
	case KDGKBDIACR:
	case KDGKBDIACRUC:
	case GIO_UNISCRNMAP:
		return kd_out(c, req, arg);
	}
	switch (req) {
	case KDGKBENT: case KDSKBENT: case KDGKBSENT: case KDSKBSENT:
	case KDGETKEYCODE: case KDSETKEYCODE: case KDKBDREP:
	case GIO_UNIMAP: case PIO_UNIMAP: case GIO_FONTX: case PIO_FONTX: case KDFONTOP:
		if (c->entering)
			p_sep(c);
		return kd_struct(c, req, arg);
	case KIOCSOUND: case KDMKTONE: case KDSETLED: case KDSKBLED: case KDADDIO:
	case KDDELIO: case KDSETMODE: case KDSKBMODE: case KDSKBMETA: case KDSIGACCEPT:
	case PIO_SCRNMAP: case PIO_FONT: case PIO_CMAP: case KDSKBDIACR:
	case KDSKBDIACRUC: case PIO_UNISCRNMAP: case PIO_UNIMAPCLR:
		p_sep(c);
		if (kd_value(c, req, arg) == SC_DONE)
			return SC_DONE;
		return kd_in(c, req, arg);
	}
	return IOCTL_UNDECODED;
}

static size_t kd_len(const struct sc_call *c, unsigned req)
{
	size_t s = ioctl_strsize(c) + 1;
	switch (req) {
	case KDGETLED: case KDGKBTYPE: case KDGKBLED:
		return 1;
	case KDGETMODE: case KDGKBMODE: case KDGKBMETA: case KDGKBENT: case KDSKBENT:
		return sizeof(int);
	case GIO_SCRNMAP: case PIO_SCRNMAP:
		return E_TABSZ;
	case GIO_UNISCRNMAP: case PIO_UNISCRNMAP:
		return E_TABSZ * 2;
	case KDGKBSENT: case KDSKBSENT:
		return sizeof(struct kbsentry);
	case KDGKBDIACR: case KDSKBDIACR:
		return sizeof(struct kbdiacrs);
	case KDGKBDIACRUC: case KDSKBDIACRUC:
		return sizeof(struct kbdiacrsuc);
	case KDGETKEYCODE: case KDSETKEYCODE:
		return sizeof(struct kbkeycode);
	case KDKBDREP:
		return sizeof(struct kbd_repeat);
	case GIO_FONT: case PIO_FONT:
		return s < 8192 ? s : 8192;
	case GIO_CMAP: case PIO_CMAP:
		return 48;
	case GIO_UNIMAP: case PIO_UNIMAP:
		return sizeof(struct unimapdesc);
	case PIO_UNIMAPCLR:
		return sizeof(struct unimapinit);
	case GIO_FONTX: case PIO_FONTX:
		return sizeof(struct consolefontdesc);
	case KDFONTOP:
		return sizeof(struct console_font_op);
	}
	return 0;
}

/* The unicode pairs, font glyphs and font data behind the struct's pointer. */
static size_t kd_ptr_len(const struct sc_call *c, unsigned req, unsigned off)
{
	size_t s = ioctl_strsize(c) + 1;
	if (off == offsetof(struct unimapdesc, entries) && (req == GIO_UNIMAP || req == PIO_UNIMAP))
		s *= sizeof(struct unipair);
	else if (off == offsetof(struct consolefontdesc, chardata) &&
		 (req == GIO_FONTX || req == PIO_FONTX))
		;
	else if (off == offsetof(struct console_font_op, data) && req == KDFONTOP)
		s = s < KD_FONT_NAME_MAX ? KD_FONT_NAME_MAX : s;
	else
		return 0;
	return s < IOCTL_PTR_CAP ? s : IOCTL_PTR_CAP;
}

const struct ioctl_family ioctl_kd = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_kd, .decode = kd_decode, .arg_len = kd_len, .ptr_len = kd_ptr_len,
};

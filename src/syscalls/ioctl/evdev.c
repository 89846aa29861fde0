/*
 * evdev (linux/input.h) ioctls: the 'E' requests of /dev/input/event*.
 * Getters print what the kernel wrote at exit, setters what it reads at
 * entry.  Several requests carry a parameter in their number (the event
 * type of EVIOCGBIT, the axis of EVIOCGABS) or a buffer length in their
 * size (EVIOCGNAME): those are named here, the rest come from
 * xlat/evdev_ioctls.in.
 */
#include <inttypes.h>
#include <linux/input.h>
#include <string.h>

#include "family.h"

/* Request numbers (_IOC_NR) of the parameterised requests. */
#define NR_BIT		0x20	/* EVIOCGBIT(ev, len): 0x20 + ev */
#define NR_GABS		0x40	/* EVIOCGABS(abs): 0x40 + abs */
#define NR_SABS		0xc0	/* EVIOCSABS(abs): 0xc0 + abs */

/* struct input_absinfo up to flat: the oldest layout; resolution came later. */
#define ABSINFO_MIN	offsetof(struct input_absinfo, resolution)

/* The variable-length getters: the buffer length is the request's size. */
static const struct {
	unsigned char nr;
	const char *name;
} len_getters[] = {
	{ 0x06, "EVIOCGNAME" }, { 0x07, "EVIOCGPHYS" }, { 0x08, "EVIOCGUNIQ" },
	{ 0x09, "EVIOCGPROP" }, { 0x0a, "EVIOCGMTSLOTS" }, { 0x18, "EVIOCGKEY" },
	{ 0x19, "EVIOCGLED" }, { 0x1a, "EVIOCGSND" }, { 0x1b, "EVIOCGSW" },
};

/* A bitmap of codes: the table naming its bits and the highest code. */
struct bitmap_kind {
	const struct xlat *names;
	unsigned max;
	const char *dflt;
};

static const struct bitmap_kind bitmap_ev = { &xlat_evdev_events, EV_MAX, "EV_???" };
static const struct bitmap_kind bitmap_key = { &xlat_evdev_keys, KEY_MAX, "KEY_???" };
static const struct bitmap_kind bitmap_led = { &xlat_evdev_leds, LED_MAX, "LED_???" };
static const struct bitmap_kind bitmap_snd = { &xlat_evdev_snd, SND_MAX, "SND_???" };
static const struct bitmap_kind bitmap_sw = { &xlat_evdev_switches, SW_MAX, "SW_???" };

/* EVIOCGBIT's event type selects the bitmap's codes (0: the event types themselves). */
static const struct bitmap_kind *bit_kind(unsigned ev)
{
	static const struct bitmap_kind rel = { &xlat_evdev_rel, REL_MAX, "REL_???" };
	static const struct bitmap_kind abs = { &xlat_evdev_abs, ABS_MAX, "ABS_???" };
	static const struct bitmap_kind msc = { &xlat_evdev_msc, MSC_MAX, "MSC_???" };
	static const struct bitmap_kind ff = { &xlat_evdev_ff_types, FF_MAX, "FF_???" };
	switch (ev) {
	case 0:		return &bitmap_ev;
	case EV_KEY:	return &bitmap_key;
	case EV_REL:	return &rel;
	case EV_ABS:	return &abs;
	case EV_MSC:	return &msc;
	case EV_SW:	return &bitmap_sw;
	case EV_LED:	return &bitmap_led;
	case EV_SND:	return &bitmap_snd;
	case EV_FF:	return &ff;
	}
	return NULL;
}

static const char *len_getter(unsigned req)
{
	for (size_t i = 0; i < sizeof(len_getters) / sizeof(len_getters[0]); i++)
		if (len_getters[i].nr == _IOC_NR(req))
			return len_getters[i].name;
	return NULL;
}

static bool evdev_name(struct sc_call *c, unsigned req, bool in_comment)
{
	unsigned nr = _IOC_NR(req);
	if (_IOC_DIR(req) == _IOC_WRITE && nr >= NR_SABS) {
		out(c, "EVIOCSABS(");
		ioctl_p_name_xval(c, &xlat_evdev_abs, nr - NR_SABS, "ABS_???", in_comment);
		out(c, ")");
		return true;
	}
	if (_IOC_DIR(req) != _IOC_READ)
		return false;
	if (nr >= NR_GABS && nr < NR_GABS + ABS_CNT) {
		out(c, "EVIOCGABS(");
		ioctl_p_name_xval(c, &xlat_evdev_abs, nr - NR_GABS, "ABS_???", in_comment);
		out(c, ")");
		return true;
	}
	if (nr >= NR_BIT && nr < NR_BIT + EV_CNT) {
		/* Type 0 asks for the types themselves: strace prints it as 0, not EV_SYN. */
		out(c, "EVIOCGBIT(");
		if (nr == NR_BIT)
			out(c, "0");
		else
			ioctl_p_name_xval(c, &xlat_evdev_events, nr - NR_BIT, "EV_???", in_comment);
		out(c, ", %u)", _IOC_SIZE(req));
		return true;
	}
	const char *name = len_getter(req);
	if (!name)
		return false;
	out(c, "%s(%u)", name, _IOC_SIZE(req));
	return true;
}

/* [a, b] of two unsigned ints (EVIOCGREP, EVIOCSREP). */
static void p_uint_pair(struct sc_call *c, uint64_t addr)
{
	unsigned v[2];
	if (p_fetch(c, addr, v, sizeof(v)) == 0)
		out(c, "[%u, %u]", v[0], v[1]);
}

static void p_uint_fmt(struct sc_call *c, uint64_t addr, const char *fmt)
{
	unsigned v;
	if (p_fetch(c, addr, &v, sizeof(v)) == 0) {
		out(c, "[");
		out(c, fmt, v);
		out(c, "]");
	}
}

static void p_keycode(struct sc_call *c, uint64_t addr)
{
	unsigned v[2];
	if (p_fetch(c, addr, v, sizeof(v)) < 0)
		return;
	out(c, "[%u, ", v[0]);
	p_xval(c, &xlat_evdev_keys, v[1], "KEY_???");
	out(c, "]");
}

static void p_keymap_entry(struct sc_call *c, uint64_t addr)
{
	struct input_keymap_entry e;
	if (p_fetch(c, addr, &e, sizeof(e)) < 0)
		return;
	out(c, "{flags=%u, len=%u, ", e.flags, e.len);
	if (!c->fmt->verbose) {
		out(c, "...}");
		return;
	}
	out(c, "index=%u, keycode=", e.index);
	p_xval(c, &xlat_evdev_keys, e.keycode, "KEY_???");
	out(c, ", scancode=[");
	for (size_t i = 0; i < sizeof(e.scancode); i++)
		out(c, "%s%#x", i ? ", " : "", e.scancode[i]);
	out(c, "]}");
}

static void p_input_id(struct sc_call *c, uint64_t addr)
{
	struct input_id id;
	if (p_fetch(c, addr, &id, sizeof(id)) == 0)
		out(c, "{bustype=%u, vendor=%u, product=%u, version=%u}", id.bustype, id.vendor,
		    id.product, id.version);
}

/*
 * struct input_absinfo as long as the request says: value and minimum, with
 * -v the rest; a size past what the header knows ends in "...".
 */
static void p_absinfo(struct sc_call *c, unsigned req, uint64_t addr)
{
	const size_t flat_end = ABSINFO_MIN;
	size_t sz = _IOC_SIZE(req);
	struct input_absinfo a = { 0 };
	if (sz < flat_end) {
		out(c, "%#" PRIx64, addr);	/* too short to be an absinfo: not decoded */
		return;
	}
	if (p_fetch(c, addr, &a, sz < sizeof(a) ? sz : sizeof(a)) < 0)
		return;
	out(c, "{value=%u, minimum=%u, ", (unsigned)a.value, (unsigned)a.minimum);
	if (!c->fmt->verbose) {
		out(c, "...}");
		return;
	}
	out(c, "maximum=%u, fuzz=%u, flat=%u", (unsigned)a.maximum, (unsigned)a.fuzz,
	    (unsigned)a.flat);
	if (sz > flat_end && sz >= sizeof(a))
		out(c, ", resolution=%u", (unsigned)a.resolution);
	if (sz > flat_end && sz != sizeof(a))
		out(c, ", ...");
	out(c, "}");
}

/* EVIOCGMTSLOTS: the axis code the caller asked for, then one value per slot. */
static void p_mtslots(struct sc_call *c, unsigned req, uint64_t addr)
{
	size_t n = _IOC_SIZE(req) / sizeof(int);
	const unsigned char *p;
	if (!n || sc_mem_peek(c, addr, n * sizeof(int), &p) < (long)(n * sizeof(int))) {
		p_addr(c, addr);
		return;
	}
	int v[n];
	memcpy(v, p, sizeof(v));
	out(c, "{code=");
	p_xval(c, &xlat_evdev_mt_axes, (unsigned)v[0], "ABS_MT_???");
	out(c, ", values=[");
	for (size_t i = 1; i < n; i++)
		out(c, "%s%d", i > 1 ? ", " : "", v[i]);
	out(c, "]}");
}

/* Bytes of a bitmap the kernel filled: as many as it returned, up to the codes that exist. */
static size_t bitmap_bytes(const struct bitmap_kind *k, int64_t ret)
{
	size_t bits = (uint64_t)ret > k->max / 8 ? k->max : (size_t)ret * 8;
	size_t words = (bits + 63) / 64;
	return words * sizeof(uint64_t);
}

/*
 * A bitmap as its set codes' names ("[EV_ABS EV_MSC]", four without -v),
 * -X raw as the words in hex, -X verbose both.
 */
static void p_bitmap(struct sc_call *c, const struct bitmap_kind *k, uint64_t addr)
{
	size_t size = bitmap_bytes(k, c->ret);
	size_t bits = (uint64_t)c->ret > k->max / 8 ? k->max : (size_t)c->ret * 8;
	const unsigned char *p;
	if (!size || sc_mem_peek(c, addr, size, &p) < (long)size) {
		p_addr(c, addr);
		return;
	}
	uint64_t w[size / sizeof(uint64_t)];
	memcpy(w, p, size);
	if (xlat_style != XLAT_STYLE_RAW) {
		unsigned shown = 0;
		out(c, "[");
		for (size_t b = 0; b < bits; b++) {
			if (!(w[b / 64] >> (b % 64) & 1))
				continue;
			if (shown && !c->fmt->verbose && shown >= 4) {
				out(c, " ...");
				break;
			}
			if (shown++)
				out(c, " ");
			p_xval(c, k->names, b, k->dflt);
		}
		out(c, "]");
	}
	if (xlat_style == XLAT_STYLE_ABBREV)
		return;
	out(c, xlat_style == XLAT_STYLE_VERBOSE ? " /* [" : "[");
	for (size_t i = 0; i < size / sizeof(uint64_t); i++)
		out(c, "%s%#" PRIx64, i ? ", " : "", w[i]);
	out(c, xlat_style == XLAT_STYLE_VERBOSE ? "] */" : "]");
}

static void p_envelope(struct sc_call *c, const struct ff_envelope *e)
{
	out(c, ", envelope={attack_length=%u, attack_level=%u, fade_length=%u, fade_level=%#x}",
	    e->attack_length, e->attack_level, e->fade_length, e->fade_level);
}

/* struct ff_effect: the header, and with -v the trigger, replay and the type's part. */
static void p_ff_effect(struct sc_call *c, uint64_t addr)
{
	struct ff_effect e;
	if (p_fetch(c, addr, &e, sizeof(e)) < 0)
		return;
	out(c, "{type=");
	p_xval(c, &xlat_evdev_ff_types, e.type, "FF_???");
	out(c, ", id=%d, direction=%u, ", e.id, e.direction);
	if (!c->fmt->verbose) {
		out(c, "...}");
		return;
	}
	out(c, "trigger={button=%u, interval=%u}, replay={length=%u, delay=%u}",
	    e.trigger.button, e.trigger.interval, e.replay.length, e.replay.delay);
	switch (e.type) {
	case FF_CONSTANT:
		out(c, ", constant={level=%d", e.u.constant.level);
		p_envelope(c, &e.u.constant.envelope);
		out(c, "}");
		break;
	case FF_RAMP:
		out(c, ", ramp={start_level=%d, end_level=%d", e.u.ramp.start_level,
		    e.u.ramp.end_level);
		p_envelope(c, &e.u.ramp.envelope);
		out(c, "}");
		break;
	case FF_PERIODIC:
		out(c, ", periodic={waveform=%u, period=%u, magnitude=%d, offset=%d, phase=%u",
		    e.u.periodic.waveform, e.u.periodic.period, e.u.periodic.magnitude,
		    e.u.periodic.offset, e.u.periodic.phase);
		p_envelope(c, &e.u.periodic.envelope);
		out(c, ", custom_len=%u, custom_data=", e.u.periodic.custom_len);
		p_addr(c, (uintptr_t)e.u.periodic.custom_data);
		out(c, "}");
		break;
	case FF_RUMBLE:
		out(c, ", rumble={strong_magnitude=%u, weak_magnitude=%u}",
		    e.u.rumble.strong_magnitude, e.u.rumble.weak_magnitude);
		break;
	}
	out(c, "}");
}

/* Setters (_IOC_WRITE): all printed at entry. */
static int evdev_write(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case EVIOCRMFF:
		out(c, ", %d", (int)arg);
		return SC_DONE;
	case EVIOCGRAB:
	case EVIOCREVOKE:
		out(c, ", %" PRIu64, arg);
		return SC_DONE;
	}
	p_sep(c);
	switch (req) {
	case EVIOCSCLOCKID:
		p_uint_fmt(c, arg, "%u");
		return SC_DONE;
	case EVIOCSREP:
		p_uint_pair(c, arg);
		return SC_DONE;
	case EVIOCSKEYCODE:
		p_keycode(c, arg);
		return SC_DONE;
	case EVIOCSKEYCODE_V2:
		p_keymap_entry(c, arg);
		return SC_DONE;
	case EVIOCSFF:
		p_ff_effect(c, arg);
		return SC_DONE;
	}
	p_absinfo(c, req, arg);
	return SC_DONE;
}

/* The bitmap a variable-length getter fills, or NULL. */
static const struct bitmap_kind *getter_bitmap(unsigned req)
{
	switch (_IOC_NR(req)) {
	case _IOC_NR(EVIOCGKEY(0)):	return &bitmap_key;
	case _IOC_NR(EVIOCGLED(0)):	return &bitmap_led;
	case _IOC_NR(EVIOCGSND(0)):	return &bitmap_snd;
	case _IOC_NR(EVIOCGSW(0)):	return &bitmap_sw;
	}
	return NULL;
}

/* Getters (_IOC_READ): printed at exit; an address when the call failed. */
static void evdev_read(struct sc_call *c, unsigned req, uint64_t arg)
{
	unsigned nr = _IOC_NR(req);
	const struct bitmap_kind *k;
	p_sep(c);
	if (nr >= NR_GABS && nr < NR_GABS + ABS_CNT && _IOC_SIZE(req) < ABSINFO_MIN) {
		out(c, "%#" PRIx64, arg);	/* too short to be an absinfo: not decoded */
		return;
	}
	if (sc_failed(c)) {
		p_addr(c, arg);
		return;
	}
	switch (req) {
	case EVIOCGVERSION:
		p_uint_fmt(c, arg, "%#x");
		return;
	case EVIOCGEFFECTS:
		p_uint_fmt(c, arg, "%u");
		return;
	case EVIOCGID:
		p_input_id(c, arg);
		return;
	case EVIOCGREP:
		p_uint_pair(c, arg);
		return;
	case EVIOCGKEYCODE:
		p_keycode(c, arg);
		return;
	case EVIOCGKEYCODE_V2:
		p_keymap_entry(c, arg);
		return;
	}
	if (nr >= NR_GABS && nr < NR_GABS + ABS_CNT)
		p_absinfo(c, req, arg);
	else if (nr >= NR_BIT && nr < NR_BIT + EV_CNT && (k = bit_kind(nr - NR_BIT)))
		p_bitmap(c, k, arg);
	else if ((k = getter_bitmap(req)))
		p_bitmap(c, k, arg);
	else if (nr == _IOC_NR(EVIOCGMTSLOTS(0)))
		p_mtslots(c, req, arg);
	else if (nr == _IOC_NR(EVIOCGNAME(0)) || nr == _IOC_NR(EVIOCGPHYS(0)) ||
		 nr == _IOC_NR(EVIOCGUNIQ(0)))
		p_buf(c, arg, c->ret);
	else
		p_addr(c, arg);
}

/* Whether req is one of the family's requests (the ones evdev_name names). */
static bool evdev_known(unsigned req)
{
	if (xlat_str(&xlat_evdev_ioctls, req))
		return true;
	unsigned nr = _IOC_NR(req);
	if (_IOC_DIR(req) == _IOC_WRITE)
		return nr >= NR_SABS;
	return _IOC_DIR(req) == _IOC_READ &&
	       ((nr >= NR_GABS && nr < NR_GABS + ABS_CNT) || (nr >= NR_BIT && nr < NR_BIT + EV_CNT) ||
		len_getter(req));
}

static int evdev_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (!evdev_known(req))
		return IOCTL_UNDECODED;
	if (_IOC_DIR(req) == _IOC_WRITE)
		return evdev_write(c, req, arg);
	if (c->entering)
		return 0;
	evdev_read(c, req, arg);
	return 0;
}

static size_t evdev_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	switch (req) {
	case EVIOCSFF:
		return sizeof(struct ff_effect);
	case EVIOCGKEYCODE_V2:
	case EVIOCSKEYCODE_V2:
		return sizeof(struct input_keymap_entry);
	}
	unsigned nr = _IOC_NR(req);
	if (nr >= NR_BIT && nr < NR_BIT + EV_CNT)
		return (KEY_MAX / 64 + 1) * sizeof(uint64_t);	/* the largest bitmap */
	if (_IOC_NR(req) == _IOC_NR(EVIOCGKEY(0)))
		return (KEY_MAX / 64 + 1) * sizeof(uint64_t);
	return _IOC_SIZE(req);
}

const struct ioctl_family ioctl_evdev = {
	.type = 'E',
	.names = &xlat_evdev_ioctls,
	.name = evdev_name,
	.decode = evdev_decode,
	.arg_len = evdev_arg_len,
};

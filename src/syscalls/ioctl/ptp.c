/*
 * PTP hardware clock ioctls (linux/ptp_clock.h), the original requests
 * and their "2" versions (which also check the reserved fields: those
 * print when set).  Absolute times carry strace's date comment.
 */
#include <inttypes.h>
#include <linux/ptp_clock.h>
#include <time.h>

#include "family.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* " /\* 2124-11-08T05:45:45.123456789+0000 *\/" after an absolute time (not with -X raw). */
static void p_date_comment(struct sc_call *c, int64_t sec, uint32_t nsec)
{
	if ((sec == 0 && nsec == 0) || nsec > 999999999 || xlat_style == XLAT_STYLE_RAW)
		return;
	time_t t = (time_t)sec;
	struct tm tm;
	char date[64], zone[16];
	if (t != sec || !localtime_r(&t, &tm) || !strftime(date, sizeof(date), "%FT%T", &tm) ||
	    !strftime(zone, sizeof(zone), "%z", &tm))
		return;
	if (nsec)
		out(c, " /* %s.%09u%s */", date, nsec, zone);
	else
		out(c, " /* %s%s */", date, zone);
}

static void p_clock_time(struct sc_call *c, const struct ptp_clock_time *t, bool absolute)
{
	out(c, "{sec=%" PRId64 ", nsec=%u", (int64_t)t->sec, t->nsec);
	if (t->reserved)
		out(c, ", reserved=%#x", t->reserved);
	out(c, "}");
	if (absolute)
		p_date_comment(c, t->sec, t->nsec);
}

/* ", rsv=[0, 0xcafebeef]" when any reserved word is set. */
static void p_rsv(struct sc_call *c, const void *rsv, size_t n)
{
	if (ioctl_all_zero(rsv, n * sizeof(uint32_t)))
		return;
	out(c, ", rsv=");
	ioctl_p_u32_array(c, rsv, n, true);
}

static void p_caps(struct sc_call *c, uint64_t arg)
{
	struct ptp_clock_caps k;
	if (p_fetch(c, arg, &k, sizeof(k)) < 0)
		return;
	out(c, "{max_adj=%d, n_alarm=%d, n_ext_ts=%d, n_per_out=%d, pps=%d, n_pins=%d, "
	       "cross_timestamping=%d, adjust_phase=%d", k.max_adj, k.n_alarm, k.n_ext_ts,
	    k.n_per_out, k.pps, k.n_pins, k.cross_timestamping, k.adjust_phase);
	p_rsv(c, k.rsv, ARRAY_LEN(k.rsv));
	out(c, "}");
}

static void p_extts(struct sc_call *c, unsigned req, uint64_t arg)
{
	struct ptp_extts_request e;
	if (p_fetch(c, arg, &e, sizeof(e)) < 0)
		return;
	out(c, "{index=%u, flags=", e.index);
	p_flags(c, &xlat_ptp_extts_flags, e.flags, "PTP_???");
	if (req == PTP_EXTTS_REQUEST2)
		p_rsv(c, e.rsv, ARRAY_LEN(e.rsv));
	out(c, "}");
}

static void p_perout(struct sc_call *c, unsigned req, uint64_t arg)
{
	struct ptp_perout_request p;
	if (p_fetch(c, arg, &p, sizeof(p)) < 0)
		return;
	out(c, p.flags & PTP_PEROUT_PHASE ? "{phase=" : "{start=");
	p_clock_time(c, &p.start, !(p.flags & PTP_PEROUT_PHASE));
	out(c, ", period=");
	p_clock_time(c, &p.period, false);
	out(c, ", index=%u, flags=", p.index);
	p_flags(c, &xlat_ptp_perout_flags, p.flags, "PTP_PEROUT_???");
	if (p.flags & PTP_PEROUT_DUTY_CYCLE) {
		out(c, ", on=");
		p_clock_time(c, &p.on, false);
	} else if (req == PTP_PEROUT_REQUEST2) {
		p_rsv(c, p.rsv, ARRAY_LEN(p.rsv));
	}
	out(c, "}");
}

/* An array of times, without -v at most -s of them. */
static void p_times(struct sc_call *c, const struct ptp_clock_time *t, size_t n, size_t group)
{
	size_t max = ioctl_strsize(c);
	out(c, "[");
	for (size_t i = 0; i < n; i++) {
		if (i && !c->fmt->verbose && i >= max) {
			out(c, ", ...");
			break;
		}
		out(c, i ? ", " : "");
		if (group == 1) {
			p_clock_time(c, &t[i], true);
			continue;
		}
		out(c, "[");
		for (size_t j = 0; j < group; j++) {
			out(c, j ? ", " : "");
			p_clock_time(c, &t[i * group + j], true);
		}
		out(c, "]");
	}
	out(c, "]");
}

/*
 * PTP_SYS_OFFSET and _EXTENDED: the sample count at entry, the samples at
 * exit (2n+1 interleaved times, or n triples), the struct closed either way.
 */
static int p_sys_offset(struct sc_call *c, uint64_t arg, bool extended)
{
	if (c->entering) {
		p_sep(c);
		/* Both layouts start with n_samples and rsv; the whole struct must be readable. */
		union {
			struct ptp_sys_offset plain;
			struct ptp_sys_offset_extended ext;
		} s;
		size_t size = extended ? sizeof(s.ext) : sizeof(s.plain);
		if (p_fetch(c, arg, &s, size) < 0)
			return SC_DONE;
		out(c, "{n_samples=%u", s.plain.n_samples);
		p_rsv(c, s.plain.rsv, ARRAY_LEN(s.plain.rsv));
		return 0;
	}
	if (!sc_failed(c)) {
		if (extended) {
			struct ptp_sys_offset_extended s;
			if (sc_mem_read(c, arg, &s, sizeof(s)) < 0) {
				out(c, ", ???");
			} else {
				out(c, ", ts=");
				p_times(c, &s.ts[0][0], s.n_samples < PTP_MAX_SAMPLES ? s.n_samples :
							PTP_MAX_SAMPLES, 3);
			}
		} else {
			struct ptp_sys_offset s;
			if (sc_mem_read(c, arg, &s, sizeof(s)) < 0) {
				out(c, ", ???");
			} else {
				size_t n = s.n_samples < PTP_MAX_SAMPLES ? s.n_samples : PTP_MAX_SAMPLES;
				out(c, ", ts=");
				p_times(c, s.ts, 2 * n + 1, 1);
			}
		}
	}
	out(c, "}");
	return 0;
}

static void p_pin_rest(struct sc_call *c, unsigned req, const struct ptp_pin_desc *d)
{
	if (req == PTP_PIN_GETFUNC || req == PTP_PIN_GETFUNC2) {
		out(c, ", name=");
		ioctl_p_cstring(c, d->name, sizeof(d->name));
	}
	out(c, ", func=");
	p_xval(c, &xlat_ptp_pin_funcs, d->func, "PTP_PF_???");
	out(c, ", chan=%u", d->chan);
	if (req == PTP_PIN_SETFUNC2)
		p_rsv(c, d->rsv, ARRAY_LEN(d->rsv));
	out(c, "}");
}

/* Pin getters print the index at entry and the function at exit; setters all at entry. */
static int p_pin(struct sc_call *c, unsigned req, uint64_t arg)
{
	bool getter = req == PTP_PIN_GETFUNC || req == PTP_PIN_GETFUNC2;
	struct ptp_pin_desc d;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &d, sizeof(d)) < 0)
			return SC_DONE;
		out(c, "{index=%u", d.index);
		if (req == PTP_PIN_GETFUNC2)
			p_rsv(c, d.rsv, ARRAY_LEN(d.rsv));
		if (getter)
			return 0;
		p_pin_rest(c, req, &d);
		return SC_DONE;
	}
	if (sc_failed(c))
		out(c, "}");
	else if (sc_mem_read(c, arg, &d, sizeof(d)) < 0)
		out(c, ", ???}");
	else
		p_pin_rest(c, req, &d);
	return 0;
}

static void p_precise(struct sc_call *c, uint64_t arg)
{
	struct ptp_sys_offset_precise s;
	if (p_fetch(c, arg, &s, sizeof(s)) < 0)
		return;
	out(c, "{device=");
	p_clock_time(c, &s.device, true);
	out(c, ", sys_realtime=");
	p_clock_time(c, &s.sys_realtime, true);
	out(c, ", sys_monoraw=");
	p_clock_time(c, &s.sys_monoraw, false);
	p_rsv(c, s.rsv, ARRAY_LEN(s.rsv));
	out(c, "}");
}

static int ptp_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case PTP_CLOCK_GETCAPS:
	case PTP_CLOCK_GETCAPS2:
		return ioctl_getter(c, arg, p_caps);
	case PTP_SYS_OFFSET_PRECISE:
	case PTP_SYS_OFFSET_PRECISE2:
		return ioctl_getter(c, arg, p_precise);
	case PTP_EXTTS_REQUEST:
	case PTP_EXTTS_REQUEST2:
		return ioctl_setter_req(c, req, arg, p_extts);
	case PTP_PEROUT_REQUEST:
	case PTP_PEROUT_REQUEST2:
		return ioctl_setter_req(c, req, arg, p_perout);
	case PTP_ENABLE_PPS:
	case PTP_ENABLE_PPS2:
		out(c, arg ? ", %#" PRIx64 : ", %" PRIu64, arg);
		return SC_DONE;
	case PTP_SYS_OFFSET:
	case PTP_SYS_OFFSET2:
		return p_sys_offset(c, arg, false);
	case PTP_SYS_OFFSET_EXTENDED:
	case PTP_SYS_OFFSET_EXTENDED2:
		return p_sys_offset(c, arg, true);
	case PTP_PIN_GETFUNC:
	case PTP_PIN_GETFUNC2:
	case PTP_PIN_SETFUNC:
	case PTP_PIN_SETFUNC2:
		return p_pin(c, req, arg);
	}
	return IOCTL_UNDECODED;
}

static size_t ptp_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return xlat_str(&xlat_ptp_ioctls, req) ? _IOC_SIZE(req) : 0;
}

const struct ioctl_family ioctl_ptp = {
	.type = PTP_CLK_MAGIC,
	.names = &xlat_ptp_ioctls,
	.decode = ptp_decode,
	.arg_len = ptp_arg_len,
};

/*
 * Real-time clock ioctls (linux/rtc.h).  The interrupt switches take no
 * argument and strace prints none; RTC_PARAM_GET shows the parameter asked
 * for, then " => " and the value read back.
 */
#include <inttypes.h>
#include <linux/rtc.h>

#include "family.h"

static void p_rtc_time_val(struct sc_call *c, const struct rtc_time *t)
{
	out(c, "{tm_sec=%d, tm_min=%d, tm_hour=%d, tm_mday=%d, tm_mon=%d, tm_year=%d", t->tm_sec,
	    t->tm_min, t->tm_hour, t->tm_mday, t->tm_mon, t->tm_year);
	if (c->fmt->verbose)
		out(c, ", tm_wday=%d, tm_yday=%d, tm_isdst=%d}", t->tm_wday, t->tm_yday,
		    t->tm_isdst);
	else
		out(c, ", ...}");
}

static void p_rtc_time(struct sc_call *c, uint64_t arg)
{
	struct rtc_time t;
	if (p_fetch(c, arg, &t, sizeof(t)) == 0)
		p_rtc_time_val(c, &t);
}

static void p_wkalrm(struct sc_call *c, uint64_t arg)
{
	struct rtc_wkalrm w;
	if (p_fetch(c, arg, &w, sizeof(w)) < 0)
		return;
	out(c, "{enabled=%u, pending=%u, time=", w.enabled, w.pending);
	p_rtc_time_val(c, &w.time);
	out(c, "}");
}

static void p_pll(struct sc_call *c, uint64_t arg)
{
	struct rtc_pll_info p;
	if (p_fetch(c, arg, &p, sizeof(p)) == 0)
		out(c, "{pll_ctrl=%d, pll_value=%d, pll_max=%d, pll_min=%d, pll_posmult=%d, "
		       "pll_negmult=%d, pll_clock=%ld}", p.pll_ctrl, p.pll_value, p.pll_max,
		    p.pll_min, p.pll_posmult, p.pll_negmult, p.pll_clock);
}

static void p_ulong_ptr(struct sc_call *c, uint64_t arg)
{
	unsigned long v;
	if (p_fetch(c, arg, &v, sizeof(v)) == 0)
		out(c, "[%lu]", v);
}

static void p_vl(struct sc_call *c, uint64_t arg)
{
	unsigned v;
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	out(c, "[");
	p_flags(c, &xlat_rtc_vl_flags, v, "RTC_VL_???");
	out(c, "]");
}

static void p_param_value(struct sc_call *c, const struct rtc_param *p)
{
	switch (p->param) {
	case RTC_PARAM_FEATURES:
		out(c, "uvalue=");
		p_flags(c, &xlat_rtc_features, p->uvalue, "1<<RTC_FEATURE_???");
		break;
	case RTC_PARAM_CORRECTION:
		out(c, "svalue=%" PRId64, (int64_t)p->svalue);
		break;
	case RTC_PARAM_BACKUP_SWITCH_MODE:
		out(c, "uvalue=");
		p_xval(c, &xlat_rtc_bsm, p->uvalue, "RTC_BSM_???");
		break;
	default:
		out(c, p->uvalue ? "uvalue=%#" PRIx64 : "uvalue=%" PRIu64, (uint64_t)p->uvalue);
	}
}

/* The parameter and index at entry; a getter's value at exit, after " => ". */
static int p_param(struct sc_call *c, unsigned req, uint64_t arg)
{
	bool get = req == RTC_PARAM_GET;
	struct rtc_param p;
	if (c->entering)
		p_sep(c);
	else
		out(c, IOCTL_CHANGED);
	if (!c->entering && sc_failed(c)) {
		p_addr(c, arg);
		return 0;
	}
	if (p_fetch(c, arg, &p, sizeof(p)) < 0)
		return c->entering ? SC_DONE : 0;
	out(c, "{");
	if (c->entering) {
		out(c, "param=");
		p_xval(c, &xlat_rtc_params, p.param, "RTC_PARAM_???");
		if (!get) {
			out(c, ", ");
			p_param_value(c, &p);
		}
		out(c, ", index=%u", p.index);
	} else {
		p_param_value(c, &p);
	}
	if (p.__pad)
		out(c, ", __pad=%#x", p.__pad);
	out(c, "}");
	return c->entering && get ? 0 : SC_DONE;
}

static int rtc_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case RTC_ALM_READ:
	case RTC_RD_TIME:
		return ioctl_getter(c, arg, p_rtc_time);
	case RTC_ALM_SET:
	case RTC_SET_TIME:
		return ioctl_setter(c, arg, p_rtc_time);
	case RTC_IRQP_SET:
	case RTC_EPOCH_SET:
		out(c, ", %" PRIu64, arg);
		return SC_DONE;
	case RTC_IRQP_READ:
	case RTC_EPOCH_READ:
		return ioctl_getter(c, arg, p_ulong_ptr);
	case RTC_WKALM_RD:
		return ioctl_getter(c, arg, p_wkalrm);
	case RTC_WKALM_SET:
		return ioctl_setter(c, arg, p_wkalrm);
	case RTC_PLL_GET:
		return ioctl_getter(c, arg, p_pll);
	case RTC_PLL_SET:
		return ioctl_setter(c, arg, p_pll);
	case RTC_VL_READ:
		return ioctl_getter(c, arg, p_vl);
	case RTC_PARAM_GET:
	case RTC_PARAM_SET:
		return p_param(c, req, arg);
	case RTC_AIE_ON:
	case RTC_AIE_OFF:
	case RTC_UIE_ON:
	case RTC_UIE_OFF:
	case RTC_PIE_ON:
	case RTC_PIE_OFF:
	case RTC_WIE_ON:
	case RTC_WIE_OFF:
	case RTC_VL_CLR:
		return SC_DONE;		/* no argument */
	}
	return IOCTL_UNDECODED;
}

static size_t rtc_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return xlat_str(&xlat_rtc_ioctls, req) ? _IOC_SIZE(req) : 0;
}

const struct ioctl_family ioctl_rtc = {
	.type = 'p',
	.names = &xlat_rtc_ioctls,
	.decode = rtc_decode,
	.arg_len = rtc_arg_len,
};

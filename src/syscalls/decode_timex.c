/*
 * adjtimex and clock_adjtime: struct timex as the kernel leaves it, printed
 * at exit, and the clock state the call returns by name.
 */
#include <stdio.h>
#include <sys/timex.h>

#include "decoder.h"
#include "print_time.h"

static void p_timex(struct sc_call *c, uint64_t addr)
{
	struct timex t;
	if (sc_failed(c)) {
		p_addr(c, addr);
		return;
	}
	if (p_fetch(c, addr, &t, sizeof(t)) < 0)
		return;
	out(c, "{modes=");
	p_flags(c, &xlat_adjtimex_modes, t.modes, "ADJ_???");
	out(c, ", offset=%ld, freq=%ld, maxerror=%ld, esterror=%ld, status=", t.offset, t.freq,
	    t.maxerror, t.esterror);
	p_flags(c, &xlat_adjtimex_status, (unsigned)t.status, "STA_???");
	out(c, ", constant=%ld, precision=%ld, tolerance=%ld, time={tv_sec=%ld, tv_usec=%lu}"
	    ", tick=%ld, ppsfreq=%ld, jitter=%ld, shift=%d, stabil=%ld, jitcnt=%ld, calcnt=%ld"
	    ", errcnt=%ld, stbcnt=%ld, tai=%d}", t.constant, t.precision, t.tolerance,
	    (long)t.time.tv_sec, (unsigned long)t.time.tv_usec, t.tick, t.ppsfreq, t.jitter,
	    t.shift, t.stabil, t.jitcnt, t.calcnt, t.errcnt, t.stbcnt, t.tai);
}

static void rv_state(struct sc_call *c)
{
	const char *s = sc_failed(c) ? NULL : xlat_str(&xlat_adjtimex_state, (uint64_t)c->ret);
	if (s)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", s);
}

SC_DECODER(adjtimex, MEM_STRUCT_OUT(0, struct timex))
{
	if (c->entering)
		return 0;
	p_timex(c, c->args[0]);
	rv_state(c);
	return 0;
}

SC_DECODER(clock_adjtime, MEM_STRUCT_OUT(1, struct timex))
{
	if (c->entering) {
		p_clockid(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_timex(c, c->args[1]);
	rv_state(c);
	return 0;
}

/*
 * Clocks, sleeps and timers: clock_*, nanosleep, gettimeofday, time, times,
 * POSIX timers, timerfds and interval timers.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/times.h>

#include "print_signal.h"
#include "print_time.h"

/*
 * The remaining time of an interrupted sleep is what strace shows in the
 * second timespec; the engine copies exit memory only for calls that
 * succeeded, so an interrupted sleep shows the address, as on success.
 */
/* Interrupted by a signal (ERESTARTSYS .. ERESTART_RESTARTBLOCK): the kernel wrote the rest. */
static bool interrupted(const struct sc_call *c)
{
	return c->ret == -512 || c->ret == -513 || c->ret == -514 || c->ret == -516;
}

/* The remaining time is written only when the sleep was interrupted. */
static void p_remaining(struct sc_call *c, uint64_t addr)
{
	if (interrupted(c))
		p_timespec(c, addr);
	else
		p_addr(c, addr);
}

SC_DECODER(nanosleep, MEM_STRUCT_IN(0, struct timespec), MEM_STRUCT_OUT(1, struct timespec))
{
	if (c->entering) {
		p_timespec(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_remaining(c, c->args[1]);
	return 0;
}

SC_DECODER(clock_nanosleep, MEM_STRUCT_IN(2, struct timespec), MEM_STRUCT_OUT(3, struct timespec))
{
	if (c->entering) {
		p_clockid(c, c->args[0]);
		p_sep(c);
		p_flags(c, &xlat_timer_flags, (unsigned)c->args[1], "TIMER_???");
		p_sep(c);
		p_timespec(c, c->args[2]);
		p_sep(c);
		return 0;
	}
	if (c->args[1])	/* TIMER_ABSTIME: nothing remains */
		p_addr(c, c->args[3]);
	else
		p_remaining(c, c->args[3]);
	return 0;
}

/* clock_gettime and clock_getres: the clock, then the time the kernel wrote. */
SC_DECODER(clock_gettime, MEM_STRUCT_OUT(1, struct timespec))
{
	if (c->entering) {
		p_clockid(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_timespec(c, c->args[1]);
	return 0;
}

SC_DECODER(clock_settime, MEM_STRUCT_IN(1, struct timespec))
{
	p_clockid(c, c->args[0]);
	p_sep(c);
	p_timespec(c, c->args[1]);
	return SC_DONE;
}

static void p_timezone(struct sc_call *c, uint64_t addr)
{
	struct timezone tz;
	if (p_fetch(c, addr, &tz, sizeof(tz)) == 0)
		out(c, "{tz_minuteswest=%d, tz_dsttime=%d}", tz.tz_minuteswest, tz.tz_dsttime);
}

SC_DECODER(gettimeofday, MEM_STRUCT_OUT(0, struct timeval), MEM_STRUCT_OUT(1, struct timezone))
{
	if (c->entering)
		return 0;
	if (!p_failed_addr(c, c->args[0]))
		p_timeval(c, c->args[0]);
	p_sep(c);
	if (!p_failed_addr(c, c->args[1]))
		p_timezone(c, c->args[1]);
	return 0;
}

SC_DECODER(settimeofday, MEM_STRUCT_IN(0, struct timeval), MEM_STRUCT_IN(1, struct timezone))
{
	p_timeval(c, c->args[0]);
	p_sep(c);
	p_timezone(c, c->args[1]);
	return SC_DONE;
}

/* time(NULL) = 1796032835 (2026-11-30T10:00:35+0000) */
SC_DECODER(time, MEM_STRUCT_OUT(0, int64_t))
{
	int64_t t;
	if (c->entering)
		return 0;
	if (!p_failed_addr(c, c->args[0]) && p_fetch(c, c->args[0], &t, sizeof(t)) == 0) {
		char when[64] = "";
		sc_time_comment(when, sizeof(when), t);	/* "(2026-12-01T15:42:41+0000)" */
		size_t n = strlen(when);
		if (n > 2 && when[0] == '(') {
			when[n - 1] = 0;
			out(c, "[%lld /* %s */]", (long long)t, when + 1);
		} else {
			out(c, "[%lld]", (long long)t);
		}
	}
	if (!sc_failed(c))
		sc_time_comment(c->rv_extra, sizeof(c->rv_extra), c->ret);
	return 0;
}

SC_DECODER(times, MEM_STRUCT_OUT(0, struct tms))
{
	struct tms t;
	if (c->entering)
		return 0;
	c->rv = SC_RV_UDEC;
	if (p_failed_addr(c, c->args[0]) || p_fetch(c, c->args[0], &t, sizeof(t)) < 0)
		return 0;
	const char *names[] = { "tms_utime", "tms_stime", "tms_cutime", "tms_cstime" };
	clock_t v[] = { t.tms_utime, t.tms_stime, t.tms_cutime, t.tms_cstime };
	out(c, "{");
	for (int i = 0; i < 4; i++) {
		out(c, "%s%s=%llu", i ? ", " : "", names[i], (unsigned long long)v[i]);
		if (v[i] > 0 && xlat_style != XLAT_STYLE_RAW)	/* in seconds, at 100 ticks a second (USER_HZ) */
			out(c, " /* %llu.%02llu s */", (unsigned long long)v[i] / 100,
			    (unsigned long long)v[i] % 100);
	}
	out(c, "}");
	return 0;
}

/* ---- POSIX timers -------------------------------------------------------- */

SC_DECODER(timer_create, MEM_STRUCT_IN(1, struct sigevent), MEM_STRUCT_OUT(2, int))
{
	int id;
	if (c->entering) {
		p_clockid(c, c->args[0]);
		p_sep(c);
		p_sigevent(c, c->args[1]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[2]) && p_fetch(c, c->args[2], &id, sizeof(id)) == 0)
		out(c, "[%d]", id);
	return 0;
}

SC_DECODER(timer_settime, MEM_STRUCT_IN(2, struct itimerspec), MEM_STRUCT_OUT(3, struct itimerspec))
{
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		p_flags(c, &xlat_timer_flags, (unsigned)c->args[1], "TIMER_???");
		p_sep(c);
		p_itimerspec(c, c->args[2]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[3]))
		p_itimerspec(c, c->args[3]);
	return 0;
}

SC_DECODER(timer_gettime, MEM_STRUCT_OUT(1, struct itimerspec))
{
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_itimerspec(c, c->args[1]);
	return 0;
}

/* timer_delete and timer_getoverrun: one timer id. */
SC_DECODER(timer_delete)
{
	p_int(c, c->args[0]);
	return SC_DONE;
}

/* ---- timerfd ------------------------------------------------------------- */

SC_DECODER(timerfd_create)
{
	p_clockid(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_timerfd_flags, (unsigned)c->args[1], "TFD_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(timerfd_settime, MEM_STRUCT_IN(2, struct itimerspec), MEM_STRUCT_OUT(3, struct itimerspec))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		p_flags(c, &xlat_timerfd_flags, (unsigned)c->args[1], "TFD_???");
		p_sep(c);
		p_itimerspec(c, c->args[2]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[3]))
		p_itimerspec(c, c->args[3]);
	return 0;
}

SC_DECODER(timerfd_gettime, MEM_STRUCT_OUT(1, struct itimerspec))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_itimerspec(c, c->args[1]);
	return 0;
}

/* ---- interval timers ----------------------------------------------------- */

SC_DECODER(getitimer, MEM_STRUCT_OUT(1, struct itimerval))
{
	if (c->entering) {
		p_xval(c, &xlat_itimer_which, (unsigned)c->args[0], "ITIMER_???");
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[1]))
		p_itimerval(c, c->args[1]);
	return 0;
}

SC_DECODER(setitimer, MEM_STRUCT_IN(1, struct itimerval), MEM_STRUCT_OUT(2, struct itimerval))
{
	if (c->entering) {
		p_xval(c, &xlat_itimer_which, (unsigned)c->args[0], "ITIMER_???");
		p_sep(c);
		p_itimerval(c, c->args[1]);
		p_sep(c);
		return 0;
	}
	if (!p_failed_addr(c, c->args[2]))
		p_itimerval(c, c->args[2]);
	return 0;
}

/* Time printers: timespec, timeval, itimers, rusage and clock ids. */
#include <inttypes.h>
#include <stdio.h>

#include "print_time.h"

static bool verbose(const struct sc_call *c)
{
	return c->fmt && c->fmt->verbose;
}

void p_timespec_val(struct sc_call *c, const struct timespec *ts)
{
	out(c, "{tv_sec=%lld, tv_nsec=%llu}", (long long)ts->tv_sec, (unsigned long long)ts->tv_nsec);
}

void p_timeval_val(struct sc_call *c, const struct timeval *tv)
{
	out(c, "{tv_sec=%lld, tv_usec=%llu}", (long long)tv->tv_sec, (unsigned long long)tv->tv_usec);
}

void p_timespec(struct sc_call *c, uint64_t addr)
{
	struct timespec ts;
	if (p_fetch(c, addr, &ts, sizeof(ts)) == 0)
		p_timespec_val(c, &ts);
}

void p_timeval(struct sc_call *c, uint64_t addr)
{
	struct timeval tv;
	if (p_fetch(c, addr, &tv, sizeof(tv)) == 0)
		p_timeval_val(c, &tv);
}

void p_itimerspec(struct sc_call *c, uint64_t addr)
{
	struct itimerspec its;
	if (p_fetch(c, addr, &its, sizeof(its)) < 0)
		return;
	out(c, "{it_interval=");
	p_timespec_val(c, &its.it_interval);
	out(c, ", it_value=");
	p_timespec_val(c, &its.it_value);
	out(c, "}");
}

void p_itimerval(struct sc_call *c, uint64_t addr)
{
	struct itimerval itv;
	if (p_fetch(c, addr, &itv, sizeof(itv)) < 0)
		return;
	out(c, "{it_interval=");
	p_timeval_val(c, &itv.it_interval);
	out(c, ", it_value=");
	p_timeval_val(c, &itv.it_value);
	out(c, "}");
}

void p_rusage(struct sc_call *c, uint64_t addr)
{
	struct rusage ru;
	if (p_fetch(c, addr, &ru, sizeof(ru)) < 0)
		return;
	out(c, "{ru_utime=");
	p_timeval_val(c, &ru.ru_utime);
	out(c, ", ru_stime=");
	p_timeval_val(c, &ru.ru_stime);
	if (!verbose(c)) {
		out(c, ", ...}");
		return;
	}
	/* strace prints the counters unsigned */
	out(c, ", ru_maxrss=%lu, ru_ixrss=%lu, ru_idrss=%lu, ru_isrss=%lu, ru_minflt=%lu"
	    ", ru_majflt=%lu, ru_nswap=%lu, ru_inblock=%lu, ru_oublock=%lu, ru_msgsnd=%lu"
	    ", ru_msgrcv=%lu, ru_nsignals=%lu, ru_nvcsw=%lu, ru_nivcsw=%lu}",
	    (unsigned long)ru.ru_maxrss, (unsigned long)ru.ru_ixrss, (unsigned long)ru.ru_idrss,
	    (unsigned long)ru.ru_isrss, (unsigned long)ru.ru_minflt, (unsigned long)ru.ru_majflt,
	    (unsigned long)ru.ru_nswap, (unsigned long)ru.ru_inblock, (unsigned long)ru.ru_oublock,
	    (unsigned long)ru.ru_msgsnd, (unsigned long)ru.ru_msgrcv, (unsigned long)ru.ru_nsignals,
	    (unsigned long)ru.ru_nvcsw, (unsigned long)ru.ru_nivcsw);
}

/*
 * Negative clock ids are dynamic: CPU clocks of a pid or thread, or an fd
 * (posix-clock), which strace spells as the macro that built them.
 */
void p_clockid(struct sc_call *c, uint64_t clk)
{
	int id = (int)clk;
	if (id >= 0) {
		p_xval(c, &xlat_clocknames, (uint64_t)id, "CLOCK_???");
		return;
	}
	if ((id & 7) == 3) {
		out(c, "FD_TO_CLOCKID(%d)", ~(id >> 3));
		return;
	}
	static const char *const kind[] = { "CPUCLOCK_PROF", "CPUCLOCK_VIRT", "CPUCLOCK_SCHED" };
	const char *k = (id & 3) < 3 ? kind[id & 3] : "CPUCLOCK_???";
	out(c, "MAKE_%s_CPUCLOCK(%d, %s)", (id & 4) ? "THREAD" : "PROCESS", ~(id >> 3), k);
}

void sc_time_comment(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char s[64];
	if (!localtime_r(&tt, &tm) || !strftime(s, sizeof(s), "%FT%T%z", &tm)) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, len, "(%s)", s);
}

/* Clocks, sleeps, timers; lines from strace 6.1. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/times.h>
#include <sys/timex.h>
#include <time.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_clock_nanosleep_relative(void)
{
	struct dh d;
	struct timespec ts = { 0, 1000000 };
	dh_init(&d, SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "clock_nanosleep(CLOCK_MONOTONIC, 0, {tv_sec=0, tv_nsec=1000000}, NULL) = 0");
	dh_free(&d);
	dh_init(&d, SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, 0x1000, 0, 0, 0);
	memset(&ts, 0, sizeof(ts));
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, {tv_sec=0, tv_nsec=0}, NULL) = 0");
	dh_free(&d);
}

static void test_nanosleep(void)
{
	struct dh d;
	struct timespec ts = { 0, 0 };
	dh_init(&d, SYS_nanosleep, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "nanosleep({tv_sec=0, tv_nsec=0}, NULL) = 0");
	dh_free(&d);
}

static void test_clock_settime_unreadable_prints_address(void)
{
	struct dh d;
	dh_init(&d, SYS_clock_settime, CLOCK_REALTIME, 1, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -14), "clock_settime(CLOCK_REALTIME, 0x1) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_clock_getres_shares_clock_gettime(void)
{
	struct dh d;
	struct timespec ts = { 0, 1 };
	dh_init(&d, SYS_clock_getres, CLOCK_MONOTONIC, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "clock_getres(CLOCK_MONOTONIC, {tv_sec=0, tv_nsec=1}) = 0");
	dh_free(&d);
}

static void test_gettimeofday_and_settimeofday_null(void)
{
	struct dh d;
	struct timeval tv = { 1796032835, 886071 };
	dh_init(&d, SYS_gettimeofday, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &tv, sizeof(tv));
	CHECK_STR(dh_run(&d, 0), "gettimeofday({tv_sec=1796032835, tv_usec=886071}, NULL) = 0");
	dh_free(&d);
	dh_init(&d, SYS_settimeofday, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "settimeofday(NULL, NULL) = 0");
	dh_free(&d);
}

static void test_time_comment_in_utc(void)
{
	struct dh d;
	setenv("TZ", "UTC", 1);
	tzset();
	dh_init(&d, SYS_time, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 1796032835), "time(NULL) = 1796032835 (2026-11-30T10:00:35+0000)");
	dh_free(&d);
}

static void test_times(void)
{
	struct dh d;
	struct tms t = { 0, 0, 0, 0 };
	dh_init(&d, SYS_times, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &t, sizeof(t));
	CHECK_STR(dh_run(&d, 1718002377), "times({tms_utime=0, tms_stime=0, tms_cutime=0, tms_cstime=0}) = 1718002377");
	dh_free(&d);
}

static void test_posix_timer_lifecycle(void)
{
	struct dh d;
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	int id = 0;
	dh_init(&d, SYS_timer_create, CLOCK_MONOTONIC, 0x1000, 0x2000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &sev, sizeof(sev));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &id, sizeof(id));
	CHECK_STR(dh_run(&d, 0), "timer_create(CLOCK_MONOTONIC, {sigev_signo=SIGUSR1, "
		  "sigev_notify=SIGEV_SIGNAL}, [0]) = 0");
	dh_free(&d);

	struct itimerspec its = { { 0, 0 }, { 5, 0 } };
	dh_init(&d, SYS_timer_settime, 0, 0, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &its, sizeof(its));
	CHECK_STR(dh_run(&d, 0), "timer_settime(0, 0, {it_interval={tv_sec=0, tv_nsec=0}, "
		  "it_value={tv_sec=5, tv_nsec=0}}, NULL) = 0");
	dh_free(&d);

	dh_init(&d, SYS_timer_getoverrun, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "timer_getoverrun(0) = 0");
	dh_free(&d);
}

static void test_timerfd_and_itimers(void)
{
	struct dh d;
	dh_init(&d, SYS_timerfd_create, CLOCK_MONOTONIC, 02000000, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 3), "timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC) = 3");
	dh_free(&d);

	struct itimerspec its = { { 0, 0 }, { 0, 999853327 } };
	dh_init(&d, SYS_timerfd_gettime, 3, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &its, sizeof(its));
	CHECK_STR(dh_run(&d, 0), "timerfd_gettime(3, {it_interval={tv_sec=0, tv_nsec=0}, "
		  "it_value={tv_sec=0, tv_nsec=999853327}}) = 0");
	dh_free(&d);

	struct itimerval itv = { { 0, 0 }, { 0, 0 } };
	dh_init(&d, SYS_setitimer, ITIMER_REAL, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &itv, sizeof(itv));
	CHECK_STR(dh_run(&d, 0), "setitimer(ITIMER_REAL, {it_interval={tv_sec=0, tv_usec=0}, "
		  "it_value={tv_sec=0, tv_usec=0}}, NULL) = 0");
	dh_free(&d);
}

/* The remaining time only when a signal interrupted the sleep; tv_nsec unsigned. */
static void test_nanosleep_remaining_and_unsigned_nsec(void)
{
	struct dh d;
	struct timespec req = { -1, -1 }, rem = { 0, 879223517 }, one = { 0, 999999999 };
	dh_init(&d, SYS_nanosleep, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &req, sizeof(req));
	CHECK_STR(dh_run(&d, -22), "nanosleep({tv_sec=-1, tv_nsec=18446744073709551615}, 0x2000) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_nanosleep, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &one, sizeof(one));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &rem, sizeof(rem));
	CHECK_STR(dh_run(&d, -516), "nanosleep({tv_sec=0, tv_nsec=999999999}, {tv_sec=0, "
		  "tv_nsec=879223517}) = ? ERESTART_RESTARTBLOCK (Interrupted by signal)");
	dh_free(&d);
}

/* times: clock ticks with their seconds; time: the date beside the stored value. */
static void test_times_and_time_comments(void)
{
	struct dh d;
	setenv("TZ", "UTC", 1);
	tzset();
	struct tms t = { 36, 53, 0, 87 };
	dh_init(&d, SYS_times, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &t, sizeof(t));
	CHECK_STR(dh_run(&d, 1718320068), "times({tms_utime=36 /* 0.36 s */, tms_stime=53 /* 0.53 s */, "
		  "tms_cutime=0, tms_cstime=87 /* 0.87 s */}) = 1718320068");
	dh_free(&d);
	int64_t now = 1796139761;
	dh_init(&d, SYS_time, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &now, sizeof(now));
	CHECK_STR(dh_run(&d, now), "time([1796139761 /* 2026-12-01T15:42:41+0000 */]) = 1796139761 "
		  "(2026-12-01T15:42:41+0000)");
	dh_free(&d);
}

/* adjtimex: struct timex at exit, the clock state by name; on failure the address. */
static void test_adjtimex_and_clock_adjtime(void)
{
	struct dh d;
	struct timex t;
	memset(&t, 0, sizeof(t));
	t.modes = 0xa001 | 0x4000;
	t.status = 0x40 | 0x10000;
	t.time.tv_sec = 1;
	t.tai = 37;
	dh_init(&d, SYS_adjtimex, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &t, sizeof(t));
	CHECK_STR(dh_run(&d, 5), "adjtimex({modes=ADJ_OFFSET_SS_READ|ADJ_TICK, offset=0, freq=0, "
		  "maxerror=0, esterror=0, status=STA_UNSYNC|0x10000, constant=0, precision=0, "
		  "tolerance=0, time={tv_sec=1, tv_usec=0}, tick=0, ppsfreq=0, jitter=0, shift=0, "
		  "stabil=0, jitcnt=0, calcnt=0, errcnt=0, stbcnt=0, tai=37}) = 5 (TIME_ERROR)");
	dh_free(&d);
	dh_init(&d, SYS_clock_adjtime, 0, 0x1000, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EFAULT), "clock_adjtime(CLOCK_REALTIME, 0x1000) = -1 EFAULT (Bad address)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_adjtimex_and_clock_adjtime),
	TK_CASE(test_times_and_time_comments),
	TK_CASE(test_nanosleep_remaining_and_unsigned_nsec),
	TK_CASE(test_clock_nanosleep_relative),
	TK_CASE(test_nanosleep),
	TK_CASE(test_clock_settime_unreadable_prints_address),
	TK_CASE(test_clock_getres_shares_clock_gettime),
	TK_CASE(test_gettimeofday_and_settimeofday_null),
	TK_CASE(test_time_comment_in_utc),
	TK_CASE(test_times),
	TK_CASE(test_posix_timer_lifecycle),
	TK_CASE(test_timerfd_and_itimers))

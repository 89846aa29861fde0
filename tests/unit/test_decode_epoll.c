/* epoll_create*, epoll_ctl, epoll_wait and the pwait forms. */
#include <signal.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <time.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_epoll_create_and_create1(void)
{
	struct dh d;
	dh_init(&d, SYS_epoll_create, 5, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 6), "epoll_create(5) = 6");
	dh_free(&d);
	dh_init(&d, SYS_epoll_create1, EPOLL_CLOEXEC, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 9), "epoll_create1(EPOLL_CLOEXEC) = 9");
	dh_free(&d);
}

static void test_epoll_ctl_add_and_del(void)
{
	struct dh d;
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 7 };
	dh_init(&d, SYS_epoll_ctl, 9, EPOLL_CTL_ADD, 7, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &ev, sizeof(ev));
	CHECK_STR(dh_run(&d, 0), "epoll_ctl(9, EPOLL_CTL_ADD, 7, {events=EPOLLIN, data={u32=7, u64=7}}) = 0");
	dh_free(&d);
	ev.events = EPOLLIN | EPOLLET;
	ev.data.u64 = 0x100000005ull;
	dh_init(&d, SYS_epoll_ctl, 6, EPOLL_CTL_ADD, 4, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &ev, sizeof(ev));
	CHECK_STR(dh_run(&d, 0), "epoll_ctl(6, EPOLL_CTL_ADD, 4, {events=EPOLLIN|EPOLLET, "
		  "data={u32=5, u64=4294967301}}) = 0");
	dh_free(&d);
	dh_init(&d, SYS_epoll_ctl, 6, EPOLL_CTL_DEL, 4, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "epoll_ctl(6, EPOLL_CTL_DEL, 4, NULL) = 0");
	dh_free(&d);
}

static void test_epoll_wait_events_empty_and_failure(void)
{
	struct dh d;
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 7 };
	dh_init(&d, SYS_epoll_wait, 9, 0x1000, 4, 100, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ev, sizeof(ev));
	CHECK_STR(dh_run(&d, 1), "epoll_wait(9, [{events=EPOLLIN, data={u32=7, u64=7}}], 4, 100) = 1");
	dh_free(&d);
	dh_init(&d, SYS_epoll_wait, 6, 0x1000, 2, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "epoll_wait(6, [], 2, 0) = 0");
	dh_free(&d);
	dh_init(&d, SYS_epoll_wait, 99, 0x1000, 2, 0, 0, 0);
	CHECK_STR(dh_run(&d, -9), "epoll_wait(99, 0x1000, 2, 0) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

static void test_epoll_pwait_prints_sigmask(void)
{
	struct dh d;
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 7 };
	uint64_t mask = 1ull << (SIGUSR1 - 1);
	dh_init(&d, SYS_epoll_pwait, 9, 0x1000, 4, 0, 0x2000, 8);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ev, sizeof(ev));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &mask, sizeof(mask));
	CHECK_STR(dh_run(&d, 1), "epoll_pwait(9, [{events=EPOLLIN, data={u32=7, u64=7}}], 4, 0, [USR1], 8) = 1");
	dh_free(&d);
}

static void test_epoll_pwait2_prints_timespec(void)
{
	struct dh d;
	struct timespec ts = { 0, 0 };
	dh_init(&d, SYS_epoll_pwait2, 6, 0x1000, 2, 0x2000, 0, 8);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "epoll_pwait2(6, [], 2, {tv_sec=0, tv_nsec=0}, NULL, 8) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_epoll_create_and_create1),
	TK_CASE(test_epoll_ctl_add_and_del),
	TK_CASE(test_epoll_wait_events_empty_and_failure),
	TK_CASE(test_epoll_pwait_prints_sigmask),
	TK_CASE(test_epoll_pwait2_prints_timespec))

/* unshare, setns, kcmp, pidfd_getfd, process_mrelease, ioprio; lines from strace 6.1. */
#include <errno.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void check(long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
		  int64_t ret, const char *want)
{
	struct dh d;
	dh_init(&d, nr, a0, a1, a2, a3, a4, 0);
	CHECK_STR(dh_run(&d, ret), want);
	dh_free(&d);
}

static void test_unshare_flags(void)
{
	check(SYS_unshare, 0xbadc0ded0000000fULL, 0, 0, 0, 0, -EINVAL,
	      "unshare(0xbadc0ded0000000f /* CLONE_??? */) = -1 EINVAL (Invalid argument)");
	check(SYS_unshare, 0xdeadcaf5, 0, 0, 0, 0, -EINVAL,
	      "unshare(CLONE_NEWTIME|CLONE_FS|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|"
	      "CLONE_NEWCGROUP|CLONE_NEWUTS|CLONE_NEWIPC|CLONE_NEWUSER|CLONE_NEWNET|0x80a8c075) "
	      "= -1 EINVAL (Invalid argument)");
	check(SYS_unshare, 0, 0, 0, 0, 0, 0, "unshare(0) = 0");
}

static void test_setns_types(void)
{
	check(SYS_setns, -1, 0, 0, 0, 0, -EBADF, "setns(-1, 0) = -1 EBADF (Bad file descriptor)");
	check(SYS_setns, -1, 0x20000080, 0, 0, 0, -EBADF,
	      "setns(-1, CLONE_NEWTIME|CLONE_NEWPID) = -1 EBADF (Bad file descriptor)");
	check(SYS_setns, -1, 2, 0, 0, 0, -EBADF,
	      "setns(-1, 0x2 /* CLONE_NEW??? */) = -1 EBADF (Bad file descriptor)");
}

static void test_kcmp_types(void)
{
	check(SYS_kcmp, -1, -1, 0, 1, 2, -ESRCH,
	      "kcmp(-1, -1, KCMP_FILE, 1, 2) = -1 ESRCH (No such process)");
	check(SYS_kcmp, -1, -1, 1, 0xdead, 0xbeef, -ESRCH,
	      "kcmp(-1, -1, KCMP_VM) = -1 ESRCH (No such process)");
	check(SYS_kcmp, -1, -1, 8, 0xdead, 0xbeef, -ESRCH,
	      "kcmp(-1, -1, 0x8 /* KCMP_??? */, 0xdead, 0xbeef) = -1 ESRCH (No such process)");
	check(SYS_kcmp, -1, -1, 7, 0xdead, 0, -ESRCH,
	      "kcmp(-1, -1, KCMP_EPOLL_TFD, 57005, NULL) = -1 ESRCH (No such process)");
	struct dh d;
	uint32_t slot[3] = { 3, 4, 5 };
	dh_init(&d, SYS_kcmp, 1, 2, 7, 9, 0x1000, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, slot, sizeof(slot));
	CHECK_STR(dh_run(&d, 0), "kcmp(1, 2, KCMP_EPOLL_TFD, 9, {efd=3, tfd=4, toff=5}) = 0");
	dh_free(&d);
}

static void test_pidfd_and_mrelease(void)
{
	check(SYS_pidfd_getfd, -1, -1, 0, 0, 0, -EBADF,
	      "pidfd_getfd(-1, -1, 0) = -1 EBADF (Bad file descriptor)");
	check(SYS_pidfd_getfd, 0, 0, 0xbadc0ded, 0, 0, -EINVAL,
	      "pidfd_getfd(0, 0, 0xbadc0ded) = -1 EINVAL (Invalid argument)");
	check(SYS_process_mrelease, 0, 0xfacefeed, 0, 0, 0, -EINVAL,
	      "process_mrelease(0, 0xfacefeed) = -1 EINVAL (Invalid argument)");
}

static void test_ioprio(void)
{
	check(SYS_ioprio_get, 1, 0, 0, 0, 0, 0,
	      "ioprio_get(IOPRIO_WHO_PROCESS, 0) = 0 (IOPRIO_PRIO_VALUE(IOPRIO_CLASS_NONE, 0))");
	check(SYS_ioprio_get, 0xdec0ded1, 0, 0, 0, 0, -EINVAL,
	      "ioprio_get(0xdec0ded1 /* IOPRIO_WHO_??? */, 0) = -1 EINVAL (Invalid argument)");
	check(SYS_ioprio_set, 2, 0, (2 << 13) | 4, 0, 0, 0,
	      "ioprio_set(IOPRIO_WHO_PGRP, 0, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)) = 0");
	check(SYS_ioprio_set, 3, 0xfacefeed, (7 << 13) | 0x1ff, 0, 0, -EINVAL,
	      "ioprio_set(IOPRIO_WHO_USER, -87097619, IOPRIO_PRIO_VALUE(0x7 /* IOPRIO_CLASS_??? */, "
	      "511)) = -1 EINVAL (Invalid argument)");
}

TK_MAIN(TK_CASE(test_unshare_flags),
	TK_CASE(test_setns_types),
	TK_CASE(test_kcmp_types),
	TK_CASE(test_pidfd_and_mrelease),
	TK_CASE(test_ioprio))

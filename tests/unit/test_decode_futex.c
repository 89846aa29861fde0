/* futex: each operation's argument shape; lines from strace 6.1. */
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>
#include <linux/futex.h>

#include "decode_harness.h"
#include "tk_test.h"

#define UADDR 0x7ffdb95bc36c

static void test_wake_private(void)
{
	struct dh d;
	dh_init(&d, SYS_futex, UADDR, FUTEX_WAKE_PRIVATE, 1, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "futex(0x7ffdb95bc36c, FUTEX_WAKE_PRIVATE, 1) = 0");
	dh_free(&d);
}

static void test_wait_with_and_without_timeout(void)
{
	struct dh d;
	dh_init(&d, SYS_futex, UADDR, FUTEX_WAIT_PRIVATE, 1, 0, 0, 0);
	CHECK_STR(dh_run(&d, -11), "futex(0x7ffdb95bc36c, FUTEX_WAIT_PRIVATE, 1, NULL) = -1 EAGAIN "
		  "(Resource temporarily unavailable)");
	dh_free(&d);
	struct timespec to = { 0, 1000 };
	dh_init(&d, SYS_futex, UADDR, FUTEX_WAIT, 1, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &to, sizeof(to));
	CHECK_STR(dh_run(&d, -11), "futex(0x7ffdb95bc36c, FUTEX_WAIT, 1, {tv_sec=0, tv_nsec=1000}) = -1 "
		  "EAGAIN (Resource temporarily unavailable)");
	dh_free(&d);
}

static void test_wait_bitset_realtime(void)
{
	struct dh d;
	dh_init(&d, SYS_futex, 0x7f5a8d285990, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 19860, 0, 0,
		FUTEX_BITSET_MATCH_ANY);
	CHECK_STR(dh_run(&d, 0), "futex(0x7f5a8d285990, FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME, 19860, "
		  "NULL, FUTEX_BITSET_MATCH_ANY) = 0");
	dh_free(&d);
}

static void test_wake_op_and_cmp_requeue(void)
{
	struct dh d;
	dh_init(&d, SYS_futex, UADDR, FUTEX_WAKE_OP_PRIVATE, 1, 1, UADDR,
		FUTEX_OP(FUTEX_OP_SET, 0, FUTEX_OP_CMP_GT, 1));
	CHECK_STR(dh_run(&d, 0), "futex(0x7ffdb95bc36c, FUTEX_WAKE_OP_PRIVATE, 1, 1, 0x7ffdb95bc36c, "
		  "FUTEX_OP_SET<<28|0<<12|FUTEX_OP_CMP_GT<<24|0x1) = 0");
	dh_free(&d);
	dh_init(&d, SYS_futex, UADDR, FUTEX_CMP_REQUEUE_PRIVATE, 1, 2, UADDR, 0);
	CHECK_STR(dh_run(&d, 0), "futex(0x7ffdb95bc36c, FUTEX_CMP_REQUEUE_PRIVATE, 1, 2, 0x7ffdb95bc36c, 0) = 0");
	dh_free(&d);
}

static void test_pi_locks(void)
{
	struct dh d;
	dh_init(&d, SYS_futex, UADDR, FUTEX_LOCK_PI, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "futex(0x7ffdb95bc36c, FUTEX_LOCK_PI, NULL) = 0");
	dh_free(&d);
	dh_init(&d, SYS_futex, UADDR, FUTEX_UNLOCK_PI, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "futex(0x7ffdb95bc36c, FUTEX_UNLOCK_PI) = 0");
	dh_free(&d);
}

static void test_futex_waitv(void)
{
	struct dh d;
	struct { uint64_t val, uaddr; uint32_t flags, reserved; } w = { ~0ULL, 0, 0xffffffff, 0xffffffff };
	dh_init(&d, SYS_futex_waitv, 0x1000, 1, 0, 0, 1, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &w, sizeof(w));
	CHECK_STR(dh_run(&d, -22), "futex_waitv([{val=0xffffffffffffffff, uaddr=NULL, "
		  "flags=FUTEX_32|FUTEX_PRIVATE_FLAG|0xffffff7d, __reserved=0xffffffff}], 1, 0, NULL, "
		  "CLOCK_MONOTONIC) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_futex_waitv),
	TK_CASE(test_wake_private),
	TK_CASE(test_wait_with_and_without_timeout),
	TK_CASE(test_wait_bitset_realtime),
	TK_CASE(test_wake_op_and_cmp_requeue),
	TK_CASE(test_pi_locks))

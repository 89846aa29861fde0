/* sched_setattr/sched_getattr and struct sched_attr; lines from strace 6.1. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

struct attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static void test_setattr_sizes(void)
{
	struct dh d;
	struct attr a = { .size = 56, .flags = 1, .runtime = 1400000 };
	dh_init(&d, SYS_sched_setattr, 0, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &a, sizeof(a));
	CHECK_STR(dh_run(&d, 0), "sched_setattr(0, {size=56, sched_policy=SCHED_OTHER, "
		  "sched_flags=SCHED_FLAG_RESET_ON_FORK, sched_nice=0, sched_priority=0, "
		  "sched_runtime=1400000, sched_deadline=0, sched_period=0, sched_util_min=0, "
		  "sched_util_max=0}, 0) = 0");
	dh_free(&d);
	uint32_t one = 1, back = 56;
	dh_init(&d, SYS_sched_setattr, 0, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &one, sizeof(one));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &back, sizeof(back));
	CHECK_STR(dh_run(&d, -E2BIG), "sched_setattr(0, {size=1} => {size=56}, 0) "
		  "= -1 E2BIG (Argument list too long)");
	dh_free(&d);
}

static void test_getattr_written_size_and_failure(void)
{
	struct dh d;
	struct attr a = { .size = 48, .runtime = 1400000 };
	dh_init(&d, SYS_sched_getattr, 0, 0x1000, 48, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &a, 48);
	CHECK_STR(dh_run(&d, 0), "sched_getattr(0, {size=48, sched_policy=SCHED_OTHER, sched_flags=0, "
		  "sched_nice=0, sched_priority=0, sched_runtime=1400000, sched_deadline=0, "
		  "sched_period=0}, 48, 0) = 0");
	dh_free(&d);
	dh_init(&d, SYS_sched_getattr, -1, 0x1000, 0xcafef00d, 0xdeadc0de, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &a, sizeof(a));
	CHECK_STR(dh_run(&d, -EINVAL), "sched_getattr(-1, 0x1000, 3405705229, 3735929054) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_setattr_sizes),
	TK_CASE(test_getattr_written_size_and_failure))

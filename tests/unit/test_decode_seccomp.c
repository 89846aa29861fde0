/* seccomp(2): operations, flags and their arguments; lines from strace 6.1. */
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_action_avail_and_notif_sizes(void)
{
	struct dh d;
	uint32_t act = 0x7ffc0000;
	dh_init(&d, SYS_seccomp, 2, 0, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &act, sizeof(act));
	CHECK_STR(dh_run(&d, 0), "seccomp(SECCOMP_GET_ACTION_AVAIL, 0, [SECCOMP_RET_LOG]) = 0");
	dh_free(&d);
	uint16_t sizes[3] = { 80, 24, 64 };
	dh_init(&d, SYS_seccomp, 3, 0, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, sizes, sizeof(sizes));
	CHECK_STR(dh_run(&d, 0), "seccomp(SECCOMP_GET_NOTIF_SIZES, 0, {seccomp_notif=80, "
		  "seccomp_notif_resp=24, seccomp_data=64}) = 0");
	dh_free(&d);
}

static void test_strict_and_unknown(void)
{
	struct dh d;
	dh_init(&d, SYS_seccomp, 0, 1, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EINVAL), "seccomp(SECCOMP_SET_MODE_STRICT, 0x1, NULL) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_seccomp, 7, 0, 0x1000, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EINVAL), "seccomp(0x7 /* SECCOMP_SET_MODE_??? */, 0, 0x1000) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_action_avail_and_notif_sizes),
	TK_CASE(test_strict_and_unknown))

/* eventfd and eventfd2. */
#include <sys/eventfd.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_eventfd2_flags(void)
{
	struct dh d;
	dh_init(&d, SYS_eventfd2, 3, EFD_NONBLOCK | EFD_CLOEXEC, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 11), "eventfd2(3, EFD_CLOEXEC|EFD_NONBLOCK) = 11");
	dh_free(&d);
	dh_init(&d, SYS_eventfd2, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 4), "eventfd2(0, 0) = 4");
	dh_free(&d);
}

static void test_eventfd(void)
{
	struct dh d;
	dh_init(&d, SYS_eventfd, 7, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 7), "eventfd(7) = 7");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_eventfd2_flags), TK_CASE(test_eventfd))

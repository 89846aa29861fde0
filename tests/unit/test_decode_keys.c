/* add_key and request_key; lines from strace 6.1. */
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_add_key(void)
{
	struct dh d;
	dh_init(&d, SYS_add_key, 0x1000, 0x2000, 0x3000, 4, (uint32_t)-3, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "user");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "desc");
	dh_mem(&d, SC_AT_ENTRY, 0x3000, "\1\2\3\4", 4);
	CHECK_STR(dh_run(&d, 42), "add_key(\"user\", \"desc\", \"\\1\\2\\3\\4\", 4, KEY_SPEC_SESSION_KEYRING) = 42");
	dh_free(&d);
	dh_init(&d, SYS_add_key, 0, 0, 0x3001, 0, 0xffffffff, 0);
	CHECK_STR(dh_run(&d, -EFAULT), "add_key(NULL, NULL, \"\", 0, KEY_SPEC_THREAD_KEYRING) "
		  "= -1 EFAULT (Bad address)");
	dh_free(&d);
}

static void test_request_key(void)
{
	struct dh d;
	dh_init(&d, SYS_request_key, 0x1000, 0, 0, 12345, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "user");
	CHECK_STR(dh_run(&d, -ENOKEY), "request_key(\"user\", NULL, NULL, 12345) "
		  "= -1 ENOKEY (Required key not available)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_add_key),
	TK_CASE(test_request_key))

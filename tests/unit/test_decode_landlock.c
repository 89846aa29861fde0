/* Landlock rulesets and rules; lines from strace 6.1. */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_create_ruleset(void)
{
	struct dh d;
	uint64_t fs = 0x7;
	dh_init(&d, SYS_landlock_create_ruleset, 0x1000, 16, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &fs, sizeof(fs));
	CHECK_STR(dh_run(&d, 3), "landlock_create_ruleset({handled_access_fs=LANDLOCK_ACCESS_FS_EXECUTE|"
		  "LANDLOCK_ACCESS_FS_WRITE_FILE|LANDLOCK_ACCESS_FS_READ_FILE, ...}, 16, 0) = 3");
	dh_free(&d);
	dh_init(&d, SYS_landlock_create_ruleset, 0, 0, 1, 0, 0, 0);
	CHECK_STR(dh_run(&d, 3), "landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION) = 3");
	dh_free(&d);
}

static void test_add_rule_and_restrict(void)
{
	struct dh d;
	unsigned char attr[12];
	uint64_t allowed = 1ULL << 13 | 1ULL << 40;
	int32_t parent = -1;
	memcpy(attr, &allowed, 8);
	memcpy(attr + 8, &parent, 4);
	dh_init(&d, SYS_landlock_add_rule, -1, 1, 0x1000, 0xdeadbeef, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, attr, sizeof(attr));
	CHECK_STR(dh_run(&d, -EBADF), "landlock_add_rule(-1, LANDLOCK_RULE_PATH_BENEATH, "
		  "{allowed_access=LANDLOCK_ACCESS_FS_REFER|0x10000000000, parent_fd=-1}, 0xdeadbeef) "
		  "= -1 EBADF (Bad file descriptor)");
	dh_free(&d);
	dh_init(&d, SYS_landlock_add_rule, -1, 2, 0x1000, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EINVAL), "landlock_add_rule(-1, 0x2 /* LANDLOCK_RULE_??? */, 0x1000, 0) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_landlock_restrict_self, -1, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EBADF), "landlock_restrict_self(-1, 0) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_create_ruleset),
	TK_CASE(test_add_rule_and_restrict))

/* Credentials: ids, groups, capabilities; lines from strace 6.1. */
#include <sys/syscall.h>
#include <linux/capability.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_ids_print_minus_one_for_unchanged(void)
{
	struct dh d;
	dh_init(&d, SYS_setresuid, (uint32_t)-1, (uint32_t)-1, (uint32_t)-1, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "setresuid(-1, -1, -1) = 0");
	dh_free(&d);
	dh_init(&d, SYS_setfsgid, (uint32_t)-1, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "setfsgid(-1) = 0");
	dh_free(&d);
	dh_init(&d, SYS_setgid, 1000, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "setgid(1000) = 0");
	dh_free(&d);
}

static void test_getresgid_prints_three_ids(void)
{
	struct dh d;
	unsigned r = 0, e = 0, s = 0;
	dh_init(&d, SYS_getresgid, 0x1000, 0x2000, 0x3000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &r, sizeof(r));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &e, sizeof(e));
	dh_mem(&d, SC_AT_EXIT, 0x3000, &s, sizeof(s));
	CHECK_STR(dh_run(&d, 0), "getresgid([0], [0], [0]) = 0");
	dh_free(&d);
}

static void test_groups(void)
{
	struct dh d;
	dh_init(&d, SYS_getgroups, 32, 0x1000, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "getgroups(32, []) = 0");
	dh_free(&d);
	unsigned g[3] = { 4, 27, 1000 };
	dh_init(&d, SYS_setgroups, 3, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, g, sizeof(g));
	CHECK_STR(dh_run(&d, -1), "setgroups(3, [4, 27, 1000]) = -1 EPERM (Operation not permitted)");
	dh_free(&d);
}

static void test_capget_v3(void)
{
	struct dh d;
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 1u << CAP_CHOWN | 1u << CAP_KILL, 1u << CAP_CHOWN, 0 },
						  { 1u << (CAP_BPF - 32), 0, 0 } };
	dh_init(&d, SYS_capget, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &h, sizeof(h));
	dh_mem(&d, SC_AT_EXIT, 0x2000, data, sizeof(data));
	CHECK_STR(dh_run(&d, 0), "capget({version=_LINUX_CAPABILITY_VERSION_3, pid=0}, "
		  "{effective=1<<CAP_CHOWN|1<<CAP_KILL|1<<CAP_BPF, permitted=1<<CAP_CHOWN, inheritable=0}) = 0");
	dh_free(&d);
}

/* An empty list for a count-only getgroups; unreadable and oversized lists as strace. */
static void test_group_lists_empty_partial_and_too_long(void)
{
	struct dh d;
	unsigned g[2] = { 4294967294u, 4294967293u };
	dh_init(&d, SYS_getgroups, 0, 0x1000, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 3), "getgroups(0, []) = 3");
	dh_free(&d);
	dh_init(&d, SYS_setgroups, 3, 0x1ff8, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1ff8, g, sizeof(g));
	CHECK_STR(dh_run(&d, -14), "setgroups(3, [4294967294, 4294967293, ... /* 0x2000 */]) "
		  "= -1 EFAULT (Bad address)");
	dh_free(&d);
	dh_init(&d, SYS_setgroups, 65537, 0x1ff8, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1ff8, g, sizeof(g));
	CHECK_STR(dh_run(&d, -22), "setgroups(65537, 0x1ff8) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_group_lists_empty_partial_and_too_long),
	TK_CASE(test_ids_print_minus_one_for_unchanged),
	TK_CASE(test_getresgid_prints_three_ids),
	TK_CASE(test_groups),
	TK_CASE(test_capget_v3))

/* prctl: each option with only the arguments it takes; lines from strace 6.1. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void check(uint64_t op, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5, int64_t ret,
		  const char *want)
{
	struct dh d;
	dh_init(&d, SYS_prctl, op, a2, a3, a4, a5, 0);
	CHECK_STR(dh_run(&d, ret), want);
	dh_free(&d);
}

static const uint64_t bad = 0xdeadbeef000000ffULL;

static void test_values_and_flags(void)
{
	check(PR_SET_SECUREBITS, 0x13, 0, 0, 0, 0,
	      "prctl(PR_SET_SECUREBITS, SECBIT_NOROOT|SECBIT_NOROOT_LOCKED|SECBIT_KEEP_CAPS) = 0");
	check(PR_SET_SECUREBITS, 0x300, 0, 0, 0, -EPERM,
	      "prctl(PR_SET_SECUREBITS, 0x300 /* SECBIT_??? */) = -1 EPERM (Operation not permitted)");
	check(PR_SET_FP_MODE, bad, 0xcafe, 0xbad, 0, -EINVAL,
	      "prctl(PR_SET_FP_MODE, PR_FP_MODE_FR|PR_FP_MODE_FRE|0xfc) = -1 EINVAL (Invalid argument)");
	check(PR_SET_DUMPABLE, bad, 0xcafe, 0xbad, 0, -EINVAL,
	      "prctl(PR_SET_DUMPABLE, 0xdeadbeef000000ff /* SUID_DUMP_??? */) = -1 EINVAL (Invalid argument)");
	check(PR_SET_NO_NEW_PRIVS, bad, 0xcafe, 0xbad, 0, -EINVAL,
	      "prctl(PR_SET_NO_NEW_PRIVS, 16045690981097406719, 0xcafe, 0xbad, 0) = -1 EINVAL (Invalid argument)");
	check(PR_SET_KEEPCAPS, bad, 0xcafe, 0xbad, 0, -EINVAL,
	      "prctl(PR_SET_KEEPCAPS, 16045690981097406719) = -1 EINVAL (Invalid argument)");
	check(PR_GET_KEEPCAPS, 1, 2, 3, 4, 0, "prctl(PR_GET_KEEPCAPS) = 0");
	check(PR_GET_TIMERSLACK, 0, 0, 0, 0, (int64_t)0xdeadbeef000000ffULL,
	      "prctl(PR_GET_TIMERSLACK) = 16045690981097406719");
	check(PR_SET_PTRACER, -1, 0, 0, 0, -EINVAL,
	      "prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY) = -1 EINVAL (Invalid argument)");
	check(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0, 0, "prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) = 0");
}

static void test_sub_commands(void)
{
	check(PR_CAP_AMBIENT, 1, 21, 0, 0, 0,
	      "prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_IS_SET, CAP_SYS_ADMIN, 0, 0) = 0");
	check(PR_CAP_AMBIENT, 4, 21, 0, 0, -EINVAL,
	      "prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0x15, 0, 0) = -1 EINVAL (Invalid argument)");
	check(PR_MCE_KILL, 1, 1, 0, 0, 0,
	      "prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0) = 0");
	check(PR_MCE_KILL_GET, 0, 0, 0, 0, 2, "prctl(PR_MCE_KILL_GET, 0, 0, 0, 0) = 2 (PR_MCE_KILL_DEFAULT)");
	check(PR_SET_MM, 1, 2, 3, 4, -EINVAL,
	      "prctl(PR_SET_MM, PR_SET_MM_START_CODE, 0x2, 0x3, 0x4) = -1 EINVAL (Invalid argument)");
	check(PR_SET_SECCOMP, bad, 0xcafe, 0xbad, 0, -EINVAL, "prctl(PR_SET_SECCOMP, 0xdeadbeef000000ff "
	      "/* SECCOMP_MODE_??? */, 0xcafe, 0xbad, 0) = -1 EINVAL (Invalid argument)");
	check(PR_SET_SYSCALL_USER_DISPATCH, 1, 2, 3, 0, 0,
	      "prctl(PR_SET_SYSCALL_USER_DISPATCH, PR_SYS_DISPATCH_ON, 0x2, 0x3, NULL) = 0");
	check(PR_SCHED_CORE, 0xff, 0xcafe, 0xbad, 0, -EINVAL, "prctl(PR_SCHED_CORE, 0xff "
	      "/* PR_SCHED_CORE_??? */, 51966, 0xbad /* PIDTYPE_??? */, NULL) = -1 EINVAL (Invalid argument)");
	check(PR_SET_TAGGED_ADDR_CTRL, bad, 0xcafe, 0xbad, 0, -EINVAL, "prctl(PR_SET_TAGGED_ADDR_CTRL, "
	      "PR_TAGGED_ADDR_ENABLE|PR_MTE_TCF_MASK|0x1f<<PR_MTE_TAG_SHIFT|0xdeadbeef00000000, 0xcafe, "
	      "0xbad, 0) = -1 EINVAL (Invalid argument)");
}

static void test_speculation(void)
{
	check(PR_GET_SPECULATION_CTRL, 2, 0, 0, 0, 8,
	      "prctl(PR_GET_SPECULATION_CTRL, PR_SPEC_L1D_FLUSH) = 0x8 (PR_SPEC_FORCE_DISABLE)");
	check(PR_SET_SPECULATION_CTRL, 1, 4, 0, 0, -EPERM, "prctl(PR_SET_SPECULATION_CTRL, "
	      "PR_SPEC_INDIRECT_BRANCH, PR_SPEC_DISABLE) = -1 EPERM (Operation not permitted)");
	check(PR_SET_SPECULATION_CTRL, 5, 4, 0, 0, -ENODEV,
	      "prctl(PR_SET_SPECULATION_CTRL, 0x5 /* PR_SPEC_??? */, 0x4) = -1 ENODEV (No such device)");
}

static void test_pointers_at_exit(void)
{
	struct dh d;
	unsigned tsc = 1;
	dh_init(&d, SYS_prctl, PR_GET_TSC, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &tsc, sizeof(tsc));
	CHECK_STR(dh_run(&d, 0), "prctl(PR_GET_TSC, [PR_TSC_ENABLE]) = 0");
	dh_free(&d);
	unsigned one = 1;
	dh_init(&d, SYS_prctl, PR_GET_CHILD_SUBREAPER, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &one, sizeof(one));
	CHECK_STR(dh_run(&d, 0), "prctl(PR_GET_CHILD_SUBREAPER, [1]) = 0");
	dh_free(&d);
	check(PR_GET_PDEATHSIG, 0, 0, 0, 0, -EFAULT,
	      "prctl(PR_GET_PDEATHSIG, NULL) = -1 EFAULT (Bad address)");
	dh_init(&d, SYS_prctl, PR_SET_NAME, 0x1000, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "0123456789abcdefgh");
	CHECK_STR(dh_run(&d, 0), "prctl(PR_SET_NAME, \"0123456789abcde\"...) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_values_and_flags),
	TK_CASE(test_sub_commands),
	TK_CASE(test_speculation),
	TK_CASE(test_pointers_at_exit))

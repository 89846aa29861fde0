/* Resource limits and usage; lines from strace 6.1. */
#include <sys/resource.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_prlimit64_stack_in_kib_and_infinity(void)
{
	struct dh d;
	uint64_t rl[2] = { 8192 * 1024, UINT64_MAX };
	dh_init(&d, SYS_prlimit64, 0, RLIMIT_STACK, 0, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, rl, sizeof(rl));
	CHECK_STR(dh_run(&d, 0), "prlimit64(0, RLIMIT_STACK, NULL, {rlim_cur=8192*1024, rlim_max=RLIM64_INFINITY}) = 0");
	dh_free(&d);
}

static void test_prlimit64_set_small_values(void)
{
	struct dh d;
	uint64_t rl[2] = { 1024, 4096 };
	dh_init(&d, SYS_prlimit64, 0, RLIMIT_NOFILE, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, rl, sizeof(rl));
	CHECK_STR(dh_run(&d, 0), "prlimit64(0, RLIMIT_NOFILE, {rlim_cur=1024, rlim_max=4*1024}, NULL) = 0");
	dh_free(&d);
}

static void test_getrusage_abbreviated_and_verbose(void)
{
	struct dh d;
	struct rusage ru = { .ru_stime = { 0, 3872 } };
	dh_init(&d, SYS_getrusage, RUSAGE_SELF, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ru, sizeof(ru));
	CHECK_STR(dh_run(&d, 0), "getrusage(RUSAGE_SELF, {ru_utime={tv_sec=0, tv_usec=0}, "
		  "ru_stime={tv_sec=0, tv_usec=3872}, ...}) = 0");
	dh_free(&d);
	dh_init(&d, SYS_getrusage, RUSAGE_SELF, 0x1000, 0, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ru, sizeof(ru));
	CHECK_STR(dh_run(&d, 0), "getrusage(RUSAGE_SELF, {ru_utime={tv_sec=0, tv_usec=0}, "
		  "ru_stime={tv_sec=0, tv_usec=3872}, ru_maxrss=0, ru_ixrss=0, ru_idrss=0, ru_isrss=0, "
		  "ru_minflt=0, ru_majflt=0, ru_nswap=0, ru_inblock=0, ru_oublock=0, ru_msgsnd=0, "
		  "ru_msgrcv=0, ru_nsignals=0, ru_nvcsw=0, ru_nivcsw=0}) = 0");
	dh_free(&d);
}

static void test_priorities(void)
{
	struct dh d;
	dh_init(&d, SYS_getpriority, PRIO_PROCESS, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 20), "getpriority(PRIO_PROCESS, 0) = 20");
	dh_free(&d);
	dh_init(&d, SYS_setpriority, PRIO_PROCESS, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "setpriority(PRIO_PROCESS, 0, 0) = 0");
	dh_free(&d);
}

static void test_setrlimit_infinity_is_rlim64(void)
{
	struct dh d;
	uint64_t rl[2] = { ~0ULL, ~0ULL };
	dh_init(&d, SYS_setrlimit, 0, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, rl, sizeof(rl));
	CHECK_STR(dh_run(&d, 0), "setrlimit(RLIMIT_CPU, {rlim_cur=RLIM64_INFINITY, rlim_max=RLIM64_INFINITY}) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_setrlimit_infinity_is_rlim64),
	TK_CASE(test_prlimit64_stack_in_kib_and_infinity),
	TK_CASE(test_prlimit64_set_small_values),
	TK_CASE(test_getrusage_abbreviated_and_verbose),
	TK_CASE(test_priorities))

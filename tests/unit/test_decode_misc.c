/* prctl, scheduling, uname, sysinfo, getrandom; lines from strace 6.1. */
#include <sched.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_prctl_names(void)
{
	struct dh d;
	dh_init(&d, SYS_prctl, PR_SET_NAME, 0x1000, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "hello");
	CHECK_STR(dh_run(&d, 0), "prctl(PR_SET_NAME, \"hello\") = 0");
	dh_free(&d);
	char name[16] = "hello";
	dh_init(&d, SYS_prctl, PR_GET_NAME, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, name, sizeof(name));
	CHECK_STR(dh_run(&d, 0), "prctl(PR_GET_NAME, \"hello\") = 0");
	dh_free(&d);
}

static void test_prctl_value_shapes(void)
{
	struct dh d;
	dh_init(&d, SYS_prctl, PR_SET_PDEATHSIG, 9, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "prctl(PR_SET_PDEATHSIG, SIGKILL) = 0");
	dh_free(&d);
	dh_init(&d, SYS_prctl, PR_GET_DUMPABLE, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 1), "prctl(PR_GET_DUMPABLE) = 1 (SUID_DUMP_USER)");
	dh_free(&d);
	dh_init(&d, SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) = 0");
	dh_free(&d);
	dh_init(&d, SYS_prctl, PR_CAPBSET_READ, 21, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 1), "prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN) = 1");
	dh_free(&d);
	dh_init(&d, SYS_prctl, PR_SET_TIMERSLACK, 50000, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "prctl(PR_SET_TIMERSLACK, 50000) = 0");
	dh_free(&d);
	dh_init(&d, SYS_prctl, PR_GET_SECCOMP, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "prctl(PR_GET_SECCOMP) = 0");
	dh_free(&d);
	dh_init(&d, SYS_prctl, 9999, 1, 2, 3, 4, 0);
	CHECK_STR(dh_run(&d, -22), "prctl(0x270f /* PR_??? */, 0x1, 0x2, 0x3, 0x4) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_sched_calls(void)
{
	struct dh d;
	unsigned char mask[128] = { 0x3 };
	dh_init(&d, SYS_sched_getaffinity, 0, 128, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, mask, 32);
	CHECK_STR(dh_run(&d, 32), "sched_getaffinity(0, 128, [0 1]) = 32");
	dh_free(&d);
	mask[0] = 1;
	dh_init(&d, SYS_sched_setaffinity, 0, 128, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, mask, sizeof(mask));
	CHECK_STR(dh_run(&d, 0), "sched_setaffinity(0, 128, [0]) = 0");
	dh_free(&d);
	int prio = 0;
	dh_init(&d, SYS_sched_setscheduler, 0, SCHED_OTHER, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &prio, sizeof(prio));
	CHECK_STR(dh_run(&d, 0), "sched_setscheduler(0, SCHED_OTHER, [0]) = 0");
	dh_free(&d);
	dh_init(&d, SYS_sched_getscheduler, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "sched_getscheduler(0) = 0 (SCHED_OTHER)");
	dh_free(&d);
	dh_init(&d, SYS_sched_get_priority_min, SCHED_RR, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 1), "sched_get_priority_min(SCHED_RR) = 1");
	dh_free(&d);
	dh_init(&d, SYS_sched_yield, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "sched_yield() = 0");
	dh_free(&d);
}

static void test_getcpu(void)
{
	struct dh d;
	unsigned cpu = 1, node = 0;
	dh_init(&d, SYS_getcpu, 0x1000, 0x2000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &cpu, sizeof(cpu));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &node, sizeof(node));
	CHECK_STR(dh_run(&d, 0), "getcpu([1], [0], NULL) = 0");
	dh_free(&d);
}

static void test_uname_abbreviated_and_verbose(void)
{
	struct dh d;
	struct utsname u;
	memset(&u, 0, sizeof(u));
	strcpy(u.sysname, "Linux");
	strcpy(u.nodename, "vm");
	strcpy(u.release, "6.1.0");
	strcpy(u.version, "#1 SMP");
	strcpy(u.machine, "x86_64");
	strcpy(u.domainname, "(none)");
	dh_init(&d, SYS_uname, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &u, sizeof(u));
	CHECK_STR(dh_run(&d, 0), "uname({sysname=\"Linux\", nodename=\"vm\", ...}) = 0");
	dh_free(&d);
	dh_init(&d, SYS_uname, 0x1000, 0, 0, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem(&d, SC_AT_EXIT, 0x1000, &u, sizeof(u));
	CHECK_STR(dh_run(&d, 0), "uname({sysname=\"Linux\", nodename=\"vm\", release=\"6.1.0\", "
		  "version=\"#1 SMP\", machine=\"x86_64\", domainname=\"(none)\"}) = 0");
	dh_free(&d);
}

static void test_getrandom_prints_hex(void)
{
	struct dh d;
	unsigned char b[8] = { 0xf8, 0x49, 0x21, 0x68, 0xf4, 0x07, 0x59, 0x9a };
	dh_init(&d, SYS_getrandom, 0x1000, 8, 1, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, b, sizeof(b));
	CHECK_STR(dh_run(&d, 8), "getrandom(\"\\xf8\\x49\\x21\\x68\\xf4\\x07\\x59\\x9a\", 8, GRND_NONBLOCK) = 8");
	dh_free(&d);
}

static void test_sysinfo(void)
{
	struct dh d;
	struct sysinfo si;
	memset(&si, 0, sizeof(si));
	si.uptime = 455;
	si.loads[0] = 42144;
	si.loads[1] = 18400;
	si.loads[2] = 8608;
	si.totalram = 25276510208;
	si.procs = 90;
	si.mem_unit = 1;
	dh_init(&d, SYS_sysinfo, 0x1000, 0, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &si, sizeof(si));
	CHECK_STR(dh_run(&d, 0), "sysinfo({uptime=455, loads=[42144, 18400, 8608], totalram=25276510208, "
		  "freeram=0, sharedram=0, bufferram=0, totalswap=0, freeswap=0, procs=90, totalhigh=0, "
		  "freehigh=0, mem_unit=1}) = 0");
	dh_free(&d);
}

/* An unknown policy prints whole; an empty CPU mask as []. */
static void test_sched_unknown_policy_and_empty_mask(void)
{
	struct dh d;
	int prio = -1;
	dh_init(&d, SYS_sched_setscheduler, 24802, 0xfaceda7a, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &prio, sizeof(prio));
	CHECK_STR(dh_run(&d, -22), "sched_setscheduler(24802, 0xfaceda7a /* SCHED_??? */, [-1]) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_sched_setaffinity, 8014, 0, 0x1000, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "sched_setaffinity(8014, 0, []) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_sched_unknown_policy_and_empty_mask),
	TK_CASE(test_prctl_names),
	TK_CASE(test_prctl_value_shapes),
	TK_CASE(test_sched_calls),
	TK_CASE(test_getcpu),
	TK_CASE(test_uname_abbreviated_and_verbose),
	TK_CASE(test_getrandom_prints_hex),
	TK_CASE(test_sysinfo))

/* Signals: sigaction, masks, sending, siginfo; expected lines are strace 6.1's. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "syscalls/print_signal.h"
#include "tk_test.h"

#define BIT(s) (1ULL << ((s) - 1))

static void test_rt_sigaction_prints_new_action_and_null_old(void)
{
	struct dh d;
	struct sc_kernel_sigaction sa = { 0x55c6f37e55b9, 0x04000000 | SA_RESTART, 0x7ff5bbf48050,
					  BIT(SIGTERM) };
	dh_init(&d, SYS_rt_sigaction, SIGINT, 0x1000, 0, 8, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &sa, sizeof(sa));
	CHECK_STR(dh_run(&d, 0), "rt_sigaction(SIGINT, {sa_handler=0x55c6f37e55b9, sa_mask=[TERM], "
		  "sa_flags=SA_RESTORER|SA_RESTART, sa_restorer=0x7ff5bbf48050}, NULL, 8) = 0");
	dh_free(&d);
}

static void test_rt_sigaction_old_action_sig_dfl_without_restorer(void)
{
	struct dh d;
	struct sc_kernel_sigaction act = { 1, 0x04000000 | SA_RESTART, 0x7ff5bbf48050, BIT(SIGUSR1) };
	struct sc_kernel_sigaction old = { 0 };
	dh_init(&d, SYS_rt_sigaction, SIGUSR1, 0x1000, 0x2000, 8, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &act, sizeof(act));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &old, sizeof(old));
	CHECK_STR(dh_run(&d, 0), "rt_sigaction(SIGUSR1, {sa_handler=SIG_IGN, sa_mask=[USR1], "
		  "sa_flags=SA_RESTORER|SA_RESTART, sa_restorer=0x7ff5bbf48050}, "
		  "{sa_handler=SIG_DFL, sa_mask=[], sa_flags=0}, 8) = 0");
	dh_free(&d);
}

static void test_rt_sigaction_failure_prints_old_address(void)
{
	struct dh d;
	dh_init(&d, SYS_rt_sigaction, SIGKILL, 0, 0x2000, 8, 0, 0);
	CHECK_STR(dh_run(&d, -22), "rt_sigaction(SIGKILL, NULL, 0x2000, 8) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_sigprocmask_complement_and_rt_names(void)
{
	struct dh d;
	/* glibc's sigfillset leaves out 32 and 33; 35 removed too. */
	uint64_t set = ~0ULL & ~(BIT(32) | BIT(33) | BIT(35));
	uint64_t old = BIT(SIGINT) | BIT(SIGTERM);
	dh_init(&d, SYS_rt_sigprocmask, SIG_UNBLOCK, 0x1000, 0x2000, 8, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &set, sizeof(set));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &old, sizeof(old));
	CHECK_STR(dh_run(&d, 0), "rt_sigprocmask(SIG_UNBLOCK, ~[RTMIN RT_1 RT_3], [INT TERM], 8) = 0");
	dh_free(&d);
}

static void test_sigprocmask_full_set_and_rt_signals(void)
{
	struct dh d;
	uint64_t all = ~0ULL, rt = BIT(40) | BIT(64);
	dh_init(&d, SYS_rt_sigprocmask, SIG_BLOCK, 0x1000, 0x2000, 8, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &all, sizeof(all));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &rt, sizeof(rt));
	CHECK_STR(dh_run(&d, 0), "rt_sigprocmask(SIG_BLOCK, ~[], [RT_8 RT_32], 8) = 0");
	dh_free(&d);
}

static void test_sigprocmask_bad_size_prints_addresses(void)
{
	struct dh d;
	dh_init(&d, SYS_rt_sigprocmask, SIG_BLOCK, 0x1000, 0, 16, 0, 0);
	CHECK_STR(dh_run(&d, -22), "rt_sigprocmask(SIG_BLOCK, 0x1000, NULL, 16) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_rt_sigpending_empty(void)
{
	struct dh d;
	uint64_t none = 0;
	dh_init(&d, SYS_rt_sigpending, 0x1000, 8, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &none, sizeof(none));
	CHECK_STR(dh_run(&d, 0), "rt_sigpending([], 8) = 0");
	dh_free(&d);
}

static void test_kill_names_signals_like_strace(void)
{
	struct dh d;
	dh_init(&d, SYS_kill, 999999, 32, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -3), "kill(999999, SIGRTMIN) = -1 ESRCH (No such process)");
	dh_free(&d);
	dh_init(&d, SYS_kill, 999999, 64, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -3), "kill(999999, SIGRT_32) = -1 ESRCH (No such process)");
	dh_free(&d);
	dh_init(&d, SYS_kill, 999999, 65, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -3), "kill(999999, 65) = -1 ESRCH (No such process)");
	dh_free(&d);
}

static void test_tgkill_and_tkill(void)
{
	struct dh d;
	dh_init(&d, SYS_tgkill, 11871, 11871, SIGUSR1, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "tgkill(11871, 11871, SIGUSR1) = 0");
	dh_free(&d);
	dh_init(&d, SYS_tkill, 11871, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "tkill(11871, 0) = 0");
	dh_free(&d);
}

static void test_rt_sigqueueinfo_empty_and_queued_siginfo(void)
{
	struct dh d;
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	dh_init(&d, SYS_rt_sigqueueinfo, 19859, SIGUSR1, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &si, sizeof(si));
	CHECK_STR(dh_run(&d, 0), "rt_sigqueueinfo(19859, SIGUSR1, {}) = 0");
	dh_free(&d);

	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_pid = 19859;
	si.si_value.sival_ptr = (void *)7;
	dh_init(&d, SYS_rt_sigqueueinfo, 19859, SIGUSR1, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &si, sizeof(si));
	CHECK_STR(dh_run(&d, 0), "rt_sigqueueinfo(19859, SIGUSR1, {si_signo=SIGUSR1, si_code=SI_QUEUE, "
		  "si_pid=19859, si_uid=0, si_int=7, si_ptr=0x7}) = 0");
	dh_free(&d);
}

static void test_rt_sigtimedwait_prints_siginfo_at_exit(void)
{
	struct dh d;
	uint64_t set = BIT(SIGUSR2);
	struct timespec ts = { 1, 0 };
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR2;
	si.si_code = SI_USER;
	si.si_pid = 20223;
	dh_init(&d, SYS_rt_sigtimedwait, 0x1000, 0x2000, 0x3000, 8, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &set, sizeof(set));
	dh_mem(&d, SC_AT_ENTRY, 0x3000, &ts, sizeof(ts));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &si, sizeof(si));
	CHECK_STR(dh_run(&d, SIGUSR2), "rt_sigtimedwait([USR2], {si_signo=SIGUSR2, si_code=SI_USER, "
		  "si_pid=20223, si_uid=0}, {tv_sec=1, tv_nsec=0}, 8) = 12 (SIGUSR2)");
	dh_free(&d);
}

/* A syscall user dispatch caught: its address, number and ABI (strace 6.1's line). */
static void test_sigsys_siginfo(void)
{
	struct dh d;
	uint64_t set = BIT(SIGSYS);
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGSYS;
	si.si_code = 2;	/* SYS_USER_DISPATCH */
	si.si_call_addr = (void *)0x7f3705384829;
	si.si_syscall = 157;
	si.si_arch = 0xc000003e;
	dh_init(&d, SYS_rt_sigtimedwait, 0x1000, 0x2000, 0, 8, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &set, sizeof(set));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &si, sizeof(si));
	CHECK_STR(dh_run(&d, SIGSYS), "rt_sigtimedwait([SYS], {si_signo=SIGSYS, "
		  "si_code=SYS_USER_DISPATCH, si_call_addr=0x7f3705384829, si_syscall=__NR_prctl, "
		  "si_arch=AUDIT_ARCH_X86_64}, NULL, 8) = 31 (SIGSYS)");
	dh_free(&d);
}

static void test_sigaltstack_disabled(void)
{
	struct dh d;
	stack_t ss = { .ss_sp = NULL, .ss_flags = SS_DISABLE, .ss_size = 0 };
	dh_init(&d, SYS_sigaltstack, 0, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ss, sizeof(ss));
	CHECK_STR(dh_run(&d, 0), "sigaltstack(NULL, {ss_sp=NULL, ss_flags=SS_DISABLE, ss_size=0}) = 0");
	dh_free(&d);
}

static void test_signalfd4_returns_fd(void)
{
	struct dh d;
	uint64_t set = BIT(SIGUSR2);
	dh_init(&d, SYS_signalfd4, (uint64_t)-1, 0x1000, 8, 02000000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &set, sizeof(set));
	CHECK_STR(dh_run(&d, 3), "signalfd4(-1, [USR2], 8, SFD_CLOEXEC) = 3");
	dh_free(&d);
}

static void test_pidfd_send_signal_null_info(void)
{
	struct dh d;
	dh_init(&d, SYS_pidfd_send_signal, 3, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "pidfd_send_signal(3, 0, NULL, 0) = 0");
	dh_free(&d);
}

static void test_alarm(void)
{
	struct dh d;
	dh_init(&d, SYS_alarm, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "alarm(0) = 0");
	dh_free(&d);
}

/* With no siginfo the signal's name still follows the return value; si_errno by name. */
static void test_sigtimedwait_null_info_and_si_errno(void)
{
	struct dh d;
	uint64_t set = BIT(SIGALRM);
	dh_init(&d, SYS_rt_sigtimedwait, 0x1000, 0, 0, 8, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &set, sizeof(set));
	CHECK_STR(dh_run(&d, SIGALRM), "rt_sigtimedwait([ALRM], NULL, NULL, 8) = 14 (SIGALRM)");
	dh_free(&d);
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = SI_QUEUE;
	si.si_errno = ENOENT;
	si.si_pid = 24921;
	si.si_uid = (uid_t)-1;
	si.si_value.sival_ptr = (void *)0xdeadbeeffacefeedULL;
	dh_init(&d, SYS_rt_tgsigqueueinfo, 24921, 24921, SIGUSR1, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &si, sizeof(si));
	CHECK_STR(dh_run(&d, 0), "rt_tgsigqueueinfo(24921, 24921, SIGUSR1, {si_signo=SIGUSR1, "
		  "si_code=SI_QUEUE, si_errno=ENOENT, si_pid=24921, si_uid=-1, si_int=-87097619, "
		  "si_ptr=0xdeadbeeffacefeed}) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_sigtimedwait_null_info_and_si_errno),
	TK_CASE(test_rt_sigaction_prints_new_action_and_null_old),
	TK_CASE(test_rt_sigaction_old_action_sig_dfl_without_restorer),
	TK_CASE(test_rt_sigaction_failure_prints_old_address),
	TK_CASE(test_sigprocmask_complement_and_rt_names),
	TK_CASE(test_sigprocmask_full_set_and_rt_signals),
	TK_CASE(test_sigprocmask_bad_size_prints_addresses),
	TK_CASE(test_rt_sigpending_empty),
	TK_CASE(test_kill_names_signals_like_strace),
	TK_CASE(test_tgkill_and_tkill),
	TK_CASE(test_rt_sigqueueinfo_empty_and_queued_siginfo),
	TK_CASE(test_rt_sigtimedwait_prints_siginfo_at_exit),
	TK_CASE(test_sigsys_siginfo),
	TK_CASE(test_sigaltstack_disabled),
	TK_CASE(test_signalfd4_returns_fd),
	TK_CASE(test_pidfd_send_signal_null_info),
	TK_CASE(test_alarm))

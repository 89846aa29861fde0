/* Process lifecycle: exec, clone, wait, exit and the per-process knobs; lines from strace 6.1. */
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/sched.h>

#include "decode_harness.h"
#include "tk_test.h"

static void put_argv(struct dh *d, uint64_t at, uint64_t strs, const char *const *v, int n)
{
	uint64_t ptrs[8] = { 0 };
	for (int i = 0; i < n; i++) {
		ptrs[i] = strs + (uint64_t)i * 0x100;
		dh_mem_str(d, SC_AT_ENTRY, ptrs[i], v[i]);
	}
	dh_mem(d, SC_AT_ENTRY, at, ptrs, (size_t)(n + 1) * sizeof(uint64_t));
}

static void test_execve_counts_env_without_v_and_prints_it_with_v(void)
{
	static const char *const argv[] = { "true", "x" };
	static const char *const envp[] = { "A=1", "B=2" };
	struct dh d;
	dh_init(&d, SYS_execve, 0x1000, 0x2000, 0x3000, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/bin/true");
	put_argv(&d, 0x2000, 0x10000, argv, 2);
	put_argv(&d, 0x3000, 0x20000, envp, 2);
	CHECK_STR(dh_run(&d, 0), "execve(\"/bin/true\", [\"true\", \"x\"], 0x3000 /* 2 vars */) = 0");
	dh_free(&d);

	dh_init(&d, SYS_execve, 0x1000, 0x2000, 0x3000, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/bin/true");
	put_argv(&d, 0x2000, 0x10000, argv, 2);
	put_argv(&d, 0x3000, 0x20000, envp, 2);
	CHECK_STR(dh_run(&d, 0), "execve(\"/bin/true\", [\"true\", \"x\"], [\"A=1\", \"B=2\"]) = 0");
	dh_free(&d);
}

static void test_fork_style_clone_prints_stack_first(void)
{
	struct dh d;
	dh_init(&d, SYS_clone, CLONE_CHILD_CLEARTID | CLONE_CHILD_SETTID | SIGCHLD, 0, 0,
		0x7ff5bbf09a10, 0, 0);
	CHECK_STR(dh_run(&d, 11872), "clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|"
		  "CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7ff5bbf09a10) = 11872");
	dh_free(&d);
}

static void test_clone_with_only_a_signal(void)
{
	struct dh d;
	dh_init(&d, SYS_clone, SIGCHLD, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 5), "clone(child_stack=NULL, flags=SIGCHLD) = 5");
	dh_free(&d);
}

static void test_clone3_thread_prints_args_and_parent_tid(void)
{
	struct dh d;
	struct clone_args a = {
		.flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD |
			 CLONE_SYSVSEM | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
		.child_tid = 0x7f5a8d285990, .parent_tid = 0x7f5a8d285990, .exit_signal = 0,
		.stack = 0x7f5a8ca85000, .stack_size = 0x7fff80, .tls = 0x7f5a8d2856c0,
	};
	int tid = 19860;	/* what the kernel stored at parent_tid */
	dh_init(&d, SYS_clone3, 0x1000, 88, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &a, 88);
	dh_mem(&d, SC_AT_EXIT, 0x7f5a8d285990, &tid, sizeof(tid));
	CHECK_STR(dh_run(&d, 19860), "clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|"
		  "CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, "
		  "child_tid=0x7f5a8d285990, parent_tid=0x7f5a8d285990, exit_signal=0, "
		  "stack=0x7f5a8ca85000, stack_size=0x7fff80, tls=0x7f5a8d2856c0} => "
		  "{parent_tid=[19860]}, 88) = 19860");
	dh_free(&d);
}

static void test_wait4_exited_and_signaled_statuses(void)
{
	struct dh d;
	int st = 3 << 8;
	dh_init(&d, SYS_wait4, 11872, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &st, sizeof(st));
	CHECK_STR(dh_run(&d, 11872), "wait4(11872, [{WIFEXITED(s) && WEXITSTATUS(s) == 3}], 0, NULL) = 11872");
	dh_free(&d);

	struct rusage ru = { .ru_stime = { 0, 289 } };
	st = SIGKILL;
	dh_init(&d, SYS_wait4, 11873, 0x1000, 0, 0x2000, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &st, sizeof(st));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &ru, sizeof(ru));
	CHECK_STR(dh_run(&d, 11873), "wait4(11873, [{WIFSIGNALED(s) && WTERMSIG(s) == SIGKILL}], 0, "
		  "{ru_utime={tv_sec=0, tv_usec=0}, ru_stime={tv_sec=0, tv_usec=289}, ...}) = 11873");
	dh_free(&d);
}

static void test_wait4_wnohang_nothing_prints_address(void)
{
	struct dh d;
	dh_init(&d, SYS_wait4, (uint64_t)-1, 0x1000, WNOHANG | __WALL, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "wait4(-1, 0x1000, WNOHANG|__WALL, NULL) = 0");
	dh_free(&d);
}

static void test_exit_group_has_no_return(void)
{
	struct dh d;
	dh_init(&d, SYS_exit_group, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_entry(&d), "exit_group(0");
	dh_free(&d);
	dh_init(&d, SYS_exit, 7, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "exit(7) = ?");
	dh_free(&d);
}

static void test_noargs_and_shared_decoders(void)
{
	struct dh d;
	dh_init(&d, SYS_getppid, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 11868), "getppid() = 11868");
	dh_free(&d);
	dh_init(&d, SYS_getsid, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 8728), "getsid(0) = 8728");
	dh_free(&d);
	dh_init(&d, SYS_setsid, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -1), "setsid() = -1 EPERM (Operation not permitted)");
	dh_free(&d);
}

static void test_arch_prctl_set_and_get(void)
{
	struct dh d;
	uint64_t fs = 0x7ff5bbf09740;
	dh_init(&d, SYS_arch_prctl, 0x1002, fs, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "arch_prctl(ARCH_SET_FS, 0x7ff5bbf09740) = 0");
	dh_free(&d);
	dh_init(&d, SYS_arch_prctl, 0x1003, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &fs, sizeof(fs));
	CHECK_STR(dh_run(&d, 0), "arch_prctl(ARCH_GET_FS, [0x7ff5bbf09740]) = 0");
	dh_free(&d);
}

static void test_startup_calls(void)
{
	struct dh d;
	dh_init(&d, SYS_set_tid_address, 0x7ff5bbf09a10, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 11871), "set_tid_address(0x7ff5bbf09a10) = 11871");
	dh_free(&d);
	dh_init(&d, SYS_set_tid_address, 0, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 20733), "set_tid_address(0) = 20733");
	dh_free(&d);
	dh_init(&d, SYS_set_robust_list, 0x7ff5bbf09a20, 24, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "set_robust_list(0x7ff5bbf09a20, 24) = 0");
	dh_free(&d);
	dh_init(&d, SYS_rseq, 0x7ff5bbf0a060, 0x20, 0, 0x53053053, 0, 0);
	CHECK_STR(dh_run(&d, 0), "rseq(0x7ff5bbf0a060, 0x20, 0, 0x53053053) = 0");
	dh_free(&d);
}

static void test_get_robust_list(void)
{
	struct dh d;
	uint64_t head = 0x7f80ac290a20, len = 24;
	dh_init(&d, SYS_get_robust_list, 0, 0x1000, 0x2000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &head, sizeof(head));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &len, sizeof(len));
	CHECK_STR(dh_run(&d, 0), "get_robust_list(0, [0x7f80ac290a20], [24]) = 0");
	dh_free(&d);
}

static void test_personality_query(void)
{
	struct dh d;
	dh_init(&d, SYS_personality, 0xffffffff, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "personality(0xffffffff) = 0 (PER_LINUX)");
	dh_free(&d);
	dh_init(&d, SYS_personality, 0x0040000, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0x40000), "personality(PER_LINUX|ADDR_NO_RANDOMIZE) = 0x40000 "
		  "(PER_LINUX|ADDR_NO_RANDOMIZE)");
	dh_free(&d);
}

static void test_pidfd_open_returns_fd(void)
{
	struct dh d;
	dh_init(&d, SYS_pidfd_open, 20223, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 3), "pidfd_open(20223, 0) = 3");
	dh_free(&d);
}

/* WSTOPPED names the bit WUNTRACED shares; WEXITED comes before it. */
static void test_wait_option_names(void)
{
	struct dh d;
	dh_init(&d, SYS_wait4, 5, 0, 2, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "wait4(5, NULL, WSTOPPED, NULL) = 0");
	dh_free(&d);
	dh_init(&d, SYS_wait4, 5, 0, 7, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "wait4(5, NULL, WNOHANG|WEXITED|WSTOPPED, NULL) = 0");
	dh_free(&d);
}

/* argv and envp running into unreadable memory before their NULL. */
static void test_execve_unterminated_vectors(void)
{
	struct dh d;
	uint64_t argv[2] = { 0x3000, 0x3008 }, envp[1] = { 0x3000 };
	dh_init(&d, SYS_execve, 0x3000, 0x1ff0, 0x2ff8, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x3000, "first");
	dh_mem_str(&d, SC_AT_ENTRY, 0x3008, "second");
	dh_mem(&d, SC_AT_ENTRY, 0x1ff0, argv, sizeof(argv));
	dh_mem(&d, SC_AT_ENTRY, 0x2ff8, envp, sizeof(envp));
	CHECK_STR(dh_run(&d, -2), "execve(\"first\", [\"first\", \"second\", ... /* 0x2000 */], "
		  "0x2ff8 /* 1 var, unterminated */) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_execve_unterminated_vectors),
	TK_CASE(test_wait_option_names),
	TK_CASE(test_execve_counts_env_without_v_and_prints_it_with_v),
	TK_CASE(test_fork_style_clone_prints_stack_first),
	TK_CASE(test_clone_with_only_a_signal),
	TK_CASE(test_clone3_thread_prints_args_and_parent_tid),
	TK_CASE(test_wait4_exited_and_signaled_statuses),
	TK_CASE(test_wait4_wnohang_nothing_prints_address),
	TK_CASE(test_exit_group_has_no_return),
	TK_CASE(test_noargs_and_shared_decoders),
	TK_CASE(test_arch_prctl_set_and_get),
	TK_CASE(test_startup_calls),
	TK_CASE(test_get_robust_list),
	TK_CASE(test_personality_query),
	TK_CASE(test_pidfd_open_returns_fd))

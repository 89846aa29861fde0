/*
 * --pidns-translation from what the trace told (sc_pid_learn: the kernel mode's KM_PIDS), for
 * processes /proc no longer has, and forgotten once a wait reaps them, as /proc forgets them.
 * The namespace below ours is made up (no process has it), so only the learned ids can answer.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "decode_harness.h"
#include "syscalls/print_pid.h"
#include "syscalls/session.h"
#include "tk_test.h"

#define CHILD_NS 0x7eadbeefUL	/* no namespace has this inode */
#define WAITER 4000001		/* above any pid_max a machine here has: not in /proc */
#define CHILD 4000002

static unsigned long our_ns(void)
{
	struct stat st;
	return stat("/proc/self/ns/pid", &st) == 0 ? (unsigned long)st.st_ino : 0;
}

/* A task of CHILD_NS: id there (pgid and sid 1, the namespace's init's), tid here. */
static void learn(pid_t tid, int id)
{
	struct sc_pid_level lv[2] = {
		{ CHILD_NS, { id, id, 1, 1 } },
		{ our_ns(), { tid, tid, WAITER, WAITER } },
	};
	sc_pid_learn(tid, lv, 2);
}

static const char *kill_line(struct dh *d, int pid)
{
	dh_init(d, SYS_kill, (uint64_t)pid, 0, 0, 0, 0, 0);
	d->c.tid = WAITER;
	d->fmt.decode_pids = SC_DPID_PIDNS;
	return dh_run(d, 0);
}

static void test_learned_ids_translate_a_process_gone_from_proc(void)
{
	struct dh d;
	learn(WAITER, 1);
	learn(CHILD, 2);
	CHECK_STR(kill_line(&d, 2), "kill(2 /* 4000002 in strace's PID NS */, 0) = 0");
	dh_free(&d);
	CHECK_STR(kill_line(&d, -1), "kill(-1, 0) = 0");
	dh_free(&d);
	CHECK_STR(kill_line(&d, 3), "kill(3, 0) = 0");
	dh_free(&d);
}

static void test_child_reaped_by_wait4_is_forgotten(void)
{
	struct dh d;
	learn(WAITER, 1);
	learn(CHILD, 2);
	int st = 0;
	dh_init(&d, SYS_wait4, 2, 0x1000, 0, 0, 0, 0);
	d.c.tid = WAITER;
	d.fmt.decode_pids = SC_DPID_PIDNS;
	dh_mem(&d, SC_AT_EXIT, 0x1000, &st, sizeof(st));
	dh_run(&d, 2);
	sc_pid_reaped(&d.c);
	dh_free(&d);
	CHECK_STR(kill_line(&d, 2), "kill(2, 0) = 0");
	dh_free(&d);
}

static void test_stopped_child_is_not_reaped(void)
{
	struct dh d;
	learn(WAITER, 1);
	learn(CHILD, 2);
	int st = (SIGSTOP << 8) | 0x7f;
	dh_init(&d, SYS_wait4, 2, 0x1000, WUNTRACED, 0, 0, 0);
	d.c.tid = WAITER;
	d.fmt.decode_pids = SC_DPID_PIDNS;
	dh_mem(&d, SC_AT_EXIT, 0x1000, &st, sizeof(st));
	dh_run(&d, 2);
	sc_pid_reaped(&d.c);
	dh_free(&d);
	CHECK_STR(kill_line(&d, 2), "kill(2 /* 4000002 in strace's PID NS */, 0) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_learned_ids_translate_a_process_gone_from_proc),
	TK_CASE(test_child_reaped_by_wait4_is_forgotten),
	TK_CASE(test_stopped_child_is_not_reaped))

/*
 * pidns: calls that take and return pids, made by a child that is pid 1 of
 * a new PID namespace, so --pidns-translation has numbers to translate
 * (and a thread-less clone3, ptrace and personality for their decoders).
 * Pids inside structs too: a netlink header's nlmsg_pid, a seccomp
 * notification's and BLKTRACESETUP's pid (those two on a bad descriptor).
 * Without the privilege to unshare, the same calls run in our namespace.
 */
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/blktrace_api.h>
#include <linux/fs.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "progs.h"

static void structs_with_pids(pid_t me)
{
	struct nlmsghdr nh = { .nlmsg_len = sizeof(nh), .nlmsg_type = AUDIT_GET,
			       .nlmsg_flags = NLM_F_REQUEST, .nlmsg_pid = (uint32_t)me };
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_AUDIT);
	if (fd >= 0) {
		sendto(fd, &nh, sizeof(nh), MSG_DONTWAIT, NULL, 0);
		close(fd);
	}
	struct seccomp_notif notif;
	memset(&notif, 0, sizeof(notif));
	notif.pid = (uint32_t)me;
	ioctl(-1, SECCOMP_IOCTL_NOTIF_RECV, &notif);
	struct blk_user_trace_setup bs;
	memset(&bs, 0, sizeof(bs));
	bs.pid = (uint32_t)me;
	ioctl(-1, BLKTRACESETUP, &bs);
}

static void child(void)
{
	pid_t me = getpid();
	struct rlimit rl;
	int fds[2];

	syscall(SYS_gettid);
	kill(me, 0);
	syscall(SYS_tgkill, me, me, 0);
	sched_getscheduler(me);
	getpriority(PRIO_PROCESS, (id_t)me);
	syscall(SYS_prlimit64, me, RLIMIT_NOFILE, NULL, &rl);
	setpgid(0, 0);
	getpgid(0);
	getsid(0);
	check(pipe(fds) == 0, "pipe");
	fcntl(fds[0], F_SETOWN, me);
	fcntl(fds[0], F_GETOWN);
	int pidfd = (int)syscall(SYS_pidfd_open, me, 0);
	if (pidfd >= 0)
		close(pidfd);
	/* not our tracee: ESRCH */
	ptrace(0x420e /* PTRACE_GET_SYSCALL_INFO */, me, 0, NULL);
	ptrace(PTRACE_CONT, me, NULL, SIGUSR1);
	personality(0xffffffff);
	structs_with_pids(me);

	struct clone_args args;
	memset(&args, 0, sizeof(args));
	args.exit_signal = SIGCHLD;
	long pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0)
		_exit(3);
	if (pid > 0) {
		siginfo_t si;
		waitid(P_PID, (id_t)pid, &si, WEXITED);
	}
}

int main(void)
{
	int status;

	/* Best effort: without privileges the child stays in our namespace. */
	(void)unshare(CLONE_NEWUSER | CLONE_NEWPID);
	pid_t pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0) {
		child();
		_exit(0);
	}
	check(wait4(pid, &status, 0, NULL) == pid, "wait4");
	return 0;
}

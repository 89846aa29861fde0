/*
 * signals: handlers, masks, alarm, a read interrupted by a signal with and
 * without SA_RESTART, sigaltstack, and a child that dies of SIGSEGV.  Every
 * wait is bounded: the alarm that interrupts a read is armed before the read.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "progs.h"

static volatile sig_atomic_t got;

static void on_signal(int sig)
{
	got = sig;
}

static void handle(int sig, int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	check(sigaction(sig, &sa, NULL) == 0, "sigaction");
}

/*
 * Reads from an empty pipe until SIGALRM arrives.  Without SA_RESTART the
 * read fails with EINTR.  With SA_RESTART the kernel restarts it after the
 * handler (the tracer shows ERESTARTSYS), so a child writes one byte later to
 * end it: the timer fires at 0.3 s, the child writes at 2 s.  Wide margins, as
 * the trace must not depend on timing: a traced parent on a loaded machine
 * (a sanitized tracer) may take long between the calls, and a child polling
 * for the parent's state would put its own calls in the trace.
 */
static void interrupted_read(int restart)
{
	int pfd[2];
	char c;

	check(pipe(pfd) == 0, "pipe");
	handle(SIGALRM, restart ? SA_RESTART : 0);
	got = 0;
	if (!restart) {
		alarm(1);
		check(read(pfd[0], &c, 1) == -1 && errno == EINTR && got == SIGALRM,
		      "interrupted read");
	} else {
		struct itimerval it = { { 0, 0 }, { 0, 300 * 1000 } };
		pid_t pid = fork();

		check(pid >= 0, "fork");
		if (pid == 0) {
			struct timespec ts = { 2, 0 };

			nanosleep(&ts, NULL);
			_exit(write(pfd[1], "r", 1) == 1 ? 0 : 1);
		}
		check(setitimer(ITIMER_REAL, &it, NULL) == 0, "setitimer");
		check(read(pfd[0], &c, 1) == 1 && got == SIGALRM, "restarted read");
		check(waitpid(pid, NULL, 0) == pid, "waitpid");
	}
	close(pfd[0]);
	close(pfd[1]);
}

/* Empties a directory (the core file's name depends on core_uses_pid). */
static void remove_all(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;

	check(d != NULL, "opendir");
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
}

/*
 * A child that dies of SIGSEGV.  It runs in a temp dir and allows a core file
 * so that, with the usual core_pattern, the tracer reports "(core dumped)";
 * the parent removes the core file and the dir afterwards.
 */
static void segv_child(void)
{
	char dir[256];
	pid_t pid;
	int status;

	make_tmpdir(dir, sizeof(dir), "signals");
	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0) {
		struct rlimit rl;

		if (chdir(dir) != 0)
			_exit(1);
		getrlimit(RLIMIT_CORE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_CORE, &rl);
		signal(SIGSEGV, SIG_DFL);
		raise(SIGSEGV);
		_exit(1);
	}
	check(waitpid(pid, &status, 0) == pid, "waitpid");
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV, "SIGSEGV status");
	remove_all(dir);
	check(rmdir(dir) == 0, "rmdir tmp");
}

int main(void)
{
	sigset_t set, old;
	stack_t ss;

	/*
	 * SIGCHLD stays blocked: its delivery point would race with the parent's
	 * next syscall and make the trace order vary from run to run.
	 */
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	check(sigprocmask(SIG_BLOCK, &set, NULL) == 0, "block SIGCHLD");

	/* A handled signal sent to ourselves. */
	handle(SIGUSR1, 0);
	check(kill(getpid(), SIGUSR1) == 0 && got == SIGUSR1, "kill SIGUSR1");

	/* Blocked, then delivered when unblocked. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	handle(SIGUSR2, 0);
	check(sigprocmask(SIG_BLOCK, &set, &old) == 0, "sigprocmask block");
	check(kill(getpid(), SIGUSR2) == 0, "kill SIGUSR2");
	check(sigprocmask(SIG_SETMASK, &old, NULL) == 0 && got == SIGUSR2, "sigprocmask unblock");

	/* An alternate stack for handlers. */
	ss.ss_sp = malloc(SIGSTKSZ);
	ss.ss_size = SIGSTKSZ;
	ss.ss_flags = 0;
	check(ss.ss_sp && sigaltstack(&ss, NULL) == 0, "sigaltstack");

	interrupted_read(0);
	interrupted_read(1);

	segv_child();
	return 0;
}

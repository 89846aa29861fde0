/*
 * procs: process and thread lifecycle — fork, vfork+exec, two threads that
 * each make one syscall, wait4 with exit codes, and an execve of /bin/true
 * at the very end.  Children exit with distinct codes so wait4 results differ.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "progs.h"

static void *thread_main(void *arg)
{
	/* One syscall per thread, with the thread's number as the argument. */
	syscall(SYS_getpriority, PRIO_PROCESS, (long)arg);
	return NULL;
}

static int wait_for(pid_t pid)
{
	int status;

	check(wait4(pid, &status, 0, NULL) == pid, "wait4");
	return status;
}

int main(void)
{
	pthread_t t[2];
	sigset_t chld;
	pid_t pid;
	int status;

	/*
	 * SIGCHLD blocked: a child may exit before or after the parent enters
	 * wait4, so where the signal would show in the trace varies by run.
	 */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	check(sigprocmask(SIG_BLOCK, &chld, NULL) == 0, "block SIGCHLD");

	pid = fork();
	check(pid >= 0, "fork");
	if (pid == 0)
		_exit(7);
	status = wait_for(pid);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 7, "fork child status");

	pid = vfork();
	check(pid >= 0, "vfork");
	if (pid == 0) {
		char *argv[] = { "true", NULL };
		execve("/bin/true", argv, NULL);
		_exit(127);
	}
	status = wait_for(pid);
	check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "vfork child status");

	/* Threads are joined in order so their exits are deterministic. */
	for (long i = 0; i < 2; i++)
		check(pthread_create(&t[i], NULL, thread_main, (void *)i) == 0, "pthread_create");
	for (int i = 0; i < 2; i++)
		check(pthread_join(t[i], NULL) == 0, "pthread_join");

	char *argv[] = { "true", NULL };
	execve("/bin/true", argv, NULL);
	perror("execve");
	return 1;
}

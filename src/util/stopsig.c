/* Stop signals for runs that must clean up; see stopsig.h. */
#include "util/stopsig.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/resource.h>

/* The signals tracekit takes over, and how it found each (restored for its commands). */
static const int taken[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD };
#define NTAKEN (sizeof(taken) / sizeof(taken[0]))
static struct sigaction first[NTAKEN];
static bool saved[NTAKEN];

static void take(unsigned i, void (*handler)(int))
{
	struct sigaction sa = { .sa_handler = handler };
	sigemptyset(&sa.sa_mask);
	sigaction(taken[i], &sa, saved[i] ? NULL : &first[i]);
	saved[i] = true;
}

void ignore_sigpipe(void)
{
	take(3, SIG_IGN);
}

void default_sigchld(void)
{
	take(4, SIG_DFL);
}

void catch_stop_signals(void (*fn)(int))
{
	for (unsigned i = 0; i < 3; i++)
		take(i, fn);
	ignore_sigpipe();
}

void child_signals_as_inherited(void)
{
	for (unsigned i = 0; i < NTAKEN; i++)
		if (saved[i])
			sigaction(taken[i], &first[i], NULL);
}

void die_of_signal(int sig)
{
	struct rlimit no_core = { 0, 0 };
	sigset_t set;
	fflush(NULL);
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

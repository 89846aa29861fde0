/*
 * The measured stretch of time for stack and latency (see runfor.h).
 */
#include "tracers/runfor.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tracee/spawn.h"
#include "util/stopsig.h"

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool catching;

void tr_catch_stop(void)
{
	stop_requested = 0;
	catch_stop_signals(on_stop);
	catching = true;
}

int tr_run_for(char **argv, double duration, const char *verb, char *err, size_t errlen)
{
	struct held_child c = { .pid = -1, .go = -1, .failed = -1 };
	int status = 0;
	if (!catching)
		tr_catch_stop();
	if (stop_requested) {
		snprintf(err, errlen, "stopped (%s) while setting up, before measuring: nothing was "
			 "measured%s", "Ctrl-C or SIGTERM", argv ? " and the command did not run" : "");
		return -1;
	}
	if (argv) {
		if (held_spawn(NULL, argv, &c, err, errlen) < 0 ||
		    held_release(&c, argv[0], err, errlen) < 0)
			return -1;
	} else if (!duration) {
		fprintf(stderr, "tracekit: %s: measuring; Ctrl-C to stop\n", verb);
	}
	double end = duration > 0 ? now_s() + duration : 0;
	while (c.pid > 0 || !argv) {
		if (c.pid > 0) {
			int st;
			if (waitpid(c.pid, &st, WNOHANG) == c.pid) {
				status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
				c.pid = -1;
				break;
			}
		}
		if (stop_requested || (end && now_s() >= end))
			break;
		usleep(20000);
	}
	if (c.pid > 0) {
		kill(c.pid, SIGTERM);
		waitpid(c.pid, NULL, 0);
		status = 128 + SIGTERM;
	}
	int e = 0;
	if (c.failed >= 0 && read(c.failed, &e, sizeof(e)) == sizeof(e) && e) {
		snprintf(err, errlen, "cannot run '%s': %s", argv[0], strerror(e));
		status = -1;
	}
	if (c.failed >= 0)
		close(c.failed);
	if (c.go >= 0)
		close(c.go);
	return status;
}

/*
 * The latency tracers (see latency.h).  Which ones a kernel has is its
 * available_tracers; the table says which option builds each, for the
 * refusal a kernel without it gets (Debian's stock kernel has none of them,
 * its PREEMPT_RT kernel has the wakeup ones, hwlat, osnoise and timerlat).
 */
#include "tracers/latency.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace/functions.h"
#include "ftrace/registry.h"
#include "ftrace/session.h"
#include "tracers/runfor.h"

static const struct {
	const char *name, *config;
} latency_tracers[] = {
	{ "irqsoff", "CONFIG_IRQSOFF_TRACER" },
	{ "preemptoff", "CONFIG_PREEMPT_TRACER" },
	{ "preemptirqsoff", "CONFIG_IRQSOFF_TRACER and CONFIG_PREEMPT_TRACER" },
	{ "wakeup", "CONFIG_SCHED_TRACER" },
	{ "wakeup_rt", "CONFIG_SCHED_TRACER" },
	{ "wakeup_dl", "CONFIG_SCHED_TRACER" },
	{ "hwlat", "CONFIG_HWLAT_TRACER" },
	{ "osnoise", "CONFIG_OSNOISE_TRACER" },
	{ "timerlat", "CONFIG_TIMERLAT_TRACER" },
};

#define NTRACERS (sizeof(latency_tracers) / sizeof(latency_tracers[0]))

const char *tr_latency_config(const char *tracer)
{
	for (size_t i = 0; i < NTRACERS; i++)
		if (!strcmp(latency_tracers[i].name, tracer))
			return latency_tracers[i].config;
	return NULL;
}

const char *tr_latency_names(void)
{
	return "irqsoff, preemptoff, preemptirqsoff, wakeup, wakeup_rt, wakeup_dl, hwlat, "
	       "osnoise, timerlat";
}

/* Whether the file at path holds word (and a newline) and nothing else. */
static bool file_is(const char *path, const char *word)
{
	char buf[128] = "";
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return !strcmp(buf, word);
}

static bool available(const char *tracer, char *have, size_t len)
{
	char err[256];
	const char *root = ft_tracefs_root(err, sizeof(err));
	char path[4200];
	snprintf(path, sizeof(path), "%s/available_tracers", root ? root : "/sys/kernel/tracing");
	FILE *f = fopen(path, "re");
	have[0] = '\0';
	if (!f)
		return false;
	if (!fgets(have, (int)len, f))
		have[0] = '\0';
	fclose(f);
	have[strcspn(have, "\n")] = '\0';
	size_t n = strlen(tracer);
	for (char *p = have; (p = strstr(p, tracer)); p += n)
		if ((p == have || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}

/*
 * EBUSY for tracer: the kernel runs some tracers (wakeup*, irqsoff ...) in one
 * place at a time.  Where it runs now, in err; false when it is nowhere to be
 * seen (then the top level is tried, as for any instance refusal).
 */
static bool busy_elsewhere(const char *tracer, const char *self, char *err, size_t errlen)
{
	char ierr[256], path[4400];
	const char *root = ft_tracefs_root(ierr, sizeof(ierr));
	if (!root)
		return false;
	snprintf(path, sizeof(path), "%s/instances", root);
	DIR *d = opendir(path);
	bool found = false;
	for (struct dirent *e; d && !found && (e = readdir(d));) {
		if (e->d_name[0] == '.' || !strcmp(e->d_name, self))
			continue;
		snprintf(path, sizeof(path), "%s/instances/%s/current_tracer", root, e->d_name);
		if (!file_is(path, tracer))
			continue;
		found = true;
		int pid = 0;
		if (sscanf(e->d_name, "tracekit-%d-", &pid) != 1)
			snprintf(err, errlen, "the %s tracer runs already in instance %s, not "
				 "tracekit's (%s/instances/%s): the kernel runs it in one place at a "
				 "time", tracer, e->d_name, root, e->d_name);
		else if (kill(pid, 0) < 0 && errno == ESRCH)
			snprintf(err, errlen, "the %s tracer runs already in instance %s, left by "
				 "a tracekit run that is gone (pid %d): 'tracekit reset' removes it",
				 tracer, e->d_name, pid);
		else
			snprintf(err, errlen, "the %s tracer runs already in instance %s of "
				 "tracekit pid %d, still running: the kernel runs it in one place at "
				 "a time", tracer, e->d_name, pid);
	}
	if (d)
		closedir(d);
	snprintf(path, sizeof(path), "%s/current_tracer", root);
	if (!found && file_is(path, tracer)) {
		found = true;
		snprintf(err, errlen, "the %s tracer runs already on the top level (%s); a tracekit "
			 "run killed there is undone by 'tracekit reset'", tracer, path);
	}
	return found;
}

/* A session running tracer: an instance when the tracer allows one, else the top level. */
static struct ft_session *tracer_session(const char *tracer, struct tr_latency *l,
					 char *err, size_t errlen)
{
	struct ft_session *s = ft_session_new(err, errlen);
	if (!s)
		return NULL;
	if (ft_tracing_on(s, false, err, errlen) == 0 &&
	    ft_write(s, "current_tracer", tracer, err, errlen) == 0)
		return s;
	int e = errno;
	if (e == EPERM || e == EACCES ||
	    (e == EBUSY && busy_elsewhere(tracer, ft_instance_name(s), err, errlen))) {
		if (e != EBUSY)
			ft_tracer_refusal(tracer, ft_instance_dir(s), e, err, errlen);
		ft_session_destroy(s);
		return NULL;
	}
	ft_session_destroy(s);
	char purpose[64];
	snprintf(purpose, sizeof(purpose), "latency %s", tracer);
	s = ft_session_new_top(purpose, err, errlen);
	if (!s)
		return NULL;
	l->top_level = true;
	if (ft_write(s, "current_tracer", tracer, err, errlen) < 0) {
		e = errno;
		ft_tracer_refusal(tracer, ft_tracefs_dir(s), e, err, errlen);
		ft_session_destroy(s);
		return NULL;
	}
	return s;
}

int tr_latency_measure(const char *tracer, char **argv, double duration, struct tr_latency *l,
		       char *err, size_t errlen)
{
	char have[1024];
	memset(l, 0, sizeof(*l));
	tr_catch_stop();	/* a Ctrl-C during the setup ends it through the cleanup */
	if (!ft_tracefs_root(err, errlen))
		return -1;
	if (!available(tracer, have, sizeof(have))) {
		snprintf(err, errlen, "this kernel has no %s tracer (it needs %s; available_tracers: "
			 "%s)", tracer, tr_latency_config(tracer), have);
		return -1;
	}
	struct ft_session *s = tracer_session(tracer, l, err, errlen);
	if (!s)
		return -1;
	int ret = -1;
	if (ft_write(s, "tracing_max_latency", "0", err, errlen) < 0 ||
	    ft_tracing_on(s, true, err, errlen) < 0)
		goto out;
	l->status = tr_run_for(argv, duration, "latency", err, errlen);
	ft_tracing_on(s, false, NULL, 0);
	if (l->status < 0)
		goto out;
	char *max = ft_read_file(s, "tracing_max_latency", NULL);
	l->max_us = max ? strtoul(max, NULL, 10) : 0;
	free(max);
	l->trace = ft_read_file(s, "trace", NULL);
	ret = 0;
out:
	ft_session_destroy(s);
	return ret;
}

void tr_latency_free(struct tr_latency *l)
{
	free(l->trace);
	memset(l, 0, sizeof(*l));
}

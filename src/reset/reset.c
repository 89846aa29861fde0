/* The reset engine (see reset.h): stop, then remove, in that order. */
#include "reset/reset.h"

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ftrace/toplevel.h"
#include "record/ust.h"

#define STOP_WAIT_MS 10000	/* a recording writes its trace.dat before it exits */

bool rs_was_stopped(const struct rs_stopped *s, pid_t pid)
{
	for (int i = 0; i < s->n; i++)
		if (s->pid[i] == pid)
			return true;
	return false;
}

/* ---- --all: stop the runs still going, so they clean up after themselves ---- */

static void add_owner(const struct rs_options *o, struct rs_stopped *s, const char *name)
{
	bool alive;
	pid_t pid = ftr_owner(name, &alive);
	if (!alive || pid <= 0 || pid == getpid() || (o->only && pid != o->only))
		return;
	if (rs_was_stopped(s, pid))
		return;
	if (s->n < (int)(sizeof(s->pid) / sizeof(s->pid[0])))
		s->pid[s->n++] = pid;
}

/* The owners of tracekit instances and probe run groups that still run. */
static void live_owners(const struct rs_options *o, struct rs_stopped *s)
{
	char err[256], dir[512];
	const char *root = ft_tracefs_root(err, sizeof(err));
	if (root) {
		snprintf(dir, sizeof(dir), "%s/instances", root);
		DIR *d = opendir(dir);
		for (struct dirent *de; d && (de = readdir(d));)
			if (!strncmp(de->d_name, FT_INSTANCE_PREFIX, strlen(FT_INSTANCE_PREFIX)))
				add_owner(o, s, de->d_name);
		if (d)
			closedir(d);
	}
	struct pk_probe *list;
	size_t n;
	if (pk_list(&list, &n, err, sizeof(err)) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (list[i].run)
			add_owner(o, s, list[i].group);
	pk_list_free(list, n);
}

/* Still running: a zombie has exited, so its cleanup is done. */
static bool running(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return false;
	size_t len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	const char *paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

static void stop_live_owners(const struct rs_options *o, const struct rs_report *rep,
			     struct rs_stopped *s)
{
	live_owners(o, s);
	for (int i = 0; i < s->n; i++) {
		rep->stopping(s->pid[i], rep->arg);
		kill(s->pid[i], SIGTERM);
	}
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	for (int waited = 0; waited < STOP_WAIT_MS; waited += 50) {
		int left = 0;
		for (int i = 0; i < s->n; i++)
			left += running(s->pid[i]);
		if (!left)
			break;
		nanosleep(&nap, NULL);
	}
	for (int i = 0; i < s->n; i++)
		if (!running(s->pid[i]))
			rep->stopped(s->pid[i], rep->arg);
}

/* The top level a killed function_graph recording borrowed: its old settings written back. */
static int reset_toplevel(bool force, const struct rs_report *rep, char *err, size_t errlen)
{
	pid_t owner = 0;
	bool alive = false;
	char what[2048];
	char output[4096];
	int r = ftt_reset(force, &owner, &alive, what, sizeof(what), output, sizeof(output), err,
			  errlen);
	if (r < 0)
		return -1;
	if (r == 0 && alive) {
		rep->toplevel(false, owner, alive, NULL, rep->arg);
	} else if (r == 1) {
		rep->toplevel(true, owner, alive, what, rep->arg);
		/* A killed recording's staging files (record's OUTPUT.cpuN) */
		if (*output)
			ftr_remove_outputs(output, rep->instance, rep->arg);
	}
	return 0;
}

int rs_reset(const struct rs_options *o, const struct rs_report *rep, struct rs_stopped *stopped,
	     char *err, size_t errlen)
{
	stopped->n = 0;
	if (!ft_tracefs_root(err, errlen))
		return -1;
	if (o->all)
		stop_live_owners(o, rep, stopped);
	/* Never rmdir under a live owner: it fails (busy) and the owner's run with it. */
	char prefix[64] = FT_INSTANCE_PREFIX;
	if (o->only)
		snprintf(prefix, sizeof(prefix), FT_INSTANCE_PREFIX "%d-", (int)o->only);
	if (ft_reset_prefix(prefix, false, rep->instance, rep->arg, err, errlen) < 0)
		return -1;
	if (!o->only && reset_toplevel(o->all, rep, err, errlen) < 0)
		return -1;
	if (!o->only && pk_reset(o->all, rep->probe, rep->arg, err, errlen) < 0)
		return -1;
	ust_reset_stale(rep->ust, rep->arg);
	return 0;
}

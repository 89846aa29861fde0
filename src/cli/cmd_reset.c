/*
 * tracekit reset: remove what tracekit left in tracefs when a run could not
 * clean up after itself (SIGKILL, a crash, a power cut of the process).  With
 * --all, everything tracekit made: runs still going are asked to stop first
 * (SIGTERM), so they clean up and keep their data as on Ctrl-C.  The work is
 * ft_reset_prefix() in src/ftrace/registry.c and pk_reset() in src/probe/kernel.c.
 */
#include <dirent.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ftrace/registry.h"
#include "ftrace/toplevel.h"
#include "probe/kernel.h"
#include "util/die.h"
#include "record/ust.h"

#define STOP_WAIT_MS 10000	/* a recording writes its trace.dat before it exits */

void help_reset(FILE *f)
{
	fputs("usage: tracekit reset [--all] [--pid PID]\n"
	      "\n"
	      "Remove what tracekit runs that are gone (a SIGKILL, a crash) left behind, and\n"
	      "print what was removed: their tracefs instances (tracekit-PID-N), a killed\n"
	      "record's FILE.cpuN staging files, their probe groups (tracekit_PID_N).\n"
	      "What runs still going use, and probes made by 'tracekit probe add', are kept.\n"
	      "Also user-event session and control files in /dev/shm whose recorder or\n"
	      "program is gone.\n"
	      "The top level's tracer settings a killed 'record -p function_graph' changed\n"
	      "are written back.\n"
	      "\n"
	      "  -a, --all     everything tracekit made: also the probes of 'probe add', and runs\n"
	      "                still going are stopped first (SIGTERM: they clean up and keep\n"
	      "                their data, as on Ctrl-C)\n"
	      "  -f, --force   the same as --all\n"
	      "  -p, --pid PID only the instances (and staging files) of the run with that pid\n"
	      "\n"
	      "Needs root (tracefs).  Exit status 1 when something could not be removed.\n"
	      "See docs/reset.md.\n", f);
}

static const struct option longopts[] = {
	{ "all", no_argument, NULL, 'a' },
	{ "force", no_argument, NULL, 'f' },
	{ "pid", required_argument, NULL, 'p' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct tally {
	int removed, kept, failed;
	bool all;
	pid_t only;		/* --pid */
	pid_t stopped[64];	/* the owners --all sent SIGTERM */
	int nstopped;
};

static bool was_stopped(const struct tally *t, int pid)
{
	for (int i = 0; i < t->nstopped; i++)
		if (t->stopped[i] == pid)
			return true;
	return false;
}

/* "owner pid 12 still runs" -> 12 */
static int owner_in(const char *why)
{
	int pid = 0;
	return sscanf(why, "owner pid %d", &pid) == 1 ? pid : 0;
}

static void report(enum ft_reset_action act, const char *name, const char *why, void *arg)
{
	struct tally *t = arg;
	int pid = owner_in(why);
	switch (act) {
	case FT_RESET_REMOVED:
		printf("removed instance %s (%s)\n", name, why);
		t->removed++;
		break;
	case FT_RESET_KEPT:
		if (was_stopped(t, pid))	/* asked to stop and did not */
			printf("kept instance %s (owner pid %d did not stop on SIGTERM: run "
			       "'kill -9 %d' and then 'tracekit reset')\n", name, pid, pid);
		else
			printf("kept instance %s (%s; 'tracekit reset --all' stops it)\n", name, why);
		t->kept++;
		break;
	case FT_RESET_FAILED:
		errmsg("cannot remove instance %s: %s", name, why);
		t->failed++;
		break;
	case FT_RESET_FILES:
		printf("removed %s (%s)\n", name, why);
		break;
	}
}

static void report_ust(const char *path, const char *why, void *arg)
{
	printf("removed %s (%s)\n", path, why);
	((struct tally *)arg)->removed++;
}

/* Probe events: run groups of dead runs; with --all, what tracekit probe add made too. */
static void report_probe(enum pk_reset_action act, const char *what, const char *why, void *arg)
{
	struct tally *t = arg;
	switch (act) {
	case PK_RESET_REMOVED:
		printf("removed probe %s (%s)\n", what, why);
		t->removed++;
		break;
	case PK_RESET_KEPT:
		if (was_stopped(t, owner_in(why)))
			printf("kept probe %s (owner pid %d did not stop on SIGTERM: run 'kill -9 %d' "
			       "and then 'tracekit reset')\n", what, owner_in(why), owner_in(why));
		else
			printf("kept probe %s (%s; %s)\n", what, why,
			       owner_in(why) ? "'tracekit reset --all' stops it"
					     : "'tracekit probe del' or 'tracekit reset --all' removes it");
		t->kept++;
		break;
	case PK_RESET_FAILED:
		errmsg("cannot remove probe %s: %s", what, why);
		t->failed++;
		break;
	}
}

/* ---- --all: stop the runs still going, so they clean up after themselves ---- */

static void add_owner(struct tally *o, const char *name)
{
	bool alive;
	pid_t pid = ftr_owner(name, &alive);
	if (!alive || pid <= 0 || pid == getpid() || (o->only && pid != o->only))
		return;
	if (was_stopped(o, pid))
		return;
	if (o->nstopped < (int)(sizeof(o->stopped) / sizeof(o->stopped[0])))
		o->stopped[o->nstopped++] = pid;
}

/* The owners of tracekit instances and probe run groups that still run. */
static void live_owners(struct tally *o)
{
	char err[256], dir[512];
	const char *root = ft_tracefs_root(err, sizeof(err));
	if (root) {
		snprintf(dir, sizeof(dir), "%s/instances", root);
		DIR *d = opendir(dir);
		for (struct dirent *de; d && (de = readdir(d));)
			if (!strncmp(de->d_name, FT_INSTANCE_PREFIX, strlen(FT_INSTANCE_PREFIX)))
				add_owner(o, de->d_name);
		if (d)
			closedir(d);
	}
	struct pk_probe *list;
	size_t n;
	if (pk_list(&list, &n, err, sizeof(err)) < 0)
		return;
	for (size_t i = 0; i < n; i++)
		if (list[i].run)
			add_owner(o, list[i].group);
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

static void stop_live_owners(struct tally *t)
{
	live_owners(t);
	for (int i = 0; i < t->nstopped; i++) {
		printf("stopping pid %d (a tracekit run still going): SIGTERM, it cleans up itself\n",
		       (int)t->stopped[i]);
		kill(t->stopped[i], SIGTERM);
	}
	fflush(stdout);
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	for (int waited = 0; waited < STOP_WAIT_MS; waited += 50) {
		int left = 0;
		for (int i = 0; i < t->nstopped; i++)
			left += running(t->stopped[i]);
		if (!left)
			break;
		nanosleep(&nap, NULL);
	}
	for (int i = 0; i < t->nstopped; i++)
		if (!running(t->stopped[i])) {
			printf("pid %d stopped\n", (int)t->stopped[i]);
			t->removed++;
		}
}

static int parse(struct tally *t, int argc, char **argv)
{
	int c;
	char *end;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:afp:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
		case 'f': t->all = true; break;
		case 'p':
			t->only = (pid_t)strtol(optarg, &end, 10);
			if (*end || end == optarg || t->only <= 0) {
				errmsg("--pid '%s': not a process id (e.g. --pid 1234)", optarg);
				return -1;
			}
			break;
		case ':':
			errmsg("option '%s' needs a value (see 'tracekit help reset')", argv[optind - 1]);
			return -1;
		case 'h': help_reset(stdout); exit(0);
		case '?':
		default:
			if (optopt && optopt < 256)
				errmsg("unknown option '-%c' (see 'tracekit help reset')", optopt);
			else
				errmsg("unknown option '%s' (see 'tracekit help reset')",
				       argv[optind - 1]);
			return -1;
		}
	}
	if (optind < argc) {
		errmsg("unexpected argument '%s' (reset takes only --all and --pid)", argv[optind]);
		return -1;
	}
	return 0;
}

/* The top level a killed function_graph recording borrowed: its old settings written back. */
static int reset_toplevel(bool force, struct tally *t, char *err, size_t errlen)
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
		printf("kept the top level's settings (owner pid %d still runs; --all restores "
		       "them)\n", (int)owner);
		t->kept++;
	} else if (r == 1) {
		printf("restored the top level's %s (owner pid %d %s)\n", what, (int)owner,
		       alive ? "still runs, forced" : "is gone");
		t->removed++;
		/* A killed recording's staging files (record's OUTPUT.cpuN) */
		if (*output)
			ftr_remove_outputs(output, report, t);
	}
	return 0;
}

int cmd_reset(int argc, char **argv)
{
	char err[512];
	struct tally t = { 0 };

	err_set_verb("reset");
	if (parse(&t, argc, argv) < 0)
		return 2;
	if (!ft_tracefs_root(err, sizeof(err))) {
		errmsg("%s", err);
		return 1;
	}
	if (t.all)
		stop_live_owners(&t);
	/* Never rmdir under a live owner: it fails (busy) and the owner's run with it. */
	char prefix[64] = FT_INSTANCE_PREFIX;
	if (t.only)
		snprintf(prefix, sizeof(prefix), FT_INSTANCE_PREFIX "%d-", (int)t.only);
	if (ft_reset_prefix(prefix, false, report, &t, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (!t.only && reset_toplevel(t.all, &t, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (!t.only && pk_reset(t.all, report_probe, &t, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	ust_reset_stale(report_ust, &t);
	if (!t.removed && !t.kept && !t.failed)
		puts("nothing to remove");
	fflush(stdout);
	return t.failed ? 1 : 0;
}

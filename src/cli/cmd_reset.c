/*
 * tracekit reset: remove what tracekit left in tracefs when a run could not
 * clean up after itself (SIGKILL, a crash, a power cut of the process).  With
 * --all, everything tracekit made: runs still going are asked to stop first
 * (SIGTERM), so they clean up and keep their data as on Ctrl-C.  The work is
 * the reset engine's (src/reset/reset.c); this file parses and prints.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "reset/reset.h"
#include "util/die.h"

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
	struct rs_options o;	/* --all, --pid */
	struct rs_stopped stopped;	/* the owners --all sent SIGTERM */
};

static bool was_stopped(const struct tally *t, int pid)
{
	return rs_was_stopped(&t->stopped, pid);
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

/* --all: a run still going is asked to stop. */
static void report_stopping(pid_t pid, void *arg)
{
	(void)arg;
	printf("stopping pid %d (a tracekit run still going): SIGTERM, it cleans up itself\n",
	       (int)pid);
	fflush(stdout);
}

static void report_stopped(pid_t pid, void *arg)
{
	printf("pid %d stopped\n", (int)pid);
	((struct tally *)arg)->removed++;
}

/* The top level a killed function_graph recording borrowed. */
static void report_toplevel(bool restored, pid_t owner, bool alive, const char *what, void *arg)
{
	struct tally *t = arg;
	if (!restored) {
		printf("kept the top level's settings (owner pid %d still runs; --all restores "
		       "them)\n", (int)owner);
		t->kept++;
		return;
	}
	printf("restored the top level's %s (owner pid %d %s)\n", what, (int)owner,
	       alive ? "still runs, forced" : "is gone");
	t->removed++;
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
		case 'f': t->o.all = true; break;
		case 'p':
			t->o.only = (pid_t)strtol(optarg, &end, 10);
			if (*end || end == optarg || t->o.only <= 0) {
				errmsg("--pid '%s': not a process id (e.g. --pid 1234)", optarg);
				return -1;
			}
			break;
		case ':':
		default:
			cli_getopt_error("reset", c, argv);
			return -1;
		}
	}
	if (optind < argc) {
		errmsg("unexpected argument '%s' (reset takes only --all and --pid)", argv[optind]);
		return -1;
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
	const struct rs_report rep = {
		.instance = report, .probe = report_probe, .ust = report_ust,
		.stopping = report_stopping, .stopped = report_stopped, .toplevel = report_toplevel,
		.arg = &t,
	};
	if (rs_reset(&t.o, &rep, &t.stopped, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (!t.removed && !t.kept && !t.failed)
		puts("nothing to remove");
	fflush(stdout);
	return t.failed ? 1 : 0;
}

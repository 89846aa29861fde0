/*
 * tracekit reset: remove what tracekit left in tracefs when a run could not
 * clean up after itself (SIGKILL, a crash, a power cut of the process).  The
 * work is ft_reset_prefix() in src/ftrace/registry.c.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cli.h"
#include "ftrace/registry.h"
#include "ftrace/toplevel.h"
#include "probe/kernel.h"
#include "util/die.h"

void help_reset(FILE *f)
{
	fputs("usage: tracekit reset [--force]\n"
	      "\n"
	      "Remove the tracefs instances (tracekit-PID-N) of tracekit runs that are gone,\n"
	      "for example after a SIGKILL, and print what was removed.  Instances of runs\n"
	      "still going are kept.  Probe events: the groups of runs that are gone\n"
	      "(tracekit_PID_N) and the probes tracekit probe add made.  The top level's tracer\n"
	      "settings a killed record -p function_graph changed are written back.\n"
	      "\n"
	      "  -f, --force   remove every tracekit instance, also of runs still going\n"
	      "\n"
	      "Needs root (tracefs).  Exit status 1 when an instance could not be removed.\n"
	      "See docs/reset.md.\n", f);
}

static const struct option longopts[] = {
	{ "force", no_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct tally {
	int removed, kept, failed;
};

static void report(enum ft_reset_action act, const char *name, const char *why, void *arg)
{
	struct tally *t = arg;
	switch (act) {
	case FT_RESET_REMOVED:
		printf("removed instance %s (%s)\n", name, why);
		t->removed++;
		break;
	case FT_RESET_KEPT:
		printf("kept instance %s (%s; --force removes it)\n", name, why);
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

/* Probe events: run groups of dead runs, and what tracekit probe add made. */
static void report_probe(enum pk_reset_action act, const char *what, const char *why, void *arg)
{
	struct tally *t = arg;
	switch (act) {
	case PK_RESET_REMOVED:
		printf("removed probe %s (%s)\n", what, why);
		t->removed++;
		break;
	case PK_RESET_KEPT:
		printf("kept probe %s (%s; --force removes it)\n", what, why);
		t->kept++;
		break;
	case PK_RESET_FAILED:
		errmsg("cannot remove probe %s: %s", what, why);
		t->failed++;
		break;
	}
}

static int parse(bool *force, int argc, char **argv)
{
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+fh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': *force = true; break;
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
		errmsg("unexpected argument '%s' (reset takes only --force)", argv[optind]);
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
	int r = ftt_reset(force, &owner, &alive, what, sizeof(what), err, errlen);
	if (r < 0)
		return -1;
	if (r == 0 && alive) {
		printf("kept the top level's settings (owner pid %d still runs; --force restores "
		       "them)\n", (int)owner);
		t->kept++;
	} else if (r == 1) {
		printf("restored the top level's %s (owner pid %d %s)\n", what, (int)owner,
		       alive ? "still runs, forced" : "is gone");
		t->removed++;
	}
	return 0;
}

int cmd_reset(int argc, char **argv)
{
	char err[512];
	bool force = false;
	struct tally t = { 0 };

	err_set_verb("reset");
	if (parse(&force, argc, argv) < 0)
		return 2;
	if (ft_reset_prefix(FT_INSTANCE_PREFIX, force, report, &t, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (reset_toplevel(force, &t, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (pk_reset(force, report_probe, &t, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (!t.removed && !t.kept && !t.failed)
		puts("nothing to remove");
	fflush(stdout);
	return t.failed ? 1 : 0;
}

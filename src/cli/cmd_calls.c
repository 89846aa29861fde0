/*
 * tracekit calls: where a function_graph recording's time went.  Options
 * only; the work is in src/analysis/calls*.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/calls.h"
#include "cli.h"
#include "util/die.h"

void help_calls(FILE *f)
{
	fputs("usage: tracekit calls [options] [FILE]\n"
	      "\n"
	      "Per kernel function of a function_graph recording (tracekit record -p\n"
	      "function_graph, or trace-cmd's): calls, total and self time, average, p99 and\n"
	      "max; then the hottest call paths as a tree with inclusive and self time.\n"
	      "Durations are the kernel's, the ones trace-cmd report prints.\n"
	      "\n"
	      "  -i FILE              the trace file (default trace.dat; or FILE last)\n"
	      "      --by WHAT        rows per function and process or thread (default: all)\n"
	      "      --top N          rows of the function table (default 30; 0: all)\n"
	      "      --min-percent P  call tree: cut paths under P%% of their process (default 1)\n"
	      "      --folded         folded stacks (flamegraph.pl, speedscope): self ns per path\n"
	      "      --json           one JSON document (see docs/functions.md)\n"
	      "  -h, --help           this text\n", f);
}

enum { OPT_BY = 256, OPT_TOP, OPT_MIN_PERCENT, OPT_FOLDED, OPT_JSON };

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "by", required_argument, NULL, OPT_BY },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "min-percent", required_argument, NULL, OPT_MIN_PERCENT },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int number(const char *opt, const char *s, double max, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || *v < 0 || *v > max) {
		errmsg("invalid value '%s' for %s (a number from 0 to %g)", s, opt, max);
		return -1;
	}
	return 0;
}

static int parse(int argc, char **argv, struct calls_options *o)
{
	int c;
	double v;
	bool have_i = false;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; have_i = true; break;
		case OPT_BY:
			if (!strcmp(optarg, "process"))
				o->by = CALLS_BY_PROCESS;
			else if (!strcmp(optarg, "thread"))
				o->by = CALLS_BY_THREAD;
			else if (!strcmp(optarg, "all"))
				o->by = CALLS_BY_ALL;
			else {
				errmsg("--by '%s': give process, thread or all", optarg);
				return -1;
			}
			break;
		case OPT_TOP:
			if (number("--top", optarg, 1e9, &v) < 0)
				return -1;
			o->top = (int)v;
			break;
		case OPT_MIN_PERCENT:
			if (number("--min-percent", optarg, 100, &o->min_percent) < 0)
				return -1;
			break;
		case OPT_FOLDED: o->folded = true; break;
		case OPT_JSON: o->json = true; break;
		case 'h': help_calls(stdout); return 1;
		case ':':
		default:
			cli_getopt_error("calls", c, argv);
			return -1;
		}
	}
	if (cli_input_file(argc, argv, optind, &o->input, have_i) < 0)
		return -1;
	if (o->folded && o->json) {
		errmsg("--folded and --json: give one of them");
		return -1;
	}
	return 0;
}

int cmd_calls(int argc, char **argv)
{
	struct calls_options o = { .input = "trace.dat", .top = 30, .min_percent = 1 };
	struct calls c;
	char err[1024];

	err_set_verb("calls");
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? 2 : 0;
	if (calls_load(&c, &o, err, sizeof(err)) < 0) {
		calls_free(&c);
		errmsg("%s", err);
		return 1;
	}
	if (o.folded)
		rc = calls_print_folded(&c, stdout);
	else if (o.json)
		rc = calls_print_json(&c, &o, stdout);
	else
		rc = calls_print_text(&c, &o, stdout);
	calls_free(&c);
	if (rc < 0 || fflush(stdout) != 0) {
		errmsg("write error: %s", strerror(errno));
		return 1;
	}
	return 0;
}

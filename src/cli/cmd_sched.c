/*
 * tracekit sched: scheduling analysis of a trace.dat.  Options only; the work
 * is in src/analysis/.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/sched_guest.h"
#include "analysis/sched_trace.h"
#include "cli.h"
#include "util/die.h"

void help_sched(FILE *f)
{
	fputs("usage: tracekit sched [options] [FILE...]\n"
	      "\n"
	      "Where and when the kernel ran a program: per process and thread, time on a CPU,\n"
	      "waiting for one, sleeping and blocked; wakeup latencies; voluntary and involuntary\n"
	      "switches; migrations; how many threads ran at once; per CPU, how busy it was and\n"
	      "who else ran there.  Reads the sched events of a trace.dat (tracekit record's\n"
	      "default set, or trace-cmd record -e sched).  Several files (a host's and its\n"
	      "guests', trace-cmd record -A): each machine's analysis, then for each guest the\n"
	      "time its tasks waited for their vCPUs on the host.\n"
	      "\n"
	      "  -i FILE            the trace file (default trace.dat; or FILE last);\n"
	      "                     repeat it for a host's and its guests' files\n"
	      "  -p, --pid PID      the process of this pid (or thread id)\n"
	      "  -c, --comm NAME    the processes with a task of this name\n"
	      "                     (default: the command `tracekit record` ran, else the\n"
	      "                     busiest processes)\n"
	      "  --from S, --to S   only from/to S seconds (the trace's timestamps)\n"
	      "  -F, --filter FILTER  only the events FILTER matches (trace-cmd's syntax, as\n"
	      "                     report -F: 'sched_switch: prev_pid == 42'; repeatable)\n"
	      "  -B, --buffer NAME  only the instance buffer NAME (trace-cmd record -B NAME;\n"
	      "                     repeatable); default: every buffer of the file\n"
	      "  --top              only the top-level buffer (with -B: it too)\n"
	      "  --json             one JSON document (see docs/sched.md)\n"
	      "  -h, --help         this text\n", f);
}

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "buffer", required_argument, NULL, 'B' },
	{ "top", no_argument, NULL, CLI_OPT_TOP },
	{ "pid", required_argument, NULL, 'p' },
	{ "comm", required_argument, NULL, 'c' },
	{ "from", required_argument, NULL, 'f' },
	{ "to", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "filter", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_pid(const char *arg, int *pid)
{
	char *end;

	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v <= 0 || v > 0x3fffffff) {
		errmsg("--pid '%s': not a process id", arg);
		return -1;
	}
	*pid = (int)v;
	return 0;
}

static struct cli_filters filters;
static struct cli_buffers buffers;
static struct cli_inputs inputs;

static int parse_args(int argc, char **argv, struct st_options *o)
{
	int c;

	while ((c = getopt_long(argc, argv, ":i:B:p:c:F:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'B':
			if (cli_buffer_add(&buffers, optarg) < 0)
				return -1;
			break;
		case CLI_OPT_TOP: buffers.top = true; break;
		case 'i':
			if (cli_input_add(&inputs, optarg) < 0)
				return -1;
			break;
		case 'p':
			if (parse_pid(optarg, &o->pid) < 0)
				return -1;
			break;
		case 'c': o->comm = optarg; break;
		case 'f':
			if (cli_seconds("--from", optarg, &o->from) < 0)
				return -1;
			o->has_from = true;
			break;
		case 't':
			if (cli_seconds("--to", optarg, &o->to) < 0)
				return -1;
			o->has_to = true;
			break;
		case 'j': o->json = true; break;
		case 'F':
			if (cli_filter_add(&filters, optarg) < 0)
				return -1;
			break;
		case 'h': help_sched(stdout); return 1;
		case ':':
		default:
			cli_getopt_error("sched", c, argv);
			return -1;
		}
	}
	if (cli_input_files(argc, argv, optind, &inputs) < 0)
		return -1;
	o->input = inputs.v[0];
	cli_buffers_apply(&buffers);
	if (o->has_from && o->has_to && o->from > o->to) {
		errmsg("--from %g is after --to %g", o->from, o->to);
		return -1;
	}
	if (o->pid && o->comm) {
		errmsg("--pid and --comm: give one of them");
		return -1;
	}
	return 0;
}

int cmd_sched(int argc, char **argv)
{
	struct st_options o = { .input = "trace.dat" };
	struct st_trace t;
	char err[1024];

	err_set_verb("sched");
	int rc = parse_args(argc, argv, &o);
	if (rc)
		return rc < 0 ? 2 : 0;
	o.filters = filters.v;
	o.nfilters = filters.n;
	if (inputs.n > 1) {
		rc = sg_report(&o, inputs.v, inputs.n, stdout, err, sizeof(err));
		if (rc < 0) {
			fflush(stdout);
			errmsg("%s", err);
			return rc == -2 ? 2 : 1;
		}
		return fflush(stdout) ? 1 : 0;
	}
	rc = st_load(&t, &o, err, sizeof(err));
	if (rc < 0) {
		st_free(&t);
		errmsg("%s", err);
		return rc == -2 ? 2 : 1;
	}
	rc = st_print(&t, &o, stdout, err, sizeof(err));
	st_free(&t);
	if (rc < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (fflush(stdout) != 0) {
		errmsg("write error: %s", strerror(errno));
		return 1;
	}
	return 0;
}

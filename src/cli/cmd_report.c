/*
 * tracekit report: print a trace.dat as trace-cmd report does, or as JSON lines,
 * or as counts.  Options only; the work is in src/report/.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report/report.h"
#include "util/die.h"

#define MAX_CPU 4096

void help_report(FILE *f)
{
	fputs("usage: tracekit report [options] [FILE...]\n"
	      "\n"
	      "Print the events of a trace.dat file (tracekit's or trace-cmd's: versions 6 and 7,\n"
	      "compressed or not) in time order, one line each, as trace-cmd report prints them.\n"
	      "Several files (a host's and its guests', trace-cmd record -A) are merged on one\n"
	      "clock, each line prefixed with its file's name as trace-cmd report does.\n"
	      "\n"
	      "  -i FILE                 the trace file (default trace.dat; or FILE last);\n"
	      "                          repeat it for several files merged on one clock\n"
	      "  -F 'EVENT[: FILTER]'    only these events, as trace-cmd report -F:\n"
	      "                          -F sched_switch, -F 'sched_switch: next_pid == 1234',\n"
	      "                          -F 'sched/.*: prev_pid != 0'; several -F add up\n"
	      "  -B, --buffer NAME       only the instance buffer NAME (trace-cmd record -B NAME;\n"
	      "                          repeatable); default: every buffer, each line prefixed\n"
	      "                          with its buffer's name as trace-cmd report does\n"
	      "  --top                   only the top-level buffer (with -B: it too)\n"
	      "  --cpu N[,M...]          only events of these CPUs\n"
	      "  --from S, --to S        only events from/to S seconds (the trace's timestamps)\n"
	      "  --json                  one JSON object per line: ts (ns), cpu, pid, comm,\n"
	      "                          event (\"system:name\"), fields (typed); with several\n"
	      "                          files, machine (a guest's name, host, or the file)\n"
	      "  --stat                  events per type and per CPU, and lost events\n"
	      "  --syscalls              the syscall events as strace's lines (pointers as addresses)\n"
	      "                          (--json, --stat and --syscalls: one of them)\n"
	      "  -h, --help              this text\n", f);
}

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "buffer", required_argument, NULL, 'B' },
	{ "top", no_argument, NULL, CLI_OPT_TOP },
	{ "filter", required_argument, NULL, 'F' },
	{ "cpu", required_argument, NULL, 'c' },
	{ "from", required_argument, NULL, 'f' },
	{ "to", required_argument, NULL, 't' },
	{ "json", no_argument, NULL, 'j' },
	{ "stat", no_argument, NULL, 's' },
	{ "syscalls", no_argument, NULL, 'S' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* "1,3": mark those CPUs; *n becomes one past the highest. */
static int parse_cpus(const char *arg, bool *mask, int *n)
{
	const char *p = arg;

	for (;;) {
		char *end;
		errno = 0;
		long cpu = strtol(p, &end, 10);
		if (errno || end == p || cpu < 0 || cpu >= MAX_CPU || (*end && *end != ',')) {
			errmsg("--cpu '%s': expected CPU numbers like 0 or 1,3", arg);
			return -1;
		}
		mask[cpu] = true;
		if (cpu + 1 > *n)
			*n = (int)cpu + 1;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

/* The spelling of an output option, by its getopt code. */
static const char *out_name(int c)
{
	return c == 'j' ? "--json" : c == 's' ? "--stat" : "--syscalls";
}

int cmd_report(int argc, char **argv)
{
	static bool cpus[MAX_CPU];
	static struct cli_filters filters;
	static struct cli_buffers buffers;
	static struct cli_inputs inputs;
	struct rp_options o = { .input = "trace.dat", .filters = filters.v };
	int c;

	err_set_verb("report");
	bool syscalls = false;
	int out_opt = 0; /* the output option given: --json, --stat or --syscalls */
	while ((c = getopt_long(argc, argv, ":i:B:F:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'B':
			if (cli_buffer_add(&buffers, optarg) < 0)
				return 2;
			break;
		case CLI_OPT_TOP: buffers.top = true; break;
		case 'i':
			if (cli_input_add(&inputs, optarg) < 0)
				return 2;
			break;
		case 'F':
			if (cli_filter_add(&filters, optarg) < 0)
				return 2;
			o.nfilters = filters.n;
			break;
		case 'c':
			if (parse_cpus(optarg, cpus, &o.ncpus) < 0)
				return 2;
			o.cpus = cpus;
			break;
		case 'f':
			if (cli_seconds("--from", optarg, &o.from) < 0)
				return 2;
			o.has_from = true;
			break;
		case 't':
			if (cli_seconds("--to", optarg, &o.to) < 0)
				return 2;
			o.has_to = true;
			break;
		case 'j':
		case 's':
		case 'S':
			if (out_opt && out_opt != c) {
				errmsg("%s and %s do not go together: give one of them",
				       out_name(out_opt), out_name(c));
				return 2;
			}
			out_opt = c;
			if (c == 'j')
				o.mode = RP_JSON;
			else if (c == 's')
				o.mode = RP_STAT;
			else
				syscalls = true;
			break;
		case 'h': help_report(stdout); return 0;
		case ':':
		default:
			cli_getopt_error("report", c, argv);
			return 2;
		}
	}
	if (cli_input_files(argc, argv, optind, &inputs) < 0)
		return 2;
	o.input = inputs.v[0];
	o.inputs = inputs.v;
	o.ninputs = inputs.n;
	if (syscalls && inputs.n > 1) {
		errmsg("--syscalls reads one trace file (%d given)", inputs.n);
		return 2;
	}
	cli_buffers_apply(&buffers);
	if (o.has_from && o.has_to && o.from > o.to) {
		errmsg("--from %g is after --to %g", o.from, o.to);
		return 2;
	}
	/* Big writes: the report of a large trace is mostly output. */
	static char obuf[1 << 16];
	setvbuf(stdout, obuf, _IOFBF, sizeof(obuf));
	char err[1024];
	int rc = (syscalls ? rp_syscalls : rp_run)(&o, stdout, err, sizeof(err));
	if (rc < 0) {
		fflush(stdout);
		errmsg("%s", err);
		return rc == -2 ? 2 : 1;
	}
	if (fflush(stdout) != 0) {
		errmsg("write error: %s", strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * tracekit export: a trace.dat as Chrome Trace Event JSON or Perfetto protobuf.
 * Options only; the work is in src/export/.
 */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "export/export.h"
#include "util/die.h"

void help_export(FILE *f)
{
	fputs("usage: tracekit export [-i FILE | FILE] --format chrome|perfetto -o OUT\n"
	      "\n"
	      "Write a trace.dat (tracekit's or trace-cmd's) in a format other tools open.\n"
	      "Several files (a host's and its guests', trace-cmd record -A) are merged on one\n"
	      "clock, each machine its own processes and CPUs:\n"
	      "\n"
	      "  -i FILE                 the trace file (default trace.dat; or FILE last);\n"
	      "                          repeat it for a host's and its guests' files\n"
	      "  -f, --format chrome     Chrome Trace Event JSON (chrome://tracing, ui.perfetto.dev):\n"
	      "                          a lane per CPU of the tasks that ran, syscalls as slices,\n"
	      "                          other events as instants with their fields\n"
	      "  -f, --format perfetto   Perfetto's protobuf trace (ui.perfetto.dev, trace_processor):\n"
	      "                          scheduling as ftrace packets, so CPU tracks and thread\n"
	      "                          states appear; other events as track events\n"
	      "  -o FILE                 the output file (required)\n"
	      "  -F, --filter FILTER     only the events FILTER matches (trace-cmd's syntax, as\n"
	      "                          report -F: 'sched_switch: prev_pid == 42'; repeatable)\n"
	      "  -B, --buffer NAME       only the instance buffer NAME (trace-cmd record -B NAME;\n"
	      "                          repeatable); default: every buffer of the file\n"
	      "  --top                   only the top-level buffer (with -B: it too)\n"
	      "  -h, --help              this text\n", f);
}

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "buffer", required_argument, NULL, 'B' },
	{ "top", no_argument, NULL, CLI_OPT_TOP },
	{ "format", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "filter", required_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_export(int argc, char **argv)
{
	const char *output = NULL, *format = NULL;
	enum ex_format f;
	static struct cli_filters filters;
	static struct cli_buffers buffers;
	static struct cli_inputs inputs;
	int c;

	err_set_verb("export");
	while ((c = getopt_long(argc, argv, ":i:B:f:o:F:h", longopts, NULL)) != -1) {
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
		case 'f': format = optarg; break;
		case 'o': output = optarg; break;
		case 'F':
			if (cli_filter_add(&filters, optarg) < 0)
				return 2;
			break;
		case 'h': help_export(stdout); return 0;
		case ':':
		default:
			cli_getopt_error("export", c, argv);
			return 2;
		}
	}
	if (cli_input_files(argc, argv, optind, &inputs) < 0)
		return 2;
	cli_buffers_apply(&buffers);
	if (!format) {
		errmsg("which format? --format chrome or --format perfetto");
		return 2;
	}
	if (ex_parse_format(format, &f) < 0) {
		errmsg("unknown format '%s' (chrome or perfetto)", format);
		return 2;
	}
	if (!output) {
		errmsg("no output file: -o FILE");
		return 2;
	}
	char err[1024];
	int rc = ex_run_files(inputs.v, inputs.n, filters.v, filters.n, f, output, err,
			      sizeof(err));
	if (rc < 0) {
		errmsg("%s", err);
		return rc == -2 ? 2 : 1;
	}
	return 0;
}

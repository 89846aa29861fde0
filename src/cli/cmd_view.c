/*
 * tracekit view: write a trace.dat as one self-contained HTML timeline page.
 * Options only; the page is made in src/export/view.c.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "export/view.h"
#include "util/die.h"
#include "util/outfile.h"

void help_view(FILE *f)
{
	fprintf(f, "usage: tracekit view [options] [FILE]\n"
	      "\n"
	      "Write the events of a trace.dat as one self-contained HTML page (no network): a\n"
	      "lane per CPU (which task ran), a lane per task of the recorded command (running,\n"
	      "runnable, sleeping, blocked), zoom, pan, markers and a searchable event list.\n"
	      "\n"
	      "  -i FILE              the trace file (default trace.dat; or FILE last)\n"
	      "  -o FILE              the page to write (default trace.html)\n"
	      "  --max-events N       events kept in full detail (default %d); past them the\n"
	      "                       page shows a per-CPU busy overview of the whole trace\n"
	      "  --from S, --to S     only the events from/to S seconds (the trace's\n"
	      "                       timestamps); the states before still count\n"
	      "  -F, --filter FILTER  only the events FILTER matches (trace-cmd's syntax, as\n"
	      "                       report -F: 'sched_switch: prev_pid == 42'; repeatable)\n"
	      "  -q, --quiet          no progress line while a big trace is read (it shows\n"
	      "                       only on a terminal)\n"
	      "  -h, --help           this text\n", VW_DEFAULT_MAX_EVENTS);
}

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "output", required_argument, NULL, 'o' },
	{ "max-events", required_argument, NULL, 'm' },
	{ "from", required_argument, NULL, 'f' },
	{ "to", required_argument, NULL, 't' },
	{ "filter", required_argument, NULL, 'F' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_max(const char *arg, long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	if (errno || end == arg || *end || *out < 0) {
		errmsg("--max-events '%s': expected a number of events", arg);
		return -1;
	}
	return 0;
}

/* Written to a temporary name and renamed (util/outfile.h), so a failed run leaves no half page. */
static int write_file(const struct vw_options *o, const char *path)
{
	char err[1024];
	struct outfile out;

	if (outfile_open(&out, path, "w", err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	int made = vw_write_html(o, out.f, err, sizeof(err));
	if (made < 0) {
		outfile_abort(&out);
		errmsg("%s", err);
		return made == -2 ? 2 : 1;
	}
	if (outfile_commit(&out, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	return 0;
}

int cmd_view(int argc, char **argv)
{
	struct vw_options o = { .input = "trace.dat", .max_events = VW_DEFAULT_MAX_EVENTS };
	const char *output = "trace.html";
	static struct cli_filters filters;
	int c;

	err_set_verb("view");
	bool have_i = false;
	while ((c = getopt_long(argc, argv, ":i:o:F:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i': o.input = optarg; have_i = true; break;
		case 'o': output = optarg; break;
		case 'q': o.quiet = true; break;
		case 'F':
			if (cli_filter_add(&filters, optarg) < 0)
				return 2;
			break;
		case 'm':
			if (parse_max(optarg, &o.max_events) < 0)
				return 2;
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
		case 'h': help_view(stdout); return 0;
		case ':':
			errmsg("option '%s' needs an argument (see 'tracekit help view')",
			       argv[optind - 1]);
			return 2;
		default:
			errmsg("unknown option '%s' (see 'tracekit help view')", argv[optind - 1]);
			return 2;
		}
	}
	if (cli_input_file(argc, argv, optind, &o.input, have_i) < 0)
		return 2;
	if (o.has_from && o.has_to && o.from > o.to) {
		errmsg("--from %g is after --to %g", o.from, o.to);
		return 2;
	}
	o.filters = filters.v;
	o.nfilters = filters.n;
	return write_file(&o, output);
}

/*
 * tracekit view: write a trace.dat as one self-contained HTML timeline page, or
 * (--serve) serve a big one's windows in full detail to a browser on this machine.
 * Options only; the pages are made in src/export/view.c, served by view_http.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "export/view.h"
#include "export/view_http.h"
#include "util/die.h"
#include "util/outfile.h"

#define DEFAULT_WINDOW_EVENTS 100000
#define WINDOW_CHUNKS 4	/* a window: up to 4 chunks, so one moves by a quarter */

void help_view(FILE *f)
{
	fprintf(f, "usage: tracekit view [options] [FILE...]\n"
	      "\n"
	      "Write the events of a trace.dat as one self-contained HTML page (no network): a\n"
	      "lane per CPU (which task ran), a lane per task of the recorded command (running,\n"
	      "runnable, sleeping, blocked), zoom, pan, markers and a searchable event list.\n"
	      "Several files (a host's and its guests', trace-cmd record -A): merged on one\n"
	      "clock, a group of lanes per machine, each guest vCPU's lane under the host\n"
	      "thread that runs it.\n"
	      "\n"
	      "  -i FILE              the trace file (default trace.dat; or FILE last);\n"
	      "                       repeat it for a host's and its guests' files\n"
	      "  -o FILE              the page to write (default trace.html)\n"
	      "  --max-events N       events kept in full detail (default %d); past them the\n"
	      "                       page shows a per-CPU busy overview of the whole trace\n"
	      "  --from S, --to S     only the events from/to S seconds (the trace's\n"
	      "                       timestamps); the states before still count\n"
	      "  -F, --filter FILTER  only the events FILTER matches (trace-cmd's syntax, as\n"
	      "                       report -F: 'sched_switch: prev_pid == 42'; repeatable)\n"
	      "  -B, --buffer NAME    only the instance buffer NAME (trace-cmd record -B NAME;\n"
	      "                       repeatable); default: every buffer of the file\n"
	      "  --top                only the top-level buffer (with -B: it too)\n"
	      "  --serve              no page file: index the trace, then serve it on\n"
	      "                       127.0.0.1 (the address, with its token, on stdout) to\n"
	      "                       a browser that fetches every window in full detail\n"
	      "  --port N             --serve's port (default: any free one)\n"
	      "  --window-events N    --serve: the most events a window in detail holds\n"
	      "                       (default %d)\n"
	      "  -q, --quiet          no progress line while a big trace is read (it shows\n"
	      "                       only on a terminal)\n"
	      "  -h, --help           this text\n", VW_DEFAULT_MAX_EVENTS, DEFAULT_WINDOW_EVENTS);
}

static const struct option longopts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "buffer", required_argument, NULL, 'B' },
	{ "top", no_argument, NULL, CLI_OPT_TOP },
	{ "output", required_argument, NULL, 'o' },
	{ "max-events", required_argument, NULL, 'm' },
	{ "from", required_argument, NULL, 'f' },
	{ "to", required_argument, NULL, 't' },
	{ "filter", required_argument, NULL, 'F' },
	{ "serve", no_argument, NULL, 's' },
	{ "port", required_argument, NULL, 'p' },
	{ "window-events", required_argument, NULL, 'w' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int parse_count(const char *opt, const char *arg, long lo, long hi, const char *what,
		       long *out)
{
	char *end;

	errno = 0;
	*out = strtol(arg, &end, 10);
	if (errno || end == arg || *end || *out < lo || *out > hi) {
		errmsg("%s '%s': expected %s", opt, arg, what);
		return -1;
	}
	return 0;
}

static volatile sig_atomic_t stop_serving;

static void on_stop(int sig)
{
	(void)sig;
	stop_serving = 1;
}

static void print_url(const char *url)
{
	printf("%s\n", url);
	fflush(stdout);
}

/* --serve: index the file into a temporary cache, then answer the browser until a signal. */
static int serve(const struct vw_options *o, int port, long window_events)
{
	struct sigaction sa = { .sa_handler = on_stop };	/* no SA_RESTART: poll wakes */
	struct timespec t0, t1;
	char err[1024];
	int rc = 1;

	/* The port first: a port taken is said before minutes of indexing, not after. */
	int lfd = vw_http_listen(port, err, sizeof(err));
	if (lfd < 0) {
		errmsg("%s", err);
		return 1;
	}
	FILE *cache = tmpfile();
	if (!cache) {
		errmsg("cannot make the window cache (in $TMPDIR or /tmp): %s", strerror(errno));
		close(lfd);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	struct vw_served *s = vw_served_index(o, cache, (window_events + WINDOW_CHUNKS - 1) /
					      WINDOW_CHUNKS, WINDOW_CHUNKS, err, sizeof(err));
	if (!s) {
		errmsg("%s", err);
		fclose(cache);
		close(lfd);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	fprintf(stderr, "tracekit: view: %s: %ld events indexed in %.1f s (%d chunks, %.0f MB of "
		"window cache); serving on 127.0.0.1 until Ctrl-C\n", o->input,
		vw_served_events(s), (double)(t1.tv_sec - t0.tv_sec) +
		(t1.tv_nsec - t0.tv_nsec) / 1e9, vw_served_chunks(s),
		(double)ftello(cache) / 1048576);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (vw_http_serve(s, lfd, print_url, &stop_serving, err, sizeof(err)) < 0)
		errmsg("%s", err);
	else
		rc = 0;
	vw_served_free(s);
	fclose(cache);
	return rc;
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
	bool serving = false, have_o = false, have_max = false;
	long port = 0, window_events = DEFAULT_WINDOW_EVENTS;
	static struct cli_buffers buffers;
	static struct cli_inputs inputs;
	int c;

	err_set_verb("view");
	while ((c = getopt_long(argc, argv, ":i:B:o:F:qh", longopts, NULL)) != -1) {
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
		case 'o': output = optarg; have_o = true; break;
		case 's': serving = true; break;
		case 'p':
			if (parse_count("--port", optarg, 0, 65535, "a port number", &port) < 0)
				return 2;
			break;
		case 'w':
			if (parse_count("--window-events", optarg, WINDOW_CHUNKS, 100000000,
					"a number of events (at least 4)", &window_events) < 0)
				return 2;
			break;
		case 'q': o.quiet = true; break;
		case 'F':
			if (cli_filter_add(&filters, optarg) < 0)
				return 2;
			break;
		case 'm':
			if (parse_count("--max-events", optarg, 0, LONG_MAX, "a number of events",
					&o.max_events) < 0)
				return 2;
			have_max = true;
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
		default:
			cli_getopt_error("view", c, argv);
			return 2;
		}
	}
	if (cli_input_files(argc, argv, optind, &inputs) < 0)
		return 2;
	o.input = inputs.v[0];
	o.inputs = inputs.v;
	o.ninputs = inputs.n;
	cli_buffers_apply(&buffers);
	if (o.has_from && o.has_to && o.from > o.to) {
		errmsg("--from %g is after --to %g", o.from, o.to);
		return 2;
	}
	o.filters = filters.v;
	o.nfilters = filters.n;
	if (serving && (have_o || have_max)) {
		errmsg("%s: --serve writes no page file and keeps every event (see 'tracekit help "
		       "view')", have_o ? "-o" : "--max-events");
		return 2;
	}
	if (!serving && (port || window_events != DEFAULT_WINDOW_EVENTS)) {
		errmsg("--port and --window-events go with --serve (see 'tracekit help view')");
		return 2;
	}
	if (serving && inputs.n > 1) {
		errmsg("--serve reads one trace file (%d given): write a page of them instead",
		       inputs.n);
		return 2;
	}
	if (serving)
		return serve(&o, (int)port, window_events);
	return write_file(&o, output);
}

/*
 * tracekit stack and tracekit latency: the kernel's stack tracer and latency
 * tracers over a command or a while.  Options only; the work is in
 * src/tracers/.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tracers/latency.h"
#include "tracers/stack.h"
#include "util/die.h"
#include "util/json.h"
#include "util/strbuf.h"

void help_stack(FILE *f)
{
	fputs("usage: tracekit stack [--duration S] [--json] [-- COMMAND [ARGS...]]\n"
	      "\n"
	      "The deepest kernel stack while COMMAND runs (or for S seconds, or until Ctrl-C):\n"
	      "the kernel's stack tracer (CONFIG_STACK_TRACER) is turned on with its maximum\n"
	      "reset, then stack_max_size and the deepest stack with each frame's size are\n"
	      "printed, and the tracer's previous state is put back.\n"
	      "\n"
	      "      --duration S   measure for S seconds\n"
	      "      --json         one JSON document\n"
	      "See docs/functions.md.\n", f);
}

void help_latency(FILE *f)
{
	fputs("usage: tracekit latency TRACER [--duration S] [--json] [-- COMMAND [ARGS...]]\n"
	      "\n"
	      "A latency tracer of the kernel while COMMAND runs (or for S seconds, or until\n"
	      "Ctrl-C): the maximum latency it saw (tracing_max_latency) and the trace the kernel\n"
	      "kept of it.  TRACER: irqsoff, preemptoff, preemptirqsoff, wakeup, wakeup_rt,\n"
	      "wakeup_dl, hwlat, osnoise, timerlat, as far as the kernel has them.\n"
	      "\n"
	      "      --duration S   measure for S seconds\n"
	      "      --json         one JSON document\n"
	      "See docs/functions.md.\n", f);
}

enum { OPT_DURATION = 256, OPT_JSON };

static const struct option longopts[] = {
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct opts {
	double duration;
	bool json;
	char **argv;
	const char *tracer;
};

static int parse(int argc, char **argv, struct opts *o, bool want_tracer, void (*help)(FILE *))
{
	int c;
	char *end;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DURATION:
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || o->duration < 0.001 || o->duration > 1e9) {
				errmsg("invalid value '%s' for --duration (seconds, from 0.001)", optarg);
				return -1;
			}
			break;
		case OPT_JSON: o->json = true; break;
		case 'h': help(stdout); return 1;
		case ':':
			errmsg("option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			errmsg("unknown option '%s'", argv[optind - 1]);
			return -1;
		}
	}
	if (want_tracer) {
		if (optind >= argc) {
			errmsg("which tracer? (%s)", tr_latency_names());
			return -1;
		}
		o->tracer = argv[optind++];
		if (!tr_latency_config(o->tracer)) {
			errmsg("'%s' is not a latency tracer (%s)", o->tracer, tr_latency_names());
			return -1;
		}
		/* Options may follow the tracer's name too. */
		int rest = parse(argc - optind + 1, argv + optind - 1, o, false, help);
		return rest;
	}
	if (optind < argc)
		o->argv = argv + optind;
	return 0;
}

static void print_stack(const struct tr_stack *st, bool json)
{
	if (json) {
		printf("{\"stack_max_size\":%lu,\"frames\":[", st->max_size);
		for (int i = 0; i < st->nframes; i++) {
			struct strbuf sb = STRBUF_INIT;
			json_str(&sb, st->frames[i].location);
			printf("%s{\"depth\":%d,\"used\":%lu,\"size\":%lu,\"location\":%s}", i ? "," : "",
			       st->frames[i].depth, st->frames[i].used, st->frames[i].size, sb_str(&sb));
			sb_free(&sb);
		}
		printf("]}\n");
		return;
	}
	printf("stack_max_size: %lu bytes, %d frames\n\n", st->max_size, st->nframes);
	printf("        Depth    Size   Location\n        -----    ----   --------\n");
	for (int i = 0; i < st->nframes; i++)
		printf("  %2d) %8lu %7lu   %s\n", st->frames[i].depth, st->frames[i].used,
		       st->frames[i].size, st->frames[i].location);
}

int cmd_stack(int argc, char **argv)
{
	struct opts o = { 0 };
	struct tr_stack st;
	char err[1024];
	err_set_verb("stack");
	int rc = parse(argc, argv, &o, false, help_stack);
	if (rc)
		return rc < 0 ? 2 : 0;
	if (tr_stack_measure(o.argv, o.duration, &st, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		tr_stack_free(&st);
		return 1;
	}
	print_stack(&st, o.json);
	if (st.max_size && !st.nframes)
		errmsg("the kernel kept a maximum of %lu bytes but no frames for it (its walk of "
		       "that stack found none of the return addresses); run again for the frames",
		       st.max_size);
	rc = st.status;
	tr_stack_free(&st);
	return fflush(stdout) ? 1 : rc;
}

int cmd_latency(int argc, char **argv)
{
	struct opts o = { 0 };
	struct tr_latency l;
	char err[1024];
	err_set_verb("latency");
	int rc = parse(argc, argv, &o, true, help_latency);
	if (rc)
		return rc < 0 ? 2 : 0;
	if (tr_latency_measure(o.tracer, o.argv, o.duration, &l, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		tr_latency_free(&l);
		return 1;
	}
	if (o.json) {
		struct strbuf sb = STRBUF_INIT;
		json_str(&sb, l.trace ? l.trace : "");
		printf("{\"tracer\":\"%s\",\"max_latency_us\":%lu,\"top_level\":%s,\"trace\":%s}\n",
		       o.tracer, l.max_us, l.top_level ? "true" : "false", sb_str(&sb));
		sb_free(&sb);
	} else {
		printf("%s: maximum latency %lu us%s\n\n%s", o.tracer, l.max_us,
		       l.top_level ? " (measured on the top level)" : "", l.trace ? l.trace : "");
	}
	rc = l.status;
	tr_latency_free(&l);
	return fflush(stdout) ? 1 : rc;
}

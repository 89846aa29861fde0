/*
 * tracekit latency: one of the kernel's latency tracers over a command or a
 * while.  Options only; the work is in src/tracers/latency.c.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "tracers/latency.h"
#include "util/die.h"
#include "util/json.h"
#include "util/strbuf.h"

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

/* [OPTIONS] TRACER [OPTIONS] [-- COMMAND...]: options may follow the tracer's name too. */
static int parse(int argc, char **argv, struct cli_measure_opts *o, const char **tracer)
{
	int rc = cli_measure_opts(argc, argv, o, "latency", help_latency);
	if (rc)
		return rc;
	if (!o->argv) {
		errmsg("which tracer? (%s)", tr_latency_names());
		return -1;
	}
	*tracer = o->argv[0];
	if (!tr_latency_config(*tracer)) {
		errmsg("'%s' is not a latency tracer (%s)", *tracer, tr_latency_names());
		return -1;
	}
	int at = (int)(o->argv - argv);	/* the tracer's name stands where getopt takes argv[0] */
	o->argv = NULL;
	return cli_measure_opts(argc - at, argv + at, o, "latency", help_latency);
}

int cmd_latency(int argc, char **argv)
{
	struct cli_measure_opts o = { 0 };
	const char *tracer = NULL;
	struct tr_latency l;
	char err[1024];
	err_set_verb("latency");
	int rc = parse(argc, argv, &o, &tracer);
	if (rc)
		return rc < 0 ? 2 : 0;
	if (tr_latency_measure(tracer, o.argv, o.duration, &l, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		tr_latency_free(&l);
		return 1;
	}
	if (o.json) {
		struct strbuf sb = STRBUF_INIT;
		json_str(&sb, l.trace ? l.trace : "");
		printf("{\"tracer\":\"%s\",\"max_latency_us\":%lu,\"top_level\":%s,\"trace\":%s}\n",
		       tracer, l.max_us, l.top_level ? "true" : "false", sb_str(&sb));
		sb_free(&sb);
	} else {
		printf("%s: maximum latency %lu us%s\n\n%s", tracer, l.max_us,
		       l.top_level ? " (measured on the top level)" : "", l.trace ? l.trace : "");
	}
	rc = l.status;
	tr_latency_free(&l);
	return fflush(stdout) ? 1 : rc;
}

/*
 * tracekit stack: the kernel's stack tracer over a command or a while.
 * Options only; the work is in src/tracers/stack.c.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
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
	struct cli_measure_opts o = { 0 };
	struct tr_stack st;
	char err[1024];
	err_set_verb("stack");
	int rc = cli_measure_opts(argc, argv, &o, "stack", help_stack);
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

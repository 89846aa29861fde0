/*
 * The stack tracer borrowed and given back (see stack.h).
 */
#include "tracers/stack.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ftrace/registry.h"
#include "ftrace/toplevel.h"
#include "tracers/runfor.h"
#include "util/die.h"

#define ENABLED "/proc/sys/kernel/stack_tracer_enabled"

/* "  3)     3400      96   vfs_read+0x5/0x150" lines of stack_trace. */
static void parse_trace(const char *path, struct tr_stack *st)
{
	FILE *f = fopen(path, "re");
	char line[512];
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct tr_stack_frame fr = { 0 };
		if (sscanf(line, " %d) %lu %lu %159s", &fr.depth, &fr.used, &fr.size,
			   fr.location) != 4)
			continue;
		st->frames = xrealloc(st->frames, sizeof(fr) * (size_t)(st->nframes + 1));
		st->frames[st->nframes++] = fr;
	}
	fclose(f);
}

static unsigned long read_ulong(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned long v = 0;
	if (f) {
		if (fscanf(f, "%lu", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

int tr_stack_measure(char **argv, double duration, struct tr_stack *st, char *err, size_t errlen)
{
	memset(st, 0, sizeof(*st));
	tr_catch_stop();	/* a Ctrl-C during the setup ends it through the cleanup */
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return -1;
	if (access(ENABLED, F_OK) < 0) {
		snprintf(err, errlen, "this kernel has no stack tracer (it needs CONFIG_STACK_TRACER; "
			 "%s is missing)", ENABLED);
		return -1;
	}
	struct ftt_state *t = ftt_claim(root, "stack", false, err, errlen);
	if (!t)
		return -1;
	int ret = -1;
	if (ftt_write(t, "stack_max_size", "0", err, errlen) < 0)
		goto out;
	if (ftt_write(t, ENABLED, "1", err, errlen) < 0) {
		if (errno == EPERM || errno == EACCES)
			snprintf(err, errlen, "the kernel refuses the stack tracer (writing 1 to %s: "
				 "%s)", ENABLED, strerror(errno));
		goto out;
	}
	st->status = tr_run_for(argv, duration, "stack", err, errlen);
	if (ftt_write(t, ENABLED, "0", err, errlen) < 0 || st->status < 0)
		goto out;
	char path[4200];
	snprintf(path, sizeof(path), "%s/stack_max_size", root);
	st->max_size = read_ulong(path);
	snprintf(path, sizeof(path), "%s/stack_trace", root);
	parse_trace(path, st);
	ret = 0;
out:
	ftt_release(t);
	return ret;
}

void tr_stack_free(struct tr_stack *st)
{
	free(st->frames);
	memset(st, 0, sizeof(*st));
}

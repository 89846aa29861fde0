/*
 * tracekit stack: the kernel's stack tracer (CONFIG_STACK_TRACER) turned on
 * for a while, its maximum reset first; then the deepest kernel stack seen,
 * frame by frame.  The tracer and the maximum are global: they are borrowed
 * like the top level (src/ftrace/toplevel.h) and put back afterwards.
 */
#ifndef TRACEKIT_TRACERS_STACK_H
#define TRACEKIT_TRACERS_STACK_H

#include <stddef.h>

struct tr_stack_frame {
	int depth;
	unsigned long used;	/* stack bytes in use at this frame (the kernel's Depth) */
	unsigned long size;	/* this frame's own bytes */
	char location[160];	/* "vfs_read+0x5/0x150" */
};

struct tr_stack {
	unsigned long max_size;	/* stack_max_size */
	struct tr_stack_frame *frames;
	int nframes;
	int status;		/* the command's exit status */
};

/* Measure over argv / duration (see runfor.h); 0, or -1 with err. */
int tr_stack_measure(char **argv, double duration, struct tr_stack *out, char *err, size_t errlen);
void tr_stack_free(struct tr_stack *st);

#endif

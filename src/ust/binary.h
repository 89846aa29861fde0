/*
 * A binary's user tracepoints, read without running it: the descriptions
 * define_trace.h places in the ELF section "tracekit_events" (event classes
 * and events, pointer-free, each at an 8-byte boundary), for
 * `tracekit list --binary`.
 */
#ifndef TRACEKIT_UST_BINARY_H
#define TRACEKIT_UST_BINARY_H

#include <stddef.h>

#include "tracekit/tracepoint.h"

struct ust_bin_event {
	struct tk_event_desc ev;
	const struct tk_class_desc *cls;
};

struct ust_bin {
	struct tk_class_desc *classes;
	int nclasses;
	struct ust_bin_event *events;	/* sorted by "system:name", each once */
	int nevents;
	int skipped;			/* malformed descriptions, or events without their class */
};

/* The section's bytes; never fails (what cannot be read is counted in skipped). */
void ust_bin_parse(const void *data, size_t len, struct ust_bin *b);
/* An ELF file: -1 with err when it cannot be read; no section is 0 events. */
int ust_bin_read(const char *path, struct ust_bin *b, char *err, size_t errlen);
void ust_bin_free(struct ust_bin *b);

#endif

/* The two output formats, each the second pass over an opened trace (export.c calls them). */
#ifndef TRACEKIT_EXPORT_WRITERS_H
#define TRACEKIT_EXPORT_WRITERS_H

#include <stddef.h>
#include <stdio.h>

struct tf_reader;
struct ex_scan;

int ex_write_chrome(struct tf_reader *r, const struct ex_scan *s, FILE *out, char *err,
		    size_t errlen);
int ex_write_perfetto(struct tf_reader *r, const struct ex_scan *s, FILE *out, char *err,
		      size_t errlen);

/*
 * Several files merged on one clock (a host's and its guests'), s[i] machine i's first
 * pass: each machine its own processes and CPUs (Perfetto: TracePacket.machine_id; Chrome
 * JSON: its pids shifted and its processes named after it).
 */
struct tf_merge;
int ex_write_chrome_merged(struct tf_merge *m, const struct ex_scan *s, FILE *out, char *err,
			   size_t errlen);
int ex_write_perfetto_merged(struct tf_merge *m, const struct ex_scan *s, FILE *out, char *err,
			     size_t errlen);

#endif

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

#endif

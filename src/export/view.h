/*
 * The HTML timeline page of `tracekit view`: one self-contained file (the page's
 * script and style are embedded at build time) with a lane per CPU, a lane per
 * task of the traced program, and the events, as JSON in the page.
 */
#ifndef TRACEKIT_EXPORT_VIEW_H
#define TRACEKIT_EXPORT_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct strbuf;

#define VW_DEFAULT_MAX_EVENTS 1000000

struct vw_options {
	const char *input;	/* the trace.dat */
	long max_events;	/* events kept in full detail; past it only the overview */
	bool has_from, has_to;	/* only this window (seconds, the trace's timestamps): */
	double from, to;	/* what a big trace's page says to run for detail */
	const char *const *filters;	/* -F: only the events they match */
	int nfilters;
	bool quiet;		/* no progress line on a terminal */
};

/* Write the page to out: 0; -1 and a one-line message in err; -2 and err for a -F
 * filter that does not fit the file (a usage error). */
int vw_write_html(const struct vw_options *o, FILE *out, char *err, size_t errlen);

/*
 * Append s (n bytes) as a JSON string literal that is also safe inside an HTML
 * <script> element: '<', '>', '&', control characters and bytes outside ASCII are
 * \u escapes, so no trace string can close the element or start markup.
 */
void vw_json_str(struct strbuf *sb, const char *s, size_t n);

#endif

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

#define VW_DEFAULT_MAX_EVENTS 1000000

struct vw_options {
	const char *input;	/* the trace.dat */
	/* Several files (a host's and its guests'): merged on one clock, a group of lanes
	 * per machine, each guest's vCPUs beside the host threads that run them.  Not
	 * with --serve. */
	const char *const *inputs;
	int ninputs;
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
 * A file indexed for `tracekit view --serve`: one pass writes every event and span
 * to cache (a read-write temporary file the caller removes) in chunks of
 * chunk_events events; then pages are written from it without reading the trace
 * again.  NULL and a one-line message in err on failure.
 */
struct vw_served;
struct vw_served *vw_served_index(const struct vw_options *o, FILE *cache, long chunk_events,
				  int max_chunks, char *err, size_t errlen);
int vw_served_chunks(const struct vw_served *s);
long vw_served_events(const struct vw_served *s);
/* ka < 0: the overview page (levels of detail of the whole trace); else chunks ka..kb
 * (at most max_chunks of them) in full detail.  0; -2 for a bad range; -1 when the cache
 * cannot be read. */
int vw_served_page(struct vw_served *s, int ka, int kb, FILE *out);
void vw_served_free(struct vw_served *s);

#endif

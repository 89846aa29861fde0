/*
 * A live progress line on a terminal for long work (record's counts while it
 * records, view's reading of a big trace): one line on stderr redrawn in
 * place, cleared when the work ends.  Off when stderr is not a terminal or
 * the user asked for quiet, so pipes, files and scripts see nothing of it.
 */
#ifndef TRACEKIT_UTIL_PROGRESS_H
#define TRACEKIT_UTIL_PROGRESS_H

#include <stdbool.h>

struct progress {
	bool on;		/* stderr is a terminal and not quiet */
	bool shown;		/* a line is on the screen (to clear) */
	double start, last;	/* CLOCK_MONOTONIC seconds */
	double every;		/* seconds between redraws */
};

void progress_init(struct progress *p, bool quiet, double every);
/* Seconds since progress_init. */
double progress_elapsed(const struct progress *p);
/* Whether a redraw is due: on, and every seconds since the last one (or since the start). */
bool progress_due(const struct progress *p);
/* Draw the line (printf format), replacing the one shown. */
void progress_show(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Clear the line, so the next output starts on a clean line. */
void progress_done(struct progress *p);

#endif

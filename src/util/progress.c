/* The live progress line (see progress.h). */
#include "util/progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(struct progress *p, bool quiet, double every)
{
	*p = (struct progress){ .on = !quiet && isatty(STDERR_FILENO), .every = every };
	p->start = p->last = now();
}

double progress_elapsed(const struct progress *p)
{
	return now() - p->start;
}

bool progress_due(const struct progress *p)
{
	return p->on && now() - p->last >= p->every;
}

void progress_show(struct progress *p, const char *fmt, ...)
{
	va_list ap;
	if (!p->on)
		return;
	/* Back to the start of the line, and erase it: the new text may be shorter. */
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
	p->shown = true;
	p->last = now();
}

void progress_done(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}

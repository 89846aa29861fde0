/*
 * An output file written aside and renamed into place when complete, so a
 * failed run (a full disk, a bad input found half-way) leaves the previous
 * file as it was and never a truncated one.  A path that exists and is not
 * a regular file (/dev/null, /dev/stdout, a FIFO) is written in place: it
 * cannot be replaced, and holds no old content to keep.
 */
#ifndef TRACEKIT_UTIL_OUTFILE_H
#define TRACEKIT_UTIL_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

struct outfile {
	FILE *f;		/* write here */
	const char *path;	/* the user's name, for messages */
	char *tmp;		/* the name written, NULL when in place */
};

/* Open for writing (mode as fopen's); -1 with err naming path on failure. */
int outfile_open(struct outfile *o, const char *path, const char *mode, char *err, size_t errlen);
/* Flush, close and rename into place; -1 with err (the old file kept, the new one removed). */
int outfile_commit(struct outfile *o, char *err, size_t errlen);
/* Close and remove what was written (the old file kept). */
void outfile_abort(struct outfile *o);

#endif

/*
 * Checks of trace.dat sections that libtraceevent parses without bounds
 * checks, done before libtracecmd hands it the section (docs/trace-dat.md,
 * "Library flaws we guard against").  Each mirrors how the library walks
 * the text and refuses exactly what would make it read outside its buffer.
 */
#ifndef TRACEKIT_TRACEFILE_GUARD_H
#define TRACEKIT_TRACEFILE_GUARD_H

#include <stddef.h>

/*
 * The printk formats text as tep_parse_printk_formats() reads it (up to the
 * first NUL).  0 when safe; -1 with a phrase in why ("line 3 has no ':'").
 */
int tf_guard_printk(const char *text, size_t len, char *why, size_t whylen);

/*
 * Options libtracecmd parses on open (trace-cmd.dat.v7(5)), data as stored,
 * len bytes, numbers in the file's byte order.  Each returns 0 when the
 * library can take it, -1 with a phrase in why: counts it would allocate
 * for before checking them against the data, or a CPU index it would write
 * through unchecked.
 */
int tf_guard_time_shift(const unsigned char *data, size_t len, int big_endian,
			char *why, size_t whylen);
int tf_guard_guest(const unsigned char *data, size_t len, int big_endian,
		   char *why, size_t whylen);
int tf_guard_procmaps(const char *data, size_t len, char *why, size_t whylen);

#endif

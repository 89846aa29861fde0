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

#endif

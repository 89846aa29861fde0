/*
 * strace's -e read=FDS and -e write=FDS: after the line of a call that
 * read from (or wrote to) one of those descriptors, the data it moved as a
 * hex and ASCII dump, 16 bytes a line; vectored calls announce each buffer.
 */
#ifndef TRACEKIT_SYSCALLS_DUMPIO_H
#define TRACEKIT_SYSCALLS_DUMPIO_H

#include "decoder.h"
#include "filter.h"

/* Append the dump lines for finished call c, if f asks for its descriptor. */
void sc_dumpio(struct strbuf *out, const struct sc_call *c, const struct sc_filter *f,
	       sc_read_fn rd, void *ctx);

#endif

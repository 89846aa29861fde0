/*
 * One CPU's ring-buffer pages from a trace.dat, read straight from the file:
 * a window of pages at a time with pread for uncompressed data, one chunk at a
 * time with libzstd for zstd-compressed version 7 data.  Memory per CPU is one
 * window or one chunk (compressed and decompressed), never the CPU's whole data.
 *
 * The reader's layout walk has already checked that the region and every chunk
 * header lie inside the file.
 */
#ifndef TRACEKIT_TRACEFILE_PAGES_H
#define TRACEKIT_TRACEFILE_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tf_pages;

/*
 * The CPU data at [off, off + size) of the file open on fd (not closed here);
 * zstd: off is the chunk count, followed by <compressed size><size><frame> chunks.
 */
struct tf_pages *tf_pages_open(int fd, uint64_t off, uint64_t size, bool zstd, bool big_endian,
			       unsigned page_size);
void tf_pages_close(struct tf_pages *p);

/* The next page in *page: 1; 0 at the end; -1 with a message in err. */
int tf_pages_next(struct tf_pages *p, void **page, char *err, size_t errlen);

#endif

/*
 * Decoder unit tests: build a call from fixed inputs (number, arguments,
 * memory the tracee would hold, return value) and get strace's line back,
 * with no tracee at all.  Memory is placed at fake addresses the test picks.
 *
 *	struct dh d;
 *	dh_init(&d, SYS_openat, (uint64_t)-100, 0x1000, O_RDONLY | O_CLOEXEC, 0, 0, 0);
 *	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/etc/passwd");
 *	CHECK_STR(dh_run(&d, 3), "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC) = 3");
 *	dh_free(&d);
 */
#ifndef TRACEKIT_DECODE_HARNESS_H
#define TRACEKIT_DECODE_HARNESS_H

#include "syscalls/decoder.h"
#include "syscalls/format.h"

struct dh {
	struct sc_call c;
	struct sc_fmt fmt;
	struct strbuf line;
	struct strbuf ret;
};

void dh_init(struct dh *d, long nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
	     uint64_t a4, uint64_t a5);
/* Memory the tracee holds at addr, seen at entry (SC_AT_ENTRY) or exit (SC_AT_EXIT). */
void dh_mem(struct dh *d, unsigned when, uint64_t addr, const void *data, size_t len);
void dh_mem_str(struct dh *d, unsigned when, uint64_t addr, const char *s);
/* Decode at entry and exit with return value ret; the whole line, "name(...) = ret". */
const char *dh_run(struct dh *d, int64_t ret);
/* Only the entry half, as printed before "<unfinished ...>". */
const char *dh_entry(struct dh *d);
/* Every declared memory spec of the decoder, for tests of the declarations themselves. */
const struct sc_mem_spec *dh_spec(long nr);
void dh_free(struct dh *d);

#endif

/*
 * record's default per-CPU ring-buffer size (when -b is not given): from the
 * events enabled and the memory available, so the defaults keep up with what
 * the README and `make demo` record.
 */
#ifndef TRACEKIT_RECORD_BUFSIZE_H
#define TRACEKIT_RECORD_BUFSIZE_H

#include <stdint.h>

/* KB per CPU for events ("system:name") on ncpus CPUs with avail_kb of memory free. */
unsigned rec_buffer_kb_for(char *const *events, int n, uint64_t avail_kb, int ncpus);
/* MemAvailable of /proc/meminfo in KB; 0 if unknown. */
uint64_t rec_mem_available_kb(void);

#endif

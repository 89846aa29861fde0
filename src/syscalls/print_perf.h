/*
 * struct perf_event_attr, as perf_event_open and PERF_EVENT_IOC_MODIFY_ATTRIBUTES
 * pass it.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_PERF_H
#define TRACEKIT_SYSCALLS_PRINT_PERF_H

#include <stdint.h>

#include "decoder.h"

/* Bytes of the attr the printer reads (PERF_ATTR_SIZE_VER7): the memory spec's size. */
#define PERF_ATTR_PRINT_MAX 128

/*
 * The attr at addr: its flag bits and what precedes them, then "...";
 * under -v every field its size covers.  At exit, when the kernel wrote back
 * the size it knows (E2BIG), both sizes print: "size=OLD => NEW" (the
 * decoder copies the attr at entry and its first 8 bytes again at exit).
 */
void p_perf_attr(struct sc_call *c, uint64_t addr);

#endif

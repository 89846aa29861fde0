/*
 * Printing time structures the way strace does.  p_timespec and p_timeval
 * themselves are declared in decoder.h; the rest are here.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_TIME_H
#define TRACEKIT_SYSCALLS_PRINT_TIME_H

#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "decoder.h"

/* {tv_sec=1, tv_nsec=500} from a value. */
void p_timespec_val(struct sc_call *c, const struct timespec *ts);
void p_timeval_val(struct sc_call *c, const struct timeval *tv);
/* {it_interval={...}, it_value={...}} at addr. */
void p_itimerspec(struct sc_call *c, uint64_t addr);
void p_itimerval(struct sc_call *c, uint64_t addr);
/* struct rusage: times only, then "...", unless -v. */
void p_rusage(struct sc_call *c, uint64_t addr);
/* A clock id: CLOCK_MONOTONIC, or strace's decoding of a dynamic (fd/pid) clock. */
void p_clockid(struct sc_call *c, uint64_t clk);
/* "(2026-11-30T10:00:35+0000)": strace's comment after a time_t result. */
void sc_time_comment(char *buf, size_t len, int64_t t);

#endif

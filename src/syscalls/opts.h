/*
 * Values of strace's options that are more than a number: time precisions,
 * --timestamps formats, -I, and the token lists of --quiet=, --decode-pids=,
 * --decode-fds=.  Each parser returns 0, or -1 when the value is not one
 * strace accepts (the caller names the option in its error).
 */
#ifndef TRACEKIT_SYSCALLS_OPTS_H
#define TRACEKIT_SYSCALLS_OPTS_H

#include "session.h"

/* "s" "ms" "us" "ns" as digits after the second; NULL keeps *width. */
int sc_opt_timescale(const char *arg, int *width);
/* --timestamps=[[format:]none|time|unix][,[precision:]s|ms|us|ns] */
int sc_opt_timestamps(const char *arg, struct sc_clock_fmt *ts);
/* -I 1..4 or anywhere, always, waiting, never, never_tstp. */
int sc_opt_interruptible(const char *arg);
/* --strings-in-hex=none, non-ascii, all, non-ascii-chars: the sc_fmt.xflag level (0, 1, 2, 3), or -1. */
int sc_opt_strings_in_hex(const char *arg);

/* -O: a time, microseconds without a unit; nanoseconds, or -1. */
long sc_opt_overhead(const char *arg);

/*
 * A token list as -e takes it: NAME[,NAME...], all, none, a leading '!'
 * negates.  names[i] has the bit 1 << values[i]... given as a table.
 */
struct sc_opt_token {
	const char *name;
	unsigned bits;
};
int sc_opt_tokens(const char *list, const struct sc_opt_token *tab, unsigned all,
		  unsigned *set, const char **bad);

extern const struct sc_opt_token sc_quiet_tokens[];
extern const struct sc_opt_token sc_decode_pid_tokens[];
extern const struct sc_opt_token sc_decode_fd_tokens[];

/* -y's and -yy's sets for --decode-fds (path; path, socket, dev). */
enum { SC_DFD_PATH = 1, SC_DFD_SOCKET = 2, SC_DFD_DEV = 4, SC_DFD_PIDFD = 8 };

#endif

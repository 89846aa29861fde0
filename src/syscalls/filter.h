/*
 * strace's -e expressions: which syscalls to trace, which signals and
 * statuses to show, and which calls to tamper with (inject=, fault=).
 *
 * One sc_filter holds the result of every -e option of a run; each
 * sc_filter_parse() call takes one -e argument and, as in strace, replaces
 * what an earlier option with the same qualifier said (inject= and fault=
 * instead add to the set of tampered syscalls, later ones winning).
 *
 * Errors: the functions that parse return -1 and write one line, without
 * a "tracekit:" prefix and without a newline, into the caller's buffer.
 */
#ifndef TRACEKIT_SYSCALLS_FILTER_H
#define TRACEKIT_SYSCALLS_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sc_filter;

/* What to do to one syscall invocation picked by inject= or fault=. */
struct sc_inject {
	int error;		/* fail with this errno (1..4095), 0: do not fail */
	bool has_retval;	/* succeed with retval instead of running the call */
	int64_t retval;
	int signal;		/* deliver this signal on entry, 0: none */
	/* Delays, rounded up to whole microseconds: a delay asked for stays a delay. */
	unsigned delay_enter_us, delay_exit_us;
	/* With error or retval: run this %pure syscall instead of the invalid -1; -1: none. */
	long syscall;
	/* poke_enter= / poke_exit=: "@argN=HEX,..." written where argument N points; NULL: none. */
	char *poke_enter, *poke_exit;
};

/* The outcomes -e status= selects. */
enum sc_status {
	SC_STATUS_SUCCESSFUL,
	SC_STATUS_FAILED,
	SC_STATUS_UNFINISHED,	/* the tracee went away inside the call */
	SC_STATUS_UNAVAILABLE,	/* the return value could not be fetched */
	SC_STATUS_DETACHED,	/* tracekit detached inside the call */
};

/* The per-syscall sets beside trace=, for the printer. */
enum sc_qual {
	SC_QUAL_TRACE,		/* trace=: default all */
	SC_QUAL_ABBREV,		/* abbrev=: default all */
	SC_QUAL_VERBOSE,	/* verbose=: default all */
	SC_QUAL_RAW,		/* raw=: default none */
};

/* A filter that traces everything and injects nothing, as strace without -e. */
struct sc_filter *sc_filter_new(void);
void sc_filter_free(struct sc_filter *f);

/*
 * Parse one -e argument: QUAL=LIST or a bare LIST (trace=).  Qualifiers:
 * trace (t), abbrev (a), verbose (v), raw (x), signal (signals, s), status,
 * read (reads, r), write (writes, w), inject, fault.  Returns 0, or -1 with
 * the reason in err (-2: a usage error strace follows with its -h hint); on
 * error the filter is unchanged.
 */
int sc_filter_parse(struct sc_filter *f, const char *expr, char *err, size_t errlen);
/* Errors in strace's words ("invalid system call 'foo'"), without tracekit's hints. */
extern bool sc_filter_strace_wording;

bool sc_filter_traced(const struct sc_filter *f, long nr);
/* True when trace= selects every syscall, known or not: no seccomp filter is needed. */
bool sc_filter_traces_all(const struct sc_filter *f);
/* Membership of nr in the set of qualifier q. */
bool sc_filter_in(const struct sc_filter *f, enum sc_qual q, long nr);
bool sc_filter_signal(const struct sc_filter *f, int sig);
/* Whether read= (write=false) or write= (write=true) asks to dump descriptor fd. */
bool sc_filter_dump_fd(const struct sc_filter *f, bool write, int fd);
/* Whether read= or write= asks to dump any descriptor. */
bool sc_filter_dumps(const struct sc_filter *f);

/* Whether a call that returned ret (finished) or never returned is shown. */
bool sc_filter_status(const struct sc_filter *f, int64_t ret, bool finished);
bool sc_filter_status_kind(const struct sc_filter *f, enum sc_status st);
/* True while status= selects every outcome: the printer need not hold lines back. */
bool sc_filter_status_all(const struct sc_filter *f);

/*
 * The syscalls that must stop the tracee (traced or injected), in number
 * order, for a seccomp filter: writes up to max numbers to nrs and returns
 * how many there are, which may be more than max.
 */
int sc_filter_traced_list(const struct sc_filter *f, int *nrs, int max);

/*
 * Injection, called once per syscall entry: counts this invocation of nr
 * and returns the action to take now, or NULL.
 *
 * strace counts invocations per syscall and per tracee (a new child starts
 * from zero).  sc_filter_inject() keeps one count per syscall for the whole
 * run, shared by all tracees: right for a single-threaded command, simpler
 * for callers.  For strace's accounting give each tracee its own counts and
 * call sc_filter_inject_counted().
 */
const struct sc_inject *sc_filter_inject(struct sc_filter *f, long nr);

struct sc_inject_counts;
struct sc_inject_counts *sc_inject_counts_new(void);
void sc_inject_counts_free(struct sc_inject_counts *c);
const struct sc_inject *sc_filter_inject_counted(const struct sc_filter *f,
						 struct sc_inject_counts *c, long nr);
/* Whether nr is subject to injection at all (so the engine knows to stop on it). */
bool sc_filter_injects(const struct sc_filter *f, long nr);

#endif

/*
 * A thread's syscall in flight, as both engines keep it: ptrace_mode.c (from
 * the tracee's stops) and kernel_events.c (from the kernel's records).  Each
 * engine's own thread state holds one and adds what only it knows (injection
 * and -c's CPU time for ptrace; deferred entries and held signal lines for the
 * kernel mode).
 */
#ifndef TRACEKIT_SYSCALLS_CALLSTATE_H
#define TRACEKIT_SYSCALLS_CALLSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "syscalls/decoder.h"
#include "syscalls/filter.h"
#include "util/strbuf.h"

struct sc_callstate {
	pid_t tgid;
	struct sc_call call;	/* call.tid is the thread's id */
	struct strbuf text;	/* "name(args" so far */
	size_t entry_len;	/* how much of text was printed at entry */
	bool in_call;
	bool shown;		/* this call passes the filters */
	bool printed_entry;
	long interrupted;	/* the call a signal interrupted (ERESTART_RESTARTBLOCK), or -1 */
};

/* A new thread, in no call; fmt is how its calls print. */
void sc_callstate_init(struct sc_callstate *cs, pid_t tid, pid_t tgid, const struct sc_fmt *fmt);
void sc_callstate_free(struct sc_callstate *cs);

/*
 * A call begins (the entry stop or record): args are its six 64-bit
 * arguments; the last call's state is cleared, a call restart_syscall may
 * resume is noted, and shown says whether -e trace= takes it.
 */
void sc_callstate_begin(struct sc_callstate *cs, long nr, const void *args, uint64_t sp,
			const struct sc_filter *filter);

/* The call returns ret: no longer in a call; ERESTART_RESTARTBLOCK is noted for the next. */
void sc_callstate_end(struct sc_callstate *cs, int64_t ret);

struct sc_output;

/*
 * The finished call, decoded and its return formatted (ret: what
 * sc_format_ret wrote, " = 3" and the notes after it): with json its object
 * (start: its wall-clock start, took: its seconds), else its exit line, the
 * "<... name resumed>" half after what was printed at entry, or the whole line
 * at its entry's times (start, start_mono) when nothing was.
 */
void sc_callstate_print_exit(struct sc_callstate *cs, struct sc_output *w, bool json,
			     const struct timespec *start, const struct timespec *start_mono,
			     const struct timespec *real, const struct timespec *mono,
			     const char *ret, double took);

/* The thread died inside the call: its object without a return, or "= ?". */
void sc_callstate_print_cut(struct sc_callstate *cs, struct sc_output *w, bool json,
			    const struct timespec *start, const struct timespec *start_mono);

#endif

/*
 * The kernel mode's printing half: records of the BPF program (bpf/kmode.h),
 * in time order, paired per thread and turned into strace's lines through
 * the same decoders, output framing, --json and -c as the ptrace mode.
 */
#ifndef TRACEKIT_SYSCALLS_KERNEL_EVENTS_H
#define TRACEKIT_SYSCALLS_KERNEL_EVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf/kmode.h"
#include "session.h"

struct km_printer;

/* NULL with a message in err when the output cannot be opened. */
struct km_printer *km_printer_new(struct sc_options *o, char *err, size_t errlen);
/*
 * A task traced from the start (pid of -p, or the held command): counted as
 * live; with -y its descriptors are read from /proc now.
 */
void km_printer_task(struct km_printer *p, pid_t tid, pid_t tgid, bool attached);
/*
 * An attached task found in a group stop: strace's "--- stopped by SIG ---"
 * (ptrace reports the stop at attach; /proc does not say which signal).
 */
void km_printer_stopped(struct km_printer *p, pid_t tid, int sig);
/* One record, in time order. */
void km_printer_record(struct km_printer *p, const struct km_hdr *h);
/* A line of tracekit's own about tid ("+++ exited with 1 +++"), now; none with -c or --json. */
void km_printer_event(struct km_printer *p, pid_t tid, const char *text);
/* Write out what is printed so far, a call's entry waiting for its end too. */
void km_printer_flush(struct km_printer *p);
/* Tasks traced and not gone yet. */
int km_printer_live(const struct km_printer *p);
/* Whether tid is still traced (for the end-of-run check of tasks whose exit was lost). */
void km_printer_forget(struct km_printer *p, pid_t tid);
/* The live tids, for that check: fills up to max, returns how many there are. */
int km_printer_tids(const struct km_printer *p, pid_t *tids, int max);
/* Memory regions the kernel could not read (pages not in memory). */
uint64_t km_printer_unreadable(const struct km_printer *p);
/* Print the -c table, close the output; returns -1 when the trace could not be written. */
int km_printer_free(struct km_printer *p);

#endif

/*
 * The kernel mode's fallback source, where the kernel refuses the BPF
 * program: raw_syscalls, sched_process_fork/exit and signal_deliver events
 * in a private ftrace instance (src/ftrace), filtered to the traced pid tree
 * by set_event_pid (+ event-fork with -f).  Records come out in the BPF
 * program's format (bpf/kmode.h) without memory regions: pointers print as
 * addresses.  Same contract as kernel_bpf.h.
 */
#ifndef TRACEKIT_SYSCALLS_KERNEL_FTRACE_H
#define TRACEKIT_SYSCALLS_KERNEL_FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct km_ftrace;

struct km_ftrace *km_ftrace_open(bool follow, unsigned buffer_kb, char *err, size_t errlen);
/* Trace tid (pending: from its next execve on); before km_ftrace_attach only. */
int km_ftrace_add_task(struct km_ftrace *f, pid_t tid, bool pending, char *err, size_t errlen);
int km_ftrace_attach(struct km_ftrace *f, char *err, size_t errlen);
/* Wait up to timeout_ms, then hand each event as a record to fn.  Records read, or -1. */
int km_ftrace_poll(struct km_ftrace *f, int timeout_ms, int (*fn)(void *ctx, void *rec, size_t len),
		   void *ctx);
/* Events the instance's buffer overwrote or dropped (per-CPU stats). */
uint64_t km_ftrace_lost(struct km_ftrace *f);
/* Removes the instance. */
void km_ftrace_close(struct km_ftrace *f);

#endif

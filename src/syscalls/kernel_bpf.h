/*
 * The kernel mode's BPF program (src/bpf/kmode.bpf.c, embedded as a libbpf
 * skeleton): load it with a copy plan, name the tasks to trace, attach, and
 * read its records.  Every function returns 0 (or a pointer) on success and
 * -1 (or NULL) with one line in err on failure.
 */
#ifndef TRACEKIT_SYSCALLS_KERNEL_BPF_H
#define TRACEKIT_SYSCALLS_KERNEL_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf/kmode.h"

struct km_bpf;

/* Why a load failed, so the caller can choose between a fallback and an error. */
enum km_bpf_fail {
	KM_FAIL_NONE,
	KM_FAIL_PERM,		/* not root (no CAP_BPF/CAP_PERFMON) */
	KM_FAIL_NOBPF,		/* the kernel refuses the program or has no BPF */
};

/*
 * plans: KM_NR_MAX entries.  ring_bytes: the ring buffer (a power of two, >=
 * a page).  clock: records carry CLOCK_MONOTONIC times; without, order
 * numbers (kmode.bpf.c's stamp()), for output that shows no time.  fds:
 * records carry what their descriptors were (-y; kmode.h's struct km_fdinfo).
 * pidns: KM_PIDS records say the tasks' ids in each PID namespace.
 */
struct km_bpf *km_bpf_open(const struct km_plan *plans, bool follow, bool clock, bool fds,
			   bool pidns, size_t ring_bytes, enum km_bpf_fail *why, char *err,
			   size_t errlen);
/* The newest order number given (without clock): every record stamped up to it has happened. */
uint64_t km_bpf_stamps(const struct km_bpf *b);
/* Trace tid from now (pending: from its next execve on). */
int km_bpf_add_task(struct km_bpf *b, pid_t tid, bool pending, char *err, size_t errlen);
/* The task's entry in the program's slots, as one consistent copy; -1 when it has none. */
int km_bpf_task(const struct km_bpf *b, pid_t tid, struct km_task *t);
int km_bpf_attach(struct km_bpf *b, char *err, size_t errlen);
/* Wait up to timeout_ms, then hand each record to fn.  Returns records read, or -1 (EINTR: 0). */
int km_bpf_poll(struct km_bpf *b, int timeout_ms, int (*fn)(void *ctx, void *rec, size_t len),
		void *ctx);
/* Records the ring buffer had no room for, and records cut at KM_DATA_LIMIT. */
uint64_t km_bpf_lost(const struct km_bpf *b);
uint64_t km_bpf_truncated(const struct km_bpf *b);
void km_bpf_close(struct km_bpf *b);

#endif

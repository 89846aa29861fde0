/*
 * procmem: a traced process's address space as the probe engine needs it —
 * its mappings (/proc/PID/maps), writing code bytes (/proc/PID/mem, which
 * may write read-only text for a tracer; PTRACE_POKEDATA when it may not),
 * and running one syscall in a stopped thread (to map scratch pages).
 */
#ifndef TRACEKIT_PROBE_PTRACE_PROCMEM_H
#define TRACEKIT_PROBE_PTRACE_PROCMEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct pm_map {
	uint64_t start, end, off;
	uint64_t dev;		/* makedev(major, minor) as stat's st_dev */
	uint64_t ino;
	char perms[5];
	char *path;		/* NULL for anonymous mappings */
};

struct pm_maps {
	struct pm_map *v;
	size_t n;
};

int pm_maps_read(pid_t pid, struct pm_maps *m);
void pm_maps_free(struct pm_maps *m);
const struct pm_map *pm_maps_find(const struct pm_maps *m, uint64_t addr);
/* The address where file (dev, ino)'s offset fo is mapped executable; 0 if it is not. */
uint64_t pm_maps_addr(const struct pm_maps *m, uint64_t dev, uint64_t ino, uint64_t fo);
/*
 * A free page-aligned range of len bytes within 1 GB of near (so rip-relative
 * operands reach across it), preferring addresses below near; 0 if none.
 * Ranges in skip[0..nskip) are taken (tried and refused).
 */
uint64_t pm_maps_gap(const struct pm_maps *m, uint64_t near, size_t len, const uint64_t *skip,
		     size_t nskip);

/* Write bytes into the tracee (tid: a stopped thread of it for the PTRACE_POKEDATA fallback, or 0). */
int pm_write(int memfd, pid_t tid, uint64_t addr, const void *buf, size_t len);
int pm_read(int memfd, uint64_t addr, void *buf, size_t len);

/* A syscall instruction to borrow: one in the vDSO; 0 if there is none. */
uint64_t pm_find_syscall_insn(int memfd, const struct pm_maps *m);

/*
 * Run syscall nr(args) in the stopped thread tid of process tgid by
 * single-stepping the syscall instruction at insn; the thread's registers
 * are put back after.  The syscall's return value (-errno on failure), or
 * -ESRCH when the thread died.  A signal that arrives meanwhile is queued
 * to the thread again.
 */
long pm_inject_syscall(pid_t tgid, pid_t tid, uint64_t insn, long nr, const uint64_t args[6]);

/* Single-step tid once (out of an exec stop, to a clean signal stop); 0 or -1 (it died). */
int pm_step(pid_t tgid, pid_t tid);

#endif

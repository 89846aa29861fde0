/*
 * The ptrace probe engine's insides, shared by session.c (the C API, the
 * processes and threads it follows), place.c (putting probes into a
 * process) and hit.c (what happens at a trap).
 */
#ifndef TRACEKIT_PROBE_PTRACE_ENGINE_H
#define TRACEKIT_PROBE_PTRACE_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "bptable.h"
#include "procmem.h"
#include "tracee/tracee.h"
#include "tracekit/probe.h"
#include "util/tidmap.h"

/* A return address we swapped for the trampoline (a kretprobe instance). */
struct retframe {
	uint64_t ret;		/* where the function really returns */
	uint64_t sp_slot;	/* the stack slot holding it */
	uint64_t func;		/* the breakpoint at its entry */
	uint64_t veto;		/* bit i: probe i's entry handler declined this return */
};

struct pthr {
	pid_t tid, tgid;
	uint64_t stepping;	/* the breakpoint whose copy is being single-stepped (0: none) */
	struct retframe *rs;
	unsigned nrs, caprs;
};

struct scratch {
	uint64_t addr;
	unsigned used;		/* slots handed out, XOL_SLOT_SIZE bytes each */
};

/* One address space: its breakpoints and scratch pages. */
struct pproc {
	pid_t pid;
	int memfd;		/* /proc/PID/mem */
	struct bptable bps;
	struct scratch *pages;
	unsigned npages;
	uint64_t tramp;		/* the return trampoline: an int3 in the first scratch page */
	uint64_t sc_insn;	/* a syscall instruction to borrow (vDSO) */
	uint64_t rbrk;		/* the dynamic linker's _dl_debug_state, 0 if none */
	bool addr_ok;		/* address-only probes apply (the command's own image) */
	bool pending;		/* probes registered since: place them at its next stop */
	unsigned nthreads;
};

struct probe_priv {
	uint64_t dev, ino, fo;	/* path probes: the file and the offset in it */
};

struct tk_session {
	struct tracer *tr;
	struct tr_options o;
	struct tk_probe **probes;
	size_t nprobes, capprobes;
	struct tidmap procs;	/* tgid -> struct pproc */
	struct tidmap threads;	/* tid -> struct pthr */
	pid_t *attach;
	int nattach;
	bool spawned, first_exec_seen;
	pid_t cur_tid, cur_tgid;	/* the stopped thread while handlers run */
	void (*warn)(const char *msg, void *arg);
	void *warn_arg;
	char err[512];
};

void sess_warn(struct tk_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct pproc *sess_proc(struct tk_session *s, pid_t tgid);
struct pthr *sess_thread(struct tk_session *s, pid_t tid, pid_t tgid);

/* place.c */
int place_prepare(struct tk_probe *p, char *err, size_t errlen);
int place_install(struct tk_session *s, struct pproc *p, pid_t tid);
void place_all(struct tk_session *s, struct pproc *p, pid_t tid);
void place_libs_changed(struct tk_session *s, struct pproc *p, pid_t tid);
void place_remove(struct tk_session *s, struct pproc *p, pid_t tid, struct tk_probe *pr);
void place_restore_all(struct tk_session *s, struct pproc *p);

/* hit.c */
int hit_trap(struct tk_session *s, pid_t tid, pid_t tgid, const siginfo_t *si);
void hit_detach_thread(struct tk_session *s, pid_t tid, pid_t tgid, int status);

#endif

/*
 * unwind: the user stack of a stopped tracee, for `tracekit syscalls -k`.
 *
 * Frames are printed the way strace -k prints them, one a line:
 *
 *	 > /usr/lib/x86_64-linux-gnu/libc.so.6(__write+0x10) [0xf8350]
 *	 > /usr/bin/echo() [0x60c4]
 *	 > unexpected_backtracing_error [0x7ffd0123]
 *
 * The unwinder keeps, per process, the libdwfl session (modules with their
 * ELF files, CFI and symbol tables) and a memo of address -> symbol, so a
 * syscall-heavy program costs a few register and stack reads per syscall
 * rather than re-reading its libraries.  The owner tells it when a
 * process's mappings may have changed.
 */
#ifndef TRACEKIT_TRACEE_UNWIND_H
#define TRACEKIT_TRACEE_UNWIND_H

#include <sys/types.h>

#include "util/strbuf.h"

struct tr_unwinder;

struct tr_unwinder *tr_unwind_new(void);
/*
 * Append the stack of tid (in a ptrace-stop of ours right now; the caller
 * must be the thread that traces it) to out, one frame a line in strace -k's
 * format.  Returns the number of frames printed, or -1 when the stack could
 * not be read at all (nothing is appended then).
 */
int tr_unwind(struct tr_unwinder *u, pid_t tid, pid_t tgid, struct strbuf *out);
/*
 * tgid's mappings changed (mmap, munmap, mprotect, execve seen) or it is
 * gone: re-read its mappings before the next stack.  Modules that did not
 * move keep their symbols.  Call it too when tgid exits, to free its state.
 */
void tr_unwind_invalidate(struct tr_unwinder *u, pid_t tgid);
void tr_unwind_free(struct tr_unwinder *u);

#endif

/*
 * A command forked and held before its exec until the tracing around it is
 * ready (pids set, events on), so its first instruction is already traced.
 * Shared by record, probe trace, the stack and latency tracers and syscalls --kernel.
 */
#ifndef TRACEKIT_TRACEE_SPAWN_H
#define TRACEKIT_TRACEE_SPAWN_H

#include <stddef.h>
#include <sys/types.h>

/* Fork the command, held on a pipe until the trace is ready; its exec error comes back on another. */
struct held_child {
	pid_t pid;
	int go;		/* write a byte: exec */
	int failed;	/* read: errno of a failed exec */
};

/*
 * 0, or -1 with err.  Closing go without writing makes the child exit 127.
 * path: the program to exec (NULL: argv[0] looked up in PATH).  A path in a
 * page the child has written is one the kernel-side syscall tracer can read at
 * the execve (syscalls --kernel resolves it first for that reason).
 */
int held_spawn(const char *path, char **argv, struct held_child *c, char *err, size_t errlen);

/*
 * Let the held command exec: 0, or -1 with err when it is gone (a Ctrl-C to
 * the process group kills it before its release; SIGPIPE must be ignored).
 */
int held_release(struct held_child *c, const char *name, char *err, size_t errlen);

/*
 * Once the released command has exec'd (up to a second's wait), where its files are
 * mapped, for the "maps" note: "BASE-END MTIME PATH;..." per file, BASE its load
 * address (the start of its offset-0 mapping), END the end of its last mapping or
 * of the anonymous one right after it (.bss), MTIME the file's, so an analysis can
 * tell a rebuilt binary.  Only what is mapped at exec: the program and the dynamic
 * loader, not the libraries it loads next.  NULL when not known (malloc'd).
 */
char *held_exec_maps(const struct held_child *c);

/*
 * The command has its own stdin and stdout now; a tracer must not hold them
 * open (a pipe would never see its reader or writer go), so they become
 * the read end of a closed pipe: EOF to read, EBADF to write.  A closed one,
 * or one of the tracer's own (close-on-exec) that took its number, is left.
 */
void spawn_release_standard_fds(void);

#endif

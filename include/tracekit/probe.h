/*
 * tracekit/probe.h: probes in a process you trace with ptrace, for programs
 * that embed tracekit's probe engine.  Shaped like the kernel's struct kprobe
 * (include/linux/kprobes.h): fill a struct tk_probe with a place and
 * handlers, register it, run the session.
 *
 *	static int on_entry(struct tk_probe *p, struct tk_probe_ctx *c)
 *	{
 *		char line[64];
 *		c->read(c, c->regs.rdi, line, sizeof(line));
 *		printf("parse_line(%.*s, %llu)\n", (int)sizeof(line), line, c->regs.rsi);
 *		return 0;
 *	}
 *	struct tk_probe p = { .path = "/usr/bin/myapp", .symbol = "parse_line",
 *			      .pre_handler = on_entry };
 *	struct tk_session *s = tk_session_new();
 *	tk_session_spawn(s, argv);		// or tk_session_attach(s, pid)
 *	tk_probe_register(s, &p);
 *	int status = tk_session_run(s);	// until the command ends or tk_session_stop()
 *	tk_session_free(s);
 *
 * How a hit runs (the kprobe mechanism, done by a tracer): the first byte of
 * the probed instruction is an int3; at the trap the pre-handlers run, then
 * the original instruction runs from a copy in a scratch page of the tracee
 * (its rip-relative operand moved so it reaches the same data).  Without a
 * post-handler the copy jumps straight back into the program: one stop per
 * hit.  With one, the copy is single-stepped and the post-handlers run after
 * it.  Return probes swap the return address for a trampoline in the scratch
 * page, like kretprobes.  Every thread, forks, exec (probes naming a path are
 * placed again in the new image) and libraries loaded later (dlopen) are
 * followed.  Stopping the session puts back every byte it changed and leaves
 * the process running.  No root needed: only the right to ptrace it.
 *
 * Handlers run in the tracer, one at a time, while the thread that hit the
 * probe is stopped.  Functions return 0 or -1 with errno set and a message
 * in tk_session_error().
 */
#ifndef TRACEKIT_PROBE_H
#define TRACEKIT_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/user.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_session;
struct tk_probe;

/* What a handler sees: the stopped thread, its registers, its memory. */
struct tk_probe_ctx {
	struct tk_session *session;
	pid_t pid;			/* the process (thread group) */
	pid_t tid;			/* the thread that hit the probe */
	uint64_t addr;			/* the probed address in this process */
	/*
	 * The thread's registers; in a pre-handler rip is the probed address
	 * (not one past the int3).  A pre-handler may change them; returning
	 * non-zero then says "I set regs.rip, do not run the instruction", as a
	 * kprobe pre_handler does.
	 */
	struct user_regs_struct regs;
	/* Return probes: the function's entry and the address it returns to. */
	uint64_t func;
	uint64_t ret_addr;
	/* Read the tracee's memory: bytes read (fewer at an unmapped page), or -1. */
	long (*read)(const struct tk_probe_ctx *ctx, uint64_t addr, void *buf, size_t len);
};

typedef int (*tk_pre_handler_t)(struct tk_probe *p, struct tk_probe_ctx *ctx);
typedef void (*tk_post_handler_t)(struct tk_probe *p, struct tk_probe_ctx *ctx);
typedef int (*tk_ret_handler_t)(struct tk_probe *p, struct tk_probe_ctx *ctx);

struct tk_probe {
	/*
	 * Where, one of:
	 *  - path and symbol: SYMBOL+offset in the ELF file at path (an
	 *    executable or a library; placed wherever the process maps it);
	 *  - path alone: offset is a file offset in it (uprobe_events style);
	 *  - neither: addr is an address in the traced command's image (not
	 *    placed again after it execs).
	 */
	const char *path;
	const char *symbol;
	uint64_t offset;
	uint64_t addr;

	/* Before the instruction; for a return probe, at entry (non-zero: do not catch this return). */
	tk_pre_handler_t pre_handler;
	/* After the instruction ran (it is single-stepped for this). */
	tk_post_handler_t post_handler;
	/* Set: a return probe (kretprobe); called when the function returns, with its rax. */
	tk_ret_handler_t ret_handler;
	int maxactive;			/* return probes: pending returns per thread (0: 64) */
	void *data;			/* yours */

	/* Kept by the engine. */
	unsigned long nhit;		/* hits, all processes and threads */
	unsigned long nmissed;		/* return probes: returns not caught (maxactive) */
	void *priv;
};

/* A session: one traced command or process (and what it forks). */
struct tk_session *tk_session_new(void);
/* Fork and exec argv under trace; it runs when tk_session_run is called. */
int tk_session_spawn(struct tk_session *s, char *const argv[]);
/* Trace the running process pid (all its threads). */
int tk_session_attach(struct tk_session *s, pid_t pid);
/*
 * Run the event loop until every traced process has exited, or until
 * tk_session_stop().  Returns the command's exit status (128+N when signal
 * N killed it; 0 after a stop), or -1.
 */
int tk_session_run(struct tk_session *s);
/*
 * Detach soon: safe to call from a signal handler (install it without
 * SA_RESTART so the loop wakes up) and from a probe handler.
 */
void tk_session_stop(struct tk_session *s);
void tk_session_free(struct tk_session *s);
const char *tk_session_error(const struct tk_session *s);
/* Warnings while running (a probe that could not be placed in a process): NULL prints them on stderr. */
void tk_session_set_warn(struct tk_session *s, void (*warn)(const char *msg, void *arg), void *arg);

/*
 * Add a probe, before or while the session runs (from a handler too).  A
 * place that does not resolve (no such file or symbol, not an instruction
 * boundary, an instruction that cannot run out of line) fails here when it
 * can be known here.
 */
int tk_probe_register(struct tk_session *s, struct tk_probe *p);
/* Remove it: its int3s go where no other probe needs them. */
int tk_probe_unregister(struct tk_session *s, struct tk_probe *p);

/*
 * A probe written as `tracekit probe trace --ptrace` takes it: the kernel's
 * grammar ("p:grp/ev /usr/bin/myapp:parse_line len=%si:s32") or perf probe's
 * C expressions, typed from the program's DWARF ("/usr/bin/myapp:handle
 * r->path r->st.bytes", "/usr/bin/myapp:handle:3 total", "PATH:FILE.c:LINE
 * ...").  Each hit calls emit with the line probe trace --ptrace prints
 * (no newline):
 *
 *	myapp-1234    [000] ..... 5021.123456: handle: (0x55d1c0a01139) path="/etc/x" bytes=4096
 *
 * NULL with tk_session_error() when the spec does not parse or resolve (one
 * line naming it: "struct request has no member pth; did you mean path?").
 */
struct tk_spec_probe;
typedef void (*tk_line_fn)(const char *line, void *arg);
struct tk_spec_probe *tk_probe_spec_add(struct tk_session *s, const char *spec, tk_line_fn emit,
					void *arg);
/* Unregister it and free it. */
void tk_probe_spec_del(struct tk_session *s, struct tk_spec_probe *p);

#ifdef __cplusplus
}
#endif

#endif

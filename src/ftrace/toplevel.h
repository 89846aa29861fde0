/*
 * The top-level tracing buffer, borrowed: for what a kernel allows only
 * there (function_graph on 6.1, the stack and latency tracers).  Unlike a
 * private instance it cannot be removed afterwards, so every file tracekit
 * writes is read first, and its old value written back at the end.
 *
 * The saved values live in one registry file (FTT_STATE_FILE), written
 * before each change: a second tracekit is refused while the owner runs,
 * and `tracekit reset` (or the next borrower) puts back what a killed run
 * changed.
 */
#ifndef TRACEKIT_FTRACE_TOPLEVEL_H
#define TRACEKIT_FTRACE_TOPLEVEL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define FTT_STATE_FILE "/run/tracekit/toplevel"

struct ftt_state;

/*
 * Borrow the top level: refused (NULL, err) while another live tracekit has
 * it, or while a tracer other than nop runs there (someone else's).  A dead
 * borrower's settings are restored first.  With buffer, tracing is turned
 * off and the top-level buffer cleared (for recording it).
 */
struct ftt_state *ftt_claim(const char *root, const char *purpose, bool buffer, char *err,
			    size_t errlen);
/*
 * Before writing rel (relative to the tracefs root, or an absolute path such
 * as /proc/sys/kernel/stack_tracer_enabled): its value is saved once.
 */
int ftt_save(struct ftt_state *t, const char *rel, char *err, size_t errlen);
/* ftt_save, then write value; err names the file. */
int ftt_write(struct ftt_state *t, const char *rel, const char *value, char *err, size_t errlen);
/*
 * Note where the run writes per-CPU data (record's OUTPUT.cpuN staging
 * files), so that reset of a killed run removes them too.
 */
int ftt_note_output(struct ftt_state *t, const char *output);
/* Write back every saved value (newest first) and release the top level. Safe on NULL. */
void ftt_release(struct ftt_state *t);

/*
 * For reset: when the top level's borrower is gone (or force), restore its
 * settings.  Returns 1 restored, 0 nothing to do (or kept: *owner set and
 * *alive true), -1 with err.  what: the files restored, "a, b, c"; output:
 * where the run staged its data (ftr_remove_outputs removes it), "" if none.
 */
int ftt_reset(bool force, pid_t *owner, bool *alive, char *what, size_t whatlen,
	      char *output, size_t outlen, char *err, size_t errlen);

#endif

/*
 * record's output file.  The trace is written under a temporary name beside
 * the output ("OUTPUT.part") and renamed over it only when the whole file is
 * written, so a recording that fails (the command cannot start, a write
 * error, a full disk) leaves an existing OUTPUT byte-identical.
 */
#ifndef TRACEKIT_RECORD_OUTPUT_H
#define TRACEKIT_RECORD_OUTPUT_H

#include <stddef.h>

/* The temporary name of output, in buf. */
void rec_part_path(const char *output, char *buf, size_t len);
/*
 * Before anything is recorded: output is not a directory and its directory
 * takes new files (the staging and temporary files go there).  -1 with err.
 */
int rec_check_output(const char *output, char *err, size_t errlen);
/* The finished temporary file becomes output. -1 with err. */
int rec_commit_output(const char *output, char *err, size_t errlen);

struct ft_session;
struct tf_cpu_data;

/*
 * Write output (as OUTPUT.part, renamed at the end) from the session's
 * formats and the per-CPU data; -1 with err, and nothing at output.
 */
struct ust_rec;
/* u: the user events' recorder, or NULL (their CPU slot follows the kernel's). */
/* opts: more options for the file (record -A's TRACEID and GUEST), or NULL. */
struct tf_option;
int rec_write_file(struct ft_session *s, const char *const *notes, int nnotes, const char *clock,
		   int version, const struct tf_cpu_data *data, int ncpu, struct ust_rec *u,
		   const struct tf_option *opts, int nopts, const char *output, char *err,
		   size_t errlen);

#endif

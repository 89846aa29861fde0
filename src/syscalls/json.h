/*
 * --json: one object per line for programs, the same facts as the text.
 * A call's two halves are joined into one object at its exit.
 */
#ifndef TRACEKIT_SYSCALLS_JSON_H
#define TRACEKIT_SYSCALLS_JSON_H

#include <stdbool.h>
#include <time.h>

#include "decoder.h"
#include "util/json.h"

/*
 * Split "a, {b, c}, \"d, e\"" at its top-level commas: the decoded arguments
 * of a call's text.  Returns the count; each piece is appended to *pieces as
 * NUL-separated strings.
 */
int json_split_args(const char *text, size_t len, struct strbuf *pieces);
/*
 * The object for one finished (or cut short) call.  text is "name(args)",
 * ret_text what strace prints after " = ".
 */
void json_call(struct strbuf *sb, const struct sc_call *c, pid_t tgid, const char *text,
	       const char *ret_text, const struct timespec *start, double duration, bool finished);

#endif

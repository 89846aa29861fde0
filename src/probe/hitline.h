/*
 * hitline: what both backends of `probe trace` do with a hit's line once it
 * is text (the kernel's trace line: "comm-TID [cpu] flags ts: EVENT: (head)
 * args"), so they print the same: :symbol args named, --json objects of the
 * same shape.
 */
#ifndef TRACEKIT_PROBE_HITLINE_H
#define TRACEKIT_PROBE_HITLINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "probe/probe_def.h"

struct strbuf;

/*
 * "name+0xoff/0xsize" for run-time address v seen in a hit of def in process
 * pid: through def's own file (bias: run-time minus link-time address of
 * it), else through /proc/PID/maps.  -1 (nothing appended) when unknown.
 */
int ph_symbolize(const struct probe_def *def, uint64_t bias, int pid, uint64_t v,
		 struct strbuf *out);

/*
 * One line to out: as it is, or with json the object
 * {"pid":N,"event":"E","fields":"(head) args","line":"..."}.
 */
void ph_emit(const char *line, bool json, FILE *out);

/* The pid in "comm-PID [cpu] ...": the number before the first " ["; -1 if none. */
int ph_line_pid(const char *line);

/* The TID of a line the kernel printed as "<...>-TID" (it had no name for it); 0 otherwise. */
int ph_unknown_comm_tid(const char *line);

/* line to out with comm in place of "<...>", in the kernel's columns ("%16s-%-7d"). */
void ph_set_comm(const char *line, const char *comm, struct strbuf *out);

#endif

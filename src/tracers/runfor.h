/*
 * What the stack and latency tracers measure over: a command's run, a number
 * of seconds, or until Ctrl-C.
 */
#ifndef TRACEKIT_TRACERS_RUNFOR_H
#define TRACEKIT_TRACERS_RUNFOR_H

#include <stddef.h>

/*
 * Run argv (NULL: none) to its end, or wait duration seconds (0: none), or
 * until SIGINT/SIGTERM/SIGHUP (which stop the command too).  Returns the
 * command's status as a shell reports it (0 without one), or -1 with err.
 */
int tr_run_for(char **argv, double duration, const char *verb, char *err, size_t errlen);

#endif

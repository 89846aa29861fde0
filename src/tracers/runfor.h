/*
 * What the stack and latency tracers measure over: a command's run, a number
 * of seconds, or until Ctrl-C.
 */
#ifndef TRACEKIT_TRACERS_RUNFOR_H
#define TRACEKIT_TRACERS_RUNFOR_H

#include <stddef.h>

/*
 * From now on SIGINT, SIGTERM and SIGHUP only ask the measurement to stop:
 * called before the kernel is touched, so a Ctrl-C during the setup (seconds
 * for a latency tracer under qemu) ends it through the same cleanup.
 */
void tr_catch_stop(void);

/*
 * Run argv (NULL: none) to its end, or wait duration seconds (0: none), or
 * until SIGINT/SIGTERM/SIGHUP (which stop the command too).  Returns the
 * command's status as a shell reports it (0 without one), or -1 with err;
 * a stop asked for before it began is -1 with err saying so (nothing ran).
 */
int tr_run_for(char **argv, double duration, const char *verb, char *err, size_t errlen);

#endif

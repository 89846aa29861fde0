/* Inside libtracekit: what runtime.c and probes.c share. */
#ifndef TRACEKIT_UST_RUNTIME_H
#define TRACEKIT_UST_RUNTIME_H

#include "tracekit/tracepoint.h"

/* A tracepoint leaves (dlclose): drop its callbacks. */
void tk_tp_probes_release(struct tk_tracepoint *tp);

#endif

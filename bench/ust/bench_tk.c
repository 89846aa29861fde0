/* tracekit's TRACE_EVENT (libtracekit). */
#define CREATE_TRACE_POINTS
#include "bench_trace.h"

#define FIRE(i) trace_request_done((int)(i), "/index.html", (i))
#include "bench_main.h"

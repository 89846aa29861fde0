/* LTTng-UST's TRACEPOINT_EVENT (liblttng-ust). */
#define TRACEPOINT_CREATE_PROBES
#define TRACEPOINT_DEFINE
#include "bench_lttng_tp.h"

#define FIRE(i) tracepoint(bench, request_done, (int)(i), "/index.html", (i))
#include "bench_main.h"

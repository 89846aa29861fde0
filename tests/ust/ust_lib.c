/* A library with a tracepoint of its own, loaded by ust_prog with dlopen. */
#define CREATE_TRACE_POINTS
#include "ust_lib_trace.h"

void ust_lib_call(long value);

void ust_lib_call(long value)
{
	trace_lib_call(value);
}

// The trace header used from C++: the events of ust_prog, fired from C++ code.
#include "ust_trace.h"

extern "C" void ust_cxx_fire(int n);

extern "C" void ust_cxx_fire(int n)
{
	static const unsigned char bytes[] = { 0xca, 0xfe };

	for (int i = 0; i < n; i++)
		trace_all_kinds(1000 + i, 42ull, "from C++", "cxx", bytes, 2);
}

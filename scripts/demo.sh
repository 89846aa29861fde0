#!/bin/sh
# make demo: trace the bundled example with tracekit, then show its summary.
#
#   scripts/demo.sh BINARY        (BINARY: the built tracekit, e.g. build/tracekit)
#
# The example is examples/hello (built next to the binary by meson); if it is
# missing, tests/progs/files is used.  Exits 0 when tracing works.
set -eu

bin=${1:?usage: scripts/demo.sh path/to/tracekit}
[ -x "$bin" ] || { echo "demo: $bin is not an executable (run make first)" >&2; exit 1; }
build=$(cd "$(dirname "$bin")" && pwd)
prog=$build/examples/hello
[ -x "$prog" ] || prog=$build/tests/progs/files
[ -x "$prog" ] || { echo "demo: no example program under $build (run make first)" >&2; exit 1; }

echo "== tracekit demo: every system call that $(basename "$prog") makes, as strace shows them"
echo "== ($bin syscalls -f $prog)"
echo
"$bin" syscalls -f "$prog"
echo
echo "== the same program, summarised: time, calls and errors per syscall (-c)"
echo
"$bin" syscalls -f -c "$prog"

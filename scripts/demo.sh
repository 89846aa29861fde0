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

# Kernel events need root and tracefs: show the scheduling story when they are there.
scaling=$build/examples/scaling
if [ "$(id -u)" = 0 ] && [ -x "$scaling" ] &&
	{ [ -e /sys/kernel/tracing/trace ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; }; then
	dat=$(mktemp /tmp/tracekit-demo.XXXXXX)
	trap 'rm -f "$dat"' EXIT
	echo
	echo "== why 4 threads do not run 4x faster: where the kernel scheduled examples/scaling"
	echo "== ($bin record -e sched -e raw_syscalls $scaling 4, then $bin sched)"
	echo
	"$bin" record -q -e sched -e raw_syscalls -o "$dat" "$scaling" 4 > /dev/null
	"$bin" sched -i "$dat" | sed -n '/^process/,/longest wakeup/p' | sed '$d'
	echo
	echo "== the same story as a timeline page: $bin view -o trace.html (docs/view.md)"
else
	echo
	echo "== (as root, make demo also records where the kernel schedules examples/scaling)"
fi

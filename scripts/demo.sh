#!/bin/sh
# make demo: trace the bundled example with tracekit, then show its summary.
#
#   scripts/demo.sh BINARY [DIR]  (BINARY: the built tracekit, e.g. build/tracekit)
#
# The example is examples/hello (built next to the binary by meson); if it is
# missing, tests/progs/files is used.  As root, the recording of examples/scaling
# is kept as DIR/demo.dat (DIR: the binary's directory unless given), and the
# commands printed at the end read it.  Exits 0 when tracing works.
set -eu

bin=${1:?usage: scripts/demo.sh path/to/tracekit [DIR]}
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
	# Kept, so that every command suggested below works (the path as the user gave the binary).
	dat=${2:-$(dirname "$bin")}/demo.dat
	echo
	echo "== why 4 threads do not run 4x faster: where the kernel scheduled examples/scaling"
	echo "== ($bin record -e sched -e raw_syscalls $scaling 4, then $bin sched)"
	echo
	"$bin" record -q -e sched -e raw_syscalls -o "$dat" "$scaling" 4 > /dev/null
	"$bin" sched -i "$dat" | sed -n '/^process/,/longest wakeup/p' | sed '$d'
	echo
	echo "== the recording is kept in $dat; look at it with:"
	echo "   $bin view -o trace.html $dat     # the same story as a timeline page (docs/view.md)"
	echo "   $bin report $dat | less          # every event, as trace-cmd report prints them"
	echo "   $bin sched $dat                  # the whole scheduling summary"
else
	echo
	echo "== (as root, make demo also records where the kernel schedules examples/scaling)"
fi

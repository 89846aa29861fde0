#!/bin/sh
# tracekit view on big traces: how long the page takes to write, how big it is, how long
# headless chromium takes to load and draw it (time to the page's first complete frame),
# and how long a zoom step takes to redraw (median and worst of 12 steps in and out).  The
# peer is `trace-cmd report` printing the same file as text, the other way people look at
# every event; the ratio is its time over tracekit view's.  The GUI peer, KernelShark, is
# timed by bench/kernelshark.py in its own Xvfb: load time and peak RSS, and a zoom step's
# redraw (12 Ctrl+wheel steps: wall p50/max, and the CPU p50 a step costs it); its ratio is
# its load time over tracekit's (view plus the browser's load).  Each row ends with the load
# average then (the machine may be shared).  Each recording is made here with
# `tracekit record -e sched` while `perf bench sched pipe` ping-pongs two tasks, for about
# N events; -e takes a comma-separated list (default 1000000).  Run as root after `make
# check` (which installs playwright-core for tests/e2e).
#
#   bench/view.sh [-e EVENTS[,EVENTS...]] [-k] BUILD_DIR
# BENCH_DIR picks the directory (default /var/tmp/tracekit-bench-view).
set -eu

events=1000000
keep=0
while getopts e:k o; do
	case $o in
	e) events=$OPTARG ;;
	k) keep=1 ;;
	*) echo "usage: $0 [-e EVENTS] [-k] BUILD_DIR" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
build=${1:?usage: $0 [-e EVENTS] [-k] BUILD_DIR}
tk=${TRACEKIT:-$build/tracekit}
here=$(cd "$(dirname "$0")/.." && pwd)
for t in trace-cmd perf node kernelshark Xvfb xdotool /usr/bin/time "$tk"; do
	command -v "$t" > /dev/null || { echo "$0: $t is missing" >&2; exit 1; }
done
[ -d "$here/tests/e2e/node_modules/playwright-core" ] ||
	{ echo "$0: run make check first (it installs playwright-core)" >&2; exit 1; }

dir=${BENCH_DIR:-/var/tmp/tracekit-bench-view}
mkdir -p "$dir"
cleanup() { [ "$keep" = 1 ] || rm -f "$dir"/view-*.dat "$dir"/view-*.html "$dir/time" "$dir/stderr"; }
trap cleanup EXIT

run() {
	/usr/bin/time -f '%e %M' -o "$dir/time" "$@" > /dev/null 2> "$dir/stderr" ||
		{ echo "$0: $* failed: $(head -1 "$dir/stderr")" >&2; exit 1; }
	cat "$dir/time"
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%10s | %9s %7s | %7s %7s %8s %8s %13s | %7s %7s %19s | %s %s %s\n' events 'report s' 'MB' \
	'view s' 'MB' 'page MB' 'load ms' 'zoom ms p50/max' 'ks s' 'ks MB' 'ks zoom p50/max cpu' \
	'report/view' 'ks/tk' load
for want in $(echo "$events" | tr , ' '); do
	dat=$dir/view-$want.dat
	html=$dir/view-$want.html
	if [ ! -s "$dat" ]; then
		# A pipe round trip is about 6 sched events.
		"$tk" record -q -e sched -b 65536 -o "$dat" -- \
			perf bench sched pipe -l $((want / 6)) > /dev/null 2> "$dir/stderr" ||
			{ echo "$0: record failed: $(tail -1 "$dir/stderr")" >&2; exit 1; }
	fi
	n=$("$tk" report -i "$dat" --stat | awk '/^Events:/ { print $2 }')
	set -- $(run trace-cmd report -i "$dat")
	tcs=$1 tcm=$2
	set -- $(run "$tk" view -i "$dat" -o "$html")
	tks=$1 tkm=$2
	size=$(stat -c %s "$html")
	stats='import json, statistics, sys
d = json.load(sys.stdin)
print(d[sys.argv[1]], statistics.median(d["zoom_ms"]), max(d["zoom_ms"]), d.get("rss_mb", 0),
	statistics.median(d.get("zoom_cpu_ms", [0])))'
	set -- $(node "$here/tests/e2e/view_browser.mjs" "$html" --bench | python3 -c "$stats" load_ms)
	ld=$1 zm=$2 zx=$3
	# KernelShark runs as nobody (see kernelshark.py): the file must be readable by it.
	chmod a+r "$dat"
	set -- $(python3 "$here/bench/kernelshark.py" "$dat" | python3 -c "$stats" load_s)
	awk -v n="$n" -v a="$tcs" -v am="$tcm" -v b="$tks" -v bm="$tkm" -v sz="$size" -v ld="$ld" \
		-v zm="$zm" -v zx="$zx" -v ks="$1" -v kzm="$2" -v kzx="$3" -v km="$4" -v kzc="$5" \
		-v la="$(cut -d' ' -f1 /proc/loadavg)" \
		'BEGIN { if (b <= 0) b = 0.01
		printf "%10d | %9.2f %7.1f | %7.2f %7.1f %8.1f %8d %6.1f/%6.1f | %7.2f %7.1f %6.1f/%6.1f %5.1f |",
			n, a, am / 1024, b, bm / 1024, sz / 1048576, ld, zm, zx, ks, km, kzm, kzx, kzc
		printf " %.1fx %.1fx %s\n", a / b, ks / (b + ld / 1000), la }'
	[ "$keep" = 1 ] || rm -f "$dat" "$html"
done

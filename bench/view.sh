#!/bin/sh
# tracekit view on big traces, side by side with KernelShark 2.2.1 on the same file.
#
# tracekit: `tracekit view --serve` indexes the trace once (its time and peak RSS, and
# the size of its window cache), then headless chromium opens the page: the time to its
# first drawn timeline (the levels of detail of the whole trace) and the renderer's peak
# RSS; then the view is zoomed into the trace's end and the page fetches that window in
# full detail from the server: the time to it drawn, its events, the renderer's peak RSS
# (tests/e2e/view_serve.mjs --bench).  KernelShark: bench/kernelshark.py in its own
# Xvfb, its load time (to its window, idle) and peak RSS.  Ratios: KernelShark's load
# over tracekit's time from opening the page (ks/page) and from the command, index
# included (ks/cmd).  Each row ends with the load average then (the machine may be
# shared).  Each recording is made here with `tracekit record -F -e sched` (the command
# and its children: other tasks add only their switches with them) while `perf
# bench sched pipe` ping-pongs two tasks, for about N events; -e takes a comma-separated
# list (default 5000000,30000000).  Run as root after `make deps` (playwright-core).
#
#   bench/view.sh [-e EVENTS[,EVENTS...]] [-k] BUILD_DIR
# BENCH_DIR picks the directory (default /var/tmp/tracekit-bench-view); -k keeps the
# recordings there for the next run.  A 30M-event recording takes about 1.5 GB, its
# window cache (in $TMPDIR) about 3 GB, KernelShark about 4 GB of memory.
set -eu

events=5000000,30000000
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
for t in perf node kernelshark Xvfb xdotool /usr/bin/time "$tk"; do
	command -v "$t" > /dev/null || { echo "$0: $t is missing" >&2; exit 1; }
done
[ -d "$here/tests/e2e/node_modules/playwright-core" ] ||
	{ echo "$0: run make deps first (it installs playwright-core)" >&2; exit 1; }

dir=${BENCH_DIR:-/var/tmp/tracekit-bench-view}
mkdir -p "$dir"
server=
cleanup() {
	[ -z "$server" ] || kill "$(pgrep -P "$server")" 2> /dev/null || true
	[ "$keep" = 1 ] || rm -f "$dir"/view-*.dat
	rm -f "$dir/url" "$dir/serve.err" "$dir/time" "$dir/stderr"
}
trap cleanup EXIT

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%10s | %7s %7s %8s | %8s %7s | %9s %9s %7s | %7s %7s | %7s %7s | %s\n' events \
	'index s' 'srv MB' 'cache MB' 'page ms' 'rend MB' 'window ms' 'w events' 'rend MB' \
	'ks s' 'ks MB' 'ks/page' 'ks/cmd' load
for want in $(echo "$events" | tr , ' '); do
	dat=$dir/view-$want.dat
	if [ ! -s "$dat" ]; then
		# A pipe round trip is about 6 sched events.
		"$tk" record -q -F -e sched -b 65536 -o "$dat" -- \
			perf bench sched pipe -l $((want / 6)) > /dev/null 2> "$dir/stderr" ||
			{ echo "$0: record failed: $(tail -1 "$dir/stderr")" >&2; exit 1; }
	fi
	# KernelShark runs as nobody (see kernelshark.py): the file must be readable by it.
	chmod a+r "$dat"
	n=$("$tk" report -i "$dat" --stat | awk '/^Events:/ { print $2 }')

	# The server: index, then serve until killed; its cache is the temporary file it holds.
	/usr/bin/time -f '%M' -o "$dir/time" "$tk" view --serve -i "$dat" > "$dir/url" \
		2> "$dir/serve.err" &
	server=$!
	while [ ! -s "$dir/url" ]; do
		kill -0 "$server" 2> /dev/null ||
			{ echo "$0: view --serve failed: $(head -1 "$dir/serve.err")" >&2; exit 1; }
		sleep 0.2
	done
	idx=$(sed -n 's/.* indexed in \([0-9.]*\) s.*/\1/p' "$dir/serve.err")
	cache_mb=$(sed -n 's/.*, \([0-9.]*\) MB of window cache.*/\1/p' "$dir/serve.err")
	tkpid=$(pgrep -P "$server")	# time's child: the server itself
	set -- $(node "$here/tests/e2e/view_serve.mjs" "$(cat "$dir/url")" --bench |
		python3 -c 'import json, sys
d = json.load(sys.stdin)
print(d["load_ms"], d["overview_mb"], d["window_ms"], d["window_events"], d["window_mb"])')
	page=$1 rmb=$2 wms=$3 wev=$4 wmb=$5
	kill -INT "$tkpid"
	wait "$server" || true
	server=
	srv_mb=$(($(cat "$dir/time") / 1024))

	set -- $(python3 "$here/bench/kernelshark.py" "$dat" |
		python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["load_s"], d["rss_mb"])')
	awk -v n="$n" -v idx="$idx" -v smb="$srv_mb" -v cmb="$cache_mb" -v page="$page" \
		-v rmb="$rmb" -v wms="$wms" -v wev="$wev" -v wmb="$wmb" -v ks="$1" -v km="$2" \
		-v la="$(cut -d' ' -f1 /proc/loadavg)" \
		'BEGIN { printf "%10d | %7.1f %7d %8.0f | %8d %7.0f | %9d %9d %7.0f | %7.2f %7.0f |",
			n, idx, smb, cmb, page, rmb, wms, wev, wmb, ks, km
		printf " %6.1fx %6.2fx | %s\n", ks / (page / 1000), ks / (idx + page / 1000), la }'
	[ "$keep" = 1 ] || rm -f "$dat"
done

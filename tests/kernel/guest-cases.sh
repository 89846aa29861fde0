#!/bin/sh
# In the guest: run each case named NAME:TIMEOUT on the command line, one after
# the other, each in a fresh folder under /tmp with caselib.sh's helpers.  A
# case's output goes to /run/lab/NAME.out, its status to /run/lab/NAME.rc.
# The console gets a line where each case begins and ends, so the host can
# cut a failing case's part out of the console log.
#
# After each case, what it left in tracefs (whose files all show size 0: read them) (probes, instances, enabled events,
# a tracer) fails it and is cleaned away, so the next case starts clean.
here=$(dirname "$0")
lab=/run/lab
tr=/sys/kernel/tracing
# a net case's two parts talk through the lab folder (caselib.sh's signal, await)
export LAB_SHARED=$lab LAB_SIDE=guest

leftovers() {
	for f in kprobe_events uprobe_events dynamic_events; do
		grep -q . "$tr/$f" && { echo "$f:"; cat "$tr/$f"; }
	done
	[ -n "$(ls "$tr/instances")" ] && echo "instances: $(ls "$tr/instances")"
	grep -q . "$tr/set_event" && echo "enabled events: $(cat "$tr/set_event" | tr '\n' ' ')"
	[ "$(cat "$tr/current_tracer")" != nop ] && echo "tracer: $(cat "$tr/current_tracer")"
	true
}

clean() {
	echo nop >"$tr/current_tracer"
	echo >"$tr/set_event"
	for i in "$tr"/instances/*; do
		[ -d "$i" ] && { echo 0 >"$i/events/enable"; rmdir "$i"; }
	done
	echo >"$tr/dynamic_events" 2>/dev/null
	echo >"$tr/kprobe_events" 2>/dev/null
	echo >"$tr/uprobe_events" 2>/dev/null
	rm -rf /run/tracekit
}

for spec in "$@"; do
	name=${spec%:*}
	limit=${spec##*:}
	dir=/tmp/case-$name
	mkdir -p "$dir"
	echo "tracekit-lab: case $name begin"
	(cd "$dir" && CASE=$name CASE_DIR=$dir timeout -k 5 "$limit" \
		/bin/sh -c '. "$1"; . "$2"' case "$here/caselib.sh" "$here/cases/$name.sh") \
		>"$lab/$name.out" 2>&1 </dev/null
	rc=$?
	[ "$rc" = 124 ] && echo "lab: the case ran out of its $limit s" >>"$lab/$name.out"
	left=$(leftovers)
	if [ -n "$left" ]; then
		printf 'lab: the case left behind:\n%s\n' "$left" >>"$lab/$name.out"
		[ "$rc" = 0 ] && rc=1
		clean
	fi
	echo "$rc" >"$lab/$name.rc"
	echo "tracekit-lab: case $name end $rc"
done

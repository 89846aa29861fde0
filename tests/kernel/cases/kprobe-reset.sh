# A probe trace killed with SIGKILL leaves its kprobes (and instance) behind; reset
# removes them, and only what a dead tracekit made.
kev=/sys/kernel/tracing/kprobe_events
# tracekit itself in the background (not the tk function: its subshell would get the kill)
"$TRACEKIT" probe trace 'p:tk/sleep do_nanosleep' -- sleep 30 >trace.out 2>&1 &
pid=$!
i=0
until grep -q '^p:tracekit_' "$kev"; do
	i=$((i + 1))
	[ $i -le 200 ] || fail "no tracekit kprobe appeared in 20 s: $(cat trace.out)"
	sleep 0.1
done
child=$(cat /proc/$pid/task/*/children)
kill -9 $pid
wait $pid
[ -n "$child" ] && kill $child
ok cat "$kev"
has '^p:tracekit_[0-9]+_0/sleep do_nanosleep'
ok tk reset
has 'tracekit_[0-9]+_0/sleep'
ok cat "$kev"
lacks .
ok ls /sys/kernel/tracing/instances
lacks .

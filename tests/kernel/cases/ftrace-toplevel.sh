# The borrowed top level is one user's at a time: a second tracekit is refused while the
# first runs; after the first is SIGKILLed the state file still says what it changed and
# where it staged its data, and reset writes the settings back (the next borrower would
# too) and removes the staging file.
T=/sys/kernel/tracing
snap() {
	for f in current_tracer set_graph_function set_ftrace_pid max_graph_depth tracing_on \
		options/function-fork options/funcgraph-proc; do
		echo "$f: $(cat $T/$f)"
	done
}
snap >before.txt
# tracekit itself in the background (not the tk function: its subshell would get the kill)
"$TRACEKIT" record -p function_graph -g do_nanosleep -g hrtimer_nanosleep --max-graph-depth 2 \
	-O funcgraph-proc -o k.dat -- sleep 30 >rec.out 2>&1 &
pid=$!
i=0
until [ "$(cat $T/current_tracer)" = function_graph ]; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "the recording did not start in 30 s: $(cat rec.out)"
	sleep 0.1
done
# Both -g functions: a tracefs list file takes one name per write().
ok cat $T/set_graph_function
has '^do_nanosleep$'
has '^hrtimer_nanosleep$'
refused tk record -p function_graph -o two.dat -- true
has "the top-level tracing buffer is in use by tracekit pid $pid \(record -p function_graph\)"
child=$(cat /proc/$pid/task/*/children)
kill -9 $pid
wait $pid
[ -n "$child" ] && kill $child
ok cat $T/current_tracer
has '^function_graph$'
# The killed run's staging file (one CPU in the lab) is noted beside the settings.
ok cat /run/tracekit/toplevel
has "^output $PWD/k.dat$"
ok test -e k.dat.cpu0
ok tk reset
has "restored the top level's .*current_tracer.* \(owner pid $pid is gone\)"
has "^removed $PWD/k.dat.cpu0..0 \(raw per-CPU data of the killed recording\)$"
snap >after.txt
ok diff before.txt after.txt
ok test ! -e /run/tracekit/toplevel
ok ls
lacks 'k\.dat'
# Ctrl-C (SIGINT) mid-recording: the file is written and the top level is back at once.
"$TRACEKIT" record -p function_graph -g do_nanosleep -O funcgraph-proc -o i.dat -- sleep 30 >rec.out 2>&1 &
pid=$!
i=0
until [ "$(cat $T/current_tracer)" = function_graph ]; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "the recording did not start in 30 s: $(cat rec.out)"
	sleep 0.1
done
kill -INT $pid
wait $pid
ok cat rec.out
has 'i.dat: [0-9]+ events'
snap >after.txt
ok diff before.txt after.txt
ok test ! -e /run/tracekit/toplevel

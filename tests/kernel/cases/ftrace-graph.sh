# record -p function_graph: 6.1's instances refuse it, so the top level is borrowed and
# every setting it changed is back afterwards.  report prints the nested graph exactly as
# trace-cmd report does (leaf calls folded, durations, + ! # markers), with -e events
# between; -g roots the graph at vfs_read (depth 0), --max-graph-depth cuts it.
T=/sys/kernel/tracing
snap() {
	for f in current_tracer set_graph_function set_ftrace_filter set_ftrace_notrace \
		set_ftrace_pid set_event_pid max_graph_depth tracing_on trace_clock \
		options/function-fork options/event-fork options/funcgraph-proc \
		options/funcgraph-irqs options/record-tgid events/sched/sched_process_exec/enable; do
		echo "$f: $(cat $T/$f)"
	done
}
snap >before.txt
echo abc >in.txt
ok tk record -p function_graph -g vfs_read -F -e sched:sched_process_exec -o g.dat -- cat in.txt
snap >after.txt
ok diff before.txt after.txt
ok tk report -i g.dat
has ' sched_process_exec: +filename=/usr/bin/cat'
has '^ +cat-[0-9]+ +\[000\] +[0-9.]+: funcgraph_entry: +\|  vfs_read\(\) \{$'
has ' funcgraph_entry: +[+!#$ ] +[0-9]+\.[0-9]{3} us +\|    [a-z_0-9.]+\(\);$'
has ' funcgraph_exit: +[+!#$ ] +[0-9]+\.[0-9]{3} us +\|  \}$'
# Nothing outside vfs_read: every depth-0 entry is vfs_read.
lacks ' funcgraph_entry: .*\|  [a-uw-z_][a-z_0-9.]*\('
cp "$OUT" ours.txt
ok trace-cmd report -i g.dat
cp "$OUT" theirs.txt
ok diff ours.txt theirs.txt
# --json: each entry and exit names its function and depth; an exit has its duration.
ok tk report --json -i g.dat
has '"graph":\{"type":"entry","function":"vfs_read","depth":0\}\}$'
has '"graph":\{"type":"exit","function":"vfs_read","depth":0,"duration_ns":[0-9]+\}\}$'
# Two levels at most, with funcgraph options given to the kernel.
ok tk record -p function_graph -g vfs_read --max-graph-depth 2 -O funcgraph-proc -O nofuncgraph-irqs -F -o d.dat -- cat in.txt
snap >after.txt
ok diff before.txt after.txt
ok tk report -i d.dat
has '\|    [a-z_0-9.]+\(\);$'
lacks '\|      [a-z_}]'
cp "$OUT" ours.txt
ok trace-cmd report -i d.dat
cp "$OUT" theirs.txt
ok diff ours.txt theirs.txt
# -g without -p means function_graph, as in trace-cmd; a bad -g names the closest.
refused tk record -g vfs_reed -o bad.dat -- true
has "-g 'vfs_reed' matches no traceable function \(did you mean vfs_read"
snap >after.txt
ok diff before.txt after.txt

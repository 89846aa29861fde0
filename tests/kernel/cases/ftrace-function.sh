# record -p function: -l filters on a private instance, -F through set_ftrace_pid +
# function-fork, -O func_stack_trace, -P on a running process; report prints what
# trace-cmd report prints for the same file; a filter matching nothing names the
# closest functions and records nothing.
T=/sys/kernel/tracing
echo abc >in.txt
ok tk record -p function -l 'vfs_*' -F -o f.dat -- cat in.txt
has '^abc$'
ok tk report -i f.dat
has '^ +cat-[0-9]+ +\[000\] +[0-9.]+: function: +vfs_read$'
has ' function: +vfs_open$'
lacks ' function: +[a-uw-z]'
lacks '^ +(sh|tracekit)-[0-9]+ '
cp "$OUT" ours.txt
ok trace-cmd report -i f.dat
cp "$OUT" theirs.txt
ok diff ours.txt theirs.txt
# The instance was private: the top level never ran a tracer.
ok cat $T/current_tracer
has '^nop$'
# A stack with each call (func_stack_trace), as trace-cmd prints it.
ok tk record -p function -l vfs_read -O func_stack_trace -F -o s.dat -- cat in.txt
ok tk report -i s.dat
has ' kernel_stack: +<stack trace >$'
has '^=> ksys_read \([0-9a-f]+\)$'
cp "$OUT" ours.txt
ok trace-cmd report -i s.dat
cp "$OUT" theirs.txt
ok diff ours.txt theirs.txt
# -P: a process already running, and the children it forks afterwards (function-fork).
# It waits for the file go, made once the recording's tracer is on.
sh -c 'until [ -e go ]; do sleep 0.1; done; cat in.txt >/dev/null' &
bg=$!
"$TRACEKIT" record -p function -l vfs_read -P $bg -o p.dat >rec.out 2>&1 &
rec=$!
i=0
until grep -qs '^function$' $T/instances/tracekit-*/current_tracer; do
	i=$((i + 1))
	[ $i -le 300 ] || fail "the recording did not start in 30 s: $(cat rec.out)"
	sleep 0.1
done
touch go
wait $bg
kill -INT $rec
wait $rec || fail "record -P ended with $?: $(cat rec.out)"
ok tk report -i p.dat
has '^ +cat-[0-9]+ .* function: +vfs_read$'
lacks '^ +tracekit-[0-9]+ '
# -n removes what -l added.
ok tk record -p function -l 'vfs_*' -n vfs_read -F -o n.dat -- cat in.txt
ok tk report -i n.dat
has ' function: +vfs_open$'
lacks ' function: +vfs_read$'
# Nothing matches: an error with the closest names, no file.
refused tk record -p function -l vfs_fsnc -o bad.dat -- true
has "-l 'vfs_fsnc' matches no traceable function \(did you mean vfs_fsync[,)]"
ok test ! -e bad.dat
refused tk record -p function -l 'vfs_read:mod:ext4' -o bad.dat -- true
has "matches no traceable function"
refused tk record -p function -O no_such_option -o bad.dat -- true
has "-O no_such_option: this kernel has no tracer option '_such_option'"

# tracekit stack: the stack tracer on while a command runs, then the deepest kernel
# stack with each frame's size (the frames' sizes add up to the maximum's depth), and
# the tracer and its maximum as they were before.  A second user of the top level
# meanwhile is refused; on the stock kernel, irqsoff is refused with its option.
E=/proc/sys/kernel/stack_tracer_enabled
M=/sys/kernel/tracing/stack_max_size
before="$(cat $E) $(cat $M)"
ok tk stack -- sh -c 'ls / >/dev/null'
has '^stack_max_size: [1-9][0-9]* bytes, [1-9][0-9]* frames$'
has '^ +0\) +[1-9][0-9]* +[0-9]+   [a-z_0-9.]+\+0x[0-9a-f]+/0x[0-9a-f]+$'
max=$(sed -n 's/^stack_max_size: \([0-9]*\) bytes.*/\1/p' "$OUT")
first=$(awk '$1 == "0)" { print $2 }' "$OUT")
[ "$max" = "$first" ] || fail "stack_max_size $max, but frame 0 is at depth $first"
[ "$(cat $E) $(cat $M)" = "$before" ] || fail "stack tracer left as '$(cat $E) $(cat $M)', was '$before'"
ok tk stack --json -- sh -c 'ls / >/dev/null'
# Rarely the kernel keeps a maximum without frames: tracekit says so; one more run.
if grep -q '"frames":\[\]' "$OUT"; then
	grep -q "no frames for it" "$OUT" || fail "a maximum without frames is not explained on stderr"
	ok tk stack --json -- sh -c 'ls / >/dev/null'
fi
has '^\{"stack_max_size":[1-9][0-9]*,"frames":\[\{"depth":0,"used":[1-9]'
[ "$(cat $E) $(cat $M)" = "$before" ] || fail "stack tracer left as '$(cat $E) $(cat $M)', was '$before'"
# The stock kernel has no irqsoff tracer: refused with the option it needs.
refused tk latency irqsoff -- true
has "^tracekit: latency: this kernel has no irqsoff tracer \(it needs CONFIG_IRQSOFF_TRACER; available_tracers: "
refused tk latency preemptoff --duration 1
has 'CONFIG_PREEMPT_TRACER'

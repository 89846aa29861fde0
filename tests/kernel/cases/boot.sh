# The guest is the lab's kernel with what the other cases need: kprobe_events,
# the function tracer, loadable modules, and the tracekit under test running.
ok uname -r
has "^$LAB_RELEASE\$"
ok cat /sys/kernel/tracing/available_tracers
has 'function_graph'
ok test -w /sys/kernel/tracing/kprobe_events
ok tk --version
has '^tracekit '

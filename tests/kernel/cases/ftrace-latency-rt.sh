# lab: rt
# tracekit latency on Debian's PREEMPT_RT kernel, which has the wakeup tracers, hwlat,
# osnoise and timerlat: each reports a maximum latency with the trace the kernel kept,
# and leaves no tracer, instance or top-level borrow behind.
T=/sys/kernel/tracing
ok uname -r
has -rt-
ok tk latency timerlat --duration 1
has '^timerlat: maximum latency [0-9]+ us'
has '^# tracer: timerlat$'
has 'timer_latency +[0-9]+ ns$'
ok tk latency osnoise --duration 1
has '^osnoise: maximum latency [0-9]+ us'
has '^# tracer: osnoise$'
ok tk latency wakeup_rt --json -- sh -c 'chrt -f 50 true'
has '^\{"tracer":"wakeup_rt","max_latency_us":[0-9]+,"top_level":(true|false),"trace":"# tracer: wakeup_rt'
ok tk latency hwlat --duration 1
has '^hwlat: maximum latency [0-9]+ us'
ok cat $T/current_tracer
has '^nop$'
ok test ! -e /run/tracekit/toplevel
refused tk latency irqsoff -- true
has 'CONFIG_IRQSOFF_TRACER'

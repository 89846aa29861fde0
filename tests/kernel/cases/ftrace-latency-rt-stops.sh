# lab: rt
# latency wakeup_rt stopped early and killed.  A Ctrl-C during the setup (under TCG the
# wakeup_rt tracer takes a while to start) ends the run with a line saying nothing was
# measured, through the same cleanup: no instance is left.  A run SIGKILLed while measuring
# leaves its instance running wakeup_rt, which the kernel runs in one place at a time: the
# next run names that leftover and 'tracekit reset' (not "the kernel refuses"), and runs
# once reset has removed it.
T=/sys/kernel/tracing
# A background job of sh ignores SIGINT; a terminal's Ctrl-C does not: run it with SIGINT's
# default, as from a terminal (python3 from the host's root; exec keeps the pid, so $! is it).
python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$TRACEKIT" latency wakeup_rt >early.out 2>&1 &
P=$!
i=0
while ! ls $T/instances | grep -q "^tracekit-$P-" && [ $i -lt 3000 ]; do i=$((i + 1)); done
began=$(grep -c measuring early.out)
kill -INT $P
n=0
while kill -0 $P 2>/dev/null && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
kill -0 $P 2>/dev/null && { kill -KILL $P; fail "latency did not end after Ctrl-C"; }
wait $P
echo "status $? (the measurement had begun: $began)"
ok cat early.out
if [ "$began" = 0 ]; then
	has 'stopped \(Ctrl-C or SIGTERM\) while setting up, before measuring: nothing was measured'
else
	has '^wakeup_rt: maximum latency [0-9]+ us'	# too late for the early path: a result
fi
ok ls $T/instances
lacks "^tracekit-$P-"

"$TRACEKIT" latency wakeup_rt >killed.out 2>&1 &
P=$!
i=0
while ! grep -q measuring killed.out && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -KILL $P
wait $P
ok cat $T/instances/tracekit-$P-*/current_tracer
has '^wakeup_rt$'
refused tk latency wakeup_rt -- true
has "the wakeup_rt tracer runs already in instance tracekit-$P-[0-9]+, left by a tracekit run that is gone \(pid $P\): 'tracekit reset' removes it"
lacks 'refuses'
ok tk reset
ok tk latency wakeup_rt -- true
has '^wakeup_rt: maximum latency [0-9]+ us'

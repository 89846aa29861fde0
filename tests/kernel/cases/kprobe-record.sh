# record --probe makes the kprobes for one run, records them with the command's events,
# and removes them; tracekit report and trace-cmd report print the same lines, and the
# file says which trace clock it used (mono by default, whatever the guest's default is).
echo abc >in.txt
ok tk record --probe 'p:tk/open do_sys_openat2 path=+0(%si):ustring' \
	--probe 'r:tk/read ksys_read n=$retval:s64' -e sched:sched_process_exec -o k.dat \
	-- sh -c 'exec cat in.txt >/dev/null'
ok cat /sys/kernel/tracing/kprobe_events
lacks .
ok tk report -i k.dat
has "cat-[0-9]+ .* open: +\([0-9a-f]+\) path=\"in.txt\"$"
has "cat-[0-9]+ .* read: +\([0-9a-f]+ <- [0-9a-f]+\) n=4$"
has 'sched_process_exec: +filename=/usr/bin/cat'
grep -E ' (open|read|sched_process_exec): ' "$OUT" >ours.txt
ok trace-cmd report -i k.dat
grep -E ' (open|read|sched_process_exec): ' "$OUT" >theirs.txt
ok diff ours.txt theirs.txt
ok trace-cmd dump --options -i k.dat
has '\[mono\]'

# examples/kernel/silly: a module's own TRACE_EVENT.  Its format is the module's (fields
# and print fmt from silly_trace.h), and a recording of it with sched events reads back
# in tracekit report and trace-cmd report with that print format.  The recording says its
# clock (mono), and its times line up with the guest's own clock (/proc/uptime); under
# TCG the guest's default trace clock may turn "global" (unstable TSC): ours stays mono.
need_module silly
ok insmod "$KO"
ok tk list -e 'silly:*'
has '^silly:me_silly$'
ok tk list --format silly:me_silly
has '^unsigned long +time +[0-9]+ +8 +no$'
has '^unsigned long +count +[0-9]+ +8 +no$'
has '^print fmt: "time=%lu count=%lu", REC->time, REC->count$'
t0=$(cut -d' ' -f1 /proc/uptime)
ok tk record -e silly -e sched -o silly.dat -- sleep 0.3
t1=$(cut -d' ' -f1 /proc/uptime)
ok rmmod silly
ok tk report -i silly.dat
has 'silly-thread-[0-9]+ +\[[0-9]+\] +[0-9.]+: me_silly: +time=[0-9]+ count=[0-9]+$'
has 'sched_switch: '
grep -E ' me_silly: ' "$OUT" >ours.txt
awk -v t0="$t0" -v t1="$t1" '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
	t = substr($i, 1, length($i) - 1) + 0; if (t < t0 - 0.01 || t > t1 + 0.01) bad++; n++ } }
	END { print n " events, " bad + 0 " outside [" t0 ", " t1 "]"; exit bad > 0 || n == 0 }' ours.txt ||
	fail "me_silly times do not line up with /proc/uptime"
ok trace-cmd report -i silly.dat
grep -E ' me_silly: ' "$OUT" >theirs.txt
ok diff ours.txt theirs.txt
ok trace-cmd dump --options -i silly.dat
has '\[mono\]'
# For the host part (kmod-silly.host.sh): the view page, drawn by a browser there.
cp silly.dat /run/lab/silly.dat

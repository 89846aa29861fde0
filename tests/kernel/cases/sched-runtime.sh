# sched's run time against the kernel's own count on Debian's kernel (one vCPU, TCG):
# sched4's four threads (a spinner, a spin/sleep cycler, two on one mutex) recorded with
# `-e sched -e raw_syscalls`, then again with function_graph on do_nanosleep (the cycler's
# sleeps leave records of their own after each switch-out).  Each thread's run time on the
# kernel's clock is its sched_stat_runtime sum within 2% or 1 ms, and up to the moment it
# printed its CLOCK_THREAD_CPUTIME_ID, that reading (tests/kernel/sched_runtime.py); the
# records after a switch-out are its tail, not a made-up switch-in.
# lab: timeout 300
S4="$LAB_BUILD/tests/progs/sched4"
CHECK="$LAB_SRC/tests/kernel/sched_runtime.py"

ok tk record -o plain.dat -e sched -e raw_syscalls -- "$S4" 100
cp "$OUT" plain.out
ok python3 "$CHECK" "$TRACEKIT" plain.dat plain.out
ok tk sched plain.dat
has "run time checked against the kernel's sched_stat_runtime for [0-9]+ threads .*: all within 2% or 1 ms on the kernel's clock"

ok tk record -o fg.dat -p function_graph -g do_nanosleep -e sched -e raw_syscalls -- "$S4" 100
cp "$OUT" fg.out
ok python3 "$CHECK" "$TRACEKIT" fg.dat fg.out
ok tk sched --json fg.dat
has '"switch_tail_records":[1-9]'

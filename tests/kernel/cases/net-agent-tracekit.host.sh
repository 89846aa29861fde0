# The host's end of net-agent-tracekit: tracekit record -A 127.0.0.1:1514 --name guest records
# this machine and, through the guest's tracekit agent, the guest, while pingnet ping talks to
# the guest's pingnet serve; then causality.inc checks the merged files.
await ready
set -- $GOT
SERVE_PID=$3 SERVE_FILE=trace-guest.dat PING_FILE=trace.dat PING_PID=none
E="-e syscalls:sys_enter_sendto -e syscalls:sys_exit_recvfrom"
# the scheduler on both (the page's lanes; qemu's vCPU thread from --guest-pid, the qemu that
# holds the forwarded port)
S="-e sched:sched_switch -e sched:sched_wakeup"
QEMU=$(ss -ltnpH "sport = :$1" | sed -n 's/.*pid=\([0-9]*\).*/\1/p' | head -1)
[ -n "$QEMU" ] || fail "no process listens on the forwarded port $1"
# (pingnet by name: the files, and docs/net.md's picture of them, name the command so)
PATH=$LAB_BUILD/tests/progs:$PATH
ok tk record $E $S -A "127.0.0.1:$1" --name guest --guest-pid "$QEMU" $E $S -- \
	pingnet ping 127.0.0.1 "$2" 20
has 'time sync ptp'
SYNC_BOUND=$(sed -n 's/.*estimated error +-\([0-9]*\) ns.*/\1/p' "$OUT")
await done 120
. "$LAB_SRC/tests/kernel/causality.inc"

# The host's end of net-agent-tracecmd: tracekit record -A 127.0.0.1:1514 --name guest records
# this machine and, through the guest's trace-cmd agent, the guest, while pingnet ping talks to
# the guest's pingnet serve; then causality.inc checks the merged files.
await ready
set -- $GOT
SERVE_PID=$3 SERVE_FILE=trace-guest.dat PING_FILE=trace.dat PING_PID=none
E="-e syscalls:sys_enter_sendto -e syscalls:sys_exit_recvfrom"
ok tk record $E -A "127.0.0.1:$1" --name guest $E -- \
	"$LAB_BUILD/tests/progs/pingnet" ping 127.0.0.1 "$2" 20
has 'time sync ptp'
SYNC_BOUND=$(sed -n 's/.*estimated error +-\([0-9]*\) ns.*/\1/p' "$OUT")
signal recorded
await done 120
. "$LAB_SRC/tests/kernel/causality.inc"

# tracekit record -N -t in the guest streams to tracekit listen on the host, across qemu's user
# network (the host's 127.0.0.1 is the guest's 10.0.2.2).  The host part
# (net-record-to-listen.host.sh) listens and checks the file; here the guest makes 3000
# getppid calls, and its own record -N says what it sent.
# lab: net
# lab: timeout 300
LOOP=$LAB_BUILD/tests/progs/loop
await listening
ok tk record -N "$LAB_NET_HOST:$GOT" -t -e syscalls:sys_enter_getppid -- "$LOOP" getppid 3000
has 'TCP'
signal recorded

#!/usr/bin/env python3
"""causality.py against merged reports made up here, whose answers are known: rounds in order,
a guest clock off by a millisecond, a round one file lacks, the two report formats (trace-cmd's
nanoseconds with padded names, tracekit's microseconds), --bound and --estimate.  The lab's
net-agent-* cases run it on real recordings."""

import json
import os
import subprocess
import sys

CHECK = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'causality.py')
BASE = 64
failures = []


def line(prefix, comm, pid, ns, event, fmt, length=None):
    ts = '%d.%09d' % divmod(ns, 10**9) if fmt == 'ns' else '%d.%06d' % divmod(ns // 1000, 10**6)
    rest = ('fd: 0x00000003, buff: 0x7ffd00000000, len: 0x%08x, flags: 0x00000000' % length
            if event == 'sys_enter_sendto' else '0x%x' % BASE)
    return '%16s: %16s-%-6d [000] %s: %-20s %s' % (prefix, comm, pid, ts, event + ':', rest)


def report(rounds=5, guest_shift=0, skip_guest=(), fmt='ns', guest_comm='pingnet'):
    """A merged report: every round host send at t, guest receive t+300us, answer t+320us,
    host receive t+600us (true times); the guest's printed times are shifted by guest_shift."""
    out = ['       host.dat: cpus=2', '      guest.dat: cpus=1']
    for i in range(rounds):
        t = 5000 * 10**9 + i * 20 * 10**6
        out.append(line('host.dat', 'pingnet', 700, t, 'sys_enter_sendto', fmt, BASE + i))
        if i not in skip_guest:
            g = guest_shift
            out.append(line('guest.dat', guest_comm, 128, t + 300000 + g, 'sys_exit_recvfrom',
                            fmt))
            out.append(line('guest.dat', guest_comm, 128, t + 320000 + g, 'sys_enter_sendto',
                            fmt, BASE + i))
        out.append(line('host.dat', 'sshd', 99, t + 400000, 'sys_exit_recvfrom', fmt))
        out.append(line('host.dat', 'pingnet', 700, t + 600000, 'sys_exit_recvfrom', fmt))
    out.sort(key=lambda s: s.split(']')[1] if ']' in s else '')
    return '\n'.join(out) + '\n'


def run(text, *args):
    p = subprocess.run([sys.executable, CHECK, '--host', 'host.dat', '--guest', 'guest.dat',
                        '--json'] + list(args), input=text, capture_output=True, text=True)
    res = json.loads(p.stdout) if p.stdout.strip() else None
    return p.returncode, res, p.stderr


def expect(name, cond, detail):
    if not cond:
        failures.append('%s: %s' % (name, detail))
        print('FAIL %s: %s' % (name, detail))
    else:
        print('ok   %s' % name)


rc, r, err = run(report())
expect('in order', rc == 0 and r['causal'] and r['rounds'] == 5, (rc, r, err))
# guest receive is 300 us after the send, the host's receive 280 us after the answer
expect('window', r and r['window_ns'] == [-300000, 280000], r)
expect('error estimate', r and r['offset_error_ns'] == 10000 and r['uncertainty_ns'] == 290000, r)

rc, r, err = run(report(fmt='us'))
expect('tracekit report microseconds', rc == 0 and r['causal'] and r['rounds'] == 5, (rc, r, err))

rc, r, err = run(report(guest_shift=1000000))
expect('guest 1 ms late breaks it', rc == 1 and not r['causal'] and
       r['first_broken']['round'] == 0, (rc, r, err))
expect('the sure range holds the shift', r and r['error_range_ns'][0] <= 1000000 <=
       r['error_range_ns'][1], r)

rc, r, err = run(report(guest_shift=1000000), '--bound', '800000')
expect('within the stated bound', rc == 0 and r['within_bound'], (rc, r, err))
rc, r, err = run(report(guest_shift=1000000), '--bound', '500000')
expect('beyond the stated bound', rc == 1 and not r['within_bound'], (rc, r, err))

rc, r, err = run(report(guest_shift=-3600 * 10**9), '--estimate')
expect('estimate of unsynced clocks', rc == 0 and not r['causal'] and
       r['error_range_ns'][0] <= -3600 * 10**9 <= r['error_range_ns'][1], (rc, r, err))

rc, r, err = run(report(skip_guest=(0, 3)))
expect('rounds one file lacks', rc == 0 and r['rounds'] == 3 and r['host_only'] == [0, 3],
       (rc, r, err))

rc, r, err = run(report(guest_comm='<...>'))
expect('unknown names without --pid', rc == 2 and 'guest.dat' in err, (rc, r, err))
rc, r, err = run(report(guest_comm='<...>'), '--pid', '128')
expect('unknown names by --pid', rc == 0 and r['rounds'] == 5, (rc, r, err))

sys.exit(1 if failures else 0)

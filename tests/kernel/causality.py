#!/usr/bin/env python3
"""Cause before effect in a host's and a guest's recordings merged on one clock.

    causality.py --host NAME --guest NAME [--comm pingnet] [--estimate] [--json] [REPORT]

REPORT (default stdin) is a merged report of the two files, each line prefixed
with its file's name, as `trace-cmd report -i host.dat -i guest.dat` and
`tracekit report -i host.dat -i guest.dat` print it; NAME is a file's prefix
there (host.dat, or a --name).  The recordings hold tests/progs/pingnet's
syscalls: on the host `pingnet ping` (sys_enter_sendto, sys_exit_recvfrom), in
the guest `pingnet serve` (sys_exit_recvfrom, sys_enter_sendto).  Round i is
the i-th sendto of each side; in it the host sends, the guest receives,
answers, the host receives:

    H_send(i) < G_recv(i) <= G_send(i) < H_recv(i)

(G_recv(i) is the guest's last recvfrom return before its i-th sendto, H_recv(i)
the host's last before its next sendto.)  A merge whose guest clock is off by
more than a round allows breaks that order.  Each round bounds the correction
d the guest's times could still take: d > H_send - G_recv and d < H_recv -
G_send; over all rounds d lies in [lo, hi].  Causality holds when 0 lies in it;
the middle of [lo, hi] is the best correction, so its negative is the
estimated offset error of the merge (how far the guest's merged times run
ahead of the host's), half the width its uncertainty (about half a round trip).

Exit 0 when every round keeps the order (with --estimate: whenever the
rounds were found, the window then being the clock offset between two
unsynchronised recordings), 1 when one breaks it (the first is named), 2 when
the report lacks the rounds.
"""

import argparse
import json
import re
import sys

# FILE: COMM-PID [CPU] [FLAGS] SECONDS: EVENT: ...
LINE = re.compile(r'^\s*(?P<file>[^:\s]+(?::[^:\s]+)*?):\s+(?P<comm>.+?)-(?P<pid>\d+)\s+'
                  r'\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[\w:]+):')


def parse(lines, comm):
    """{file prefix: [(ns, event)]} of comm's sendto entries and recvfrom returns, in order."""
    found = {}
    for line in lines:
        m = LINE.match(line)
        if not m or m.group('comm') != comm:
            continue
        ev = m.group('event').split(':')[-1]
        if ev not in ('sys_enter_sendto', 'sys_exit_recvfrom'):
            continue
        sec, frac = m.group('ts').split('.')
        ns = int(sec) * 10**9 + int(frac.ljust(9, '0')[:9])
        found.setdefault(m.group('file'), []).append((ns, ev))
    return found


def rounds(events):
    """[(send ns, [recvfrom returns after it, before the next send])] in the file's order."""
    out = []
    for ns, ev in events:
        if ev == 'sys_enter_sendto':
            out.append((ns, []))
        elif out:
            out[-1][1].append(ns)
    return out


def guest_rounds(events):
    """[(last recvfrom return before this sendto, sendto ns)]."""
    out, last = [], None
    for ns, ev in events:
        if ev == 'sys_exit_recvfrom':
            last = ns
        elif last is not None:
            out.append((last, ns))
            last = None
    return out


def check(report, host, guest, comm):
    found = parse(report, comm)
    missing = [n for n in (host, guest) if not found.get(n)]
    if missing:
        return None, 'no %s sendto/recvfrom events of %s in the report (files there: %s)' % (
            comm, ' or '.join(missing), ', '.join(sorted(found)) or 'none')
    h = [(s, r[-1]) for s, r in rounds(found[host]) if r]
    g = guest_rounds(found[guest])
    n = min(len(h), len(g))
    if n == 0 or abs(len(h) - len(g)) > 1:
        return None, 'rounds do not pair: %d on the host, %d in the guest' % (len(h), len(g))
    lo = max(hs - gr for (hs, _), (gr, _) in zip(h, g))
    hi = min(hr - gs for (_, hr), (_, gs) in zip(h, g))
    broken = next((i for i, ((hs, hr), (gr, gs)) in enumerate(zip(h, g))
                   if not hs < gr <= gs < hr), None)
    res = {'rounds': n, 'window_ns': [lo, hi], 'offset_error_ns': -((lo + hi) // 2),
           'uncertainty_ns': (hi - lo) // 2, 'causal': broken is None}
    if broken is not None:
        (hs, hr), (gr, gs) = h[broken], g[broken]
        res['first_broken'] = {'round': broken, 'host_send': hs, 'guest_recv': gr,
                               'guest_send': gs, 'host_recv': hr}
    return res, None


def say(res):
    def us(ns):
        return '%+.1f us' % (ns / 1000) if abs(ns) < 10**9 else '%+.6f s' % (ns / 10**9)
    lo, hi = res['window_ns']
    print('%d rounds; the guest\'s times could move by %s .. %s and keep every round in order'
          % (res['rounds'], us(lo), us(hi)) if lo < hi else
          '%d rounds; no single shift of the guest\'s times puts every round in order '
          '(window %s .. %s)' % (res['rounds'], us(lo), us(hi)))
    print('estimated offset error of the merge: %s (+- %.1f us)' % (
        us(res['offset_error_ns']), res['uncertainty_ns'] / 1000))
    b = res.get('first_broken')
    if b:
        print('round %d out of order: host send %d, guest receive %d, guest answer %d, '
              'host receive %d (ns)' % (b['round'], b['host_send'], b['guest_recv'],
                                        b['guest_send'], b['host_recv']))


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--host', required=True)
    p.add_argument('--guest', required=True)
    p.add_argument('--comm', default='pingnet')
    p.add_argument('--estimate', action='store_true',
                   help='unsynchronised files: print the window, do not judge it')
    p.add_argument('--json', action='store_true')
    p.add_argument('report', nargs='?')
    a = p.parse_args()
    with (open(a.report, errors='replace') if a.report else sys.stdin) as f:
        res, err = check(f, a.host, a.guest, a.comm)
    if err:
        print('causality: %s' % err, file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(res))
    else:
        say(res)
    return 0 if a.estimate or res['causal'] else 1


if __name__ == '__main__':
    sys.exit(main())

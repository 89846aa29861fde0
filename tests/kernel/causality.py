#!/usr/bin/env python3
"""Cause before effect in a host's and a guest's recordings merged on one clock.

    causality.py --host NAME --guest NAME [--comm pingnet] [--pid PID]...
                 [--estimate | --bound NS] [--json] [REPORT]

REPORT (default stdin) is a merged report of the two files, each line prefixed
with its file's name, as `trace-cmd report -i host.dat -i guest.dat` and
`tracekit report -i host.dat -i guest.dat` print it; NAME is a file's prefix
there (host.dat, or a --name).  The recordings hold tests/progs/pingnet's
syscalls: on the host `pingnet ping` (sys_enter_sendto, sys_exit_recvfrom), in
the guest `pingnet serve` (sys_exit_recvfrom, sys_enter_sendto), found by their
command name or, where a file does not know it ("<...>": a streamed file's
command names are those known when the recording started), by --pid.  Round i's
message is 64 + i bytes long both ways (pingnet.c), so the sendto's len names
the round in each file, whatever a file missed.  In round i the host sends,
the guest receives, answers, the host receives:

    H_send(i) < G_recv(i) <= G_send(i) < H_recv(i)

(G_recv(i) is the guest's last recvfrom return before its sendto of round i,
H_recv(i) the host's last before its next sendto.)  Rounds only one file has
are named.  A merge whose guest clock is off by
more than a round allows breaks that order.  Each round bounds the correction
d the guest's times could still take: d > H_send - G_recv and d < H_recv -
G_send; over all rounds d lies in [lo, hi].  Causality holds when 0 lies in it;
the middle of [lo, hi] is the best correction, so its negative is the
estimated offset error of the merge (how far the guest's merged times run
ahead of the host's), half the width its uncertainty (about half a round trip).
The error itself lies in (-hi, -lo) for sure: messages take no negative time.

A time sync states its own error (ptp: half the round trip of its least sure
sample, B); when
the rounds are out of order but (-hi, -lo) meets [-B, B], the merge is as good
as its sync says, only not good enough for these rounds: --bound B accepts
that, and says so.

Exit 0 when every round keeps the order (with --estimate: whenever the
rounds were found, the window then being the clock offset between two
unsynchronised recordings), 1 when one breaks it (the first is named), 2 when
the report lacks the rounds.
"""

import argparse
import json
import re
import sys

BASE = 64
# FILE: COMM-PID [CPU] [FLAGS] SECONDS: EVENT: ...
LINE = re.compile(r'^\s*(?P<file>[^:\s]+(?::[^:\s]+)*?):\s+(?P<comm>.+?)-(?P<pid>\d+)\s+'
                  r'\[(?P<cpu>\d+)\]\s+(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<event>[\w:]+):')
LEN = re.compile(r'\blen: (0x[0-9a-fA-F]+|\d+)')


def parse(lines, comm, pids=()):
    """{file prefix: [(ns, event, len)]}: comm's sendto entries and recvfrom returns, in order."""
    found = {}
    for line in lines:
        m = LINE.match(line)
        if not m or (m.group('comm') != comm and m.group('pid') not in pids):
            continue
        ev = m.group('event').split(':')[-1]
        if ev not in ('sys_enter_sendto', 'sys_exit_recvfrom'):
            continue
        sec, frac = m.group('ts').split('.')
        ns = int(sec) * 10**9 + int(frac.ljust(9, '0')[:9])
        n = None
        if ev == 'sys_enter_sendto':
            lm = LEN.search(line)
            n = int(lm.group(1), 0) - BASE if lm else None
        found.setdefault(m.group('file'), []).append((ns, ev, n))
    return found


def host_rounds(events):
    """{round: (its sendto, the last recvfrom return after it, before the next sendto)}."""
    sends, recvs, cur = {}, {}, None
    for ns, ev, n in events:
        if ev == 'sys_enter_sendto':
            cur = n
            if n is not None:
                sends[n] = ns
        elif cur is not None:
            recvs[cur] = ns
    return {n: (sends[n], recvs[n]) for n in sends if n in recvs}


def guest_rounds(events):
    """{round: (last recvfrom return before its sendto, the sendto)}."""
    out, last = {}, None
    for ns, ev, n in events:
        if ev == 'sys_exit_recvfrom':
            last = ns
        elif last is not None and n is not None:
            out[n] = (last, ns)
            last = None
    return out


def check(report, host, guest, comm, pids=()):
    found = parse(report, comm, pids)
    missing = [n for n in (host, guest) if not found.get(n)]
    if missing:
        return None, 'no %s sendto/recvfrom events of %s in the report (files there: %s)' % (
            comm, ' or '.join(missing), ', '.join(sorted(found)) or 'none')
    hr_, gr_ = host_rounds(found[host]), guest_rounds(found[guest])
    both = sorted(set(hr_) & set(gr_))
    if not both:
        return None, 'no round in both files (%d on the host, %d in the guest)' % (
            len(hr_), len(gr_))
    h = [hr_[i] for i in both]
    g = [gr_[i] for i in both]
    lo = max(hs - gr for (hs, _), (gr, _) in zip(h, g))
    hi = min(hr - gs for (_, hr), (_, gs) in zip(h, g))
    broken = next((i for i, ((hs, hr), (gr, gs)) in zip(both, zip(h, g))
                   if not hs < gr <= gs < hr), None)
    res = {'rounds': len(both), 'window_ns': [lo, hi], 'offset_error_ns': -((lo + hi) // 2),
           'error_range_ns': [-hi, -lo],
           'uncertainty_ns': (hi - lo) // 2, 'causal': broken is None,
           'host_only': sorted(set(hr_) - set(gr_)), 'guest_only': sorted(set(gr_) - set(hr_))}
    if broken is not None:
        (hs, hr), (gr, gs) = hr_[broken], gr_[broken]
        res['first_broken'] = {'round': broken, 'host_send': hs, 'guest_recv': gr,
                               'guest_send': gs, 'host_recv': hr}
    return res, None


def within(res, bound):
    """The error's sure range meets the sync's stated [-bound, bound]."""
    lo, hi = res['error_range_ns']
    return lo <= bound and hi >= -bound


def say(res, bound=None):
    def us(ns):
        return '%+.1f us' % (ns / 1000) if abs(ns) < 10**9 else '%+.6f s' % (ns / 10**9)
    lo, hi = res['window_ns']
    print('%d rounds; the guest\'s times could move by %s .. %s and keep every round in order'
          % (res['rounds'], us(lo), us(hi)) if lo < hi else
          '%d rounds; no single shift of the guest\'s times puts every round in order '
          '(window %s .. %s)' % (res['rounds'], us(lo), us(hi)))
    print('estimated offset error of the merge: %s (+- %.1f us)' % (
        us(res['offset_error_ns']), res['uncertainty_ns'] / 1000))
    for side in ('host', 'guest'):
        if res[side + '_only']:
            print('rounds only the %s\'s file has: %s' % (
                side, ' '.join(str(i) for i in res[side + '_only'])))
    b = res.get('first_broken')
    if b and bound is not None:
        print('the error lies in %s .. %s: %s the time sync\'s stated +- %.1f us' % (
            us(res['error_range_ns'][0]), us(res['error_range_ns'][1]),
            'within' if within(res, bound) else 'BEYOND', bound / 1000))
    if b:
        print('round %d out of order: host send %d, guest receive %d, guest answer %d, '
              'host receive %d (ns)' % (b['round'], b['host_send'], b['guest_recv'],
                                        b['guest_send'], b['host_recv']))


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--host', required=True)
    p.add_argument('--guest', required=True)
    p.add_argument('--comm', default='pingnet')
    p.add_argument('--pid', action='append', default=[],
                   help="pingnet's pid where the file names it <...> (repeatable)")
    p.add_argument('--estimate', action='store_true',
                   help='unsynchronised files: print the window, do not judge it')
    p.add_argument('--bound', type=int, metavar='NS',
                   help="out of order is accepted while within the sync's stated error")
    p.add_argument('--json', action='store_true')
    p.add_argument('report', nargs='?')
    a = p.parse_args()
    with (open(a.report, errors='replace') if a.report else sys.stdin) as f:
        res, err = check(f, a.host, a.guest, a.comm, a.pid)
    if err:
        print('causality: %s' % err, file=sys.stderr)
        return 2
    if a.bound is not None:
        res['within_bound'] = within(res, a.bound)
    if a.json:
        print(json.dumps(res))
    else:
        say(res, a.bound)
    if a.estimate or res['causal']:
        return 0
    return 0 if a.bound is not None and res['within_bound'] else 1


if __name__ == '__main__':
    sys.exit(main())

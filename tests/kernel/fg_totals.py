#!/usr/bin/env python3
"""Per-function calls and total ns from `trace-cmd report` text of a function_graph
recording, against `tracekit calls --json --top 0` (the kernel lab's ftrace-calls case).

    fg_totals.py REPORT.txt CALLS.json

A nested entry opens its function at its depth (per task); a "}" at that depth closes
it with the printed duration; a leaf line carries its own.  The printed durations have
nanosecond resolution, so the totals must be equal, not close.  Prints the first
difference and exits 1, or prints how many functions agree.
"""

import json
import re
import sys

LINE = re.compile(r'^\s*(\S.*?)-(\d+)\s+\[\d+\]\s+[\d.]+: funcgraph_(entry|exit):\s+[+!#$ ]?\s*'
                  r'(?:([\d.]+) us\s+)?\|  ( *)(.*)$')


def totals(path):
    open_at = {}
    tot = {}
    for line in open(path, errors='replace'):
        m = LINE.match(line)
        if not m:
            continue
        pid, dur, depth, what = m.group(2), m.group(4), len(m.group(5)) // 2, m.group(6)
        stack = open_at.setdefault(pid, {})
        if what.endswith('() {'):
            stack[depth] = what[:-4]
            continue
        if what == '}':
            name = stack.pop(depth, None)
            if name is None:
                continue    # its entry came before the recording: trace-cmd does not say which
        else:
            name = what[:-3]
        ns = int(round(float(dur) * 1000))
        calls, total = tot.get(name, (0, 0))
        tot[name] = (calls + 1, total + ns)
    return tot


def main():
    theirs = totals(sys.argv[1])
    ours = {f['function']: (f['calls'], f['total_ns']) for f in json.load(open(sys.argv[2]))['functions']}
    if not theirs:
        print('no function_graph lines in %s' % sys.argv[1])
        return 1
    for name, (calls, total) in sorted(theirs.items()):
        if ours.get(name) != (calls, total):
            print('%s: trace-cmd report says %d calls, %d ns; tracekit calls says %r'
                  % (name, calls, total, ours.get(name)))
            return 1
    extra = set(ours) - set(theirs)
    if extra:
        print('only tracekit calls has: %s' % ', '.join(sorted(extra)))
        return 1
    print('%d functions agree' % len(theirs))
    return 0


if __name__ == '__main__':
    sys.exit(main())

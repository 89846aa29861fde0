#!/usr/bin/env python3
"""Per-function calls and total ns from `trace-cmd report` text of a function_graph
recording, against `tracekit calls --json --top 0` (the kernel lab's ftrace-calls case).

    fg_totals.py REPORT.txt CALLS.json

A nested entry opens its function at its depth (per task); a "}" at that depth closes
it with the printed duration; a leaf line carries its own.  The printed durations have
nanosecond resolution, so the totals must be equal, not close.  An exit whose entry is
not in the file (before the recording, or lost) does not say its function in trace-cmd's
text (nor, after lost events, does one whose entry came before them); tracekit names it from
the exit event, so the calls and time tracekit has beyond
trace-cmd's must be exactly those exits'.  Prints the first difference and exits 1, or
prints how many functions agree.
"""

import json
import re
import sys

LINE = re.compile(r'^\s*(\S.*?)-(\d+)\s+\[\d+\]\s+[\d.]+: funcgraph_(entry|exit):\s+[+!#$ ]?\s*'
                  r'(?:([\d.]+) us\s+)?\|  ( *)(.*)$')


def totals(path):
    """{function: (calls, ns)} and (calls, ns) of exits whose entry is missing."""
    open_at = {}
    tot = {}
    orphans = [0, 0]
    for line in open(path, errors='replace'):
        if 'EVENTS DROPPED]' in line:
            open_at.clear()     # the calls open before lost events may have lost their exits
            continue
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
                orphans[0] += 1
                orphans[1] += int(round(float(dur) * 1000))
                continue
        else:
            name = what[:-3]
        ns = int(round(float(dur) * 1000))
        calls, total = tot.get(name, (0, 0))
        tot[name] = (calls + 1, total + ns)
    return tot, orphans


def main():
    theirs, orphans = totals(sys.argv[1])
    ours = {f['function']: (f['calls'], f['total_ns']) for f in json.load(open(sys.argv[2]))['functions']}
    if not theirs:
        print('no function_graph lines in %s' % sys.argv[1])
        return 1
    extra = [0, 0]
    for name in sorted(set(ours) | set(theirs)):
        oc, ot = ours.get(name, (0, 0))
        tc, tt = theirs.get(name, (0, 0))
        if oc < tc or ot < tt or (not orphans[0] and (oc, ot) != (tc, tt)):
            print('%s: trace-cmd report says %d calls, %d ns; tracekit calls says %d, %d'
                  % (name, tc, tt, oc, ot))
            return 1
        extra[0] += oc - tc
        extra[1] += ot - tt
    if extra != orphans:
        print('tracekit calls has %d calls, %d ns more than trace-cmd report\'s lines; '
              'the exits without an entry are %d calls, %d ns' % (*extra, *orphans))
        return 1
    print('%d functions agree' % len(theirs))
    return 0


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/env python3
"""function_graph calls as nested slices in tracekit export's files, against
`tracekit calls --json` on the same recording (the kernel lab's ftrace-export case).

    fg_slices.py CHROME.json PERFETTO.pftrace CALLS.json

In both files, per thread, every slice end closes the latest open slice, and the
slices opened per name are the calls `calls` counts (a call whose entry came before
the recording is an instant, not a slice, so counts may only be smaller by those).
Prints how many slices nest and exits 0, or prints the first problem and exits 1.
"""

import collections
import json
import os
import sys

sys.dont_write_bytecode = True    # the lab's checkout is the host's: leave no __pycache__
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'e2e'))
from test_export import decode_perfetto  # noqa: E402

TYPE_BEGIN, TYPE_END = 1, 2


def nest(events):
    """events: (thread, 'B'|'E', name) in order; the names opened, or a problem string."""
    stacks = collections.defaultdict(list)
    opened = collections.Counter()
    depth = 0
    for thread, ph, name in events:
        if ph == 'B':
            stacks[thread].append(name)
            opened[name] += 1
            depth = max(depth, len(stacks[thread]))
        elif not stacks[thread]:
            return 'an end with no open slice on thread %s' % thread
        else:
            stacks[thread].pop()
    return opened, depth


def main():
    chrome = json.load(open(sys.argv[1]))
    chrome = chrome['traceEvents'] if isinstance(chrome, dict) else chrome
    ce = [(e['tid'], e['ph'], e.get('name')) for e in chrome if e.get('ph') in ('B', 'E')]
    pf = decode_perfetto(open(sys.argv[2], 'rb').read())
    pe = [(track, 'B' if kind == TYPE_BEGIN else 'E', name)
          for _, kind, track, name in pf['track_events'] if kind in (TYPE_BEGIN, TYPE_END)]
    calls = collections.Counter()
    for f in json.load(open(sys.argv[3]))['functions']:
        calls[f['function']] += f['calls']
    for what, events in (('chrome', ce), ('perfetto', pe)):
        r = nest(events)
        if isinstance(r, str):
            print('%s: %s' % (what, r))
            return 1
        opened, depth = r
        if depth < 2:
            print('%s: slices never nest (depth %d)' % (what, depth))
            return 1
        for name, n in opened.items():
            if n > calls[name]:
                print('%s: %d %s slices, but calls counts %d calls' % (what, n, name, calls[name]))
                return 1
        missing = sum(calls.values()) - sum(opened.values())
        print('%s: %d slices nest %d deep (%d calls without their entry)'
              % (what, sum(opened.values()), depth, missing))
    return 0


if __name__ == '__main__':
    sys.exit(main())

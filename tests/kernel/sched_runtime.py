#!/usr/bin/env python3
"""sched4's threads: the run time of the spans `tracekit sched` computes against the
kernel's own counts (the kernel lab's sched-runtime case; test_sched.py's
run-time-equals-the-kernels-count on the development kernel).

    sched_runtime.py TRACEKIT TRACE.dat SCHED4-OUTPUT.txt [STEAL_MS]

sched4 prints, per thread as it ends, its tid and CLOCK_THREAD_CPUTIME_ID.  For each of
its four threads: its whole life is in the trace; its run time on the kernel's clock is
its sched_stat_runtime sum within 2% or 1 ms (switch to switch differs where the kernel
skipped a clock update: both are printed); and the run time on the kernel's clock up to
the moment the thread read its CPU clock (its clock_gettime's exit) is that reading, within
2% or 1 ms.  STEAL_MS:
time the hypervisor stole meanwhile, which a kernel with CONFIG_PARAVIRT_TIME_ACCOUNTING
leaves out of its task clock (the spans may exceed the kernel's count by that much).  No
thread above one CPU, no process above the CPUs.  Prints a line per thread; exits 1 with
the misses.
"""

import json
import re
import subprocess
import sys


def agrees(ms, kernel_ms, steal_ms=0.0):
    ms -= max(0.0, min(ms - kernel_ms, steal_ms))
    return abs(ms - kernel_ms) <= 1.0 or abs(ms - kernel_ms) <= 0.02 * kernel_ms


def sched(tk, dat, *args):
    out = subprocess.run([tk, 'sched', '--json', dat] + list(args), capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)


def threads_of(doc):
    return {t['tid']: t for p in doc['processes'] for t in p['threads_detail']}


def read_at(tk, dat, tids):
    """When each thread read the CPU clock it printed: the exit of its last clock_gettime
    (raw_syscalls sys_exit NR 228, where the kernel computed the value) before its write of
    the line (sys_enter NR 1 on fd 1)."""
    out = subprocess.run([tk, 'report', '-F', 'sys_enter: id == 1', '-F', 'sys_exit: id == 228',
                          dat], capture_output=True, text=True, check=True).stdout
    last_read, at = {}, {}
    for line in out.splitlines():
        m = re.match(r'\s*\S+-(\d+)\s+\[\d+\]\s+(\d+\.\d+): (sys_enter|sys_exit):\s+NR (\d+) (.)',
                     line)
        if not m or int(m.group(1)) not in tids:
            continue
        tid, ts, kind, nr = int(m.group(1)), m.group(2), m.group(3), int(m.group(4))
        if kind == 'sys_exit' and nr == 228:
            last_read[tid] = ts
        elif kind == 'sys_enter' and nr == 1 and line.rstrip().split('NR 1 (')[-1].startswith('1,'):
            if tid in last_read:
                at[tid] = last_read[tid]
    return at


def main(tk, dat, out_path, steal_ms=0.0):
    own = {}
    for line in open(out_path):
        m = re.match(r'tid (\d+) (\w+) cpu_ns (\d+)$', line.strip())
        if m:
            own[int(m.group(1))] = (m.group(2), int(m.group(3)) / 1e6)
    if len(own) != 4:
        sys.exit('sched4 printed %d threads, not 4' % len(own))
    doc = sched(tk, dat)
    threads = threads_of(doc)
    at = read_at(tk, dat, set(own))
    bad = []
    for tid, (name, cpu_ms) in sorted(own.items()):
        t = threads.get(tid)
        if not t or not t.get('whole_life'):
            sys.exit('%s:%d is not compared: %r' % (name, tid, t))
        k, run, like = t['kernel_runtime_ms'], t['runtime_ms'], t['kernel_clock_runtime_ms']
        upto = None
        if tid in at:
            upto = threads_of(sched(tk, dat, '--to', at[tid]))[tid]['kernel_clock_runtime_ms']
        print('%-8s %5d  switch to switch %9.3f ms (%+.2f%%)  kernel clock %9.3f ms (%+.2f%%)  '
              'sched_stat_runtime %9.3f ms  CLOCK_THREAD_CPUTIME_ID %9.3f ms, kernel clock '
              'until then %s ms' % (name, tid, run, 100 * (run - k) / k, like,
                                    100 * (like - k) / k, k, cpu_ms,
                                    '%.3f' % upto if upto is not None else '?'))
        if not agrees(like, k, steal_ms):
            bad.append('%s:%d on the kernel clock %.3f ms, sched_stat_runtime %.3f ms' %
                       (name, tid, like, k))
        if upto is None or not agrees(upto, cpu_ms, steal_ms):
            bad.append('%s:%d CLOCK_THREAD_CPUTIME_ID %.3f ms, the spans until it read it %s ms'
                       % (name, tid, cpu_ms, upto))
        if t['parallelism'] > 1 + 1e-9:
            bad.append('%s:%d above one CPU: %.4f' % (name, tid, t['parallelism']))
    for p in doc['processes']:
        if p['runtime_ms'] > p['wall_ms'] * len(doc['cpus']) + 1e-6:
            bad.append('%s:%d ran %.3f ms in %.3f ms wall on %d CPUs' %
                       (p['comm'], p['pid'], p['runtime_ms'], p['wall_ms'], len(doc['cpus'])))
    print('runtime_check: %s' % json.dumps(doc['runtime_check']))
    if bad:
        sys.exit('\n'.join(bad))


if __name__ == '__main__':
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]) if len(sys.argv) == 5 else 0.0)

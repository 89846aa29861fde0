#!/usr/bin/env python3
"""e2e tests of `tracekit sched` on recordings of the bundled busy program.

    test_sched.py CASE --progs DIR      # run one case (DIR: the built tests/progs)
    test_sched.py --list                # the case names

busy N MS starts N threads that each spin for MS ms of CPU time, so the
figures have known answers: each worker runs MS ms; pinned to one CPU, at most
one runs at a time and each waits for the others.  perf (Debian's linux-perf)
records the same run alongside, for `perf sched latency` as the oracle.
"""

import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import (Fail, Skip, case, expect, finish, instances_of, main, run, start,  # noqa: E402
                    tracefs, tracekit)

OPTIONS = {}
SPIN_MS = 150


class Env:
    def __init__(self):
        self.root = tracefs()
        self.dir = tempfile.mkdtemp(prefix='tk-sched-')
        self.out = os.path.join(self.dir, 'trace.dat')

    def record(self, *command, wrap=()):
        argv = list(wrap) + [tracekit(), 'record', '-o', self.out] + list(command)
        p = start(argv, cwd=self.dir)
        rc, out, err = finish(p, 120)
        expect(rc == 0, 'record failed (%d): %s' % (rc, err.strip()))
        if not wrap:    # wrapped, tracekit's pid is not p's
            left = instances_of(self.root, p.pid)
            expect(not left, 'instances left behind: %r' % left)
        return out

    def sched(self, *args):
        rc, out, err = run([tracekit(), 'sched', '-i', self.out] + list(args))
        expect(rc == 0, 'sched failed (%d): %s' % (rc, err.strip()))
        return out

    def sched_json(self, *args):
        doc = json.loads(self.sched('--json', *args))
        expect(len(doc['processes']) >= 1, 'no process in %s' % doc)
        return doc

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def with_env(fn):
    # These cases measure real scheduling on a shared machine: a run disturbed by something
    # else gets one more try on a fresh recording, with the same assertions.
    def run_case(_):
        for attempt in (1, 2):
            env = Env()
            try:
                fn(env)
                return
            except Fail as e:
                if attempt == 2:
                    raise
                print('retrying after: %s' % e)
            finally:
                env.close()
    run_case.__name__ = fn.__name__
    return case(run_case)


def busy():
    return os.path.join(OPTIONS['progs'], 'busy')


def workers(proc, n):
    """The threads that spun: the ones that ran close to SPIN_MS (the main thread barely runs)."""
    w = [t for t in proc['threads_detail'] if t['runtime_ms'] > SPIN_MS / 2]
    expect(len(w) == n, 'expected %d busy threads, got %r' % (n, proc['threads_detail']))
    return w


def hist_mean(proc):
    """Mean threads running, from the histogram: must equal run time / wall time."""
    h = proc['parallelism_hist_ms']
    total = sum(h)
    return sum(k * v for k, v in enumerate(h)) / total if total else 0


@with_env
def pinned_one_cpu(env):
    env.record('taskset', '-c', '0', busy(), '4', str(SPIN_MS))
    doc = env.sched_json()
    expect(doc['selected_by'] == 'the command recorded', 'selected by %s' % doc['selected_by'])
    p = doc['processes'][0]
    expect(p['comm'] == 'busy', 'the command is busy, not %r' % p['comm'])
    expect(p['threads'] == 5, 'main + 4 threads, got %d' % p['threads'])
    for t in workers(p, 4):
        expect(abs(t['runtime_ms'] - SPIN_MS) < SPIN_MS * 0.1,
               'thread %d ran %.1f ms, spun %d' % (t['tid'], t['runtime_ms'], SPIN_MS))
        # Three others share the CPU: each waits about twice its own run time or more.
        expect(t['wait_ms'] > SPIN_MS, 'thread %d waited only %.1f ms' % (t['tid'], t['wait_ms']))
        expect(t['involuntary_switches'] > 0, 'thread %d never preempted' % t['tid'])
        expect(t['cpus_used'] == 1, 'thread %d ran on %d CPUs' % (t['tid'], t['cpus_used']))
    expect(p['parallelism'] <= 1.02, 'parallelism %.3f on one CPU' % p['parallelism'])
    expect(all(v == 0 for v in p['parallelism_hist_ms'][2:]),
           'two threads ran at once on one CPU: %r' % p['parallelism_hist_ms'])
    expect(abs(hist_mean(p) - p['parallelism']) < 0.05,
           'histogram mean %.3f vs parallelism %.3f' % (hist_mean(p), p['parallelism']))
    # CPU 0 was busy at least while the four threads spun there (the window also holds the
    # recording's start and end, when it may idle).
    busy_ms = doc['cpus'][0]['busy_pct'] * doc['window_ms'] / 100
    expect(busy_ms >= 4 * SPIN_MS * 0.95, 'CPU 0 busy %.1f ms for 4 x %d ms of spinning' %
           (busy_ms, SPIN_MS))
    text = env.sched()
    expect('process busy (pid %d), 5 threads' % p['pid'] in text, 'text: no process line')
    expect('parallelism' in text and 'longest wakeup latencies' in text, 'text: sections')


@with_env
def two_threads_two_cpus(env):
    env.record('taskset', '-c', '0,1', busy(), '2', str(SPIN_MS * 2))
    doc = env.sched_json()
    p = doc['processes'][0]
    w = workers(p, 2)
    expect(abs(hist_mean(p) - p['parallelism']) < 0.05,
           'histogram mean %.3f vs parallelism %.3f' % (hist_mean(p), p['parallelism']))
    # The CPUs are shared with whatever else runs: what the workers could not get went to
    # others.  The parallelism must match the CPU time left over for busy.
    others = sum(t['ms'] for c in doc['cpus'] for t in c['tasks']
                 if t['pid'] not in [x['tid'] for x in p['threads_detail']])
    free = 2 - others / doc['window_ms']
    print('parallelism %.2f, CPU time left by others %.2f CPUs' % (p['parallelism'], free))
    expect(p['parallelism'] > min(1.7, free - 0.3),
           'parallelism %.2f with %.2f CPUs free' % (p['parallelism'], free))
    expect(max(t['cpus_used'] for t in w) >= 1, 'threads ran nowhere')
    # Each spun SPIN_MS * 2 of its own CPU time.  Some kernels record no switch out of idle
    # (this VM's CPU 1): the run time must still be all there, switch-ins placed at wakeups.
    for t in w:
        expect(abs(t['runtime_ms'] - SPIN_MS * 2) < SPIN_MS * 0.2,
               'thread %d ran %.1f ms, spun %d' % (t['tid'], t['runtime_ms'], SPIN_MS * 2))


@with_env
def perf_agrees(env):
    if not shutil.which('perf'):
        raise Skip('perf is not installed (apt-get install linux-perf)')
    pdata = os.path.join(env.dir, 'perf.data')
    env.record('taskset', '-c', '0', busy(), '3', str(SPIN_MS),
               wrap=('perf', 'sched', 'record', '-o', pdata, '--'))
    rc, out, err = run(['perf', 'sched', 'latency', '-p', '-i', pdata], timeout=120)
    expect(rc == 0, 'perf sched latency failed: %s' % err.strip())
    perf = {}
    for line in out.splitlines():
        cols = [c.strip() for c in line.split('|')]
        if len(cols) > 5 and cols[0].startswith('busy:'):
            tid = int(cols[0].split(':')[1])
            # "max:   1.234 ms", or with no space when the number is long
            perf[tid] = (float(cols[1].split()[0]), int(cols[2]),
                         float(re.search(r'max:\s*([\d.]+)', cols[4]).group(1)))
    # latency's runtime sums sched_stat_runtime, the scheduler's task clock, which leaves
    # out interrupt and (in a VM) steal time; ours is switch to switch like timehist's.
    rc, out, err = run(['perf', 'sched', 'timehist', '-s', '-i', pdata], timeout=120)
    expect(rc == 0, 'perf sched timehist failed: %s' % err.strip())
    wall = {}
    for line in out.splitlines():
        m = re.match(r'\s*busy\[(\d+)(?:/\d+)?\]\s+\d+\s+\d+\s+([\d.]+)\s', line)
        if m:
            wall[int(m.group(1))] = float(m.group(2))
    doc = env.sched_json()
    for t in workers(doc['processes'][0], 3):
        expect(t['tid'] in perf and t['tid'] in wall,
               'perf has no line for %d: %r %r' % (t['tid'], perf, wall))
        _, switches, max_ms = perf[t['tid']]
        run_ms = wall[t['tid']]
        # Same measure; a loaded machine can make either recording lose an event.
        slack = 0.02 if not doc['lost_events'] else 0.05
        expect(abs(t['runtime_ms'] - run_ms) < max(1.0, run_ms * slack),
               'tid %d runtime %.3f vs perf timehist %.3f (%d lost)' %
               (t['tid'], t['runtime_ms'], run_ms, doc['lost_events']))
        expect(abs(t['switches'] - switches) <= max(3, switches * 0.05),
               'tid %d switches %d vs perf %d' % (t['tid'], t['switches'], switches))
        expect(abs(t['max_wait_ms'] - max_ms) < 0.05,
               'tid %d max wait %.3f vs perf max delay %.3f' % (t['tid'], t['max_wait_ms'],
                                                               max_ms))


@with_env
def causes_name_siblings_and_syscalls(env):
    # Three spinners on one CPU wait behind each other; the main thread sleeps in
    # pthread_join, a futex, all along.  With syscalls recorded the causes say so.
    env.record('-e', 'sched', '-e', 'raw_syscalls', 'taskset', '-c', '0', busy(), '3',
               str(SPIN_MS // 3))
    doc = env.sched_json()
    p = doc['processes'][0]
    expect(p['syscalls_traced'] is True, 'syscalls_traced is false')
    causes = p['off_cpu_causes']
    sleeps = [c for c in causes if c['cause'] == 'sleep']
    waits = [c for c in causes if c['cause'] == 'wait']
    # Every ms off a CPU has one cause: the causes add up to the state times.
    expect(abs(sum(c['ms'] for c in sleeps) - p['sleep_ms'] - p['blocked_ms']) < 0.05,
           'sleep causes %.3f vs sleep+blocked %.3f' % (sum(c['ms'] for c in sleeps),
                                                        p['sleep_ms'] + p['blocked_ms']))
    expect(abs(sum(c['ms'] for c in waits) - p['wait_ms']) < max(0.5, p['wait_ms'] * 0.02),
           'wait causes %.3f vs wait %.3f' % (sum(c['ms'] for c in waits), p['wait_ms']))
    top_sleep = max(sleeps, key=lambda c: c['ms'])
    expect(top_sleep['syscall'] == 'futex' and top_sleep['futex'].startswith('0x') and
           top_sleep['ms'] > SPIN_MS * 0.5, 'longest sleep: %r' % top_sleep)
    # That futex is pthread_join's: its word holds a spinner's tid.
    spinners = {t['tid'] for t in p['threads_detail'] if t['tid'] != p['pid']}
    expect(top_sleep['kind'] == 'join' and top_sleep['joined_tid'] in spinners,
           'the join is not told: %r' % top_sleep)
    # Each spinner waits while its two siblings spin: other load on the CPU may add more.
    siblings = sum(c['ms'] for c in waits if c['same_process'])
    expect(siblings > SPIN_MS / 3, 'waits behind siblings %.1f ms: %r' % (siblings, waits[:5]))
    text = env.sched()
    expect('to exit (a join, futex on 0x' in text and '(same process)' in text,
           'text: %s' % text[:1500])
    # The verdict leads with the biggest share of the wait: behind each other when the
    # siblings held the CPU for most of it, whoever else held it for a moment.
    others = sum(c['ms'] for c in waits if not c['same_process'])
    lead = 'mostly behind each other' in text.splitlines()[0]
    expect(lead == (siblings >= others), 'verdict %r with %.1f ms behind siblings, %.1f ms '
           'behind others' % (text.splitlines()[0], siblings, others))


@with_env
def scaling_example_explains_itself(env):
    # The README's walk-through: 4 threads sharing work and a mutex on 2 CPUs.
    scaling = os.path.join(OPTIONS['progs'], '..', '..', 'examples', 'scaling')
    env.record('-e', 'sched', '-e', 'raw_syscalls', scaling, '4', '200', '50', '100')
    doc = env.sched_json()
    p = doc['processes'][0]
    # 4 workers and main (a sanitized build adds its own thread).
    expect(p['comm'] == 'scaling' and p['threads'] >= 5, 'process %s, %d threads' %
           (p['comm'], p['threads']))
    expect(p['parallelism'] < 4, 'parallelism %.2f' % p['parallelism'])
    causes = p['off_cpu_causes']
    futex = [c for c in causes if c['cause'] == 'sleep' and c['syscall'] == 'futex']
    expect(futex and sum(c['ms'] for c in futex) > 0, 'no futex sleeps: %r' % causes[:6])
    expect(any(c['cause'] == 'wait' and c['same_process'] for c in causes) or
           doc['cpus'] and len(doc['cpus']) > 4, 'no wait behind a sibling: %r' % causes[:6])
    # main's pthread_join is a join on a worker, the mutex is the program's `lock`.
    tids = {t['tid'] for t in p['threads_detail']}
    # (a wait4 join is a child's exit: the sanitizer's leak check forks one at exit)
    joins = [c for c in causes if c['kind'] == 'join' and c.get('syscall') == 'futex']
    expect(joins and all(c.get('joined_tid') in tids and c['joined_tid'] != p['pid']
                         for c in joins), 'joins: %r' % joins)
    locks = [c for c in causes if c['kind'] == 'lock']
    expect(locks and locks[0]['symbol'] == 'lock', 'locks: %r' % locks[:3])
    expect(all(c['kind'] == 'cpu' for c in causes if c['cause'] == 'wait'), 'cpu kinds')
    text = env.sched()
    # 4 workers (a sanitized build adds the sanitizer's threads)
    expect(re.match(r'[4-9] threads of scaling reached \d+\.\d\d CPUs on average: \d+% of their '
                    r'time they .*; \d+ ms on the lock `lock`\n', text), 'verdict: %s' % text[:300])
    expect('time its threads were off a CPU, by cause' in text, 'text: %s' % text[:1200])
    lines = text.splitlines()
    expect(p['verdict'] == lines[0], 'json verdict %r, text %r' % (p['verdict'], lines[0]))
    at = [i for i, line in enumerate(lines) if 'on the lock `lock`' in line and ' ms  ' in line]
    after = [i for i, line in enumerate(lines) if 'to exit (a join' in line]
    expect(at and (not after or at[0] < after[0]), 'the lock is not listed before the join:\n%s' %
           text)


@with_env
def run_time_fits_the_cpus(env):
    # A task runs on one CPU at a time, a CPU runs one task: whatever switches the kernel
    # left out, no task is credited more run time than the window and no CPU is over 100%.
    scaling = os.path.join(OPTIONS['progs'], '..', '..', 'examples', 'scaling')
    env.record('-e', 'sched', '-e', 'raw_syscalls', scaling, '4', '200', '50', '100')
    doc = env.sched_json()
    window = doc['window_ms']
    per_task = {}
    for c in doc['cpus']:
        expect(c['busy_pct'] <= 100.0001, 'CPU %d busy %.3f%%' % (c['cpu'], c['busy_pct']))
        expect(abs(sum(t['ms'] for t in c['tasks']) - c['busy_pct'] * window / 100) < 0.01,
               'CPU %d: its tasks do not add up to its busy time' % c['cpu'])
        for t in c['tasks']:
            per_task[t['pid']] = per_task.get(t['pid'], 0) + t['ms']
    for pid, ran in per_task.items():
        expect(ran <= window + 1e-6, 'task %d ran %.3f ms in a %.3f ms window' % (pid, ran, window))
    for p in doc['processes']:
        for t in p['threads_detail']:
            expect(t['runtime_ms'] <= window + 1e-6 and
                   abs(t['runtime_ms'] - per_task.get(t['tid'], 0)) < 0.01,
                   'thread %d: run %.3f ms, on its CPUs %.3f ms, window %.3f ms' %
                   (t['tid'], t['runtime_ms'], per_task.get(t['tid'], 0), window))


@with_env
def follow_command_says_cpus_incomplete(env):
    env.record('-F', busy(), '2', '50')
    text = env.sched()
    expect('only switches involving the traced tasks exist' in text, 'no -F note: %s' % text)
    doc = env.sched_json()
    expect(doc['complete_cpus'] is False and doc['follow'] == 'command', 'json: %r' % doc['follow'])
    expect(doc['processes'][0]['comm'] == 'busy', 'the command is busy')


@with_env
def switch_only_says_what_is_missing(env):
    env.record('-e', 'sched:sched_switch', busy(), '2', '50')
    doc = env.sched_json()
    expect(set(doc['missing_events']) >= {'sched_wakeup', 'sched_process_exec',
                                          'sched_process_fork'},
           'missing: %r' % doc['missing_events'])
    expect(doc['wakeup_event'] == '', 'wakeup event %r' % doc['wakeup_event'])
    # No exec events: the command is found by its name; no fork events: each thread alone.
    names = [p['comm'] for p in doc['processes']]
    expect(names and all(n == 'busy' for n in names), 'processes %r' % names)
    ran = sum(p['runtime_ms'] for p in doc['processes'])
    # Under load this kernel sometimes leaves a switch out; sched then ends the span at the next
    # sign of another task and says how many it filled in: less run time is credited.
    filled = doc['inferred_switch_outs'] + doc['missing_switch_ins'] + doc['lost_events']
    expect(ran > 90 or (filled and ran > 45),
           'busy ran 2 x 50 ms of CPU, sched credits %.1f ms (%d switches filled in or lost)'
           % (ran, filled))
    expect(all(p['wakeup_latency_ms']['count'] == 0 for p in doc['processes']), 'latencies')
    text = env.sched()
    expect('missing sched:sched_waking and sched:sched_wakeup: no wakeup latencies' in text,
           'text: %s' % text[:400])


@with_env
def bad_input(env):
    rc, out, err = run([tracekit(), 'sched', '-i', os.path.join(env.dir, 'none.dat')])
    expect(rc != 0 and err.count('\n') == 1 and 'tracekit: sched:' in err, 'missing file: %r' % err)
    with open(env.out, 'w') as f:
        f.write('not a trace\n' * 100)
    rc, out, err = run([tracekit(), 'sched', '-i', env.out])
    expect(rc != 0 and err.count('\n') == 1, 'not a trace: %r' % err)
    env.record(busy(), '1', '10')
    rc, out, err = run([tracekit(), 'sched', '-i', env.out, '--pid', '999999999'])
    expect(rc != 0 and 'not in' in err and err.count('\n') == 1, 'pid not in trace: %r' % err)
    rc, out, err = run([tracekit(), 'sched', '-i', env.out, '--comm', 'no-such-task'])
    expect(rc != 0 and err.count('\n') == 1, 'comm not in trace: %r' % err)
    # a window that misses every event: one line giving the recording's span, not a report
    # of a negative span
    for args, words in ((['--from', '999999999'], 'events end at'),
                        (['--to', '0.5'], "events start at")):
        rc, out, err = run([tracekit(), 'sched', '-i', env.out] + args)
        expect(rc != 0 and err.count('\n') == 1 and words in err and not out,
               '%s: %d %r %r' % (' '.join(args), rc, err, out[:200]))


@with_env
def window_and_pid(env):
    env.record(busy(), '1', '100')
    whole = env.sched_json()
    p = whole['processes'][0]
    by_pid = env.sched_json('--pid', str(p['pid']))
    expect(by_pid['processes'][0]['runtime_ms'] == p['runtime_ms'], '--pid selects the same')
    mid = (whole['start'] + whole['end']) / 2
    half = env.sched_json('--from', '%.9f' % mid, '--pid', str(p['pid']))
    expect(abs(half['window_ms'] - whole['window_ms'] / 2) < 1, 'window %.3f of %.3f' %
           (half['window_ms'], whole['window_ms']))
    # The two halves add up to the whole, wherever in the window the program happened to run
    # (if it started after the middle, the first half does not know its pid: 0 ms there).
    rc, out, err = run([tracekit(), 'sched', '-i', env.out, '--json', '--to', '%.9f' % mid,
                        '--pid', str(p['pid'])])
    expect(rc == 0 or 'is not in' in err, 'first half: %s' % err.strip())
    run_first = json.loads(out)['processes'][0]['runtime_ms'] if rc == 0 else 0
    run_later = half['processes'][0]['runtime_ms']
    expect(abs(run_first + run_later - p['runtime_ms']) < 1,
           'halves %.3f + %.3f ms make the whole %.3f ms' % (run_first, run_later, p['runtime_ms']))


FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures')


def sched_fixture(name, *args):
    rc, out, err = run([tracekit(), 'sched', os.path.join(FIXTURES, name)] + list(args))
    expect(rc == 0, 'sched %s failed (%d): %s' % (name, rc, err.strip()))
    return out


def no_task_above_its_cpus(doc, cpus):
    for p in doc['processes']:
        expect(p['parallelism'] <= cpus + 1e-9 and p['runtime_ms'] <= p['wall_ms'] * cpus + 1e-6,
               '%s:%d reached %.4f CPUs (run %.3f ms over %.3f ms wall) of %d' %
               (p['comm'], p['pid'], p['parallelism'], p['runtime_ms'], p['wall_ms'], cpus))
        for t in p['threads_detail']:
            expect(t['parallelism'] <= 1 + 1e-9, 'thread %d above one CPU: %.4f' %
                   (t['tid'], t['parallelism']))
        if p['threads'] == 1:
            expect(p['parallelism'] <= 1 + 1e-9, '%s:%d, one thread, reached %.4f CPUs' %
                   (p['comm'], p['pid'], p['parallelism']))


@case
def fixture_one_thread_never_above_one_cpu(_):
    """tracecmd-v7zstd.dat: python3 runs from before the trace; it said 1.01 CPUs."""
    doc = json.loads(sched_fixture('tracecmd-v7zstd.dat', '--json'))
    no_task_above_its_cpus(doc, 2)
    text = sched_fixture('tracecmd-v7zstd.dat')
    m = re.match(r'\d+ threads? of \S+ reached ([\d.]+) CPUs', text)
    expect(m and float(m.group(1)) <= 1.0, 'verdict: %s' % text.splitlines()[0])


@case
def fixture_funcgraph_tail_is_not_a_switch_in(_):
    """funcgraph-fsync.dat: dd's records after `dd:136 D ==> swapper/0:0` are its switch's tail.

    dd runs only between its switch-ins and switch-outs: the run time sched gives it is at
    most the time from each switch-in (or the start) to its next switch-out, from the report."""
    rc, out, err = run([tracekit(), 'report', os.path.join(FIXTURES, 'funcgraph-fsync.dat')])
    expect(rc == 0, 'report: %s' % err)
    since, bound, first = None, 0.0, None
    for line in out.splitlines():
        m = re.search(r'\s(\d+\.\d+): sched_switch:\s+(\S+):(\d+) \[\d+\] \S+ ==> (\S+):(\d+) ', line)
        ts = re.search(r'\s(\d+\.\d+): ', line)
        if ts and first is None:
            first = last_out = float(ts.group(1))
        if not m:
            continue
        t, prev, nxt = float(m.group(1)), int(m.group(3)), int(m.group(5))
        if prev == 136:
            bound += t - (since if since is not None else last_out)
            since, last_out = None, t
        if nxt == 136:
            since = t
    doc = json.loads(sched_fixture('funcgraph-fsync.dat', '--json'))
    dd = [t for p in doc['processes'] for t in p['threads_detail'] if t['tid'] == 136][0]
    expect(doc['switch_tail_records'] > 0, 'no tail records seen')
    # Switch-ins of dd the -F recording left out are filled in (never earlier than the
    # switch-out before them), so the bound holds for them too.
    expect(dd['runtime_ms'] <= bound * 1e3 + 1e-3, 'dd ran %.3f ms, switch-in to switch-out '
           'allows %.3f ms' % (dd['runtime_ms'], bound * 1e3))


def steal_ms():
    """The machine's steal time so far, all CPUs (/proc/stat, in USER_HZ ticks)."""
    with open('/proc/stat') as f:
        cols = f.readline().split()
    return int(cols[8]) * 1000.0 / os.sysconf('SC_CLK_TCK') if len(cols) > 8 else 0.0


@with_env
def run_time_equals_the_kernels_count(env):
    """sched4's four threads (spinner, sleeper, two on a mutex): the run time of the spans
    sched computes is the kernel's sched_stat_runtime sum, within 2% or 1 ms, and what each
    thread read from CLOCK_THREAD_CPUTIME_ID (tests/kernel/sched_runtime.py, the lab's check
    too).  This VM's kernel leaves steal time out of its task clock: the spans may exceed its
    count by the time stolen meanwhile."""
    sched4 = os.path.join(OPTIONS['progs'], 'sched4')
    stolen = steal_ms()
    out = env.record('-e', 'sched', '-e', 'raw_syscalls', sched4, '100')
    stolen = steal_ms() - stolen
    own = os.path.join(env.dir, 'sched4.out')
    with open(own, 'w') as f:
        f.write(out)
    check = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'kernel',
                         'sched_runtime.py')
    rc, text, err = run([sys.executable, check, tracekit(), env.out, own, '%.1f' % stolen],
                        timeout=280)
    print(text)
    expect(rc == 0, 'run time against the kernel (%.0f ms stolen meanwhile): %s' %
           (stolen, err.strip()))
    doc = env.sched_json()
    expect(doc['runtime_check']['threads_compared'] >= 4, 'compared %r' % doc['runtime_check'])
    no_task_above_its_cpus(doc, os.cpu_count())
    text = env.sched()
    expect("run time checked against the kernel's sched_stat_runtime" in text, text[:600])
    expect('woken by' in text, 'no wakers: %s' % text[:600])
    threads = {t['tid']: t for p in doc['processes'] for t in p['threads_detail']}
    named = {}
    for line in out.splitlines():
        m = re.match(r'tid (\d+) (\w+) cpu_ns', line)
        if m:
            named[m.group(2)] = int(m.group(1))
    # The cycler sleeps in clock_nanosleep: a timer wakes it (record adds the timer events).
    cyc = threads[named['cycler']]['wakers']
    expect(cyc and cyc[0]['kind'] == 'timer' and cyc[0]['pid'] is None,
           'the cycler was woken by %r' % cyc)
    # A locker sleeping on the mutex is woken by its sibling unlocking it.
    for me, other in (('locker1', 'locker2'), ('locker2', 'locker1')):
        w = threads[named[me]]['wakers']
        expect(any(x['kind'] == 'task' and x['pid'] == named[other] for x in w),
               '%s was woken by %r, not by %s' % (me, w, other))

@with_env
def summary_follows_the_command_tree(env):
    """`sh -c` running two busy programs: sh and both are shown, the busiest first (the
    verdict's), not sh alone."""
    env.record('sh', '-c', '%s 1 60; %s 1 30' % (busy(), busy()))
    doc = env.sched_json()
    names = [(p['comm'], p['pid']) for p in doc['processes']]
    expect(sorted(n for n, _ in names) == ['busy', 'busy', 'sh'], 'processes %r' % names)
    expect(names[0][0] == 'busy' and 'processes it started' in doc['selected_by'],
           'first %r, selected by %r' % (names[0], doc['selected_by']))
    text = env.sched()
    expect(re.match(r'\d+ threads? of busy reached', text), 'verdict: %s' % text.splitlines()[0])


def figures_add_up(doc):
    """What every process's figures must obey: no thread above one CPU, the process not
    above its tasks, and its causes summing to its wait and sleep columns."""
    for p in doc['processes']:
        name = '%s:%d' % (p['comm'], p['pid'])
        expect(p['parallelism'] <= p['threads'] + 1e-9, '%s: %.4f CPUs with %d threads' %
               (name, p['parallelism'], p['threads']))
        for t in p['threads_detail']:
            expect(t['parallelism'] <= 1 + 1e-9, '%s: thread %d above one CPU: %.4f' %
                   (name, t['tid'], t['parallelism']))
        if p['threads'] == 1:
            expect(p['runtime_ms'] <= p['wall_ms'] + 1e-6, '%s: one thread ran %.3f ms in %.3f '
                   'ms of wall time' % (name, p['runtime_ms'], p['wall_ms']))
        before = p['before_exec'] or {}
        for col in ('runtime_ms', 'wait_ms', 'sleep_ms', 'blocked_ms'):
            parts = sum(t[col] for t in p['threads_detail']) + before.get(col, 0)
            expect(abs(parts - p[col]) < 1e-3, '%s: %s of the threads and the children before '
                   'their exec %.3f, of the process %.3f' % (name, col, parts, p[col]))
        causes = p.get('off_cpu_causes') or []
        if not causes:
            continue
        wait = sum(c['ms'] for c in causes if c['cause'] == 'wait')
        sleep = sum(c['ms'] for c in causes if c['cause'] == 'sleep')
        expect(abs(wait - p['wait_ms']) < 1e-3, '%s: waits for a CPU by cause %.3f ms, wait '
               'column %.3f ms' % (name, wait, p['wait_ms']))
        expect(abs(sleep - p['sleep_ms'] - p['blocked_ms']) < 1e-3, '%s: sleeps by cause %.3f '
               'ms, sleep and blocked columns %.3f ms' % (name, sleep, p['sleep_ms'] +
                                                           p['blocked_ms']))


@with_env
def forked_children_count_where_they_ran(env):
    """`sh -c` forking mkdir and rmdir: a child is sh's until its exec (its wait behind sh
    and its run as sh stay there), the program's from then on: a short mkdir was shown
    at 1.07 CPUs with its run before the exec in its wall time after it."""
    script = '; '.join('mkdir %s/d%d; rmdir %s/d%d' % (env.dir, i, env.dir, i) for i in range(12))
    env.record('-e', 'sched', '-e', 'raw_syscalls', 'sh', '-c', script)
    doc = env.sched_json()
    names = sorted(p['comm'] for p in doc['processes'])
    expect(names.count('mkdir') >= 6 and 'sh' in names, 'processes %r' % names)
    figures_add_up(doc)


def setup(argv):
    if '--progs' in argv:
        OPTIONS['progs'] = argv[argv.index('--progs') + 1]
    if not OPTIONS.get('progs'):
        raise Skip('--progs DIR not given')


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_sched.py CASE --progs DIR | --list', setup))

#!/usr/bin/env python3
"""e2e tests of user tracepoints (<tracekit/tracepoint.h>) on the running kernel.

    test_ust.py CASE --build DIR     # run one case (DIR: the meson build directory)
    test_ust.py --list               # the case names

The programs are tests/ust/ust_prog.c (its events: ust_trace.h) and
examples/silly.  Each case records into a temp directory, reads the file back
with `tracekit report` and `trace-cmd report` (the same lines), and checks
that nothing is left behind: no instance, no session directory in /dev/shm,
no staging file beside the output.
"""

import glob
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'e2e'))
from e2elib import (Skip, case, expect, finish, instances_of, kill_group, main, run,  # noqa: E402
                    start, tracefs, tracekit)

BUILD = {}
LINE = re.compile(r'^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<ts>\d+\.\d+):\s+'
                  r'(?P<event>\w+):\s+(?P<rest>.*)$')


def prog(*args):
    return [os.path.join(BUILD['dir'], 'tests', 'ust', 'ust-prog')] + list(args)


def sessions():
    return set(glob.glob('/dev/shm/tracekit-ust-*'))


def mine(recorder_pid):
    """The session directories of the tracekit process with this pid."""
    return glob.glob('/dev/shm/tracekit-ust-%d-*' % recorder_pid)


class Env:
    def __init__(self):
        self.root = tracefs()
        self.dir = tempfile.mkdtemp(prefix='tk-ust-')
        self.out = os.path.join(self.dir, 'trace.dat')
        self.pids = []

    def record(self, events, argv, *opts, timeout=120):
        args = [tracekit(), 'record', '-o', self.out] + list(opts)
        for e in events:
            args += ['-e', e]
        p = start(args + argv, cwd=self.dir)
        self.pids.append(p.pid)
        rc, out, err = finish(p, timeout)
        self.check_clean(p.pid)
        return rc, out, err

    def check_clean(self, pid):
        expect(not instances_of(self.root, pid), 'an instance was left behind')
        left = mine(pid)
        expect(not left, 'session directories left: %r' % left)
        stray = [f for f in os.listdir(self.dir) if re.search(r'\.(cpu\d+|ust\d*)$', f)]
        expect(not stray, 'staging files left: %r' % stray)

    def lines(self, *extra):
        rc, out, err = run([tracekit(), 'report', '-i', self.out] + list(extra), timeout=120)
        expect(rc == 0, 'tracekit report failed (%d): %s' % (rc, err.strip()))
        return [m.groupdict() for m in map(LINE.match, out.splitlines()) if m]

    def user(self, names):
        return [e for e in self.lines() if e['event'] in names]

    def tracecmd_agrees(self, names):
        """trace-cmd report prints the same user event lines as tracekit report."""
        if not shutil.which('trace-cmd'):
            raise Skip('trace-cmd is not installed (apt-get install trace-cmd)')
        rc, out, err = run(['trace-cmd', 'report', '-i', self.out], timeout=120)
        expect(rc == 0, 'trace-cmd report failed (%d): %s' % (rc, err.strip()))
        theirs = [m.groupdict() for m in map(LINE.match, out.splitlines()) if m]
        theirs = [(e['pid'], e['ts'], e['event'], e['rest']) for e in theirs if e['event'] in names]
        ours = [(e['pid'], e['ts'], e['event'], e['rest']) for e in self.user(names)]
        expect(ours and ours == theirs,
               'trace-cmd report differs:\n ours   %r\n theirs %r' % (ours[:5], theirs[:5]))

    def close(self):
        for pid in self.pids:       # only ours: other tests' sessions may be running
            for s in mine(pid):
                shutil.rmtree(s, ignore_errors=True)
        shutil.rmtree(self.dir, ignore_errors=True)


def with_env(fn):
    def run_case(_):
        env = Env()
        try:
            fn(env)
        finally:
            env.close()
    run_case.__name__ = fn.__name__
    return case(run_case)


def rests(events):
    return [e['event'] + ': ' + e['rest'] for e in events]


@with_env
def field_kinds(env):
    rc, _, err = env.record(['tkt:*'], prog('fields'))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    got = rests(env.user({'all_kinds'}))
    want = ['all_kinds: i=-7 u=18446744073709551615 s=hello world tag=tagged bytes=01 ab ff',
            'all_kinds: i=0 u=0 s=(null) tag= bytes=']
    expect(got == want, 'got %r' % got)
    env.tracecmd_agrees({'all_kinds'})


@with_env
def event_class(env):
    rc, _, err = env.record(['tkt:span_*'], prog('classes'))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    got = rests(env.user({'span_begin', 'span_end', 'all_kinds'}))
    want = ['span_begin: what=outer depth=0', 'span_begin: what=inner depth=1',
            'span_end: what=inner depth=1', 'span_end: what=outer depth=0']
    expect(got == want, 'got %r' % got)
    env.tracecmd_agrees({'span_begin', 'span_end'})


@with_env
def condition_and_callbacks(env):
    rc, out, err = env.record(['tkt:odd_only'], prog('condition'))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    # Odd n only; callback b was removed before n = 5; registering a twice is refused.
    expect(out.split('\n')[:2] == ['probe a: 5', 'probe b: 2'], 'callbacks: %r' % out)
    got = rests(env.user({'odd_only'}))
    expect(got == ['odd_only: n=%d' % n for n in (1, 3, 5, 7, 9)], 'got %r' % got)


@with_env
def threads(env):
    n, m = 4, 3000
    rc, _, err = env.record(['tkt:all_kinds'], prog('threads', str(n), str(m)))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    expect('lost' not in err.split('user events:')[-1].split('\n')[0] or
           ' 0 lost' in err, 'user events lost: %s' % err)
    by_thread = {}
    pids = {}
    for e in env.user({'all_kinds'}):
        f = dict(kv.split('=', 1) for kv in e['rest'].split()[:2])
        by_thread.setdefault(f['i'], []).append(int(f['u']))
        pids.setdefault(f['i'], set()).add(e['pid'])
    expect(sorted(by_thread) == [str(i) for i in range(n)], 'threads seen: %r' % sorted(by_thread))
    for i, seq in by_thread.items():
        expect(seq == list(range(m)), 'thread %s: %d events, not in order' % (i, len(seq)))
        expect(len(pids[i]) == 1, 'thread %s has several pids: %r' % (i, pids[i]))
    expect(len(set().union(*pids.values())) == n, 'each thread has its own tid: %r' % pids)


@with_env
def fork_child(env):
    rc, out, err = env.record(['tkt:*'], prog('fork'))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    child = re.search(r'child (\d+)', out).group(1)
    got = [(e['pid'] == child, e['rest'].split(' tag=')[0]) for e in env.user({'all_kinds'})]
    want = [(False, 'i=1 u=0 s=parent before'), (True, 'i=2 u=0 s=child'),
            (True, 'i=2 u=1 s=child'), (False, 'i=1 u=1 s=parent after')]
    expect(got == want, 'got %r' % got)


@with_env
def dlopen_library(env):
    lib = os.path.join(BUILD['dir'], 'tests', 'ust', 'libust-lib.so')
    rc, _, err = env.record(['tktlib:*'], prog('dlopen', lib))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    got = rests(env.user({'lib_call'}))
    expect(got == ['lib_call: value=7', 'lib_call: value=8'], 'got %r' % got)


@with_env
def from_cxx(env):
    rc, _, err = env.record(['tkt:all_kinds'], prog('cxx', '2'))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    got = rests(env.user({'all_kinds'}))
    expect(got == ['all_kinds: i=%d u=42 s=from C++ tag=cxx bytes=ca fe' % i for i in (1000, 1001)],
           'got %r' % got)


@with_env
def beside_kernel_events(env):
    """Each me_silly lies while silly is on a CPU: the user clock is the kernel's."""
    silly = os.path.join(BUILD['dir'], 'examples', 'silly', 'silly')
    rc, _, err = env.record(['silly:*', 'sched:sched_switch'], [silly, '5', '20'])
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    events = env.lines()
    mine = [e for e in events if e['event'] == 'me_silly']
    expect([e['rest'].split()[1] for e in mine] == ['count=%d' % i for i in range(5)],
           'me_silly lines: %r' % rests(mine))
    pid = mine[0]['pid']
    # After each me_silly the pid's next switch is silly leaving its CPU: it ran when the event
    # was stamped.  (Not "the last switch before it brought silly in": a kernel may record no
    # switch out of an idle CPU, see docs/sched.md.)  A clock off either way shows as a switch-in.
    pending = []
    for e in events:
        if e['event'] == 'me_silly':
            pending.append(e['ts'])
            continue
        m = re.search(r':(\d+) \[\d+\] \S+ ==> .*:(\d+) \[', e['rest'])
        if e['event'] != 'sched_switch' or not m or pid not in m.groups() or not pending:
            continue
        expect(m.group(1) == pid, 'me_silly at %s, then pid %s switched in at %s: the clocks '
               'disagree' % (pending, pid, e['ts']))
        pending = []
    env.tracecmd_agrees({'me_silly'})
    # The file has one CPU more than the machine's (the user events'); sched counts the kernel's.
    rc, out, err = run([tracekit(), 'report', '-i', env.out])
    slots = int(re.search(r'^cpus=(\d+)', out, re.M).group(1))
    rc, out, err = run([tracekit(), 'sched', '-i', env.out])
    # (its first line is the verdict; the summary line names the CPU count)
    expect(rc == 0 and ': %d CPUs,' % (slots - 1) in out,
           'sched with %d slots: %s' % (slots, out[:400]))


@with_env
def program_killed(env):
    """A program SIGKILLed mid-record: everything it committed is in the file, in order."""
    args = [tracekit(), 'record', '-o', env.out, '-e', 'tkt:*'] + prog('spin')
    p = start(args, cwd=env.dir)
    env.pids.append(p.pid)
    expect(p.stdout.readline().strip() == b'ready', 'the program did not start')
    time.sleep(0.5)
    out = subprocess.run(['pgrep', '-P', str(p.pid), 'ust-prog'], capture_output=True, text=True)
    victim = int(out.stdout.split()[0])
    os.kill(victim, signal.SIGKILL)
    rc, _, err = finish(p, 60)
    env.check_clean(p.pid)
    expect(rc == 137, 'record should exit as its command did (137): %d %s' % (rc, err))
    seq = [int(e['rest'].split()[1][2:]) for e in env.user({'all_kinds'})]
    expect(len(seq) > 50 and seq == list(range(len(seq))),
           '%d events, with holes: %s' % (len(seq), err))


@with_env
def recorder_killed(env):
    """A recorder SIGKILLed mid-record: the program runs on; its full buffer drops events."""
    args = [tracekit(), 'record', '-b', '16', '-o', env.out, '-e', 'tkt:*'] + prog('spin')
    p = start(args, cwd=env.dir)
    env.pids.append(p.pid)
    expect(p.stdout.readline().strip() == b'ready', 'the program did not start')
    out = subprocess.run(['pgrep', '-P', str(p.pid), 'ust-prog'], capture_output=True, text=True)
    victim = int(out.stdout.split()[0])
    try:
        time.sleep(0.2)
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        # 16 KB hold a few hundred events: 1000 more fill it many times over.
        ticks = []
        end = time.time() + 30
        while len(ticks) < 10 and time.time() < end:
            if select.select([p.stdout], [], [], 1)[0]:
                ticks.append(p.stdout.readline().strip())
        expect(len(ticks) == 10, 'the program stopped after its recorder died: %r' % ticks)
    finally:
        os.kill(victim, signal.SIGKILL)
        kill_group(p)
        subprocess.run([tracekit(), 'reset'], capture_output=True)
    expect(not instances_of(env.root, p.pid), "reset left the killed recorder's instance")
    expect(not mine(p.pid), "reset left the killed recorder's session: %r" % mine(p.pid))


@with_env
def recorder_stopped(env):
    """A recorder that stops draining (SIGSTOP) holds a full buffer's thread up only --user-wait
    ms: the program runs on, dropping, and waits again once the recorder drains again."""
    args = [tracekit(), 'record', '-b', '16', '--user-wait', '200', '-o', env.out, '-e',
            'tkt:*'] + prog('spin')
    p = start(args, cwd=env.dir)
    env.pids.append(p.pid)
    expect(p.stdout.readline().strip() == b'ready', 'the program did not start')
    out = subprocess.run(['pgrep', '-P', str(p.pid), 'ust-prog'], capture_output=True, text=True)
    victim = int(out.stdout.split()[0])
    try:
        time.sleep(0.2)
        os.kill(p.pid, signal.SIGSTOP)
        ticks = []
        end = time.time() + 30
        while len(ticks) < 10 and time.time() < end:
            if select.select([p.stdout], [], [], 1)[0]:
                ticks.append(p.stdout.readline().strip())
        expect(len(ticks) == 10, 'the program stopped with its recorder: %r' % ticks)
        os.kill(p.pid, signal.SIGCONT)
        time.sleep(0.5)
        os.kill(victim, signal.SIGKILL)
        rc, _, err = finish(p, 60)
        expect('user events:' in err and ' lost' in err, 'no summary: %r' % err)
    finally:
        kill_group(p)
    env.check_clean(p.pid)


@with_env
def view_and_export(env):
    """view draws user events on their thread's lane; export makes NAME_begin/_end slices."""
    rc, _, err = env.record(['tkt:span_*', 'tkt:all_kinds', 'sched:sched_switch'],
                            prog('classes'))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    pid = env.user({'span_begin'})[0]['pid']
    page = os.path.join(env.dir, 'view.html')
    rc, _, err = run([tracekit(), 'view', '-i', env.out, '-o', page])
    expect(rc == 0, 'view failed: %s' % err)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'e2e')
    if not os.path.isdir(os.path.join(here, 'node_modules', 'playwright-core')):
        raise Skip('playwright-core is not installed (cd tests/e2e && npm ci)')
    if not shutil.which('node'):
        raise Skip('node not found (apt-get install nodejs)')
    rc, out, err = run(['node', os.path.join(here, 'ust_view.mjs'), page, pid], timeout=120)
    expect(rc == 0, 'ust_view.mjs failed: %s' % err[-2000:])
    seen = json.loads(out)
    expect(not seen['errors'], 'page errors: %r' % seen['errors'])
    expect(seen['lane'] >= 0, 'no lane for pid %s: %r' % (pid, seen['labels']))
    expect(not any(l.startswith('CPU 2') for l in seen['labels']), 'a lane for the user slot')
    expect(len(seen['marks']) == 2 and all(seen['marks']), 'marks drawn: %r' % seen['marks'])
    expect('user tracepoints' in seen['legend'], 'legend: %s' % seen['legend'])
    trace = os.path.join(env.dir, 'trace.json')
    rc, _, err = run([tracekit(), 'export', '--format', 'chrome', '-i', env.out, '-o', trace])
    expect(rc == 0, 'export failed: %s' % err)
    spans = [(e['ph'], e['args']['what']) for e in json.load(open(trace))['traceEvents']
             if e.get('name') == 'tkt:span']
    expect(spans == [('B', 'outer'), ('B', 'inner'), ('E', 'inner'), ('E', 'outer')],
           'chrome slices: %r' % spans)


@with_env
def attach_running(env):
    """record -P: a running program's control file brings it into the session, twice."""
    clean = dict(os.environ)
    clean.pop('TRACEKIT_UST', None)
    victim = start(prog('spin'), env=clean)
    ctl = '/dev/shm/tracekit-ctl-%d' % victim.pid
    try:
        expect(victim.stdout.readline().strip() == b'ready', 'the program did not start')
        expect(os.path.exists(ctl), 'no control file %s' % ctl)
        for _ in range(2):
            rc, _, err = env.record(['tkt:*'], [], '-P', str(victim.pid), '--duration', '0.5')
            expect(rc == 0, 'record -P failed (%d): %s' % (rc, err))
            seq = [int(e['rest'].split()[1][2:]) for e in env.user({'all_kinds'})]
            expect(len(seq) > 50 and seq == list(range(seq[0], seq[0] + len(seq))),
                   '%d events, with holes' % len(seq))
            expect({e['pid'] for e in env.user({'all_kinds'})} == {str(victim.pid)},
                   'events of other processes')
    finally:
        kill_group(victim)
        victim.wait()
        if os.path.exists(ctl):
            os.unlink(ctl)


@with_env
def attach_without_tracepoints(env):
    sleeper = start(['sleep', '30'])
    try:
        rc, _, err = env.record(['tkt:*'], [], '-P', str(sleeper.pid), '--duration', '0.2')
    finally:
        kill_group(sleeper)
        sleeper.wait()
    expect(rc == 1 and 'process %d has no tracekit tracepoints' % sleeper.pid in err,
           'rc %d: %s' % (rc, err))


@with_env
def full_buffer_is_counted(env):
    """A 16 KB buffer and 100000 events at full speed: every event is recorded or counted lost,
    in record's summary and in the file (report --stat's overrun of the user CPU)."""
    n = 100000
    rc, _, err = env.record(['tkt:all_kinds'], prog('count', str(n)), '-b', '16',
                            '--user-wait', '0')
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    m = re.search(r'user events: (\d+) events, (\d+) lost', err)
    got, lost = int(m.group(1)), int(m.group(2))
    expect(lost > 0 and got + lost == n, '%d recorded + %d lost != %d' % (got, lost, n))
    expect(len(env.user({'all_kinds'})) == got, 'the file holds another count')
    rc, out, err = run([tracekit(), 'report', '--stat', '-i', env.out])
    slots = int(re.search(r'^CPUs: (\d+)', out, re.M).group(1))
    row = re.search(r'^  %d +(\d+) +\S+ +(\d+)$' % (slots - 1), out, re.M)
    expect(row and (int(row.group(1)), int(row.group(2))) == (got, lost),
           'report --stat: %s' % out)


@with_env
def burst_loses_nothing(env):
    """One thread firing 1M events at full speed into the default buffer: record -- CMD keeps
    them all (the thread waits for room while the recorder drains, as LTTng's blocking mode)."""
    n = 1000000
    rc, _, err = env.record(['tkt:all_kinds'], prog('count', str(n)))
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    m = re.search(r'user events: (\d+) events, (\d+) lost', err)
    expect(m and (int(m.group(1)), int(m.group(2))) == (n, 0),
           'recorded/lost: %s, want %d/0' % (m and m.groups(), n))


@with_env
def unmatched_spec_is_reported(env):
    """A user -e that names nothing (a typo) says so and exits 2 (the file is still written)."""
    rc, _, err = env.record(['tkt_typo:*', 'tkt:odd_only'], prog('condition'))
    expect(rc == 2, 'record: exit %d, want 2: %s' % (rc, err))
    expect('no tracepoint matched -e tkt_typo:*' in err, 'no warning: %s' % err)
    expect('-e tkt:odd_only' not in err, 'a matched spec is reported: %s' % err)


@case
def list_binary(_):
    """list --binary reads the tracepoints and formats from the file, without running it."""
    exe = prog()[0]
    rc, out, err = run([tracekit(), 'list', '--binary', exe])
    expect(rc == 0 and out.split() == ['tkt:all_kinds', 'tkt:odd_only', 'tkt:span_begin',
                                       'tkt:span_end'], 'list: %r %s' % (out, err))
    rc, out, _ = run([tracekit(), 'list', '--binary', exe, '-e', 'tkt:span_*', '--json'])
    expect([json.loads(x)['event'] for x in out.split('\n') if x] == ['span_begin', 'span_end'],
           'list -e: %r' % out)
    rc, out, _ = run([tracekit(), 'list', '--binary', exe, '--format', 'tkt:all_kinds'])
    for line in ['\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;',
                 '\tfield:unsigned long long u;\toffset:16;\tsize:8;\tsigned:0;',
                 '\tfield:__data_loc char[] s;\toffset:24;\tsize:4;\tsigned:1;',
                 '\tfield:char tag[8];\toffset:28;\tsize:8;\tsigned:1;',
                 'print fmt: "i=%d u=%llu s=%s tag=%s bytes=%s", REC->i, REC->u, __get_str(s), '
                 'REC->tag, __print_hex(__get_dynamic_array(bytes), '
                 '__get_dynamic_array_len(bytes))']:
        expect(line in out.split('\n'), 'format lacks %r:\n%s' % (line, out))
    lib = os.path.join(BUILD['dir'], 'tests', 'ust', 'libust-lib.so')
    rc, out, _ = run([tracekit(), 'list', '--binary', lib])
    expect(rc == 0 and out == 'tktlib:lib_call\n', 'library: %r' % out)
    rc, out, err = run([tracekit(), 'list', '--binary', exe + '-disabled'])
    expect(rc == 1 and 'has no user tracepoints' in err, 'disabled build: %d %s' % (rc, err))
    rc, out, err = run([tracekit(), 'list', '--binary', '/etc/hostname'])
    expect(rc == 1 and 'is not an ELF file' in err, 'not ELF: %d %s' % (rc, err))


@case
def no_recorder(_):
    """Without tracekit: no output, no files, and register_trace_ callbacks still run."""
    env = dict(os.environ)
    env.pop('TRACEKIT_UST', None)
    p = start(prog('fields'), env=env)
    rc, out, err = finish(p)
    expect((rc, out, err) == (0, '', ''), 'fields: %r' % ((rc, out, err),))
    made = glob.glob('/dev/shm/tracekit-*/*-%d*' % p.pid) + glob.glob('/dev/shm/*-%d' % p.pid)
    expect(not made, 'a program without a recorder left files: %r' % made)
    rc, out, err = run(prog('condition'), env=env)
    expect(rc == 0 and out == 'probe a: 5\nprobe b: 2\n' and not err, 'condition: %r' % out)


@case
def disabled_build(_):
    """-DTRACEKIT_DISABLE: no library, no tracepoint symbol or section left."""
    exe = os.path.join(BUILD['dir'], 'tests', 'ust', 'ust-prog-disabled')
    libs = subprocess.run(['ldd', exe], capture_output=True, text=True).stdout
    expect('libtracekit' not in libs, 'linked with libtracekit: %s' % libs)
    syms = subprocess.run(['nm', exe], capture_output=True, text=True).stdout
    expect('__tracepoint_' not in syms and 'tk_tp_' not in syms, 'tracepoint symbols left')
    sections = subprocess.run(['readelf', '-S', exe], capture_output=True, text=True).stdout
    expect('tracekit_events' not in sections, 'the description section is left')
    rc, out, err = run([exe, 'fields'])
    expect(rc == 0 and not out and not err, 'the disabled program failed: %r' % err)


def sanitizer_flags(libdir):
    """A sanitized build's library needs a sanitized program (make asan)."""
    deps = subprocess.run(['ldd', os.path.join(libdir, 'libtracekit.so')],
                          capture_output=True, text=True).stdout
    return ['-fsanitize=address,undefined'] if 'libasan' in deps else []


def silly_app(d):
    """examples/silly as docs/tracepoints.md's app.c, in d, beside a build/ link to the build."""
    src = os.path.join(BUILD['src'], 'examples', 'silly')
    shutil.copy(os.path.join(src, 'silly.c'), os.path.join(d, 'app.c'))
    shutil.copy(os.path.join(src, 'silly_trace.h'), d)
    os.symlink(BUILD['dir'], os.path.join(d, 'build'))


@case
def docs_build_line_runs(_):
    """docs/tracepoints.md's build-tree line, run as written, makes a program that starts
    (no LD_LIBRARY_PATH) and records its events."""
    tracefs()
    if not shutil.which('pkg-config'):
        raise Skip('pkg-config is not installed (apt-get install pkg-config)')
    doc = open(os.path.join(BUILD['src'], 'docs', 'tracepoints.md')).read()
    lines = [l.split('  #')[0].strip() for l in doc.splitlines()
             if l.startswith('cc ') and 'meson-uninstalled' in l]
    expect(len(lines) == 1, 'docs/tracepoints.md has no one build-tree cc line: %r' % lines)
    d = tempfile.mkdtemp(prefix='tk-ust-doc-')
    try:
        silly_app(d)
        libdir = os.path.join(BUILD['dir'], 'src', 'ust')
        line = lines[0].replace('cc ', ' '.join(['cc'] + sanitizer_flags(libdir)) + ' ', 1)
        env = dict(os.environ)
        env.pop('LD_LIBRARY_PATH', None)
        cc = subprocess.run(['sh', '-c', line], cwd=d, env=env, capture_output=True, text=True)
        expect(cc.returncode == 0, '%s: %s' % (line, cc.stderr))
        out = os.path.join(d, 'trace.dat')
        p = subprocess.run([tracekit(), 'record', '-q', '-o', out, '-e', 'silly:*', '--',
                            './a.out', '2', '1'], cwd=d, env=env, capture_output=True, text=True,
                           timeout=120)
        expect(p.returncode == 0, 'record -- ./a.out: exit %d: %s' % (p.returncode, p.stderr))
        rc, text, err = run([tracekit(), 'report', '-i', out])
        expect(text.count('me_silly:') == 2, 'report: %s' % text)
    finally:
        shutil.rmtree(d, ignore_errors=True)


@case
def loader_failure_is_explained(_):
    """A program whose loader fails (exit 127: libtracekit.so.0 not found) before its first
    event: record passes 127 on and says in its own words what it means."""
    tracefs()
    d = tempfile.mkdtemp(prefix='tk-ust-127-')
    try:
        silly_app(d)
        libdir = os.path.join(BUILD['dir'], 'src', 'ust')
        inc = os.path.join(BUILD['src'], 'include')
        cc = subprocess.run(['cc', '-I.', '-I' + inc, 'app.c', '-L' + libdir, '-ltracekit']
                            + sanitizer_flags(libdir), cwd=d, capture_output=True, text=True)
        expect(cc.returncode == 0, 'cc: %s' % cc.stderr)
        env = dict(os.environ)
        env.pop('LD_LIBRARY_PATH', None)
        out = os.path.join(d, 'trace.dat')
        p = subprocess.run([tracekit(), 'record', '-q', '-o', out, '-e', 'silly:*', '--',
                            './a.out'], cwd=d, env=env, capture_output=True, text=True,
                           timeout=120)
        expect(p.returncode == 127, 'the command\'s 127 is passed on, got %d' % p.returncode)
        ours = [l for l in p.stderr.splitlines() if l.startswith('tracekit: record: ')
                and "'./a.out' exited with status 127" in l]
        expect(len(ours) == 1 and 'could not start' in ours[0] and 'shared librar' in ours[0],
               'no line of ours naming the loader failure: %r' % p.stderr)
        expect('no tracepoint matched' not in p.stderr,
               'a program that never started is not told it has no tracepoints: %r' % p.stderr)
    finally:
        shutil.rmtree(d, ignore_errors=True)


@case
def pkg_config_build(_):
    """A program built from the build tree with pkg-config's flags runs and records."""
    tracefs()
    if not shutil.which('pkg-config'):
        raise Skip('pkg-config is not installed (apt-get install pkg-config)')
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(BUILD['dir'], 'meson-uninstalled'))
    flags = subprocess.run(['pkg-config', '--cflags', '--libs', 'tracekit'], env=env,
                           capture_output=True, text=True)
    expect(flags.returncode == 0, 'pkg-config tracekit: %s' % flags.stderr)
    d = tempfile.mkdtemp(prefix='tk-ust-pc-')
    try:
        src = os.path.join(BUILD['src'], 'examples', 'silly')
        exe = os.path.join(d, 'silly')
        libdir = re.search(r'-L(\S+)', flags.stdout).group(1)
        # A sanitized build's library needs a sanitized program (make asan).
        deps = subprocess.run(['ldd', os.path.join(libdir, 'libtracekit.so')],
                              capture_output=True, text=True).stdout
        san = ['-fsanitize=address,undefined'] if 'libasan' in deps else []
        cc = subprocess.run(['cc', '-I' + src, os.path.join(src, 'silly.c'), '-o', exe,
                             '-Wl,-rpath,' + libdir] + san + flags.stdout.split(),
                            capture_output=True, text=True)
        expect(cc.returncode == 0, 'cc failed: %s' % cc.stderr)
        out = os.path.join(d, 'trace.dat')
        rc, _, err = run([tracekit(), 'record', '-q', '-o', out, '-e', 'silly:*', exe, '2', '1'])
        expect(rc == 0, 'record failed: %s' % err)
        rc, text, err = run([tracekit(), 'report', '-i', out])
        expect(text.count('me_silly:') == 2, 'report: %s' % text)
    finally:
        shutil.rmtree(d, ignore_errors=True)


def setup(argv):
    if '--build' in argv:
        BUILD['dir'] = os.path.abspath(argv[argv.index('--build') + 1])
    if '--src' in argv:
        BUILD['src'] = os.path.abspath(argv[argv.index('--src') + 1])
    if 'dir' not in BUILD:
        raise Skip('no --build DIR given')


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_ust.py CASE --build DIR --src DIR | --list', setup))

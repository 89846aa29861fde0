#!/usr/bin/env python3
"""e2e tests of `tracekit record` on the running kernel, with trace-cmd as the oracle.

    test_record.py CASE --progs DIR     # run one case (DIR: the built tests/progs)
    test_record.py --list               # the case names

Each case records into a temp directory, checks the file with `tracekit
report` and `trace-cmd report`, and checks that the recording left nothing in
tracefs: no instance of its own, the top-level set_event and tracing_on as
they were.
"""

import collections
import json
import os
import re
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import (Fail, Skip, case, expect, finish, instances_of, kill_group, main, read,  # noqa: E402
                    run, start, tracefs, tracekit)

OPTIONS = {}


class Env:
    """A temp directory, tracefs, and the top-level state to compare at the end."""

    def __init__(self):
        self.root = tracefs()
        self.dir = tempfile.mkdtemp(prefix='tk-record-')
        self.out = os.path.join(self.dir, 'trace.dat')
        self.top = self.top_state()

    def top_state(self):
        return (read(os.path.join(self.root, 'set_event')),
                read(os.path.join(self.root, 'tracing_on')))

    def record(self, *args, timeout=120):
        p = start([tracekit(), 'record', '-o', self.out] + list(args), cwd=self.dir)
        rc, out, err = finish(p, timeout)
        self.check_clean(p.pid)
        return rc, out, err

    def check_clean(self, pid):
        left = instances_of(self.root, pid)
        expect(not left, 'instances left behind: %r' % left)
        expect(self.top_state() == self.top, 'the top-level set_event or tracing_on changed')
        stray = [f for f in os.listdir(self.dir) if re.search(r'\.cpu\d+$', f)]
        expect(not stray, 'per-CPU temp files left: %r' % stray)

    def close(self):
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


def report_json(path):
    rc, out, err = run([tracekit(), 'report', '--json', '-i', path], timeout=120)
    expect(rc == 0, 'tracekit report --json failed (%d): %s' % (rc, err.strip()))
    return [json.loads(line) for line in out.splitlines()]


def tracecmd_counts(path):
    """Events per name as trace-cmd report sees them: our file must open in trace-cmd."""
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed (apt-get install trace-cmd)')
    rc, out, err = run(['trace-cmd', 'report', '-i', path], timeout=120)
    expect(rc == 0, 'trace-cmd report cannot read the file (%d): %s' % (rc, err.strip()[:300]))
    counts = collections.Counter()
    for line in out.splitlines():
        m = re.match(r'\s*.+?-\d+\s+\[\d+\]\s+[\d.]+:\s+(\w+):', line)
        if m:
            counts[m.group(1)] += 1
    return counts


def check_against_tracecmd(path):
    """Same events, same count per event type, in tracekit's and trace-cmd's reading."""
    events = report_json(path)
    ours = collections.Counter(e['event'].split(':')[-1] for e in events)
    theirs = tracecmd_counts(path)
    expect(ours == theirs, 'tracekit and trace-cmd disagree: %r vs %r' % (ours, theirs))
    expect(sum(ours.values()) > 0, 'no events recorded')
    return events


def stats_line(err):
    m = re.search(r'^tracekit: record: .*: (\d+) events, (\d+) lost', err, re.M)
    expect(m, 'the summary line with events and lost counts is printed: %r' % err[-300:])
    return int(m.group(1)), int(m.group(2))


def prog(name):
    return os.path.join(OPTIONS['progs'], name)


def descendants(events, root_pid):
    """The pids of root_pid's tree, from the fork events."""
    tree = {root_pid}
    for e in events:
        f = e.get('fields', {})
        if e['event'].endswith('sched_process_fork') and f.get('parent_pid') in tree:
            tree.add(f.get('child_pid'))
    return tree


@with_env
def record_sleep(env):
    rc, out, err = env.record('sleep', '0.2')
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    events, lost = stats_line(err)
    got = check_against_tracecmd(env.out)
    expect(events == len(got), 'the summary counts %d events, the file holds %d' % (events, len(got)))
    names = {e['event'] for e in got}
    expect('sched:sched_switch' in names, 'the default set includes sched_switch: %r' % names)
    expect(any(e['event'] == 'sched:sched_process_exec' and 'sleep' in json.dumps(e['fields'])
               for e in got), 'the exec of sleep is recorded')


@with_env
def record_follow_pipeline(env):
    rc, out, err = env.record('-F', 'sh', '-c', 'echo hi | wc -c; true')
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    got = check_against_tracecmd(env.out)
    execs = [e for e in got if e['event'] == 'sched:sched_process_exec']
    expect(execs, 'the shell exec is recorded: -F sets the pid filter before exec')
    root = execs[0]['pid']
    tree = descendants(got, root)
    expect(len(tree) >= 3, 'the pipeline forked two children: %r' % tree)
    pid_fields = ('prev_pid', 'next_pid', 'pid', 'parent_pid', 'child_pid')
    for e in got:
        pids = {e['pid']} | {e['fields'].get(k) for k in pid_fields}
        expect(pids & tree, 'an event outside the command tree slipped in: %r' % e)


@with_env
def record_threads(env):
    rc, out, err = env.record('-F', prog('threads'))
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    got = check_against_tracecmd(env.out)
    tids = {e['pid'] for e in got if e['event'] == 'sched:sched_switch'}
    expect(len(tids) >= 4, 'several threads of the program switch: %r' % tids)


@with_env
def record_events_and_filter(env):
    rc, out, err = env.record('-e', 'sched:sched_switch', '-f', 'prev_prio < 200',
                              '-e', 'syscalls:sys_enter_openat', '-F', 'cat', '/etc/hostname')
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    got = check_against_tracecmd(env.out)
    names = {e['event'] for e in got}
    expect(names <= {'sched:sched_switch', 'syscalls:sys_enter_openat'}, 'only the asked events: %r' % names)
    expect(any(e['event'] == 'syscalls:sys_enter_openat' for e in got), 'cat opens files')


@with_env
def record_exit_status(env):
    rc, out, err = env.record('-F', 'sh', '-c', 'exit 7')
    expect(rc == 7, "the command's exit status is tracekit's: got %d: %s" % (rc, err))
    check_against_tracecmd(env.out)


@with_env
def record_killed_command(env):
    rc, out, err = env.record('-F', 'sh', '-c', 'kill -9 $$')
    expect(rc == 137, 'a command killed by SIGKILL gives 137, got %d: %s' % (rc, err))
    check_against_tracecmd(env.out)



@with_env
def record_events_start_together(env):
    """-e raw_syscalls: sys_enter and sys_exit start at the same instant, so the recorder's
    own calls while it enabled them one by one are not in the file as entries without exits
    (report --syscalls printed them <unfinished ...>)."""
    p = start([tracekit(), 'record', '-q', '-e', 'raw_syscalls', '-o', env.out, 'true'],
              cwd=env.dir)
    rc, out, err = finish(p, 120)
    env.check_clean(p.pid)
    expect(rc == 0, 'record failed (%d): %s' % (rc, err))
    own = [e['event'] for e in report_json(env.out) if e['pid'] == p.pid]
    expect(own, 'the recorder\'s own calls are in the file')
    # The last one may be cut by tracing_on=0 itself; every other entry has its exit next.
    unpaired = sum(1 for a, b in zip(own, own[1:])
                   if a == 'raw_syscalls:sys_enter' and b != 'raw_syscalls:sys_exit')
    expect(unpaired == 0, '%d entries of the recorder without an exit: %r' % (unpaired, own[:12]))


@with_env
def record_sigint_system(env):
    p = start([tracekit(), 'record', '-o', env.out, '-e', 'sched:sched_switch'], cwd=env.dir)
    time.sleep(1.0)
    os.kill(p.pid, signal.SIGINT)
    rc, out, err = finish(p, 60)
    env.check_clean(p.pid)
    expect(rc == 0, 'Ctrl-C ends a system-wide recording with exit 0, got %d: %s' % (rc, err))
    check_against_tracecmd(env.out)


@with_env
def record_pid(env):
    sleeper = start([prog('sleeper')])
    try:
        pid = int(sleeper.stdout.readline())
        rc, out, err = env.record('-P', str(pid), '--duration', '0.6')
        expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
        got = check_against_tracecmd(env.out)
        expect(any(e['pid'] == pid or pid in e['fields'].values() for e in got),
               'events of the -P process are recorded')
    finally:
        kill_group(sleeper)
        sleeper.wait()


@with_env
def record_version6(env):
    rc, out, err = env.record('--file-version', '6', 'sleep', '0.1')
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    check_against_tracecmd(env.out)


@with_env
def record_unknown_event(env):
    rc, out, err = env.record('-e', 'sched:sched_swich', 'true')
    expect(rc != 0, 'an unknown event is refused')
    lines = err.strip().splitlines()
    expect(len(lines) == 1 and 'sched_switch' in lines[0],
           'one line naming the closest event: %r' % err)
    expect(not os.path.exists(env.out), 'no trace file for a refused recording')


@with_env
def record_bad_filter(env):
    rc, out, err = env.record('-e', 'sched:sched_switch', '-f', 'no_such_field == 1', 'true')
    expect(rc != 0, 'a bad filter is refused')
    lines = err.strip().splitlines()
    expect(len(lines) == 1 and 'no_such_field' in lines[0], 'one line quoting the filter: %r' % err)


@with_env
def record_missing_command(env):
    rc, out, err = env.record('/nonexistent/program')
    expect(rc != 0, 'a command that does not exist fails')
    expect('/nonexistent/program' in err, 'the error names the command: %r' % err)


def sigpipe_ignored(status_text):
    m = re.search(r'^SigIgn:\s+([0-9a-f]+)$', status_text, re.M)
    expect(m, 'no SigIgn line in: %r' % status_text)
    return bool(int(m.group(1), 16) & (1 << (signal.SIGPIPE - 1)))


@with_env
def record_command_keeps_its_signals(env):
    """tracekit ignores SIGPIPE for itself; the command gets it as tracekit found it."""
    rc, out, err = env.record('-e', 'sched:sched_switch', '-q', 'grep', 'SigIgn', '/proc/self/status')
    expect(rc == 0, 'record failed: %s' % err)
    expect(not sigpipe_ignored(out), 'the recorded command runs with SIGPIPE ignored: %r' % out)
    # Ignored by whoever started tracekit: passed on, as a shell passes it on.
    p = start(['sh', '-c', 'trap "" PIPE; exec "$0" "$@"', tracekit(), 'record', '-o', env.out,
               '-e', 'sched:sched_switch', '-q', 'grep', 'SigIgn', '/proc/self/status'], cwd=env.dir)
    rc, out, err = finish(p, 120)
    env.check_clean(p.pid)
    expect(rc == 0 and sigpipe_ignored(out), 'an inherited SIG_IGN is kept: %r %r' % (out, err))


OLD_TRACE = b'an earlier recording the user keeps\n'


def write_old_trace(path):
    with open(path, 'wb') as f:
        f.write(OLD_TRACE)


def expect_old_trace(path, why):
    with open(path, 'rb') as f:
        expect(f.read() == OLD_TRACE, '%s: the existing output was replaced' % why)
    expect(not os.path.exists(path + '.part'), '%s: the temporary file is left' % why)


@with_env
def record_missing_command_keeps_output(env):
    write_old_trace(env.out)
    rc, out, err = env.record('/nonexistent/program')
    expect(rc == 1, 'a command that cannot run is a runtime error, 1, got %d: %s' % (rc, err))
    expect_old_trace(env.out, 'a command that does not exist')


@with_env
def record_noexec_keeps_output(env):
    script = os.path.join(env.dir, 'noexec.sh')
    with open(script, 'w') as f:
        f.write('#!/bin/sh\ntrue\n')
    os.chmod(script, 0o644)
    write_old_trace(env.out)
    rc, out, err = env.record('-F', script)
    expect(rc == 1, 'a script without the x bit is a runtime error, 1, got %d: %s' % (rc, err))
    expect('Permission denied' in err, 'the message says why: %r' % err)
    expect_old_trace(env.out, 'a script that cannot be executed')


@with_env
def record_output_is_directory(env):
    target = os.path.join(env.dir, 'adir')
    os.mkdir(target)
    p = start([tracekit(), 'record', '-o', target, 'true'], cwd=env.dir)
    rc, out, err = finish(p, 60)
    env.check_clean(p.pid)
    expect(rc == 1, '-o DIR is refused before recording (exit 1), got %d: %s' % (rc, err))
    lines = err.strip().splitlines()
    expect(len(lines) == 1 and 'is a directory' in lines[0] and target in lines[0],
           'one line naming the directory: %r' % err)
    stray = [f for f in os.listdir(env.dir) if f.startswith('adir.')]
    expect(not stray, 'nothing is made beside the directory: %r' % stray)


@with_env
def record_usage_errors(env):
    for args in (['-b', 'lots', 'true'], ['-P', 'x'], ['-F'], ['--bogus', 'true'], ['-f', 'a == 1']):
        rc, out, err = env.record(*args)
        expect(rc == 2, '%r is a usage error (exit 2), got %d' % (args, rc))
        expect(len(err.strip().splitlines()) == 1, 'one line for %r: %r' % (args, err))


@with_env
def record_full_disk(env):
    small = os.path.join(env.dir, 'small')
    os.mkdir(small)
    rc, _, err = run(['mount', '-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', small])
    if rc != 0:
        raise Skip('cannot mount a small tmpfs to fill: %s' % err.strip())
    try:
        out = os.path.join(small, 'trace.dat')
        write_old_trace(out)
        p = start([tracekit(), 'record', '-o', out, '-e', 'sched', '-e', 'syscalls',
                   '--duration', '3', 'sh', '-c', 'for i in $(seq 3000); do :; done'])
        rc, _, err = finish(p, 120)
        env.check_clean(p.pid)
        expect(rc != 0, 'a full disk is an error')
        expect(re.search(r'No space left on device', err), 'the message says why: %r' % err)
        expect_old_trace(out, 'a full disk')
        kept = [f for f in os.listdir(small) if re.search(r'\.cpu\d+$', f)]
        expect(kept, 'the recorded data is kept: %r' % os.listdir(small))
        rc, rout, rerr = run([tracekit(), 'reset'])
        expect(rc == 0, 'reset runs: %s' % rerr)
        left = [f for f in os.listdir(small) if re.search(r'\.cpu\d+$', f)]
        expect(not left, 'reset removes the kept per-CPU files (they are in the registry): %r' % left)
    finally:
        run(['umount', '-l', small])


@with_env
def record_opens_quietly_in_libtracecmd(env):
    """KernelShark and trace-cmd open our files without a warning (no unknown options)."""
    checker = OPTIONS.get('quiet-open')
    if not checker:
        raise Skip('--quiet-open PATH (the built tracecmd-quiet-open) is not given')
    for version in ('7', '6'):
        rc, out, err = env.record('--file-version', version, '-F', 'sh', '-c', 'echo hi | wc -c')
        expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
        rc, out, err = run([checker, env.out])
        expect(rc == 0, 'v%s: libtracecmd opens the file silently: %s' % (version, err.strip()))
        got = report_json(env.out)
        expect(re.search(r': %d records$' % len(got), out.strip()),
               'v%s: libtracecmd reads every record: %r vs %d' % (version, out, len(got)))
        rc, text, err = run([tracekit(), 'sched', '-i', env.out])
        expect('showing the command recorded' in text,
               "v%s: tracekit still reads its notes (the command): %r" % (version, text[-400:]))


def instance_setting(env, p, name):
    """A file of record p's instance, read once its command runs `sleep` (set up by then)."""
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            kids = read('/proc/%d/task/%d/children' % (p.pid, p.pid)).split()
            started = any(read('/proc/%s/comm' % k).strip() == 'sleep' for k in kids)
        except OSError:
            started = False
        for inst in instances_of(env.root, p.pid) if started else []:
            return read(os.path.join(env.root, 'instances', inst, name)).strip()
        time.sleep(0.02)
    raise Fail('no instance of record pid %d appeared' % p.pid)


def mem_available_kb():
    with open('/proc/meminfo') as f:
        return int(re.search(r'^MemAvailable:\s+(\d+)', f.read(), re.M).group(1))


@with_env
def record_default_buffer_fits_events(env):
    """Without -b the buffer is sized for the events (the demo lost events at 1408 KB).
    -e sched brings the timer and irq events around wakeups, busy systems; a quiet
    event alone keeps the small buffer."""
    ncpus = os.cpu_count()
    for events, want in ((['-e', 'sched:sched_switch'], 4096), (['-e', 'sched'], 16384),
                         (['-e', 'sched', '-e', 'raw_syscalls'], 16384)):
        want = max(1408, min(want, mem_available_kb() // 32 // ncpus))
        p = start([tracekit(), 'record', '-o', env.out] + events + ['sleep', '1'], cwd=env.dir)
        try:
            size = instance_setting(env, p, 'buffer_size_kb')
            percent = instance_setting(env, p, 'buffer_percent')
        finally:
            rc, out, err = finish(p, 60)
        env.check_clean(p.pid)
        expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
        got = int(re.match(r'\d+', size).group(0))
        expect(abs(got - want) <= want // 8, '%r: %d KB per CPU, want about %d' % (events, got, want))
        expect(percent == '10', '%r: the reader is woken at 10%%, not %s' % (events, percent))
    p = start([tracekit(), 'record', '-o', env.out, '-b', '2048', 'sleep', '1'], cwd=env.dir)
    try:
        size = instance_setting(env, p, 'buffer_size_kb')
        percent = instance_setting(env, p, 'buffer_percent')
    finally:
        finish(p, 60)
    env.check_clean(p.pid)
    expect(percent == '10', 'with -b too the reader is woken at 10%%, not %s' % percent)
    got = int(re.match(r'\d+', size).group(0))
    expect(2048 <= got <= 2048 + 256, '-b 2048 is kept as given (to whole pages): %r' % size)


@with_env
def record_full_disk_recover(env):
    """After a full disk, --recover writes the trace from the kept files once there is room."""
    small = os.path.join(env.dir, 'small')
    os.mkdir(small)
    rc, _, err = run(['mount', '-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', small])
    if rc != 0:
        raise Skip('cannot mount a small tmpfs to fill: %s' % err.strip())
    try:
        out = os.path.join(small, 'trace.dat')
        p = start([tracekit(), 'record', '-o', out, '-e', 'sched', '-e', 'syscalls',
                   '--duration', '3', 'sh', '-c', 'for i in $(seq 3000); do :; done'])
        rc, _, err = finish(p, 120)
        env.check_clean(p.pid)
        expect(rc == 1, 'a full disk is an error (exit 1), got %d: %s' % (rc, err))
        expect("'tracekit record --recover %s'" % out in err, 'the message says how to recover: %r' % err)
        kept = sum(os.path.getsize(os.path.join(small, f)) for f in os.listdir(small)
                   if re.search(r'\.cpu\d+$', f))
        expect(kept > 0, 'per-CPU data is kept: %r' % os.listdir(small))
        rc, _, err = run([tracekit(), 'record', '--recover', out])
        expect(rc == 1 and 'No space left' in err, 'no room yet: exit 1, says why: %d %r' % (rc, err))
        run(['mount', '-o', 'remount,size=64m', small])
        rc, _, err = run([tracekit(), 'record', '--recover', out])
        expect(rc == 0, '--recover with room: exit 0, got %d: %s' % (rc, err))
        m = re.search(r': (\d+) events recovered', err)
        expect(m and int(m.group(1)) > 0, 'it says how many events: %r' % err)
        expect(sorted(os.listdir(small)) == ['trace.dat'],
               'only the trace is left: %r' % os.listdir(small))
        got = check_against_tracecmd(out)
        expect(len(got) == int(m.group(1)), 'the file holds the %s events: %d' % (m.group(1), len(got)))
        rc, _, err = run([tracekit(), 'record', '--recover', out])
        expect(rc == 1 and 'no kept recording' in err and err.count('\n') == 1,
               'nothing left to recover: one line, exit 1: %r' % err)
    finally:
        run(['umount', '-l', small])


@with_env
def record_stack_traces(env):
    rc, out, err = env.record('-T', '--user-stack', '-e', 'sched:sched_switch', '-F', 'sleep', '0.1')
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    got = check_against_tracecmd(env.out)
    names = collections.Counter(e['event'].split(':')[-1] for e in got)
    expect(names['kernel_stack'] > 0 and names['user_stack'] > 0,
           'a kernel and a user stack follow the events: %r' % names)


def setup(argv):
    for opt in ('--progs', '--quiet-open'):
        if opt in argv:
            OPTIONS[opt[2:]] = os.path.abspath(argv[argv.index(opt) + 1])
    return None


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_record.py CASE --progs DIR | --list', setup))

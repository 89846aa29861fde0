#!/usr/bin/env python3
"""The exit status rule of docs/exit-status.md, verb by verb.

    test_exit_status.py CASE --fixtures DIR    # run one case (one verb)
    test_exit_status.py --list                  # the case names

2: the command line is wrong (unknown option, bad or out-of-range value, options that do
not go together, too many arguments, an expression that does not parse, a syscall, event,
field or clock that does not exist).  1: the command line is right but running it failed
(a file missing or not what it should be, an output that cannot be written, a process
that is not there, a command that cannot be executed).  Each with exactly one line on
stderr naming what was wrong and nothing on stdout.

The binary is $TRACEKIT.  Cases that need the kernel (record, list, reset, probe) need
root and tracefs: outside CI they skip with the reason, with CI=true they fail.  Nothing is
recorded: every recording here is refused before it starts, and each case checks that no
tracekit instance of its own is left.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import Fail, case, expect, main, run, tracefs, tracekit  # noqa: E402

OPTIONS = {}


def fixture():
    return os.path.join(OPTIONS['fixtures'], 'tracecmd-v7.dat')


def check(verb, table):
    """table: (argv after the verb, expected status, text the one stderr line must hold)."""
    bad = []
    for argv, want, text in table:
        rc, out, err = run([tracekit(), verb] + argv, timeout=60)
        lines = err.splitlines()
        if rc != want or len(lines) != 1 or text not in err or out:
            bad.append('%s %s: exit %d (want %d), stdout %r, stderr %r (want one line with %r)'
                       % (verb, ' '.join(argv), rc, want, out[:80], err, text))
    expect(not bad, '\n  ' + '\n  '.join(bad))


def dead_instances(root):
    """tracekit instances whose owner is gone (other runs on this machine may add some)."""
    return {d for d in os.listdir(os.path.join(root, 'instances')) if d.startswith('tracekit-')
            and not os.path.exists('/proc/%s' % d.split('-')[1])}


@case
def syscalls(_):
    with tempfile.TemporaryDirectory(prefix='tk-exit-') as d:
        check('syscalls', [
            ([], 2, 'nothing to trace'),
            (['--bogus', 'true'], 2, "'--bogus'"),
            (['-s', 'lots', 'true'], 2, "'lots'"),
            (['-p', 'x'], 2, "'x'"),
            (['-e', 'trace=opn', 'true'], 2, "'opn'"),
            (['-S', 'bogus', '-c', 'true'], 2, "'bogus'"),
            (['-c', '-C', 'true'], 2, 'mutually exclusive'),
            (['/nonexistent/tk-cmd'], 1, '/nonexistent/tk-cmd'),
            (['-o', os.devnull, d], 1, d),
            (['-p', '999999999'], 1, '999999999'),
            (['-o', '/nonexistent/tk.out', 'true'], 1, '/nonexistent/tk.out'),
        ])


@case
def record(_):
    root = tracefs()
    before = dead_instances(root)
    check('record', [
        (['--bogus', 'true'], 2, "'--bogus'"),
        (['-b', '99999999999', 'true'], 2, 'from 4 to 4194304'),
        (['--duration', 'abc'], 2, "--duration 'abc': not a number of seconds"),
        (['-P', '1', 'true'], 2, 'not both'),
        (['-F'], 2, '-F needs a COMMAND'),
        (['--probe', 'q ./x:main', 'true'], 2, "column 1"),
        (['-e', 'sched:sched_swich', 'true'], 2, 'sched_switch'),
        (['-C', 'no_such_clock', 'true'], 2, 'no_such_clock'),
        # a tracer is one of the kernel's set, as latency's is one of its own
        (['-p', 'tk_no_such_tracer', 'true'], 2, 'tk_no_such_tracer'),
        (['-P', '999999999'], 1, '999999999'),
    ])
    left = dead_instances(root) - before
    expect(not left, 'refused recordings left instances: %s' % sorted(left))


@case
def record_unmatched_system(_):
    """A -e system that is neither the kernel's nor any traced program's is found only at
    the end (a program may announce it): the trace is written, and the status says 2."""
    root = tracefs()
    before = dead_instances(root)
    with tempfile.TemporaryDirectory(prefix='tk-exit-') as d:
        out = os.path.join(d, 'tk.dat')
        rc, _, err = run([tracekit(), 'record', '-q', '-o', out, '-e', 'sche:*', '--', 'true'],
                         timeout=120)
        expect(rc == 2, 'record -e sche:* -- true: exit %d, want 2; stderr %r' % (rc, err))
        last = err.strip().splitlines()[-1] if err.strip() else ''
        expect('sche:*' in last and 'did you mean sched' in last,
               'the last line names -e sche:* and the system meant: %r' % last)
        expect(os.path.exists(out), 'the trace is still written (its kernel events are real)')
    left = dead_instances(root) - before
    expect(not left, 'left instances: %s' % sorted(left))


def trace_file_verb(verb, extra=()):
    check(verb, [
        (['--bogus'] + list(extra) + [fixture()], 2, "'--bogus'"),
        # several files merge (host and guests); giving them both ways is the usage error
        (list(extra) + ['-i', fixture(), fixture()], 2, 'given both ways'),
        (list(extra) + ['/nonexistent/tk.dat'], 1, '/nonexistent/tk.dat'),
        (list(extra) + ['/etc/passwd'], 1, 'not a trace.dat'),
    ])


@case
def report(_):
    trace_file_verb('report')
    check('report', [
        (['--from', 'abc', fixture()], 2, "'abc'"),
        (['--from', '5', '--to', '1', fixture()], 2, 'after --to'),
        # one output at a time: --stat used to win silently over --json
        (['--json', '--stat', fixture()], 2, '--json and --stat'),
        (['--stat', '--syscalls', fixture()], 2, '--stat and --syscalls'),
    ])


@case
def sched(_):
    trace_file_verb('sched')
    check('sched', [
        (['--pid', 'abc', fixture()], 2, "'abc'"),
    ])


@case
def view(_):
    trace_file_verb('view', ['-o', '/dev/null'])
    check('view', [
        (['--max-events', 'abc', fixture()], 2, "'abc'"),
        # the user's path, not the temporary name beside it
        (['-o', '/nonexistent/tk.html', fixture()], 1, 'cannot write /nonexistent/tk.html: '),
    ])


@case
def export(_):
    trace_file_verb('export', ['--format', 'chrome', '-o', '/dev/null'])
    check('export', [
        (['--format', 'bogus', '-o', '/dev/null', fixture()], 2, "'bogus'"),
        (['--format', 'chrome', fixture()], 2, '-o FILE'),
        (['--format', 'chrome', '-o', '/nonexistent/tk.json', fixture()], 1,
         '/nonexistent/tk.json'),
    ])


@case
def list_verb(_):
    tracefs()
    check('list', [
        (['--bogus'], 2, "'--bogus'"),
        (['extra'], 2, "'extra'"),
        (['--format', 'sched:sched_switch', '-e', 'x'], 2, 'does not mix'),
        # list answers a question: nothing found is 1, as grep
        (['-e', 'no_such_event_tk'], 1, 'no_such_event_tk'),
    ])


@case
def reset(_):
    check('reset', [
        (['--bogus'], 2, "'--bogus'"),
        (['extra'], 2, "'extra'"),
    ])


@case
def probe(_):
    tracefs()
    check('probe', [
        ([], 2, 'sub-command'),
        (['bogus'], 2, 'bogus'),
        (['add'], 2, 'probe definition'),
        (['add', 'q ./x:main'], 2, 'column 1'),
        (['trace', 'q ./x:main', '--', 'true'], 2, 'column 1'),
        (['trace', '--ptrace', 'p /nonexistent/tk:main', '--', 'true'], 1, '/nonexistent/tk'),
        (['del', 'tk_no_such_group'], 1, 'tk_no_such_group'),
    ])


@case
def oops(_):
    check('oops', [
        (['--bogus'], 2, "'--bogus'"),
        (['a.txt', 'b.txt'], 2, "'b.txt'"),
        (['/nonexistent/tk.log'], 1, '/nonexistent/tk.log'),
        (['--vmlinux', '/nonexistent/vmlinux', '/dev/null'], 1, '/nonexistent/vmlinux'),
        (['--vmlinux', '/etc/passwd', os.path.join(OPTIONS['fixtures'], 'oops', 'case-01.txt')],
         1, '--vmlinux'),
    ])


@case
def top_level(_):
    for argv, want in ((['frobnicate'], 2), (['--frobnicate'], 2), (['help', 'frobnicate'], 2),
                       ([], 2)):
        rc, out, err = run([tracekit()] + argv)
        expect(rc == want, 'tracekit %s: exit %d, want %d' % (' '.join(argv), rc, want))
    # help about help is the usage, as `tracekit help help`
    for flag in ('--help', '-h'):
        rc, out, err = run([tracekit(), 'help', flag])
        expect(rc == 0 and out.startswith('usage: tracekit') and not err,
               'tracekit help %s: exit %d, stdout %r, stderr %r' % (flag, rc, out[:40], err))


def setup(argv):
    if '--fixtures' not in argv:
        raise Fail('--fixtures DIR is needed')
    OPTIONS['fixtures'] = os.path.abspath(argv[argv.index('--fixtures') + 1])


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_exit_status.py CASE --fixtures DIR | --list', setup))

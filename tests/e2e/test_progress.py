#!/usr/bin/env python3
"""The live progress line of long work: on a terminal only, never with -q or into a pipe.

    test_progress.py CASE       # one case
    test_progress.py --list

A terminal is a pty (python's pty module) given to tracekit as its stdin, stdout and
stderr.  record shows "events, lost, size, elapsed (Ctrl-C to stop)" while it records; view
shows how far it read a big trace (over 131072 events); both clear their line at the end.
"""

import os
import pty
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import case, expect, instances_of, main, run, tracefs, tracekit  # noqa: E402

RECORD_LINE = re.compile(rb'\r\x1b\[Ktracekit: record: (\d+) events, (\d+) lost, [\d.]+ [KMG]B, '
                         rb'[\d.]+ s \(Ctrl-C to stop\)')
VIEW_LINE = re.compile(rb'\r\x1b\[Ktracekit: view: reading \S+: (\d+) events, [\d.]+ s into the '
                       rb'trace')


def on_pty(argv, cwd):
    """(exit status, everything written to the terminal) of argv run on a fresh pty."""
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, cwd=cwd,
                         start_new_session=True)
    os.close(slave)
    out = b''
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:	# EIO: every writer closed the pty
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return p.wait(timeout=120), out


def busy(n):
    """A command that makes 2n raw_syscalls events (a read and a write per byte)."""
    return ['dd', 'if=/dev/zero', 'of=/dev/null', 'bs=1', 'count=%d' % n]


@case
def record_on_terminal(_):
    """On a terminal record draws its line while the command runs, then clears it."""
    tracefs()
    with tempfile.TemporaryDirectory(prefix='tk-progress-') as d:
        rc, out = on_pty([tracekit(), 'record', '-F', '-e', 'raw_syscalls', '-o', 'p.dat',
                          '--', 'sleep', '2'], d)
        expect(rc == 0, 'record: exit %d: %r' % (rc, out[-300:]))
        lines = RECORD_LINE.findall(out)
        expect(lines, 'no progress line on the terminal: %r' % out[-300:])
        expect(b'\r\x1b[K  CPU 0:' in out or b'\r\x1b[Ktracekit: record: p.dat:' in out,
               'the line is not cleared before the summary: %r' % out[-300:])


@case
def record_quiet_or_piped(_):
    """-q on a terminal, or stderr into a pipe: no progress line, no terminal codes."""
    tracefs()
    with tempfile.TemporaryDirectory(prefix='tk-progress-') as d:
        argv = [tracekit(), 'record', '-F', '-e', 'raw_syscalls', '-o', 'p.dat', '--', 'sleep',
                '1.5']
        rc, out = on_pty(argv[:2] + ['-q'] + argv[2:], d)
        expect(rc == 0 and b'\x1b[K' not in out and b'Ctrl-C' not in out,
               'record -q on a terminal: exit %d, %r' % (rc, out))
        rc, _, err = run(argv, timeout=120, cwd=d)
        expect(rc == 0 and '\x1b' not in err and 'Ctrl-C' not in err,
               'record into a pipe: exit %d, %r' % (rc, err))


@case
def view_big_trace(_):
    """view of a trace of 400000 events shows how far it read, on a terminal only."""
    root = tracefs()
    with tempfile.TemporaryDirectory(prefix='tk-progress-') as d:
        p = subprocess.run([tracekit(), 'record', '-q', '-F', '-e', 'raw_syscalls', '-o', 'big.dat',
                            '--'] + busy(200000), cwd=d, capture_output=True, text=True,
                           timeout=300)
        expect(p.returncode == 0, 'record: %s' % p.stderr)
        expect(not instances_of(root, os.getpid()), 'instances left')
        rc, out = on_pty([tracekit(), 'view', '-i', 'big.dat', '-o', 'big.html'], d)
        expect(rc == 0, 'view: exit %d: %r' % (rc, out[-300:]))
        got = [int(n) for n in VIEW_LINE.findall(out)]
        expect(got and got[0] >= 131072, 'no progress line for a big trace: %r' % out[-300:])
        expect(out.endswith(b'\r\x1b[K'), 'the line is not cleared at the end: %r' % out[-100:])
        rc, out = on_pty([tracekit(), 'view', '-q', '-i', 'big.dat', '-o', 'big.html'], d)
        expect(rc == 0 and out == b'', 'view -q on a terminal: exit %d, %r' % (rc, out[-200:]))
        rc, so, err = run([tracekit(), 'view', '-i', 'big.dat', '-o', 'big.html'], cwd=d)
        expect(rc == 0 and not err and not so, 'view into a pipe: exit %d, %r' % (rc, err))


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_progress.py CASE'))

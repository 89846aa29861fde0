#!/usr/bin/env python3
"""trace-cmd reads the trace.dat files tracekit's writer makes.

    test_writer_tracecmd.py WRITER_RECORD

WRITER_RECORD (tests/e2e/writer_record.c) records sched_switch and
sched_wakeup in its own tracefs instance, writes v7.dat and v6.dat with
tf_writer and prints how many of each event it counted in the raw pages.
Here, for both files: `trace-cmd report` exits 0 and prints exactly those
counts of lines, `trace-cmd report --stat` and `trace-cmd dump --summary`
succeed and see what was written; afterwards no tracekit-* instance is left
and no event is enabled at the top level.

Outside CI a missing prerequisite (root, tracefs, trace-cmd) skips with its
reason (exit 77); with CI=true it fails.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77
TRACEFS = '/sys/kernel/tracing'
IN_CI = os.environ.get('CI') == 'true'


class Skip(Exception):
    pass


class Fail(Exception):
    pass


def expect(ok, what):
    if not ok:
        raise Fail(what)


def run(args, timeout=120):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=timeout, errors='replace')


def prerequisites():
    if os.geteuid() != 0:
        raise Skip('needs root for tracefs instances')
    if not os.path.isdir(TRACEFS + '/instances'):
        raise Skip(TRACEFS + ' is not mounted (mount -t tracefs nodev ' + TRACEFS + ')')
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed (apt-get install trace-cmd)')


def leftovers():
    """What a test must not leave: our instances, events enabled at the top level."""
    left = [d for d in os.listdir(TRACEFS + '/instances')
            if d.startswith('tracekit-') and d.endswith('-writer-test')]
    with open(TRACEFS + '/set_event') as f:
        enabled = [line.strip() for line in f if line.strip()]
    return left, enabled


def record(helper, outdir):
    r = run([helper, outdir])
    if r.returncode == SKIP:
        raise Skip(r.stderr.strip())
    expect(r.returncode == 0, 'writer-record exited %d: %s' % (r.returncode, r.stderr.strip()))
    counts = dict(line.split() for line in r.stdout.splitlines())
    counts = {k: int(v) for k, v in counts.items()}
    expect(counts.get('sched_switch', 0) > 0, 'no sched_switch recorded: %r' % r.stdout)
    expect(counts.get('sched_wakeup', 0) > 0, 'no sched_wakeup recorded: %r' % r.stdout)
    return counts


def check_report(path, counts):
    r = run(['trace-cmd', 'report', '-i', path])
    expect(r.returncode == 0, '%s: trace-cmd report exited %d: %s' % (path, r.returncode, r.stderr))
    for event, want in counts.items():
        got = len(re.findall(r'^\s*\S.*\[\d+\]\s+\d+\.\d+: %s: ' % event, r.stdout, re.M))
        expect(got == want, '%s: trace-cmd report printed %d %s lines, the pages hold %d'
               % (path, got, event, want))
    expect('[mono]' not in r.stderr and 'unknown option' not in r.stderr,
           '%s: trace-cmd report complained: %s' % (path, r.stderr))


def check_stat(path, counts):
    r = run(['trace-cmd', 'report', '--stat', '-i', path])
    expect(r.returncode == 0, '%s: trace-cmd report --stat exited %d: %s'
           % (path, r.returncode, r.stderr))
    # The CPUSTAT options carry each CPU's stats file; read events add up to what we counted.
    read = sum(int(n) for n in re.findall(r'^read events: (\d+)', r.stdout, re.M))
    expect(read == sum(counts.values()), '%s: --stat shows %d read events, the pages hold %d'
           % (path, read, sum(counts.values())))


def check_dump(path, version):
    r = run(['trace-cmd', 'dump', '--summary', '-i', path])
    if r.returncode != 0 and 'unrecognized option' in r.stderr:
        return  # an older trace-cmd without dump --summary
    expect(r.returncode == 0, '%s: trace-cmd dump --summary exited %d: %s'
           % (path, r.returncode, r.stderr))
    expect(re.search(r'^\s*%d\s+\[Version\]' % version, r.stdout, re.M),
           '%s: dump does not show version %d:\n%s' % (path, version, r.stdout))
    expect('[Events format, 1 systems]' in r.stdout, '%s: dump lacks the sched system:\n%s'
           % (path, r.stdout))
    if version == 7:
        expect('"mono" clock' in r.stdout and 'none\t[Compression algorithm]' in r.stdout,
               '%s: dump lacks the buffer clock or compression header:\n%s' % (path, r.stdout))
    else:
        expect('[mono]' in r.stdout, '%s: dump lacks the v6 clock:\n%s' % (path, r.stdout))


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        prerequisites()
        outdir = tempfile.mkdtemp(prefix='tk-writer-e2e-')
        try:
            counts = record(sys.argv[1], outdir)
            for name, version in (('v7.dat', 7), ('v6.dat', 6)):
                path = os.path.join(outdir, name)
                check_report(path, counts)
                check_stat(path, counts)
                check_dump(path, version)
        finally:
            shutil.rmtree(outdir, ignore_errors=True)
            left, enabled = leftovers()
            expect(not left, 'instances left behind: %s' % left)
            expect(not enabled, 'events left enabled at the top level: %s' % enabled)
    except Skip as e:
        if IN_CI:
            print('FAIL (CI=true, cannot skip): %s' % e, file=sys.stderr)
            return 1
        print('SKIP: %s' % e, file=sys.stderr)
        return SKIP
    except Fail as e:
        print('FAIL: %s' % e, file=sys.stderr)
        return 1
    print('ok: trace-cmd read v7 and v6 files with %s' % counts)
    return 0


if __name__ == '__main__':
    sys.exit(main())

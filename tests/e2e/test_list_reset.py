#!/usr/bin/env python3
"""e2e tests of `tracekit list` and `tracekit reset` on the running kernel.

    test_list_reset.py CASE --holder PATH    # run one case
    test_list_reset.py --list                 # the case names

The binary is $TRACEKIT.  The holder (session_holder.c) makes an ftrace
session, prints its instance name and waits: a stand-in for a recording
that gets SIGKILLed.  Needs root and tracefs; outside CI a missing
prerequisite skips with its reason (exit 77), with CI=true it fails.
Every child is killed on every path, and every case checks that the
top-level set_event is as it was.
"""

import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import CASES, Fail, Skip, case, expect, main, read, tracefs, tracekit  # noqa: E402,F401

OPTIONS = {}
REGISTRY = '/run/tracekit/instances'


def run(argv, timeout=60, **kw):
    """Run to completion; returns (exit status as a shell reports it, stdout, stderr)."""
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout,
                       **kw)
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return rc, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')


def one_line(text):
    lines = text.splitlines()
    return len(lines) == 1 and lines[0].strip() != ''


def kernel_events(root):
    return sorted(l for l in read(os.path.join(root, 'available_events')).splitlines()
                  if ':' in l)


def kernel_fields(root, system, event):
    """(type, name, offset, size, signed) of each field in the event's format file."""
    text = read(os.path.join(root, 'events', system, event, 'format'))
    fields = []
    for m in re.finditer(r'field:(.+?);\s*offset:(\d+);\s*size:(\d+);\s*signed:(\d+);', text):
        decl, offset, size, signed = m.groups()
        dm = re.fullmatch(r'(.*?)\s*([A-Za-z_]\w*)(\[\d*\])?', decl.strip())
        ftype = dm.group(1) + (dm.group(3) or '')
        fields.append((ftype, dm.group(2), int(offset), int(size), int(signed)))
    return fields


# --- list ----------------------------------------------------------------------------------

@case
def list_all(root):
    rc, out, err = run([tracekit(), 'list'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    lines = out.splitlines()
    expect('sched:sched_switch' in lines, 'sched:sched_switch is listed')
    expect(lines == sorted(set(lines)), 'lines are sorted and unique')
    expect(lines == kernel_events(root), 'the list is available_events, sorted')


@case
def list_glob(root):
    rc, out, err = run([tracekit(), 'list', '-e', 'sched:*'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    want = [e for e in kernel_events(root) if e.startswith('sched:')]
    expect(out.splitlines() == want, "-e 'sched:*' lists the sched system: %r" % out[:200])
    rc, out2, err = run([tracekit(), 'list', '-e', 'sched'])
    expect(rc == 0 and out2 == out, '-e sched is the same as -e sched:*')
    rc, out3, err = run([tracekit(), 'list', '-e', 'sched:sched_wak*'])
    names = out3.splitlines()
    expect('sched:sched_waking' in names and 'sched:sched_switch' not in names,
           'a glob on the event part: %r' % names)


@case
def list_several_globs(root):
    rc, out, err = run([tracekit(), 'list', '-e', 'sched:sched_switch', '-e', 'irq:*',
                        '-e', 'sched_switch'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    want = sorted(['sched:sched_switch'] + [e for e in kernel_events(root)
                                            if e.startswith('irq:')])
    expect(out.splitlines() == want, 'the union of the globs, once each, sorted')


@case
def list_json(root):
    rc, out, err = run([tracekit(), 'list', '-e', 'sched:sched_switch', '--json'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    expect([json.loads(l) for l in out.splitlines()] ==
           [{'system': 'sched', 'event': 'sched_switch'}], 'json: %r' % out)


@case
def list_unknown_event(root):
    rc, out, err = run([tracekit(), 'list', '-e', 'sched:sched_swich'])
    expect(rc == 1, 'exit 1 expected, got %d' % rc)
    expect(out == '', 'nothing on stdout')
    expect(one_line(err) and err.startswith(
        "tracekit: list: event 'sched:sched_swich' not found (did you mean sched:sched_switch"),
        'one line naming the closest event: %r' % err)


@case
def list_format(root):
    rc, out, err = run([tracekit(), 'list', '--format', 'sched:sched_switch'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    lines = out.splitlines()
    expect(lines[0].split() == ['type', 'name', 'offset', 'size', 'signed'],
           'a header: %r' % lines[0])
    rows = []
    # the table, a blank line, then the event's print fmt line as the format file has it
    text = read(os.path.join(root, 'events', 'sched', 'sched_switch', 'format'))
    fmt = [l for l in text.splitlines() if l.startswith('print fmt: ')]
    expect(lines[-2:] == [''] + fmt, 'the print fmt line last: %r' % lines[-2:])
    for line in lines[1:-2]:
        m = re.fullmatch(r'(.+?)\s+(\w+)\s+(\d+)\s+(\d+)\s+(yes|no)', line)
        expect(m, 'a table row: %r' % line)
        rows.append((m.group(1), m.group(2), int(m.group(3)), int(m.group(4)),
                     int(m.group(5) == 'yes')))
    want = kernel_fields(root, 'sched', 'sched_switch')
    expect(rows == want, 'rows are the format file\'s fields:\n%r\n%r' % (rows, want))
    expect(('pid_t', 'next_pid') == rows[[r[1] for r in rows].index('next_pid')][:2],
           'next_pid is a pid_t')


@case
def list_format_json(root):
    rc, out, err = run([tracekit(), 'list', '--format', 'sched_switch', '--json'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    objs = [json.loads(l) for l in out.splitlines()]
    got = [(o['type'], o['name'], o['offset'], o['size'], int(o['signed'])) for o in objs]
    expect(got == kernel_fields(root, 'sched', 'sched_switch'), 'json fields: %r' % got)
    expect(all(o['event'] == 'sched:sched_switch' for o in objs), 'the full event name')
    expect([o['common'] for o in objs][:1] == [True], 'common fields first')


def table_rows(lines):
    rows = []
    for line in lines:
        m = re.fullmatch(r'(.+?)\s+(\w+)\s+(\d+)\s+(\d+)\s+(yes|no)', line)
        expect(m, 'a table row: %r' % line)
        rows.append((m.group(1), m.group(2), int(m.group(3)), int(m.group(4)),
                     int(m.group(5) == 'yes')))
    return rows


@case
def list_format_system(root):
    """--format SYSTEM: each event of the system, its name over its own table."""
    rc, out, err = run([tracekit(), 'list', '--format', 'sched'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    # each event: its name over its table, a blank line, its print fmt
    parts = [b.splitlines() for b in out.split('\n\n')]
    blocks = [b for b in parts if not b[0].startswith('print fmt: ')]
    expect(len(parts) == 2 * len(blocks) and
           all(p[0].startswith('print fmt: ') for p in parts[1::2]),
           'a print fmt after each table')
    names = [b[0] for b in blocks]
    want = [e for e in kernel_events(root) if e.startswith('sched:')]
    expect(names == want, 'one block per sched event, in order: %r' % names)
    for b in blocks:
        system, event = b[0].split(':')
        expect(b[1].split() == ['type', 'name', 'offset', 'size', 'signed'], 'header: %r' % b[1])
        expect(table_rows(b[2:]) == kernel_fields(root, system, event), 'fields of %s' % b[0])
    rc, out, err = run([tracekit(), 'list', '--format', 'sched:sched_wak*', '--json'])
    got = sorted({json.loads(l)['event'] for l in out.splitlines()})
    expect(rc == 0 and got == [e for e in want if e.startswith('sched:sched_wak')],
           'a glob with --json: %r' % got)


@case
def list_format_unknown(root):
    rc, out, err = run([tracekit(), 'list', '--format', 'sched:nonesuch_event'])
    expect(rc == 1, 'exit 1 expected, got %d' % rc)
    expect(one_line(err) and "event 'sched:nonesuch_event' not found" in err, repr(err))


@case
def list_syscalls(root):
    rc, out, err = run([tracekit(), 'list', '--syscalls'])
    expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
    names = out.splitlines()
    expect('openat' in names and 'read' in names and 'execve' in names, 'syscall names')
    expect(names == sorted(set(names)), 'sorted and unique')
    rc, out, err = run([tracekit(), 'list', '--syscalls', '-e', 'open*', '--json'])
    objs = [json.loads(l) for l in out.splitlines()]
    expect({'nr': 257, 'name': 'openat', 'nargs': 4} in objs, 'json openat: %r' % objs)
    expect(all(o['name'].startswith('open') for o in objs), 'the glob filters')


@case
def list_usage_errors(root):
    for argv, what in ((['list', '-x'], "unknown option '-x'"),
                       (['list', 'sched'], "unexpected argument 'sched'"),
                       (['list', '-e'], "option '-e' needs a value"),
                       (['list', '--format', 'sched:sched_switch', '-e', 'irq'], '--format'),
                       (['reset', '--bogus'], "unknown option '--bogus'"),
                       (['reset', 'now'], "unexpected argument 'now'")):
        rc, out, err = run([tracekit()] + argv)
        expect(rc == 2, '%s: exit 2 expected, got %d' % (argv, rc))
        expect(one_line(err) and what in err, '%s: one line saying %r: %r' % (argv, what, err))


@case
def list_reset_help(root):
    for verb in ('list', 'reset'):
        rc, out, err = run([tracekit(), 'help', verb])
        expect(rc == 0 and out.startswith('usage: tracekit ' + verb), 'help ' + verb)
    rc, out, err = run([tracekit(), '--help'])
    expect(re.search(r'^\s+list\s', out, re.M) and re.search(r'^\s+reset\s', out, re.M),
           '--help lists list and reset')


@case
def list_reset_not_root(root):
    """As an unprivileged user, one line saying root is needed."""
    setpriv = '/usr/bin/setpriv'
    if not os.access(setpriv, os.X_OK):
        raise Skip('setpriv is not installed')
    for verb in ('list', 'reset'):
        rc, out, err = run([setpriv, '--reuid=65534', '--regid=65534', '--clear-groups',
                            tracekit(), verb])
        expect(rc == 1, '%s as nobody: exit 1 expected, got %d (%s)' % (verb, rc, err))
        expect(err == 'tracekit: %s: tracefs needs root (run as root or with sudo)\n' % verb,
               '%s as nobody: %r' % (verb, err))


# --- reset ---------------------------------------------------------------------------------

def start_holder():
    holder = OPTIONS.get('holder')
    if not holder:
        raise Skip('no --holder PATH given')
    p = subprocess.Popen([holder], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    name = p.stdout.readline().decode().strip()
    if not name:
        p.kill()
        p.wait()
        raise Fail('holder made no session: %s' % p.stderr.read().decode())
    return p, name


@case
def reset_after_sigkill(root):
    p, name = start_holder()
    inst = os.path.join(root, 'instances', name)
    try:
        expect(re.fullmatch(r'tracekit-%d-\d+' % p.pid, name), 'named after the pid: %r' % name)
        expect(os.path.isdir(inst), 'the instance exists while its owner runs')
        expect(read(os.path.join(inst, 'set_event')) == 'sched:sched_switch\n',
               'the holder enabled sched_switch in its instance')
        rc, out, err = run([tracekit(), 'reset'])
        expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
        expect("kept instance %s (owner pid %d still runs; 'tracekit reset --all' stops it)\n"
               % (name, p.pid) in out, 'a live owner keeps its instance: %r' % out)
        expect(os.path.isdir(inst), 'still there')
        p.kill()
        p.wait()
        expect(os.path.isdir(inst), 'SIGKILL leaves the instance behind')
        rc, out, err = run([tracekit(), 'reset'])
        expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
        expect('removed instance %s (owner pid %d is gone)\n' % (name, p.pid) in out,
               'reset says what it removed: %r' % out)
        expect(not os.path.exists(inst), 'the instance is gone')
        expect(not os.path.exists(os.path.join(REGISTRY, name)), 'its registry entry is gone')
        rc, out, err = run([tracekit(), 'reset'])
        expect(name not in out, 'a second reset has nothing of it: %r' % out)
    finally:
        p.kill()
        p.wait()
        if os.path.isdir(inst):
            os.rmdir(inst)


def kill_and_remove(p, d, out):
    """Cleanup of a recording case: its process group, its output files, its directory."""
    import glob
    import signal
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    p.wait()
    for f in glob.glob(out + '*'):
        os.unlink(f)
    os.rmdir(d)


@case
def reset_after_sigkilled_record(root):
    """A SIGKILLed record leaves OUT.cpuN temp files; reset removes them with the instance."""
    import glob
    import signal
    import tempfile
    import time
    d = tempfile.mkdtemp(prefix='tk-reset-')
    out = os.path.join(d, 'k.dat')
    p = subprocess.Popen([tracekit(), 'record', '-q', '-o', out, 'sleep', '30'],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        for _ in range(200):
            if glob.glob(out + '.cpu*') and os.path.exists(os.path.join(root, 'instances')):
                break
            time.sleep(0.05)
        else:
            raise Fail('record never made %s.cpuN' % out)
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        left = sorted(glob.glob(out + '.cpu*'))
        expect(left, 'SIGKILL leaves the per-CPU files')
        rc, text, err = run([tracekit(), 'reset'])
        expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
        expect('removed %s.cpu0..%d (raw per-CPU data of the killed recording)\n' %
               (out, len(left) - 1) in text, 'reset names the files: %r' % text)
        expect(not glob.glob(out + '.cpu*'), 'the files are gone')
        expect(not [n for n in os.listdir(os.path.join(root, 'instances'))
                    if n.startswith('tracekit-%d-' % p.pid)], 'the instance is gone')
    finally:
        kill_and_remove(p, d, out)


@case
def reset_all_stops_a_live_recording(root):
    """reset --all on a live recording stops its owner (SIGTERM), which writes its trace.dat
    and removes its instance itself: no 'Device or resource busy'.  --pid keeps the test
    away from other runs on this machine."""
    import glob
    import signal
    import tempfile
    import time
    d = tempfile.mkdtemp(prefix='tk-reset-')
    out = os.path.join(d, 'live.dat')
    p = subprocess.Popen([tracekit(), 'record', '-q', '-e', 'sched:sched_switch', '-o', out,
                          'sleep', '60'], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        for _ in range(200):
            if glob.glob(out + '.cpu*'):
                break
            time.sleep(0.05)
        else:
            raise Fail('record never started')
        insts = [n for n in os.listdir(os.path.join(root, 'instances'))
                 if n.startswith('tracekit-%d-' % p.pid)]
        expect(len(insts) == 1, 'one instance of the recording: %r' % insts)
        rc, text, err = run([tracekit(), 'reset', '--all', '--pid', str(p.pid)])
        expect(rc == 0, 'exit 0 expected, got %d: %s' % (rc, err))
        expect(err == '', 'nothing on stderr (no busy instance): %r' % err)
        expect('stopping pid %d (a tracekit run still going): SIGTERM' % p.pid in text and
               'pid %d stopped\n' % p.pid in text, 'says what it did: %r' % text)
        # (its stderr is read only at the end: the command it ran, still sleeping, holds it open)
        expect(p.wait(timeout=30) == 0, 'the recording ended as on Ctrl-C: exit %r' % p.returncode)
        expect(os.path.getsize(out) > 0, 'the recording kept its data in %s' % out)
        expect(not os.path.exists(os.path.join(root, 'instances', insts[0])), 'its instance is gone')
        expect(not glob.glob(out + '.cpu*'), 'its staging files are gone')
    finally:
        kill_and_remove(p, d, out)


@case
def reset_usage(root):
    for argv, what in ((['reset', '--pid', 'x'], "--pid 'x'"), (['reset', '--pid'], "'--pid'")):
        rc, out, err = run([tracekit()] + argv)
        expect(rc == 2 and one_line(err) and what in err, '%s: %d %r' % (argv, rc, err))
    rc, out, err = run([tracekit(), 'help', 'reset'])
    expect('--all' in out and 'probe add' in out, 'help says what --all adds: %r' % out)


@case
def reset_clean_exit_leaves_nothing(root):
    p, name = start_holder()
    inst = os.path.join(root, 'instances', name)
    try:
        expect(os.path.isdir(inst), 'the instance exists while its owner runs')
        p.stdin.close()
        expect(p.wait(timeout=30) == 0, 'the holder ends cleanly')
        expect(not os.path.exists(inst), 'a clean end removes the instance')
        expect(not os.path.exists(os.path.join(REGISTRY, name)), 'and its registry entry')
    finally:
        p.kill()
        p.wait()
        if os.path.isdir(inst):
            os.rmdir(inst)


def setup(argv):
    if '--holder' in argv:
        OPTIONS['holder'] = os.path.abspath(argv[argv.index('--holder') + 1])
    return tracefs()


def main_with_top_check(argv):
    """Every case also checks that the top-level set_event is as it was."""
    for name, fn in list(CASES.items()):
        def checked(root, fn=fn):
            before = read(os.path.join(root, 'set_event'))
            fn(root)
            expect(read(os.path.join(root, 'set_event')) == before, 'the top-level set_event changed')
        CASES[name] = checked
    return main(argv, 'test_list_reset.py CASE [--holder PATH] | --list', setup)


if __name__ == '__main__':
    sys.exit(main_with_top_check(sys.argv))

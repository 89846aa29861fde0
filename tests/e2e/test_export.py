#!/usr/bin/env python3
"""e2e tests of `tracekit export`: real recordings exported to Chrome JSON and
Perfetto protobuf, checked against `tracekit report --json` on the same file.

    test_export.py CASE --progs DIR [--fixtures DIR]   # run one case
    test_export.py --list                               # the case names

The protobuf is read back by a small decoder here (the wire format and the field
numbers of Perfetto's protos/perfetto/trace/ files), and once by protoc --decode
against tests/fixtures/perfetto/trace_subset.proto, the part of Perfetto's schema
the exporter writes (a fresh clone cannot fetch Perfetto's own .proto files).
"""

import collections
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import (Fail, Skip, case, expect, finish, instances_of, main, run,  # noqa: E402
                    start, tracefs, tracekit)

OPTIONS = {}
CPU_PID = 0x7fff0000


# ---- the recording and its events as report --json gives them ----

class Trace:
    def __init__(self, path, tmp):
        self.path = path
        self.tmp = tmp
        rc, out, err = run([tracekit(), 'report', '--json', '-i', path], timeout=120)
        expect(rc == 0, 'report --json failed: %s' % err.strip())
        self.events = [json.loads(line) for line in out.splitlines() if line]
        expect(self.events, 'the recording has no events')

    def named(self, name):
        return [e for e in self.events if e.get('event') == name]

    def export(self, fmt):
        out = os.path.join(self.tmp, 'out.' + fmt)
        rc, _, err = run([tracekit(), 'export', '-i', self.path, '--format', fmt, '-o', out],
                         timeout=120)
        expect(rc == 0 and not err, 'export --format %s: rc %d, %s' % (fmt, rc, err.strip()))
        with open(out, 'rb') as f:
            return f.read()


def record(tmp, args, prog_argv):
    """tracekit record ARGS PROG into tmp; checks it left no instance behind."""
    root = tracefs()
    path = os.path.join(tmp, 'trace.dat')
    p = start([tracekit(), 'record', '-q', '-o', path] + args + prog_argv, cwd=tmp)
    rc, _, err = finish(p, 120)
    expect(rc == 0, 'record failed (%d): %s' % (rc, err.strip()))
    expect(not instances_of(root, p.pid), 'record left its instance in tracefs')
    return Trace(path, tmp)


def prog(name):
    path = os.path.join(OPTIONS['progs'], name)
    if not os.access(path, os.X_OK):
        raise Skip('%s is not built' % path)
    return path


def with_tmp(fn):
    def wrapped(_):
        tmp = tempfile.mkdtemp(prefix='tk-export-')
        try:
            fn(tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    wrapped.__name__ = fn.__name__
    return wrapped


# ---- Chrome JSON ----

def chrome_events(trace):
    data = trace.export('chrome')
    try:
        doc = json.loads(data.decode('utf-8'))
    except (UnicodeDecodeError, ValueError) as e:
        raise Fail('not valid JSON: %s' % e)
    return doc['traceEvents']


def check_chrome_shape(evs):
    timed = [e for e in evs if e['ph'] != 'M']
    ts = [e['ts'] for e in timed]
    expect(ts == sorted(ts), 'events are not in time order')
    expect(all(e['dur'] >= 0 for e in evs if e['ph'] == 'X'), 'a negative duration')
    for e in timed:
        expect(isinstance(e['pid'], int) and isinstance(e['tid'], int), 'pid/tid: %r' % e)


def expected_cpu_slices(trace):
    """Per CPU, (start ns, pid) of each run: a switch to a task, and who ran before the first."""
    first_ts, switches, out = {}, collections.defaultdict(list), collections.defaultdict(list)
    for e in trace.events:
        first_ts.setdefault(e['cpu'], e['ts'])
        if e.get('event') == 'sched:sched_switch':
            switches[e['cpu']].append(e)
    for cpu, sw in switches.items():
        if sw[0]['fields']['prev_pid'] != 0:
            out[cpu].append((first_ts[cpu], sw[0]['fields']['prev_pid']))
        out[cpu] += [(s['ts'], s['fields']['next_pid']) for s in sw if s['fields']['next_pid']]
    return out


def us_to_ns(v):
    return round(v * 1000)


def check_chrome_counts(trace, evs):
    want = expected_cpu_slices(trace)
    got = collections.defaultdict(list)
    for e in evs:
        if e['ph'] == 'X':
            got[e['tid'] - CPU_PID - 1].append((us_to_ns(e['ts']), e['args']['pid']))
    expect(dict(got) == dict(want), 'CPU slices differ from the sched_switch events: %d vs %d'
           % (sum(map(len, got.values())), sum(map(len, want.values()))))
    others = [e for e in trace.events if e.get('event') != 'sched:sched_switch']
    marks = [e for e in evs if e['ph'] in 'iBE']
    expect(len(marks) == len(others), '%d instants/slice ends for %d non-switch events'
           % (len(marks), len(others)))
    expect([us_to_ns(e['ts']) for e in marks] == [e['ts'] for e in others],
           'instants are not at the times of their events')


def threads_of_program(trace):
    """The threads program's main thread (it exec'd progs/threads) and the 4 tasks it forked."""
    execs = [e for e in trace.named('sched:sched_process_exec')
             if e['fields']['filename'].endswith('/threads')]
    expect(execs, 'no exec of the threads program')
    main = execs[0]['fields']['pid']
    workers = [e['fields']['child_pid'] for e in trace.named('sched:sched_process_fork')
               if e['fields']['parent_pid'] == main]
    expect(len(workers) == 4, 'threads forked %r' % workers)
    return main, workers


@case
@with_tmp
def chrome_scheduling(tmp):
    trace = record(tmp, [], [prog('threads')])
    evs = chrome_events(trace)
    check_chrome_shape(evs)
    check_chrome_counts(trace, evs)
    names = {(e['pid'], e['tid']): e['args']['name'] for e in evs
             if e['ph'] == 'M' and e['name'] == 'thread_name'}
    cpus = {e['cpu'] for e in trace.events}
    for cpu in cpus:
        expect(names.get((CPU_PID, CPU_PID + 1 + cpu)) == 'CPU %d' % cpu, 'no lane for CPU %d' % cpu)
    ran = {e['fields']['next_pid'] for e in trace.named('sched:sched_switch')}
    ran.discard(0)
    named = {tid for _, tid in names}
    missing = [p for p in ran if p not in named]
    expect(not missing, 'tasks without a thread_name: %r' % missing)
    # The program's four threads sit under its process (the recording's saved tgids).
    main, workers = threads_of_program(trace)
    pid_of = {tid: pid for pid, tid in names}
    expect(pid_of.get(main) == main and all(pid_of.get(w) == main for w in workers),
           'threads %r of %d are in processes %r' % (workers, main,
                                                     [pid_of.get(w) for w in workers]))
    procs = {e['pid']: e['args']['name'] for e in evs
             if e['ph'] == 'M' and e['name'] == 'process_name'}
    expect(procs.get(main) == 'threads' and not any(w in procs for w in workers),
           'process names: %r' % {p: procs.get(p) for p in [main] + workers})
    wakes = [e for e in evs if e['name'] == 'sched:sched_waking']
    expect(len(wakes) == len(trace.named('sched:sched_waking')), 'sched_waking instants')
    w = trace.named('sched:sched_waking')[0]
    expect(wakes[0]['args'] == w['fields'], 'fields as args: %r vs %r' % (wakes[0]['args'],
                                                                         w['fields']))


@case
@with_tmp
def chrome_syscalls(tmp):
    trace = record(tmp, ['-F', '-e', 'raw_syscalls', '-e', 'sched:sched_switch'],
                   [prog('threads')])
    evs = chrome_events(trace)
    check_chrome_shape(evs)
    check_chrome_counts(trace, evs)
    depth = collections.Counter()
    for e in evs:
        if e['ph'] == 'B':
            depth[e['tid']] += 1
        elif e['ph'] == 'E':
            expect(depth[e['tid']] > 0, 'a slice end without a start on %d' % e['tid'])
            depth[e['tid']] -= 1
    names = collections.Counter(e['name'] for e in evs if e['ph'] == 'B')
    expect(names['getppid'] >= 4000, 'getppid slices: %d, want >= 4000' % names['getppid'])


@case
@with_tmp
def chrome_escapes_names(tmp):
    """A task named with quotes, a backslash and a tag stays one valid JSON string."""
    name = 'a"b\\c<script>'
    code = ('import ctypes, time; ctypes.CDLL(None).prctl(15, %r.encode(), 0, 0, 0); '
            'time.sleep(0.05)' % name)
    trace = record(tmp, ['-F'], [sys.executable, '-c', code])
    evs = chrome_events(trace)
    check_chrome_shape(evs)
    want = name[:15]
    expect(any(e['ph'] == 'M' and e['args'].get('name') == want for e in evs),
           'the name %r is not among the thread names' % want)


# ---- Perfetto protobuf ----

def varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if c < 0x80:
            return v, i


def fields(b):
    """{field number: [values]} of one message; length-delimited values stay bytes."""
    out, i = collections.defaultdict(list), 0
    while i < len(b):
        key, i = varint(b, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(b, i)
        elif wire == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
            expect(i <= len(b), 'a length runs past its message')
        elif wire == 1:
            v, i = int.from_bytes(b[i:i + 8], 'little'), i + 8
        elif wire == 5:
            v, i = int.from_bytes(b[i:i + 4], 'little'), i + 4
        else:
            raise Fail('wire type %d at byte %d' % (wire, i))
        out[num].append(v)
    return out


def one(f, num, default=None):
    return f[num][-1] if num in f else default


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def decode_perfetto(data):
    """What the exporter writes, by Perfetto's field numbers."""
    d = {'switch': collections.defaultdict(list), 'wake': collections.Counter(),
         'track_events': [], 'tracks': {}, 'names': {}, 'tgid': {}, 'uts': None}
    for pkt in fields(data)[1]:
        p = fields(pkt)
        for bundle in p.get(1, []):                          # ftrace_events
            b = fields(bundle)
            cpu = one(b, 1)
            for ev in b.get(2, []):
                fe = fields(ev)
                if 4 in fe:                                  # sched_switch
                    s = fields(fe[4][0])
                    d['switch'][cpu].append((one(fe, 1), one(s, 2), signed(one(s, 4, 0)),
                                             one(s, 6), one(s, 5, b'').decode()))
                for num, name in ((20, 'sched_waking'), (17, 'sched_wakeup'),
                                  (114, 'sched_wakeup_new')):
                    if num in fe:
                        d['wake'][name] += 1
        for tree in p.get(2, []):                            # process_tree
            for t in fields(tree).get(2, []):
                t = fields(t)
                d['names'][one(t, 1)] = one(t, 2).decode()
                d['tgid'][one(t, 1)] = one(t, 3)
        for td in p.get(60, []):                             # track_descriptor
            t = fields(td)
            th = fields(one(t, 4, b''))
            d['tracks'][one(t, 1)] = (one(th, 2), one(th, 5, b'').decode())
        for te in p.get(11, []):                             # track_event
            t = fields(te)
            expect(one(p, 10) is not None, 'a track event without a sequence id')
            expect(one(t, 11) in d['tracks'], 'a track event before its track descriptor')
            d['track_events'].append((one(p, 8), one(t, 9), one(t, 11),
                                      one(t, 23, b'').decode()))
        for si in p.get(45, []):                             # system_info.utsname
            d['uts'] = {k: one(fields(one(fields(si), 1)), n, b'').decode()
                        for k, n in (('sysname', 1), ('release', 3))}
    return d


def check_perfetto(trace):
    d = decode_perfetto(trace.export('perfetto'))
    want = collections.defaultdict(list)
    for e in trace.named('sched:sched_switch'):
        f = e['fields']
        want[e['cpu']].append((e['ts'], f['prev_pid'], f['prev_state'], f['next_pid'],
                               f['next_comm']))
    expect(dict(d['switch']) == dict(want), 'sched_switch events differ from report --json')
    for name in ('sched_waking', 'sched_wakeup', 'sched_wakeup_new'):
        n = len(trace.named('sched:' + name))
        expect(d['wake'][name] == n, '%s: %d, report has %d' % (name, d['wake'][name], n))
    sched = {'sched:sched_switch', 'sched:sched_waking', 'sched:sched_wakeup',
             'sched:sched_wakeup_new'}
    others = [e for e in trace.events if e.get('event') not in sched]
    expect(len(d['track_events']) == len(others), '%d track events for %d other events'
           % (len(d['track_events']), len(others)))
    expect([t[0] for t in d['track_events']] == [e['ts'] for e in others],
           'track events are not at the times of their events')
    for ts_, _, uuid, _ in d['track_events']:
        tid = d['tracks'][uuid][0]
        expect(tid is not None, 'a track without a thread')
    return d


@case
@with_tmp
def perfetto_scheduling(tmp):
    trace = record(tmp, [], [prog('threads')])
    d = check_perfetto(trace)
    expect(d['uts'] and d['uts']['sysname'] == os.uname().sysname and
           d['uts']['release'] == os.uname().release, 'utsname: %r' % d['uts'])
    for e in trace.named('sched:sched_switch'):
        pid = e['fields']['next_pid']
        if pid:
            expect(d['names'].get(pid) == e['fields']['next_comm'] or pid in d['names'],
                   'no process-tree name for %d' % pid)
    expect('threads' in d['names'].values(), 'the traced program is not in the process tree')
    main, workers = threads_of_program(trace)
    expect(d['tgid'].get(main) == main and all(d['tgid'].get(w) == main for w in workers),
           'thread groups: %r' % {t: d['tgid'].get(t) for t in [main] + workers})


@case
@with_tmp
def perfetto_syscalls(tmp):
    trace = record(tmp, ['-F', '-e', 'raw_syscalls', '-e', 'sched'], [prog('threads')])
    d = check_perfetto(trace)
    begins = collections.Counter(t[3] for t in d['track_events'] if t[1] == 1)
    ends = sum(1 for t in d['track_events'] if t[1] == 2)
    expect(begins['getppid'] >= 4000, 'getppid slices: %d' % begins['getppid'])
    expect(ends <= sum(begins.values()), 'more slice ends than starts')


@case
@with_tmp
def perfetto_decodes_with_protoc(tmp):
    """protoc reads the export with Perfetto's field numbers and types, and finds nothing else."""
    if not shutil.which('protoc'):
        raise Skip('protoc is not installed (apt-get install protobuf-compiler)')
    trace = record(tmp, ['-e', 'sched', '-e', 'raw_syscalls'], [prog('threads')])
    data = trace.export('perfetto')
    schema = os.path.join(OPTIONS['fixtures'], 'perfetto')
    p = subprocess.run(['protoc', '-I', schema, '--decode=tracekit.check.Trace',
                        'trace_subset.proto'], input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    expect(p.returncode == 0, 'protoc --decode failed: %s' % p.stderr.decode()[:500])
    text = p.stdout.decode('utf-8', 'replace')
    unknown = re.findall(r'^\s*\d+: .*$', text, re.M)
    expect(not unknown, 'fields the schema does not know: %r' % unknown[:5])
    switches = text.count('sched_switch {')
    expect(switches == len(trace.named('sched:sched_switch')),
           'protoc sees %d sched_switch, report %d' % (switches,
                                                       len(trace.named('sched:sched_switch'))))
    expect('cmdline_is_comm: true' in text and 'type: TYPE_SLICE_BEGIN' in text,
           'process tree or syscall slices missing')


@case
def fixtures(_):
    """trace-cmd's files (v6, v7, zstd): both formats, against report --json."""
    paths = sorted(glob.glob(os.path.join(OPTIONS['fixtures'], '*.dat')))
    expect(paths, 'no fixtures in %s' % OPTIONS['fixtures'])
    for path in paths:
        tmp = tempfile.mkdtemp(prefix='tk-export-')
        try:
            trace = Trace(path, tmp)
            evs = chrome_events(trace)
            check_chrome_shape(evs)
            check_chrome_counts(trace, evs)
            check_perfetto(trace)
        except Fail as e:
            raise Fail('%s: %s' % (os.path.basename(path), e))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


# ---- bad input: one line on stderr, non-zero exit, no output file ----

def bad(args, want):
    tmp = tempfile.mkdtemp(prefix='tk-export-')
    try:
        out = os.path.join(tmp, 'out')
        argv = [tracekit(), 'export'] + [a.replace('@TMP', tmp) for a in args]
        if '-o' not in args:
            argv += ['-o', out]
        rc, stdout, err = run(argv)
        lines = err.strip().splitlines()
        expect(rc != 0, 'exit status 0')
        expect(len(lines) == 1 and lines[0].startswith('tracekit: export: ') and want in lines[0],
               'stderr: %r' % err)
        expect(not os.path.exists(out), 'an output file was left')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@case
def missing_file(_):
    bad(['-i', '@TMP/nope.dat', '--format', 'chrome'], 'nope.dat')


@case
def not_a_trace(_):
    tmp = tempfile.mkdtemp(prefix='tk-export-')
    try:
        path = os.path.join(tmp, 'text.dat')
        with open(path, 'w') as f:
            f.write('hello, not a trace\n' * 100)
        bad(['-i', path, '--format', 'perfetto'], 'text.dat')
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@case
def unknown_format(_):
    bad(['--format', 'json'], "unknown format 'json'")


@case
def no_format(_):
    bad([], '--format')


@case
def full_disk_keeps_old_output(_):
    """A full disk fails the export and leaves the previous output whole, as view does."""
    tmp = tempfile.mkdtemp(prefix='tk-export-')
    small = os.path.join(tmp, 'small')
    os.mkdir(small)
    rc, _, err = run(['mount', '-t', 'tmpfs', '-o', 'size=128k', 'tmpfs', small])
    if rc != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise Skip('cannot mount a small tmpfs to fill: %s' % err.strip())
    try:
        # Each export is bigger than 128 KB: chrome of tracecmd-v7 (about 260 KB), perfetto
        # of tracecmd-mixed-v6 (about 220 KB).
        for fmt, name in (('chrome', 'tracecmd-v7.dat'), ('perfetto', 'tracecmd-mixed-v6.dat')):
            out = os.path.join(small, 'out.' + fmt)
            old = b'the previous export\n'
            with open(out, 'wb') as f:
                f.write(old)
            rc, _, err = run([tracekit(), 'export', '--format', fmt, '-o', out,
                              os.path.join(OPTIONS['fixtures'], name)])
            lines = err.strip().splitlines()
            expect(rc == 1, '%s on a full disk: exit %d, want 1' % (fmt, rc))
            expect(len(lines) == 1 and 'No space left on device' in lines[0] and out in lines[0],
                   '%s: one line naming the output and why: %r' % (fmt, err))
            with open(out, 'rb') as f:
                expect(f.read() == old, '%s: the previous output was not kept' % fmt)
            stray = sorted(set(os.listdir(small)) - {'out.' + fmt})
            expect(not stray, '%s: files left beside it: %r' % (fmt, stray))
            os.unlink(out)
            rc, _, err = run([tracekit(), 'export', '--format', fmt, '-o', out,
                              os.path.join(OPTIONS['fixtures'], name)])
            expect(rc == 1 and not os.listdir(small),
                   '%s: a new output that does not fit is not left half written: %r'
                   % (fmt, os.listdir(small)))
    finally:
        run(['umount', '-l', small])
        shutil.rmtree(tmp, ignore_errors=True)


def setup(argv):
    args = argv[2:]
    for opt in ('progs', 'fixtures'):
        if '--' + opt in args:
            OPTIONS[opt] = args[args.index('--' + opt) + 1]
    if 'progs' not in OPTIONS:
        raise Skip('--progs DIR not given')
    return None


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_export.py CASE --progs DIR [--fixtures DIR]', setup))

#!/usr/bin/env python3
"""e2e tests of several trace files read as one: a host's and its guest's recording as
trace-cmd 3.1.6 writes them (record -A ... --name guest), merged on the host's clock by
`tracekit report`, `sched`, `view` and `export`, one case per run.

    test_merge.py CASE FIXTURE_DIR     # run one case
    test_merge.py --list                # the case names

The pair is tests/fixtures/hostguest-{host,guest}.dat (make-hostguest-fixture.sh): the
host's file has the GUEST option (guest "guest", one vCPU, no host pid: a TCP agent), the
guest's the TIME_SHIFT option.  trace-cmd report -i host -i guest is the reference for
the merge (order, corrected timestamps, line prefixes); without trace-cmd those cases
skip (fail with CI=true).
"""

import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import Fail, Skip, case, expect, main, run, tracekit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
FIX = {}


def pair():
    return [os.path.join(FIX['dir'], 'hostguest-host.dat'),
            os.path.join(FIX['dir'], 'hostguest-guest.dat')]


def tk(*args, check=True):
    rc, out, err = run([tracekit()] + list(args), timeout=300)
    if check:
        expect(rc == 0, 'tracekit %s: exit %d: %s' % (' '.join(args[:3]), rc, err.strip()))
    return rc, out, err


def inputs(paths):
    return [a for p in paths for a in ('-i', p)]


def trace_cmd_report(paths):
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed: no reference for the merge')
    p = subprocess.run(['trace-cmd', 'report'] + inputs(paths), stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, timeout=300, cwd=FIX['dir'])
    expect(p.returncode == 0, 'trace-cmd report failed')
    return p.stdout.decode('utf-8', 'surrogateescape').splitlines()


def our_report(paths, *args):
    rc, out, err = run([tracekit(), 'report'] + list(args) + inputs(paths), timeout=300,
                       cwd=FIX['dir'])
    expect(rc == 0, 'tracekit report: exit %d: %s' % (rc, err.strip()))
    return out.splitlines()


def same_lines(got, want, what):
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            raise Fail('%s: line %d differs:\n  got:  %r\n  want: %r' % (what, i + 1, g, w))
    expect(len(got) == len(want), '%s: %d lines, want %d' % (what, len(got), len(want)))


def names():
    return [os.path.basename(p) for p in pair()]


@case
def report_equals_trace_cmd(_):
    """Both orders of the files: every line (prefix, order, the guest's corrected times)."""
    for order in (names(), names()[::-1]):
        want = trace_cmd_report(order)
        expect(len(want) > 1000, 'trace-cmd report gave %d lines' % len(want))
        got = our_report(order)
        same_lines(got, want, 'report -i %s -i %s' % tuple(order))
    # The two machines' lines interleave: the merge is by time, not file after file.
    runs = 1 + sum(1 for a, b in zip(want, want[1:]) if a.split(':')[0] != b.split(':')[0])
    expect(runs > 10, 'host and guest lines do not interleave (%d runs)' % runs)


@case
def report_guest_times_are_corrected(_):
    """The guest's events in the merged report are at the times libtracecmd's TIME_SHIFT
    correction gives (tracekit report of the guest file alone applies it too, and trace-cmd
    report's own merge agrees: report-equals-trace-cmd), away from the raw times
    (trace-cmd report --raw-ts) by an offset interpolated between the two samples."""
    host, guest = names()
    merged = [l.split(': ', 1)[1] for l in our_report([host, guest])
              if l.startswith(guest + ':') and 'cpus=' not in l]
    alone = [l for l in our_report([guest]) if not l.startswith('cpus=')]
    expect(merged == alone, 'the guest\'s lines in the merge differ from its own report')
    if shutil.which('trace-cmd'):
        p = subprocess.run(['trace-cmd', 'report', '--raw-ts', '-i', guest],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=FIX['dir'])
        raw = [l for l in p.stdout.decode().splitlines() if ':' in l and 'cpus=' not in l]
        expect(p.returncode == 0 and len(raw) == len(alone), 'trace-cmd report --raw-ts failed')

        def secs(line):   # seconds.usecs, or --raw-ts's ns
            t = re.search(r'\] +(\d+(\.\d+)?):', line)
            return float(t.group(1)) if t.group(2) else int(t.group(1)) / 1e9
        shift = [secs(a) - secs(r) for a, r in zip(alone, raw)]
        expect(all(abs(d) > 1e-6 for d in shift[:1] + shift[-1:]),
               'the guest\'s times were not shifted: %s vs %s' % (raw[0], alone[0]))
        # Two samples, interpolated (the flags' bit 0): the shift changes over the trace.
        expect(abs(shift[0] - shift[-1]) > 1e-6, 'the shift is constant: %g' % shift[0])


def no_comm(line):
    """A report line without its task's name: a name learnt from an event printed earlier
    (libtraceevent's sched plugins register comms as they print) is not known when -F
    leaves that event out, in trace-cmd as in tracekit."""
    pre, sep, rest = line.partition(': ')
    m = re.match(r'^\s*(.*)-(\d+) +\[', rest)
    return pre + sep + (rest[m.start(2) - 1:] if m else rest)


@case
def report_filter_keeps_the_merged_lines(_):
    """-F on several files: exactly the matching lines of the unfiltered merge, in its
    order (trace-cmd 3.1.6 crashes on -F with several inputs: the reference is its
    unfiltered report, the tasks' names aside); an event one file lacks leaves that file
    out, not an error."""
    full = trace_cmd_report(names())
    for flt, keep in (('sched_switch', lambda l: ' sched_switch: ' in l),
                      ('sched_switch: prev_pid != 0',
                       lambda l: ' sched_switch: ' in l and not re.search(r':0 \[\d+\] \S+ ==>', l)),
                      ('sched_wakeup', lambda l: ' sched_wakeup: ' in l)):
        got = our_report(names(), '-F', flt)
        want = [l for l in full if 'cpus=' in l or keep(l)]
        same_lines([no_comm(l) for l in got], [no_comm(l) for l in want], '-F %r' % flt)
    rc, _, err = run([tracekit(), 'report', '-F', 'nosuch_event'] + inputs(pair()))
    expect(rc == 2 and 'nosuch_event' in err and len(err.strip().splitlines()) == 1,
           '-F an event no file has: rc %d, %r' % (rc, err))


@case
def report_json_names_the_machine(_):
    host, guest = pair()
    _, out, _ = tk('report', '--json', '-i', host, '-i', guest)
    evs = [json.loads(l) for l in out.splitlines()]
    by = collections.Counter(e['machine'] for e in evs)
    text = our_report(names())
    expect(by['guest'] == sum(l.startswith('hostguest-guest.dat: ') for l in text[2:]),
           'guest events: json %d' % by['guest'])
    expect(by['host'] == sum(l.lstrip().startswith('host: ') for l in text[2:]),
           'host events: json %d' % by['host'])
    expect(set(by) == {'host', 'guest'}, 'machines: %s' % dict(by))
    ts = [e['ts'] for e in evs]
    expect(ts == sorted(ts), 'the merged events are not in time order')


@case
def report_bad_inputs(_):
    host = pair()[0]
    rc, out, err = run([tracekit(), 'report', '-i', host, '-i', '/nonexistent/guest.dat'])
    expect(rc == 1 and '/nonexistent/guest.dat' in err and len(err.strip().splitlines()) == 1,
           'a missing second file: rc %d, %r' % (rc, err))
    rc, _, err = run([tracekit(), 'report', '--syscalls'] + inputs(pair()))
    expect(rc == 2 and 'one trace file' in err, '--syscalls with two files: rc %d %r' % (rc, err))
    rc, _, err = run([tracekit(), 'report', '-i', host, pair()[1]])
    expect(rc == 2 and 'both ways' in err, '-i and a FILE: rc %d %r' % (rc, err))
    rc, _, err = run([tracekit(), 'view', '--serve'] + inputs(pair()))
    expect(rc == 2 and 'one trace file' in err, 'view --serve with two files: rc %d %r' % (rc, err))
    # one recording twice (by another path too) would be merged with itself
    for verb in ('report', 'sched', 'view', 'export'):
        rc, out, err = run([tracekit(), verb, '-i', host, '-i',
                            os.path.join(os.path.dirname(host), '.', os.path.basename(host))])
        expect(rc == 2 and 'the same file twice' in err and err.count('\n') == 1,
               '%s of one file twice: rc %d %r' % (verb, rc, err))


@case
def sched_each_machine_and_the_vcpu_map(_):
    """sched -i host -i guest: each machine's analysis, then the guest's vCPUs: the
    fixture's GUEST option has no host pids (a TCP agent) and its host runs no qemu, so
    the page says the vCPU waits are not known rather than inventing them."""
    _, out, _ = tk('sched', *inputs(pair()))
    expect('== host (' in out and '== guest (' in out, 'machines not both analysed:\n' + out)
    expect(re.search(r'Guest guest \(.*hostguest-guest\.dat\) on host host', out),
           'no guest section:\n' + out[-2000:])
    expect('no vCPU-to-thread map' in out, 'the missing map is not said')
    _, js, _ = tk('sched', '--json', *inputs(pair()))
    d = json.loads(js)
    expect([m['machine'] for m in d['machines']] == ['host', 'guest'], 'machines: %s' %
           [m['machine'] for m in d['machines']])
    expect(all(m['sched'] for m in d['machines']), 'a machine without its analysis')
    g = d['guests'][0]
    expect(g['guest'] == 'guest' and g['vcpu_map'] is None and g['tasks'] == [] and
           g['vcpus'][0]['host_pid'] is None and g['vcpus'][0]['on_ns'] is None,
           'guest: %s' % g)
    # Each machine's analysis is the one sched gives its file alone.
    for m, path in zip(d['machines'], pair()):
        _, alone, _ = tk('sched', '--json', '-i', path)
        expect(m['sched'] == json.loads(alone), '%s: differs from sched of its file' % path)


def browser_ready():
    if not os.access(CHROMIUM, os.X_OK):
        raise Skip('%s not found (apt-get install chromium, or scripts/install-deps.sh)' % CHROMIUM)
    if not os.path.isdir(os.path.join(HERE, 'node_modules', 'playwright-core')):
        raise Skip('playwright-core is not installed (npm ci in tests/e2e)')
    if not shutil.which('node'):
        raise Skip('node not found (apt-get install nodejs)')


def browser(html, *args):
    browser_ready()
    rc, out, err = run(['node', os.path.join(HERE, 'view_browser.mjs'), html] + list(args),
                       timeout=300)
    expect(rc == 0, 'view_browser.mjs failed (%d): %s' % (rc, err[-2000:]))
    seen = json.loads(out)
    expect(not seen['errors'], 'script errors on the page: %s' % seen['errors'])
    expect(not seen['requests'], 'the page made network requests: %s' % seen['requests'])
    return seen


def page_data(html):
    with open(html, encoding='utf-8') as f:
        page = f.read()
    m = re.search(r'<script type="application/json" id="tk-data">\n(.*?)\n</script>', page, re.S)
    return json.loads(m.group(1))


@case
def view_groups_lanes_by_machine(tmp):
    html = os.path.join(tmp, 'pair.html')
    tk('view', '-q', '-o', html, *inputs(pair()))
    seen = browser(html, '--screenshot', os.path.join(tmp, 'pair.png'))
    lanes = seen['initial']['lanes']
    labels = [l['label'] for l in lanes]
    expect(labels[0] == 'host CPU 0', 'first lane: %s' % labels)
    cpu = [l['label'] for l in lanes if l['kind'] == 'cpu']
    expect(cpu == ['host CPU 0', 'guest vCPU 0'], 'CPU lanes: %s' % cpu)
    # Machine by machine: no host lane after the first guest lane.
    machine = ['guest' if l.startswith('guest') else 'host' for l in labels]
    expect(machine == sorted(machine, key=lambda m: m == 'guest'), 'lanes mixed: %s' % labels)
    guest_tasks = [l for l in lanes if l['kind'] == 'task' and l['label'].startswith('guest: ')]
    expect(guest_tasks, 'no guest task lanes: %s' % labels)
    for l in guest_tasks:
        own = int(l['label'].rsplit(' ', 1)[1])
        expect(own < 10000000 and l['pid'] == own + 10000000,
               'guest lane %r: pid %d on the page' % (l['label'], l['pid']))
    busy = browser(html, '--busy')['busy'][0]['lanes']
    for l in busy:
        expect(l['busy'] > 0, '%s: nothing drawn' % l['label'])
    # Each guest task's spans on the page are its own whole life: its running time is what
    # sched says of it from the guest's file alone, and its running spans add up to it.
    d = page_data(html)
    _, js, _ = tk('sched', '--json', '-i', pair()[1])
    runtime = {p['pid']: p['runtime_ms'] for p in json.loads(js)['processes'] if p['threads'] == 1}
    checked = 0
    for pid, comm, _, run_ns in d['tasks']:
        own = pid - 10000000
        if own not in runtime or pid < 10000000:
            continue
        spans = d['taskSpans'].get(str(pid), [])
        running = sum(spans[k + 1] - spans[k] for k in range(0, len(spans), 4) if spans[k + 2] == 1)
        expect(abs(run_ns / 1e6 - runtime[own]) < 0.001 and abs(running - run_ns) < 1000,
               'guest %s %d: page %d ns (spans %d), sched %.6f ms' % (comm, own, run_ns, running,
                                                                      runtime[own]))
        checked += 1
    expect(checked, 'no guest task of sched\'s processes on the page')


# Threads named as qemu names its vCPU threads, at nice 7 (prio 127): the record below keeps
# no other "CPU ..." thread (the kernel lab's qemu may run meanwhile, under the same name).
VCPU_THREADS = r"""
import ctypes, os, sys, threading, time
libc = ctypes.CDLL(None)
def vcpu():
    os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), int(sys.argv[2]))
    libc.prctl(15, b"CPU 0/TCG", 0, 0, 0)
    end = time.time() + 0.3
    while time.time() < end:
        time.sleep(0.001)
ts = [threading.Thread(target=vcpu) for _ in range(int(sys.argv[1]))]
for t in ts:
    t.start()
for t in ts:
    t.join()
"""
# Other "CPU *" threads (the lab's qemu, another test's) are kept out by their priority: each
# test's threads run at a nice of their own (prio 120 + nice).
OURS_ONLY = ('!(prev_comm ~ "CPU *" && prev_prio != %d) && '
             '!(next_comm ~ "CPU *" && next_prio != %d)')


def record_vcpu_thread(tmp, threads, nice):
    """A host file whose only vCPU-like threads are ours, named "CPU 0/TCG" (tracekit
    record on the running kernel, its own instance), and their tids.  nice: this test's own
    (tests that run at once must differ)."""
    host = os.path.join(tmp, 'host.dat')
    rc, _, err = run([tracekit(), 'record', '-e', 'sched:sched_switch', '-f',
                      OURS_ONLY % (120 + nice, 120 + nice), '-o', host, '--', sys.executable,
                      '-c', VCPU_THREADS, str(threads), str(nice)], timeout=120)
    if rc != 0 and ('tracefs' in err or 'permission' in err.lower()):
        raise Skip('tracekit record cannot run here: %s' % err.strip())
    expect(rc == 0, 'record: %s' % err.strip())
    _, out, _ = tk('report', '--json', '-F', 'sched_switch', '-i', host)
    tids = set()
    for line in out.splitlines():
        f = json.loads(line)['fields']
        tids |= {f[k + '_pid'] for k in ('prev', 'next') if f[k + '_comm'] == 'CPU 0/TCG'}
    expect(len(tids) == threads, 'the "CPU 0/TCG" threads in the recording: %s' % tids)
    return host, tids


@case
def vcpu_map_from_qemu_thread_names(tmp):
    """Without a GUEST option naming it (TCG, a TCP guest), a host file with qemu's
    "CPU N/TCG" thread and a guest file pair by those names: sched and view take the
    thread as vCPU 0's.  The guest here is the fixture's (another machine's clock): the
    two recordings do not overlap, which sched says instead of charging waits; the page
    still places guest vCPU 0's lane under the thread's."""
    host, tids = record_vcpu_thread(tmp, 1, 7)
    tid = tids.pop()
    guest = pair()[1]
    _, out, _ = tk('sched', '-i', host, '-i', guest)
    expect('vCPU map from the thread names' in out, 'no map from the names:\n' + out[-1500:])
    expect('vCPU 0: host thread %d ' % tid in out, 'vCPU 0 is not thread %d:\n%s' % (tid, out[-1500:]))
    expect('do not overlap in time' in out, 'the non-overlap is not said')
    _, js, _ = tk('sched', '--json', '-i', host, '-i', guest)
    g = json.loads(js)['guests'][0]
    expect(g['vcpu_map'] == 'thread names' and g['vcpus'][0]['host_pid'] == tid, 'json: %s' % g)
    expect(all(t['vcpu_wait_ns'] == 0 for t in g['tasks']), 'waits charged without overlap')
    html = os.path.join(tmp, 'tcg.html')
    tk('view', '-q', '-o', html, '-i', host, '-i', guest)
    labels = [l['label'] for l in browser(html)['initial']['lanes']]
    vcpu = [k for k, l in enumerate(labels) if l == 'hostguest-guest.dat vCPU 0']
    expect(vcpu, 'no lane for the guest\'s vCPU 0 (no GUEST option: the file names it): %s'
           % labels)
    i = vcpu[0]
    expect(i > 0 and labels[i - 1] == 'host: CPU 0/TCG %d' % tid,
           'vCPU lane not under its host thread: %s' % labels)


@case
def vcpu_map_not_guessed_between_two_qemus(tmp):
    """Two host threads named "CPU 0/TCG" (two qemus): which runs the guest is unknown, so
    sched makes no map from the names and says how to give one."""
    host, _ = record_vcpu_thread(tmp, 2, 6)
    _, out, _ = tk('sched', '-i', host, '-i', pair()[1])
    expect('vCPU map from the thread names' not in out, 'a map guessed:\n' + out[-1500:])
    expect('no vCPU-to-thread map' in out and 'more than one qemu' in out and
           '--guest-pid' in out, 'the missing map is not said:\n' + out[-1500:])


# ---- export: Perfetto's protobuf, read back by Perfetto's field numbers ----

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
    out, i = collections.defaultdict(list), 0
    while i < len(b):
        key, i = varint(b, i)
        num, wire = key >> 3, key & 7
        if wire == 0:
            v, i = varint(b, i)
        elif wire == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wire == 1:
            v, i = int.from_bytes(b[i:i + 8], 'little'), i + 8
        elif wire == 5:
            v, i = int.from_bytes(b[i:i + 4], 'little'), i + 4
        else:
            raise Fail('wire type %d at byte %d' % (wire, i))
        out[num].append(v)
    return out


@case
def export_perfetto_one_machine_id_each(tmp):
    """Each machine's packets carry its TracePacket.machine_id (98; none for the first
    file, as trace_processor takes the host): its sched_switch events, its process tree,
    its system info; the counts are report --json's per machine."""
    out = os.path.join(tmp, 'pair.pftrace')
    tk('export', '-f', 'perfetto', '-o', out, *inputs(pair()))
    with open(out, 'rb') as f:
        data = f.read()
    switches = collections.Counter()
    trees = collections.Counter()
    seqs = collections.defaultdict(set)
    for pkt in fields(data)[1]:
        p = fields(pkt)
        mid = p[98][-1] if 98 in p else 0
        for bundle in p.get(1, []):
            for ev in fields(bundle).get(2, []):
                switches[mid] += 4 in fields(ev)
        trees[mid] += len(p.get(2, []))
        if 10 in p:
            seqs[mid].add(p[10][-1])
    _, js, _ = tk('report', '--json', *inputs(pair()))
    want = collections.Counter()
    for line in js.splitlines():
        e = json.loads(line)
        want[0 if e['machine'] == 'host' else 1] += e['event'] == 'sched:sched_switch'
    expect(switches == want, 'sched_switch per machine_id: %s, report: %s' % (dict(switches),
                                                                              dict(want)))
    expect(trees[0] == 1 and trees[1] == 1, 'process trees per machine: %s' % dict(trees))
    expect(seqs[0] and seqs[1] and not (seqs[0] & seqs[1]),
           'machines share a packet sequence: %s' % dict(seqs))


@case
def export_chrome_processes_per_machine(tmp):
    out = os.path.join(tmp, 'pair.json')
    tk('export', '-f', 'chrome', '-o', out, *inputs(pair()))
    with open(out, encoding='utf-8') as f:
        evs = json.load(f)['traceEvents']
    procs = {e['pid']: e['args']['name'] for e in evs if e['name'] == 'process_name'}
    expect('host: CPUs' in procs.values() and 'guest: vCPUs' in procs.values(),
           'CPU processes: %s' % sorted(set(procs.values()))[:8])
    for pid, name in procs.items():
        if name.endswith('CPUs'):
            continue
        machine = 'guest' if 10000000 <= pid < 20000000 else 'host' if pid < 10000000 else '?'
        expect(name.startswith(machine + ': '), 'process %d named %r' % (pid, name))


def setup(argv):
    if len(argv) != 3:
        raise Fail('usage: test_merge.py CASE FIXTURE_DIR')
    FIX['dir'] = os.path.abspath(argv[2])


if __name__ == '__main__':
    if sys.argv[1:] == ['--list']:
        sys.exit(main(sys.argv, ''))
    setup(sys.argv)
    sys.exit(main(sys.argv[:2], 'test_merge.py CASE FIXTURE_DIR | --list',
                  tmp_prefix='tk-merge-'))

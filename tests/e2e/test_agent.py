#!/usr/bin/env python3
"""e2e tests of trace-cmd's host-guest protocol on loopback: `tracekit agent` and
`tracekit record -A HOST:PORT --name NAME` on this machine, both ends tracekit
(each its own tracefs instances), and the agent against hosts that send what no
host should.

    test_agent.py CASE --progs DIR     # run one case (DIR: the built tests/progs)
    test_agent.py --list               # the case names

trace-cmd as a peer (trace-cmd agent, trace-cmd record -A) runs in the kernel lab
(tests/kernel/cases/net-agent-*.sh): trace-cmd records the top-level buffer, and
its record cannot run on this machine (no function tracer).
"""

import json
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import (Fail, Skip, case, expect, instances_of, main, run, tracefs,  # noqa: E402
                    tracekit)
import netlib  # noqa: E402

OPTIONS = {}
CALLS = 5000
TRACE_REQ, TRACE_RESP, CLOSE_RESP, TIME_SYNC = 6, 7, 8, 9


def loop():
    return os.path.join(OPTIONS['progs'], 'loop')


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Agent:
    """tracekit agent on a free port; its stderr when it ends."""

    def __init__(self, *args):
        for _ in range(5):
            self.port = free_port()
            # data ports away from 1500-1515, which the lab's network forwards
            self.p = subprocess.Popen([tracekit(), 'agent', '-p', str(self.port), '--ports-from',
                                       str(random.randrange(20000, 40000))] + list(args),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      text=True)
            line = self.p.stderr.readline()
            if 'listening' in line:
                return
            self.p.wait()
        raise Fail('tracekit agent did not start: %s' % self.p.stderr.read())

    def end(self, timeout=60):
        try:
            _, err = self.p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.send_signal(signal.SIGINT)
            try:
                _, err = self.p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                self.p.kill()
                _, err = self.p.communicate()
            raise Fail('tracekit agent did not end: %s' % err)
        self.err = err
        expect(self.p.returncode == 0, 'tracekit agent exited %d: %s' % (self.p.returncode, err))
        expect(not instances_of(tracefs(), self.p.pid),
               'the agent left instances: %r' % instances_of(tracefs(), self.p.pid))
        return err


def record_a(tmp, port, host_args=(), guest_args=('-e', 'syscalls:sys_enter_getppid'),
             calls=CALLS, name='g', extra=()):
    out = os.path.join(tmp, 'host.dat')
    # -F: the host's file has the command's calls only (other tests run loops meanwhile); the
    # guest records the whole system, and its calls are told by the command's pid
    argv = ([tracekit(), 'record', '-o', out, '-e', 'syscalls:sys_enter_getppid', '-F'] +
            list(host_args) + ['-A', '127.0.0.1:%d' % port] +
            (['--name', name] if name else []) + list(extra) + list(guest_args) +
            [loop(), 'getppid', str(calls)])
    return run(argv, timeout=180)


def report(path):
    rc, out, err = run([tracekit(), 'report', '-i', path], timeout=120)
    expect(rc == 0, 'tracekit report %s failed: %s' % (path, err.strip()))
    return out


def loop_pid(host):
    """The command's pid, from the host's file (the agent's file has no name for it: its
    metadata, the comms among it, is sent before the command runs -- trace-cmd's agent too).
    The host records with -F: its getppid calls are the command's.  Its name may be "<...>":
    the kernel's saved_cmdlines keeps 128 names, and a busy machine can push it out first."""
    out = report(host)
    pids = set(re.findall(r'-(\d+) +\[\d+\].*sys_enter_getppid', out))
    expect(len(pids) == 1, 'getppid calls of %d processes in %s (wanted the command\'s): %s' %
           (len(pids), host, out[-1500:]))
    return pids.pop()


def getppid(path, pid):
    """The command's calls, not other programs' (agent and host record the whole system)."""
    mine = re.compile(r'-%s +\[.*sys_enter_getppid' % pid)
    return sum(1 for line in report(path).splitlines() if mine.search(line))


def options(path):
    """trace-cmd dump --options of path (needs trace-cmd)."""
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed (apt-get install trace-cmd)')
    rc, out, err = run(['trace-cmd', 'dump', '--options', '-i', path], timeout=60)
    expect(rc == 0, 'trace-cmd dump %s failed: %s' % (path, err))
    return out


def traceid(dump):
    m = re.search(r'\[Option TRACEID, 8 bytes\]\n(0x[0-9A-F]+)', dump)
    expect(m, 'no TRACEID option:\n%s' % dump)
    return m.group(1)


def no_leftovers(tmp):
    stray = [f for f in os.listdir(tmp) if re.search(r'\.(cpu\d+|part)$', f)]
    expect(not stray, 'temporary files left: %r' % stray)


@case
def agent_record_a_both_tracekit(tmp):
    """tracekit record -A to tracekit agent: the host's file and trace-g.dat (here host-g.dat)
    hold every call the command made, with the options trace-cmd writes, and trace-cmd report
    merges them; the time sync says its offset and error."""
    tracefs()
    A = Agent('--sessions', '1')
    rc, _, err = record_a(tmp, A.port)
    expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
    aerr = A.end()
    host, guest = os.path.join(tmp, 'host.dat'), os.path.join(tmp, 'host-g.dat')
    expect(sorted(f for f in os.listdir(tmp) if f.endswith('.dat')) == ['host-g.dat', 'host.dat'],
           'files: %r' % os.listdir(tmp))
    expect(re.search(r'guest g \(127\.0\.0\.1:%d\): .*host-g\.dat' % A.port, err), err)
    m = re.search(r'time sync ptp, (\d+) samples? per vCPU, offset (-?\d+) ns \(guest to host\), '
                  r'estimated error \+-(\d+) ns', err)
    expect(m, 'no time-sync line: %s' % err)
    expect(int(m.group(1)) >= 2, 'a sample at the start and one at the end: %s' % m.group(0))
    # One machine: both clocks are the same CLOCK_MONOTONIC; the offset is noise, far below a
    # second (a wrong sign or unit would be off by the clock's whole value)
    expect(abs(int(m.group(2))) < 10**9, 'offset between a clock and itself: %s' % m.group(0))
    expect(re.search(r'time sync \(ptp\): \d+ samples', aerr), 'agent said: %s' % aerr)
    pid = loop_pid(host)
    expect(getppid(host, pid) == CALLS, 'host.dat: not %d getppid events' % CALLS)
    expect(getppid(guest, pid) == CALLS, 'host-g.dat: not %d getppid events' % CALLS)
    hd, gd = options(host), options(guest)
    expect('[Option GUEST' in hd and re.search(r'^g \[Guest name\]', hd, re.M), hd)
    m = re.search(r'\[Option TimeShift, \d+ bytes\]\n(0x[0-9A-F]+) \[peer\'s trace id\]', gd)
    expect(m and m.group(1) == traceid(hd), 'TIME_SHIFT names the host trace id:\n%s' % gd)
    m = re.search(r'^(0x[0-9A-F]+) \[trace id\]', hd, re.M)
    expect(m and m.group(1) == traceid(gd), 'GUEST names the guest trace id')
    rc, out, err = run(['trace-cmd', 'report', '-i', host, '-i', guest], timeout=120)
    expect(rc == 0, 'trace-cmd report -i host -i guest failed: %s' % err)
    mine = re.compile(r'-%s +\[.*sys_enter_getppid' % pid)
    hn = sum(1 for line in out.splitlines()
             if re.match(r'\s*host\.dat:', line) and mine.search(line))
    gn = sum(1 for line in out.splitlines()
             if re.match(r'\s*host-g\.dat:', line) and mine.search(line))
    expect(hn == CALLS and gn == CALLS, 'merged: %d host and %d guest events' % (hn, gn))
    no_leftovers(tmp)


class SlowSyncAgent(threading.Thread):
    """An agent (in Python) that holds the host's first time-sync probe unanswered and sends
    its metadata meanwhile, then waits for the host's data connections: a host that reads the
    metadata only after its first sample never comes (the agent's own write would block once
    the metadata outgrew the socket's buffers, and a slow first sample then stalled it).
    After the data connections it closes the time-sync connection and serves the pages of a
    real recording."""

    def __init__(self, meta, pages, cpus):
        super().__init__(daemon=True)
        self.meta, self.pages, self.cpus = meta, pages, cpus
        self.held = None
        self.error = None
        self.ctl = socket.create_server(('127.0.0.1', 0))
        self.port = self.ctl.getsockname()[1]

    def run(self):
        try:
            self.serve()
        except Exception as e:          # said by the test, not lost in a thread
            self.error = '%s: %s' % (type(e).__name__, e)

    def serve(self):
        ts_l = socket.create_server(('127.0.0.1', 0))
        data_l = [socket.create_server(('127.0.0.1', 0)) for _ in range(self.cpus)]
        self.ctl.settimeout(60)
        c, _ = self.ctl.accept()
        c.settimeout(60)
        cmd, _, _ = netlib.recv_msg(c)
        assert cmd == TRACE_REQ, 'TRACE_REQ expected, got %d' % cmd
        body = struct.pack('>IIIQ16sI', 0, self.cpus, 4096, 42, b'ptp',
                           ts_l.getsockname()[1])
        ports = b''.join(b'%d\0' % d.getsockname()[1] for d in data_l)
        c.sendall(netlib.msg(TRACE_RESP, body, ports))
        ts_l.settimeout(30)
        ts, _ = ts_l.accept()
        ts.settimeout(30)
        cmd, _, _ = netlib.recv_msg(ts)     # the host's first probe: no answer yet
        assert cmd == TIME_SYNC, 'TIME_SYNC expected, got %d' % cmd
        # the metadata (megabytes: kallsyms) and the data connections within 15 s
        deadline, data = time.monotonic() + 15, []
        try:
            for i in range(0, len(self.meta), 8000):
                c.settimeout(max(deadline - time.monotonic(), 0.01))
                c.sendall(netlib.msg(netlib.SEND_DATA, b'', self.meta[i:i + 8000]))
            c.sendall(netlib.msg(netlib.FIN_DATA))
            for d in data_l:
                d.settimeout(max(deadline - time.monotonic(), 0.01))
                data.append(d.accept()[0])
            self.held = False
        except socket.timeout:
            self.held = True
            return
        finally:
            ts.close()                      # no sample: the host says so and records on
        c.settimeout(60)
        for cpu, d in enumerate(data):
            d.sendall(self.pages.get(cpu, b''))
        cmd = None
        while cmd != netlib.CLOSE:
            cmd, _, _ = netlib.recv_msg(c)
        for d in data:
            d.close()
        c.sendall(netlib.msg(CLOSE_RESP))
        c.close()


@case
def agent_metadata_read_while_time_sync_waits(tmp):
    """record -A takes the agent's metadata while its first time-sync sample is pending (the
    sample runs in its own thread): an agent slow to sample is not left writing megabytes of
    metadata to a host that reads nothing (in the kernel lab, under ASan, tracekit's agent gave up after 60 s
    of that and closed the connection)."""
    tracefs()
    src = os.path.join(tmp, 'src.dat')
    rc, _, err = run([tracekit(), 'record', '-q', '-o', src, '-e', 'syscalls:sys_enter_getppid',
                      '-F', loop(), 'getppid', '100'], timeout=120)
    expect(rc == 0, 'record failed: %s' % err)
    meta, pages = netlib.split_trace(src)
    os.unlink(src)
    A = SlowSyncAgent(meta, pages, len(os.listdir(os.path.join(tracefs(), 'per_cpu'))))
    A.start()
    rc, _, err = run([tracekit(), 'record', '-o', os.path.join(tmp, 'host.dat'), '-e',
                      'syscalls:sys_enter_getppid', '-F', '-A', '127.0.0.1:%d' % A.port,
                      '--name', 'g', loop(), 'getppid', '10'], timeout=180)
    A.join(60)
    expect(not A.error, 'the Python agent: %s' % A.error)
    expect(A.held is False, 'the host did not take the metadata and connect for the data in '
           '15 s while its first time-sync sample waited (it reads them only after the sample)')
    expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
    expect(re.search(r'guest g: (no time sync|.*time-sync connection)', err),
           'the missing sample is not said: %s' % err)
    out = report(os.path.join(tmp, 'host-g.dat'))
    n = len(re.findall(r'sys_enter_getppid', out))
    expect(n == 100, 'host-g.dat has %d of the recording\'s 100 getppid events' % n)
    no_leftovers(tmp)


@case
def agent_two_guests_one_recording(tmp):
    """record -A twice, as trace-cmd takes several guests: two agents record, each with the
    options after its own -A; the host's file names both (a GUEST option each), both guest
    files hold the command's calls, and the three merge on one clock."""
    root = tracefs()
    A1, A2 = Agent('--sessions', '1'), Agent('--sessions', '1')
    rc, _, err = run([tracekit(), 'record', '-o', os.path.join(tmp, 'host.dat'), '-e',
                      'syscalls:sys_enter_getppid', '-e', 'sched:sched_switch', '-F',
                      '-A', '127.0.0.1:%d' % A1.port, '--name', 'g1', '-e',
                      'syscalls:sys_enter_getppid', '-e', 'sched:sched_switch',
                      '-A', '127.0.0.1:%d' % A2.port, '--name', 'g2', '-e',
                      'syscalls:sys_enter_getppid', '-e', 'sched:sched_switch', '-e',
                      'sched:sched_process_exec',
                      loop(), 'getppid', str(CALLS)], timeout=180)
    expect(rc == 0, 'record -A -A failed (%d): %s' % (rc, err))
    for name in ('g1', 'g2'):
        expect(re.search(r'guest %s \(127\.0\.0\.1:\d+\): \S*host-%s\.dat' % (name, name), err),
               'guest %s not said: %s' % (name, err))
    A1.end()
    A2.end()
    host = os.path.join(tmp, 'host.dat')
    g1, g2 = os.path.join(tmp, 'host-g1.dat'), os.path.join(tmp, 'host-g2.dat')
    pid = loop_pid(host)
    for g in (g1, g2):
        expect(getppid(g, pid) == CALLS, '%s: %d of the %d getppid calls' %
               (g, getppid(g, pid), CALLS))
    # each guest recorded its own -A's options only
    # (the command runs once the guests record: g2 saw its exec)
    expect('sched_process_exec' not in report(g1) and 'sched_process_exec' in report(g2),
           'the guests\' events are not their own -A\'s')
    rc, dump, e = run(['trace-cmd', 'dump', '--options', host], timeout=60)
    expect(rc == 0, 'trace-cmd dump: %s' % e)
    guests = re.findall(r'^(\S+) \[Guest name\]$', dump, re.M)
    expect(sorted(guests) == ['g1', 'g2'], 'GUEST options of host.dat: %r\n%s' %
           (guests, dump[-1500:]))
    for reader in ([tracekit(), 'report'], ['trace-cmd', 'report']):
        rc, out, e = run(reader + ['-i', host, '-i', g1, '-i', g2], timeout=120)
        expect(rc == 0, '%s of the three files: %s' % (' '.join(reader), e))
        files = set(re.findall(r'\b(host(?:-g1|-g2)?\.dat): .* sys_enter_getppid', out))
        expect(files == {'host.dat', 'host-g1.dat', 'host-g2.dat'}, '%s of the three files '
               'has the getppid calls of %r' % (' '.join(reader), files))
    # each guest paired with the host by the GUEST option naming its trace id
    rc, out, e = run([tracekit(), 'sched', '-i', host, '-i', g1, '-i', g2], timeout=120)
    expect(rc == 0, 'sched of the three files: %s' % e)
    for name in ('g1', 'g2'):
        expect(re.search(r'^Guest %s \(.*host-%s\.dat\) on host host \(.*host\.dat\)' %
                         (name, name), out, re.M),
               'sched pairs no guest %s:\n%s' % (name, out[-2000:]))
    expect(not instances_of(root, A1.p.pid) and not instances_of(root, A2.p.pid),
           'agent instances left')
    no_leftovers(tmp)


@case
def agent_tsync_interval_samples(tmp):
    """--tsync-interval: samples every so often between the first and the last, each vCPU.
    Given after -A with the guest's options (where --name goes), it is still the host's."""
    tracefs()
    A = Agent('--sessions', '1')
    rc, _, err = record_a(tmp, A.port, extra=('--tsync-interval', '100'), calls=300000)
    expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
    A.end()
    m = re.search(r'time sync ptp, (\d+) samples per vCPU', err)
    expect(m and int(m.group(1)) >= 3, 'samples: %s' % err)
    dump = options(os.path.join(tmp, 'host-g.dat'))
    counts = [int(c) for c in re.findall(r'^(\d+) \[samples count for CPU \d+\]', dump, re.M)]
    expect(counts and all(c == int(m.group(1)) for c in counts), 'counts %r' % counts)


@case
def agent_guest_name_default(tmp):
    """Without --name the guest's file is named after the agent's host, as trace-cmd names it."""
    tracefs()
    A = Agent('--sessions', '1')
    rc, _, err = record_a(tmp, A.port, name=None, calls=100)
    expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
    A.end()
    expect(os.path.exists(os.path.join(tmp, 'host-127.0.0.1.dat')), 'files: %r' % os.listdir(tmp))


# A stand-in qemu: N threads named as qemu's vCPU threads; with 'busy', each runs and
# sleeps in turns (on and off its CPU, as a vCPU thread is), else it sleeps.
FAKE_QEMU = r'''
import os, sys, threading, time
ready = []
def vcpu(n):
    with open('/proc/self/task/%d/comm' % threading.get_native_id(), 'w') as f:
        f.write('CPU %d/TCG' % n)
    ready.append('%d:%d' % (n, threading.get_native_id()))
    end = time.monotonic() + 60
    while sys.argv[2:] == ['busy'] and time.monotonic() < end:
        t = time.monotonic() + 0.003
        while time.monotonic() < t:
            pass
        time.sleep(0.002)
    time.sleep(60)
for n in range(int(sys.argv[1])):
    threading.Thread(target=vcpu, args=(n,), daemon=True).start()
while len(ready) < int(sys.argv[1]):
    time.sleep(0.01)
print(' '.join(str(t) for t in ready), flush=True)
time.sleep(60)
'''


@case
def agent_guest_option_vcpu_threads(tmp):
    """--guest-pid: the GUEST option maps each vCPU to the thread of that process named
    'CPU N/TCG' (qemu's), for the page's vCPU lanes; without it, -1 as trace-cmd writes, and
    -1 said on stderr for a process without such threads."""
    tracefs()
    cpus = os.cpu_count()
    q = subprocess.Popen([sys.executable, '-c', FAKE_QEMU, str(cpus)], stdout=subprocess.PIPE,
                         text=True)
    try:
        tids = dict(p.split(':') for p in q.stdout.readline().split())
        expect(len(tids) == cpus, 'the fake qemu: %r' % tids)
        A = Agent('--sessions', '1')
        rc, _, err = record_a(tmp, A.port, calls=10, extra=('--guest-pid', str(q.pid)))
        expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
        A.end()
    finally:
        q.kill()
        q.wait()
    dump = options(os.path.join(tmp, 'host.dat'))
    pairs = dict(re.findall(r'^  (\d+) (-?\d+) \[guest cpu, host pid\]', dump, re.M))
    expect(pairs == tids, 'GUEST maps vCPUs to %r, the threads named CPU N/TCG are %r' %
           (pairs, tids))
    expect('no thread named' not in err, 'every vCPU has its thread: %r' % err)
    rc, _, err = run([tracekit(), 'record', '-A', '127.0.0.1:1', '--guest-pid', '999999999',
                      'true'], timeout=30)
    expect(rc == 2 and 'guest-pid' in err, 'a bad --guest-pid: %d %r' % (rc, err))
    # a process without named vCPU threads (qemu without debug-threads=on): -1 each, and said
    other = subprocess.Popen(['sleep', '60'])
    try:
        A = Agent('--sessions', '1')
        rc, _, err = record_a(tmp, A.port, calls=10, extra=('--guest-pid', str(other.pid)))
        expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
        A.end()
    finally:
        other.kill()
        other.wait()
    expect(re.search(r"guest g: --guest-pid %d has no thread named 'CPU N/KVM' or 'CPU N/TCG' "
                     r"for %d of its %d vCPUs \(qemu names them with -name NAME,debug-threads=on\)"
                     % (other.pid, cpus, cpus), err), 'not said: %r' % err)
    pairs = re.findall(r'^  \d+ (-?\d+) \[guest cpu, host pid\]',
                       options(os.path.join(tmp, 'host.dat')), re.M)
    expect(pairs == ['-1'] * cpus, 'GUEST maps vCPUs to %r' % pairs)


def guest_figures(js):
    """sched --json's guest section as {('task', pid): (wait, on), ('vcpu', n): (on, off)}."""
    g = json.loads(js)['guests'][0]
    got = {('task', t['pid']): (t['vcpu_wait_ns'], t['on_vcpu_ns']) for t in g['tasks']}
    got.update({('vcpu', v['vcpu']): (v['on_ns'] or 0, v['off_ns'] or 0) for v in g['vcpus']})
    return g, got


@case
def agent_sched_window_splits_the_vcpu_waits(tmp):
    """sched's vCPU section takes --from/--to on the host's clock: the waits and the vCPU
    threads' on/off times of a recording split at its middle add up, task by task, to the
    whole recording's.  Host and guest are this machine (an agent on loopback), the vCPUs
    the threads of a stand-in qemu that run and sleep in turns."""
    tracefs()
    cpus = os.cpu_count()
    q = subprocess.Popen([sys.executable, '-c', FAKE_QEMU, str(cpus), 'busy'],
                         stdout=subprocess.PIPE, text=True)
    try:
        expect(len(q.stdout.readline().split()) == cpus, 'the stand-in qemu did not start')
        A = Agent('--sessions', '1')
        S = ['-e', 'sched:sched_switch', '-e', 'sched:sched_waking']
        rc, _, err = run([tracekit(), 'record', '-o', os.path.join(tmp, 'host.dat')] + S +
                         ['-A', '127.0.0.1:%d' % A.port, '--name', 'g', '--guest-pid',
                          str(q.pid)] + S + [os.path.join(OPTIONS['progs'], 'sched4'), '40'],
                         timeout=180)
        expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
        A.end()
    finally:
        q.kill()
        q.wait()
    files = ['-i', os.path.join(tmp, 'host.dat'), '-i', os.path.join(tmp, 'host-g.dat')]
    rc, js, e = run([tracekit(), 'sched', '--json'] + files, timeout=120)
    expect(rc == 0, 'sched: %s' % e)
    g, whole = guest_figures(js)
    expect(g['vcpu_map'] and g['from_ns'] is None and g['to_ns'] is None, 'guest: %r' %
           {k: g[k] for k in g if k != 'tasks'})
    waited = sum(v[0] for k, v in whole.items() if k[0] == 'task')
    expect(waited > 0, 'no task waited for its vCPU: %r' % g)
    rc, rep, e = run([tracekit(), 'report', files[1]], timeout=120)
    stamps = [float(t) for t in re.findall(r'\] +(\d+\.\d+):', rep)]
    expect(rc == 0 and len(stamps) > 100, 'host report: %s' % e)
    mid = '%.9f' % ((stamps[0] + stamps[-1]) / 2)
    _, before = guest_figures(run([tracekit(), 'sched', '--json', '--to', mid] + files,
                                  timeout=120)[1])
    gafter, after = guest_figures(run([tracekit(), 'sched', '--json', '--from', mid] + files,
                                      timeout=120)[1])
    expect(gafter['from_ns'] == round(float(mid) * 1e9), 'from_ns %r for --from %s' %
           (gafter['from_ns'], mid))
    wrong = {k: (whole[k], before.get(k, (0, 0)), after.get(k, (0, 0))) for k in whole
             if tuple(a + b for a, b in zip(before.get(k, (0, 0)), after.get(k, (0, 0)))) !=
             whole[k]}
    expect(not wrong, 'split at %s, the halves do not add up to the whole (whole, before, '
           'after): %r' % (mid, dict(list(wrong.items())[:5])))
    expect(0 < sum(v[0] for k, v in before.items() if k[0] == 'task') < waited,
           'the first half has none or all of the waits')
    # the guest's file has "CPU N/TCG" threads in it too, but it is a guest's (TIME_SHIFT):
    # beside a recording without such threads it is taken for no host
    plain = os.path.join(tmp, 'plain.dat')
    rc, _, e = run([tracekit(), 'record', '-q', '-o', plain, '-e', 'sched:sched_switch', '-F',
                    'true'], timeout=60)
    expect(rc == 0, 'record: %s' % e)
    rc, out, e = run([tracekit(), 'sched', '-i', plain, '-i', files[3]], timeout=120)
    expect(rc == 0 and 'No guest among the files' in out and 'on host' not in out,
           'a guest\'s file taken for the host of an unrelated one (%d %s):\n%s' %
           (rc, e, out[-800:]))


def recording_guest(tmp, port, command, **popen):
    """record -A of sched_switch on both machines, to host.dat, running command: returned once
    the guest's pages flow (its per-CPU files are there)."""
    p = subprocess.Popen([tracekit(), 'record', '-o', os.path.join(tmp, 'host.dat'), '-e',
                          'sched:sched_switch', '-A', '127.0.0.1:%d' % port, '--name', 'g', '-e',
                          'sched:sched_switch'] + command, stdout=subprocess.DEVNULL, **popen)
    deadline = time.time() + 60
    while not any(f.startswith('host-g.dat.cpu') for f in os.listdir(tmp)):
        if time.time() > deadline or p.poll() is not None:
            p.kill()
            raise Fail('record -A did not get to recording (exit %r)' % p.wait())
        time.sleep(0.1)
    time.sleep(0.5)
    return p


@case
def agent_killed_mid_recording(tmp):
    """An agent SIGKILLed while it records: record -A says the agent did not end properly,
    and both files are written and read (the guest's with what arrived)."""
    root = tracefs()
    A = Agent('--sessions', '1')
    stop = os.path.join(tmp, 'stop')
    # the command ends once the agent is dead, however long the start took
    p = recording_guest(tmp, A.port, ['sh', '-c', 'while [ ! -e %s ]; do sleep 0.1; done' % stop],
                        stderr=subprocess.PIPE, text=True)
    try:
        A.p.kill()
        A.p.wait()
        open(stop, 'w').close()
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
        run([tracekit(), 'reset', '--pid', str(A.p.pid)], timeout=30)
    expect(p.returncode == 0, 'record -A exited %d: %s' % (p.returncode, err))
    expect(re.search(r'guest g \(127\.0\.0\.1:\d+\): .*host-g\.dat, \d+ KB of \d+ CPUs; (it '
                     r'closed the connection without CLOSE_RESP|the agent went away)', err), err)
    expect(not instances_of(root, A.p.pid), 'reset left the killed agent\'s instance')
    os.unlink(stop)
    for f in ('host.dat', 'host-g.dat'):
        rc, out, e = run([tracekit(), 'report', '-i', os.path.join(tmp, f)], timeout=120)
        expect(rc == 0 and 'sched_switch' in out, '%s unreadable: %s' % (f, e))
    no_leftovers(tmp)


@case
def agent_host_killed_reset_removes_guest_files(tmp):
    """record -A SIGKILLed while its guest records: the guest's unfinished file and per-CPU
    files stay beside the host's, and tracekit reset removes them with the host's instance
    and files; the agent ends that session by itself."""
    root = tracefs()
    A = Agent('--sessions', '1')
    p = recording_guest(tmp, A.port, ['sleep', '60'], stderr=subprocess.DEVNULL,
                        start_new_session=True)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    left = sorted(os.listdir(tmp))
    expect('host-g.dat.part' in left and 'host-g.dat.cpu0' in left and 'host.dat.cpu0' in left,
           'the killed recording\'s files: %r' % left)
    rc, rout, rerr = run([tracekit(), 'reset', '--pid', str(p.pid)], timeout=60)
    expect(rc == 0, 'reset: %d %s' % (rc, rerr))
    left = sorted(os.listdir(tmp))
    expect(not left, 'reset left %r (it said: %s%s)' % (left, rout, rerr))
    expect(not instances_of(root, p.pid), 'reset left the host\'s instance')
    # the agent saw its host go: it ends the session, cleanly
    A.end()


def drain(s):
    """Read and drop what s sends until it closes (the agent's metadata, its pages)."""
    try:
        while s.recv(65536):
            pass
    except OSError:
        pass


@case
def agent_ctrl_c_during_a_time_sync_sample(tmp):
    """A host that asks for a time-sync sample and then answers nothing: Ctrl-C ends the agent
    at once, not after its 60 s wait for the host's next message, and its recording is not
    left in tracefs."""
    root = tracefs()
    A = Agent('--sessions', '1')
    socks = []
    try:
        c = send_req(A.port, req_params([b'-e', b'sched:sched_switch']))
        socks.append(c)
        cmd, body, data = netlib.recv_msg(c)
        expect(cmd == TRACE_RESP, 'no TRACE_RESP: %d' % cmd)
        cpus, = struct.unpack('>I', body[4:8])
        proto = body[20:36].rstrip(b'\0')
        tport, = struct.unpack('>I', body[36:40])
        expect(proto == b'ptp' and tport > 0, 'time sync offered: %r port %d' % (proto, tport))
        ports = [int(p) for p in data.split(b'\0')[:cpus]]
        ts = socket.create_connection(('127.0.0.1', tport), timeout=20)
        socks.append(ts)
        for p in ports:
            socks.append(socket.create_connection(('127.0.0.1', p), timeout=20))
        for d in [c] + socks[2:]:
            threading.Thread(target=drain, args=(d,), daemon=True).start()
        # a sample on CPU 0; the agent leads it with its ptp START, left unanswered
        ts.sendall(netlib.msg(TIME_SYNC, b'none'.ljust(16, b'\0') + struct.pack('>I', 1),
                              struct.pack('=H', 0)))
        cmd, body, _ = netlib.recv_msg(ts)
        expect(cmd == TIME_SYNC and body[:3] == b'ptp' and
               struct.unpack('>I', body[16:20])[0] == 1,
               'the agent did not start a ptp sample: %d %r' % (cmd, body))
        time.sleep(0.5)
        start = time.monotonic()
        A.p.send_signal(signal.SIGINT)
        try:
            _, err = A.p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            raise Fail('the agent did not end 20 s after Ctrl-C in a time-sync sample')
        took = time.monotonic() - start
    finally:
        for s in socks:
            s.close()
        if A.p.poll() is None:
            A.p.kill()
            A.p.wait()
    expect(took < 10, 'the agent took %.1f s to end after Ctrl-C' % took)
    expect(not instances_of(root, A.p.pid), 'the agent left instances: %r' %
           instances_of(root, A.p.pid))
    expect('time-sync sample the host left unanswered' in err,
           'the unfinished sample is not said: %s' % err)


@case
def agent_json_lines(tmp):
    """agent --json: a JSON line on stdout for each step (listening, a refused host, a
    connection that asked nothing, recording with the host's options, done); "done" counts
    the events the guest's file holds, as trace-cmd report reads it, and the time-sync
    samples the host took."""
    root = tracefs()
    port = free_port()
    p = subprocess.Popen([tracekit(), 'agent', '-p', str(port), '--json', '--allow',
                          '127.0.0.1/32', '--sessions', '1', '--ports-from',
                          str(random.randrange(20000, 40000))], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        first = json.loads(p.stdout.readline())
        expect(first == {'event': 'listening', 'address': '127.0.0.1', 'port': port},
               'first line: %r' % first)
        # a host from 127.0.0.2, outside --allow
        s = socket.socket()
        s.bind(('127.0.0.2', 0))
        s.settimeout(20)
        s.connect(('127.0.0.1', port))
        refused = json.loads(p.stdout.readline())
        s.close()
        expect(refused == {'event': 'refused', 'host': '127.0.0.2', 'why': 'not allowed'},
               'refusal: %r' % refused)
        # a port check: said, and not one of the agent's --sessions
        socket.create_connection(('127.0.0.1', port), timeout=20).close()
        failed = json.loads(p.stdout.readline())
        expect(failed['event'] == 'failed' and failed['host'] == '127.0.0.1' and
               'before its request' in failed['why'], 'a connection that asked nothing: %r' %
               failed)
        rc, _, err = record_a(tmp, port, calls=300)
        expect(rc == 0, 'record -A failed (%d): %s' % (rc, err))
        out, aerr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    expect(p.returncode == 0, 'agent exited %d: %s' % (p.returncode, aerr))
    lines = [json.loads(l) for l in out.splitlines()]
    expect([l['event'] for l in lines] == ['recording', 'done'], 'events: %r' % lines)
    rec, done = lines
    expect(rec['host'] == '127.0.0.1' and rec['cpus'] == len(rec['data_ports']) ==
           len(os.listdir(os.path.join(root, 'per_cpu'))) and
           rec['time_sync']['protocol'] == 'ptp' and
           rec['options'][-2:] == ['-e', 'syscalls:sys_enter_getppid'], 'recording: %r' % rec)
    rc, rep, e = run(['trace-cmd', 'report', os.path.join(tmp, 'host-g.dat')], timeout=120)
    expect(rc == 0, 'trace-cmd report: %s' % e)
    in_file = len(re.findall(r'sys_enter_getppid:', rep))
    ts = done['time_sync']
    expect(done['host'] == '127.0.0.1' and done['status'] == 0 and
           done['events'] == in_file >= 300 and done['lost'] == 0 and done['pages_sent'] > 0,
           'done %r, the file has %d events' % (done, in_file))
    # the host samples at the start and the end, each vCPU: 2 per CPU
    expect(ts['connected'] and ts['samples'] == 2 * rec['cpus'] and ts['error'] is None and
           0 < ts['round_trip_ns'] <= ts['longest_round_trip_ns'], 'time sync: %r' % ts)
    expect(aerr.count('\n') == 2 and 'refused 127.0.0.2' in aerr and
           'before its request' in aerr, 'stderr has more than the two problems: %r' % aerr)
    no_leftovers(tmp)


@case
def agent_silent_ctrl_c_ends_the_wait(tmp):
    """An "agent" that takes the connection and answers nothing: Ctrl-C on record -A ends its
    wait at once (not after the 30 s it gives a silent agent), one line, no files left."""
    srv = socket.create_server(('127.0.0.1', 0))
    port = srv.getsockname()[1]
    p = subprocess.Popen([tracekit(), 'record', '-o', os.path.join(tmp, 'h.dat'), '-e',
                          'sched:sched_switch', '-A', '127.0.0.1:%d' % port, '--name', 'g',
                          'true'], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        srv.settimeout(60)
        c, _ = srv.accept()
        time.sleep(1)
        start = time.monotonic()
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=25)
        took = time.monotonic() - start
    except subprocess.TimeoutExpired:
        raise Fail('record -A did not end 25 s after Ctrl-C while the agent was silent')
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        srv.close()
    c.close()
    expect(took < 10, 'record -A took %.1f s to end after Ctrl-C' % took)
    expect(p.returncode == 1 and err == 'tracekit: record: agent 127.0.0.1:%d: interrupted\n' %
           port, 'record -A said (%d): %r' % (p.returncode, err))
    expect(not os.listdir(tmp), 'files left: %r' % os.listdir(tmp))


@case
def agent_refuses_host_not_allowed(tmp):
    """An agent allowing only another network refuses the host: record -A says so, no files."""
    tracefs()
    A = Agent('--allow', '10.0.0.0/8', '--sessions', '1')
    rc, _, err = record_a(tmp, A.port, calls=10)
    expect(rc != 0, 'record -A succeeded against an agent that refuses it')
    expect('agent 127.0.0.1:%d' % A.port in err and err.count('\n') == 1,
           'one line naming the agent: %r' % err)
    A.p.send_signal(signal.SIGINT)
    aerr = A.end()
    expect('refused 127.0.0.1 (not allowed' in aerr, 'agent said: %s' % aerr)
    expect(not os.listdir(tmp), 'files left: %r' % os.listdir(tmp))


@case
def agent_record_a_refusals(tmp):
    """record -A: a vsock guest, no agent there, two guests of one name, too many guests: one
    line each, exit 2 or 1."""
    port = free_port()
    many = []
    for i in range(17):
        many += ['-A', '127.0.0.1:%d' % port, '--name', 'g%d' % i]
    for args, code, words in [
            (['-A', '@3:823'], 2, 'vsock'),
            (['-A', 'guest@3', '-e', 'sched'], 2, 'vsock'),
            (['-A', '127.0.0.1:%d' % port, '-A', '127.0.0.1:%d' % port], 2,
             "a second guest named '127.0.0.1'"),
            (['-A', '127.0.0.1:1', '--name', 'vm', '-A', '127.0.0.2:1', '--name', 'vm'], 2,
             "a second guest named 'vm'"),
            (many, 2, '16 guests at most'),
            (['-A', '127.0.0.1:1', '--name', 'a', '-A', '@3:823'], 2, 'vsock'),
            # the guest's options through record's parser on the host, not found wrong by
            # the agent on its machine while the host sees its connection close
            (['-A', '127.0.0.1:1', '--name', 'g', '--nmae', 'x'], 2,
             "the guest options after -A 127.0.0.1:1: unknown option '--nmae'"),
            (['-A', '127.0.0.1:1', '-f', 'x'], 2, 'the guest options after -A 127.0.0.1:1: -f'),
            (['-A', '127.0.0.1:1', '-o', 'g.dat'], 2, "are the host's: give them before"),
            (['-A', '--'], 2, '-A needs HOST:PORT'),
            (['-A', '127.0.0.1:1', '--name', '--'], 2, "--name '--': a guest's name"),
            (['-A', '127.0.0.1:1', '--name', 'a/b'], 2, "--name 'a/b': a guest's name"),
            (['-A', '127.0.0.1:1', '--name', ''], 2, "--name '': a guest's name"),
            (['-A', '127.0.0.1:1', '--name', 'a', '--name', 'b'], 2, '--name given twice'),
            (['-A', '127.0.0.1:1', '--guest-pid', '1', '--guest-pid', '1'], 2,
             '--guest-pid 1: given twice'),
            (['--name', 'g', '-A', '127.0.0.1:1'], 2, 'after -A'),
            (['--tsync-interval', '5'], 2, 'give -A'),
            (['-N', '127.0.0.1:1', '-A', '127.0.0.1:1'], 2, '-N'),
    ]:
        rc, _, err = run([tracekit(), 'record'] + args + ['true'], timeout=30, cwd=tmp)
        expect(rc == code and words in err and err.count('\n') == 1,
               'record %s: %d %r' % (' '.join(args), rc, err))
    tracefs()
    rc, _, err = run([tracekit(), 'record', '-o', os.path.join(tmp, 'h.dat'), '-A',
                      '127.0.0.1:%d' % port, 'true'], timeout=30)
    expect(rc == 1 and 'is an agent running there' in err, 'no agent: %d %r' % (rc, err))
    expect(not os.listdir(tmp), 'files left: %r' % os.listdir(tmp))


def send_req(port, body_data, cmd=TRACE_REQ, body=None):
    s = socket.create_connection(('127.0.0.1', port), timeout=10)
    if body is None:
        body = struct.pack('>IIQ', 0, 0, 42)
    s.sendall(netlib.msg(cmd, body, body_data))
    return s


def req_params(args, protos=(b'ptp',)):
    a = struct.pack('>I', len(args)) + b''.join(x + b'\0' for x in args)
    data = struct.pack('>II', 0, len(a)) + a
    if protos is not None:
        p = b''.join(x + b'\0' for x in protos) + b'\0'
        data += struct.pack('>II', 1, len(p)) + p
    return data


@case
def agent_survives_hostile_hosts(tmp):
    """Hosts that send junk, lie about sizes, ask for a command or vanish: the agent says so,
    sends nothing it should not, and the next host is served.  Only the two that got to a
    recording count against --sessions (a port check is no host served)."""
    tracefs()
    A = Agent('--sessions', '2')
    hostile = [
        b'\xff' * 12,                                               # a header of 4 GB
        netlib.msg(TRACE_REQ, struct.pack('>IIQ', 0, 0, 1),
                   struct.pack('>II', 0, 4000) + b'x' * 10),        # a parameter past the end
        netlib.msg(TRACE_REQ, struct.pack('>IIQ', 0, 0, 1),
                   struct.pack('>II', 0, 9) + struct.pack('>I', 99) + b'-e\0s\0\0'),  # argc lies
        netlib.msg(TIME_SYNC, b'\0' * 20),                         # not a request
        b'',                                                        # a host that says nothing
    ]
    for junk in hostile:
        s = socket.create_connection(('127.0.0.1', A.port), timeout=20)
        if junk:
            s.sendall(junk)
            s.settimeout(20)
            try:
                got = s.recv(100)
            except socket.timeout:
                raise Fail('the agent neither answered nor closed after %r' % junk[:24])
            expect(got == b'', 'the agent answered %r to %r' % (got[:24], junk[:24]))
        s.close()
    # a request with a COMMAND: refused by record's options, the host sees the end
    s = send_req(A.port, req_params([b'-e', b'sched:sched_switch', b'/bin/true'], protos=None))
    cmd, body, data = netlib.recv_msg(s)
    expect(cmd == TRACE_RESP, 'no TRACE_RESP: %d' % cmd)
    cpus, = struct.unpack('>I', body[4:8])
    ports = [int(p) for p in data.split(b'\0')[:cpus]]
    expect(len(ports) == cpus and all(p >= 20000 for p in ports), 'ports %r' % ports)
    s.settimeout(30)
    expect(s.recv(100) == b'', 'the agent recorded for a request with a COMMAND')
    s.close()
    # and a real host is served after all that
    rc, _, err = record_a(tmp, A.port, calls=100)
    expect(rc == 0, 'record -A after the hostile hosts failed: %s' % err)
    pid = loop_pid(os.path.join(tmp, 'host.dat'))
    expect(getppid(os.path.join(tmp, 'host-g.dat'), pid) == 100, 'guest file')
    aerr = A.end()
    expect('asked for a COMMAND' in aerr, 'agent said: %s' % aerr)
    no_leftovers(tmp)


@case
def agent_drops_a_trickling_host(tmp):
    """A host that sends its request a byte every 2 s: the agent gives the whole message
    10 s (not 10 s per byte, which kept it, and every host behind it, for hours)."""
    tracefs()
    A = Agent('--sessions', '1')
    s = socket.create_connection(('127.0.0.1', A.port), timeout=20)
    req = netlib.msg(TRACE_REQ, struct.pack('>IIQ', 0, 0, 1), b'x' * 200)
    start, closed = time.monotonic(), False
    for b in req[:60]:
        try:
            s.sendall(bytes([b]))
        except OSError:
            closed = True
            break
        s.settimeout(2)
        try:
            if s.recv(100) == b'':
                closed = True
                break
        except socket.timeout:
            pass
    took = time.monotonic() - start
    s.close()
    expect(closed, 'the agent still read a byte every 2 s after %.0f s' % took)
    # no recording: not one of its --sessions; it serves on until stopped
    time.sleep(0.5)
    expect(A.p.poll() is None, 'the agent ended on a host it never recorded for')
    A.p.send_signal(signal.SIGINT)
    aerr = A.end()
    expect('sent 12 of' in aerr or 'sent nothing' in aerr or 'bytes in' in aerr,
           'the agent said: %s' % aerr)


def setup(argv):
    if '--progs' in argv:
        OPTIONS['progs'] = argv[argv.index('--progs') + 1]


if __name__ == '__main__':
    setup(sys.argv)
    sys.exit(main(sys.argv, 'test_agent.py CASE --progs DIR | --list', tmp_prefix='tk-agent-'))

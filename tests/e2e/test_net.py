#!/usr/bin/env python3
"""e2e tests of trace-cmd's network protocol on loopback: `tracekit record -N`
streaming to `tracekit listen` and to `trace-cmd listen`, and `tracekit listen`
against clients that stop mid-stream or send what no client should.

    test_net.py CASE --progs DIR     # run one case (DIR: the built tests/progs)
    test_net.py --list               # the case names

`trace-cmd record -N` as the client runs in the kernel lab (tests/kernel/cases/
net-listen.sh): trace-cmd record changes the top-level tracing state, which
this machine's other users share.
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
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import Fail, Skip, case, expect, finish, main, run, start, tracekit  # noqa: E402
import netlib  # noqa: E402

OPTIONS = {}
CALLS = 20000


def loop():
    return os.path.join(OPTIONS['progs'], 'loop')


def free_port():
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Listener:
    """tracekit listen --json on a free port, in dir; its JSON lines when it ends."""

    def __init__(self, dir, *args):
        self.dir = dir
        for _ in range(5):
            self.port = free_port()
            self.p = subprocess.Popen([tracekit(), 'listen', '-p', str(self.port), '-d', dir,
                                       '--json'] + list(args), stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True)
            line = self.p.stdout.readline()
            if line:
                expect(json.loads(line)['event'] == 'listening', 'first line: %r' % line)
                return
            self.p.wait()
        raise Fail('tracekit listen did not start: %s' % self.p.stderr.read())

    def end(self, timeout=60):
        try:
            out, err = self.p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            out, err = self.p.communicate()
            raise Fail('tracekit listen did not end: %s' % err)
        self.err = err
        expect(self.p.returncode == 0, 'tracekit listen exited %d: %s' % (self.p.returncode, err))
        return [json.loads(line) for line in out.splitlines()]

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGINT)
        return self.end()


def record_n(port, *args, calls=CALLS):
    rc, out, err = run([tracekit(), 'record', '-N', '127.0.0.1:%d' % port] + list(args) +
                       ['-e', 'syscalls:sys_enter_getppid', '-F', loop(), 'getppid', str(calls)],
                       timeout=120)
    expect(rc == 0, 'record -N failed (%d): %s' % (rc, err.strip()))
    return err


def getppid_events(path):
    """sys_enter_getppid events in path, counted by tracekit report and trace-cmd report."""
    rc, out, err = run([tracekit(), 'report', '-i', path], timeout=120)
    expect(rc == 0, 'tracekit report %s failed: %s' % (path, err.strip()))
    ours = sum(1 for line in out.splitlines() if 'sys_enter_getppid' in line)
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed (apt-get install trace-cmd)')
    rc, out, err = run(['trace-cmd', 'report', '-i', path], timeout=120)
    expect(rc == 0, 'trace-cmd report %s failed: %s' % (path, err.strip()))
    theirs = sum(1 for line in out.splitlines() if 'sys_enter_getppid' in line)
    expect(ours == theirs, 'tracekit report sees %d events, trace-cmd report %d' % (ours, theirs))
    return ours


def dat_files(dir):
    return sorted(f for f in os.listdir(dir) if f.endswith('.dat'))


def no_leftovers(dir):
    stray = [f for f in os.listdir(dir) if re.search(r'\.cpu\d+$', f)]
    expect(not stray, 'per-CPU temp files left: %r' % stray)


@case
def net_record_tcp_to_tracekit_listen(tmp):
    """-t: every event of the command arrives (the same count as a local record)."""
    L = Listener(tmp, '--clients', '1')
    err = record_n(L.port, '-t')
    expect('%d events, 0 lost' % CALLS in err or 'events' in err, 'record said: %s' % err)
    lines = L.end()
    done = [d for d in lines if d['event'] == 'done']
    expect(len(done) == 1 and done[0]['complete'] and done[0]['transport'] == 'tcp',
           'listener: %r' % lines)
    name = done[0]['file']
    expect(re.fullmatch(r'trace\.[A-Za-z0-9.:_-]+:\d+\.dat', name), 'file name %r' % name)
    expect(dat_files(tmp) == [name], 'files: %r' % os.listdir(tmp))
    n = getppid_events(os.path.join(tmp, name))
    expect(n == CALLS, '%d getppid events received, %d made' % (n, CALLS))
    # The same recording made locally has the same events.
    local = os.path.join(tmp, 'local.dat')
    rc, _, err = run([tracekit(), 'record', '-o', local, '-e', 'syscalls:sys_enter_getppid',
                      '-F', loop(), 'getppid', str(CALLS)], timeout=120)
    expect(rc == 0, 'local record failed: %s' % err)
    expect(getppid_events(local) == n, 'local and streamed recordings differ')
    no_leftovers(tmp)


@case
def net_record_tcp_to_tracecmd_listen(tmp):
    """trace-cmd listen takes tracekit's stream; trace-cmd report and tracekit report read it."""
    counts, _ = to_tracecmd_listen(tmp, '-t')
    expect(counts.count(CALLS) == 1, 'files with %r events: none with all %d' % (counts, CALLS))


@case
def net_record_udp_to_tracecmd_listen(tmp):
    """Over UDP to trace-cmd listen: the file reads; what its host dropped nobody reports, and
    record -N says so."""
    counts, err = to_tracecmd_listen(tmp)
    expect('only it can count' in err, 'record -N did not say who counts UDP losses: %s' % err)
    expect(len([n for n in counts if 0 < n <= CALLS]) == 1, 'files with %r events' % counts)


def to_tracecmd_listen(tmp, *args):
    """record -N to a trace-cmd listen: the getppid events of each file it wrote, record's stderr."""
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed (apt-get install trace-cmd)')
    port = free_port()
    # Its own session: trace-cmd listen forks a process per client.
    p = subprocess.Popen(['trace-cmd', 'listen', '-p', str(port), '-d', tmp],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                         start_new_session=True)
    try:
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(('127.0.0.1', port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        # That probe was a client too: trace-cmd listen drops it and goes on.
        err = record_n(port, *args)
        deadline = time.time() + 30
        files = []
        while time.time() < deadline:
            files = [f for f in dat_files(tmp) if os.path.getsize(os.path.join(tmp, f)) > 0]
            # trace-cmd writes the data after CLOSE and a pause; its temp files go last
            if files and not [f for f in os.listdir(tmp) if re.search(r'\.cpu\d+$', f)]:
                break
            time.sleep(0.5)
        time.sleep(1)
    finally:
        os.killpg(p.pid, signal.SIGINT)
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    return [getppid_events(os.path.join(tmp, f)) for f in files], err


@case
def net_record_file_version_6(tmp):
    """--file-version 6 streams too: the listener appends v6's flyrecord table."""
    L = Listener(tmp, '--clients', '1')
    record_n(L.port, '-t', '--file-version', '6')
    done = [d for d in L.end() if d['event'] == 'done']
    expect(len(done) == 1 and done[0]['complete'], 'listener: %r' % done)
    path = os.path.join(tmp, done[0]['file'])
    with open(path, 'rb') as f:
        expect(f.read(12) == b'\x17\x08\x44tracing6\0', 'not a version 6 file')
    n = getppid_events(path)
    expect(n == CALLS, '%d getppid events received, %d made' % (n, CALLS))


@case
def net_record_udp_counts_losses(tmp):
    """UDP (trace-cmd's default): what arrives plus what the listener counts lost is all."""
    L = Listener(tmp, '--clients', '1')
    err = record_n(L.port)
    expect('(UDP)' in err and 'pages sent' in err, 'record said: %s' % err)
    m = re.search(r'(\d+) pages sent, (\d+) pages refused', err)
    expect(m, 'record did not count its pages: %s' % err)
    done = [d for d in L.end() if d['event'] == 'done']
    expect(len(done) == 1 and done[0]['transport'] == 'udp', 'listener: %r' % done)
    d = done[0]
    n = getppid_events(os.path.join(tmp, d['file']))
    sent = int(m.group(1))
    expect(d['pages'] + d['lost_pages'] == sent,
           '%d pages sent, %d arrived, %d counted lost' % (sent, d['pages'], d['lost_pages']))
    expect(n == CALLS or d['lost_pages'] > 0,
           '%d of %d events arrived and no loss was counted' % (n, CALLS))


@case
def net_listen_several_clients(tmp):
    """Clients at once: a file each, each with its own command's events."""
    L = Listener(tmp, '--clients', '3')
    procs = [start([tracekit(), 'record', '-N', '127.0.0.1:%d' % L.port, '-t', '-e',
                    'syscalls:sys_enter_getppid', '-F', loop(), 'getppid', str(1000 * (i + 1))])
             for i in range(3)]
    for p in procs:
        rc, _, err = finish(p, 120)
        expect(rc == 0, 'a record -N failed: %s' % err)
    done = [d for d in L.end() if d['event'] == 'done']
    expect(len(done) == 3 and all(d['complete'] for d in done), 'listener: %r' % done)
    counts = sorted(getppid_events(os.path.join(tmp, d['file'])) for d in done)
    expect(counts == [1000, 2000, 3000], 'events per file: %r' % counts)
    no_leftovers(tmp)


def local_trace(tmp, calls=5000):
    path = os.path.join(tmp, 'src.dat')
    rc, _, err = run([tracekit(), 'record', '-o', path, '-e', 'syscalls:sys_enter_getppid',
                      '-F', loop(), 'getppid', str(calls)], timeout=120)
    expect(rc == 0, 'record failed: %s' % err)
    return netlib.split_trace(path)


@case
def net_listen_client_leaves_mid_stream(tmp):
    """A client gone without CLOSE, in the middle of a page: the whole pages are a readable
    file, and the listener says the client left."""
    meta, pages = local_trace(tmp)
    cpu, data = max(pages.items(), key=lambda kv: len(kv[1]))
    expect(len(data) >= 2 * 4096, 'the source trace has too few pages')
    out = os.path.join(tmp, 'out')
    os.mkdir(out)
    L = Listener(out, '--clients', '1')
    c = netlib.Client(L.port, cpus=cpu + 1)
    c.tinit()
    c.metadata(meta)
    c.pages(cpu, data[:4096] + data[4096:4096 + 1000])
    time.sleep(0.5)
    c.close(polite=False)
    done = [d for d in L.end() if d['event'] == 'done']
    expect(len(done) == 1 and not done[0]['complete'] and done[0]['file'], 'listener: %r' % done)
    expect(done[0]['pages'] == 1 and done[0]['cut_bytes'] == 1000, 'listener: %r' % done)
    n = getppid_events(os.path.join(out, done[0]['file']))
    first = netlib_events(tmp, data[:4096])
    expect(n == first and n > 0, '%d events in the file, %d in the page sent' % (n, first))
    no_leftovers(out)
    # and said so to people (without --json)
    port = free_port()
    p = subprocess.Popen([tracekit(), 'listen', '-p', str(port), '-d', out, '--clients', '1'],
                         stderr=subprocess.PIPE, text=True)
    expect('listening on 127.0.0.1 port %d' % port in p.stderr.readline(), 'no first line')
    c = netlib.Client(port)
    c.tinit()
    c.metadata(meta)
    c.close(polite=False)
    _, err = p.communicate(timeout=30)
    expect('left mid-stream' in err, 'listener said: %s' % err)


@case
def net_listen_stopped_mid_stream(tmp):
    """Ctrl-C while a client streams: its file holds what arrived, and the listener says so."""
    meta, pages = local_trace(tmp)
    cpu, data = max(pages.items(), key=lambda kv: len(kv[1]))
    out = os.path.join(tmp, 'out')
    os.mkdir(out)
    L = Listener(out)
    c = netlib.Client(L.port, cpus=cpu + 1)
    c.tinit()
    c.metadata(meta)
    c.pages(cpu, data[:2 * 4096])
    time.sleep(0.5)
    done = [d for d in L.stop() if d['event'] == 'done']
    c.close(polite=False)
    expect(len(done) == 1 and not done[0]['complete'] and done[0]['pages'] == 2,
           'listener: %r' % done)
    expect(getppid_events(os.path.join(out, done[0]['file'])) > 0, 'no events in the file')
    no_leftovers(out)


def netlib_events(tmp, page):
    """The events in one ring-buffer page of the source trace, by tracekit's reader."""
    # A page holds whole events; counting through a one-page file keeps this honest.
    meta, _ = netlib.split_trace(os.path.join(tmp, 'src.dat'))
    one = os.path.join(tmp, 'one')
    os.makedirs(one, exist_ok=True)
    L = Listener(one, '--clients', '1')
    c = netlib.Client(L.port)
    c.tinit()
    c.metadata(meta)
    c.pages(0, page)
    time.sleep(0.3)
    c.close()
    done = [d for d in L.end() if d['event'] == 'done']
    return getppid_events(os.path.join(one, done[0]['file']))


@case
def net_listen_hostile_clients(tmp):
    """Garbage, lies and floods: each client is dropped with a reason, no file stays, the
    listener goes on and takes a good client after them."""
    meta, pages = local_trace(tmp, 1000)
    out = os.path.join(tmp, 'out')
    os.mkdir(out)
    L = Listener(out, '--clients', '7', '--max-meta', '16')

    def expect_dropped(c):
        c.s.settimeout(15)
        try:
            while c.s.recv(4096):
                pass
        except (ConnectionResetError, socket.timeout):
            pass

    c = netlib.Client(L.port, greet=False)          # a V1 client
    expect(netlib.recv_exact(c.s, 8) == b'tracecmd', 'no greeting')
    c.s.sendall(b'4\0')
    expect_dropped(c)
    c = netlib.Client(L.port)                       # a message larger than 8192 bytes
    c.s.sendall(struct.pack('>III', 100000, 1, 12))
    expect_dropped(c)
    c = netlib.Client(L.port, cpus=100000)          # absurd CPU count
    c.s.sendall(netlib.msg(netlib.TINIT, struct.pack('>III', 100000, 4096, 0)))
    expect_dropped(c)
    c = netlib.Client(L.port, page=4097)            # a page size that is no page size
    c.s.sendall(netlib.msg(netlib.TINIT, struct.pack('>III', 1, 4097, 0)))
    expect_dropped(c)
    c = netlib.Client(L.port)                       # metadata that is not a trace file
    c.tinit()
    c.metadata(b'\x17\x08\x44tracing7\0' + b'\xff' * 200)
    c.close()
    c = netlib.Client(L.port)                       # more metadata than --max-meta
    c.tinit()
    try:
        c.metadata(b'x' * (17 << 20))
    except OSError:
        pass
    expect_dropped(c)
    cpu, data = max(pages.items(), key=lambda kv: len(kv[1]))
    good = netlib.Client(L.port, cpus=cpu + 1)      # and a good one still works
    good.tinit()
    good.metadata(meta)
    good.pages(cpu, data)
    time.sleep(0.3)
    good.close()
    lines = L.end()
    done = [d for d in lines if d['event'] == 'done']
    expect(len(done) == 7, 'listener: %r' % lines)
    bad, ok = done[:6], done[6]
    expect(all(d['file'] is None and d.get('error') for d in bad), 'dropped: %r' % bad)
    expect(ok['file'] and ok['complete'], 'the good client: %r' % ok)
    expect(dat_files(out) == [ok['file']], 'files: %r' % os.listdir(out))
    expect(getppid_events(os.path.join(out, ok['file'])) == 1000, 'the good client lost events')
    no_leftovers(out)


@case
def net_listen_binds_loopback_and_allows(tmp):
    """By default only 127.0.0.1 is bound; --allow refuses a client outside its networks."""
    L = Listener(tmp, '--allow', '10.0.0.0/8')
    with open('/proc/net/tcp') as f:
        rows = [line.split() for line in f.readlines()[1:]]
    mine = [r for r in rows if r[1].endswith(':%04X' % L.port) and r[3] == '0A']
    expect(mine and all(r[1].startswith('0100007F:') for r in mine),
           'listening sockets on port %d: %r' % (L.port, mine))
    s = socket.create_connection(('127.0.0.1', L.port), timeout=10)
    s.settimeout(10)
    expect(s.recv(100) == b'', 'a client outside --allow was greeted')
    lines = L.stop()
    expect([d['event'] for d in lines] == ['refused'] and lines[0]['why'] == 'not in --allow',
           'listener: %r' % lines)
    rc, _, err = run([tracekit(), 'listen', '-p', '1', '-o', '../x'])
    expect(rc == 2 and 'a name, not a path' in err, 'listen -o ../x: %d %s' % (rc, err))
    rc, _, err = run([tracekit(), 'record', '-N', 'nohost', '--', 'true'])
    expect(rc == 2 and 'expected HOST:PORT' in err, 'record -N nohost: %d %s' % (rc, err))


def setup(argv):
    if '--progs' in argv:
        OPTIONS['progs'] = argv[argv.index('--progs') + 1]
    if os.geteuid() != 0:
        raise Skip('recording needs root')


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_net.py CASE --progs DIR', setup=setup, tmp_prefix='tk-net-'))

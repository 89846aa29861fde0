#!/usr/bin/env python3
"""The ptrace probe engine (include/tracekit/probe.h) end to end: probe-driver
on the bundled probe_target programs.  Every expected value is computed from
what the program does (tests/progs/probe_target.c) or read from its ELF file,
and the program's own output must be the same as without probes.

    test_probe_ptrace.py CASE --driver PATH --progs DIR
"""

import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'e2e'))
from e2elib import Fail, Skip, case, expect, finish, main, run, start  # noqa: E402

ARGS = {}


def prog(name):
    return os.path.join(ARGS['progs'], name)


def symbols(path):
    """name -> link-time address, from nm."""
    out = subprocess.run(['nm', path], capture_output=True, text=True, check=True).stdout
    return {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}


def file_offset(path, vaddr):
    """The file offset of a link-time address, through the PT_LOAD holding it (readelf)."""
    out = subprocess.run(['readelf', '-lW', path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD':
            off, va, filesz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
            if va <= vaddr < va + filesz:
                return vaddr - va + off
    raise Fail('%s: no PT_LOAD holds %#x' % (path, vaddr))


def drive(specs, argv, extra=(), timeout=120):
    cmd = [ARGS['driver']] + list(extra)
    for s in specs:
        cmd += ['-e', s]
    rc, out, err = run(cmd + ['--'] + argv, timeout=timeout)
    return rc, out, err


def program_lines(out):
    """The traced program's own lines (the driver's are hit/post/ret/count/status)."""
    return [l for l in out.splitlines() if not re.match(r'(hit|post|ret|count|status=)', l)]


def bare(argv):
    rc, out, err = run(argv)
    expect(rc == 0, 'bare run of %s failed: %s' % (argv, err))
    return out.splitlines()


def counts(out):
    return {int(m.group(1)): (int(m.group(2)), int(m.group(3)))
            for m in re.finditer(r'^count (\d+) hits=(\d+) missed=(\d+)$', out, re.M)}


def lines(out, kind, index):
    pat = re.compile(r'^%s %d (.*)$' % (kind, index))
    res = []
    for l in out.splitlines():
        m = pat.match(l)
        if m:
            res.append(dict(kv.split('=', 1) for kv in m.group(1).split()))
    return res


def check_ok(rc, out, err, argv):
    expect(rc == 0, 'driver exit %d: %s' % (rc, err.strip()))
    expect('status=0' in out.splitlines(), 'the program did not exit 0: %s' % out[-300:])
    expect(program_lines(out) == bare(argv), 'the program printed other results under probes:\n%s'
           % '\n'.join(program_lines(out)))


@case
def entry_args_string(_):
    t = prog('probe_target')
    argv = [t, 'loop', '5']
    rc, out, err = drive([t + ':hot/str'], argv)
    check_ok(rc, out, err, argv)
    hits = lines(out, 'hit', 0)
    want = []
    for i in range(5):
        want += [('hello', i), ('call', i)]
    expect([(h['str'].strip('"'), int(h['rsi'])) for h in hits] == want, 'hits: %s' % hits)
    expect({h['rip'] for h in hits} == {'+0'}, 'pre-handlers see rip at the probe: %s' % hits)
    expect(counts(out)[0] == (10, 0), 'count line: %s' % counts(out))


@case
def relocated_instructions(_):
    """A rip-relative load, a conditional branch and a call, each run out of line and stepped."""
    t = prog('probe_target')
    syms = symbols(t)
    argv = [t, 'loop', '4']
    rc, out, err = drive([t + ':riprel_fn/post', t + ':jcc_fn+3/post', t + ':call_fn+11/post'], argv)
    check_ok(rc, out, err, argv)
    riprel = lines(out, 'post', 0)
    expect([(int(p['rax']), p['next']) for p in riprel] == [(40, '+7')] * 4,
           'riprel_fn: mov rax, [rip + counter] must load 40 and end 7 bytes on: %s' % riprel)
    jcc = [p['next'] for p in lines(out, 'post', 1)]
    # jcc_fn(i & 1): je is taken (to +11, i.e. +8 from the je) when i is even
    expect(jcc == ['+8', '+2', '+8', '+2'], 'jcc_fn: je taken/not taken: %s' % jcc)
    call = [int(p['next']) for p in lines(out, 'post', 2)]
    want = syms['hot'] - (syms['call_fn'] + 11)
    expect(call == [want] * 4, 'call_fn: the call lands in hot (%+d): %s' % (want, call))


@case
def return_values(_):
    t = prog('probe_target')
    argv = [t, 'loop', '3']
    rc, out, err = drive(['r:' + t + ':hot', t + ':hot'], argv)
    check_ok(rc, out, err, argv)
    rets = [int(r['rax']) for r in lines(out, 'ret', 0)]
    want = []
    for i in range(3):
        want += [len('hello') + i, len('call') + i]
    expect(rets == want, 'hot returns len(s) + n: %s, want %s' % (rets, want))
    expect(counts(out)[0][0] == counts(out)[1][0] == 6, 'both probes on hot hit 6 times: %s'
           % counts(out))


@case
def nested_returns(_):
    t = prog('probe_target')
    argv = [t, 'recurse', '6']
    rc, out, err = drive(['r:' + t + ':fact'], argv)
    check_ok(rc, out, err, argv)
    rets = [int(r['rax']) for r in lines(out, 'ret', 0)]
    expect(rets == [1, 2, 6, 24, 120, 720], 'fact returns innermost first: %s' % rets)


@case
def address_probe_non_pie(_):
    n = prog('probe_target_nopie')
    argv = [n, 'loop', '3']
    rc, out, err = drive(['%#x/str' % symbols(n)['hot']], argv)
    check_ok(rc, out, err, argv)
    expect([h['str'] for h in lines(out, 'hit', 0)] == ['"hello"', '"call"'] * 3,
           'hits: %s' % lines(out, 'hit', 0))


@case
def file_offset_probe_pie(_):
    t = prog('probe_target')
    fo = file_offset(t, symbols(t)['hot'])
    argv = [t, 'loop', '2']
    rc, out, err = drive(['%s:%#x' % (t, fo), t + ':hot'], argv)
    check_ok(rc, out, err, argv)
    c = counts(out)
    expect(c[0] == c[1] == (4, 0), 'PATH:OFFSET and PATH:SYMBOL are the same place: %s' % c)


@case
def shared_library_at_start(_):
    t = prog('probe_target')
    lib = prog('libprobelib.so')
    argv = [t, 'lib', '4']
    rc, out, err = drive([lib + ':lib_add', 'r:' + lib + ':lib_add'], argv)
    check_ok(rc, out, err, argv)
    expect([(int(h['rdi']), int(h['rsi'])) for h in lines(out, 'hit', 0)] ==
           [(i, 1000) for i in range(4)], 'lib_add(i, 1000): %s' % lines(out, 'hit', 0))
    expect([int(r['rax']) for r in lines(out, 'ret', 1)] == [i + 1000 for i in range(4)],
           'lib_add returns: %s' % lines(out, 'ret', 1))


@case
def dlopen_library(_):
    t = prog('probe_target')
    lib = prog('libprobedl.so')
    argv = [t, 'dlopen', '5', lib]
    rc, out, err = drive([lib + ':dl_mul', 'r:' + lib + ':dl_mul'], argv)
    check_ok(rc, out, err, argv)
    expect([int(h['rdi']) for h in lines(out, 'hit', 0)] == list(range(5)),
           'dl_mul(i, 3) after dlopen: %s' % lines(out, 'hit', 0))
    expect([int(r['rax']) for r in lines(out, 'ret', 1)] == [3 * i for i in range(5)],
           'dl_mul returns: %s' % lines(out, 'ret', 1))


@case
def threads(_):
    t = prog('probe_target')
    argv = [t, 'threads', '4', '2000']
    rc, out, err = drive([t + ':hot', 'r:' + t + ':hot', t + ':hot/post'], argv, timeout=300)
    check_ok(rc, out, err, argv)
    c = counts(out)
    expect(c[0] == c[1] == c[2] == (8000, 0), 'every call of 4 threads x 2000: %s' % c)
    tids = {h['tid'] for h in lines(out, 'hit', 0)}
    expect(len(tids) == 4, 'hits from 4 threads: %s' % sorted(tids))
    rets = sorted(int(r['rax']) for r in lines(out, 'ret', 1))
    expect(rets == sorted(len('thread') + i for i in range(2000) for _ in range(4)),
           'every return value of every thread')


@case
def fork_child_keeps_probes(_):
    t = prog('probe_target')
    argv = [t, 'fork', '2']
    rc, out, err = drive([t + ':hot', 'r:' + t + ':hot'], argv)
    check_ok(rc, out, err, argv)
    pids = [h['pid'] for h in lines(out, 'hit', 0)]
    # parent loop(2), child loop(2), parent loop(2): two calls of hot per round
    expect(len(pids) == 12 and len(set(pids)) == 2, 'hits in parent and child: %s' % pids)
    expect(counts(out)[1] == (12, 0), 'returns in both: %s' % counts(out))


@case
def exec_places_probes_again(_):
    t, n = prog('probe_target'), prog('probe_target_nopie')
    argv = [t, 'exec', '2', n, 'loop', '3']
    rc, out, err = drive([t + ':hot', n + ':hot/str'], argv)
    check_ok(rc, out, err, argv)
    c = counts(out)
    expect(c[0] == (4, 0) and c[1] == (6, 0), 'hot before exec (4) and in the new image (6): %s' % c)


def wait_for_int3(pid, addr, timeout=10):
    end = time.time() + timeout
    while time.time() < end:
        with open('/proc/%d/mem' % pid, 'rb') as f:
            f.seek(addr)
            if f.read(1) == b'\xcc':
                return
        time.sleep(0.02)
    raise Fail('no int3 at %#x in %d after %d s' % (addr, pid, timeout))


def code_base(pid, path):
    """Where path's first mapping starts in pid (its load bias for a PIE)."""
    real = os.path.realpath(path)
    with open('/proc/%d/maps' % pid) as f:
        for line in f:
            if line.rstrip().endswith(real):
                return int(line.split('-')[0], 16)
    raise Fail('%s is not mapped in %d' % (path, pid))


def attach_then(stop):
    """probe_target wait under -p, hits, then stop(driver); the bytes must be back and it runs on."""
    t = prog('probe_target')
    syms = symbols(t)
    want = bare([t, 'loop', '3'])[0]
    target = subprocess.Popen([t, 'wait', '3'], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        pid = int(target.stdout.readline().split('=')[1])
        base = code_base(pid, t)
        places = {s: base + file_offset(t, syms[s]) for s in ('hot', 'riprel_fn', 'jcc_fn')}
        orig = {}
        with open(t, 'rb') as f:
            for s in places:
                f.seek(file_offset(t, syms[s]))
                orig[s] = f.read(16)
        d = start([ARGS['driver']] + stop['args'] + ['-e', t + ':hot', '-e', 'r:' + t + ':hot', '-e',
                  t + ':riprel_fn/post', '-e', t + ':jcc_fn+3', '-p', str(pid)])
        for s in places:
            wait_for_int3(pid, places[s] + (3 if s == 'jcc_fn' else 0))
        target.stdin.write('go\n')
        target.stdin.flush()
        expect(target.stdout.readline().strip() == want, 'the first loop under probes')
        if stop.get('signal'):
            d.send_signal(signal.SIGINT)
        rc, out, err = finish(d)
        expect(rc == 0 and 'status=0' in out, 'driver: %d %s %s' % (rc, out[-200:], err))
        expect(sum(h for h, _ in counts(out).values()) >= 5, 'hits before the detach: %s' % counts(out))
        with open('/proc/%d/mem' % pid, 'rb') as f:
            for s, a in places.items():
                f.seek(a)
                got = f.read(16)
                expect(got == orig[s], '%s after detach: %s, file has %s' % (s, got.hex(), orig[s].hex()))
        target.stdin.write('go\n')
        target.stdin.flush()
        expect(target.stdout.readline().strip() == want, 'the program runs on')
        expect(target.wait(timeout=30) == 0, 'the program exits 0 after the detach')
    finally:
        if target.poll() is None:
            target.kill()
            target.wait()


@case
def attach_detach_restores_bytes(_):
    attach_then({'args': ['-d', '5']})


@case
def attach_sigint_restores_bytes(_):
    attach_then({'args': [], 'signal': True})


@case
def tracee_killed(_):
    t = prog('probe_target')
    argv = [t, 'threads', '2', '100000000']
    d = start([ARGS['driver'], '-q', '-e', t + ':hot', '-e', 'r:' + t + ':hot', '--'] + argv)
    time.sleep(1.0)
    kids = subprocess.run(['pgrep', '-P', str(d.pid)], capture_output=True, text=True).stdout.split()
    expect(len(kids) == 1, 'one traced child: %s' % kids)
    os.kill(int(kids[0]), signal.SIGKILL)
    rc, out, err = finish(d, timeout=30)
    expect(rc == 0 and 'status=137' in out, 'the driver reports the kill and exits: %d %s %s'
           % (rc, out, err))
    expect(not os.path.exists('/proc/' + kids[0]) or 'Z' not in open('/proc/%s/stat' % kids[0]).read(),
           'no zombie left')


@case
def refusals(_):
    t = prog('probe_target')
    rc, out, err = drive([t + ':call_fn+6'], [t, 'loop', '1'])
    expect(rc == 1 and 'call_fn+0x6: +0x6 is inside \'lea rdi' in err, 'mid-instruction: %s' % err)
    rc, out, err = drive([t + ':no_such_function'], [t, 'loop', '1'])
    expect(rc == 1 and "symbol 'no_such_function' not found" in err, 'unknown symbol: %s' % err)
    rc, out, err = drive(['/nonexistent/lib.so:f'], [t, 'loop', '1'])
    expect(rc == 1 and 'No such file' in err, 'missing file: %s' % err)


@case
def unprivileged_user(_):
    """The engine needs only the right to ptrace its own child: run as nobody."""
    if os.geteuid() != 0:
        entry_args_string(None)	# already unprivileged
        return
    for p in (ARGS['driver'], prog('probe_target')):
        d = p
        while d != '/':
            st = os.stat(d)
            if not st.st_mode & 0o001:
                raise Skip('%s is not reachable by other users' % d)
            d = os.path.dirname(d)
    t = prog('probe_target')
    argv = [t, 'loop', '3']
    rc, out, err = run(['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups',
                        ARGS['driver'], '-e', t + ':hot/str', '--'] + argv)
    check_ok(rc, out, err, argv)
    expect(counts(out)[0] == (6, 0), 'hits as nobody: %s' % counts(out))


def setup(argv):
    it = iter(argv[2:])
    for a in it:
        ARGS[a.lstrip('-')] = next(it)
    if 'driver' not in ARGS or 'progs' not in ARGS:
        raise Skip('--driver and --progs are needed')


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_probe_ptrace.py CASE --driver PATH --progs DIR', setup))

#!/usr/bin/env python3
"""e2e tests of `tracekit probe` on the bundled programs, on both backends.

    test_probe.py CASE --progs DIR     # run one case
    test_probe.py --list               # the case names

The cases about what a probe prints (entry and return probes, every fetch
form, threads, the PIE and the shared library, offsets, faults, bad input,
--json) run twice with the same expectations: CASE on the kernel's uprobes,
CASE-ptrace with `probe trace --ptrace` (tracekit's breakpoint engine).  When
we are root the --ptrace runs are made as nobody: the engine needs no
privilege.

DIR holds probed (a PIE) and libprobedlib.so (its shared library); probed.c
says what each function receives, and the expected values are computed here
from that, for the number of iterations each case picks.  Every case checks
that nothing of tracekit's is left in uprobe_events, dynamic_events or the
instances afterwards.  Needs root and uprobes; outside CI a missing
prerequisite skips with its reason, with CI=true it fails.
"""

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import CASES, Fail, Skip, case, expect, finish, main, read, run, start, tracefs, tracekit  # noqa: E402,F401

PROGS = {}
BACKEND = {'name': 'kernel'}
NOBODY = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']


def both(fn):
    """Register fn as CASE (kernel backend) and CASE-ptrace (--ptrace)."""
    name = fn.__name__.replace('_', '-')

    def on(backend):
        def run_case(arg):
            BACKEND['name'] = backend
            return fn(arg)
        return run_case
    CASES[name] = on('kernel')
    CASES[name + '-ptrace'] = on('ptrace')
    return fn


def ptrace():
    return BACKEND['name'] == 'ptrace'


def reachable_by_others(path):
    d = os.path.abspath(path)
    while d != '/':
        if not os.stat(d).st_mode & 0o001:
            return False
        d = os.path.dirname(d)
    return True


def as_user():
    """The prefix running tracekit --ptrace unprivileged: nobody when we are root (and it can
    reach the binaries), else ourselves."""
    if os.geteuid() != 0 or not all(reachable_by_others(p) for p in (tracekit(), prog('probed'))):
        return []
    return NOBODY
LINE = re.compile(r'^\s*(?P<comm>.+?)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+\S+\s+(?P<ts>[\d.]+): '
                  r'(?P<event>\w+): \((?P<head>[^)]*)\)(?P<args>.*)$')


def prog(name):
    return os.path.join(PROGS['dir'], name)


def root():
    r = tracefs()
    if not os.path.exists(os.path.join(r, 'uprobe_events')):
        raise Skip('this kernel has no uprobe_events')
    return r


def leftovers(r):
    """Probe events and instances the last tracekit run left (its pid is in their names)."""
    ours = []
    pid = PROGS.get('tracekit_pid', -1)
    for f in ('uprobe_events', 'dynamic_events'):
        p = os.path.join(r, f)
        if os.path.exists(p):
            ours += [l for l in read(p).splitlines() if ':tracekit_%d_' % pid in l]
    ours += [d for d in os.listdir(os.path.join(r, 'instances')) if d.startswith('tracekit-')
             and d.split('-')[1] == str(PROGS.get('tracekit_pid', -1))]
    return ours


def trace(specs, argv, extra=(), timeout=60):
    """tracekit probe trace [--ptrace] SPECS -- ARGV: (rc, parsed event lines, stdout, stderr)."""
    if ptrace():
        # No tracefs: nothing to leave there.  A byte left behind would kill the
        # command with SIGTRAP once untraced, which each case's rc check sees.
        p = start(as_user() + [tracekit(), 'probe', 'trace', '--ptrace'] + list(extra) + list(specs)
                  + ['--'] + list(argv))
        rc, out, err = finish(p, timeout)
        return (rc,) + parse_lines(out) + (out, err)
    r = root()
    p = start([tracekit(), 'probe', 'trace'] + list(extra) + list(specs) + ['--'] + list(argv))
    PROGS['tracekit_pid'] = p.pid
    rc, out, err = finish(p, timeout)
    events, = parse_lines(out)
    left = leftovers(r)
    expect(not left, 'left behind after probe trace: %s' % left)
    return rc, events, out, err


def parse_lines(out):
    """The event lines of out, parsed: ([event dicts],)."""
    events = []
    for l in out.splitlines():
        m = LINE.match(l)
        if m:
            d = m.groupdict()
            d['fields'] = dict(re.findall(r' (\w+)=("[^"]*"|\{[^}]*\}|\S+)', d['args']))
            events.append(d)
    return (events,)


def of(events, name):
    return [e for e in events if e['event'] == name]


def lib_hash(s, seed):
    h = seed & 0xffffffff
    for c in s.encode():
        h = (h * 31 + c) & 0xffffffff
    return h


# --- entry and return probes on the PIE ------------------------------------------------------

@both
def entry_args(_):
    n = 7
    rc, ev, out, err = trace(['p:parse %s:parse_line line=+0(%%di):string len=%%si:s32 '
                              'mult=$arg3:u64 c=$comm' % prog('probed')], [prog('probed'), '-n', str(n)])
    expect(rc == 0, 'exit status %d: %s' % (rc, err))
    hits = of(ev, 'parse')
    expect(len(hits) == n, '%d hits, want %d:\n%s' % (len(hits), n, out))
    for i, e in enumerate(hits):
        want = {'line': '"line %d"' % i, 'len': str(len('line %d' % i)), 'mult': str(i + 1),
                'c': '"probed"'}
        expect(e['fields'] == want, 'hit %d: %s, want %s' % (i, e['fields'], want))


@both
def return_retval(_):
    n = 5
    rc, ev, out, err = trace(['r:pret %s:parse_line ret=$retval:s64' % prog('probed'),
                              'p:pent %s:parse_line' % prog('probed')], [prog('probed'), '-n', str(n)])
    expect(rc == 0, err)
    rets, ents = of(ev, 'pret'), of(ev, 'pent')
    expect(len(rets) == n, '%d return hits, want %d' % (len(rets), n))
    for i, e in enumerate(rets):
        want = len('line %d' % i) * (i + 1)
        expect(e['fields'].get('ret') == str(want), 'return %d: %s, want ret=%d' % (i, e['args'], want))
        # "(0xRET <- 0xFUNC)": FUNC is where the entry probe hit
        ret_ip, func = [x.strip() for x in e['head'].split('<-')]
        expect(func == ents[i]['head'], 'return head %s, entry at %s' % (e['head'], ents[i]['head']))


@both
def shared_library(_):
    n = 4
    lib = prog('libprobedlib.so')
    rc, ev, out, err = trace(['p:lh %s:lib_hash s=+0(%%di):string seed=%%si:s32' % lib,
                              'r:lhr %s:lib_hash h=$retval:u32' % lib], [prog('probed'), '-n', str(n)])
    expect(rc == 0, err)
    ent, ret = of(ev, 'lh'), of(ev, 'lhr')
    expect(len(ent) == n and len(ret) == n, 'hits %d/%d, want %d:\n%s' % (len(ent), len(ret), n, out))
    for i in range(n):
        expect(ent[i]['fields'] == {'s': '"line %d"' % i, 'seed': str(i)}, 'entry %d: %s' % (i, ent[i]['args']))
        expect(ret[i]['fields']['h'] == str(lib_hash('line %d' % i, i)), 'return %d: %s' % (i, ret[i]['args']))


@both
def fetch_forms(_):
    """Every fetch-arg form and type, on take_rec (a struct) and sum8 (eight arguments)."""
    n = 3
    p = prog('probed')
    rc, ev, out, err = trace([
        'p:rec %s:take_rec id=+0(%%di):s32 lo=+4(%%di):b4@0/32 hi=+4(%%di):b4@4/32 '
        'name=+8(%%di):string c=+8(%%di):char v=+16(%%di):s16[4] fl=+4(%%di):x8 '
        'back=-4(%%ip):x32 rec=%%di' % p,
        'p:s8 %s:sum8 a1=$arg1:s64 a7=$arg7:s64 a8=$arg8:u64 st=$stack1:u64 sp=$stack '
        'im=\\7:u8 ban=@probed_banner:string cnt=@probed_counter:s64 ip=%%ip:symbol '
        'ret=+0(%%sp):symbol' % p], [p, '-n', str(n)])
    expect(rc == 0, err)
    recs, s8 = of(ev, 'rec'), of(ev, 's8')
    with open(p, 'rb') as f:   # the 4 bytes before take_rec (PIE text: vaddr == file offset)
        f.seek(symbol_offset('take_rec') - 4)
        back = int.from_bytes(f.read(4), 'little')
    expect(len(recs) == n and len(s8) == n, 'hits %d/%d:\n%s' % (len(recs), len(s8), out))
    for i in range(n):
        f = recs[i]['fields']
        want = {'id': str(i), 'lo': '5', 'hi': '10', 'name': '"rec%d"' % i, 'c': "'r'",
                'v': '{%d,%d,%d,%d}' % (i, i + 1, i + 2, i + 3), 'fl': '0xa5',
                'back': hex(back)}
        for k, v in want.items():
            expect(f.get(k) == v, 'take_rec hit %d: %s=%s, want %s' % (i, k, f.get(k), v))
        expect(re.fullmatch(r'0x7ff[0-9a-f]+', f['rec']), 'rec=%s is not a stack address' % f['rec'])
        g = s8[i]['fields']
        want = {'a1': str(i), 'a7': '7', 'a8': '8', 'st': '7', 'im': '7',
                'ban': '"probed banner"', 'cnt': '42'}
        for k, v in want.items():
            expect(g.get(k) == v, 'sum8 hit %d: %s=%s, want %s' % (i, k, g.get(k), v))
        expect(g['ip'].startswith('sum8+0x0/0x'), 'ip=%s, want sum8+0x0/...' % g['ip'])
        expect(g['ret'].startswith('run+0x'), 'return address %s, want run+0x...' % g['ret'])
        expect(int(g['sp'], 16) + 8 * 0 > 0 and s8[i]['head'] != '', 'sp=%s' % g['sp'])


@both
def threads(_):
    n, t = 4, 3
    rc, ev, out, err = trace(['p:parse %s:parse_line line=+0(%%di):string' % prog('probed')],
                             [prog('probed'), '-n', str(n), '-t', str(t)])
    expect(rc == 0, err)
    hits = of(ev, 'parse')
    lines = sorted(e['fields']['line'] for e in hits)
    want = sorted('"t%d line %d"' % (k, i) for k in range(t) for i in range(n))
    expect(lines == want, 'lines %s, want %s' % (lines, want))
    tids = {e['pid'] for e in hits}
    expect(len(tids) == t, '%d threads seen, want %d' % (len(tids), t))
    for k in range(t):
        per = {e['pid'] for e in hits if e['fields']['line'].startswith('"t%d ' % k)}
        expect(len(per) == 1, 'thread %d lines from tids %s' % (k, per))


@both
def faults(_):
    """Unreadable memory: 0 for a number (printed by its type), (fault) for a string, as the
    kernel prints them; at parse_line %si is the length, a small number, never mapped."""
    rc, ev, out, err = trace(['p:f %s:parse_line a=+0(%%si):u64 x=+0(%%si):x8 s=+0(%%si):s16 '
                              'b=+0(%%si):string v=+0(%%si):u32[2] d=+0(%%si):symbol '
                              'n=+0(+0(%%si)):s32 ok=+0(%%di):string' % prog('probed')],
                             [prog('probed'), '-n', '2'])
    expect(rc == 0, err)
    hits = of(ev, 'f')
    expect(len(hits) == 2, out)
    for i, h in enumerate(hits):
        want = {'a': '0', 'x': '0x0', 's': '0', 'b': '(fault)', 'v': '{0,0}', 'd': '0x0', 'n': '0',
                'ok': '"line %d"' % i}
        if not ptrace():
            # a fault below the last dereference: the kernel prints what its buffer held
            # (documented in docs/probes.md); --ptrace prints 0
            want['n'] = h['fields'].get('n')
        expect(h['fields'] == want, 'hit %d: %s, want %s' % (i, h['fields'], want))


@case
def attach_detach_ptrace(_):
    """--ptrace -p PID: hits while attached; Ctrl-C detaches with every byte back, the process
    runs on to its normal end (an int3 left would kill it with SIGTRAP) with the right total."""
    n = 100000
    bare = subprocess.run([prog('probed'), '-n', str(n)], capture_output=True, text=True)
    target = start([prog('probed'), '-n', str(n), '-d', '300'])
    try:
        p = start([tracekit(), 'probe', 'trace', '--ptrace', '-p', str(target.pid),
                   'p:parse %s:parse_line line=+0(%%di):string' % prog('probed')])
        first = p.stdout.readline().decode()
        m = LINE.match(first.rstrip('\n'))
        if not m:
            rc, out, err = finish(p, 30)
            raise Fail('first line %r, rc %d, stderr %r' % (first, rc, err))
        expect(m.group('pid') == str(target.pid) and re.search(r' line="line \d+"$', first),
               'first line %r' % first)
        os.kill(p.pid, signal.SIGINT)
        rc, out, err = finish(p, 30)
        expect(rc == 0, 'tracekit after SIGINT: rc %d, %r' % (rc, err))
        trc, tout, terr = finish(target, 60)
        expect(trc == 0 and terr == bare.stderr,
               'after detach: rc %d, %r, want %r' % (trc, terr, bare.stderr))
    finally:
        if target.poll() is None:
            target.kill()
            target.wait()


@case
def docs_ptrace_example(_):
    """docs/probes-ptrace.md's probe trace --ptrace line runs as written (./app: probed)."""
    doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'docs',
                            'probes-ptrace.md')).read()
    lines = [l for l in doc.splitlines() if l.startswith('tracekit probe trace --ptrace ')]
    expect(len(lines) == 1, 'docs/probes-ptrace.md: no one probe trace --ptrace line: %r' % lines)
    argv = shlex.split(lines[0])
    argv = [tracekit()] + [prog('probed') if a == './app' else a.replace('./app:', prog('probed')
                                                                         + ':')
                           for a in argv[1:]] + ['-n', '3']
    rc, out, err = run(argv, timeout=60)
    expect(rc == 0, '%s: exit %d: %s' % (lines[0], rc, err))
    hits = [l for l in out.splitlines() if ' demo/parse: ' in l or ' parse: ' in l]
    expect(len(hits) == 3 and all('len=6' in h for h in hits), 'hits: %r' % out)


@case
def usage_ptrace(_):
    rc, out, err = run([tracekit(), 'probe', 'trace', '-p', '1', 'p /bin/true:main'])
    expect(rc == 2 and '-p PID needs --ptrace' in err and len(err.splitlines()) == 1, err)
    rc, out, err = run([tracekit(), 'probe', 'trace', '--ptrace', 'p:t %s:%%probed:tick' % prog('probed'),
                        '--', 'true'])
    expect(rc == 1 and 'USDT probes are not supported by --ptrace' in err and len(err.splitlines()) == 1, err)
    rc, out, err = run([tracekit(), 'probe', 'trace', '--ptrace', '-p', '999999999', 'p %s:main' % prog('probed')])
    expect(rc == 1 and 'cannot attach to pid 999999999' in err and len(err.splitlines()) == 1, err)


@case
def usdt_semaphore(_):
    """PATH:%provider:name with the note's arguments; the semaphore guards the probe site."""
    n = 4
    rc, ev, out, err = trace(['p:tick %s:%%probed:tick' % prog('probed')], [prog('probed'), '-n', str(n)])
    expect(rc == 0, err)
    hits = of(ev, 'tick')
    expect(len(hits) == n, '%d hits, want %d (semaphore not raised?):\n%s' % (len(hits), n, out))
    expect([h['fields']['arg1'] for h in hits] == [str(i) for i in range(n)],
           'arg1 %s' % [h['fields'] for h in hits])


@case
def usdt_listed(_):
    rc, out, err = run([tracekit(), 'probe', 'list', '--symbols', prog('probed')])
    expect(rc == 0, err)
    expect(re.search(r'usdt\s+%probed:tick\s+-4@%\w+ 8@\S+\s+\(semaphore\)', out), out)
    for fn in ('parse_line', 'take_rec', 'sum8', 'main'):
        expect(re.search(r'^0x[0-9a-f]+\s+\d+ %s$' % fn, out, re.M), '%s not listed:\n%s' % (fn, out))
    rc, out, err = run([tracekit(), 'probe', 'list', '--symbols', prog('probed'), '--json'])
    objs = [json.loads(l) for l in out.splitlines()]
    expect(any(o['kind'] == 'usdt' and o['name'] == 'tick' for o in objs), out)


@case
def json_names_not_ascii(_):
    """--json is valid UTF-8 JSON whatever bytes a name holds: UTF-8 stays the text it spells,
    control bytes and DEL are escapes, a byte that is not UTF-8 is U+FFFD (util/json.h)."""
    p = subprocess.run([tracekit(), 'probe', 'list', '--symbols', prog('oddnames'), '--json'],
                       capture_output=True, timeout=60)
    expect(p.returncode == 0, p.stderr)
    try:
        text = p.stdout.decode('utf-8')     # strict: what a JSON reader must be given
    except UnicodeDecodeError as e:
        raise Fail('--json wrote bytes that are not UTF-8 (%s): %r' % (e, p.stdout[-200:]))
    objs = [json.loads(l) for l in text.splitlines()]
    names = [o['name'] for o in objs if o['kind'] == 'function']
    expect('caf\u00e9_\ufffd\ufffdx' in names,
           'no function named caf\u00e9_, two U+FFFD, x: %r' % names)
    usdt = [o for o in objs if o['kind'] == 'usdt' and o['provider'] == 'odd']
    expect(len(usdt) == 1 and usdt[0]['name'] == 'caf\u00e9' and
           usdt[0]['args'] == '\x7f\x01\u00e9\ufffd', 'the odd USDT note: %r' % usdt)
    expect(text.isascii(), 'not 7-bit: %r' % [l for l in text.splitlines() if not l.isascii()])


def disassembly(path, fn):
    """(offset, length) of each instruction of fn, from objdump."""
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', '--disassemble=' + fn, path],
                         capture_output=True, text=True).stdout
    addrs = [int(m.group(1), 16) for m in re.finditer(r'^\s+([0-9a-f]+):\t', out, re.M)]
    start_ = int(re.search(r'^([0-9a-f]+) <%s>:' % fn, out, re.M).group(1), 16)
    return [(a - start_, b - a) for a, b in zip(addrs, addrs[1:])]


@both
def offset_probe(_):
    insns = disassembly(prog('probed'), 'sum8')
    off = insns[1][0]
    rc, ev, out, err = trace(['p:mid %s:sum8+%d a=%%di:s64' % (prog('probed'), off)],
                             [prog('probed'), '-n', '3'])
    expect(rc == 0, err)
    expect([e['fields']['a'] for e in of(ev, 'mid')] == ['0', '1', '2'], out)
    long_insn = next((o, l) for o, l in insns if l > 1)
    bad = long_insn[0] + 1
    rc, ev, out, err = trace(['p %s:sum8+%d' % (prog('probed'), bad)], ['true'])
    expect(rc == 1 and 'not an instruction boundary' in err and len(err.splitlines()) == 1,
           'sum8+%d: rc %d, %r' % (bad, rc, err))


@both
def bad_input(_):
    # A definition that does not parse is a usage error (2); one that parses but names a
    # symbol, file or probe type this machine does not have fails at run time (1).
    p = prog('probed')
    cases = [
        ('p %s:parse_lin' % p, 1, r"symbol 'parse_lin' not found in \S+ \(did you mean parse_line\?\)"),
        ('p %s:parse_line x=%%rdi' % p, 2, r"column %d: unknown register '%%rdi' \(did you mean %%di\?\)"
         % (len('p %s:parse_line x=' % p) + 1)),
        ('p %s:parse_line x=%%di:u9' % p, 2, r"column %d: unknown type 'u9'" % (len('p %s:parse_line x=%%di:' % p) + 1)),
        ('q %s:parse_line' % p, 2, r"column 1: a probe starts with 'p'"),
        ('p %s/nonexistent:main' % p, 1, r'cannot open \S+nonexistent'),
        ('p vfs_read', 1, r"kernel probe .*cannot be traced with --ptrace" if ptrace() else
         r'kprobe_events.*CONFIG_KPROBES is off.*uprobes'),
        ('r vfs_read+8', 2, r"column 12: a return probe goes on a function's entry"),
    ]
    for spec, want, pattern in cases:
        rc, ev, out, err = trace([spec], ['true'])
        expect(rc == want and len(err.splitlines()) == 1 and re.search(pattern, err),
               '%r: rc %d (want %d), stderr %r, want /%s/' % (spec, rc, want, err, pattern))


@case
def kprobe_refused(_):
    if os.path.exists(os.path.join(root(), 'kprobe_events')):
        raise Skip('this kernel has kprobe_events: the refusal is for kernels without them')
    rc, out, err = run([tracekit(), 'probe', 'add', 'p:tkt/k do_sys_open dfd=%di:s32'])
    expect(rc == 1 and len(err.splitlines()) == 1 and 'uprobes' in err and 'tracepoints' in err,
           'rc %d, %r' % (rc, err))


@case
def add_list_del(r):
    r = root()
    grp = 'tkt%d' % os.getpid()
    foreign = 'p:%sx/other %s:0x%x' % (grp, prog('probed'), 0)
    try:
        rc, out, err = run([tracekit(), 'probe', 'add', 'p:%s/parse %s:parse_line len=%%si:u32' % (grp, prog('probed')),
                            'r:%s/ret %s:parse_line v=$retval:s64' % (grp, prog('probed'))])
        expect(rc == 0, err)
        expect('added probe %s/parse' % grp in out and 'added probe %s/ret' % grp in out, out)
        ue = read(os.path.join(r, 'uprobe_events'))
        expect(re.search(r'^p:%s/parse \S+probed:0x[0-9a-f]+ len=%%si:u32$' % grp, ue, re.M), ue)
        rc, out, err = run([tracekit(), 'probe', 'list', '--json'])
        mine = [json.loads(l) for l in out.splitlines() if grp in l]
        expect(sorted(m['event'] for m in mine) == ['parse', 'ret'] and
               all(m['owner'] == 'tracekit' for m in mine), out)
        # a probe someone else made is listed, and probe del leaves it alone
        write_events(r, foreign.replace(':0x0', ':0x%x' % symbol_offset('parse_line')))
        rc, out, err = run([tracekit(), 'probe', 'del', grp + 'x'])
        expect(rc == 1 and 'not made by tracekit' in err, 'del of a foreign probe: %d %r' % (rc, err))
        expect(('%sx/other' % grp) in read(os.path.join(r, 'uprobe_events')), 'foreign probe removed')
        rc, out, err = run([tracekit(), 'probe', 'del', '%s/parse' % grp])
        expect(rc == 0 and 'removed probe %s/parse' % grp in out, err)
        rc, out, err = run([tracekit(), 'probe', 'del', grp])
        expect(rc == 0 and 'removed probe %s/ret' % grp in out, err)
        expect(grp + '/' not in read(os.path.join(r, 'uprobe_events')), 'probes left')
    finally:
        for ev in ('%s/parse' % grp, '%s/ret' % grp, '%sx/other' % grp):
            try:
                write_events(r, '-:' + ev)
            except OSError:
                pass    # already gone
        for ev in ('parse', 'ret'):
            try:
                os.unlink('/run/tracekit/probes/%s.%s' % (grp, ev))
            except OSError:
                pass


def write_events(r, line):
    """One line appended to uprobe_events (no seek: tracefs refuses it)."""
    fd = os.open(os.path.join(r, 'uprobe_events'), os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, line.encode() + b'\n')
    finally:
        os.close(fd)


def symbol_offset(name):
    """A function's file offset (a PIE's text: vaddr == file offset), from nm."""
    out = subprocess.run(['nm', prog('probed')], capture_output=True, text=True).stdout
    return int(re.search(r'^([0-9a-f]+) T %s$' % name, out, re.M).group(1), 16)


@both
def json_output(_):
    rc, ev, out, err = trace(['p:parse %s:parse_line len=%%si:s32' % prog('probed')],
                             [prog('probed'), '-n', '2'], extra=['--json'])
    objs = [json.loads(l) for l in out.splitlines() if l.startswith('{')]
    expect(rc == 0 and len(objs) == 2, out + err)
    expect([o['event'] for o in objs] == ['parse', 'parse'] and objs[1]['fields'].endswith('len=6'), out)


@case
def sigint_cleans_up(_):
    r = root()
    p = start([tracekit(), 'probe', 'trace', 'p:parse %s:parse_line' % prog('probed'), '--',
               prog('probed'), '-d', '10000'])
    PROGS['tracekit_pid'] = p.pid
    for _ in range(100):
        if any(':tracekit_%d_' % p.pid in l for l in read(os.path.join(r, 'uprobe_events')).splitlines()):
            break
        time.sleep(0.05)
    else:
        raise Fail('the run group never appeared')
    os.killpg(p.pid, signal.SIGINT)
    rc, out, err = finish(p, 30)
    left = leftovers(r)
    expect(not left, 'left after SIGINT: %s' % left)


def wait_for_group(r, p):
    for _ in range(100):
        if ':tracekit_%d_' % p.pid in read(os.path.join(r, 'uprobe_events')):
            return
        time.sleep(0.05)
    raise Fail('the run group never appeared')


def sh_traps_sigint(pid):
    """pid's child is a shell that catches SIGINT."""
    try:
        for kid in read('/proc/%d/task/%d/children' % (pid, pid)).split():
            status = read('/proc/%s/status' % kid)
            caught = int(re.search(r'^SigCgt:\s+([0-9a-f]+)', status, re.M).group(1), 16)
            if re.search(r'^Name:\s+sh$', status, re.M) and caught & (1 << (signal.SIGINT - 1)):
                return True
    except (OSError, AttributeError):
        pass
    return False


@case
def ctrl_c_says_what_happened(_):
    """A Ctrl-C at a terminal reaches the whole process group: the command dies of it too,
    so tracekit must not say it runs on; one SIGINT to tracekit alone leaves it running."""
    r = root()
    spec = 'p:parse %s:parse_line' % prog('probed')
    # The shell takes a moment to end on SIGINT (its trap), so tracekit sees the stop first.
    sh = "trap 'sleep 0.1; exit 3' INT; while :; do %s -n 1 >/dev/null; sleep 0.05; done" % prog('probed')
    p = start([tracekit(), 'probe', 'trace', spec, '--', 'sh', '-c', sh])
    wait_for_group(r, p)
    # The group is made before the command is started: the Ctrl-C once the shell has its
    # trap (SigCgt), else it dies of it (a fixed 0.3 s was too short under load)
    deadline = time.monotonic() + 30
    while not sh_traps_sigint(p.pid):
        expect(time.monotonic() < deadline and p.poll() is None, 'the shell set no SIGINT trap')
        time.sleep(0.02)
    os.killpg(p.pid, signal.SIGINT)
    rc, out, err = finish(p, 30)
    expect('runs on untraced' not in err, 'the command ended on the same Ctrl-C: %r' % err)
    expect("stopped; 'sh' (pid %s) exited with status 3" % re.search(r'pid (\d+)', err + 'pid 0').group(1)
           in err, 'says how it ended: %r' % err)
    expect(rc == 3, "the command's status: got %d (%r)" % (rc, err))
    p = start([tracekit(), 'probe', 'trace', spec, '--', prog('probed'), '-d', '10000'])
    try:
        wait_for_group(r, p)
        os.kill(p.pid, signal.SIGINT)
        rc, out, err = finish_keep_group(p, 30)
        m = re.search(r"stopped; '\S+probed' \(pid (\d+)\) runs on untraced", err)
        expect(rc == 0 and m, 'SIGINT to tracekit alone: rc %d, %r' % (rc, err))
        expect(os.path.exists('/proc/%s' % m.group(1)), 'and the command does run on')
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    expect(not leftovers(r), 'left after SIGINT: %s' % leftovers(r))


def finish_keep_group(p, timeout):
    """finish() without killing the process group (the command must outlive tracekit)."""
    out, err = p.communicate(timeout=timeout)
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return rc, out.decode(errors='replace'), err.decode(errors='replace')


@case
def not_root_points_at_ptrace(_):
    """probe trace as an unprivileged user: the line says --ptrace works without root."""
    root()
    if not all(reachable_by_others(x) for x in (tracekit(), prog('probed'))):
        raise Skip('nobody cannot reach the tracekit binary or the probed program')
    rc, out, err = run(NOBODY + [tracekit(), 'probe', 'trace', 'p %s:parse_line' % prog('probed'),
                                 '--', prog('probed'), '-n', '1'])
    expect(rc == 1 and len(err.splitlines()) == 1, 'one line, exit 1: %d %r' % (rc, err))
    expect('needs root' in err and 'tracekit probe trace --ptrace' in err, err)


@case
def record_probe(_):
    r = root()
    import tempfile
    d = tempfile.mkdtemp(prefix='tracekit-probe-')
    try:
        dat = os.path.join(d, 'p.dat')
        p = start([tracekit(), 'record', '-q', '-o', dat, '--probe',
                   'p:parse %s:parse_line line=+0(%%di):string len=%%si:s32' % prog('probed'),
                   '--probe', 'p:rec %s:take_rec id=+0(%%di):s32 v=+16(%%di):s16[4]' %
                   prog('probed'), '--', prog('probed'), '-n', '3'])
        PROGS['tracekit_pid'] = p.pid
        rc, out, err = finish(p, 60)
        expect(rc == 0, err)
        expect(not leftovers(r), 'left after record --probe: %s' % leftovers(r))
        rc, out, err = run([tracekit(), 'report', '-i', dat])
        got = re.findall(r'parse:\s+\([0-9a-f]+\) line="(line \d)" len=(\d)', out)
        expect(got == [('line %d' % i, '6') for i in range(3)], out)
        # An array field (the kernel writes `s16 v[];`): its values, not zeros.
        got = re.findall(r'rec:\s+\([0-9a-f]+\) id=(\d) v=(\{[^}]*\})', out)
        expect(got == [(str(i), '{%d,%d,%d,%d}' % (i, i + 1, i + 2, i + 3)) for i in range(3)],
               'take_rec hits: %r' % got)
        rc, js, err = run([tracekit(), 'report', '--json', '-i', dat])
        got = [json.loads(l)['fields']['v'] for l in js.splitlines() if ':rec"' in l]
        expect(got == [[i, i + 1, i + 2, i + 3] for i in range(3)], 'report --json: %r' % got)
    finally:
        for f in os.listdir(d):
            os.unlink(os.path.join(d, f))
        os.rmdir(d)


@case
def reset_removes_probes(_):
    """A SIGKILLed probe trace leaves its run group: tracekit reset removes it.  A probe made
    on purpose by probe add is not a leftover: reset keeps it and says how to remove it."""
    r = root()
    grp = 'tkt%d' % os.getpid()
    write_events(r, 'p:%sx/other %s:0x%x' % (grp, prog('probed'), symbol_offset('parse_line')))
    try:
        rc, out, err = run([tracekit(), 'probe', 'add', 'p:%s/kept %s:sum8' % (grp, prog('probed'))])
        expect(rc == 0, err)
        p = start([tracekit(), 'probe', 'trace', 'p:parse %s:parse_line' % prog('probed'), '--',
                   prog('probed'), '-d', '20000'])
        for _ in range(100):
            if ':tracekit_%d_' % p.pid in read(os.path.join(r, 'uprobe_events')):
                break
            time.sleep(0.05)
        os.kill(p.pid, signal.SIGKILL)
        finish(p, 30)
        expect(':tracekit_%d_' % p.pid in read(os.path.join(r, 'uprobe_events')),
               'the killed run left no group (nothing to test)')
        rc, out, err = run([tracekit(), 'reset'])
        expect(rc == 0, err)
        expect(re.search(r'removed probe tracekit_%d_0/parse \(owner pid %d is gone\)' % (p.pid, p.pid), out),
               'stdout: %r stderr: %r uprobe_events: %r' % (out, err, read(os.path.join(r, 'uprobe_events'))))
        expect("kept probe %s/kept (made by tracekit probe add; 'tracekit probe del' or "
               "'tracekit reset --all' removes it)" % grp in out, out)
        ue = read(os.path.join(r, 'uprobe_events'))
        expect(':tracekit_%d_' % p.pid not in ue and '%s/kept' % grp in ue, ue)
        expect('%sx/other' % grp in ue, 'reset removed a probe tracekit did not make')
    finally:
        for ev in ('%s/kept' % grp, '%sx/other' % grp):
            try:
                write_events(r, '-:' + ev)
            except OSError:
                pass


def live_tracekit_runs(r):
    """Owner pids of tracekit instances and probe run groups that still run."""
    pids = {int(n.split('-')[1]) for n in os.listdir(os.path.join(r, 'instances'))
            if re.fullmatch(r'tracekit-\d+-\d+', n)}
    pids |= {int(m) for m in re.findall(r':tracekit_(\d+)_\d+/', read(os.path.join(r, 'uprobe_events')))}
    return sorted(p for p in pids if os.path.exists('/proc/%d' % p))


@case
def reset_all_removes_probe_add(_):
    """reset --all removes what probe add made too.  --all stops every tracekit run on the
    machine, so it runs only when no other is going (always so in CI)."""
    r = root()
    others = live_tracekit_runs(r)
    if others and os.environ.get('CI') != 'true':
        raise Skip('reset --all would stop the tracekit runs going on this machine: %s' % others)
    grp = 'tkt%d' % os.getpid()
    try:
        rc, out, err = run([tracekit(), 'probe', 'add', 'p:%s/kept %s:sum8' % (grp, prog('probed'))])
        expect(rc == 0, err)
        rc, out, err = run([tracekit(), 'reset', '--all'])
        expect(rc == 0, err)
        expect('removed probe %s/kept (made by tracekit probe add)' % grp in out, out)
        expect('%s/kept' % grp not in read(os.path.join(r, 'uprobe_events')), 'the probe is gone')
    finally:
        try:
            write_events(r, '-:%s/kept' % grp)
        except OSError:
            pass


@both
def debuginfo_and_cxx(_):
    """A stripped library's symbols from its build-id debug file; C++ names demangled."""
    libc = '/lib/x86_64-linux-gnu/libc.so.6'
    notes = subprocess.run(['readelf', '-n', libc], capture_output=True, text=True).stdout
    bid = re.search(r'Build ID: ([0-9a-f]+)', notes).group(1)
    debug = '/usr/lib/debug/.build-id/%s/%s.debug' % (bid[:2], bid[2:])
    if not os.path.exists(debug):
        raise Skip('%s is missing (apt-get install libc6-dbg)' % debug)
    rc, out, err = run([tracekit(), 'probe', 'list', '--symbols', libc])
    expect(rc == 0 and re.search(r'^0x[0-9a-f]+\s+\d+ _int_malloc$', out, re.M), err)
    expect(debug in err, 'no note of the debug file: %r' % err)
    rc, ev, out, err = trace(['p:im %s:_int_malloc sz=%%si:u64' % libc], ['ls', '/'])
    expect(rc == 0 and of(ev, 'im'), 'no _int_malloc hit: %s %s' % (out, err))
    cxx = '/usr/lib/x86_64-linux-gnu/libstdc++.so.6'
    rc, out, err = run([tracekit(), 'probe', 'list', '--symbols', cxx])
    expect(re.search(r' std::locale::classic\(\)$', out, re.M), 'no demangled std::locale::classic()')
    rc, ev, out, err = trace(['p:cl %s:std::locale::classic' % cxx], ['true'])
    expect(rc == 0, 'a demangled name without its parameters: %s' % err)


def setup(argv):
    if '--progs' in argv:
        PROGS['dir'] = argv[argv.index('--progs') + 1]
    if not os.path.exists(prog('probed')):
        raise Skip('no probed program in --progs')


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_probe.py CASE --progs DIR | --list', setup))

#!/usr/bin/env python3
"""Compare `tracekit syscalls -f` with `strace -f` on the same command.

Both tracers run the command in a fresh directory of the same name, write
their trace with -o, and the traces are normalised so that what differs from
run to run (pids, addresses, clocks, kernel-chosen ports ...) compares equal.
What is left must match line by line: the script prints a unified diff, the
match percentage, and fails below --min-match or when lines of one thread come
in a different order than in strace's trace.

Threads interleave differently on every run, so the comparison is per thread:
"<unfinished ...>" / "<... resumed>" pairs are joined back into one line, each
thread's lines are kept in their order, and threads are numbered in the order
their parents created them (T1 is the command itself).

    compare.py [--min-match 0.9] [--only read,write] [--tracekit BIN] -- CMD ARGS
    compare.py --files A.trace B.trace        # compare two existing traces

The tracekit binary comes from --tracekit or the TRACEKIT environment
variable; TRACEKIT_ARGS adds options to its runs only (--kernel).  With TRACER=strace in the environment the second run is strace
too: a check that the normalisation is enough for the program (two strace
runs must match 100%).  Python 3 standard library only.
"""

import argparse
import collections
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

# Normalisation rules, applied in order to every line after pids are mapped.
# Each is (syscalls it applies to or None for all, pattern, replacement), and
# the comment above it says why it cannot hide a real decoding difference.
RULES = [
    # Userspace addresses move with ASLR on every run.  Only numbers of nine or
    # more hex digits are addresses here; flags, small offsets and masks that
    # a decoder prints in hex stay compared.
    (None, r'\b0x[0-9a-f]{9,}\b', 'ADDR'),
    # Padding before " = " aligns the return value to a column; the column
    # moves with the length of pids and addresses printed earlier on the line,
    # and joined "<unfinished ...>" lines carry the padding of the resumed part.
    (None, r'(\)|\}|\]|>) {2,}(= )', r'\1 \2'),
    # Environment size in execve: the tracers are run with the same
    # environment, but the count is not what is being compared.
    ('execve|execveat', r'/\* \d+ vars? \*/', '/* N vars */'),
    # -T durations and -t/-tt/-ttt/-r timestamps differ on every run.
    (None, r'<\d+\.\d+>$', '<T>'),
    (None, r'^(\d\d:\d\d:\d\d(\.\d+)?|\d+\.\d+) ', 'TIME '),
    # Clocks read by the program: the time is different on every run; the
    # struct's shape and field names stay compared.
    ('clock_gettime|gettimeofday|time|clock_gettime64',
     r'(tv_sec|tv_nsec|tv_usec)=\d+', r'\1=N'),
    # Time left after an early return from a timed wait ("left {...}") and
    # rusage times depend on scheduling.
    ('select|pselect6|ppoll|nanosleep|clock_nanosleep',
     r'left \{tv_sec=\d+, tv_nsec=\d+\}', 'left {tv_sec=N, tv_nsec=N}'),
    ('getrusage|wait4', r'(tv_sec|tv_usec)=\d+', r'\1=N'),
    ('getrusage|wait4', r'(ru_maxrss|ru_minflt|ru_majflt|ru_nvcsw|ru_nivcsw)=\d+', r'\1=N'),
    # CPU time a child used, reported with SIGCHLD, depends on the machine.
    (None, r'si_utime=\d+( /\* [^*]* \*/)?, si_stime=\d+( /\* [^*]* \*/)?',
     'si_utime=N, si_stime=N'),
    # System-wide counters in sysinfo change between two runs.
    ('sysinfo', r'(uptime|freeram|sharedram|bufferram|freeswap|procs)=\d+', r'\1=N'),
    ('sysinfo', r'loads=\[\d+, \d+, \d+\]', 'loads=[N, N, N]'),
    # getrandom fills the buffer with random bytes; the length and flags stay.
    ('getrandom', r'^getrandom\("(?:[^"\\]|\\.)*"(\.\.\.)?', 'getrandom(RANDOM'),
    # Inode numbers, device numbers and timestamps (shown with -v) belong to
    # the files on disk at that moment, not to the decoder.
    (None, r'\b(st_ino|stx_ino|d_ino|st_dev|stx_dev_minor|st_blocks|stx_blocks)=\d+', r'\1=N'),
    (None, r'\b(d_off)=\d+', r'\1=N'),
    (None, r'\b(st_[amc]time|stx_[abcm]time)=\d+(\.\d+)?( /\* [^*]* \*/)?', r'\1=N'),
    (None, r'\b(st_[amc]time_nsec)=\d+', r'\1=N'),
    (None, r'\b(stx_[abcm]time)=\{tv_sec=-?\d+, tv_nsec=\d+\}( /\* [^*]* \*/)?', r'\1={N}'),
]

# Ports the kernel picks itself (bind to port 0, connect without bind) come
# from the ephemeral range.  They are numbered in order of first appearance,
# so a port that must equal an earlier one still has to: only ports inside
# the range are renamed, so htons(0) or a fixed port stays compared.
PORT_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range'

# Syscalls whose return value is a new task's id.
CLONE_CALLS = ('clone', 'clone3', 'fork', 'vfork')

CLONE3_TID_RE = re.compile(r'=> \{parent_tid=\[(\w+)\]\}, \d+\) += (T\d+)$')
LINE_RE = re.compile(r'^(\d+) +(.*)$')
UNFINISHED = ' <unfinished ...>'
RESUMED_RE = re.compile(r'^<\.\.\. ([a-z0-9_]+) resumed>(.*)$')
NAME_RE = re.compile(r'^([a-z_][a-z0-9_]*)\(')
RET_RE = re.compile(r'\) += (-?\d+)(?: .*)?$')


def syscall_name(text):
    m = NAME_RE.match(text)
    return m.group(1) if m else None


def parse_trace(lines):
    """Split an `-f` trace into per-tid lists, joining unfinished/resumed."""
    threads = collections.OrderedDict()
    pending = {}
    for raw in lines:
        raw = raw.rstrip('\n')
        m = LINE_RE.match(raw)
        tid, text = (int(m.group(1)), m.group(2)) if m else (0, raw)
        out = threads.setdefault(tid, [])
        r = RESUMED_RE.match(text)
        if r and tid in pending:
            out.append(pending.pop(tid) + r.group(2))
            continue
        if tid in pending:
            out.append(pending.pop(tid) + UNFINISHED)
        if text.endswith(UNFINISHED):
            pending[tid] = text[:-len(UNFINISHED)]
        else:
            out.append(text)
    for tid, text in pending.items():
        threads[tid].append(text + UNFINISHED)
    return threads


def number_threads(threads):
    """Map tids to T1, T2 ... in the order their parents created them."""
    names = {}
    queue = [tid for tid in threads if tid][:1]
    while queue:
        tid = queue.pop(0)
        if tid in names:
            continue
        names[tid] = 'T%d' % (len(names) + 1)
        for text in threads.get(tid, []):
            if syscall_name(text) in CLONE_CALLS:
                m = RET_RE.search(text)
                if m and int(m.group(1)) > 0:
                    queue.append(int(m.group(1)))
    # Tasks not created under the tracer's eyes (attached ones): by appearance.
    for tid in threads:
        if tid and tid not in names:
            names[tid] = 'T%d' % (len(names) + 1)
    return names


def port_range():
    try:
        with open(PORT_RANGE_FILE) as f:
            lo, hi = f.read().split()
        return int(lo), int(hi)
    except (OSError, ValueError):
        return 32768, 60999


class Normaliser:
    def __init__(self, names):
        self.names = names
        self.ports = {}
        self.lo, self.hi = port_range()
        self.rules = [(re.compile(r'^(%s)\(' % s) if s else None, re.compile(p), r)
                      for s, p, r in RULES]
        pids = '|'.join(sorted((str(t) for t in names), key=len, reverse=True))
        self.pid_re = re.compile(r'(?<![\w.])(%s)(?![\w.])' % pids) if pids else None

    def port(self, m):
        n = int(m.group(1))
        if not self.lo <= n <= self.hi:
            return m.group(0)
        self.ports.setdefault(n, 'PORT%d' % (len(self.ports) + 1))
        return 'htons(%s)' % self.ports[n]

    def raw_port(self, m):
        # -X raw's network-order bytes of a port: "\xa1\x2b" is 41259.
        n = int(m.group(2) + m.group(3), 16)
        if not self.lo <= n <= self.hi:
            return m.group(0)
        self.ports.setdefault(n, 'PORT%d' % (len(self.ports) + 1))
        return '%s="%s"' % (m.group(1), self.ports[n])

    def line(self, text):
        # Task ids: any whole number equal to a traced task's id is that task
        # (clone/wait4 returns, kill/tgkill args, si_pid, set_tid_address).
        if self.pid_re:
            text = self.pid_re.sub(lambda m: self.names[int(m.group(1))], text)
        # getppid of the first task is the tracer itself, a different process
        # for each tracer; getpid/gettid of traced tasks were mapped above.
        text = re.sub(r'^(getppid\(\) += )\d+$', r'\1PPID', text)
        text = re.sub(r'htons\((\d+)\)', self.port, text)
        text = re.sub(r'(\w*_port)="\\x([0-9a-f]{2})\\x([0-9a-f]{2})"', self.raw_port, text)
        # clone3's parent_tid is read after the call returns; if the new
        # thread has already exited, the kernel has cleared it to 0.  Only 0
        # or the returned tid are accepted as equal: any other value stays.
        m = CLONE3_TID_RE.search(text)
        if m and m.group(1) in ('0', m.group(2)):
            text = text[:m.start(1)] + 'CHILD' + text[m.end(1):]
        for only, pat, rep in self.rules:
            if only is None or only.match(text):
                text = pat.sub(rep, text)
        return text


def line_key(text):
    """Syscall name of a line, or the signal's name for a '--- SIG' line."""
    r = RESUMED_RE.match(text)
    if r:
        return r.group(1)
    m = re.match(r'^--- (SIG[A-Z0-9_]+) ', text)
    return m.group(1) if m else syscall_name(text)


def normalise(lines, only=None, racy=frozenset(), dropped=None):
    """Trace text -> {thread name: [normalised lines]} in thread order.

    only: keep just these syscalls.  racy: drop lines of these syscalls or
    signals, whose presence or place depends on scheduling; they are counted
    in dropped (a Counter) so the report says what was left out.
    """
    threads = parse_trace(lines)
    names = number_threads(threads)
    norm = Normaliser(names)
    out = collections.OrderedDict()
    order = sorted(threads, key=lambda t: int(names[t][1:]) if t in names else 0)
    for tid in order:
        name = names.get(tid, 'T?')
        kept = []
        for text in threads[tid]:
            key = line_key(text)
            if only is not None and key not in only:
                continue
            if key in racy:
                if dropped is not None:
                    dropped[key] += 1
                continue
            kept.append(norm.line(text))
        if kept:
            out[name] = kept
    return out


def order_problem(a, b):
    """First pair of lines common to a and b that b has in another order."""
    common = collections.Counter(a) & collections.Counter(b)

    def keep(seq):
        left = dict(common)
        res = []
        for x in seq:
            if left.get(x, 0) > 0:
                left[x] -= 1
                res.append(x)
        return res
    ka, kb = keep(a), keep(b)
    for x, y in zip(ka, kb):
        if x != y:
            return x, y
    return None


def compare(a_threads, b_threads, label_a, label_b, out=sys.stdout):
    """Print diff and score; returns (ratio, list of order problems)."""
    matched = total_a = total_b = 0
    problems = []
    flat_a, flat_b = [], []
    for name in list(a_threads) + [n for n in b_threads if n not in a_threads]:
        a = a_threads.get(name, [])
        b = b_threads.get(name, [])
        sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
        matched += sum(blk.size for blk in sm.get_matching_blocks())
        total_a += len(a)
        total_b += len(b)
        p = order_problem(a, b)
        if p:
            problems.append((name, p))
        flat_a += ['%s %s' % (name, x) for x in a]
        flat_b += ['%s %s' % (name, x) for x in b]
    for d in difflib.unified_diff(flat_a, flat_b, label_a, label_b, n=1, lineterm=''):
        print(d, file=out)
    ratio = 2.0 * matched / (total_a + total_b) if total_a + total_b else 1.0
    return ratio, problems


def run_tracer(argv, cwd, timeout):
    """Run a tracer in its own process group; kill the whole group on timeout."""
    p = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise SystemExit('compare: %s timed out after %ss' % (argv[0], timeout))
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)     # stragglers left by the tracee
        except ProcessLookupError:
            pass
    return p.returncode, err.decode(errors='replace')


def trace_both(args):
    tracekit = args.tracekit or os.environ.get('TRACEKIT')
    if os.environ.get('TRACER') == 'strace':
        b_cmd, label_b = ['strace'], 'strace (TRACER=strace)'
    elif tracekit:
        # TRACEKIT_ARGS: options for tracekit only (--kernel: the same expected lines).
        b_cmd, label_b = [tracekit, 'syscalls'] + os.environ.get('TRACEKIT_ARGS', '').split(), 'tracekit'
    else:
        raise SystemExit('compare: no tracekit binary (use --tracekit or TRACEKIT=)')
    extra = args.tracer_args.split() if args.tracer_args else []
    work = tempfile.mkdtemp(prefix='tk-compare-')
    results = []
    try:
        for label, base in (('strace', ['strace']), (label_b, b_cmd)):
            run = os.path.join(work, 'run')
            os.mkdir(run)
            if args.setup:
                subprocess.run(['sh', '-c', args.setup], cwd=run, check=True)
            out = os.path.join(work, 'trace-%d' % len(results))
            argv = base + ['-f', '-o', out] + extra + args.command
            if args.no_aslr:
                # Personality is inherited by the tracer's children: same
                # layout in both runs, for programs whose syscalls follow it.
                argv = ['setarch', '-R'] + argv
            rc, err = run_tracer(argv, run, args.timeout)
            with open(out, errors='replace') as f:
                lines = f.readlines()
            results.append((label, rc, err, lines))
            os.rename(run, run + '-%d' % len(results))
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(out, os.path.join(args.keep, 'trace-%s' % label.split()[0]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--min-match', type=float, default=1.0,
                    help='fail below this share of matching lines (0..1, default 1.0)')
    ap.add_argument('--only', help='compare only these syscalls (comma-separated)')
    ap.add_argument('--racy', default='',
                    help='syscalls or signals (futex,SIGCHLD) left out of the comparison: '
                         'whether and where they occur depends on scheduling')
    ap.add_argument('--tracekit', help='tracekit binary (default: $TRACEKIT)')
    ap.add_argument('--tracer-args', help='extra options given to both tracers')
    ap.add_argument('--setup', help='shell command run in the fresh cwd before each run')
    ap.add_argument('--no-aslr', action='store_true',
                    help='run both tracers with address randomisation off (setarch -R)')
    ap.add_argument('--timeout', type=float, default=60, help='seconds per tracer run')
    ap.add_argument('--keep', help='copy both raw traces into this directory')
    ap.add_argument('--files', nargs=2, metavar=('STRACE', 'OTHER'),
                    help='compare two existing trace files instead of running')
    ap.add_argument('command', nargs='*')
    args = ap.parse_args()
    only = set(args.only.split(',')) if args.only else None

    if args.files:
        runs = []
        for path in args.files:
            with open(path, errors='replace') as f:
                runs.append((path, None, '', f.readlines()))
    elif args.command:
        runs = trace_both(args)
    else:
        ap.error('give a command to trace or --files A B')

    (la, rca, erra, a), (lb, rcb, errb, b) = runs
    racy = frozenset(x for x in args.racy.split(',') if x)
    dropped_a, dropped_b = collections.Counter(), collections.Counter()
    na, nb = normalise(a, only, racy, dropped_a), normalise(b, only, racy, dropped_b)
    if rca is not None:
        # The tracer's own exit status is part of the behaviour compared.
        na['exit'] = ['tracer exit status %d' % rca]
        nb['exit'] = ['tracer exit status %d' % rcb]
        if rcb != rca and errb:
            sys.stdout.write('%s stderr:\n%s' % (lb, errb))
    ratio, problems = compare(na, nb, la, lb)
    lines_a = sum(len(v) for k, v in na.items() if k != 'exit')
    lines_b = sum(len(v) for k, v in nb.items() if k != 'exit')
    print('match: %.1f%% (%d %s lines, %d %s lines, threshold %.1f%%)' %
          (100 * ratio, lines_a, la, lines_b, lb, 100 * args.min_match))
    for key in sorted(racy):
        print('racy: %s left out (%d %s lines, %d %s lines)' %
              (key, dropped_a[key], la, dropped_b[key], lb))
    status = 0
    for name, (x, y) in problems:
        print('order: thread %s: strace has "%s" where %s has "%s"' % (name, x, lb, y))
        status = 1
    if ratio < args.min_match:
        print('FAIL: match below threshold')
        status = 1
    if not lines_a:
        # Nothing traced (the command could not be started?): no evidence.
        print('FAIL: the strace trace is empty%s' % (': ' + erra.strip() if erra else ''))
        status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())

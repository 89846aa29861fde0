#!/usr/bin/env python3
"""e2e behaviour tests of the tracekit command line, one case per run.

    test_cli.py CASE [--sleeper PATH]      # run one case
    test_cli.py --list                      # the case names

The binary is $TRACEKIT.  With TRACER=strace the `syscalls` cases run
`strace ARGS` instead of `tracekit syscalls ARGS`, to show that the test
itself passes against the reference; cases about tracekit alone (help,
version, --json, exit 2 on usage errors) cannot, and say so (exit 77).
Outside CI a missing prerequisite skips with its reason; with CI=true it fails.
Every child runs in its own process group and is killed on every path.
"""

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

STRACE_MODE = os.environ.get('TRACER') == 'strace'
SKIP = 77
CASES = {}
OPTIONS = {}


class Skip(Exception):
    pass


class NoDevice(Skip):
    """The machine lacks a device no software stands in for (/dev/kvm): a skip in CI too,
    where any other skip fails (a CI machine without KVM cannot run a vCPU at all)."""


class Fail(Exception):
    pass


def case(fn):
    CASES[fn.__name__.replace('_', '-')] = fn
    return fn


def expect(ok, what):
    if not ok:
        raise Fail(what)


def tracekit_only():
    if STRACE_MODE:
        raise Skip('tracekit-only behaviour, nothing to check against strace')


def tracekit():
    path = os.environ.get('TRACEKIT')
    if not path or not os.access(path, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    return path


def tracer(*args):
    """argv of the syscall tracer under test."""
    if STRACE_MODE:
        return ['strace'] + list(args)
    return [tracekit(), 'syscalls'] + list(args)


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(argv, timeout=30):
    """Run to completion; returns (status as a shell reports it, stdout, stderr)."""
    p = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(p)
        p.communicate()
        raise Fail('%s did not finish within %ss' % (' '.join(argv), timeout))
    finally:
        kill_group(p)
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return rc, out.decode(errors='replace'), err.decode(errors='replace')


def expect_exit0(rc, err):
    expect(rc == 0, 'exit 0 expected, got %d; stderr: %r' % (rc, err[-300:]))


def one_line(text):
    lines = text.splitlines()
    return len(lines) == 1 and lines[0].strip() != ''


def trace_lines(path):
    with open(path, errors='replace') as f:
        return f.read().splitlines()


def names_in(lines):
    """Syscall names of trace lines (with or without a pid prefix)."""
    names = []
    for line in lines:
        m = re.match(r'^(?:\d+ +)?(?:<\.\.\. )?([a-z_][a-z0-9_]*)[( ]', line)
        if m:
            names.append(m.group(1))
    return names


# --- tracekit's own command line ---------------------------------------------------------

@case
def help_option(tmp):
    tracekit_only()
    rc, out, err = run([tracekit(), '--help'])
    expect(rc == 0, '--help exits 0 (got %d)' % rc)
    expect('usage: tracekit' in out, '--help prints the usage on stdout')
    expect(re.search(r'^\s+syscalls\s', out, re.M), '--help lists the syscalls verb')


@case
def help_syscalls(tmp):
    tracekit_only()
    rc, out, err = run([tracekit(), 'help', 'syscalls'])
    expect(rc == 0, "'help syscalls' exits 0 (got %d)" % rc)
    expect('usage: tracekit syscalls' in out, "'help syscalls' prints the verb's usage")


@case
def version(tmp):
    tracekit_only()
    rc, out, err = run([tracekit(), '--version'])
    expect(rc == 0, '--version exits 0')
    expect(re.fullmatch(r'tracekit \d+\.\d+\.\d+\S*\n', out), 'version line: %r' % out)


def usage_error(argv, what, mention=None):
    tracekit_only()
    rc, out, err = run([tracekit()] + argv)
    expect(rc == 2, '%s exits 2 (got %d)' % (what, rc))
    expect(one_line(err), '%s: exactly one line on stderr, got %r' % (what, err))
    expect(err.startswith('tracekit'), '%s: the line names tracekit: %r' % (what, err))
    expect(mention is None or mention in err, '%s: the line says %r: %r' % (what, mention, err))
    expect(out == '', '%s: nothing on stdout' % what)


@case
def unknown_verb(tmp):
    usage_error(['frobnicate'], 'unknown verb')
    usage_error(['recrod'], 'a misspelt verb', "'recrod' (did you mean record? see")
    usage_error(['help', 'shed'], 'help of a misspelt verb', 'did you mean sched?')


@case
def unknown_option(tmp):
    usage_error(['--frobnicate'], 'unknown option')


@case
def verbs_option_errors(tmp):
    """Every verb's getopt complaints in one form (cli_getopt_error): the option, then where to look."""
    for argv in (['record'], ['report'], ['list'], ['reset'], ['view'], ['export'], ['sched'],
                 ['calls'], ['stack'], ['latency'], ['probe', 'list'], ['oops']):
        usage_error(argv + ['--frobnicate'], '%s --frobnicate' % ' '.join(argv),
                    "tracekit: %s: unknown option '--frobnicate' (see 'tracekit help %s')\n"
                    % (argv[0], argv[0]))
    usage_error(['list', '-Zj'], 'a short option inside a bundle', "unknown option '-Z'")
    usage_error(['list', '--json=1'], 'a value for a flag', "option '--json' takes no value")
    # probe said "unknown option -p" for its missing value
    for argv in (['probe', 'add', '-p'], ['report', '-i'], ['sched', '-p'], ['record', '-e']):
        usage_error(argv, ' '.join(argv), "option '%s' needs a value (see 'tracekit help %s')"
                    % (argv[-1], argv[0]))


@case
def syscalls_unknown_option(tmp):
    usage_error(['syscalls', '--frobnicate', 'true'], "unknown option of 'syscalls'",
                "'--frobnicate' (see 'tracekit help syscalls')")
    usage_error(['syscalls', '-j', 'true'], "unknown letter of 'syscalls'",
                "'j' (see 'tracekit help syscalls')")


# --- errors a user meets ------------------------------------------------------------------

def one_clear_error(argv, what, mention):
    rc, out, err = run(argv)
    expect(rc != 0, '%s: non-zero exit' % what)
    expect(one_line(err), '%s: one line on stderr, got %r' % (what, err))
    expect(mention in err, '%s: the line mentions %r: %r' % (what, mention, err))


@case
def nonexistent_command(tmp):
    one_clear_error(tracer('/nonexistent/tk-command'), 'missing command', '/nonexistent/tk-command')


@case
def attach_missing_pid(tmp):
    one_clear_error(tracer('-p', '999999'), 'attach to a missing pid', '999999')


@case
def bad_trace_filter(tmp):
    one_clear_error(tracer('-e', 'trace=opn', 'true'), 'unknown syscall in -e trace=', 'opn')


@case
def not_executable(tmp):
    # A directory passes the PATH lookup but execve refuses it: strace ends its execve line
    # with the error (no "<unfinished ...>" left hanging) and exits 1, not 127.
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracer('-o', out, tmp))
    expect(rc == 1, 'a command that cannot be executed gives exit status 1 (got %d)' % rc)
    lines = trace_lines(out)
    expect(not any('<unfinished' in line for line in lines), 'no unfinished line: %r' % lines)
    expect(any(line.startswith('execve(') and line.endswith('= -1 EACCES (Permission denied)')
               for line in lines), 'the execve line ends with its error: %r' % lines)
    expect('Permission denied' in err, 'stderr says why: %r' % err)


# --- exit status --------------------------------------------------------------------------

@case
def exit_status(tmp):
    rc, out, err = run(tracer('-o', os.path.join(tmp, 't'), 'sh', '-c', 'exit 3'))
    expect(rc == 3, "the traced command's exit status 3 is passed through (got %d)" % rc)


@case
def exit_status_signal(tmp):
    # The shell kills itself with SIGSEGV: the tracer reports it and ends the
    # same way, so its parent sees 128 + 11 like with strace.
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracer('-o', out, 'sh', '-c', 'kill -SEGV $$'))
    expect(rc == 139, 'a command killed by SIGSEGV gives 139 (got %d)' % rc)
    expect(any('+++ killed by SIGSEGV' in line for line in trace_lines(out)),
           'the trace ends with "+++ killed by SIGSEGV"')


# --- attach -------------------------------------------------------------------------------

def proc_state(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('State:'):
                    return line.split()[1]
    except FileNotFoundError:
        return None
    return '?'


@case
def attach_detach_sigint(tmp):
    sleeper = OPTIONS.get('sleeper')
    if not sleeper or not os.access(sleeper, os.X_OK):
        raise Fail('needs --sleeper PATH (tests/progs/sleeper)')
    out = os.path.join(tmp, 't')
    target = subprocess.Popen([sleeper], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                              start_new_session=True)
    tr = None
    try:
        pid = int(target.stdout.readline())
        expect(pid == target.pid, 'sleeper printed its pid')
        tr = subprocess.Popen(tracer('-p', str(pid), '-o', out), stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              start_new_session=True)
        deadline = time.time() + 10
        while time.time() < deadline:
            if os.path.exists(out) and 'getppid' in open(out, errors='replace').read():
                break
            if tr.poll() is not None:
                raise Fail('tracer exited early: %r' % tr.stderr.read())
            time.sleep(0.05)
        else:
            raise Fail('no getppid traced within 10 s of attaching')
        tr.send_signal(signal.SIGINT)
        try:
            tr.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise Fail('tracer did not exit within 10 s of SIGINT')
        # The sleeper must be running free: alive, not stopped, not traced.
        for _ in range(5):
            time.sleep(0.1)
            state = proc_state(pid)
            expect(state is not None and target.poll() is None, 'sleeper died on detach')
            expect(state not in ('t', 'T'), 'sleeper left stopped (State %s)' % state)
        with open('/proc/%d/status' % pid) as f:
            tracer_pid = re.search(r'^TracerPid:\s+(\d+)', f.read(), re.M).group(1)
        expect(tracer_pid == '0', 'sleeper still traced by %s' % tracer_pid)
    finally:
        if tr:
            kill_group(tr)
            tr.wait()
        kill_group(target)
        target.wait()


# --- output options -----------------------------------------------------------------------

@case
def output_file(tmp):
    out = os.path.join(tmp, 't')
    rc, so, err = run(tracer('-o', out, 'true'))
    expect_exit0(rc, err)
    lines = trace_lines(out)
    expect(lines and lines[0].startswith('execve("'), 'the trace file starts with execve')
    expect(lines[-1] == '+++ exited with 0 +++', 'the trace file ends with the exit')
    expect('execve(' not in err, 'no trace on stderr with -o')


@case
def output_per_process(tmp):
    out = os.path.join(tmp, 't')
    rc, so, err = run(tracer('-ff', '-o', out, 'sh', '-c', '/bin/true; /bin/true'))
    expect_exit0(rc, err)
    files = sorted(f for f in os.listdir(tmp) if f.startswith('t'))
    expect(files and all(re.fullmatch(r't\.\d+', f) for f in files),
           'only FILE.PID files: %s' % files)
    expect(len(files) >= 2, 'one file per process (sh and its child): %s' % files)
    for f in files:
        lines = trace_lines(os.path.join(tmp, f))
        expect(lines, '%s is empty' % f)
        expect(not re.match(r'^\d+ ', lines[0]), '%s: no pid prefix in per-process files' % f)
        expect(any(x.startswith('+++ exited with 0') for x in lines), '%s: ends with exit' % f)
    execs = [x for f in files for x in trace_lines(os.path.join(tmp, f))
             if x.startswith('execve("/bin/true"')]
    expect(execs, "the children's files have their execve of /bin/true")


@case
def summary(tmp):
    out = os.path.join(tmp, 't')
    rc, so, err = run(tracer('-c', '-o', out, 'cat', '/etc/passwd'))
    expect_exit0(rc, err)
    lines = trace_lines(out)
    expect(lines and re.fullmatch(r'% time +seconds +usecs/call +calls +errors +syscall', lines[0]),
           'summary header, got %r' % (lines[:1],))
    expect(any(re.match(r'^\s*\d+\.\d+ +\d+\.\d+ +\d+ +\d+ +\d* *read$', x) for x in lines),
           'a row for read')
    expect(re.match(r'^100\.00 +\d+\.\d+ +\d+ +\d+ +\d* *total$', lines[-1]),
           'a total row last, got %r' % lines[-1])


FILE_CALLS_NOT = {'read', 'write', 'close', 'mmap', 'mprotect', 'munmap', 'brk', 'fstat',
                  'pread64', 'exit_group', 'arch_prctl', 'set_tid_address', 'rseq'}


@case
def trace_class_file(tmp):
    out = os.path.join(tmp, 't')
    rc, so, err = run(tracer('-e', 'trace=%file', '-o', out, 'cat', '/etc/passwd'))
    expect_exit0(rc, err)
    lines = trace_lines(out)
    names = names_in(lines)
    expect(any(x.startswith('openat(AT_FDCWD, "/etc/passwd"') for x in lines),
           'the open of /etc/passwd is shown')
    expect('execve' in names, 'execve (takes a path) is shown')
    bad = sorted(set(names) & FILE_CALLS_NOT)
    expect(not bad, 'only file syscalls, but saw %s' % bad)


@case
def json_lines(tmp):
    tracekit_only()
    out = os.path.join(tmp, 't')
    rc, so, err = run(tracer('--json', '-o', out, 'cat', '/etc/passwd'))
    expect_exit0(rc, err)
    events = []
    for n, line in enumerate(trace_lines(out), 1):
        try:
            events.append(json.loads(line))
        except ValueError as e:
            raise Fail('line %d is not JSON (%s): %r' % (n, e, line))
    calls = [e for e in events if isinstance(e, dict) and 'name' in e]
    expect(len(calls) >= 5, 'syscall events with a name')
    for e in calls:
        expect('args' in e and 'ret' in e, 'event has name, args and ret: %r' % e)
    expect(any(e['name'] == 'openat' and '/etc/passwd' in json.dumps(e['args']) for e in calls),
           'the openat of /etc/passwd is an event with its path in args')


@case
def stack_trace(tmp):
    out = os.path.join(tmp, 't')
    rc, so, err = run(tracer('-k', '-o', out, 'true'))
    expect_exit0(rc, err)
    frames = [x for x in trace_lines(out) if x.startswith(' > ')]
    expect(frames, 'stack frames (" > ...") follow the syscalls')
    expect(any(re.match(r'^ > /\S+\(.*\) \[0x[0-9a-f]+\]$', x) for x in frames),
           'a frame names a file, a symbol+offset and an address: %r' % frames[:3])


@case
def seccomp_filter(tmp):
    out = os.path.join(tmp, 't')
    rc, so, err = run(tracer('--seccomp-bpf', '-f', '-e', 'trace=openat', '-o', out,
                             'sh', '-c', 'cat /etc/passwd > /dev/null'))
    expect_exit0(rc, err)
    lines = trace_lines(out)
    names = set(names_in(x for x in lines if '+++' not in x and '---' not in x))
    expect(names == {'openat'}, 'only openat lines, saw %s' % sorted(names))
    expect(any('"/etc/passwd"' in x for x in lines), "cat's openat of /etc/passwd is seen (-f)")


@case
def full_disk(tmp):
    tracekit_only()
    small = os.path.join(tmp, 'small')
    os.mkdir(small)
    rc, so, err = run(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', small])
    if rc != 0:
        raise Skip('cannot mount a small tmpfs to fill: %s' % err.strip())
    try:
        out = os.path.join(small, 't')
        rc, so, err = run(tracer('-f', '-o', out, 'ls', '-R', '/usr/share'))
        expect(rc == 1, 'a trace file that could not be written is exit 1, got %d' % rc)
        m = re.search(r"writing the trace to '.*' failed: No space left on device \((\d+) lines lost\)", err)
        expect(m, 'one line says why and how many lines were lost: %r' % err)
        kept = sum(1 for _ in open(out))
        rc, so, err = run(tracer('-f', '-o', os.path.join(tmp, 'whole'), 'ls', '-R', '/usr/share'))
        whole = sum(1 for _ in open(os.path.join(tmp, 'whole')))
        # Another run of the same command: the same lines give or take a few (timing, cache state).
        expect(abs(kept + int(m.group(1)) - whole) <= max(50, whole // 50),
               'kept %d + lost %s is about the %d lines of a whole run' % (kept, m.group(1), whole))
    finally:
        run(['umount', '-l', small])


def main(argv):
    if argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if len(argv) < 2 or argv[1] not in CASES:
        print('usage: test_cli.py CASE [--sleeper PATH] | --list', file=sys.stderr)
        return 2
    fn = CASES[argv[1]]
    if '--sleeper' in argv:
        OPTIONS['sleeper'] = os.path.abspath(argv[argv.index('--sleeper') + 1])
    # A timeout (meson sends SIGTERM) must still run the cleanup in finally.
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda n, f: sys.exit('killed by signal %d' % n))
    try:
        with tempfile.TemporaryDirectory(prefix='tk-cli-') as tmp:
            fn(tmp)
    except Skip as e:
        if os.environ.get('CI') == 'true' and not STRACE_MODE and not isinstance(e, NoDevice):
            print('FAIL (CI=true, cannot skip): %s' % e)
            return 1
        print('SKIP: %s' % e)
        return SKIP
    except Fail as e:
        print('FAIL: %s: %s' % (argv[1], e))
        return 1
    print('ok: %s' % argv[1])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

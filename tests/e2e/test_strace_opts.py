#!/usr/bin/env python3
"""e2e tests of strace's options in `tracekit syscalls`, one case per run.

    test_strace_opts.py CASE [--sleeper PATH] [--forms PATH]
    test_strace_opts.py --list

Each case runs `tracekit syscalls ARGS` ($TRACEKIT); with TRACER=strace it
runs `strace ARGS` instead, so every case that is about strace's behaviour
shows it holds for the reference too.  Cases comparing both tracers' lines
run them one after the other on the same deterministic command.
Outside CI a missing prerequisite skips with its reason; with CI=true it fails.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_cli import (CASES, OPTIONS, SKIP, STRACE_MODE, Fail, NoDevice, Skip, case, expect,  # noqa: E402
                      expect_exit0, kill_group, run, tracekit, tracekit_only, tracer)

CASES.clear()   # only this file's cases


def need_strace():
    if not shutil.which('strace'):
        raise Skip('strace is not installed: nothing to compare with')


def trace(tmp, *args, timeout=30):
    """The trace lines of `tracer ARGS` written with -o, and the exit status."""
    log = os.path.join(tmp, 'log')
    rc, out, err = run(tracer('-o', log, *args), timeout=timeout)
    with open(log, errors='replace') as f:
        return rc, f.read().splitlines(), err


def both(tmp, *args):
    """(strace's lines, tracekit's lines) of the same run, -o FILE each."""
    need_strace()
    lines = []
    for base in (['strace'], [tracekit(), 'syscalls']):
        log = os.path.join(tmp, 'log')
        rc, out, err = run(base + ['-o', log] + list(args))
        expect_exit0(rc, err)
        with open(log, errors='replace') as f:
            lines.append(f.read().splitlines())
    return lines


def masked(lines):
    """Lines with what differs from run to run (addresses, pids) made equal."""
    out = []
    for l in lines:
        l = re.sub(r'0x[0-9a-f]{8,}', 'ADDR', l)
        out.append(re.sub(r'(si_pid|si_uid)=\d+', r'\1=N', l))
    return out


def same_lines(tmp, *args):
    tracekit_only()
    ref, ours = (masked(x) for x in both(tmp, *args))
    expect(ref == ours, 'lines differ from strace\'s:\n  strace:   %r\n  tracekit: %r' % (ref, ours))


# --- the line leader and the return column --------------------------------------------

@case
def columns(tmp):
    rc, lines, err = trace(tmp, '-a', '12', '-e', 'trace=close', 'true')
    expect_exit0(rc, err)
    closes = [l for l in lines if l.startswith('close(')]
    expect(closes and all(l.index('= ') == 12 for l in closes), '-a 12: %r' % closes)
    rc, lines, err = trace(tmp, '--columns=0', '-e', 'trace=close', 'true')
    expect(any(l == 'close(3) = 0' for l in lines), '--columns=0: %r' % lines)


@case
def syscall_number(tmp):
    rc, lines, err = trace(tmp, '-n', '-e', 'trace=close', 'true')
    expect_exit0(rc, err)
    expect(any(l.startswith('[   3] close(3)') for l in lines), '-n: %r' % lines)


@case
def instruction_pointer(tmp):
    rc, lines, err = trace(tmp, '-i', '-e', 'trace=close', 'true')
    expect_exit0(rc, err)
    expect(any(re.match(r'^\[[0-9a-f]{16}\] close\(3\)', l) for l in lines), '-i: %r' % lines)
    expect(not any(re.match(r'^\[0{16}\]', l) for l in lines), '-i: addresses are real: %r' % lines)
    # a gone process has no address; a signal's is where it stopped the process
    expect(lines[-1] == '[????????????????] +++ exited with 0 +++', '-i exit line: %r' % lines[-1:])
    rc, lines, err = trace(tmp, '-i', '-e', 'trace=none', 'sh', '-c', 'kill -USR1 $$')
    expect(any(re.match(r'^\[[0-9a-f]{16}\] --- SIGUSR1 ', l) for l in lines) and
           lines[-1] == '[????????????????] +++ killed by SIGUSR1 +++', '-i signal: %r' % lines)


@case
def timestamps_precision(tmp):
    rc, lines, err = trace(tmp, '--timestamps=unix,ms', '-e', 'trace=close', 'true')
    expect_exit0(rc, err)
    expect(any(re.match(r'^\d{9,}\.\d{3} close\(', l) for l in lines), 'unix,ms: %r' % lines)
    rc, lines, err = trace(tmp, '--timestamps=precision:ns', '-e', 'trace=close', 'true')
    expect(any(re.match(r'^\d\d:\d\d:\d\d\.\d{9} close\(', l) for l in lines), 'ns: %r' % lines)
    rc, lines, err = trace(tmp, '-r', '--syscall-times=ms', '-e', 'trace=close', 'true')
    expect(any(re.match(r'^ +\d+\.\d{6} close\(3\) += 0 <\d+\.\d{3}>$', l) for l in lines),
           '-r -T=ms: %r' % lines)
    rc, lines, err = trace(tmp, '-t', '--relative-timestamps=s', '-e', 'trace=close', 'true')
    expect(any(re.match(r'^\d\d:\d\d:\d\d \(\+ +\d+\) close\(', l) for l in lines), '-t -r: %r' % lines)


@case
def quiet_lists(tmp):
    rc, lines, err = trace(tmp, '--quiet=exit', '-e', 'trace=none', 'true')
    expect_exit0(rc, err)
    expect(lines == [], '--quiet=exit prints no +++ line: %r' % lines)
    rc, lines, err = trace(tmp, '-e', 'quiet=!exit', '-e', 'trace=none', 'true')
    expect(lines == ['+++ exited with 0 +++'], 'quiet=!exit: %r' % lines)
    rc, out, err = run(tracer('--quiet=bogus', 'true'))
    expect(rc != 0 and "invalid quiet 'bogus'" in err, '--quiet=bogus: %d %r' % (rc, err))


# --- options strace has and getopt might confuse ---------------------------------------

@case
def long_option_names(tmp):
    rc, lines, err = trace(tmp, '--trace=close', 'true')
    expect_exit0(rc, err)
    expect(lines and all(l.startswith('close(') or l.startswith('+++') for l in lines),
           '--trace=close is trace=, not --trace-path=: %r' % lines)
    rc, lines, err = trace(tmp, '--trace-path=/nonexistent/x', 'true')
    expect(lines == ['+++ exited with 0 +++'], '--trace-path: %r' % lines)
    rc, lines, err = trace(tmp, '--status=failed', '-e', 'trace=access', 'true')
    expect(lines and all('ENOENT' in l or l.startswith('+++') for l in lines), '--status: %r' % lines)
    rc, out, err = run(tracer('--tracex=close', 'true'))
    expect(rc != 0 and 'tracex' in err, 'an unknown long option is refused: %d %r' % (rc, err))


@case
def version_option(tmp):
    rc, out, err = run(tracer('-V'))
    expect(rc == 0 and 'version' in out, '-V: %d %r' % (rc, out))


@case
def usage_wording(tmp):
    for args, want in ((['-a', 'x', 'true'], "invalid -a argument: 'x'"),
                       (['--columns=x', 'true'], "invalid --columns argument: 'x'"),
                       (['-X', 'foo', 'true'], "invalid -X argument: 'foo'"),
                       (['-I', '5', 'true'], "invalid -I argument: '5'"),
                       (['-b', 'chdir', 'true'], "Syscall 'chdir' for -b isn't supported"),
                       (['-p', '0'], "Invalid process id: '0'"),
                       (['-c', '-C', 'true'], 'mutually exclusive'),
                       (['-c', '-ff', 'true'], '(-c/--summary-only or -C/--summary) and '
                        '-ff/--output-separately are mutually exclusive'),
                       (['-U', 'non', 'true'], "unknown column name: 'non'"),
                       (['-U', 'time,,name', 'true'], "unknown column name: ''"),
                       (['-w', 'true'], '-w/--summary-wall-clock must be given with')):
        rc, out, err = run(tracer(*args))
        expect(rc != 0 and want in err, '%s: want %r, got %d %r' % (' '.join(args), want, rc, err))


@case
def strace_name(tmp):
    """Run under the name strace, tracekit speaks as argv[0], hint line included."""
    tracekit_only()
    link = os.path.join(tmp, 'strace')
    os.symlink(tracekit(), link)
    rc, out, err = run([link, '-a', 'x', 'true'])
    expect(rc == 2, 'usage error exits 2 (got %d)' % rc)
    expect(err == "%s: invalid -a argument: 'x'\nTry '%s -h' for more information.\n" % (link, link),
           'messages: %r' % err)
    rc, out, err = run([link, '-e', 'trace=none', 'true'])
    expect(rc == 0 and err == '+++ exited with 0 +++\n', 'traces as syscalls: %d %r' % (rc, err))
    # a -P path that resolves elsewhere is said, unless --quiet=path-resolution
    rc, out, err = run([link, '-e', 'trace=none', '-P', '///', 'true'])
    expect(err == '%s: Requested path "///" resolved into "/"\n+++ exited with 0 +++\n' % link,
           'path resolution: %r' % err)
    rc, out, err = run([link, '-e', 'trace=none', '--quiet=path-resolution', '-P', '///', 'true'])
    expect(err == '+++ exited with 0 +++\n', 'quiet path resolution: %r' % err)
    # a command that cannot be executed: strace's words, and its child's exit
    rc, out, err = run([link, '-e', 'trace=none', '/'])
    expect(rc == 1 and err == '%s: exec: Permission denied\n+++ exited with 1 +++\n' % link,
           'exec failure: %d %r' % (rc, err))


@case
def option_notes(tmp):
    """Run as strace: option errors and notes read as strace's (usage errors exit 2, strace's 1)."""
    need_strace()
    tracekit_only()
    link = os.path.join(tmp, 'strace')
    os.symlink(tracekit(), link)
    for args in (['-e', 'trace=getcwd@42', 'true'], ['-e', 'trace=/getcwd@ohmy', 'true'],
                 ['-e', 'kvm=chdir', 'true'], ['--kvm=chdir', 'true'],
                 ['-F', '-w', '/'], ['-fF', '-w', '/'],
                 ['-u', ':nosuchuser:', '-cinrtTyzZ', 'true'],
                 ['-u', ':nosuchuser:', '--output-separately', '-A', 'true'],
                 ['-u', ':nosuchuser:', '-S', 'errors', 'true'],
                 ['-p', '2147483647']):
        ref = run(['strace'] + args)
        ours = run([link] + args)
        ours = (ours[0], ours[1], ours[2].replace(link, 'strace'))
        expect((ref[0] == 0) == (ours[0] == 0) and ref[2] == ours[2],
               '%s:\n  strace:   %r\n  tracekit: %r' % (' '.join(args), ref, ours))
    rc, out, err = run([link, '-d', '/'])
    expect(re.search(r'^%s: ptrace_setoptions = 0x[0-9a-f]+$' % re.escape(link), err, re.M),
           '-d says the ptrace options: %r' % err)


# --- what is printed --------------------------------------------------------------------

@case
def raw_all(tmp):
    same_lines(tmp, '-e', 'raw=all', '-e', 'trace=close,access', 'true')


@case
def verbose_qualifier(tmp):
    # Calls left out of verbose= print their structures as addresses.
    same_lines(tmp, '-e', 'verbose=!newfstatat', '-e', 'trace=newfstatat,prlimit64', 'cat', '/dev/null')


@case
def path_call_fds(tmp):
    # -P by the descriptors a call names besides its first: move_mount's target
    # directory, fsconfig's aux descriptor (and not its context descriptor).
    script = ('import ctypes, os\n'
              'libc = ctypes.CDLL(None, use_errno=True)\n'
              'fd = os.open("/dev/null", os.O_RDONLY)\n'
              'libc.syscall(429, -100, b"no-such-dir", fd, b"x", 0)\n'
              'libc.syscall(429, fd, b"", -100, b"no-such-dir", 4)\n'
              'libc.syscall(431, fd, 6, b"key", None, 0)\n'
              'libc.syscall(431, -1, 3, b"key", b"/nonexistent", fd)\n'
              'libc.syscall(431, -1, 5, b"key", None, fd)\n')
    same_lines(tmp, '-P', '/dev/null', '-e', 'trace=move_mount,fsconfig', '-e', 'signal=none',
               'python3', '-c', script)


@case
def xlat_raw(tmp):
    rc, lines, err = trace(tmp, '-X', 'raw', '-e', 'trace=access', 'true')
    expect_exit0(rc, err)
    expect(any(l.startswith('access("/etc/ld.so.preload", 0x4)') for l in lines), '-X raw: %r' % lines)
    rc, lines, err = trace(tmp, '-X', 'verbose', '-e', 'trace=access', 'true')
    expect(any('0x4 /* R_OK */' in l for l in lines), '-X verbose: %r' % lines)
    rc, lines, err = trace(tmp, '-X', 'raw', '-e', 'trace=openat', 'cat', '/dev/null')
    expect(any(l.startswith('openat(-100, "/dev/null", 0)') for l in lines), '-X raw openat: %r' % lines)
    rc, lines, err = trace(tmp, '-X', 'verbose', '-e', 'trace=openat', 'cat', '/dev/null')
    expect(any(l.startswith('openat(-100 /* AT_FDCWD */, "/dev/null", 0 /* O_RDONLY */)')
               for l in lines), '-X verbose openat: %r' % lines)


@case
def read_write_dumps(tmp):
    same_lines(tmp, '-e', 'trace=write', '-e', 'write=1', 'sh', '-c',
               'echo "a line longer than sixteen bytes, with an\ttab" >/dev/null; '
               'echo short; echo "exactly sixteen!"')


@case
def mmsg_dumps(tmp):
    """-e read=/write= dump each message's iovec of sendmmsg/recvmmsg (tests/progs/sockets)."""
    prog = OPTIONS.get('sockets')
    if not prog:
        raise Fail('mmsg-dumps needs --sockets PATH (tests/progs/sockets)')
    same_lines(tmp, '-e', 'trace=sendmmsg,recvmmsg', '-e', 'read=all', '-e', 'write=all', prog)


@case
def read_dump(tmp):
    same_lines(tmp, '-e', 'trace=read', '-e', 'read=0', 'sh', '-c', 'head -c 40 </etc/passwd')


@case
def inject_poke(tmp):
    same_lines(tmp, '-e', 'trace=write', '-e', 'inject=write:poke_enter=@arg2=5a5a',
               'sh', '-c', 'echo hello >/dev/null')


@case
def inject_poke_warnings(tmp):
    """Pokes that cannot be made whole are said on stderr, worded as strace's."""
    prog = ('import ctypes\n'
            'c = ctypes.CDLL(None)\n'
            'c.mmap.restype = ctypes.c_void_p\n'
            'm = c.mmap(None, 8192, 3, 0x22, -1, 0)\n'
            'c.munmap(ctypes.c_void_p(m + 4096), 4096)\n'
            'ctypes.memset(m, 0x2f, 4096)\n'
            'c.chdir(ctypes.c_void_p(m + 4095))\n'
            'c.chdir(None)\n'
            'c.syscall(39)\n')
    rc, lines, err = trace(tmp, '-e', 'trace=chdir,getpid',
                           '-e', 'inject=chdir:poke_enter=@arg1=2f2f00',
                           '-e', 'inject=getpid:poke_enter=@arg1=00', sys.executable, '-c', prog)
    expect_exit0(rc, err)
    for want in (r': pid:\d+ short write \(1 < 3\) @0x[0-9a-f]+$',
                 r': short read \(1 < \d+\) @0x[0-9a-f]+: Bad address$',
                 r": Failed to tamper with process \d+: couldn't poke$",
                 r": Failed to tamper with process \d+: requested to tamper with argument #1,"
                 r" but system call 'getpid' has only 0 arguments$"):
        expect(re.search(want, err, re.M), 'no %r on stderr: %r' % (want, err))


@case
def detach_on_execve(tmp):
    rc, lines, err = trace(tmp, '-f', '-b', 'execve', '-e', 'trace=execve,exit_group',
                           'sh', '-c', 'exec /bin/true')
    expect_exit0(rc, err)
    expect(any(re.match(r'^\d+ +execve\("/bin/true".* <detached \.\.\.>$', l) for l in lines),
           '-b execve lets go at the second exec: %r' % lines)
    expect(not any('exit_group' in l for l in lines), 'nothing after the detach: %r' % lines)


# --- the command's environment ----------------------------------------------------------

@case
def env_changes(tmp):
    argv = tracer('-e', 'trace=none', '-qq', '-E', 'TK_SET=yes', '-E', 'HOME',
                  'sh', '-c', 'echo "${TK_SET}:${HOME-unset}"')
    p = subprocess.run(argv, capture_output=True, text=True, timeout=30, env=dict(os.environ, HOME='/x'))
    expect(p.stdout == 'yes:unset\n', '-E set and unset: %r %r' % (p.stdout, p.stderr))


@case
def run_as_user(tmp):
    if os.geteuid() != 0:
        raise Skip('-u needs root')
    rc, out, err = run(tracer('-qq', '-e', 'trace=none', '-u', 'nobody', 'id', '-u'))
    expect(rc == 0 and out.strip() == '65534', '-u nobody: %d %r %r' % (rc, out, err))
    rc, out, err = run(tracer('-u', 'no-such-user-tk', 'true'))
    expect(rc != 0 and "Cannot find user 'no-such-user-tk'" in err, 'unknown user: %r' % err)


@case
def daemonize(tmp):
    """-D: the command keeps the tracer's place, the child of whoever started it."""
    for opt in ('-D', '-DD', '-DDD', '--daemonize=session'):
        out = os.path.join(tmp, 'out')
        rc, lines, err = trace(tmp, opt, '-e', 'trace=exit_group', 'sh', '-c', 'echo $PPID > ' + out)
        expect_exit0(rc, err)
        with open(out) as f:
            expect(f.read().strip() == str(os.getpid()), '%s: the command is our child' % opt)
        deadline = time.time() + 10
        while not any(l.startswith('+++ exited with 0') for l in lines) and time.time() < deadline:
            time.sleep(0.1)     # the tracer is no child of ours: it may still be writing
            lines = open(os.path.join(tmp, 'log'), errors='replace').read().splitlines()
        expect(any(l.startswith('exit_group(0)') for l in lines), '%s traced: %r' % (opt, lines))


@case
def output_pipe(tmp):
    for lead in '|!':
        dest = os.path.join(tmp, 'piped')
        rc, out, err = run(tracer('-o', '%scat > %s' % (lead, dest), '-e', 'trace=close', 'true'))
        expect_exit0(rc, err)
        with open(dest) as f:
            lines = f.read().splitlines()
        expect(lines and lines[0].startswith('close('), "-o '%scmd': %r" % (lead, lines))
        expect(not os.path.exists(os.path.join(tmp, lead + 'cat')), 'no file named after the pipe')
    rc, out, err = run(tracer('-ff', '-o', '|cat', 'true'))
    expect(rc != 0 and 'piping the output and -ff' in err, '-ff with a pipe: %r' % err)


@case
def dev_full_exits(tmp):
    rc, out, err = run(tracer('-o', '/dev/full', '-e', 'trace=none', '/bin/true'), timeout=20)
    expect('No space left on device' in err, 'the write error is said: %r' % err)


@case
def append_mode(tmp):
    log = os.path.join(tmp, 'log')
    with open(log, 'w') as f:
        f.write('kept\n')
    rc, out, err = run(tracer('-A', '-o', log, '-e', 'trace=none', 'true'))
    expect_exit0(rc, err)
    with open(log) as f:
        lines = f.read().splitlines()
    expect(lines == ['kept', '+++ exited with 0 +++'], '-A appends: %r' % lines)


@case
def tips(tmp):
    tracekit_only()
    rc, lines, err = trace(tmp, '--tips=id:1,format:compact', '-e', 'trace=none', 'true')
    expect_exit0(rc, err)
    expect(any('Tip:' in l for l in lines), '--tips prints a tip at the end: %r' % lines)
    rc, out, err = run(tracer('--tips=id:rand', 'true'))
    expect(rc == 2 and "invalid --tips argument: 'id:rand'" in err, 'bad --tips: %r' % err)


@case
def summary_columns(tmp):
    rc, lines, err = trace(tmp, '-c', '-U', 'name,calls,max-time,errors', '-e', 'trace=close,access', 'true')
    expect_exit0(rc, err)
    expect(lines[0].split() == ['syscall', 'calls', 'longest', 'errors'], '-U header: %r' % lines[:1])
    expect(any(re.match(r'^close +2 +\d+\.\d{6} *$', l) for l in lines), '-U close row: %r' % lines)
    expect(any(re.match(r'^total +\d+ +\d+\.\d{6} +1$', l) for l in lines), '-U total: %r' % lines)
    rc, out, err = run(tracer('-c', '-U', 'bogus', 'true'))
    expect(rc != 0 and "unknown column name: 'bogus'" in err, '-U bogus: %r' % err)


@case
def summary_overhead(tmp):
    rc, lines, err = trace(tmp, '-c', '-O', '1s', '-e', 'trace=close', 'true')
    expect_exit0(rc, err)
    expect(any(re.match(r'^ *0\.00 +0\.000000 +0 +2 +close$', l) for l in lines) or
           any(re.match(r'^100\.00 +0\.000000 +0 +2 +close$', l) for l in lines),
           '-O 1s takes each call to zero: %r' % lines)


@case
def summary_cpu_time(tmp):
    """-c sums the system CPU time of each call (a sleep costs none), -w its wall-clock time."""
    rc, lines, err = trace(tmp, '-c', '-e', 'trace=nanosleep,clock_nanosleep', 'sleep', '0.3')
    expect_exit0(rc, err)
    rows = [l for l in lines if l.endswith('nanosleep')]
    expect(rows and all(float(l.split()[1]) < 0.1 for l in rows), '-c: CPU time: %r' % lines)
    rc, lines, err = trace(tmp, '-c', '-w', '-e', 'trace=nanosleep,clock_nanosleep', 'sleep', '0.3')
    rows = [l for l in lines if l.endswith('nanosleep')]
    expect(rows and all(float(l.split()[1]) >= 0.29 for l in rows), '-cw: wall-clock: %r' % lines)
    rc, lines, err = trace(tmp, '-c', '-w', '-O', '250000000ns', '-e', 'trace=nanosleep,clock_nanosleep',
                           'sleep', '0.3')
    expect_exit0(rc, err)


# --- signals and descriptors ------------------------------------------------------------

@case
def stdio_released(tmp):
    """The tracer holds no end of the command's stdin: the writer sees EPIPE at once."""
    yes = subprocess.Popen(['yes'], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    tr = subprocess.Popen(tracer('-o', os.devnull, 'sh', '-c', 'exec <&-; sleep 30'),
                          stdin=yes.stdout, stderr=subprocess.DEVNULL, start_new_session=True)
    yes.stdout.close()
    try:
        # Once sleep sleeps the shell has closed its stdin: the tracer's copy alone would
        # keep the writer blocked.  (A fixed 2 s from the start was too short for an ASan
        # tracer on a loaded machine to bring the shell that far.)
        wait_traced_sleep(tr)
        try:
            yes.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise Fail('the writer into the command\'s stdin still runs: the tracer holds the pipe')
        expect(tr.poll() is None, 'the command was still running')
    finally:
        kill_group(yes)
        kill_group(tr)
        tr.wait()


@case
def sigterm_on_attach(tmp):
    """Killed by SIGTERM while attached: detach, then die of SIGTERM; the tracee runs on."""
    sleeper = subprocess.Popen(['sleep', '30'], start_new_session=True)
    tr = subprocess.Popen(tracer('-p', str(sleeper.pid)), stderr=subprocess.PIPE,
                          start_new_session=True)
    try:
        time.sleep(1)
        tr.send_signal(signal.SIGTERM)
        try:
            tr.wait(timeout=10)
        except subprocess.TimeoutExpired:
            raise Fail('the tracer did not end after SIGTERM')
        expect(tr.returncode == -signal.SIGTERM, 'died of SIGTERM (returncode %d)' % tr.returncode)
        expect(sleeper.poll() is None, 'the tracee survived the detach')
    finally:
        kill_group(sleeper)
        kill_group(tr)
        sleeper.wait()


def in_sleep_call(pid):
    """pid is blocked in nanosleep or clock_nanosleep (x86-64: 35, 230)."""
    try:
        with open('/proc/%d/syscall' % pid) as f:
            return f.read().split()[0] in ('35', '230')
    except (OSError, IndexError):
        return False


def read_status(pid):
    try:
        with open('/proc/%d/status' % pid) as f:
            return f.read()
    except OSError:
        return ''


def wait_traced_sleep(tr, timeout=30):
    """Wait until the `sleep` the tracer tr runs (its child, or a child's child) sleeps in its
    sleep call: the tracer has seen the call begin and let it run, so the tracer's setup, its
    signal handling included, is done.  A fixed pause is not enough: on a loaded machine an
    ASan tracer takes over a second to trace sleep's startup."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and tr.poll() is None:
        todo, seen = [tr.pid], []
        while todo:
            pid = todo.pop()
            try:
                with open('/proc/%d/task/%d/children' % (pid, pid)) as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                kids = []
            todo += kids
            seen += kids
        for pid in seen:
            try:
                with open('/proc/%d/stat' % pid) as f:
                    comm, rest = f.read().rsplit(')', 1)
            except OSError:
                continue
            # S, not t: a call the tracer holds at its entry stop shows in /proc too
            if comm.endswith('(sleep') and rest.split()[0] == 'S' and in_sleep_call(pid):
                return pid
        time.sleep(0.02)
    raise Fail('the traced sleep did not reach its sleep call within %d s' % timeout)


@case
def restart_after_attach(tmp):
    """A call interrupted by the attach resumes as restart_syscall, printed as
    docs/syscalls.md says (tracekit did not see the call begin: it names none)."""
    tracekit_only()
    doc = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'docs',
                            'syscalls.md')).read()
    m = re.search(r'`restart_syscall` after attaching prints `([^`]+)`', doc)
    expect(m, 'docs/syscalls.md does not say how restart_syscall prints after an attach')
    sleeper = subprocess.Popen(['sleep', '30'], start_new_session=True)
    # attached once it sleeps: attached sooner (a loaded machine starts sleep slowly), the
    # tracer sees clock_nanosleep begin and names it when it resumes
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not in_sleep_call(sleeper.pid):
        time.sleep(0.02)
    tr = subprocess.Popen(tracer('-p', str(sleeper.pid)), stderr=subprocess.PIPE, text=True,
                          start_new_session=True)
    try:
        # the signals once the tracer holds sleep: a slow start (ASan, load) past the
        # SIGINT below would die of it with nothing said
        while time.monotonic() < deadline and tr.poll() is None and \
                not re.search(r'^TracerPid:\s+%d$' % tr.pid, read_status(sleeper.pid), re.M):
            time.sleep(0.02)
        time.sleep(1)
        sleeper.send_signal(signal.SIGSTOP)
        time.sleep(0.3)
        sleeper.send_signal(signal.SIGCONT)
        time.sleep(0.5)
        tr.send_signal(signal.SIGINT)
        err = tr.communicate(timeout=10)[1]
        first = [l for l in err.splitlines() if l.startswith('restart_syscall(')]
        expect(first and first[0].startswith('restart_syscall(' + m.group(1)),
               'the first restart_syscall line is not as documented (%r): %r'
               % (m.group(1), first[:1]))
    finally:
        kill_group(sleeper)
        kill_group(tr)
        sleeper.wait()


@case
def interruptible_never(tmp):
    """-I never: SIGINT is ignored by the tracer, the command decides."""
    tr = subprocess.Popen(tracer('-I', 'never', '-o', os.devnull, 'sleep', '2'),
                          start_new_session=True)
    try:
        # a SIGINT before the tracer set its signals up would end it: send it once tracing runs
        wait_traced_sleep(tr)
        tr.send_signal(signal.SIGINT)
        rc = tr.wait(timeout=10)
        expect(rc == 0, 'the tracer ignored SIGINT and the command ran to its end (rc %d)' % rc)
    finally:
        kill_group(tr)


@case
def dies_of_commands_signal(tmp):
    """The command killed by SIGTERM: the tracer dies of SIGTERM too."""
    p = subprocess.run(tracer('-e', 'trace=none', '-qq', 'sh', '-c', 'kill -TERM $$'),
                       capture_output=True, timeout=30, start_new_session=True)
    expect(p.returncode == -signal.SIGTERM, 'returncode %d, want -SIGTERM' % p.returncode)


@case
def status_detached(tmp):
    """-e status=detached: the call in flight when SIGTERM detaches us ends <detached ...>."""
    log = os.path.join(tmp, 'log')
    tr = subprocess.Popen(tracer('-o', log, '-I2', '-e', 'status=detached', 'sleep', '3'),
                          stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        # SIGTERM once sleep is in its call: sooner, the call held is one of its startup's
        # (or the tracer is still setting up and dies of it)
        wait_traced_sleep(tr)
        tr.send_signal(signal.SIGTERM)
        tr.wait(timeout=10)
    finally:
        kill_group(tr)
    with open(log) as f:
        lines = f.read().splitlines()
    expect(any(re.match(r'^clock_nanosleep\(.* <detached \.\.\.>$', l) for l in lines),
           'the held call is shown: %r' % lines)


@case
def fault_counts_per_process(tmp):
    """when=1 picks the first chdir of each process: the shell's and its subshell's."""
    rc, lines, err = trace(tmp, '-f', '-qq', '-e', 'trace=chdir', '-e', 'fault=chdir:when=1',
                           'sh', '-c', 'cd / 2>/dev/null; (cd / 2>/dev/null); true')
    expect_exit0(rc, err)
    injected = [l for l in lines if l.endswith('ENOSYS (Function not implemented) (INJECTED)')]
    expect(len(injected) == 2, 'two first calls: %r' % lines)


@case
def fault_exit_group(tmp):
    rc, lines, err = trace(tmp, '-e', 'trace=exit_group', '-e', 'fault=exit_group:when=1',
                           'sh', '-c', 'exit 3')
    expect(rc == 3, 'exit status 3 (got %d)' % rc)
    expect(any(re.match(r'^exit_group\(3\) += -1 ENOSYS \(Function not implemented\) \(INJECTED\)$', l)
               for l in lines), 'a failed exit_group returns: %r' % lines)


# --- processes and threads -------------------------------------------------------------

def pids_masked(lines):
    """masked(), pids made N: where a pid goes, and every number of four or more digits.

    Pids are small too once the machine's pids wrap (pid_max is 32768 here), and
    their widths move the return column: runs of spaces before it become one.
    """
    out = []
    for l in masked(lines):
        l = re.sub(r'^\d+ +', 'N ', l)
        l = re.sub(r'(\bpid |<pid:|\bkill\(|\bpidfd_open\(|pid changed to )\d+', r'\1N', l)
        l = re.sub(r'\b\d{4,}\b', 'N', l)
        out.append(re.sub(r' {2,}= ', ' = ', l))
    return out


@case
def kvm_vcpu_exit(tmp):
    """-e kvm=vcpu: KVM_RUN says the exit reason, as strace (tests/progs/kvm_run.c)."""
    prog = OPTIONS.get('kvm_run')
    if not prog:
        raise Fail('the kvm_run program is needed: --kvm-run PATH')
    if not os.access('/dev/kvm', os.R_OK | os.W_OK):
        raise NoDevice('no /dev/kvm on this machine: no vCPU to run (KVM_RUN\'s decoding is '
                       'not tested here)')
    rc, lines, err = trace(tmp, '-e', 'trace=ioctl', '-e', 'kvm=vcpu', prog)
    expect_exit0(rc, err)
    expect(any(re.search(r'KVM_RUN, 0\) += 0 \(KVM_EXIT_HLT\)$', l) for l in lines),
           'no KVM_RUN line with its exit reason: %r' % lines)
    same_lines(tmp, '-e', 'trace=ioctl', '--kvm=vcpu', prog)


# --- forms of arguments: tests/progs/forms.c under several options ---------------------

FORMS_CALLS = 'trace=mmap,mbind,getrlimit,utimensat,faccessat2,arch_prctl,modify_ldt,openat2'


def forms():
    path = OPTIONS.get('forms')
    if not path or not os.access(path, os.X_OK):
        raise Fail('the forms program is needed: --forms PATH')
    return path


@case
def xlat_forms(tmp):
    for style in ('abbrev', 'raw', 'verbose'):
        same_lines(tmp, '-X', style, '-e', FORMS_CALLS, forms())


@case
def decode_fds_devices(tmp):
    for opts in (['-yy'], ['--decode-fds=dev'], ['--decode-fds=socket'], ['-P', '/dev/full']):
        same_lines(tmp, *opts, '-e', 'trace=dup2,fsync', forms())


@case
def verbose_set(tmp):
    same_lines(tmp, '-e', 'verbose=!execve,newfstatat', '-e', 'trace=execve,newfstatat,read',
               'cat', '/etc/hostname')


@case
def thread_execve(tmp):
    """A thread's execve: <pid changed to ...> and +++ superseded by execve ... +++, as strace."""
    tracekit_only()
    # The thread waits for the leader to sleep in clock_nanosleep (230): caught between
    # calls as the execve kills it, the leader gets a stray "???(" line from strace.
    prog = ('import os, threading, time\n'
            'def leader_sleeps():\n'
            '    task = "/proc/self/task/%d/" % os.getpid()\n'
            '    with open(task + "stat") as f:\n'
            '        state = f.read().rsplit(")", 1)[1].split()[0]\n'
            '    with open(task + "syscall") as f:\n'
            '        return state == "S" and f.read().split()[0] == "230"\n'
            'def go():\n'
            '    while not leader_sleeps():\n'
            '        time.sleep(0.01)\n'
            '    os.execv("/bin/true", ["true"])\n'
            'threading.Thread(target=go).start()\n'
            'time.sleep(10)\n')
    ref, ours = (pids_masked(x) for x in both(tmp, '-f', '-qq', '-e', 'trace=execve',
                                              sys.executable, '-c', prog))
    expect(any('superseded by execve in pid' in l for l in ref), 'strace shows it: %r' % ref)
    expect(ref == ours, 'lines differ from strace\'s:\n  strace:   %r\n  tracekit: %r' % (ref, ours))


@case
def clone_ptrace_detached(tmp):
    """Without -f a CLONE_PTRACE child is not traced: 'Detached unknown pid N' on stderr."""
    prog = ('import ctypes, os\n'
            'r = ctypes.CDLL(None, use_errno=True).syscall(56, 0x2000 | 17, 0, 0, 0, 0)\n'
            'os._exit(0) if r == 0 else os.waitpid(r, 0)\n')
    # -o alone implies -q, which would hide the message
    rc, lines, err = trace(tmp, '--quiet=personality', '-e', 'trace=none', sys.executable, '-c', prog)
    expect_exit0(rc, err)
    expect(re.search(r': Detached unknown pid \d+$', err, re.M), 'said on stderr: %r' % err)


@case
def decode_fds_kinds(tmp):
    """--decode-fds=pidfd shows a pidfd's process and nothing for a file, as strace."""
    tracekit_only()
    prog = 'import os\nos.pidfd_open(os.getpid())\nos.open("/dev/null", os.O_RDONLY)\n'
    for kinds in ('pidfd', 'path', 'socket'):
        ref, ours = (pids_masked(x) for x in both(tmp, '--decode-fds=' + kinds, '-e',
                                                  'trace=pidfd_open,openat', sys.executable, '-c', prog))
        expect(ref == ours, '%s: lines differ from strace\'s:\n  strace:   %r\n  tracekit: %r'
               % (kinds, ref, ours))


@case
def xlat_signals(tmp):
    """-X raw and verbose print signal numbers, in arguments and in siginfo."""
    tracekit_only()
    for style in ('raw', 'verbose'):
        ref, ours = (pids_masked(x) for x in both(tmp, '-X', style, '-e', 'trace=kill,rt_sigtimedwait',
                                                  '-e', 'signal=none', sys.executable, '-c',
                                                  'import os, signal\n'
                                                  'signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])\n'
                                                  'os.kill(os.getpid(), signal.SIGUSR1)\n'
                                                  'signal.sigtimedwait([signal.SIGUSR1], 1)\n'))
        expect(any('kill(N, 10' in l for l in ours), '-X %s: the signal as a number: %r' % (style, ours))
        expect(ref == ours, '-X %s: lines differ from strace\'s:\n  strace:   %r\n  tracekit: %r'
               % (style, ref, ours))


@case
def thread_execve_quiet(tmp):
    """A thread's execve: <pid changed to N ...> and +++ superseded by execve in pid N +++,
    and --quiet=thread-execve, with a C program (tests/progs/thread_exec.c)."""
    tracekit_only()
    prog = OPTIONS.get('thread_exec')
    if not prog:
        raise Fail('the thread_exec program is needed: --thread-exec PATH')
    for quiet in ([], ['--quiet=thread-execve']):
        # pids of four and five digits pad the line's start and its return column apart
        ref, ours = (masked([re.sub(r' {2,}= ', ' = ', re.sub(r'^PID +', 'PID ',
                                                             re.sub(r'\b\d{2,}\b', 'PID', l)))
                             for l in x])
                     for x in both(tmp, '-f', '-e', 'trace=execve', *quiet, prog))
        expect(ref == ours, 'lines differ from strace\'s:\n  strace:   %r\n  tracekit: %r' % (ref, ours))
        expect(any('<pid changed to PID ...>' in l for l in ours), 'no pid change: %r' % ours)


@case
def read_cache(tmp):
    """Memory is read a page at a time, each page once per stop: strace counts our reads."""
    tracekit_only()
    need_strace()
    log = os.path.join(tmp, 'reads')
    # A sanitized build's leak check cannot run under ptrace (LeakSanitizer says so and fails).
    asan = os.environ.get('ASAN_OPTIONS', '')
    rc, out, err = run(['env', 'ASAN_OPTIONS=%s%s' % (asan + ':' if asan else '', 'detect_leaks=0'),
                        'strace', '-qq', '-e', 'signal=none', '-e', 'trace=process_vm_readv',
                        '-o', log, tracekit(), 'syscalls', '-o', '/dev/null',
                        '-e', 'trace=execve,openat,newfstatat,read,writev', forms()])
    expect_exit0(rc, err)
    with open(log) as f:
        n = sum(1 for l in f if l.startswith('process_vm_readv('))
    # about 20 (a page per call's arguments); reading each string and struct on its own takes 99
    expect(0 < n <= 40, '%d process_vm_readv calls' % n)


@case
def buffer_limit(tmp):
    same_lines(tmp, '-e', 'trace=writev', forms())

@case
def ioctl_xlat(tmp):
    prog = OPTIONS.get('ioctls')
    if not prog:
        raise Fail('ioctl-xlat needs --ioctls PATH (tests/progs/ioctls)')
    tracekit_only()
    # Unmasked: the program prints no addresses, and -X raw's request numbers look like some.
    for opts in (['-X', 'raw'], ['-X', 'verbose'], ['-v'], ['-v', '-X', 'verbose']):
        ref, ours = both(tmp, '-e', 'trace=ioctl', *opts, prog)
        expect(ref == ours, '%s: lines differ from strace\'s:\n  strace:   %r\n  tracekit: %r'
               % (' '.join(opts), ref, ours))


def main(argv):
    if argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if len(argv) < 2 or argv[1] not in CASES:
        print('usage: test_strace_opts.py CASE [--sleeper PATH] [--forms PATH] | --list',
              file=sys.stderr)
        return 2
    fn = CASES[argv[1]]
    if '--ioctls' in argv:
        OPTIONS['ioctls'] = os.path.abspath(argv[argv.index('--ioctls') + 1])
    if '--sockets' in argv:
        OPTIONS['sockets'] = os.path.abspath(argv[argv.index('--sockets') + 1])
    if '--sleeper' in argv:
        OPTIONS['sleeper'] = os.path.abspath(argv[argv.index('--sleeper') + 1])
    if '--thread-exec' in argv:
        OPTIONS['thread_exec'] = os.path.abspath(argv[argv.index('--thread-exec') + 1])
    if '--kvm-run' in argv:
        OPTIONS['kvm_run'] = os.path.abspath(argv[argv.index('--kvm-run') + 1])
    if '--forms' in argv:
        OPTIONS['forms'] = os.path.abspath(argv[argv.index('--forms') + 1])
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda n, f: sys.exit('killed by signal %d' % n))
    try:
        with tempfile.TemporaryDirectory(prefix='tk-sopt-') as tmp:
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

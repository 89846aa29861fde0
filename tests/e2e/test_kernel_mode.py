#!/usr/bin/env python3
"""e2e tests of `tracekit syscalls --kernel` (BPF), one case per run.

    test_kernel_mode.py CASE --progs DIR     # DIR: build/tests/progs (loop, sleeper)
    test_kernel_mode.py --list

Lines themselves are compared with strace by the e2e-kernel-vs-strace-* cases
(test_syscalls_vs_strace.sh with TRACEKIT_ARGS=--kernel); these check what
only the kernel mode has: the program is never stopped, the kernel filters,
losses are counted, refusals are one clear line, and nothing stays loaded.
Outside CI a missing prerequisite (not root, no BPF) skips with its reason;
with CI=true it fails.  The binary is $TRACEKIT.
"""

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import CASES, Fail, Skip, case, expect, main as run_case, run  # noqa: E402

OPTIONS = {}


def tracekit(*args):
    """tracekit syscalls --kernel ARGS; a first argument '=SOURCE' becomes --kernel=SOURCE."""
    path = os.environ.get('TRACEKIT')
    if not path or not os.access(path, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    args = list(args)
    kernel = '--kernel'
    if args and args[0].startswith('='):
        kernel += args.pop(0)
    return [path, 'syscalls', kernel] + args


def prog(name):
    path = os.path.join(OPTIONS.get('progs', ''), name)
    if not os.access(path, os.X_OK):
        raise Fail('needs --progs DIR holding %s' % name)
    return path


def need_kernel_mode():
    if os.geteuid() != 0:
        raise Skip('--kernel needs root')
    rc, _, err = run(tracekit('-o', '/dev/null', 'true'))
    if rc != 0:
        raise Skip('--kernel does not run here: %s' % err.strip())


def lines(path):
    with open(path, errors='replace') as f:
        return f.read().splitlines()


def names(text_lines):
    out = []
    for line in text_lines:
        m = re.match(r'^(?:\d+ +)?(?:<\.\.\. )?([a-z_][a-z0-9_]*)[( ]', line)
        if m:
            out.append(m.group(1))
    return out


def loaded_programs():
    """Ids of the machine's loaded BPF programs named like ours (bpftool prog show)."""
    rc, out, _ = run(['bpftool', '-j', 'prog', 'show'])
    if rc != 0:
        raise Skip('bpftool prog show failed')
    return [p['id'] for p in json.loads(out or '[]') if p.get('name', '').startswith('km_')]


def programs_held_by(pid):
    """Ids of the BPF programs pid holds a descriptor of (prog_id: in /proc/PID/fdinfo)."""
    ids = set()
    d = '/proc/%d/fdinfo' % pid
    for fd in os.listdir(d):
        try:
            with open(os.path.join(d, fd)) as f:
                m = re.search(r'^prog_id:\s+(\d+)', f.read(), re.M)
        except OSError:
            continue
        if m:
            ids.add(int(m.group(1)))
    return sorted(i for i in ids if i in loaded_programs())


@case
def starts_at_execve(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracekit('-s', '256', '-o', out, prog('loop'), 'getppid', '3'))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    got = lines(out)
    expect(got and got[0].startswith('execve("%s", ["%s", "getppid", "3"]' % (prog('loop'), prog('loop'))),
           'the first line is the command\'s execve, got %r' % got[:1])
    expect(names(got).count('getppid') == 3, 'three getppid lines: %r' % got)
    expect(got[-1] == '+++ exited with 0 +++', 'ends with the exit line, got %r' % got[-1:])


@case
def lines_show_what_the_call_saw(tmp):
    """The program changes each buffer right after the call: the lines keep what the call read."""
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, stdout, err = run(tracekit('-e', 'trace=write,ioctl', '-o', out, prog('scribble')))
    expect(rc == 0, 'exit 0: %r' % err)
    expect(stdout.strip() == 'TracerPid:\t0', 'never ptraced: %r' % stdout)
    got = [l for l in lines(out) if l.startswith(('write(3,', 'ioctl(-1,'))]
    want = ['write(3, "before", 6) = 6',
            'ioctl(-1, TIOCSWINSZ, {ws_row=24, ws_col=80, ws_xpixel=0, ws_ypixel=0}) = -1 EBADF '
            '(Bad file descriptor)'] * 3
    got = [re.sub(r' +', ' ', l) for l in got]
    expect(got == want, 'what each call saw:\n  want %r\n  got  %r' % (want, got))


@case
def trace_filter_in_kernel(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracekit('-f', '-e', 'trace=getppid', '-o', out, prog('loop'), 'getppid', '5'))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    got = [n for n in names(lines(out))]
    expect(got == ['getppid'] * 5, 'only the five getppid calls, got %r' % got)


@case
def summary(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracekit('-c', '-o', out, prog('loop'), 'getppid', '1000'))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    text = open(out).read()
    m = re.search(r'^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+getppid$', text, re.M)
    expect(m and m.group(1) == '1000', '-c counts 1000 getppid calls: %r' % text)


@case
def json_lines(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracekit('--json', '-f', '-o', out, 'sh', '-c', 'echo hi > /dev/null'))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    objs = [json.loads(line) for line in lines(out)]
    calls = [o for o in objs if o['type'] == 'syscall']
    expect(calls and calls[0]['name'] == 'execve', 'first call is execve: %r' % calls[:1])
    expect(any(o['name'] == 'write' and o['args'][1] == '"hi\\n"' for o in calls),
           'the write of "hi\\n" with its buffer decoded: %r' % [o for o in calls if o['name'] == 'write'])
    expect(objs[-1]['type'] == 'exit' and objs[-1]['status'] == 0, 'last object is the exit: %r' % objs[-1])


@case
def timestamps_and_times(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracekit('-tt', '-T', '-o', out, prog('loop'), 'getppid', '2'))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    calls = [l for l in lines(out) if ' getppid(' in l]
    expect(len(calls) == 2, 'two getppid lines: %r' % calls)
    for line in calls:
        expect(re.match(r'^\d\d:\d\d:\d\d\.\d{6} getppid\(\) += \d+ <\d+\.\d{6}>$', line),
               '-tt time of day and -T duration: %r' % line)
    t = [l.split()[0] for l in calls]
    expect(t == sorted(t), 'in time order: %r' % t)


@case
def attach_never_stops(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    target = subprocess.Popen([prog('sleeper')], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL,
                              start_new_session=True)
    tr = None
    try:
        pid = int(target.stdout.readline())
        tr = subprocess.Popen(tracekit('-p', str(pid), '-o', out), stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        # The second watched starts at the attach: loading the programs can take longer than
        # a second on a loaded machine (ASan), and a SIGINT meanwhile ends the run at once.
        attached, deadline = b'', time.monotonic() + 60
        while b'Process %d attached' % pid not in attached:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([tr.stderr], [], [], left)[0]:
                raise Fail('no attach within 60 s: %r' % attached)
            chunk = os.read(tr.stderr.fileno(), 4096)
            if not chunk:
                raise Fail('tracer exited early: %r' % attached)
            attached += chunk
        # The trace file is written in blocks: watch the process for a second, then stop.
        for _ in range(20):
            time.sleep(0.05)
            if tr.poll() is not None:
                raise Fail('tracer exited early: %r' % tr.stderr.read())
            with open('/proc/%d/status' % pid) as f:
                status = f.read()
            tracer_pid = re.search(r'^TracerPid:\s+(\d+)', status, re.M).group(1)
            expect(tracer_pid == '0', 'the process is not ptraced (TracerPid %s)' % tracer_pid)
            state = re.search(r'^State:\s+(\S)', status, re.M).group(1)
            expect(state != 't', 'the process is never in a tracing stop')
        tr.send_signal(signal.SIGINT)
        tr.wait(timeout=10)
        err = (attached + tr.stderr.read()).decode()
        expect('Process %d attached' % pid in err and 'Process %d detached' % pid in err,
               'attach and detach messages: %r' % err)
        expect(target.poll() is None, 'the process runs on after the tracer left')
        got = lines(out)
        sleep = r'clock_nanosleep\(CLOCK_REALTIME, 0, \{tv_sec=0, tv_nsec=50000000\}, NULL\)'
        ok = re.compile(r'^(<\.\.\. clock_nanosleep resumed>\) += 0|%s += 0|getppid\(\) += \d+)$' % sleep)
        # The call it was in when detached, as strace says it.
        last = re.compile(r'^clock_nanosleep\(CLOCK_REALTIME, 0, \{tv_sec=0, tv_nsec=50000000\}, '
                          r' <unfinished \.\.\.>\) += \?$')
        if got and last.match(got[-1]):
            got = got[:-1]
        bad = [l for l in got if not ok.match(l)]
        expect(not bad, 'only the sleeper\'s calls, the first maybe resumed: %r' % bad[:3])
        expect(names(got).count('getppid') >= 5, 'a second of the sleeper\'s calls: %r' % got)
    finally:
        if tr and tr.poll() is None:
            os.killpg(tr.pid, signal.SIGKILL)
            tr.wait()
        os.killpg(target.pid, signal.SIGKILL)
        target.wait()


@case
def losses_counted(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracekit('--buffer-size=4', '-o', out, prog('loop'), 'write', '20000'))
    expect(rc == 0, 'the command\'s exit status, 0, got %d: %r' % (rc, err))
    m = re.search(r'^tracekit: syscalls: (\d+) events lost: the ring buffer was full '
                  r'\(raise --buffer-size, now 4 KiB\)$', err, re.M)
    expect(m, 'one line counts the lost records and gives the advice: %r' % err)
    writes = names(lines(out)).count('write')
    # A lone task's call is one record: what was printed plus what was lost covers the
    # 20000 calls, and each lost call is one lost record (the startup's calls aside).
    lost = int(m.group(1))
    expect(writes < 20000 and 20000 - writes <= lost + 2 and lost <= 20000 - writes + 64,
           '%d write lines + %d lost records account for 20000 calls' % (writes, lost))


@case
def blocked_call_shows_while_it_waits(tmp):
    """A lone task's call is one record at its exit; one that blocks still shows its entry."""
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    p = subprocess.Popen(tracekit('-e', 'trace=read', '-o', out, 'head', '-c', '3'),
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # head blocks in read(0, ...) on the empty pipe: the entry is in the file meanwhile.
        deadline, text = time.time() + 10, ''
        while time.time() < deadline and not re.search(r'^read\(0, $', text, re.M):
            time.sleep(0.05)
            text = open(out).read() if os.path.exists(out) else ''
        expect(re.search(r'^read\(0, $', text, re.M) and p.poll() is None,
               'the blocked read(0, ...) is shown while it waits: %r' % text[-300:])
        so, err = p.communicate(b'abc', timeout=10)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    expect(p.returncode == 0 and so == b'abc', 'head: exit %d, %r %r' % (p.returncode, so, err))
    got = lines(out)
    expect(any(re.match(r'^read\(0, "abc", \d+\) += 3$', line) for line in got),
           'the read ends on the same line, with its data: %r' % got)


@case
def tasks_sharing_a_slot(tmp):
    """Tasks whose slot another task holds (the spill map) are traced as the others."""
    need_kernel_mode()
    script = 'for i in 1 2 3; do /bin/true; done; echo x | cat >/dev/null'
    for slots in ('1', '65536'):
        out = os.path.join(tmp, 't' + slots)
        env = dict(os.environ, TRACEKIT_KM_SLOTS=slots)
        rc, _, err = run(tracekit('-f', '-o', out, 'sh', '-c', script), env=env)
        expect(rc == 0, 'with %s slots: exit %d: %r' % (slots, rc, err))
        text = '\n'.join(lines(out))
        got = (len(re.findall(r'execve\("/bin/true", \["/bin/true"\]', text)),
               len(re.findall(r'\+\+\+ exited with 0 \+\+\+', text)),
               # whole, or "<... read resumed>" after the echo's lines
               len(re.findall(r'(?:read\(0, |<\.\.\. read resumed>)"x\\n", \d+\) += 2$', text,
                              re.M)))
        expect(got == (3, 6, 1), 'with %s slots: 3 execs of true, 6 exits (sh, 3 true, the '
               'pipeline\'s 2), cat\'s read of x; got %r' % (slots, got))


@case
def order_across_processes(tmp):
    """Lines across processes come in the order things happened, with times shown or not.

    Without -t/-T/-c/--json the records carry order numbers, not times (a clock
    read a call saved); with -tt they carry times.  loop pingpong passes
    numbered messages to a child and back: a message is written before it is
    read, whichever process prints first.
    """
    need_kernel_mode()
    rounds = 300
    for opts in ([], ['-tt']):
        out = os.path.join(tmp, 't%d' % len(opts))
        rc, _, err = run(tracekit('-f', *opts, '-e', 'trace=read,write', '-o', out,
                                  prog('loop'), 'pingpong', str(rounds)))
        expect(rc == 0, '%s: exit %d: %r' % (opts, rc, err))
        got = lines(out)
        # (message, pid) -> line index of its write's start (whole, or split when the read
        # returned before the write did), and of its read's data (whole or resumed)
        written, read = {}, {}
        for i, line in enumerate(got):
            w = re.search(r'write\(\d+, "(\d{4})", 4(?:\) += 4| <unfinished \.\.\.>)$', line)
            r = re.search(r'(?:read\(\d+, |read resumed>)"(\d{4})", 4\) += 4$', line)
            if w or r:
                (written if w else read)[((w or r).group(1), line.split()[0])] = i
        expect(len(written) == 2 * rounds and len(read) == 2 * rounds,
               '%s: %d writes and %d reads of a message, want %d each: %r'
               % (opts, len(written), len(read), 2 * rounds, got[:12]))
        late = []
        for (msg, pid), i in written.items():
            # its read: the other process's line with the same message
            j = [v for (m, p), v in read.items() if m == msg and p != pid]
            if len(j) != 1 or j[0] < i:
                late.append((msg, pid, i, j))
        expect(not late, '%s: messages read before they were written (or not read): %r\n%s'
               % (opts, late[:3], '\n'.join(got[max(0, late[0][2] - 6):late[0][2] + 6]) if late else ''))


@case
def ptrace_only_options(tmp):
    for opt in (['-k'], ['--seccomp-bpf', '-f'], ['-e', 'inject=getppid:error=EPERM']):
        rc, _, err = run(tracekit(*opt, 'true'))
        expect(rc == 2, '%s with --kernel is a usage error (2), got %d' % (opt, rc))
        expect(len(err.splitlines()) == 1 and 'needs the ptrace mode' in err,
               'one line says why: %r' % err)


@case
def not_root(tmp):
    need_kernel_mode()
    argv = ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups',
            '--inh-caps=-all', '--bounding-set=-all'] + tracekit('true')
    rc, _, err = run(argv)
    expect(rc == 1, 'not root is exit 1, got %d' % rc)
    expect(len(err.splitlines()) == 1 and 'needs root' in err, 'one line says --kernel needs root: %r' % err)


@case
def refused_in_a_pid_namespace(tmp):
    # The kernel numbers tasks by the initial PID namespace: in another, --kernel says so.
    need_kernel_mode()
    rc, _, _ = run(['unshare', '-pf', 'true'])
    if rc != 0:
        raise Skip('unshare -pf is not permitted here')
    rc, _, err = run(['unshare', '-pf'] + tracekit('true'))
    expect(rc == 1, 'in a PID namespace of its own --kernel is exit 1, got %d' % rc)
    expect(len(err.splitlines()) == 1 and 'PID namespace of its own' in err,
           'one line says why: %r' % err)


@case
def sigchld_ignored(tmp):
    # Inherited ignored, SIGCHLD would let the kernel reap the command and the run wait forever;
    # the command still inherits it ignored (strace's sigign).
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    script = 'import signal, sys; sys.exit(signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN and 7 or 0)'
    try:
        p = subprocess.run(tracekit('-e', 'none', '-o', out, sys.executable, '-c', script), timeout=60,
                           preexec_fn=lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        raise Fail('the run did not end within 60 s: the command was reaped by the kernel')
    expect(p.returncode == 7, 'the command ran with SIGCHLD ignored and its status came back, got %d: %s'
           % (p.returncode, p.stderr))
    expect(lines(out) == ['+++ exited with 7 +++'], 'its exit line: %r' % lines(out))


@case
def stop_and_continue_as_strace(tmp):
    # Nothing stops under --kernel, yet the lines are ptrace's: a delivered SIGSTOP is followed by
    # "--- stopped by SIGSTOP ---", and the SIGCONT that wakes the thread (dropped at generation:
    # ignored by default) shows once, when ptrace would report it.
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    script = ('import os, signal\n'
              'pid = os.fork()\n'
              'if pid == 0:\n'
              '    os.kill(os.getpid(), signal.SIGSTOP)\n'
              '    os._exit(3)\n'
              'os.waitpid(pid, os.WUNTRACED)\n'
              'os.kill(pid, signal.SIGCONT)\n'
              'os.waitpid(pid, 0)\n')
    rc, _, err = run(tracekit('-f', '-e', 'trace=none', '-e', 'signal=!SIGCHLD', '-o', out,
                              sys.executable, '-c', script))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    got = [re.sub(r' \{.*\} ---$', ' ---', re.sub(r'^\d+ +', '', l)) for l in lines(out)]
    want = ['--- SIGSTOP ---', '--- stopped by SIGSTOP ---', '--- SIGCONT ---', '+++ exited with 3 +++',
            '+++ exited with 0 +++']
    expect(got == want, 'the child stopped, continued and exited as strace says it: %r' % lines(out))


@case
def thread_execve_as_strace(tmp):
    # A thread's execve (tests/progs/thread_exec.c): the others' SIGKILL is no line, the leader's
    # call ends '= ?', '<pid changed to N ...>' and '+++ superseded by execve in pid N +++', as strace.
    # The thread's execve reads strings from pages nothing touched yet, which BPF cannot fault in
    # (docs/syscalls.md): its arguments are left out of the comparison.
    need_kernel_mode()
    if not shutil.which('strace'):
        raise Skip('strace is not installed')
    out = []
    for argv in (['strace'], tracekit()):
        log = os.path.join(tmp, 'log')
        rc, _, err = run(argv + ['-f', '-e', 'trace=execve,nanosleep,clock_nanosleep', '-o', log,
                                 prog('thread_exec')])
        expect(rc == 0, '%s: exit %d: %s' % (argv[0], rc, err))
        # pids of any width made equal, and the return column they push about
        out.append([re.sub(r'execve\((ADDR|"/proc).*, NULL', 'execve(...', re.sub(
                        r' {2,}= ', ' = ', re.sub(r'\b\d{2,}\b', 'N', re.sub(r'^\d+ +', 'N ', re.sub(r'0x[0-9a-f]+', 'ADDR', l)))))
                    for l in lines(log)])
    expect(out[0] == out[1], 'lines differ from strace\'s:\n  strace: %r\n  --kernel: %r' % tuple(out))
    expect(any('superseded by execve in pid' in l for l in out[1]), 'no superseded line: %r' % out[1])


@case
def nothing_left_loaded(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    p = subprocess.Popen(tracekit('-f', '-o', out, prog('sleeper')), stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 10
        ours = []
        while time.time() < deadline and len(ours) < 7:
            time.sleep(0.05)
            ours = programs_held_by(p.pid)
        expect(len(ours) == 7, 'the seven programs are loaded while tracing: %r' % ours)
        os.kill(p.pid, signal.SIGTERM)
        p.wait(timeout=10)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    # The kernel frees a closed program a moment later (RCU): give it a few seconds.
    deadline = time.time() + 5
    left = ours
    while left and time.time() < deadline:
        time.sleep(0.1)
        left = [i for i in loaded_programs() if i in ours]
    expect(not left, 'every program is unloaded after SIGTERM; still there: %r' % left)


@case
def fd_paths_after_the_process_is_gone(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    rc, _, err = run(tracekit('-y', '-e', 'trace=openat,read,close', '-o', out, 'cat', '/etc/hostname'))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    got = lines(out)
    cwd = re.escape(os.getcwd())
    for want in (r'openat\(AT_FDCWD<%s>, "/etc/hostname", O_RDONLY\) += 3</etc/hostname>' % cwd,
                 r'read\(3</etc/hostname>, ".*", 131072\) += \d+',
                 r'close\(3</etc/hostname>\) += 0',
                 r'close\(1<pipe:\[\d+\]>\) += 0'):  # our pipe, from before the trace
        expect(any(re.fullmatch(want, l) for l in got), '-y line %s in %r' % (want, got))


@case
def fd_paths_as_the_call_saw_them(tmp):
    """-y/-yy text is looked up while each call runs: a file renamed, deleted, its descriptor closed
    and reused, a socket before and after bind, each line with what its call saw."""
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    script = ('import os, socket\n'
              'fd = os.open("a", os.O_RDWR | os.O_CREAT)\n'
              'os.fsync(fd); os.rename("a", "b"); os.fsync(fd); os.unlink("b"); os.fsync(fd)\n'
              'os.close(fd); fd = os.open("/dev/null", os.O_RDONLY); os.lseek(fd, 0, 0); os.close(fd)\n'
              's = socket.socket(socket.AF_UNIX); s.bind("\\0tk-fds-%d" % os.getpid()); s.listen(1)\n')
    rc, _, err = run(tracekit('-yy', '-e', 'trace=fsync,lseek,close,bind,listen', '-o', out,
                              sys.executable, '-c', script), cwd=tmp)
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    got = [re.sub(r' +', ' ', l) for l in lines(out)]
    d = re.escape(os.path.realpath(tmp))
    want = [r'fsync\(3<%s/a>\) = 0' % d,
            r'fsync\(3<%s/b>\) = 0' % d,
            r'fsync\(3<%s/b>\(deleted\)\) = 0' % d,
            r'close\(3<%s/b>\(deleted\)\) = 0' % d,
            r'lseek\(3</dev/null<char 1:3>>, 0, SEEK_SET\) = 0',
            r'close\(3</dev/null<char 1:3>>\) = 0',
            r'bind\(3<UNIX-STREAM:\[(\d+)\]>, \{sa_family=AF_UNIX, sun_path=@"tk-fds-\d+"\}, \d+\) = 0',
            r'listen\(3<UNIX-STREAM:\[\d+,@"tk-fds-\d+"\]>, 1\) = 0']
    mine = [l for l in got if l.startswith(('fsync(', 'lseek(3</dev', 'bind(', 'listen(')) or
            (l.startswith('close(3<') and ('/dev/null' in l or '/b>' in l))]
    expect(len(mine) == len(want) and all(re.fullmatch(w, l) for w, l in zip(want, mine)),
           'what each call saw:\n  want %r\n  got  %r' % (want, mine))


@case
def decode_fds_lines_are_strace_s(tmp):
    """-yy and --decode-fds= on descriptors from before the trace (an inherited one, dups of it),
    devices opened and replaced: the same lines as strace's, the process long gone when printed."""
    need_kernel_mode()
    if not shutil.which('strace'):
        raise Skip('strace is not installed')
    inner = ['sh', '-c', 'exec 6<&5 7</dev/full; exec 6<&- 8<&7; exec 7</dev/zero; exec 7<&-']
    for opts in (['-yy'], ['--decode-fds=dev'], ['-y']):
        got = {}
        for who in ('strace', 'tracekit'):
            out = os.path.join(tmp, who)
            tracer = ['strace'] if who == 'strace' else tracekit()
            argv = (['sh', '-c', 'exec 5</dev/null; exec "$@"', '-'] + tracer + opts +
                    ['-e', 'trace=dup2,fcntl,close', '-o', out] + inner)
            rc, _, err = run(argv, cwd=tmp)
            expect(rc == 0, '%s %s: exit 0, got %d: %r' % (who, opts, rc, err))
            # the dynamic loader's close of ld.so.cache and libc: the same in both, but not ours
            got[who] = [re.sub(r' +', ' ', l) for l in lines(out) if not re.match(r'close\(3[<)]', l)]
        expect(got['strace'] == got['tracekit'] and len(got['strace']) > 5,
               '%s: strace\'s lines\n  strace   %r\n  tracekit %r' % (opts, got['strace'], got['tracekit']))


def tracefs_instances():
    for d in ('/sys/kernel/tracing/instances', '/sys/kernel/debug/tracing/instances'):
        if os.path.isdir(d):
            return os.listdir(d)
    raise Skip('tracefs is not mounted')


@case
def ftrace_fallback(tmp):
    need_kernel_mode()
    out = os.path.join(tmp, 't')
    p = subprocess.Popen(tracekit('=ftrace', '-f', '-o', out, prog('loop'), 'getppid', '3'),
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    _, err = p.communicate(timeout=60)
    err = err.decode()
    if p.returncode != 0 and 'tracefs is not mounted' in err:
        raise Skip('no tracefs here: %s' % err.strip())
    expect(p.returncode == 0, 'exit 0, got %d: %r' % (p.returncode, err))
    expect(len(err.splitlines()) == 1 and 'pointer arguments print as addresses' in err,
           'one line says pointers print as addresses: %r' % err)
    got = [re.sub(r'^\d+ +', '', l) for l in lines(out)]
    expect(got and re.match(r'^execve\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x[0-9a-f]+\) += 0$', got[0]),
           'starts at the command\'s execve, its pointers as addresses: %r' % got[:1])
    expect(names(got).count('getppid') == 3, 'three getppid lines: %r' % got)
    expect(got[-1] == '+++ exited with 0 +++', 'ends with the exit line: %r' % got[-1:])
    left = [i for i in tracefs_instances() if i.startswith('tracekit-%d-' % p.pid)]
    expect(not left, 'the instance is removed: %r' % left)


@case
def ftrace_instance_removed_on_sigterm(tmp):
    need_kernel_mode()
    p = subprocess.Popen(tracekit('=ftrace', '-o', os.path.join(tmp, 't'), prog('sleeper')),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        mine = []
        deadline = time.time() + 30
        while not mine and time.time() < deadline:
            time.sleep(0.05)
            mine = [i for i in tracefs_instances() if i.startswith('tracekit-%d-' % p.pid)]
        expect(mine, 'a private instance tracekit-%d-N while tracing' % p.pid)
        os.kill(p.pid, signal.SIGTERM)
        p.wait(timeout=60)  # a SIGTERM during setup ends the run once setup is done
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait()
    left = [i for i in tracefs_instances() if i.startswith('tracekit-%d-' % p.pid)]
    expect(not left, 'the instance is removed after SIGTERM: %r' % left)


@case
def bad_kernel_source(tmp):
    rc, _, err = run(tracekit('=ebpf', 'true')[:2] + ['--kernel=ebpf', 'true'])
    expect(rc == 2 and len(err.splitlines()) == 1 and 'bpf or ftrace' in err,
           '--kernel=ebpf is one line and exit 2: %d %r' % (rc, err))


# --- tracekit report --syscalls: the same decoders over a recording -------------------------

def report_tool(*args):
    path = os.environ.get('TRACEKIT')
    if not path or not os.access(path, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    return [path] + list(args)


@case
def report_syscalls(tmp):
    if os.geteuid() != 0:
        raise Skip('tracekit record needs root')
    dat = os.path.join(tmp, 'trace.dat')
    rc, _, err = run(report_tool('record', '-F', '-e', 'raw_syscalls', '-o', dat, prog('loop'), 'getppid', '5'))
    if rc != 0:
        raise Skip('tracekit record failed here: %s' % err.strip()[-300:])
    rc, out, err = run(report_tool('report', '--syscalls', dat))
    expect(rc == 0, 'exit 0, got %d: %r' % (rc, err))
    expect(len(err.splitlines()) == 1 and 'pointers print as addresses' in err,
           'one line says pointers print as addresses: %r' % err)
    line = re.compile(r'^\d+\.\d{6} (\d+) +getppid\(\) += (\d+)$')
    got = [line.match(l) for l in out.splitlines()]
    got = [m for m in got if m]
    expect(len(got) >= 5, 'the five getppid calls: %r' % out[-500:])
    # the loop's five (-F: no other process's getppid), one task, all returning the same parent
    tids = {m.group(1) for m in got[-5:]}
    expect(len(tids) == 1 and len({m.group(2) for m in got[-5:]}) == 1, 'one task, one parent: %r' % got[-5:])
    expect(re.search(r'^\d+\.\d{6} \d+ +execve\(0x[0-9a-f]+, 0x[0-9a-f]+, 0x[0-9a-f]+\) += 0$', out, re.M),
           'execve with its pointers as addresses: %r' % out[:500])


@case
def report_syscalls_none(tmp):
    if os.geteuid() != 0:
        raise Skip('tracekit record needs root')
    dat = os.path.join(tmp, 'trace.dat')
    rc, _, err = run(report_tool('record', '-e', 'sched:sched_process_exit', '-o', dat, 'true'))
    if rc != 0:
        raise Skip('tracekit record failed here: %s' % err.strip()[-300:])
    rc, out, err = run(report_tool('report', '--syscalls', dat))
    expect(rc == 1 and not out, 'a file without syscall events is exit 1, got %d' % rc)
    expect(len(err.splitlines()) == 1 and 'holds no syscall events' in err and dat in err,
           'one line names the file and how to record syscalls: %r' % err)


def main(argv):
    if '--progs' in argv:
        OPTIONS['progs'] = os.path.abspath(argv[argv.index('--progs') + 1])
    return run_case(argv, 'test_kernel_mode.py CASE --progs DIR | --list', tmp_prefix='tk-kernel-')


if __name__ == '__main__':
    sys.exit(main(sys.argv))

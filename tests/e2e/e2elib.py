"""What every e2e test script shares: cases by name, verdicts, running
children safely, the CI rule on skips, and tracefs leftovers checks.

A script defines functions with @case and ends with `sys.exit(main(...))`;
`script.py --list` prints the case names (meson registers one test each),
`script.py CASE ARGS...` runs one.  Outside CI a missing prerequisite skips
with its reason (exit 77); with CI=true it fails instead.
"""

import os
import signal
import subprocess
import sys
import tempfile

SKIP = 77
CASES = {}


class Skip(Exception):
    pass


class Fail(Exception):
    pass


def case(fn):
    CASES[fn.__name__.replace('_', '-')] = fn
    return fn


def expect(ok, what):
    if not ok:
        raise Fail(what)


def tracekit():
    path = os.environ.get('TRACEKIT')
    if not path or not os.access(path, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    return path


def tracefs():
    """The tracefs mount point; a skip (a failure in CI) without root or tracefs."""
    if os.geteuid() != 0:
        raise Skip('tracefs needs root')
    with open('/proc/mounts') as f:
        for line in f:
            fields = line.split()
            if len(fields) > 2 and fields[2] == 'tracefs':
                return fields[1]
    raise Skip('tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)')


def read(path):
    with open(path, errors='replace') as f:
        return f.read()


def kill_group(p):
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def start(argv, **kw):
    """A child in its own process group, so it and its children can be killed together."""
    return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, **kw)


def finish(p, timeout=60):
    """Wait for p; returns (status as a shell reports it, stdout, stderr). Kills on timeout."""
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(p)
        p.communicate()
        raise Fail('%s did not finish within %d s' % (p.args, timeout))
    finally:
        kill_group(p)
    rc = p.returncode if p.returncode >= 0 else 128 - p.returncode
    return rc, out.decode(errors='replace'), err.decode(errors='replace')


def run(argv, timeout=60, **kw):
    return finish(start(argv, **kw), timeout)


def instances_of(root, pid):
    """The tracefs instances a tracekit process with this pid made."""
    prefix = 'tracekit-%d-' % pid
    return [d for d in os.listdir(os.path.join(root, 'instances')) if d.startswith(prefix)]


def main(argv, usage, setup=None, tmp_prefix=None):
    """Run the case named in argv[1]; setup(argv) may return an argument for every case,
    or with tmp_prefix every case gets a fresh temporary directory, removed after it."""
    if argv[1:] == ['--list']:
        print('\n'.join(CASES))
        return 0
    if len(argv) < 2 or argv[1] not in CASES:
        print('usage: %s' % usage, file=sys.stderr)
        return 2
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda n, f: sys.exit('killed by signal %d' % n))
    try:
        arg = setup(argv) if setup else None
        if tmp_prefix:
            with tempfile.TemporaryDirectory(prefix=tmp_prefix) as tmp:
                CASES[argv[1]](tmp)
        else:
            CASES[argv[1]](arg)
    except Skip as e:
        if os.environ.get('CI') == 'true':
            print('FAIL (CI=true, cannot skip): %s' % e)
            return 1
        print('SKIP: %s' % e)
        return SKIP
    except Fail as e:
        print('FAIL: %s: %s' % (argv[1], e))
        return 1
    print('ok: %s' % argv[1])
    return 0

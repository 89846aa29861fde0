#!/usr/bin/env python3
"""e2e tests of the function tracers' refusals on the running kernel.

    test_functions.py CASE     # run one case
    test_functions.py --list   # the case names

The function tracers themselves are tested in the kernel lab (tests/kernel/cases/
ftrace-*.sh), on a kernel that runs them.  Here: a kernel that lacks a tracer or
refuses it gets one line naming the missing option or the refusal and exit 1, and
nothing is left in tracefs (no instance, the top level as it was, no borrow noted).
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import case, expect, instances_of, main, read, run, tracefs, tracekit  # noqa: E402

TOP_FILES = ('current_tracer', 'set_event', 'tracing_on', 'set_ftrace_pid', 'buffer_size_kb')


def top_state(root):
    state = {}
    for f in TOP_FILES:
        try:
            state[f] = read(os.path.join(root, f))
        except OSError as e:
            state[f] = 'unreadable: %s' % e.strerror
    return state


def available(root, tracer):
    return tracer in read(os.path.join(root, 'available_tracers')).split()


def instance_refuses(root, tracer):
    """What the kernel answers when an instance of our own is asked for tracer (errno or 0)."""
    d = os.path.join(root, 'instances', 'tracekit-%d-e2e' % os.getpid())
    os.mkdir(d)
    try:
        with open(os.path.join(d, 'current_tracer'), 'w') as f:
            f.write(tracer)
        with open(os.path.join(d, 'current_tracer'), 'w') as f:
            f.write('nop')
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.rmdir(d)


def record_refused(root, args, pattern, status=1):
    """tracekit record ARGS fails with exit status (1: the kernel refused) and one stderr
    line matching pattern."""
    before = top_state(root)
    with tempfile.TemporaryDirectory(prefix='tk-func-') as d:
        out = os.path.join(d, 'f.dat')
        import subprocess
        p = subprocess.Popen([tracekit(), 'record', '-o', out] + args + ['--', 'true'],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        o, e = p.communicate(timeout=60)
        err = e.decode()
        lines = err.strip().splitlines()
        expect(p.returncode == status, 'exit %d, wanted %d: %s' % (p.returncode, status, err))
        expect(len(lines) == 1, 'wanted one line on stderr: %r' % err)
        import re
        expect(re.search(pattern, lines[0]), '%r does not match %r' % (lines[0], pattern))
        expect(not os.path.exists(out), 'a file was written')
        expect(not instances_of(root, p.pid), 'instances left behind')
    expect(top_state(root) == before, 'the top level changed: %r' % top_state(root))
    expect(not os.path.exists('/run/tracekit/toplevel'), 'a top-level borrow is still noted')
    return lines[0]


@case
def function_refused(_):
    """-p function: the missing CONFIG_FUNCTION_TRACER, or the kernel's refusal, in one line."""
    root = tracefs()
    if not available(root, 'function'):
        record_refused(root, ['-p', 'function'],
                       r"^tracekit: record: this kernel has no function tracer \(it needs "
                       r"CONFIG_FUNCTION_TRACER; available_tracers: ")
        return
    e = instance_refuses(root, 'function')
    if e:
        record_refused(root, ['-p', 'function', '-l', 'vfs_read'],
                       r"^tracekit: record: the kernel refuses the function tracer")
        return
    # A kernel that runs it: the recording works (the lab tests the output).
    with tempfile.TemporaryDirectory(prefix='tk-func-') as d:
        rc, out, err = run([tracekit(), 'record', '-o', os.path.join(d, 'f.dat'), '-p',
                            'function', '-l', 'vfs_read', '-F', '--', 'cat', '/etc/hostname'])
        expect(rc == 0, 'record -p function failed: %s' % err)


@case
def function_graph_missing(_):
    """-p function_graph on a kernel without it names CONFIG_FUNCTION_GRAPH_TRACER."""
    root = tracefs()
    if available(root, 'function_graph'):
        e = instance_refuses(root, 'function_graph')
        if e in (1, 13):	# EPERM, EACCES: refused everywhere
            record_refused(root, ['-p', 'function_graph'],
                           r"^tracekit: record: the kernel refuses the function_graph tracer")
        return	# a kernel that runs it: the lab's ftrace-graph case is the test
    record_refused(root, ['-p', 'function_graph', '-g', 'vfs_read'],
                   r"^tracekit: record: this kernel has no function_graph tracer \(it needs "
                   r"CONFIG_FUNCTION_GRAPH_TRACER; available_tracers: ")


@case
def tracer_unknown(_):
    """-p with a name no kernel has: the kernel's list of tracers, a usage error (exit 2,
    as latency nosuch: docs/exit-status.md)."""
    root = tracefs()
    record_refused(root, ['-p', 'no_such_tracer'],
                   r"^tracekit: record: unknown tracer 'no_such_tracer' \(available_tracers: "
                   r"[a-z_ ]*nop", status=2)


@case
def graph_options_need_graph(_):
    """-g with -p function is a usage error (exit 2), before tracefs is touched."""
    rc, out, err = run([tracekit(), 'record', '-p', 'function', '-g', 'vfs_read', '--', 'true'])
    expect(rc == 2, 'exit %d, wanted 2: %s' % (rc, err))
    expect(err.strip() == 'tracekit: record: -g and --max-graph-depth need -p function_graph, '
           'not -p function', err)


def refused(root, argv, pattern, want_rc=1):
    """tracekit ARGV fails with want_rc and one stderr line matching pattern; tracefs as it was."""
    import re
    before = top_state(root)
    rc, out, err = run([tracekit()] + argv)
    lines = err.strip().splitlines()
    expect(rc == want_rc, 'exit %d, wanted %d: %s' % (rc, want_rc, err))
    expect(len(lines) == 1 and re.search(pattern, lines[0]), 'stderr %r does not match %r'
           % (err, pattern))
    expect(top_state(root) == before, 'the top level changed')
    expect(not os.path.exists('/run/tracekit/toplevel'), 'a top-level borrow is still noted')


@case
def stack_missing(_):
    """stack on a kernel without CONFIG_STACK_TRACER names it."""
    root = tracefs()
    if os.path.exists('/proc/sys/kernel/stack_tracer_enabled'):
        return	# a kernel that has it: the lab's ftrace-stack case is the test
    refused(root, ['stack', '--', 'true'],
            r"^tracekit: stack: this kernel has no stack tracer \(it needs CONFIG_STACK_TRACER; "
            r"/proc/sys/kernel/stack_tracer_enabled is missing\)$")


@case
def latency_missing(_):
    """latency irqsoff (in no Debian kernel) names CONFIG_IRQSOFF_TRACER; a bad name is usage."""
    root = tracefs()
    if not available(root, 'irqsoff'):
        refused(root, ['latency', 'irqsoff', '--', 'true'],
                r"^tracekit: latency: this kernel has no irqsoff tracer \(it needs "
                r"CONFIG_IRQSOFF_TRACER; available_tracers: ")
    refused(root, ['latency', 'sched_switch'],
            r"^tracekit: latency: 'sched_switch' is not a latency tracer \(irqsoff, ", 2)
    refused(root, ['latency'], r"^tracekit: latency: which tracer\? \(irqsoff, ", 2)


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_functions.py CASE | --list'))

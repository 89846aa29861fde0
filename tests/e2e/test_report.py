#!/usr/bin/env python3
"""e2e tests of `tracekit report` on the trace-cmd-made fixtures, one case per run.

    test_report.py CASE FIXTURE_DIR     # run one case
    test_report.py --list                # the case names

The binary is $TRACEKIT.  Every fixture tracecmd-*.dat has beside it the output
of `trace-cmd report -i FILE` (FILE.report.txt); options are checked against that
stored text, and against trace-cmd itself when it is installed (without it the
live comparisons skip, except with CI=true, where they fail).
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import Fail, Skip, case, expect, main  # noqa: E402

FIXTURES = None


def fixtures():
    names = sorted(f for f in os.listdir(FIXTURES) if re.match(r'tracecmd-.*\.dat$', f))
    expect(len(names) >= 3, 'fewer than 3 fixtures in %s' % FIXTURES)
    return [os.path.join(FIXTURES, f) for f in names]


def stored(path):
    with open(path + '.report.txt', encoding='utf-8', errors='surrogateescape') as f:
        return f.read().splitlines()


def report(*args, check=True):
    exe = os.environ.get('TRACEKIT')
    if not exe or not os.access(exe, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    p = subprocess.run([exe, 'report'] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    out = p.stdout.decode('utf-8', 'surrogateescape').splitlines()
    err = p.stderr.decode('utf-8', 'replace')
    if check and p.returncode != 0:
        raise Fail('tracekit report %s: exit %d: %s' % (' '.join(args), p.returncode, err))
    return p.returncode, out, err


def trace_cmd(*args):
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed: no live comparison')
    p = subprocess.run(['trace-cmd', 'report'] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, timeout=120)
    expect(p.returncode == 0, 'trace-cmd report %s failed' % ' '.join(args))
    return p.stdout.decode('utf-8', 'surrogateescape').splitlines()


def same_lines(got, want, what):
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            raise Fail('%s: line %d differs:\n  got:  %r\n  want: %r' % (what, i + 1, g, w))
    expect(len(got) == len(want), '%s: %d lines, want %d' % (what, len(got), len(want)))


# "comm-pid [cpu] secs.usecs: event: info"
LINE = re.compile(r'^(.{16})-(\d+) +\[(\d{3})\] +(\d+\.\d{6}): (\S+): +(.*)$')


def parse(line):
    m = LINE.match(line)
    expect(m, 'not a report line: %r' % line)
    return {'comm': m.group(1).strip(), 'pid': int(m.group(2)), 'cpu': int(m.group(3)),
            'ts': m.group(4), 'event': m.group(5), 'info': m.group(6)}


def events(lines):
    return [parse(l) for l in lines if not l.startswith('cpus=')]


@case
def matches_stored_report(_):
    for f in fixtures():
        _, out, _ = report('-i', f)
        same_lines(out, stored(f), os.path.basename(f))


@case
def matches_live_trace_cmd(_):
    for f in fixtures():
        _, out, _ = report('-i', f)
        same_lines(out, trace_cmd('-i', f), os.path.basename(f) + ' (live trace-cmd)')


@case
def default_input_is_trace_dat(_):
    f = fixtures()[0]
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(f, os.path.join(d, 'trace.dat'))
        cwd = os.getcwd()
        os.chdir(d)
        try:
            _, out, _ = report()
        finally:
            os.chdir(cwd)
    same_lines(out, stored(f), 'report without -i in a directory holding trace.dat')


@case
def file_after_the_options(_):
    """`report FILE` as trace-cmd takes it; FILE... as -i FILE -i FILE (merged); files given
    both ways are a one-line error."""
    f, g = fixtures()[:2]
    _, out, _ = report('--cpu', '0', f)
    _, want, _ = report('--cpu', '0', '-i', f)
    expect(out == want and out, 'report FILE differs from report -i FILE')
    rc, out, err = report('-i', f, g, check=False)
    expect(rc == 2 and err.count('\n') == 1 and 'both ways' in err, 'two files: %r' % err)
    _, out, _ = report(f, g)
    _, want, _ = report('-i', f, '-i', g)
    expect(out == want and out, 'report FILE FILE differs from report -i FILE -i FILE')


def switch_next_pid(info):
    m = re.search(r'==> .*:(\d+) \[', info)
    expect(m, 'sched_switch text without next pid: %r' % info)
    return int(m.group(1))


@case
def filter_by_event_and_field(_):
    f = os.path.join(FIXTURES, 'tracecmd-v7zstd.dat')
    evs = events(stored(f))
    pid = next(e for e in evs if e['event'] == 'sched_switch' and
               switch_next_pid(e['info']) != 0)
    pid = switch_next_pid(pid['info'])
    _, out, _ = report('-i', f, '-F', 'sched_switch: next_pid == %d' % pid)
    want = [l for l in stored(f)[1:] if parse(l)['event'] == 'sched_switch' and
            switch_next_pid(parse(l)['info']) == pid]
    expect(want, 'no sched_switch to pid %d in the fixture' % pid)
    same_lines(out[1:], want, '-F next_pid == %d' % pid)
    _, out, _ = report('-i', f, '-F', 'sched_wakeup')
    want = [l for l in stored(f)[1:] if parse(l)['event'] == 'sched_wakeup']
    same_lines(out[1:], want, '-F sched_wakeup')
    # Several -F add up; a system regex selects its events.
    _, out, _ = report('-i', f, '-F', 'sched_wakeup', '-F', 'sched_switch: prev_pid == 0')
    want = [l for l in stored(f)[1:] if parse(l)['event'] == 'sched_wakeup' or
            (parse(l)['event'] == 'sched_switch' and parse(l)['pid'] == 0)]
    same_lines(out[1:], want, '-F sched_wakeup -F prev_pid == 0')
    _, out, _ = report('-i', f, '-F', 'sched/.*')
    same_lines(out, stored(f), '-F sched/.*')


@case
def bad_filter_is_one_line(_):
    f = fixtures()[0]
    rc, out, err = report('-i', f, '-F', 'sched_switch: no_such_field == 1', check=False)
    expect(rc != 0, 'a filter on an unknown field succeeded')
    expect(err.count('\n') == 1 and 'no_such_field' in err, 'error: %r' % err)


@case
def unknown_filter_field_names_the_fields(_):
    f = os.path.join(FIXTURES, 'tracecmd-v7zstd.dat')
    rc, out, err = report('-i', f, '-F', 'sched_switch: nxt_pid > 0', check=False)
    expect(rc == 2, 'an unknown field is a usage error (exit 2), got %d: %r' % (rc, err))
    expect(not out, 'nothing printed: %r' % out[:3])
    expect(err.count('\n') == 1, 'one line: %r' % err)
    expect("sched:sched_switch has no field 'nxt_pid' (its fields, closest first: next_pid, "
           in err, 'the field, the event and its fields closest first: %r' % err)


@case
def unknown_filter_event_is_named(_):
    f = os.path.join(FIXTURES, 'tracecmd-v7zstd.dat')
    rc, out, err = report('-i', f, '-F', 'sched_swich: next_pid > 0', check=False)
    expect(rc == 2 and not out, 'an unknown event is a usage error (exit 2), got %d' % rc)
    expect(err.count('\n') == 1 and "no event 'sched_swich'" in err and
           'did you mean sched_switch' in err, 'names the event and the closest: %r' % err)


def tool(*args):
    exe = os.environ.get('TRACEKIT')
    if not exe or not os.access(exe, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    p = subprocess.run([exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    return p.returncode, p.stdout.decode(errors='replace'), p.stderr.decode(errors='replace')


BUFFERS = 'buffers-tracecmd.dat'


@case
def every_buffer_as_trace_cmd_prints_it(_):
    """A file trace-cmd record -B wrote: sched_wakeup in the top-level buffer, sched_switch in
    the instance tkfixture.  Every buffer, each line prefixed as trace-cmd 3.1.6 does."""
    f = os.path.join(FIXTURES, BUFFERS)
    want = stored(f)
    expect(sum(1 for l in want if l.startswith('tkfixture: ')) > 100, 'fixture: few instance lines')
    _, out, _ = report('-i', f)
    same_lines(out, want, BUFFERS)
    _, out, _ = report('--json', f)
    docs = [json.loads(l) for l in out]
    expect(len(docs) == len(want) - 1, 'json: %d lines for %d events' % (len(docs), len(want) - 1))
    expect({(d['buffer'], d['event']) for d in docs} ==
           {(None, 'sched:sched_wakeup'), ('tkfixture', 'sched:sched_switch')},
           'json buffers: %r' % {(d['buffer'], d['event']) for d in docs})
    try:
        live = trace_cmd('-i', f)
    except Skip:
        return
    _, text, _ = report('-i', f)
    same_lines(text, live, BUFFERS + ' (live trace-cmd)')


@case
def pick_a_buffer(_):
    """-B NAME: only that instance's lines; --top: only the top-level ones; both: all."""
    f = os.path.join(FIXTURES, BUFFERS)
    want = stored(f)
    inst = [want[0]] + [l for l in want[1:] if l.startswith('tkfixture: ')]
    top = [want[0]] + [l for l in want[1:] if not l.startswith('tkfixture: ')]
    _, out, _ = report('-B', 'tkfixture', f)
    same_lines(out, inst, '-B tkfixture')
    _, out, _ = report('--top', f)
    same_lines(out, top, '--top')
    _, out, _ = report('--buffer', 'tkfixture', '--top', f)
    same_lines(out, want, '-B tkfixture --top')
    rc, out, err = report('-B', 'nosuch', f, check=False)
    expect(rc != 0 and not out and err.count('\n') == 1 and "no buffer 'nosuch'" in err and
           'tkfixture' in err, '-B nosuch: exit %d, %r' % (rc, err))
    rc, out, err = report('-B', 'tkfixture', os.path.join(FIXTURES, 'tracecmd-v7.dat'), check=False)
    expect(rc != 0 and err.count('\n') == 1 and "no buffer 'tkfixture'" in err,
           'a file without instances: %r' % err)


@case
def sched_view_export_read_every_buffer(_):
    """The switches are in the instance: sched sees them, view draws them, export has them;
    with --top there are none."""
    f = os.path.join(FIXTURES, BUFFERS)
    switches = sum(1 for l in stored(f) if l.startswith('tkfixture: ') and 'sched_switch:' in l)
    rc, out, err = tool('sched', '--json', f)
    expect(rc == 0, 'sched: %s' % err)
    got = json.loads(out)['switch_events']
    expect(got == switches, 'sched reads %d switches of %d' % (got, switches))
    # No switches: said so, and no tables inferred from wakeups (they had empty names).
    rc, out, err = tool('sched', '--json', '--top', f)
    doc = json.loads(out) if rc == 0 else {}
    expect(doc.get('switch_events') == 0 and doc['processes'] == [] and doc['cpus'] == [] and
           'no sched_switch' in doc['selected_by'], 'sched --json --top: %s%s' % (err, out[:300]))
    rc, out, err = tool('sched', '--top', f)
    expect(rc == 0 and 'no sched_switch events in the window or in the buffers read' in out and
           'which task ran where is not known, so no figures are given' in out and
           'run ms' not in out and 'parallelism' not in out, 'sched --top: %s' % out[:600])
    with tempfile.TemporaryDirectory(prefix='tk-buffers-') as tmp:
        page = os.path.join(tmp, 'x.html')
        rc, _, err = tool('view', '-o', page, f)
        expect(rc == 0 and os.path.getsize(page) > 0, 'view: exit %d: %s' % (rc, err))
        out_json = os.path.join(tmp, 'x.json')
        rc, _, err = tool('export', '-f', 'chrome', '-o', out_json, f)
        expect(rc == 0, 'export: exit %d: %s' % (rc, err))
        with open(out_json) as j:
            doc = json.load(j)
        evs = doc['traceEvents'] if isinstance(doc, dict) else doc
        slices = sum(1 for e in evs if e.get('ph') == 'X')
        expect(slices > switches / 2, 'export: %d slices for %d switches' % (slices, switches))


@case
def sched_view_export_take_the_same_filters(_):
    """-F in sched, view and export: checked like report's, and only matching events pass."""
    f = os.path.join(FIXTURES, 'tracecmd-v7zstd.dat')
    with tempfile.TemporaryDirectory(prefix='tk-filter-') as tmp:
        out_of = {'sched': [], 'view': ['-o', os.path.join(tmp, 'x.html')],
                  'export': ['-f', 'chrome', '-o', os.path.join(tmp, 'x.json')]}
        for verb, extra in out_of.items():
            rc, out, err = tool(verb, *extra, '-F', 'sched_switch: nxt_pid > 0', f)
            expect(rc == 2 and not out, '%s: an unknown field is exit 2, got %d' % (verb, rc))
            expect(err.count('\n') == 1 and err.startswith('tracekit: %s: ' % verb) and
                   "sched:sched_switch has no field 'nxt_pid'" in err,
                   '%s: one line naming the field: %r' % (verb, err))
            expect(not os.listdir(tmp), '%s left a file: %s' % (verb, os.listdir(tmp)))
        want = sum(1 for e in events(stored(f)) if e['event'] == 'sched_wakeup')
        rc, _, err = tool('export', *out_of['export'], '-F', 'sched_wakeup', f)
        expect(rc == 0, 'export -F sched_wakeup: exit %d: %s' % (rc, err))
        with open(out_of['export'][-1]) as j:
            doc = json.load(j)
        evs = doc['traceEvents'] if isinstance(doc, dict) else doc
        kinds = {(e.get('ph'), e.get('name')) for e in evs if e.get('ph') != 'M'}
        got = sum(1 for e in evs if e.get('name') == 'sched:sched_wakeup')
        expect(kinds == {('i', 'sched:sched_wakeup')} and got == want,
               'export -F sched_wakeup: %d wakeups of %d, and only them: %s' % (got, want, kinds))
        rc, out, err = tool('sched', '-F', 'sched_switch: prev_pid != 0', f)
        expect(rc == 0 and "note: only the events -F 'sched_switch: prev_pid != 0' matches "
               "are analysed" in out, 'sched -F says what it analyses: %r' % out[:400])


@case
def bad_filters_are_one_line_not_a_crash(_):
    """libtraceevent's filter parser crashes on these (seen by fuzzing): refused first."""
    f = os.path.join(FIXTURES, 'tracecmd-v7zstd.dat')
    for flt in ('sched_switch: next_pid ==', 'sched_switch: next_pid == 1 &&',
                'sched_switch: prev_comm == "sh', "sched_switch: next_pid == '1",
                'sched_switch: next_pid ~', 'sched/.*: pid > 0 && COMM\x17== "sh"',
                'sched_switch: (next_pid == 1', 'sched_switch: next_pid > 0 && !next_pid',
                'sched_switch: next_pid > 0 && prev_comm > "sh"',
                'sched_switch: prev_comm == "a,b"', 'sched_switch: prev_comm == "a\tb"'):
        rc, out, err = report('-i', f, '-F', flt, check=False)
        expect(rc == 2 and not out, '%r: exit 2 and no output, got %d' % (flt, rc))
        expect(err.count('\n') == 1 and err.startswith('tracekit: report: '),
               '%r: one error line: %r' % (flt, err))


@case
def filter_names_that_are_not_fields(_):
    """Strings, numbers, COMM and CPU are not taken for unknown fields."""
    f = os.path.join(FIXTURES, 'tracecmd-v7zstd.dat')
    rc, out, err = report('-i', f, '-F',
                          'sched_switch: prev_comm == "no_such_task" || CPU == 0x7 || COMM ~ "x1"',
                          check=False)
    expect(rc == 0 and not err, 'a filter with strings, CPU and COMM is accepted: %d %r' % (rc, err))


@case
def cpu_selection(_):
    f = os.path.join(FIXTURES, 'tracecmd-v6.dat')
    for cpus, keep in [('1', {1}), ('0', {0}), ('0,1', {0, 1})]:
        _, out, _ = report('-i', f, '--cpu', cpus)
        want = [stored(f)[0]] + [l for l in stored(f)[1:] if parse(l)['cpu'] in keep]
        same_lines(out, want, '--cpu %s' % cpus)
    rc, _, err = report('-i', f, '--cpu', '7', check=False)
    expect(rc != 0 and 'CPUs 0-1' in err, '--cpu 7 of a 2-CPU file: %r' % err)


@case
def time_window(_):
    f = os.path.join(FIXTURES, 'tracecmd-v7.dat')
    lines = stored(f)[1:]
    a, b = parse(lines[len(lines) // 4])['ts'], parse(lines[len(lines) // 2])['ts']
    # Lines show ts rounded to the microsecond: one printed as A has ns in
    # [A - 500, A + 499], so --from A-0.5us --to B+0.499us keeps exactly the
    # lines printed from A to B.
    def ns_edge(us_text, delta_us, ns):
        us = int(us_text.replace('.', '')) + delta_us
        return '%d.%06d%03d' % (us // 10**6, us % 10**6, ns)
    lo, hi = ns_edge(a, -1, 500), ns_edge(b, 0, 499)
    _, out, _ = report('-i', f, '--from', lo, '--to', hi)
    want = [l for l in lines if float(a) <= float(parse(l)['ts']) <= float(b)]
    same_lines(out[1:], want, '--from %s --to %s' % (lo, hi))
    _, out, _ = report('-i', f, '--from', ns_edge(b, -1, 500))
    want = [l for l in lines if float(parse(l)['ts']) >= float(b)]
    same_lines(out[1:], want, '--from %s' % b)
    rc, _, err = report('-i', f, '--from', 'soon', check=False)
    expect(rc == 2 and err.count('\n') == 1, '--from soon: exit %d %r' % (rc, err))


@case
def json_lines(_):
    f = os.path.join(FIXTURES, 'tracecmd-mixed-v7zstd.dat')
    _, out, _ = report('-i', f, '--json')
    text = events(stored(f))
    expect(len(out) == len(text), '%d JSON lines for %d events' % (len(out), len(text)))
    for line, t in zip(out, text):
        o = json.loads(line)
        expect(o['event'].split(':')[1] == t['event'], 'event %r vs %r' % (o, t))
        expect(o['cpu'] == t['cpu'] and o['pid'] == t['pid'], 'cpu/pid %r vs %r' % (o, t))
        expect(o['comm'][:16] == t['comm'][-16:] or t['comm'] == '<...>', 'comm %r' % o)
        us = (o['ts'] + 500) // 1000
        expect('%d.%06d' % (us // 10**6, us % 10**6) == t['ts'],
               'ts %d vs %s' % (o['ts'], t['ts']))
        fl = o['fields']
        if t['event'] == 'sys_enter':
            expect(isinstance(fl['args'], list) and len(fl['args']) == 6, 'args %r' % fl)
            m = re.match(r'NR (\d+) \((.*)\)', t['info'])
            expect(fl['id'] == int(m.group(1)), 'id %r' % fl)
            want = [int(x, 16) for x in m.group(2).split(', ')]
            expect([a & 0xffffffffffffffff for a in fl['args']] == want,
                   'args %r vs %r' % (fl['args'], want))
        if t['event'] == 'sched_process_exec':
            m = re.match(r'filename=(.*) pid=(\d+) old_pid=(\d+)$', t['info'])
            expect(fl['filename'] == m.group(1) and fl['pid'] == int(m.group(2)),
                   'exec fields %r vs %r' % (fl, t['info']))
        if t['event'] == 'sched_process_fork':
            expect(isinstance(fl['parent_comm'], str) and isinstance(fl['child_pid'], int),
                   'fork fields %r' % fl)


@case
def stat_counts(_):
    for f in fixtures():
        _, out, _ = report('-i', f, '--stat')
        evs = events(stored(f))
        text = '\n'.join(out)
        expect('Events: %d' % len(evs) in text, '%s: total: %s' % (f, text))
        per_event = {}
        for e in evs:
            per_event[e['event']] = per_event.get(e['event'], 0) + 1
        for name, n in per_event.items():
            expect(re.search(r'^  \S+:%s +%d$' % (re.escape(name), n), text, re.M),
                   '%s: %s count %d missing from:\n%s' % (f, name, n, text))
        for cpu in (0, 1):
            n = sum(1 for e in evs if e['cpu'] == cpu)
            expect(re.search(r'^  %d +%d +0 +0$' % (cpu, n), text, re.M),
                   '%s: CPU %d: %d events, 0 lost, 0 overrun missing from:\n%s' %
                   (f, cpu, n, text))


@case
def truncated_files_fail_cleanly(_):
    with tempfile.TemporaryDirectory() as d:
        cut = os.path.join(d, 'cut.dat')
        for f in fixtures():
            data = open(f, 'rb').read()
            # Everything but the tail of a v7 file (its string table) is needed.
            for at in [7, 16, 200, 2000, len(data) // 3, len(data) // 2,
                       len(data) * 3 // 4, len(data) - 4096]:
                with open(cut, 'wb') as o:
                    o.write(data[:at])
                rc, out, err = report('-i', cut, check=False)
                what = '%s cut at %d' % (os.path.basename(f), at)
                expect(rc == 1, '%s: exit %d (want 1): %r' % (what, rc, err))
                expect(err.count('\n') == 1 and err.startswith('tracekit: report: ' + cut),
                       '%s: want one error line naming the file, got %r' % (what, err))
                expect(re.search(r'truncated in the .* at offset 0x[0-9a-f]+', err),
                       '%s: no section/offset in %r' % (what, err))
                expect(not out, '%s: printed %d lines' % (what, len(out)))


@case
def empty_file_says_empty(_):
    with tempfile.TemporaryDirectory() as d:
        empty = os.path.join(d, 'empty.dat')
        open(empty, 'wb').close()
        rc, out, err = report('-i', empty, check=False)
    expect(rc == 1 and not out, 'exit 1 and no output, got %d: %r' % (rc, out))
    expect(err == 'tracekit: report: %s: file is empty (no trace was written to it)\n' % empty,
           'one line saying the file is empty: %r' % err)


@case
def v6_cut_in_cpu_data_names_it(_):
    f = os.path.join(FIXTURES, 'tracecmd-v6.dat')
    data = open(f, 'rb').read()
    with tempfile.TemporaryDirectory() as d:
        cut = os.path.join(d, 'cut.dat')
        with open(cut, 'wb') as o:
            o.write(data[:len(data) - 100])
        rc, _, err = report('-i', cut, check=False)
    expect(rc == 1 and re.search(r'truncated in the CPU 1 data at offset 0x%x'
                                 % (len(data) - 100), err), err)


@case
def not_a_trace_file(_):
    rc, _, err = report('-i', __file__, check=False)
    expect(rc == 1 and 'not a trace.dat file' in err and err.count('\n') == 1, err)
    rc, _, err = report('-i', '/nonexistent/trace.dat', check=False)
    expect(rc == 1 and 'No such file' in err, err)


def report_env(env, *args):
    """tracekit report with extra environment: (lines, stderr)."""
    exe = os.environ.get('TRACEKIT')
    if not exe or not os.access(exe, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    p = subprocess.run([exe, 'report'] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600, env=dict(os.environ, **env))
    err = p.stderr.decode('utf-8', 'replace')
    expect(p.returncode == 0, 'tracekit report %s: exit %d: %s' % (' '.join(args), p.returncode, err))
    return p.stdout.decode('utf-8', 'surrogateescape').splitlines(), err


def fast_vs_reference(path, *args, want_compiled=()):
    """The fast path's lines against libtracecmd + tep_print_event's, line by line."""
    fast, err = report_env({'TRACEKIT_REPORT_DEBUG': '1'}, '-i', path, *args)
    m = re.search(r'reader: (.*); printer: (\d+) formats compiled, \d+ on the reference '
                  r'printer:? ?(.*)', err)
    expect(m, 'no TRACEKIT_REPORT_DEBUG line: %r' % err)
    expect(m.group(1) == 'fast', '%s: the fast reader is not used: %s' % (path, m.group(1)))
    expect(int(m.group(2)) > 0, '%s: no format compiled' % path)
    generic = m.group(3).split(', ') if m.group(3) else []
    for name in want_compiled:
        expect(name not in generic, '%s: %s is left to the reference printer' % (path, name))
    ref, _ = report_env({'TRACEKIT_REPORT_GENERIC': '1'}, '-i', path, *args)
    expect(len(fast) > 1, '%s: no events' % path)
    same_lines(fast, ref, '%s %s: fast path vs reference' % (os.path.basename(path), ' '.join(args)))
    return fast


@case
def fast_path_matches_reference_on_fixtures(_):
    for f in fixtures():
        fast_vs_reference(f, want_compiled=('sched_switch', 'sched_wakeup'))
        fast_vs_reference(f, '--cpu', '1')
        fast_vs_reference(f, '-F', 'sched/.*')
        ts = events(stored(f))[len(stored(f)) // 2]['ts']
        fast_vs_reference(f, '--from', ts)


def live_instances(pid):
    d = '/sys/kernel/tracing/instances'
    return [i for i in os.listdir(d) if i.startswith('tracekit-%d-' % pid)] if os.path.isdir(d) else []


@case
def fast_path_matches_reference_on_live_recording(_):
    """A few seconds of sched, raw_syscalls and irq events from the whole system, under a
    syscall load, as tracekit writes it and as trace-cmd converts it (zstd v7, v6)."""
    if os.geteuid() != 0:
        raise Skip('not root: cannot record')
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd is not installed: no zstd/v6 conversions')
    exe = os.environ.get('TRACEKIT')
    if not exe or not os.access(exe, os.X_OK):
        raise Skip('TRACEKIT is not set to an executable tracekit binary')
    with tempfile.TemporaryDirectory() as d:
        dat = os.path.join(d, 'live.dat')
        rec = subprocess.Popen([exe, 'record', '-q', '-e', 'sched', '-e', 'raw_syscalls',
                                '-e', 'irq', '-b', '8192', '--duration', '3', '--max-size', '24',
                                '-o', dat],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        load = subprocess.Popen(['sh', '-c', 'i=0; while [ $i -lt 3000 ]; do '
                                 'cat /proc/self/stat > /dev/null; i=$((i+1)); done'])
        load.wait(timeout=120)
        _, err = rec.communicate(timeout=120)
        expect(rec.returncode == 0, 'tracekit record: exit %d: %s' % (rec.returncode, err))
        expect(not live_instances(rec.pid), 'instances left: %r' % live_instances(rec.pid))
        files = [dat]
        for name, opts in (('zstd-v7', ['--file-version', '7', '--compression', 'zstd']),
                           ('v6', ['--file-version', '6', '--compression', 'none'])):
            out = os.path.join(d, name + '.dat')
            p = subprocess.run(['trace-cmd', 'convert', '-i', dat, '-o', out] + opts,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
            expect(p.returncode == 0, 'trace-cmd convert %s: %s' % (name, p.stderr[-300:]))
            files.append(out)
        for f in files:
            lines = fast_vs_reference(f, want_compiled=('sys_enter', 'sys_exit', 'sched_switch',
                                                        'sched_waking'))
            expect(len(lines) > 10000, '%s: only %d lines' % (f, len(lines)))


def setup(argv):
    global FIXTURES
    if len(argv) != 3:
        raise Fail('usage: test_report.py CASE FIXTURE_DIR')
    FIXTURES = argv[2]


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_report.py CASE FIXTURE_DIR | --list', setup))

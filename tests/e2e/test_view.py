#!/usr/bin/env python3
"""e2e tests of `tracekit view`: pages made from real recordings, checked in
Debian's chromium driven headless by view_browser.mjs (npm's playwright-core).

    test_view.py CASE --progs DIR [--shot FILE] [--funcgraph DAT]
                                                 # run one case (DIR: the built tests/progs;
                                                 # DAT: view-function-graph's recording)
    test_view.py --list                          # the case names

The expected numbers come from `tracekit report --stat` on the same file.
Without chromium or playwright-core the browser cases skip (fail with CI=true);
scripts/install-deps.sh installs both.
"""

import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2elib import Skip, case, expect, instances_of, main, run, tracefs, tracekit  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
OPTIONS = {}
# Markup that must stay text: it names an executable (exec's filename field) and,
# cut to the 15 bytes a comm holds, the task that runs it.
XSS_PATH = '</script><script>alert(1)</script>'
XSS_COMM = '</script><b>x'


class Env:
    def __init__(self):
        self.root = tracefs()
        self.dir = tempfile.mkdtemp(prefix='tk-view-')

    def path(self, name):
        return os.path.join(self.dir, name)

    def record(self, argv, name='trace.dat'):
        out = self.path(name)
        rc, _, err = run([tracekit(), 'record', '-o', out] + argv, timeout=120)
        expect(rc == 0, 'record failed (%d): %s' % (rc, err))
        return out

    def view(self, dat, *extra):
        html = dat[:-4] + '.html'
        rc, out, err = run([tracekit(), 'view', '-i', dat, '-o', html] + list(extra), timeout=120)
        expect(rc == 0, 'view failed (%d): %s' % (rc, err))
        expect(out == '', 'view printed on stdout: %r' % out)
        return html

    def close(self):
        left = instances_of(self.root, os.getpid())
        shutil.rmtree(self.dir, ignore_errors=True)
        expect(not left, 'instances left in tracefs: %s' % left)


def stat(dat):
    """Total events, events per type and CPU count from `tracekit report --stat`."""
    rc, out, err = run([tracekit(), 'report', '-i', dat, '--stat'])
    expect(rc == 0, 'report --stat failed: %s' % err)
    types = {m.group(1): int(m.group(2)) for m in re.finditer(r'^  (\S+:\S+)\s+(\d+)$', out, re.M)}
    total = int(re.search(r'^Events: (\d+)', out, re.M).group(1))
    cpus = int(re.search(r'^CPUs: (\d+)', out, re.M).group(1))
    return total, types, cpus


def browser_ready():
    if not os.access(CHROMIUM, os.X_OK):
        raise Skip('%s not found (apt-get install chromium, or scripts/install-deps.sh)' % CHROMIUM)
    if not os.path.isdir(os.path.join(HERE, 'node_modules', 'playwright-core')):
        raise Skip('playwright-core is not installed (npm ci in tests/e2e, or scripts/install-deps.sh)')
    if not shutil.which('node'):
        raise Skip('node not found (apt-get install nodejs)')


def browser(html, *args):
    """What chromium saw on the page (view_browser.mjs's JSON)."""
    browser_ready()
    rc, out, err = run(['node', os.path.join(HERE, 'view_browser.mjs'), html] + list(args),
                       timeout=180)
    expect(rc == 0, 'view_browser.mjs failed (%d): %s' % (rc, err[-2000:]))
    seen = json.loads(out)
    expect(not seen['errors'], 'script errors on the page: %s' % seen['errors'])
    expect(not seen['requests'], 'the page made network requests: %s' % seen['requests'])
    expect(not seen['dialogs'], 'the page opened dialogs: %s' % seen['dialogs'])
    return seen


def lanes(seen, kind):
    return [lane['label'] for lane in seen['initial']['lanes'] if lane['kind'] == kind]


@case
def view_threads(_):
    """The bundled threads program: lanes, counts, zoom, search, click, screenshot."""
    env = Env()
    try:
        dat = env.record([os.path.join(OPTIONS['progs'], 'threads')])
        total, _, cpus = stat(dat)
        html = env.view(dat)
        shot = OPTIONS.get('shot') or env.path('view.png')
        rc, execs, err = run([tracekit(), 'report', '-i', dat, '-F', 'sched_process_exec'])
        expect(rc == 0, 'report -F failed: %s' % err)
        nexec = sum('progs/threads' in line for line in execs.splitlines())
        seen = browser(html, '--search', 'sched_process_exec progs/threads', '--screenshot', shot)
        first = seen['initial']
        expect(len(lanes(seen, 'cpu')) == cpus, 'CPU lanes %s, trace has %d CPUs' %
               (lanes(seen, 'cpu'), cpus))
        # The program's main thread and its four workers get task lanes.
        tasks = lanes(seen, 'task')
        expect(len(tasks) == 5 and all(t.startswith('threads ') for t in tasks),
               'task lanes: %s' % tasks)
        expect(first['events'] == total and first['kept'] == total and first['listed'] == total,
               'page has %d events (%d kept, %d listed), report --stat %d' %
               (first['events'], first['kept'], first['listed'], total))
        expect(first['notice'] == '', 'notice on a small trace: %r' % first['notice'])
        span = first['view'][1] - first['view'][0]
        key = seen['after_key'][1] - seen['after_key'][0]
        wheel = seen['after_wheel'][1] - seen['after_wheel'][0]
        drag = seen['after_drag'][1] - seen['after_drag'][0]
        expect(abs(key - span / 2) < span * 0.01, "'+' zoomed %g -> %g" % (span, key))
        expect(wheel < key * 0.95, 'wheel did not zoom in: %g -> %g' % (key, wheel))
        expect(abs(drag - span / 4) < span * 0.03, 'drag over a quarter gave %g of %g' % (drag, span))
        expect(seen['after_reset'] == first['view'], "'0' did not show the whole trace")
        # Search: the program's exec as often as report shows it; clicking it shows its fields.
        found = seen['search']
        expect(nexec >= 1 and found['listed'] == nexec,
               'search listed %d, report -F %d' % (found['listed'], nexec))
        details = dict(seen['clicked_row']['details'])
        expect(details.get('filename', '').endswith('/threads'), 'details: %s' % details)
        expect(details.get('task', '').startswith('threads-'), 'details: %s' % details)
        # Clicking at an event's tick selects that event and sets marker A; shift-click B.
        click = seen['timeline_click']
        expect(click['selected'] == click['wanted'], 'timeline click selected %d, wanted %d' %
               (click['selected'], click['wanted']))
        expect(dict(click['details']).get('cpu') is not None, 'no details after a timeline click')
        expect(re.search(r'A \d+\.\d{6}\s+B \d+\.\d{6}\s+\u0394 ', seen['markers']),
               'markers: %r' % seen['markers'])
        expect(os.path.getsize(shot) > 10000, 'screenshot %s is too small' % shot)
        # The page carries tracekit sched's summary of the same file.
        rc, text, err = run([tracekit(), 'sched', '-i', dat])
        expect(rc == 0, 'sched failed: %s' % err)
        expect(first['sched'] and 'process threads' in first['sched'] and
               first['sched'].strip() == text.strip(),
               'page summary differs from tracekit sched:\n%s\n---\n%s' % (first['sched'], text))
    finally:
        env.close()


def scaling(env, *args):
    """A recording of examples/scaling (threads and a mutex), with syscalls."""
    prog = os.path.join(OPTIONS['progs'], '..', '..', 'examples', 'scaling')
    return env.record(['-b', '16384', '-e', 'sched', '-e', 'raw_syscalls', prog] + list(args))


def sched_json(dat, *args):
    rc, out, err = run([tracekit(), 'sched', '-i', dat, '--json'] + list(args))
    expect(rc == 0, 'sched failed (%d): %s' % (rc, err))
    return json.loads(out)


def seconds(ns):
    return '%d.%09d' % (ns // 1000000000, ns % 1000000000)


@case
def view_busy_matches_sched(_):
    """Each CPU lane is drawn as busy as tracekit sched says, at the whole trace and zoomed in."""
    env = Env()
    try:
        dat = scaling(env, '4', '200', '50', '100')
        seen = browser(env.view(dat), '--busy', '--shots', OPTIONS.get('shot') or env.path('busy'))
        expect(len(seen['busy']) == 4, 'zoom levels measured: %d' % len(seen['busy']))
        for level in seen['busy']:
            t0 = level['t0']
            lo, hi = (int(round(t0 + x)) for x in level['view'])
            doc = sched_json(dat, '--from', seconds(lo), '--to', seconds(hi))
            want = {'CPU %d' % c['cpu']: c['busy_pct'] for c in doc['cpus']}
            for lane in level['lanes']:
                drawn = lane['busy'] * 100
                expect(lane['label'] in want, 'no sched figure for %s' % lane['label'])
                expect(abs(drawn - want[lane['label']]) <= 2,
                       '%s over %s..%s: drawn %.1f%% busy, sched says %.1f%%' %
                       (lane['label'], seconds(lo), seconds(hi), drawn, want[lane['label']]))
    finally:
        env.close()


STATE_RGB = [(0x38, 0xa1, 0x69), (0xe5, 0x3e, 0x3e), (0xcb, 0xd5, 0xe0), (0xed, 0x89, 0x36)]


def distance(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def page_data(html):
    with open(html, encoding='utf-8') as f:
        page = f.read()
    m = re.search(r'<script type="application/json" id="tk-data">\n(.*?)\n</script>', page, re.S)
    return json.loads(m.group(1))


@case
def view_story_at_a_glance(_):
    """Colours, why a thread waited, trace-cmd's event text, search hits, lane clicks, the axis."""
    env = Env()
    try:
        dat = scaling(env, '4', '200', '50', '100')
        html = env.view(dat)
        shots = OPTIONS.get('shot') or env.path('story')
        st = browser(html, '--story', '--shots', shots)['story']
        # The command's threads: one colour each, far from each other and from the state colours.
        rgbs = [tuple(c['rgb']) for c in st['colours']]
        # main and its 4 workers (a sanitized build adds a thread of the sanitizer's)
        expect(len(rgbs) >= 5, 'colours sampled: %r' % st['colours'])
        for i, a in enumerate(rgbs):
            expect(all(distance(a, s) > 60 for s in STATE_RGB), 'thread colour %s is near a state '
                   'colour' % (a,))
            expect(all(distance(a, b) > 60 for b in rgbs[i + 1:]), 'two thread colours alike: %r' %
                   rgbs)
        # A runnable span: who woke it and who held the CPU, and the arrow drawn.
        run = st.get('runnable')
        woken = r'runnable [^\n]*\n[^\n]*\nwoken by \S+:\d+ on CPU \d+'
        expect(run and re.search(woken, run['tip']) and 'held meanwhile by' in run['tip'],
               'runnable tip: %r' % run)
        # the arrow's colour down its whole path once hovered, not before
        def arrow_points(points):
            return sum(1 for p in points if distance(p, (0x1a, 0x20, 0x2c)) < 40)
        expect(arrow_points(run['after']) == len(run['after']) and
               arrow_points(run['before']) < len(run['before']) - 2,
               'no wakeup arrow drawn: %r -> %r' % (run['before'], run['after']))
        # main's long sleep is pthread_join; sched's symbol or join shows in it.
        expect(re.search(r'in futex\(\) on 0x[0-9a-f]+: a join: waits for scaling:\d+ to exit',
                         st['sleep_tip'] or ''), 'sleep tip: %r' % st['sleep_tip'])
        expect(re.match(r'\+\d+(\.\d+)? m?s after the first event\n\d+\.\d{6} on the trace clock',
                        st['axis_tip']), 'axis tip: %r' % st['axis_tip'])
        # trace-cmd's sched_switch text; syscall names found by search and marked on the lanes.
        expect(re.search(r'sched_switch +\S.*:\d+ \[\d+\] (R\+?|[SDTtXZPI|]+\+?) ==> .*:\d+ '
                         r'\[\d+\]$', st['switch_row']), 'switch row: %r' % st['switch_row'])
        d = page_data(html)
        names = [t[0] for t in d['types']]
        futex = sum(1 for e in d['events'] if names[e[3]].startswith('raw_syscalls:') and
                    e[4 + d['types'][e[3]][1].index('id')] == 202)
        expect(futex > 0 and st['futex_listed'] >= futex,
               'search futex listed %d, %d futex events' % (st['futex_listed'], futex))
        expect(st['hit_pixels'] > 0, 'no search hits drawn on the timeline')
        expect(st['row_fits'], 'an event row is cut')
        expect(not st['canvas_top_moved'], 'the canvas moved')
        expect(st['task_click'] and st['task_click']['got'] == st['task_click']['wanted'],
               'click on a task lane: %r' % st.get('task_click'))
        expect(st['pinned_first'] and st['hidden'] and st['added'],
               'pin %s, hide %s, add %s' % (st['pinned_first'], st['hidden'], st['added']))
        expect(st['toolbar_h'] <= 40, 'toolbar is %d px high at 760 px' % st['toolbar_h'])
    finally:
        env.close()


# Task-lane colours (timeline.js CAUSES): running, waiting for a CPU, asleep (other), I/O,
# lock, join, timer sleep.
CAUSE_COLOURS = {'running': '#38a169', 'runnable': '#e53e3e', 'asleep': '#cbd5e0',
                 'io': '#ed8936', 'lock': '#285e61', 'join': '#fbd38d', 'timer': '#63b3ed'}
WIDE_NAME = 'WWWWWWWWWWWWWWWcontention'   # a comm of 15 wide letters: no lane label fits it


def contention_run(env):
    """A recording of tests/progs/contention run under a name too wide for any label."""
    exe = env.path(WIDE_NAME)
    os.symlink(os.path.join(OPTIONS['progs'], 'contention'), exe)
    return env.record(['-b', '16384', '-e', 'sched', '-e', 'raw_syscalls', exe, '300'])


def thread_roles(doc):
    """The contention threads by what they do, from sched --json's per-thread figures."""
    threads = [t for p in doc['processes'] for t in p['threads_detail']]
    return {t['tid']: t for t in threads}


IO_CALLS = re.compile(r'^(p?read|p?write|readv|writev|f?sync|fdatasync|poll|ppoll|select|'
                      r'pselect6|epoll_p?wait2?|wait4|waitid)$')


def cause_probes(d):
    """The longest sleep of each cause in the page's data, told as the page should tell it:
    the syscall the sleep began in (sysSpans), and for a futex sched's name of its word."""
    best = {}
    lanes = [t[0] for t in d['tasks'] if t[2]]
    for pid in lanes:
        sp, sy = d['taskSpans'].get(str(pid), []), d['sysSpans'].get(str(pid), [])
        calls = [sy[i:i + 4] for i in range(0, len(sy), 4)]
        for i in range(0, len(sp), 4):
            a, b, state = sp[i], sp[i + 1], sp[i + 2]
            if state not in (3, 4):
                continue
            call = next((c for c in calls if c[0] <= a + 1 < c[1]), None)
            name = d['sysNames'].get(str(call[2])) if call else None
            if name == 'futex' and call[3]:
                known = d.get('futexNames', {}).get(str(call[3]), '')
                cause = 'join' if known.startswith('a join') else 'lock'
            elif name in ('nanosleep', 'clock_nanosleep'):
                cause = 'timer'
            elif state == 4 or (name and IO_CALLS.match(name)):
                cause = 'io'
            else:
                continue
            if cause not in best or b - a > best[cause]['b'] - best[cause]['a']:
                best[cause] = {'cause': cause, 'pid': pid, 'a': a, 'b': b}
    return list(best.values())


def contention_seen():
    """The contention page as chromium drew it (view_contention.mjs), and its recording."""
    env = Env()
    try:
        dat = contention_run(env)
        html = env.view(dat, '--max-events', '100000000')
        browser_ready()
        probes = cause_probes(page_data(html))
        rc, out, err = run(['node', os.path.join(HERE, 'view_contention.mjs'), html, '--shots',
                            OPTIONS.get('shot') or env.path('contention'), '--probes',
                            json.dumps(probes)], timeout=180)
        expect(rc == 0, 'view_contention.mjs failed (%d): %s' % (rc, err[-2000:]))
        seen = json.loads(out)
        expect(not seen['errors'] and not seen['requests'] and not seen['dialogs'],
               'page errors %s, requests %s, dialogs %s' % (seen['errors'], seen['requests'],
                                                             seen['dialogs']))
        return env, dat, seen
    except BaseException:
        env.close()
        raise


def contention_case(check):
    """A case over the contention page: check(dat, seen)."""
    def run_case(_):
        env, dat, seen = contention_seen()
        try:
            check(dat, seen)
        finally:
            env.close()
    run_case.__name__ = check.__name__
    run_case.__doc__ = check.__doc__
    return case(run_case)


@contention_case
def view_state_shares(dat, seen):
    """Each task lane's pixel columns stack the share of each state: a lane is drawn
    running as much as sched measured (not the majority state of each column)."""
    for level in seen['shares']:
        lo, hi = (int(round(seen['t0'] + x)) for x in level['view'])
        lo, hi = max(lo, seen['t0']), min(hi, seen['t0'] + seen['end'])
        doc = sched_json(dat, '--from', seconds(lo), '--to', seconds(hi))
        threads = thread_roles(doc)
        span_ms = (hi - lo) / 1e6
        for lane in level['lanes']:
            t = threads.get(lane['pid'])
            expect(t is not None, 'no sched figures for lane %s' % lane['label'])
            drawn = lane['colours'].get(CAUSE_COLOURS['running'], 0) / lane['total'] * 100
            want = t['runtime_ms'] / span_ms * 100
            expect(abs(drawn - want) <= max(1.5, want / 10),
                   '%s over %s..%s: drawn %.1f%% running, sched says '
                   '%.1f%%' % (lane['label'], seconds(lo), seconds(hi), drawn, want))


@contention_case
def view_off_cpu_causes(dat, seen):
    """Off-CPU time coloured by cause (lock, join, timer sleep, I/O, waiting for a CPU),
    with a key; the lock named in the tooltip."""
    key = {k['name'].split(' ')[0]: k['colour'] for k in seen['key']}
    for word, col in [('running', '#38a169'), ('waiting', '#e53e3e'), ('lock', '#285e61'),
                      ('join', '#fbd38d'), ('timer', '#63b3ed'), ('I/O', '#ed8936')]:
        expect(key.get(word) == 'rgb(%d, %d, %d)' % tuple(rgb(col)), 'key %s: %s' % (word, key))
    # The longest sleep of each cause, zoomed to: drawn in its cause's colour.
    probes = {p['cause']: p for p in seen['probes']}
    for cause in ('join', 'io', 'timer'):
        expect(cause in probes, 'no %s sleep in the recording: %s' % (cause, list(probes)))
    if 'lock' not in probes:
        print('note: the two lockers never waited for the mutex in this run', file=sys.stderr)
    for cause, p in probes.items():
        expect(p['drawn'] == CAUSE_COLOURS[cause], '%s sleep of %d at %d..%d drawn %s, not %s' %
               (cause, p['pid'], p['a'], p['b'], p['drawn'], CAUSE_COLOURS[cause]))
    lock_tips = [h['tip'] for h in seen['hover'] if 'on a lock: ' in h['tip']]
    expect(all(re.search(r'on a lock: (`\w+`|futex 0x[0-9a-f]+)', t) for t in lock_tips),
           'lock not named: %r' % lock_tips)


@contention_case
def view_hover_state_first(dat, seen):
    """Hovering a task lane at the whole trace tells its state and cause first."""
    state = re.compile(r'^\S+ \d+: (running( on CPU \d+)?|runnable \(waiting for a CPU\)|'
                       r'(sleeping|blocked \(D\)) (on a lock: \S.*|in a join|on a timer in '
                       r'\w+\(\)|on I/O in \w+\(\)|in \w+\(\)|\(no syscall recorded\))) '
                       r'\d+(\.\d+)? [mun]?s$')
    expect(len(seen['hover']) >= 6, 'hovered %d times' % len(seen['hover']))
    for h in seen['hover']:
        first = (h['tip'] or '').split('\n')[0]
        expect(state.match(first), 'hover on %d at the whole trace: %r' % (h['pid'], h['tip']))
        held = re.search(r'held meanwhile by (.*)', h['tip'] or '')
        expect(not held or (':%d ' % h['pid'] not in held.group(1) + ' ' and
                            not re.search(r' 0 ns\b', held.group(1))),
               'a wait held by the waiting task itself, or for 0 ns: %r' % h['tip'])


@contention_case
def view_selected_wakers(dat, seen):
    """A task lane clicked: an arrow from the waking task at each of its wakeups in view
    (a timer's or an interrupt's: a marker on its lane)."""
    wk = seen['wakers']
    by_task = [w for w in wk['wakeups'] if w['kind'] == 'task']
    drawn = [w for w in by_task if w['dark'] < 150]
    others = [w for w in wk['wakeups'] if w['kind'] != 'task']
    marked = [w for w in others if w['mark'] == 'THSI'['timer hardirq softirq idle'.split()
                                                       .index(w['kind'])]]
    expect(wk['selected'] == wk['pid'], 'click selected %r, not %d' % (wk['selected'], wk['pid']))
    expect(len(wk['wakeups']) >= 2 and len(drawn) >= 0.9 * len(by_task) and
           len(marked) >= 0.9 * len(others),
           'arrows drawn at %d of %d wakeups by a task, markers at %d of %d others, of %d' %
           (len(drawn), len(by_task), len(marked), len(others), wk['pid']))
    expect(re.search(r'selected: \d+ wakeups in view, by (\S+:\d+|timer|hardirq|softirq|idle) '
                     r'\u00d7\d+', wk['text'] or ''), 'wakers: %r' % wk['text'])


@contention_case
def view_labels_keep_pid(dat, seen):
    """Names cut with an ellipsis, the pid whole; no lane name under its x button."""
    label_w = seen['geometry']['labelW']
    for level in seen['texts']:
        names = [t for t in level['texts'] if t['x'] == 6]
        expect(names, 'no lane names drawn')
        for t in names:
            expect(t['x'] + t['w'] <= label_w - 16 - 2, 'lane name %r runs under its x button '
                   '(%d px)' % (t['text'], t['x'] + t['w']))
        for lane in level['lanes']:
            if lane['kind'] not in ('task', 'calls'):
                continue
            mine = [t['text'] for t in names if lane['top'] < t['y'] < lane['top'] + lane['h']]
            expect(mine and re.search(r'(^|[ \u2026])%d$' % lane['pid'], mine[0]),
                   'lane %s drawn as %r' % (lane['label'], mine))
        cpu_tops = [(lane['top'], lane['top'] + lane['h']) for lane in level['lanes']
                    if lane['kind'] == 'cpu']
        inside = [t['text'] for t in level['texts'] if t['x'] > label_w and
                  any(a < t['y'] < b for a, b in cpu_tops)]
        for text in inside:
            expect(re.search(r'(^|[ \u2026])\d+$', text) and
                   (not text.startswith('WWW') or '\u2026' in text or WIDE_NAME[:15] in text),
                   'slice name %r: no whole pid, or cut without an ellipsis' % text)
    slices = [t['text'] for level in seen['texts'] for t in level['texts']
              if t['text'].startswith('WWW') and t['x'] > label_w]
    expect(any('\u2026' in s for s in slices), 'no cut slice name drawn: %r' % slices[:5])


@contention_case
def view_toolbar_760(dat, seen):
    """At 760 px every toolbar control is inside the toolbar and whole, the range too."""
    for tb in seen['toolbar']:
        expect(tb['height'] <= 40, 'toolbar is %d px high at 760 px' % tb['height'])
        for item in tb['items']:
            if item['id'] == 'markers':
                continue
            expect(item['right'] <= item['limit'] + 0.5 and item['width'] > 0,
                   'toolbar at 760 px: %r ends at %.0f, past %.0f' %
                   (item['id'], item['right'], item['limit']))
            expect(item['id'] != 'range' or item['scroll'] <= item['client'] + 1,
                   'toolbar at 760 px: the range is cut (%s)' % item['text'])


@contention_case
def view_axis_units(dat, seen):
    """The axis in s, ms, us: never "+1250 ms" or "+180002 us", at any zoom."""
    label_w = seen['geometry']['labelW']
    for level in seen['texts']:
        axis = [t['text'] for t in level['texts'] if t['y'] == 17 and t['x'] > label_w]
        expect(len(axis) >= 3, 'axis labels: %r' % axis)
        for text in axis:
            m = re.match(r'^[+\u2212](\d+)(\.\d+)? (s|ms|us|ns)$', text)
            expect(m and (m.group(3) == 's' or int(m.group(1)) < 1000),
                   'axis label %r over %r' % (text, level['view']))


def http(port, raw):
    """What the server answers to raw request bytes: its status (0: it closed without one)."""
    with socket.create_connection(('127.0.0.1', port), timeout=30) as s:
        s.sendall(raw)
        got = b''
        while True:
            try:
                part = s.recv(65536)
            except ConnectionResetError:
                break
            if not part:
                break
            got += part
    m = re.match(rb'HTTP/1\.1 (\d{3}) ', got)
    return int(m.group(1)) if m else 0


def js_numbers(event):
    """An event's fields as the browser's doubles hold them."""
    return [float(x) if isinstance(x, int) and abs(x) > 2 ** 53 else x for x in event]


def wakers_seen(url, pid, window, *extra):
    rc, out, err = run(['node', os.path.join(HERE, 'view_wakers.mjs'), url, str(pid),
                        str(window[0]), str(window[1])] + list(extra), timeout=180)
    expect(rc == 0, 'view_wakers.mjs failed (%d): %s' % (rc, err[-2000:]))
    seen = json.loads(out)
    expect(not seen['errors'] and not seen['dialogs'], 'page errors %s, dialogs %s' %
           (seen['errors'], seen['dialogs']))
    return seen


def wakers_drawn_by_kind(seen, pid, where):
    """A timer's wakeups: a marker on the woken lane, no arrow from the task it hit; a
    task's: an arrow; the tooltip and the selection's line name the timer."""
    expect(seen['selected'] == pid, '%s: click selected %r, not %d' % (where, seen['selected'], pid))
    timed = [w for w in seen['wakeups'] if w['kind'] == 'timer']
    expect(len(timed) >= 4, '%s: %d timer wakeups in view of %r' % (where, len(timed),
                                                                   seen['wakeups']))
    marked = [w for w in timed if w['mark'] == 'T']
    arrows = [w for w in timed if w['dark'] is not None and w['dark'] < 150]
    expect(len(marked) >= 0.9 * len(timed), '%s: timer markers at %d of %d timer wakeups' %
           (where, len(marked), len(timed)))
    expect(len(arrows) <= 0.1 * len(timed), '%s: arrows from the task a timer hit at %d of %d '
           'wakeups: %r' % (where, len(arrows), len(timed), arrows[:3]))
    expect(re.search(r'woken by a timer on CPU \d+', seen.get('tip') or '') and
           not re.search(r'woken by \S+:\d+', seen.get('tip') or ''),
           '%s: tooltip of a timer-woken wait: %r' % (where, seen.get('tip')))
    expect(re.search(r'wakeups in view, by timer \u00d7\d+', seen['text'] or ''),
           '%s: wakers: %r' % (where, seen['text']))


@case
def view_wakers_by_kind(_):
    """sched4's cycler sleeps in clock_nanosleep beside a spinner: a timer wakes it, not
    the spinner the interrupt hit.  The page (and a --serve window) draws a timer marker,
    no arrow from the spinner, and says 'woken by a timer'."""
    env = Env()
    server = None
    try:
        dat = env.path('trace.dat')
        rc, out, err = run([tracekit(), 'record', '-q', '-o', dat, '-e', 'sched', '-e',
                            'raw_syscalls', os.path.join(OPTIONS['progs'], 'sched4'), '40'],
                           timeout=120)
        expect(rc == 0, 'record failed (%d): %s' % (rc, err))
        m = re.search(r'^tid (\d+) cycler ', out, re.M)
        expect(m, 'sched4 printed no cycler: %r' % out)
        cycler = int(m.group(1))
        html = env.view(dat, '--max-events', '100000000')
        d = page_data(html)
        types = [t[0] for t in d['types']]
        fields = [t[1] for t in d['types']]
        # by name: sched_wake_idle_without_ipi shares the prefix and has no pid
        wakes = ('sched:sched_waking', 'sched:sched_wakeup', 'sched:sched_wakeup_new')
        timer = sorted(e[0] for e in d['events'] if types[e[3]] in wakes and
                       e[4 + fields[e[3]].index('pid')] == cycler and
                       len(e) > 4 + len(fields[e[3]]) and e[4 + len(fields[e[3]])] == 'timer')
        expect(len(timer) >= 8, 'the page has %d timer wakeups of the cycler' % len(timer))
        named = sorted({types[e[3]] for e in d['events'] if len(e) > 4 + len(fields[e[3]])})
        expect(set(named) <= set(wakes), 'waker kinds given to events other than wakeups: %r' %
               named)
        k = 7
        i = min(range(len(timer) - k), key=lambda j: timer[j + k] - timer[j])
        w = max(timer[i + k] - timer[i], 100000)
        window = (max(timer[i] - w // 10, 0), timer[i] + w * 11 // 10)
        browser_ready()
        wakers_drawn_by_kind(wakers_seen('file://' + html, cycler, window), cycler, 'page')
        # windows wide enough for the one looked at, however busy the machine made it
        inside = sum(1 for e in d['events'] if window[0] <= e[0] <= window[1])
        server = subprocess.Popen([tracekit(), 'view', '--serve', '--window-events',
                                   str(max(20000, 4 * inside)), '-i', dat], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        url = server.stdout.readline().strip()
        expect(url.startswith('http://127.0.0.1:'), 'server address: %r' % url)
        seen = wakers_seen(url, cycler, window, '--serve')
        expect(seen.get('path') == '/w', 'the served page went to %r, not a window' %
               seen.get('path'))
        wakers_drawn_by_kind(seen, cycler, '--serve window')
        server.send_signal(signal.SIGINT)
        expect(server.wait(timeout=30) == 0, 'server exit status %s' % server.returncode)
        server = None
    finally:
        if server:
            server.kill()
            server.wait()
        env.close()


def dropped_gaps(dat):
    """Where each CPU's events stop before a drop and start again after it, in seconds, from
    trace-cmd report's 'CPU:N [K EVENTS DROPPED]' lines."""
    rc, out, err = run(['trace-cmd', 'report', dat], timeout=120)
    expect(rc == 0, 'trace-cmd report: %s' % err[-500:])
    last, pending, gaps = {}, {}, []
    for line in out.splitlines():
        m = re.match(r'CPU:(\d+) \[\d+ EVENTS DROPPED\]', line)
        if m:
            pending[int(m.group(1))] = last.get(int(m.group(1)))
            continue
        m = re.search(r'\[(\d{3})\]\s+(\d+\.\d+):', line)
        if m:
            cpu, ts = int(m.group(1)), float(m.group(2))
            if pending.get(cpu) is not None:
                gaps.append((cpu, pending[cpu], ts))
            pending.pop(cpu, None)
            last[cpu] = ts
    return gaps


def nothing_running_in_drops(dat, d):
    """No CPU and no task drawn running in the middle of a drop of 20 us or more."""
    gaps = [g for g in dropped_gaps(dat) if g[2] - g[1] > 20e-6]
    expect(gaps, 'no drop of 20 us or more in the recording')
    for cpu, a, b in gaps:
        mid = (a + b) / 2 * 1e9 - d['t0']
        cs = d['cpuSpans']
        inside = [cs[i + 3] for i in range(0, len(cs), 4)
                  if cs[i] == cpu and cs[i + 1] < mid < cs[i + 2]]
        expect(not inside, 'CPU %d drawn running %r inside the drop %.6f..%.6f' %
               (cpu, inside, a, b))
        for pid, sp in d['taskSpans'].items():
            for i in range(0, len(sp), 4):
                expect(not (sp[i + 2] == 1 and sp[i + 3] == cpu and sp[i] < mid < sp[i + 1]),
                       'task %s drawn running on CPU %d inside the drop %.6f..%.6f' %
                       (pid, cpu, a, b))


LOST_MIGRATE_FIXTURE = os.path.join(HERE, '..', 'fixtures', 'lost-migrate.dat')


@case
def view_lost_migrate_not_drawn_across(_):
    """A task current on CPU 1 when its events were lost, switched in on CPU 0 before
    CPU 1's next record (tests/fixtures/lost-migrate.dat): its run on CPU 1 ends at
    CPU 1's last record, not at the switch-in on CPU 0, inside the gap.  Read by
    libtracecmd (the fixture is zstd-compressed) and by our page reader (converted)."""
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd not found (scripts/install-deps.sh): it tells where the drops are')
    env = Env()
    try:
        zstd, plain = env.path('zstd.dat'), env.path('plain.dat')
        shutil.copy(LOST_MIGRATE_FIXTURE, zstd)
        rc, _, err = run(['trace-cmd', 'convert', '-i', zstd, '--file-version', '7',
                          '--compression', 'none', '-o', plain], timeout=120)
        expect(rc == 0, 'trace-cmd convert: %s' % err[-500:])
        for dat in (zstd, plain):
            nothing_running_in_drops(dat, page_data(env.view(dat, '--max-events', '100000000')))
            rc, js, err = run([tracekit(), 'sched', '--json', '-i', dat])
            expect(rc == 0, 'sched --json: %s' % err)
            for p in json.loads(js)['processes']:
                for t in p['threads_detail']:
                    expect(t['parallelism'] <= 1 + 1e-9, 'thread %d above one CPU: %.4f' %
                           (t['tid'], t['parallelism']))
    finally:
        env.close()


@case
def view_lost_events_said_and_cut(_):
    """A burst into a one-page buffer (record -b 4): sched and the page say how many events
    the kernel lost; no thread is above one CPU; nothing is drawn running inside a gap (a
    slice ends at its CPU's last event before the drop, not at the next switch after it)."""
    if not shutil.which('trace-cmd'):
        raise Skip('trace-cmd not found (scripts/install-deps.sh): it tells where the drops are')
    env = Env()
    try:
        dat = env.path('trace.dat')
        rc, out, err = run([tracekit(), 'record', '-q', '-b', '4', '-o', dat, '-e', 'sched', '-e',
                            'raw_syscalls', os.path.join(OPTIONS['progs'], 'sched4'), '40'],
                           timeout=120)
        expect(rc == 0, 'record failed (%d): %s' % (rc, err))
        rc, js, err = run([tracekit(), 'sched', '--json', '-i', dat])
        expect(rc == 0, 'sched --json: %s' % err)
        doc = json.loads(js)
        lost = doc['lost_events']
        expect(lost > 0 and doc['lost_gaps'] > 0, 'a one-page buffer lost nothing: %d (%s)' %
               (lost, err.strip()))
        rc, text, err = run([tracekit(), 'sched', '-i', dat])
        expect(re.search(r'warning: the kernel lost %d events \(\d+ gaps?, CPU [\d, ]+\): what ran '
                         r'in a gap is not known' % lost, text), 'sched says: %s' % text[:800])
        for p in doc['processes']:
            expect(p['parallelism'] <= min(p['threads'], os.cpu_count()) + 1e-9,
                   '%s: %.4f CPUs' % (p['comm'], p['parallelism']))
            for t in p['threads_detail']:
                expect(t['parallelism'] <= 1 + 1e-9, 'thread %d above one CPU: %.4f' %
                       (t['tid'], t['parallelism']))
        html = env.view(dat, '--max-events', '100000000')
        d = page_data(html)
        expect(d['lostEvents'] == lost, 'the page says %r lost, sched %d' % (d['lostEvents'], lost))
        nothing_running_in_drops(dat, d)
        browser_ready()
        rc, out, err = run(['node', os.path.join(HERE, 'view_notice.mjs'), 'file://' + html],
                           timeout=120)
        expect(rc == 0, 'view_notice.mjs failed (%d): %s' % (rc, err[-2000:]))
        seen = json.loads(out)
        expect(not seen['errors'] and seen['visible'] and
               'The kernel lost %d events in %d gap' % (lost, d['lostGaps']) in seen['notice'],
               'the page says: %r (errors %r)' % (seen.get('notice'), seen['errors']))
    finally:
        env.close()


@case
def view_serve(_):
    """view --serve: 127.0.0.1 and a token; hostile requests refused; every window the
    browser zooms into comes in full detail (the same events as the whole page's, drawn
    as busy as sched says), and back to the overview."""
    env = Env()
    server = None
    try:
        dat = contention_run(env)
        whole = page_data(env.view(dat, '--max-events', '100000000'))
        # about 32 chunks, however many events the machine's load made
        window = str(max(8, len(whole['events']) // 8))
        server = subprocess.Popen([tracekit(), 'view', '--serve', '--window-events', window, '-i',
                                   dat], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        url = server.stdout.readline().strip()
        m = re.match(r'^http://127\.0\.0\.1:(\d+)/\?t=([0-9a-f]{32})$', url)
        expect(m, 'server address: %r (stderr %r)' % (url, server.stderr.read()
                                                     if server.poll() is not None else ''))
        port, token = int(m.group(1)), m.group(2)
        listening = open('/proc/net/tcp').read()
        expect(re.search(r'^\s*\d+: 0100007F:%04X 00000000:0000 0A ' % port, listening, re.M),
               'not listening on 127.0.0.1:%d alone' % port)
        get = 'GET %s HTTP/1.1\r\nHost: x\r\n\r\n'
        other = ('0' if token[0] != '0' else '1') + token[1:]
        for raw, want in [((get % ('/?t=' + token)).encode(), 200),
                          ((get % '/').encode(), 403),
                          ((get % ('/?t=' + other)).encode(), 403),
                          ((get % ('/w?t=%s&a=0&b=99999' % token)).encode(), 400),
                          ((get % ('/w?t=%s&a=0' % token)).encode(), 400),
                          ((get % ('/w?t=%s&a=5&b=1' % token)).encode(), 400),
                          ((get % ('/x?t=' + token)).encode(), 404),
                          (('POST /?t=%s HTTP/1.1\r\n\r\n' % token).encode(), 405),
                          ((get % ('/?t=' + token + '&t=' + token)).encode(), 400),
                          ((get % ('/?' + 'a' * 2000)).encode(), 414),
                          (b'GET /?t=' + token.encode() + b' HTTP/1.1\r\nX: ' + b'y' * 9000, 431),
                          (b'\x00\x01\x02\r\n\r\n', 400)]:
            got = http(port, raw)
            expect(got == want, 'request %r...: %d, wanted %d' % (raw[:60], got, want))
        browser_ready()
        rc, out, err = run(['node', os.path.join(HERE, 'view_serve.mjs'), url, '--shots',
                            OPTIONS.get('shot') or env.path('serve')], timeout=300)
        expect(rc == 0, 'view_serve.mjs failed (%d): %s' % (rc, err[-2000:]))
        seen = json.loads(out)
        expect(not seen['errors'] and not seen['dialogs'], 'page errors %s, dialogs %s' %
               (seen['errors'], seen['dialogs']))
        expect(all(u.startswith('http://127.0.0.1:%d/' % port) for u in seen['requests']),
               'requests elsewhere: %s' % seen['requests'])
        overview, last, first, back = seen['pages']
        expect(overview['path'] == '/' and overview['lod'] and not overview['events'] and
               'view --serve' in overview['notice'], 'overview page: %r' %
               {k: overview[k] for k in ('path', 'lod', 'notice')})
        expect(back['path'] == '/' and back['lod'], 'zoomed out to all: %r' % back['path'])
        for pg, where in [(last, 'end'), (first, 'start')]:
            expect(pg['path'] == '/w' and pg['served']['window'], 'zoomed to the %s: %r' %
                   (where, pg['path']))
            ka, kb = pg['served']['window']
            starts = pg['served']['starts']
            lo, hi = starts[ka], starts[kb + 1] if kb + 1 < len(starts) else float('inf')
            want = [e for e in whole['events'] if lo <= e[0] < hi]
            # the browser holds numbers as doubles: a kernel address (hrtimer, irq events)
            # comes back as the nearest double, so compare what a double can hold
            expect([js_numbers(e) for e in pg['events']] == [js_numbers(e) for e in want], 'window %d..%d at the %s: %d events, the whole page '
                   'has %d there' % (ka, kb, where, len(pg['events']), len(want)))
            expect(lo <= pg['view'][0] and pg['view'][1] <= min(hi, pg['end']) + 1,
                   'the view %r is not inside the window %r' % (pg['view'], (lo, hi)))
            a, b = (int(round(pg['t0'] + x)) for x in pg['view'])
            doc = sched_json(dat, '--from', seconds(a), '--to', seconds(b))
            for c in doc['cpus']:
                drawn = pg['busy']['CPU %d' % c['cpu']] * 100
                expect(abs(drawn - c['busy_pct']) <= 2, 'CPU %d at the %s: drawn %.1f%% busy, '
                       'sched says %.1f%%' % (c['cpu'], where, drawn, c['busy_pct']))
        server.send_signal(signal.SIGINT)
        expect(server.wait(timeout=30) == 0, 'server exit status %s: %s' %
               (server.returncode, server.stderr.read()))
        server = None
    finally:
        if server:
            server.kill()
            server.wait()
        env.close()


@case
def view_syscall_spans(_):
    """Recorded with syscalls: task lanes carry them as spans, named when hovered."""
    env = Env()
    try:
        dat = env.record(['-e', 'sched', '-e', 'raw_syscalls',
                          os.path.join(OPTIONS['progs'], 'threads')])
        html = env.view(dat)
        seen = browser(html)
        expect(seen['initial']['sys_spans'] > 0, 'no syscall spans on the page')
        hover = seen.get('sys_hover')
        expect(hover and ('in %s()' % hover['name']) in hover['tip'],
               'hovering a syscall span shows %r' % hover)
    finally:
        env.close()


@case
def view_escapes_markup(_):
    """A program path and a comm made of markup show as text and never run."""
    env = Env()
    try:
        d = env.path('<')
        os.makedirs(os.path.join(d, 'script><script>alert(1)<'))
        prog = env.dir + '/' + XSS_PATH
        os.symlink(sys.executable, prog)
        code = ('import ctypes; ctypes.CDLL(None).prctl(15, %r, 0, 0, 0); '
                'import time; t = time.time()\nwhile time.time() - t < 0.02: pass' % XSS_COMM.encode())
        dat = env.record([prog, '-c', code])
        html = env.view(dat)
        with open(html, encoding='utf-8') as f:
            page = f.read()
        expect(page.count('<script') == 2 and page.lower().count('</script') == 2,
               'the page has other script tags than its own two')
        seen = browser(html, '--search', 'alert(1)')
        expect(seen['initial']['scripts'] == 2 and seen['initial']['markup'] == 0,
               'markup from the trace became elements: %s' % seen['initial'])
        expect(any(t.startswith(XSS_COMM + ' ') for t in lanes(seen, 'task')),
               'no task lane named %r: %s' % (XSS_COMM, lanes(seen, 'task')))
        expect(seen['search']['listed'] >= 1, 'search for alert(1) found nothing')
        details = dict(seen['clicked_row']['details'])
        expect(details.get('filename', '').endswith('/' + XSS_PATH),
               'filename shown as %r' % details.get('filename'))
    finally:
        env.close()


@case
def view_event_cap(_):
    """Past --max-events the page keeps that many and says the rest is an overview."""
    env = Env()
    try:
        dat = env.record([os.path.join(OPTIONS['progs'], 'threads')])
        total, _, cpus = stat(dat)
        expect(total > 20, 'only %d events recorded' % total)
        cap = total // 2
        seen = browser(env.view(dat, '--max-events', str(cap)))
        first = seen['initial']
        expect(first['events'] == total and first['kept'] == cap and first['listed'] == cap,
               'events %d kept %d listed %d, wanted %d/%d/%d' %
               (first['events'], first['kept'], first['listed'], total, cap, cap))
        expect('first %d ' % cap in first['notice'] and 'overview' in first['notice'],
               'notice: %r' % first['notice'])
        expect(len(lanes(seen, 'ov')) == cpus, 'overview lanes: %s' % lanes(seen, 'ov'))
        # The command the page gives for the part in view makes a page with all of its events.
        cmd = seen['after_drag_cmd']
        m = re.match(r'tracekit view -i (\S+) --from (\d+\.\d{6}) --to (\d+\.\d{6}) -o window.html$',
                     cmd or '')
        expect(m and m.group(1) == dat, 'window command: %r' % cmd)
        rc, out, err = run([tracekit(), 'report', '-i', dat, '--from', m.group(2), '--to',
                            m.group(3), '--stat'])
        expect(rc == 0, 'report --stat failed: %s' % err)
        want = int(re.search(r'^Events: (\d+)', out, re.M).group(1))
        if want == 0:
            # The drag fell between events (a slow, sanitized run): the command says so.
            rc, _, err = run([tracekit(), 'view', '-i', dat, '--from', m.group(2), '--to',
                              m.group(3), '-o', env.path('empty.html')])
            expect(rc == 1 and 'no events in the window' in err, 'empty window: %d %r' % (rc, err))
            return
        page = env.view(dat, '--from', m.group(2), '--to', m.group(3))
        d = page_data(page)
        expect(d['total'] == want and d['kept'] == want,
               'window page: %d events, %d kept; report --stat says %d' %
               (d['total'], d['kept'], want))
    finally:
        env.close()


def columns(html, windows):
    """Per lane and pixel column, what chromium drew for each window (view_browser.mjs)."""
    spec = ','.join('%d:%d' % w for w in windows)
    return browser(html, '--columns', spec)['columns']


# The levels' budget (docs/view.md, Large traces): at most 2^16 bins per lane at the
# finest level (CPU lanes' cells under 2^21), 16 task lanes, 3 levels 8x apart.
LOD_BINS, LOD_TASKS, LOD_LEVELS = 1 << 16, 16, 3
LOD_PER_COL = 3     # the page draws a level with at least this many bins a pixel column


def lod_bound(cpus):
    """The most bytes the levels can add to a page (13 bytes a CPU bin, 5 a task bin)."""
    bins = LOD_BINS
    while bins > 1024 and bins * cpus > 1 << 21:
        bins //= 2
    per_level = cpus * bins * 13 + LOD_TASKS * bins * 5
    return int(per_level * (1 + 1 / 8 + 1 / 64)) + 4096


def agree(capped, full):
    """The share of columns both pages painted in which they drew the same colour, how many
    columns both painted, and how many either painted."""
    both = [(a[1], b[1]) for a, b in zip(capped, full) if a[1] and b[1]]
    either = sum(1 for a, b in zip(capped, full) if a[1] or b[1])
    return sum(a == b for a, b in both) / max(len(both), 1), len(both), either


@case
def view_levels_of_detail(_):
    """Past --max-events the lanes go on as levels of detail, drawn as the detailed page draws them."""
    env = Env()
    try:
        # Tasks taking turns on the CPUs many times a millisecond: the bins' tasks vary.
        perf = shutil.which('perf')
        if not perf:
            raise Skip('perf not found (apt-get install linux-perf, or scripts/install-deps.sh)')
        dat = env.record(['-e', 'sched', perf, 'bench', 'sched', 'pipe', '-l', '20000'])
        total, _, cpus = stat(dat)
        cap = total // 5
        capped = env.path('capped.html')
        os.rename(env.view(dat, '--max-events', str(cap)), capped)
        full = env.view(dat)
        d = page_data(capped)
        lod, end = d['lod'], d['end']
        expect(lod and len(lod['levels']) == LOD_LEVELS, 'levels: %r' % (lod and lod.keys()))
        fine = lod['levels'][0]
        expect(0 < fine['n'] <= LOD_BINS and fine['n'] * fine['bin'] >= end - lod['from'],
               'finest level: %d bins of %d ns for %d ns' % (fine['n'], fine['bin'],
                                                             end - lod['from']))
        expect(page_data(full)['lod'] is None, 'an uncapped page has levels')
        # Two zoom levels past the cap: all of it (the next level: 4096 to 8192 bins over
        # about 1000 columns), and 1/8 of it (the finest).
        span = end - lod['from']
        mid = lod['from'] + span // 2
        windows = [(lod['from'], end), (mid, mid + span // 8)]
        got, want = columns(capped, windows), columns(full, windows)
        bins = []
        for w, g, f in zip(windows, got, want):
            expect('summary at' in g['lod_status'] and g['lod_bin'] > 0,
                   'status over %r: %r' % (w, g['lod_status']))
            expect(re.search(r'--from \S+ --to \S+', g['cmd'] or ''), 'command: %r' % g['cmd'])
            ncols = len(g['lanes'][0]['cols'])
            tcol = (w[1] - w[0]) / ncols
            fit = [lv['bin'] for lv in lod['levels'] if lv['bin'] * LOD_PER_COL <= tcol]
            expect(g['lod_bin'] == (fit[-1] if fit else fine['bin']),
                   'drawn at %d ns bins for %.0f ns columns' % (g['lod_bin'], tcol))
            bins.append(g['lod_bin'])
            c0 = max(int(math.ceil((lod['from'] - w[0]) / tcol)), 0)
            painted = 0
            for a, b in zip(g['lanes'], f['lanes']):
                expect(a['label'] == b['label'], 'lanes differ: %s, %s' % (a['label'], b['label']))
                a['cols'], b['cols'] = a['cols'][c0:], b['cols'][c0:]
                n = len(a['cols'])
                ha = sum(c[0] for c in a['cols']) / n
                hb = sum(c[0] for c in b['cols']) / n
                same, both, either = agree(a['cols'], b['cols'])
                print('%s at %d ns bins: drawn %.1f%% busy (detail %.1f%%), %d/%d columns '
                      'painted by both, %.0f%% the same colour' % (a['label'], g['lod_bin'],
                      ha * 100, hb * 100, both, n, same * 100), file=sys.stderr)
                if a['kind'] == 'cpu':
                    expect(abs(ha - hb) <= 0.03,
                           '%s over %r: drawn %.1f%% busy, %.1f%% in detail' %
                           (a['label'], w, ha * 100, hb * 100))
                # A lane may be mostly idle in a window (perf's two tasks can share one CPU
                # for a while): the pages must paint the same columns, not many of them.
                expect(both >= 0.8 * either and same >= (0.6 if a['kind'] == 'cpu' else 0.7),
                       '%s over %r: %d columns drawn by both of %d drawn by either, '
                       '%.0f%% in the same colour' % (a['label'], w, both, either, same * 100))
                painted = max(painted, both / n)
            expect(painted > 0.5, 'over %r no lane is painted in half its columns' % (w,))
        expect(bins[0] > bins[1], 'one level for both windows: %r' % bins)
        # The page stays bounded: the detailed part plus the levels' budget, for this trace
        # and one three times as long.
        bigger = env.record(['-e', 'sched', perf, 'bench', 'sched', 'pipe', '-l', '60000'],
                            'bigger.dat')
        for f in (dat, bigger):
            page = env.view(f, '--max-events', '1000')
            size, bound = os.path.getsize(page), 400000 + 1000 * 300 + lod_bound(cpus)
            levels = page_data(page)['lod']['levels']
            expect(size <= bound and levels[0]['n'] <= LOD_BINS,
                   '%s: a page of 1000 events in detail is %d bytes (bound %d), %d bins' %
                   (f, size, bound, levels[0]['n']))
            print('%s: %d events, page %d bytes (bound %d)' % (os.path.basename(f), stat(f)[0],
                                                               size, bound), file=sys.stderr)
    finally:
        env.close()


@case
def view_to_a_fifo(_):
    """-o naming what is not a regular file (a FIFO, /dev/stdout) is written in place, not
    replaced by a renamed temporary file."""
    import select
    import stat as st
    import subprocess
    env = Env()
    try:
        fifo = env.path('page.fifo')
        os.mkfifo(fifo)
        fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        page = b''
        p = subprocess.Popen([tracekit(), 'view', '-o', fifo, FUNCGRAPH_FIXTURE],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            while True:
                select.select([fd], [], [], 0.2)
                try:
                    chunk = os.read(fd, 1 << 16)
                except BlockingIOError:
                    chunk = None
                if chunk:
                    page += chunk
                elif p.poll() is not None:
                    break
        finally:
            os.close(fd)
            err = p.communicate(timeout=120)[1]
        expect(p.returncode == 0, 'view -o FIFO: exit %d: %r' % (p.returncode, err))
        expect(st.S_ISFIFO(os.stat(fifo).st_mode), 'the FIFO was replaced by a file')
        expect(b'</html>' in page, 'the page did not come through the FIFO (%d bytes)' % len(page))
        expect(sorted(os.listdir(env.dir)) == ['page.fifo'], 'left: %s' % os.listdir(env.dir))
    finally:
        env.close()


@case
def view_bad_input(_):
    """A missing file or one that is not a trace: one line on stderr, exit 1, no page."""
    env = Env()
    try:
        notrace = env.path('notrace.dat')
        with open(notrace, 'w') as f:
            f.write('hello\n')
        for path in (env.path('missing.dat'), notrace):
            out = env.path('out.html')
            rc, so, err = run([tracekit(), 'view', '-i', path, '-o', out])
            expect(rc == 1, '%s: exit %d' % (path, rc))
            expect(err.count('\n') == 1 and err.startswith('tracekit: view: ' + path),
                   '%s: stderr %r' % (path, err))
            expect(not os.path.exists(out) and os.listdir(env.dir) == ['notrace.dat'],
                   'files left: %s' % os.listdir(env.dir))
        rc, _, err = run([tracekit(), 'view', '--max-events', 'x'])
        expect(rc == 2 and 'max-events' in err, 'bad --max-events: %d %r' % (rc, err))
        rc, _, err = run([tracekit(), 'view', '--from', '2', '--to', '1'])
        expect(rc == 2 and err.count('\n') == 1 and '--from 2 is after --to 1' in err,
               'bad window: %d %r' % (rc, err))
        # --serve's options: each misuse one line, exit 2, nothing served.
        for argv, word in [(['--serve', '-o', 'x.html'], '-o'),
                           (['--serve', '--max-events', '5'], '--max-events'),
                           (['--serve', '--port', '70000'], '--port'),
                           (['--serve', '--window-events', '2'], '--window-events'),
                           (['--port', '8080'], '--serve')]:
            rc, so, err = run([tracekit(), 'view'] + argv, timeout=30)
            expect(rc == 2 and err.count('\n') == 1 and word in err and not so,
                   'view %s: exit %d, %r' % (' '.join(argv), rc, err))
        rc, so, err = run([tracekit(), 'view', '--serve', '-i', env.path('missing.dat')],
                          timeout=30)
        expect(rc == 1 and err.count('\n') == 1 and 'missing.dat' in err and not so,
               'view --serve of a missing file: exit %d, %r %r' % (rc, err, so))
        # A port taken is said before the trace is indexed (minutes on a big one).
        with socket.socket() as busy:
            busy.bind(('127.0.0.1', 0))
            busy.listen(1)
            port = busy.getsockname()[1]
            dat = os.path.join(HERE, '..', 'fixtures', 'tracecmd-v7.dat')
            rc, so, err = run([tracekit(), 'view', '--serve', '--port', str(port), '-i', dat],
                              timeout=30)
        expect(rc == 1 and err.count('\n') == 1 and
               'cannot listen on 127.0.0.1:%d' % port in err and not so,
               'view --serve on a port taken: exit %d, %r %r' % (rc, err, so))
    finally:
        env.close()


def same_duration(text, ns):
    """Whether a duration as the page writes it ("14.963 us", "1.094 ms") is ns, to its digits."""
    m = re.match(r'(\d+)(?:\.(\d+))? (s|ms|us|ns)$', text)
    expect(m, 'not a duration: %r' % text)
    unit = {'s': 1e9, 'ms': 1e6, 'us': 1e3, 'ns': 1}[m.group(3)]
    value = float(m.group(1) + '.' + (m.group(2) or '0')) * unit
    return abs(value - ns) <= unit / 10 ** len(m.group(2) or '') / 2 + 0.5


def calls_drawn(html, *args):
    """What chromium drew of the page's flame chart (view_calls.mjs's JSON)."""
    browser_ready()
    rc, out, err = run(['node', os.path.join(HERE, 'view_calls.mjs'), html] + list(args),
                       timeout=180)
    expect(rc == 0, 'view_calls.mjs failed (%d): %s' % (rc, err[-2000:]))
    seen = json.loads(out)
    expect(not seen['errors'], 'errors on the page: %s' % seen['errors'])
    expect(not seen['requests'], 'the page made network requests: %s' % seen['requests'])
    return seen


def rgb(hexcol):
    return [int(hexcol[i:i + 2], 16) for i in (1, 3, 5)]


def nesting_rows(dat):
    """How deep the calls of dat nest as their events come, per task: an exit closes the
    latest open entry of its function and depth (the ones opened after it lost their exits).
    Usually the kernel's depth field + 1, and so the call tree's depth; but an interrupt taken
    while a call returns is recorded inside it (the kernel pops the call's depth before it
    records the exit, so the interrupt's calls carry the call's own depth): one row deeper."""
    rc, out, err = run([tracekit(), 'report', '--json', '-i', dat], timeout=120)
    expect(rc == 0, 'report --json failed (%d): %s' % (rc, err))
    stacks, rows = {}, 0
    for line in out.splitlines():
        e = json.loads(line)
        g = e.get('graph')
        if not g:
            continue
        key = (e['fields'].get('func'), g['depth'])
        s = stacks.setdefault(e['pid'], [])
        if g['type'] == 'entry':
            s.append(key)
            continue
        for i in range(len(s) - 1, -1, -1):
            if s[i] == key:
                rows = max(rows, i + 1)
                del s[i:]
                break
        else:                           # entered before the recording
            rows = max(rows, g['depth'] + 1)
            s.clear()
    return rows


def check_flame(dat, html, shot=None):
    """
    The flame chart of a function_graph recording as drawn, against `tracekit calls`
    on the same file: a calls lane under the task's lane, a row per depth as deep as
    the calls nest (nesting_rows); each call wide enough drawn in its function's colour at its depth,
    inside its caller's slice, its tooltip naming it with the kernel's duration (the
    one calls adds up); a column of the outermost call where it ran its own code blank
    one row down.
    """
    rc, out, err = run([tracekit(), 'calls', '--json', '--top', '0', '--min-percent', '0', dat])
    expect(rc == 0, 'calls failed (%d): %s' % (rc, err))
    calls = json.loads(out)
    fns = {f['function']: f for f in calls['functions']}

    def depth(nodes):
        return max((1 + depth(n.get('children', [])) for n in nodes), default=0)
    tree_depth = max(depth(proc.get('children', [])) for proc in calls['tree'])
    want_rows = nesting_rows(dat)
    expect(want_rows >= tree_depth, 'the events nest %d deep, the call tree %d' %
           (want_rows, tree_depth))
    seen = calls_drawn(html, *(['--screenshot', shot] if shot else []))
    kinds = [(lane['kind'], lane.get('pid')) for lane in seen['lanes']]
    k = next((i for i, kp in enumerate(kinds) if kp[0] == 'calls'), -1)
    expect(k > 0 and kinds[k - 1] == ('task', kinds[k][1]),
           'no calls lane right under its task lane: %s' % kinds)
    expect(seen['rows'] == min(want_rows, 24),
           '%d rows drawn, the calls nest %d deep (the call tree: %d)' %
           (seen['rows'], want_rows, tree_depth))
    expect('function calls (function_graph)' in seen['legend'], 'legend: %r' % seen['legend'])
    drawn = seen['calls']
    expect(len(drawn) >= 10 and len({c['depth'] for c in drawn}) >= 3,
           'only %d calls (%d depths) wide enough to check' %
           (len(drawn), len({c['depth'] for c in drawn})))
    once = 0
    for c in drawn:
        expect(c['fn'] in fns, '%s drawn, not among calls\' functions' % c['fn'])
        expect(all(abs(a - b) <= 8 for a, b in zip(c['drawn'], rgb(c['colour']))),
               '%s at depth %d drawn %s, its colour is %s' %
               (c['fn'], c['depth'], c['drawn'], c['colour']))
        m = re.match(r'(\S+)\(\)  (\S+ \S+)\ndepth (\d+), self ', c['tip'])
        expect(m and m.group(1) == c['fn'] and int(m.group(3)) == c['depth'],
               'the tooltip over %s (depth %d) says %r' % (c['fn'], c['depth'], c['tip']))
        expect(same_duration(m.group(2), c['ns']), 'tooltip %r for %d ns' % (c['tip'], c['ns']))
        if fns[c['fn']]['calls'] == 1:
            once += 1
            expect(c['ns'] == fns[c['fn']]['total_ns'],
                   '%s drawn %d ns long, calls says %d' % (c['fn'], c['ns'],
                                                         fns[c['fn']]['total_ns']))
    expect(once >= 3, 'only %d functions called once to compare with calls' % once)
    expect(seen['outside_parent'] == 0, '%d calls drawn outside their caller' %
           seen['outside_parent'])
    col = seen.get('self_column')
    expect(col and all(abs(a - b) <= 8 for a, b in zip(col['top'], rgb(seen['top']['colour']))),
           'the outermost call %s is not drawn where it runs its own code: %s' %
           (seen['top']['fn'], col))
    expect(min(col['below']) >= 245, 'a callee drawn where none ran: %s' % col)
    return seen


FUNCGRAPH_FIXTURE = os.path.join(HERE, '..', 'fixtures', 'funcgraph-fsync.dat')


@case
def view_function_graph(_):
    """function_graph calls of a lab recording (tests/fixtures) as a flame chart."""
    env = Env()
    try:
        # A copy: the page is written beside it, not in the source tree.
        dat = env.path('funcgraph.dat')
        shutil.copyfile(OPTIONS.get('funcgraph') or FUNCGRAPH_FIXTURE, dat)
        html = env.view(dat)
        seen = check_flame(dat, html, OPTIONS.get('shot'))
        lane = next(lane for lane in seen['lanes'] if lane['kind'] == 'calls')
        expect(lane['n'] == seen['exits_listed'],
               '%d calls drawn, %d funcgraph exits listed' % (lane['n'], seen['exits_listed']))
        # Past --max-events the calls stop with the events kept: the page stays bounded.
        total, types, _ = stat(dat)
        cap = total - types.get('ftrace:funcgraph_exit', 0) // 2
        capped = calls_drawn(env.view(dat, '--max-events', str(cap)))
        lane = next((lane for lane in capped['lanes'] if lane['kind'] == 'calls'), None)
        expect(lane and 0 < lane['n'] == capped['exits_listed'] < seen['exits_listed'] and
               'the first %d ' % cap in capped['notice'],
               'capped page: calls lane %s, %d exits kept, notice %r' %
               (lane, capped['exits_listed'], capped['notice']))
    finally:
        env.close()


def setup(argv):
    for opt in ('--progs', '--shot', '--funcgraph'):
        if opt in argv:
            OPTIONS[opt[2:]] = argv[argv.index(opt) + 1]
    if 'progs' not in OPTIONS:
        raise SystemExit('test_view.py: --progs DIR is required')


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_view.py CASE --progs DIR [--shot FILE] [--funcgraph DAT] | --list', setup))

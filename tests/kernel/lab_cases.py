"""The lab's cases: shell scripts in tests/kernel/cases, run in the guest.

A case is cases/NAME.sh, run in the guest by guest-cases.sh with caselib.sh's
helpers (see docs/kernel-lab.md).  Lines "# lab: WORD ..." in it say how:

    # lab: fresh              its own boot (it breaks the kernel: an oops)
    # lab: append ARG...      kernel command line arguments (implies fresh)
    # lab: rt                  Debian's PREEMPT_RT kernel (one boot for all such cases)
    # lab: timeout SECONDS    in-guest time limit (default 120)
    # lab: net                 a network to the host (lab_net.py); its own boot

Cases without "fresh" or "net" share one boot, run in name order.  An optional
cases/NAME.host.sh runs on the host after the guest ran NAME.sh, with the
guest's output and console log; its status is then the case's (for what only
the host can see, such as a panicked guest's console).  A net case's host part
runs instead while the guest runs its part (the two ends of a connection);
the case passes when both parts do.

Results of a run go to one folder: BOOT/NAME.out and BOOT/NAME.rc for each case
(BOOT is "shared" or the fresh case's name), BOOT/console.log, and index.json
naming each case's boot folder.
"""

import json
import os
import re
import shlex
import shutil
import subprocess
import time

import lab_boot
import lab_image
import lab_net

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, 'cases')
SRC = os.path.dirname(os.path.dirname(HERE))
SHARED = 'shared'
DEFAULT_TIMEOUT = 120
# Boot and shutdown on TCG, on top of the cases' own time; a boot never takes longer than
# BOOT_MAX (under kernel-lab's meson timeout), whatever the cases' limits add up to.
# ASan builds run the shared boot (25 cases) in about 1.7x its 386 s on TCG.
BOOT_SLACK = 120
BOOT_MAX = 1400
# A net case's host part may finish its checks after the guest powered off: this long.
HOST_GRACE = 120
PASS_ENV = ('ASAN_OPTIONS', 'LSAN_OPTIONS', 'UBSAN_OPTIONS', 'CI')


class Case:
    def __init__(self, name):
        self.name = name
        self.path = os.path.join(CASES, name + '.sh')
        self.host = os.path.join(CASES, name + '.host.sh')
        if not os.path.exists(self.host):
            self.host = None
        self.fresh = False
        self.rt = False
        self.net = False
        self.append = []
        self.timeout = DEFAULT_TIMEOUT
        with open(self.path) as f:
            for line in f:
                m = re.match(r'#\s*lab:\s*(\w+)\s*(.*)', line)
                if m:
                    self._directive(m.group(1), m.group(2).split())

    def _directive(self, word, args):
        if word == 'fresh':
            self.fresh = True
        elif word == 'append':
            self.fresh = True
            self.append += args
        elif word == 'rt':
            self.rt = True
        elif word == 'net':
            self.net = True
        elif word == 'timeout':
            self.timeout = int(args[0])
        else:
            raise ValueError('%s: unknown directive "# lab: %s"' % (self.path, word))

    @property
    def boot(self):
        return self.name if self.fresh or self.net else 'shared-rt' if self.rt else SHARED


def discover():
    names = sorted(f[:-3] for f in os.listdir(CASES)
                   if f.endswith('.sh') and not f.endswith('.host.sh'))
    return [Case(n) for n in names]


def lab_conf(kernel, build, net=False):
    env = {
        'LAB_SRC': SRC,
        'LAB_BUILD': build,
        'LAB_RELEASE': kernel.release,
        'LAB_MODULES': kernel.modules,
        'LAB_KMOD': os.path.join(build, 'tests', 'kernel', 'modules'),
        'TRACEKIT': os.path.join(build, 'tracekit'),
        'HOME': '/tmp',
        'PATH': '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    }
    if net:
        env.update(lab_net.lab_conf())
    for k in PASS_ENV:
        if k in os.environ:
            env[k] = os.environ[k]
    # A sanitizer build in the guest (the options are ignored by a plain one): ASan's fast
    # unwinder even when the caller's options turn it off (some of our unit tests do), since
    # unwinding every malloc the slow way on the emulated CPU makes it minutes slow; and a
    # quarantine of 32 MB, not 256: tracekit under ASan grew to 340 MB (30 MB without), two
    # of them (net-agent-tk-both) pressed the guest's memory until its kernel stalled in
    # reclaim for minutes (soft lockups in a tracekit process; a 450 MB guest OOM-killed one).
    asan = ['fast_unwind_on_malloc=1', 'quarantine_size_mb=32']
    env['ASAN_OPTIONS'] = ':'.join(([env['ASAN_OPTIONS']] if env.get('ASAN_OPTIONS') else []) +
                                   asan)
    return ''.join('export %s=%s\n' % (k, shlex.quote(v)) for k, v in env.items())


def prepare(labdir, kernel, build, job, net=False):
    """A fresh lab folder with lab.conf and the job."""
    if os.path.isdir(labdir):
        shutil.rmtree(labdir)
    os.makedirs(labdir)
    with open(os.path.join(labdir, 'lab.conf'), 'w') as f:
        f.write(lab_conf(kernel, build, net))
    with open(os.path.join(labdir, 'job'), 'w') as f:
        f.write(job)


def boot(kernel, initrd, labdir, append=(), timeout=600, echo=False, interactive=False,
         net=False):
    """One boot; with net, inside lab_net.Reservation() (the caller's)."""
    g = lab_boot.Guest(kernel, initrd, SRC, labdir, append, net=net)
    rc = g.run(os.path.join(labdir, 'console.log'), timeout, echo, interactive)
    return rc, g.accel


def host_env(case, labdir, build):
    """The environment of a case's host part (caselib.sh's, on the host)."""
    return dict(os.environ, CASE=case.name, LAB_SRC=SRC, LAB_BUILD=build,
                LAB_KMOD=os.path.join(build, 'tests', 'kernel', 'modules'),
                TRACEKIT=os.path.join(build, 'tracekit'), LAB_SHARED=labdir)


def start_peer(case, labdir, build):
    """A net case's host part, started before its boot: NAME.host.out, .host.rc, .host.d."""
    d = os.path.join(labdir, case.name + '.host.d')
    os.makedirs(d, exist_ok=True)
    env = host_env(case, labdir, build)
    env.update(CASE_DIR=d, LAB_SIDE='host', LAB_NET_HOST='127.0.0.1',
               LAB_NET_PORTS=lab_net.lab_conf()['LAB_NET_PORTS'])
    out = open(os.path.join(labdir, case.name + '.host.out'), 'w')
    p = subprocess.Popen(['/bin/sh', '-c', '. "$1"; . "$2"', 'host',
                          os.path.join(HERE, 'caselib.sh'), case.host],
                         env=env, cwd=d, stdout=out, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    out.close()
    return p


def finish_peer(p, case, labdir):
    """Wait for the host part (HOST_GRACE after the guest ended), kill it past that."""
    try:
        rc = p.wait(HOST_GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        p.wait()
        with open(os.path.join(labdir, case.name + '.host.out'), 'a') as f:
            f.write('lab: the host part was still running %d s after the guest ended: '
                    'killed\n' % HOST_GRACE)
        rc = 1
    # what it started and left running (a listener after a failed step) goes with it
    try:
        os.killpg(p.pid, 9)
    except ProcessLookupError:
        pass
    with open(os.path.join(labdir, case.name + '.host.rc'), 'w') as f:
        f.write('%d\n' % rc)


def build_modules(kernel, build, log=print):
    """examples/kernel built against the lab kernel's headers into the build folder.

    Copied there first (unchanged files keep their time, so make rebuilds only
    what changed): Kbuild writes its objects next to the sources.  A failure is
    left in build.log there, which the cases that need a module show."""
    src = os.path.join(SRC, 'examples', 'kernel')
    dest = os.path.join(build, 'tests', 'kernel', 'modules')
    os.makedirs(dest, exist_ok=True)
    _mirror(src, dest)
    kdir = '/usr/src/linux-headers-' + kernel.release
    if not os.path.isdir(kdir) and os.geteuid() == 0:
        # linux-headers-amd64 (install-deps) may lag the image the metapackage names today
        log('lab: installing linux-headers-%s' % kernel.release)
        subprocess.run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends',
                        'linux-headers-' + kernel.release], stdout=subprocess.DEVNULL)
    with open(os.path.join(dest, 'build.log'), 'w') as f:
        if not os.path.isdir(kdir):
            f.write('no headers for %s in %s: apt-get install linux-headers-%s\n'
                    % (kernel.release, kdir, kernel.release))
            return False
        r = subprocess.run(['make', '-C', dest, 'KDIR=' + kdir], stdout=f,
                           stderr=subprocess.STDOUT)
    if r.returncode != 0:
        log('lab: building examples/kernel failed: see %s' % os.path.join(dest, 'build.log'))
    return r.returncode == 0


def _mirror(src, dest):
    for dirpath, _, files in os.walk(src):
        rel = os.path.relpath(dirpath, src)
        os.makedirs(os.path.join(dest, rel), exist_ok=True)
        for f in files:
            a, b = os.path.join(dirpath, f), os.path.join(dest, rel, f)
            if not os.path.exists(b) or _read(a) != _read(b):
                shutil.copy2(a, b)


def _read(p):
    with open(p, 'rb') as f:
        return f.read()


def boot_net(kernel, initrd, labdir, build, group, append, timeout, log):
    """A boot with the network: the ports reserved, the host parts running beside it."""
    try:
        with lab_net.Reservation():
            peers = [(c, start_peer(c, labdir, build)) for c in group if c.host]
            try:
                return boot(kernel, initrd, labdir, append, timeout, net=True)
            finally:
                for c, p in peers:
                    # a guest that died leaves its side unsaid: the host part stops waiting
                    if not os.path.exists(os.path.join(labdir, c.name + '.rc')):
                        open(os.path.join(labdir, c.name + '.guest.failed'), 'w').close()
                    finish_peer(p, c, labdir)
    except lab_image.LabError as e:
        with open(os.path.join(labdir, 'console.log'), 'w') as f:
            f.write('lab: %s\n' % e)
        log('lab: boot %s: %s' % (labdir, e))
        return None, 'not booted'


def run_cases(outdir, build, cases, log=print):
    """Boot once for the shared cases and once per fresh case; write index.json."""
    kernel = lab_image.kernel(log=log)
    initrd = lab_image.initramfs(kernel)
    build_modules(kernel, build, log)
    stock = (kernel, initrd)
    groups = {}
    for c in cases:
        groups.setdefault(c.boot, []).append(c)
    index = {}
    for bootname, group in sorted(groups.items(), key=lambda g: g[0] != SHARED):
        labdir = os.path.join(outdir, bootname)
        job = 'exec /bin/sh %s %s\n' % (
            shlex.quote(os.path.join(HERE, 'guest-cases.sh')),
            ' '.join('%s:%d' % (c.name, c.timeout) for c in group))
        # The rt cases' boot: Debian's PREEMPT_RT kernel (no modules are built for it).
        kernel, initrd = stock
        if any(c.rt for c in group):
            kernel = lab_image.kernel(rt=True, log=log)
            initrd = lab_image.initramfs(kernel)
        net = any(c.net for c in group)
        prepare(labdir, kernel, build, job, net)
        append = sorted({a for c in group for a in c.append})
        timeout = min(BOOT_MAX, BOOT_SLACK + sum(c.timeout for c in group))
        start = time.monotonic()
        if net:
            rc, accel = boot_net(kernel, initrd, labdir, build, group, append, timeout, log)
        else:
            rc, accel = boot(kernel, initrd, labdir, append, timeout)
        log('lab: boot %s (%s, %s, %.0f s, %d cases): %s' % (
            bootname, kernel.release, accel, time.monotonic() - start, len(group),
            'job exit %s' % rc if rc is not None else 'the guest ended without finishing its job'))
        for c in group:
            index[c.name] = {'boot': bootname, 'accel': accel, 'release': kernel.release}
    with open(os.path.join(outdir, 'index.json'), 'w') as f:
        json.dump(index, f, indent=1)
    return index

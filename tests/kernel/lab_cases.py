"""The lab's cases: shell scripts in tests/kernel/cases, run in the guest.

A case is cases/NAME.sh, run in the guest by guest-cases.sh with caselib.sh's
helpers (see docs/kernel-lab.md).  Lines "# lab: WORD ..." in it say how:

    # lab: fresh              its own boot (it breaks the kernel: an oops)
    # lab: append ARG...      kernel command line arguments (implies fresh)
    # lab: rt                  Debian's PREEMPT_RT kernel (one boot for all such cases)
    # lab: timeout SECONDS    in-guest time limit (default 120)

Cases without "fresh" share one boot, run in name order.  An optional
cases/NAME.host.sh runs on the host after the guest ran NAME.sh, with the
guest's output and console log; its status is then the case's (for what only
the host can see, such as a panicked guest's console).

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

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, 'cases')
SRC = os.path.dirname(os.path.dirname(HERE))
SHARED = 'shared'
DEFAULT_TIMEOUT = 120
# Boot and shutdown on TCG, on top of the cases' own time; a boot never takes longer than
# BOOT_MAX (under kernel-lab's meson timeout), whatever the cases' limits add up to.
BOOT_SLACK = 120
BOOT_MAX = 600
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
        elif word == 'timeout':
            self.timeout = int(args[0])
        else:
            raise ValueError('%s: unknown directive "# lab: %s"' % (self.path, word))

    @property
    def boot(self):
        return self.name if self.fresh else 'shared-rt' if self.rt else SHARED


def discover():
    names = sorted(f[:-3] for f in os.listdir(CASES)
                   if f.endswith('.sh') and not f.endswith('.host.sh'))
    return [Case(n) for n in names]


def lab_conf(kernel, build):
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
    for k in PASS_ENV:
        if k in os.environ:
            env[k] = os.environ[k]
    return ''.join('export %s=%s\n' % (k, shlex.quote(v)) for k, v in env.items())


def prepare(labdir, kernel, build, job):
    """A fresh lab folder with lab.conf and the job."""
    if os.path.isdir(labdir):
        shutil.rmtree(labdir)
    os.makedirs(labdir)
    with open(os.path.join(labdir, 'lab.conf'), 'w') as f:
        f.write(lab_conf(kernel, build))
    with open(os.path.join(labdir, 'job'), 'w') as f:
        f.write(job)


def boot(kernel, initrd, labdir, append=(), timeout=600, echo=False, interactive=False):
    g = lab_boot.Guest(kernel, initrd, SRC, labdir, append)
    rc = g.run(os.path.join(labdir, 'console.log'), timeout, echo, interactive)
    return rc, g.accel


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
        prepare(labdir, kernel, build, job)
        append = sorted({a for c in group for a in c.append})
        timeout = min(BOOT_MAX, BOOT_SLACK + sum(c.timeout for c in group))
        start = time.monotonic()
        rc, accel = boot(kernel, initrd, labdir, append, timeout)
        log('lab: boot %s (%s, %s, %.0f s, %d cases): %s' % (
            bootname, kernel.release, accel, time.monotonic() - start, len(group),
            'job exit %s' % rc if rc is not None else 'the guest ended without finishing its job'))
        for c in group:
            index[c.name] = {'boot': bootname, 'accel': accel, 'release': kernel.release}
    with open(os.path.join(outdir, 'index.json'), 'w') as f:
        json.dump(index, f, indent=1)
    return index

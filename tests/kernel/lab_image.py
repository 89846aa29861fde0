"""The lab's kernel: Debian's stock kernel package, unpacked into a cache, and
the initramfs that boots it into the host's root.

The package is fetched with `apt-get download` and unpacked with `dpkg -x`:
nothing is installed, so the host's own boot never changes.  Which package is
current comes from the metapackage's dependency (linux-image-amd64 depends on
linux-image-ABI-amd64), never from a number written here.  Without apt (no
lists, offline) the newest unpacked copy in the cache is used.

The cache folder is $TRACEKIT_LAB_CACHE, else /var/cache/tracekit-lab for root,
else ~/.cache/tracekit-lab; one subfolder per package and version, complete
when it holds .complete (an interrupted unpack is redone).
"""

import fcntl
import glob
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
META = {False: 'linux-image-amd64', True: 'linux-image-rt-amd64'}
# What the initramfs loads to mount the host's root, and the network card of the cases that
# ask for one: the module names; their dependencies come from modules.dep.
BOOT_MODULES = ['virtio_pci', '9pnet_virtio', '9p', 'virtio_net']


class LabError(Exception):
    """A prerequisite the lab cannot get: one line saying what and how to fix it."""


def missing_tools():
    """The host tools the lab needs and lacks, as apt package names."""
    need = {'qemu-system-x86_64': 'qemu-system-x86', 'busybox': 'busybox-static',
            'depmod': 'kmod', 'cpio': 'cpio', 'apt-get': 'apt'}
    extra = ['/sbin', '/usr/sbin', '/bin']
    path = os.environ.get('PATH', '') + ':' + ':'.join(extra)
    return sorted({pkg for tool, pkg in need.items() if not shutil.which(tool, path=path)})


def cache_root():
    env = os.environ.get('TRACEKIT_LAB_CACHE')
    if env:
        return env
    if os.geteuid() == 0:
        return '/var/cache/tracekit-lab'
    return os.path.join(os.environ.get('XDG_CACHE_HOME', os.path.expanduser('~/.cache')),
                        'tracekit-lab')


def _out(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=False).stdout
    except OSError:
        return ''


def current_package(rt):
    """(package, version) the metapackage points at today, or None without apt."""
    meta = META[rt]
    m = re.search(r'Depends:\s*(linux-image-\S+)', _out(['apt-cache', 'depends', meta]))
    if not m:
        return None
    pkg = m.group(1)
    v = re.search(r'^Version:\s*(\S+)', _out(['apt-cache', 'show', '--no-all-versions', pkg]),
                  re.M)
    return (pkg, v.group(1)) if v else None


class Kernel:
    """An unpacked kernel package: vmlinuz, its modules, its version string."""

    def __init__(self, root):
        self.root = root
        vmlinuz = sorted(glob.glob(os.path.join(root, 'boot', 'vmlinuz-*')))
        if not vmlinuz:
            raise LabError('%s holds no boot/vmlinuz-*: remove it and run again' % root)
        self.vmlinuz = vmlinuz[-1]
        self.release = os.path.basename(self.vmlinuz)[len('vmlinuz-'):]
        self.modules = os.path.join(root, 'lib', 'modules', self.release)


def _unpack(pkg, version, dest):
    """apt-get download + dpkg -x + depmod into dest (made whole or not at all)."""
    work = tempfile.mkdtemp(prefix='unpack-', dir=os.path.dirname(dest))
    try:
        r = subprocess.run(['apt-get', 'download', '%s=%s' % (pkg, version)], cwd=work,
                           capture_output=True, text=True)
        debs = glob.glob(os.path.join(work, '*.deb'))
        if r.returncode != 0 or not debs:
            raise LabError('apt-get download %s failed: %s' % (pkg, r.stderr.strip()[-300:]))
        root = os.path.join(work, 'root')
        subprocess.run(['dpkg', '-x', debs[0], root], check=True)
        os.unlink(debs[0])
        k = Kernel(root)
        subprocess.run(['depmod', '-b', root, k.release], check=True)
        open(os.path.join(root, '.complete'), 'w').close()
        if os.path.isdir(dest):
            shutil.rmtree(dest)
        os.rename(root, dest)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _cached(cache, rt):
    """The newest complete unpacked kernel of the wanted flavour, or None."""
    found = []
    for d in glob.glob(os.path.join(cache, 'linux-image-*')):
        if os.path.exists(os.path.join(d, '.complete')) and ('-rt-' in d) == rt:
            found.append(d)
    return max(found, key=os.path.getmtime) if found else None


def kernel(rt=False, log=print):
    """The lab kernel, fetched and unpacked on first use."""
    cache = cache_root()
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, '.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        cur = current_package(rt)
        if cur is None and os.geteuid() == 0:
            # a fresh machine may have no package lists yet
            subprocess.run(['apt-get', 'update', '-qq'], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            cur = current_package(rt)
        if cur is None:
            have = _cached(cache, rt)
            if not have:
                raise LabError('cannot resolve %s with apt-cache and nothing is cached in %s: '
                               'run apt-get update' % (META[rt], cache))
            return Kernel(have)
        dest = os.path.join(cache, '%s_%s' % cur)
        if not os.path.exists(os.path.join(dest, '.complete')):
            log('lab: fetching %s %s into %s' % (cur[0], cur[1], cache))
            _unpack(cur[0], cur[1], dest)
        return Kernel(dest)


def _module_deps(k):
    """modules.dep as {name: (path, [dep paths])}."""
    deps = {}
    with open(os.path.join(k.modules, 'modules.dep')) as f:
        for line in f:
            path, _, rest = line.partition(':')
            name = os.path.basename(path).split('.ko')[0]
            deps[name] = (path, rest.split())
    return deps


def boot_module_order(k):
    """The .ko paths to insmod, dependencies first, for BOOT_MODULES."""
    deps = _module_deps(k)
    by_path = {p: n for n, (p, _) in deps.items()}
    order = []

    def visit(path):
        if path in order:
            return
        for d in reversed(deps[by_path[path]][1]):  # modules.dep lists the nearest first
            visit(d)
        order.append(path)
    for name in BOOT_MODULES:
        if name not in deps:
            raise LabError('%s has no module %s' % (k.modules, name))
        visit(deps[name][0])
    return order


def initramfs(k):
    """A busybox-static initramfs with tests/kernel/init and the 9p modules; cached by content."""
    busybox = shutil.which('busybox') or '/bin/busybox'
    if not os.path.exists(busybox):
        raise LabError('busybox not found: apt-get install busybox-static')
    init = os.path.join(HERE, 'init')
    mods = boot_module_order(k)
    h = hashlib.sha256()
    for p in [init, busybox] + [os.path.join(k.modules, m) for m in mods]:
        with open(p, 'rb') as f:
            h.update(f.read())
    out = os.path.join(k.root, 'initramfs-%s.cpio' % h.hexdigest()[:16])
    if os.path.exists(out):
        return out
    stage = tempfile.mkdtemp(prefix='initramfs-', dir=k.root)
    try:
        for d in ('bin', 'dev', 'proc', 'sys', 'host', 'out', 'modules'):
            os.mkdir(os.path.join(stage, d))
        shutil.copy(busybox, os.path.join(stage, 'bin', 'busybox'))
        os.symlink('busybox', os.path.join(stage, 'bin', 'sh'))
        shutil.copy(init, os.path.join(stage, 'init'))
        with open(os.path.join(stage, 'modules', 'order'), 'w') as f:
            for m in mods:
                shutil.copy(os.path.join(k.modules, m), os.path.join(stage, 'modules'))
                f.write(os.path.basename(m) + '\n')
        names = subprocess.run(['find', '.'], cwd=stage, capture_output=True, check=True).stdout
        tmp = out + '.tmp'
        with open(tmp, 'wb') as f:
            subprocess.run(['cpio', '--quiet', '-o', '-H', 'newc'], cwd=stage, input=names,
                           stdout=f, check=True)
        os.rename(tmp, out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return out

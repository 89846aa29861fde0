"""Booting the lab's guest under qemu and following its console.

One boot runs one job (a shell script in the lab folder, see init) and powers
off.  The console (the guest's ttyS0) is written whole to a log file; the job's
end is the init's line "tracekit-lab: exit N", or qemu's own exit when the
guest panicked (panic=-1 reboots at once, -no-reboot turns that into an exit).

KVM is used where it works.  A KVM that cannot run guests (nested
virtualisation missing) shows as a guest that never comes up, or as a qemu
that stops at once; the first boot waits KVM_READY seconds for the init's
"ready" line, then falls back to TCG and remembers that for this host boot
(the cache's kvm-broken file, keyed by the host's boot_id), so later runs go
straight to TCG.
"""

import os
import select
import subprocess
import sys
import time

import lab_net
from lab_image import cache_root

KVM_READY = 12
# -cpu max under KVM asks for MSRs some hosts refuse.
ACCEL = {'kvm': ['-accel', 'kvm', '-cpu', 'host'], 'tcg': ['-accel', 'tcg', '-cpu', 'max']}
READY = b'tracekit-lab: ready'
EXIT = b'tracekit-lab: exit '
QEMU = 'qemu-system-x86_64'


def _boot_id():
    try:
        with open('/proc/sys/kernel/random/boot_id') as f:
            return f.read().strip()
    except OSError:
        return 'unknown'


def _kvm_note():
    return os.path.join(cache_root(), 'kvm-broken')


def kvm_usable():
    forced = os.environ.get('TRACEKIT_LAB_ACCEL')
    if forced:
        return forced == 'kvm'
    if not os.access('/dev/kvm', os.R_OK | os.W_OK):
        return False
    try:
        with open(_kvm_note()) as f:
            return f.read().strip() != _boot_id()
    except OSError:
        return True


def _note_kvm_broken():
    try:
        with open(_kvm_note(), 'w') as f:
            f.write(_boot_id() + '\n')
    except OSError:
        pass


class Guest:
    """One boot: kernel, initramfs, the shares and the kernel command line."""

    def __init__(self, kernel, initrd, src, labdir, append=(), memory=1024, cpus=1, net=False):
        self.kernel, self.initrd = kernel, initrd
        self.net = net
        self.src, self.labdir = src, labdir
        self.append = ['console=ttyS0', 'panic=-1', 'quiet'] + list(append)
        self.memory, self.cpus = memory, cpus
        self.accel = None

    def command(self, accel, interactive):
        share = 'local,security_model=none,'
        return [QEMU] + ACCEL[accel] + ['-m', str(self.memory),
                '-smp', str(self.cpus), '-nodefaults', '-no-user-config', '-display', 'none',
                # qemu's threads named ("CPU 0/TCG"): a host recording maps vCPUs to them
                '-name', 'tracekit-lab,debug-threads=on',
                '-serial', 'mon:stdio' if interactive else 'stdio', '-no-reboot',
                '-kernel', self.kernel.vmlinuz, '-initrd', self.initrd,
                '-append', ' '.join(self.append),
                '-virtfs', share + 'path=/,mount_tag=host,readonly=on,multidevs=remap',
                '-virtfs', share + 'path=%s,mount_tag=src' % self.src,
                '-virtfs', share + 'path=%s,mount_tag=out' % self.labdir] + (
                lab_net.qemu_args() if self.net else [])

    def run(self, console, timeout, echo=False, interactive=False):
        """Boot, run the job, return its status (None: the guest died or timed out)."""
        accels = ['kvm', 'tcg'] if kvm_usable() else ['tcg']
        for accel in accels:
            rc = self._boot(accel, console, timeout, echo, interactive,
                            ready_by=KVM_READY if accel == 'kvm' and len(accels) > 1 else None)
            if rc != 'no-output':
                self.accel = accel
                return rc
            _note_kvm_broken()
            if echo:
                print('lab: the KVM guest did not come up in %ds: using TCG' % KVM_READY,
                      file=sys.stderr)
        return None

    def _boot(self, accel, console, timeout, echo, interactive, ready_by):
        stdin = None if interactive else subprocess.DEVNULL
        p = subprocess.Popen(self.command(accel, interactive), stdin=stdin,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        with open(console, 'wb') as log:
            follower = _Console(log, echo, sys.stdout.isatty())
            try:
                return follower.follow(p, timeout, ready_by)
            finally:
                if p.poll() is None:
                    p.kill()
                p.wait()


class _Console:
    """Reads qemu's output: logs it, finds the markers, echoes the job's part."""

    def __init__(self, log, echo, raw):
        self.log, self.echo, self.raw = log, echo, raw
        self.ready = False
        self.line = b''
        self.status = None

    def follow(self, p, timeout, ready_by):
        start = time.monotonic()
        fd = p.stdout.fileno()
        while True:
            now = time.monotonic()
            if ready_by and not self.ready and now - start > ready_by:
                return 'no-output'
            if now - start > timeout:
                self.log.write(b'\ntracekit-lab: host: guest timed out after %ds\n' % timeout)
                return None
            r, _, _ = select.select([fd], [], [], 0.05)
            if not r:
                self._flush_partial()
                continue
            data = os.read(fd, 65536)
            if not data:
                break
            self.log.write(data)
            self.log.flush()
            self._feed(data)
            if self.status is not None:
                return self.status
        p.wait()
        if ready_by and not self.ready:
            return 'no-output'
        return self.status

    def _feed(self, data):
        self.line += data
        while b'\n' in self.line:
            line, self.line = self.line.split(b'\n', 1)
            self._whole(line + b'\n')

    def _whole(self, line):
        bare = line.rstrip(b'\r\n')
        if bare.startswith(EXIT):
            try:
                self.status = int(bare[len(EXIT):])
            except ValueError:
                self.status = None
            return
        if bare == READY:
            self.ready = True
            return
        self._write(line)

    def _flush_partial(self):
        # A prompt has no newline: show it once the output pauses, unless it may be a marker.
        bare = self.line.lstrip(b'\r')
        if bare and not EXIT.startswith(bare):
            self._write(self.line)
            self.line = b''

    def _write(self, data):
        if not (self.echo and self.ready):
            return
        if not self.raw:
            data = data.replace(b'\r\n', b'\n')
        sys.stdout.buffer.write(data)
        sys.stdout.flush()

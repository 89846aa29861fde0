"""The lab's network, for the cases that ask for it ("# lab: net"; docs/kernel-lab.md).

qemu's user network (slirp) with a virtio-net card: the guest is 10.0.2.15/24,
and 10.0.2.2, its gateway, is this machine's loopback, so a guest reaches a
listener on the host's 127.0.0.1 at 10.0.2.2.  The other way, a fixed range of
ports is forwarded from the host's 127.0.0.1 to the same ports in the guest
(hostfwd, TCP and UDP), bound to 127.0.0.1 only.

The range is fixed because trace-cmd's agent picks its data and time-sync
ports at run time from 1500 up and tells the host to connect to them there:
the host's port must be the guest's.  So only one lab boot with a network can
run on a machine at a time: the boots take a lock (the lab cache's net.lock)
for their whole run, and a range that something else holds is waited for
(WAIT_FREE seconds), then named, never taken over.
"""

import fcntl
import os
import socket
import time

from lab_image import LabError, cache_root

FIRST = 1500
COUNT = 16
GUEST = '10.0.2.15'
HOST = '10.0.2.2'
WAIT_FREE = 120


def ports():
    return range(FIRST, FIRST + COUNT)


def _taken(port, kind):
    s = socket.socket(socket.AF_INET, kind)
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(('127.0.0.1', port))
        return False
    except OSError:
        return True
    finally:
        s.close()


class Reservation:
    """The network's lock, held while the guest runs; the ports checked free."""

    def __init__(self):
        self.lock = None

    def __enter__(self):
        os.makedirs(cache_root(), exist_ok=True)
        self.lock = open(os.path.join(cache_root(), 'net.lock'), 'w')
        # another lab run's boot with a network: wait for it (one at a time)
        fcntl.flock(self.lock, fcntl.LOCK_EX)
        # a test on this machine's loopback may hold some for a moment (trace-cmd's agent
        # takes 1500 up there too): wait a while before giving up
        deadline = time.monotonic() + WAIT_FREE
        while True:
            busy = [p for p in ports() for k in (socket.SOCK_STREAM, socket.SOCK_DGRAM)
                    if _taken(p, k)]
            if not busy or time.monotonic() > deadline:
                break
            time.sleep(2)
        if busy:
            self.__exit__()
            raise LabError('port%s %s on 127.0.0.1 in use: the lab forwards %d-%d to its guest '
                           '(trace-cmd agent picks its ports from %d up); free them and run '
                           'again (ss -tulpn names the holder)' % (
                               's' if len(set(busy)) > 1 else '',
                               ', '.join(str(p) for p in sorted(set(busy))),
                               FIRST, FIRST + COUNT - 1, FIRST))
        return self

    def __exit__(self, *exc):
        if self.lock:
            self.lock.close()
            self.lock = None


def qemu_args():
    fwd = ''.join(',hostfwd=%s:127.0.0.1:%d-:%d' % (proto, p, p)
                  for p in ports() for proto in ('tcp', 'udp'))
    return ['-netdev', 'user,id=net0,net=10.0.2.0/24,host=%s%s' % (HOST, fwd),
            '-device', 'virtio-net-pci,netdev=net0']


def lab_conf():
    """The guest's settings (lab.conf): init configures eth0 with them; cases read them."""
    return {'LAB_NET': GUEST, 'LAB_NET_HOST': HOST,
            'LAB_NET_PORTS': '%d-%d' % (FIRST, FIRST + COUNT - 1)}

#!/usr/bin/env python3
"""Self-test of compare.py on fixed trace text: what must compare equal does,
and what is a real difference (a flag, a small hex value, a reordering) is
still caught.  Needs neither strace nor tracekit."""

import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import compare  # noqa: E402

FAILS = []


def check(ok, what):
    print('%s: %s' % ('ok' if ok else 'FAIL', what))
    if not ok:
        FAILS.append(what)


def verdict(a, b, only=None, racy=frozenset()):
    na = compare.normalise(a.strip('\n').split('\n'), only, racy)
    nb = compare.normalise(b.strip('\n').split('\n'), only, racy)
    ratio, problems = compare.compare(na, nb, 'a', 'b', out=io.StringIO())
    return ratio, problems


BASE = """\
100 execve("/bin/x", ["x"], 0x7ffc1a77dbd8 /* 37 vars */) = 0
100 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7efffc61e000
100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7fa487690a10) = 101
101 getpid( <unfinished ...>
100 wait4(101,  <unfinished ...>
101 <... getpid resumed>)             = 101
101 exit_group(7)                     = ?
101 +++ exited with 7 +++
100 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 7}], 0, NULL) = 101
100 getppid()                         = 55
100 fcntl(3, F_GETFL)                 = 0x8002 (flags O_RDWR|O_LARGEFILE)
100 +++ exited with 0 +++
"""

# Same run with other pids, addresses, env size and interleaving.
OTHER_RUN = """\
2000 execve("/bin/x", ["x"], 0x7ffd00000008 /* 38 vars */) = 0
2000 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000001000
2000 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f1234560a10) = 20001
2000 wait4(20001,  <unfinished ...>
20001 getpid()                        = 20001
20001 exit_group(7)                   = ?
20001 +++ exited with 7 +++
2000 <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 7}], 0, NULL) = 20001
2000 getppid()                        = 1999
2000 fcntl(3, F_GETFL)                = 0x8002 (flags O_RDWR|O_LARGEFILE)
2000 +++ exited with 0 +++
"""

r, p = verdict(BASE, OTHER_RUN)
check(r == 1.0 and not p, 'pids, addresses, env size, padding and interleaving compare equal')

r, p = verdict(BASE, BASE.replace('MAP_PRIVATE|MAP_ANONYMOUS', 'MAP_PRIVATE'))
check(r < 1.0, 'a missing flag is a difference')

r, p = verdict(BASE, BASE.replace('= 0x8002 (flags', '= 0x8000 (flags'))
check(r < 1.0, 'a small hex value is compared, not taken for an address')

r, p = verdict(BASE, BASE.replace('WEXITSTATUS(s) == 7', 'WEXITSTATUS(s) == 0'))
check(r < 1.0, 'a wrong decoded status is a difference')

lines = BASE.split('\n')
i = next(n for n, x in enumerate(lines) if 'getppid' in x)
lines[i], lines[i + 1] = lines[i + 1], lines[i]
r, p = verdict(BASE, '\n'.join(lines))
check(bool(p), 'two lines of one thread in another order are an order problem')

r, p = verdict(BASE, OTHER_RUN, only={'fcntl'})
check(r == 1.0, '--only keeps the named syscalls')
na = compare.normalise(BASE.split('\n'), {'fcntl'})
check(sum(len(v) for v in na.values()) == 1, '--only drops the other lines')

na = compare.normalise(BASE.split('\n'), None, frozenset({'getppid'}))
check(not any('getppid' in x for v in na.values() for x in v), '--racy leaves the lines out')

SOCK = """\
1 bind(3, {sa_family=AF_INET, sin_port=htons(0), sin_addr=inet_addr("127.0.0.1")}, 16) = 0
1 getsockname(3, {sa_family=AF_INET, sin_port=htons(%d), sin_addr=inet_addr("127.0.0.1")}, [16]) = 0
1 connect(4, {sa_family=AF_INET, sin_port=htons(%d), sin_addr=inet_addr("127.0.0.1")}, 16) = 0
"""
lo, hi = compare.port_range()
r, p = verdict(SOCK % (lo + 1, lo + 1), SOCK % (lo + 7, lo + 7))
check(r == 1.0, 'kernel-chosen ports compare equal when used the same way')
r, p = verdict(SOCK % (lo + 1, lo + 1), SOCK % (lo + 7, lo + 8))
check(r < 1.0, 'a port that should repeat an earlier one but does not is a difference')
r, p = verdict(SOCK % (lo + 1, lo + 1), (SOCK % (lo + 1, lo + 1)).replace('htons(0)', '0'))
check(r < 1.0, 'htons(0) is still compared')

T = '1 clock_gettime(CLOCK_MONOTONIC, {tv_sec=%d, tv_nsec=%d}) = 0\n'
r, p = verdict(T % (5, 10), T % (9, 99))
check(r == 1.0, 'the time read by clock_gettime is not compared')
N = '1 nanosleep({tv_sec=0, tv_nsec=%d}, NULL) = 0\n'
r, p = verdict(N % 1000000, N % 2000000)
check(r < 1.0, 'the time given to nanosleep is compared')

C3 = ('1 clone3({flags=CLONE_VM, child_tid=0x7f0000000990} => {parent_tid=[%s]}, 88) = 2\n'
      '2 exit(0) = ?\n')
r, p = verdict(C3 % '2', C3 % '0')
check(r == 1.0, "clone3's parent_tid cleared to 0 by an exited thread compares equal")
r, p = verdict(C3 % '2', C3 % '5')
check(r < 1.0, "clone3's parent_tid with another tid is a difference")

sys.exit(1 if FAILS else 0)

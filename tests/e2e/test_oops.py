#!/usr/bin/env python3
"""tracekit oops on real reports and on reports written against a real ELF.

sample-* cases: the real reports in tests/fixtures/oops (case-NN.txt) must give every
fact their EXPECTED.md lists; the frames lists are read from EXPECTED.md itself.
synthetic-* cases: reports of the kinds and log formats the samples lack.
fileline-* cases: a report written at test time against tests/oops/oopsprog's symbols
(function+offset/size from nm, return addresses from objdump), decoded with --vmlinux
or --modules, compared line by line with `addr2line -i -f`.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from e2elib import CASES, Fail, Skip, case, expect, main, run, tracekit  # noqa: E402

ARGS = {}


def decode(*argv, rc=0):
    status, out, err = run([tracekit(), 'oops'] + list(argv))
    expect(status == rc, 'tracekit oops %s: exit %d, want %d; stderr: %s' % (
        ' '.join(argv), status, rc, err.strip()))
    return out, err


def decode_json(*argv):
    out, _ = decode('--json', '--no-auto', *argv)
    return json.loads(out)


def fixture(name):
    return os.path.join(ARGS['fixtures'], 'oops', name)


def eq(got, want, what):
    expect(got == want, '%s: got %r, want %r' % (what, got, want))


# ---- the real samples -------------------------------------------------------

def expected_frames(case_name):
    """The '- frames...:' list of a case in EXPECTED.md: (function, off, size, module, reliable)."""
    text = open(fixture('EXPECTED.md')).read()
    sect = text.split('## %s ' % case_name, 1)[1].split('\n## ', 1)[0]
    line = [l for l in sect.splitlines() if l.startswith('- frames')][0]
    line = line.rsplit('): ', 1)[1] if '): ' in line else line.split(':', 1)[1]
    items = line.strip().rstrip('.').split(', ')
    frames = []
    for it in items:
        it = it.strip().strip('`')
        reliable = not it.startswith('?')
        it = it.lstrip('?').strip()
        m = re.match(r'([\w.]+)(?:\+0x([0-9a-f]+)/0x([0-9a-f]+))?(?: \[(\w+)\])?$', it)
        if not m:
            raise Fail('cannot read EXPECTED frame %r' % it)
        frames.append((m.group(1), m.group(2) and int(m.group(2), 16),
                       m.group(3) and int(m.group(3), 16), m.group(4), reliable))
    return frames


def check_frames(rep, want, what):
    got = [(f['function'], f['offset'], f['size'], f['module'], f['reliable'])
           for f in rep['frames']]
    # Where EXPECTED gives a name only ("?__pfx_kthread"), the name is compared.
    got = [g if i >= len(want) or want[i][1] is not None else (g[0], None, None, g[3], g[4])
           for i, g in enumerate(got)]
    eq(got, want, what + ' frames')


def check_report(rep, facts, what):
    for k, v in facts.items():
        if k == 'taint':
            eq(''.join(t['letter'] for t in rep['taint']) if rep['taint'] is not None else None,
               v, what + ' taint')
        elif k == 'reason_has':
            expect(v in rep['verdict_reason'], '%s: verdict reason %r lacks %r' % (
                what, rep['verdict_reason'], v))
        elif k == 'fault_insn':
            # Branch targets depend on where the listing is placed: mnemonics are compared.
            got = re.sub(r'\s+', '', rep['code']['faulting_instruction'])
            expect(got.startswith(re.sub(r'\s+', '', v)), '%s faulting instruction: got %r, want %r'
                   % (what, got, v))
        elif k == 'sections':
            eq(sorted({f['section'] for f in rep['frames']} - {None}), v, what + ' sections')
        elif k == 'stacks':
            eq([(s['name'], [f['function'] for f in s['frames']]) for s in rep['stacks']], v,
               what + ' stacks')
        elif k == 'nframes':
            eq(len(rep['frames']), v, what + ' frame count')
        elif k == 'address':
            eq(rep['address'], v, what + ' address')
        else:
            eq(rep[k], v, '%s %s' % (what, k))


SAMPLES = {
    'case-01': dict(kind='null-ptr-deref', function='smc_llc_add_link_cont', offset=0x160,
                    size=0x270, module='smc', cpu=5, pid=48, comm='kworker/5:0', taint='GWE',
                    kernel='6.4.0-rc3+', kernel_build='#49', verdict='oops', address='0x14',
                    pf_error_code='0x0', code=None, hardware=None, kdump_loaded=True,
                    null_member=None,
                    workqueue='events smc_llc_add_link_work [smc]',
                    title='BUG: unable to handle kernel NULL pointer dereference in smc_llc_add_link_cont',
                    sections=['TASK'], nmodules=None),
    'case-02': dict(kind='general-protection-fault', function='__se_sys_mremap', offset=0x25fa,
                    size=0x2c00, module=None, cpu=1, pid=5827, comm='syz-executor187', taint='',
                    kernel='6.14.0-syzkaller-12456-gacc4d5ff0b61', verdict='panic',
                    reason_has='Fatal exception', panic_message='Fatal exception',
                    fault_insn='cmp byte ptr [rax + 4], 0', address='0xdffffc0000000004',
                    title='general protection fault in mremap', guilty_frame='__se_sys_mremap',
                    detail='null-ptr-deref'),
    'case-04': dict(kind='warning', function='btrfs_truncate_free_space_cache', offset=0x1c0,
                    size=0x1f0, module='btrfs', cpu=1, pid=2460, comm='btrfs', taint='',
                    kernel='5.9.14-arch1-1', verdict='warning', fault_insn='ud2',
                    source_file='fs/btrfs/free-space-cache.c', source_line=281,
                    message=['BTRFS: Transaction aborted (error -28)'],
                    guilty_frame='btrfs_truncate_free_space_cache',
                    title='WARNING in btrfs_truncate_free_space_cache'),
    'case-06': dict(kind='soft-lockup', function='ieee80211_select_queue', offset=0x1b,
                    size=0x110, module='mac80211', cpu=1, pid=23, comm='ksoftirqd/1', taint='',
                    kernel='6.0.6-060006-generic', verdict='report', fault_insn='je',
                    # A lockup is titled as syzkaller titles it: by the frame above the first
                    # dispatcher (here __netif_receive_skb_core), not where the CPU spun.
                    guilty_frame='ip_rcv', title='BUG: soft lockup in ip_rcv'),
    'case-08': dict(kind='null-ptr-deref', function='__queue_work', offset=0x30, size=0x568,
                    module=None, cpu=0, pid=0, comm='swapper', taint='', arch='arm64',
                    kernel='5.3.18-0.gd323798-default', verdict='panic', esr='0x96000004',
                    reason_has='Attempted to kill the idle task!', address='0x100',
                    fault_insn='ldr w0, [x27, #0x100]', modules=[]),
    'case-10': dict(kind='might-sleep', function=None, cpu=2, pid=1, comm='swapper/0', taint='',
                    kernel='6.15.0-rc1-00147-g1a931c4f5e68', verdict='report',
                    source_file='kernel/locking/mutex.c', source_line=274,
                    guilty_frame='igc_ptp_reset',
                    title='BUG: sleeping function called from invalid context in igc_ptp_reset'),
}

CASE02_FRAMES = [('__pfx___se_sys_mremap', 0x10, 0x10, None, False),
                 ('_raw_spin_lock_irq', 0xdf, 0x120, None, False),
                 ('__pfx__raw_spin_lock_irq', 0x10, 0x10, None, False),
                 ('_raw_spin_unlock_irq', 0x23, 0x50, None, False),
                 ('lockdep_hardirqs_on', 0x9d, 0x150, None, False),
                 ('_raw_spin_unlock_irq', 0x2e, 0x50, None, False),
                 ('ptrace_notify', 0x282, 0x390, None, False),
                 ('__x64_sys_mremap', 0x20, 0xc0, None, False),
                 ('do_syscall_64', 0xf3, 0x230, None, True),
                 ('clear_bhb_loop', 0x45, 0xa0, None, False),
                 ('entry_SYSCALL_64_after_hwframe', 0x77, 0x7f, None, True)]


def sample_case(name):
    def run_case(_):
        reps = decode_json(fixture(name + '.txt'))
        eq(len(reps), 1, name + ' report count')
        rep = reps[0]
        facts = dict(SAMPLES[name])
        facts.pop('nmodules', None)
        check_report(rep, facts, name)
        check_frames(rep, CASE02_FRAMES if name == 'case-02' else expected_frames(name), name)
        if name == 'case-01':
            eq(len(rep['modules']), 41, 'case-01 modules (the wrapped list joined)')
            eq(rep['modules'][-1], 'dm_mod', 'case-01 last module')
        if name == 'case-04':
            expect('ata_piix' in rep['modules'] and 'ehci_hcd' in rep['modules'],
                   'case-04: the continued Modules line is read')
        if name == 'case-10':
            f = rep['frames'][3]
            eq((f['function'], f['file'], f['line'], [(i['file'], i['line']) for i in f['inlined']]),
               ('mutex_lock', 'kernel/locking/mutex.c', 274, [('include/linux/kernel.h', 73)]),
               'case-10 pre-decoded frame')
    return run_case


for _n in SAMPLES:
    CASES['sample-' + _n] = sample_case(_n)


# ---- synthetic reports --------------------------------------------------------

@case
def synthetic_kasan(_):
    rep = decode_json(fixture('synthetic/kasan-uaf.txt'))[0]
    check_report(rep, dict(kind='kasan', detail='slab-use-after-free', kasan_access='Read',
                           kasan_size=8, address='0xffff888104a3c010', function='widget_release',
                           module='widget', cpu=2, pid=3101, comm='wctl', taint='GO',
                           guilty_frame='widget_release', verdict='report',
                           title='KASAN: slab-use-after-free Read in widget_release',
                           stacks=[('Allocated by task 3099', ['kasan_save_stack', 'kasan_save_track',
                                                               '__kasan_kmalloc', 'widget_open',
                                                               'chrdev_open']),
                                   ('Freed by task 3100', ['kasan_save_stack', 'kasan_save_free_info',
                                                           '__kasan_slab_free', 'kfree',
                                                           'widget_ioctl', '__x64_sys_ioctl'])],
                           nframes=10), 'kasan')


@case
def synthetic_lockups_journal(_):
    reps = decode_json(fixture('synthetic/lockups-journal.txt'))
    eq([r['kind'] for r in reps], ['hard-lockup', 'rcu-stall', 'hung-task'], 'kinds')
    check_report(reps[0], dict(cpu=3, pid=812, comm='spinner', taint='GOL', function='spin_forever',
                               module='spinme', fault_insn='jmp', sections=['NMI', 'TASK'],
                               verdict='report'), 'hard lockup')
    eq(reps[0]['frames'][0]['reliable'], False, 'NMI frames are unreliable')
    check_report(reps[1], dict(cpu=3, function='spin_forever', offset=0x14, verdict='report',
                               sections=['IRQ', 'TASK']), 'rcu stall')
    check_report(reps[2], dict(pid=97, comm='kworker/u8:2', guilty_frame='spinme_flush',
                               guilty_module='spinme', verdict='report', taint='GOL',
                               title='INFO: task hung in spinme_flush'), 'hung task')


@case
def synthetic_soft_lockup_syslog(_):
    rep = decode_json(fixture('synthetic/soft-lockup-syslog.txt'))[0]
    check_report(rep, dict(kind='soft-lockup', cpu=0, pid=1184, comm='kworker/0:2',
                           function='native_queued_spin_lock_slowpath',
                           guilty_frame='cache_reap_one', guilty_module='fscache_x',
                           title='BUG: soft lockup in cache_reap_one'), 'soft lockup')


@case
def synthetic_callers_several(_):
    reps = decode_json(fixture('synthetic/callers-several.txt'))
    eq(len(reps), 3, 'reports')
    a, b, c = reps
    check_report(a, dict(kind='null-ptr-deref', function='gadget_attach', pid=201, taint='POE',
                         pf_error_code='0x2', fault_insn='mov qword ptr [rax], 0', verdict='panic',
                         reason_has='interrupt', sections=['IRQ', 'TASK'],
                         modules=['gadget', 'nvidia']), 'oops in irq')
    eq([f['function'] for f in a['frames']],
       ['gadget_irq', '__handle_irq_event_percpu', 'handle_irq_event', 'do_one_initcall'],
       'other callers\' lines are left out')
    check_report(b, dict(kind='bug', source_file='drivers/misc/gadget/core.c', source_line=212,
                         function='gadget_put', fault_insn='ud2', verdict='oops', taint='PDOE',
                         guilty_frame='gadget_put', oops='invalid opcode: 0000 [#2] PREEMPT SMP NOPTI'),
                 'kernel BUG')
    check_report(c, dict(kind='divide-error', pid=1, comm='systemd', verdict='panic',
                         reason_has='Attempted to kill init!', fault_insn='idiv esi'), 'divide error')


@case
def synthetic_arm64_module(_):
    rep = decode_json(fixture('synthetic/arm64-module.txt'))[0]
    check_report(rep, dict(kind='page-fault', arch='arm64', function='qlist_remove', offset=0x24,
                           module='qlist', esr='0x96000044', address='0xdead000000000122',
                           fault_insn='str x1, [x2]', cpu=2, pid=1207, comm='qlistd',
                           verdict='oops', nframes=6), 'arm64')
    expect('LIST_POISON2' in rep['address_hint'], 'list poison hint: %r' % rep['address_hint'])
    expect('write' in rep['esr_explained'], 'ESR says write: %r' % rep['esr_explained'])
    eq(rep['registers'].get('x2'), '0xdead000000000122', 'arm64 x2')


@case
def synthetic_kmsg_wrapped(_):
    rep = decode_json(fixture('synthetic/kmsg-raw-wrapped.txt'))[0]
    check_report(rep, dict(kind='warning', function='refcount_warn_saturate', pid=77,
                           comm='pktq-worker', guilty_frame='pktq_put', fault_insn='ud2',
                           message=['refcount_t: underflow; use-after-free.'],
                           headline='WARNING: CPU: 0 PID: 77 at lib/refcount.c:28 '
                                    'refcount_warn_saturate+0xba/0x110'), 'kmsg')
    eq(rep['code']['marker'], 80, 'Code: joined across the wrapped line')


@case
def synthetic_panic(_):
    rep = decode_json(fixture('synthetic/panic-root.txt'))[0]
    check_report(rep, dict(kind='panic', verdict='panic', pid=1, guilty_frame='mount_root_generic',
                           panic_message='VFS: Unable to mount root fs on unknown-block(0,0)'),
                 'panic')


@case
def synthetic_hung_task_comm_newline(_):
    """A task name may hold any byte (prctl PR_SET_NAME): a newline in it breaks the hung-task
    headline in two, which is still one headline (syzkaller's {{TASK}} spans lines)."""
    rep = decode_json(fixture('synthetic/hung-task-comm-newline.txt'))
    eq(len(rep), 1, 'reports')
    check_report(rep[0], dict(kind='hung-task', pid=4567, guilty_frame='ext4_sync_file',
                              title='INFO: task hung in ext4_sync_file', verdict='report'),
                 'hung task')


@case
def synthetic_kasan_panic_other_caller(_):
    """A panic is the machine's, whichever printk caller printed it: the KASAN report before
    it did not go on."""
    reps = decode_json(fixture('synthetic/kasan-panic-other-caller.txt'))
    eq(len(reps), 1, 'reports')
    check_report(reps[0], dict(kind='kasan', title='KASAN: slab-use-after-free Read in '
                               'widget_release', verdict='panic',
                               panic_message='KASAN: panic_on_warn set ...'), 'kasan + panic')


@case
def synthetic_cxx_mangled(_):
    """C++ names (a module built from C++) are demangled in the title, without parameters,
    as syzkaller titles them; the frames keep the symbol as printed (for the symbol files)."""
    rep = decode_json(fixture('synthetic/cxx-mangled.txt'))[0]
    check_report(rep, dict(kind='general-protection-fault', function='_ZN6widget5Queue4pushEPv',
                           module='widget', title='general protection fault in widget::Queue::push'),
                 'c++')
    out, _ = decode('--no-auto', fixture('synthetic/cxx-mangled.txt'))
    expect(out.startswith('general protection fault in widget::Queue::push\n'),
           'text title: %r' % out.splitlines()[0])


@case
def synthetic_old_format(_):
    rep = decode_json(fixture('synthetic/old-format.txt'))[0]
    check_report(rep, dict(kind='null-ptr-deref', function='legacy_poll', module='legacy',
                           address='0x30', fault_insn='mov rax, qword ptr [rax + 0x30]',
                           nframes=3), 'old format')
    eq(rep['frames'][1]['address'], '0xffffffff8121e9e0', 'frame address kept')
    eq(rep['frames'][1]['reliable'], False, '? after the address')


@case
def prefixes_and_wrapping(_):
    """The same report under every prefix style decodes to the same facts."""
    body = open(fixture('case-01.txt')).read().splitlines()[1:]
    lines = [re.sub(r'^\[\s*[\d.]+\] ', '', l) for l in body if l.startswith('[')]
    styles = {
        'bare': lambda l: l,
        'level': lambda l: '<4>' + l,
        'dmesg-x': lambda l: 'kern  :warn  : [  361.8] ' + l,
        'syslog': lambda l: 'Jun  1 10:00:00 host kernel: [  361.8] ' + l,
        'journal': lambda l: 'Jun 01 10:00:00 host kernel: ' + l,
        'quoted': lambda l: '> [  361.8] ' + l,
        'dmesg-T': lambda l: '[Sat Jun  1 10:00:00 2024] ' + l,
    }
    for name, f in styles.items():
        with tempfile.NamedTemporaryFile('w', suffix='.txt') as t:
            t.write('some noise before\n' + '\n'.join(f(l) for l in lines) + '\nnoise after\n')
            t.flush()
            rep = decode_json(t.name)[0]
        check_report(rep, dict(kind='null-ptr-deref', function='smc_llc_add_link_cont', cpu=5,
                               pid=48, taint='GWE', nframes=9), name)


# ---- file:line against a real ELF ---------------------------------------------

def tool(argv):
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        raise Fail('%s: %s' % (' '.join(argv), p.stderr.strip()))
    return p.stdout


def elf_symbols(path):
    syms = {}
    for l in tool(['nm', '-S', '--defined-only', path]).splitlines():
        f = l.split()
        if len(f) == 4 and f[2] in 'tT':
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    return syms


def insns(path, name, syms):
    """(address, text) of each instruction of function name, from objdump."""
    lo, size = syms[name]
    out = tool(['objdump', '-d', '--no-show-raw-insn', '--start-address=%#x' % lo,
                '--stop-address=%#x' % (lo + size), path])
    res = []
    for l in out.splitlines():
        m = re.match(r'\s+([0-9a-f]+):\s+(.*)', l)
        if m:
            res.append((int(m.group(1), 16), m.group(2)))
    return res


def ret_after_call(path, name, syms):
    ins = insns(path, name, syms)
    for i, (a, text) in enumerate(ins):
        if text.startswith('call') and i + 1 < len(ins):
            return ins[i + 1][0]
    raise Fail('no call in %s' % name)


def addr2line(path, addr):
    """[(function, basename, line)] innermost first, as addr2line -i -f prints them."""
    out = tool(['addr2line', '-i', '-f', '-e', path, '%#x' % addr]).splitlines()
    res = []
    for fn, loc in zip(out[0::2], out[1::2]):
        loc = loc.split(' (discriminator')[0]
        file, _, line = loc.rpartition(':')
        res.append((fn, os.path.basename(file), int(line) if line.isdigit() else 0))
    return res


def ours(fr):
    chain = [(i['function'], os.path.basename(i['file'] or ''), i['line']) for i in fr['inlined']]
    return chain + [(fr['function'], os.path.basename(fr['file'] or ''), fr['line'])]


def offsets():
    """struct.member -> offset, as oopsprog's compiler laid them out (offsetof)."""
    out = tool([ARGS['oopsprog'], '--offsets'])
    return {k: int(v) for k, v in (l.split() for l in out.splitlines())}


def banner_version():
    """(release, build) of oopsprog's linux_banner, read with strings(1)."""
    lines = [l for l in tool(['strings', '-a', ARGS['oopsprog']]).splitlines()
             if l.startswith('Linux version ')]
    expect(len(lines) == 1, 'oopsprog has one linux_banner: %r' % lines)
    m = re.match(r'Linux version (\S+) .* (#\d+) ', lines[0])
    expect(m, 'banner %r' % lines[0])
    return m.group(1), m.group(2)


def write_report(syms, fault_off, rets, module=None, sizes=None, fault='oops_fault', address=None,
                 code=None, version=None):
    sizes = sizes or {}
    version = version or '%s %s' % banner_version()
    mod = ' [%s]' % module if module else ''
    if address is None:
        address = offsets()['widget.count']

    def sym(n, off):
        return '%s+%#x/%#x%s' % (n, off, sizes.get(n, syms[n][1]), mod)
    text = ('[  100.000001] BUG: kernel NULL pointer dereference, address: %016x\n'
            '[  100.000002] #PF: supervisor read access in kernel mode\n'
            '[  100.000003] #PF: error_code(0x0000) - not-present page\n'
            '[  100.000004] Oops: 0000 [#1] PREEMPT SMP NOPTI\n'
            '[  100.000005] CPU: 0 PID: 4242 Comm: oopsprog Not tainted %s\n'
            '[  100.000006] RIP: 0010:%s\n' % (address, version, sym(fault, fault_off)))
    if code:
        text += '[  100.000006] Code: %s\n' % code
    text += '[  100.000007] Call Trace:\n[  100.000008]  <TASK>\n'
    for n, off in rets:
        text += '[  100.000009]  %s\n' % sym(n, off)
    text += '[  100.000010]  </TASK>\n'
    t = tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False)
    t.write(text)
    t.close()
    return t.name


def fault_offset(path, syms):
    """The instruction of oops_fault with the deepest inline chain (the load of w->count)."""
    best = None
    for a, _ in insns(path, 'oops_fault', syms):
        depth = len(addr2line(path, a))
        if best is None or depth > best[1]:
            best = (a, depth)
    expect(best and best[1] >= 3, 'oopsprog.c was not built with nested inlined helpers (-O2 -g)')
    return best[0] - syms['oops_fault'][0]


def fileline(path, module):
    syms = elf_symbols(path)
    off = fault_offset(path, syms)
    rets = [(n, ret_after_call(path, n, syms) - syms[n][0]) for n in ('oops_middle', 'oops_top')]
    name = write_report(syms, off, rets, module='oopsmod' if module else None)
    try:
        if module:
            d = os.path.dirname(path)
            rep = decode_json(name, '--modules', d)[0]
        else:
            rep = decode_json(name, '--vmlinux', path)[0]
    finally:
        os.unlink(name)
    eq(rep['symbols_mismatch'], False, 'symbols_mismatch')
    fault = ([(i['function'], os.path.basename(i['file']), i['line']) for i in rep['inlined']] +
             [(rep['function'], os.path.basename(rep['file'] or ''), rep['line'])])
    eq(fault, addr2line(path, syms['oops_fault'][0] + off), 'fault location vs addr2line')
    eq([i['function'] for i in rep['inlined']], ['widget_count', 'widget_weight'], 'inlined')
    for fr, (n, roff) in zip(rep['frames'], rets):
        eq(ours(fr), addr2line(path, syms[n][0] + roff - 1), '%s vs addr2line at ret-1' % n)
    if not module:
        eq(rep['fault_address'], None, 'no runtime address in the log')
    # The load of w->count, inlined twice over: w is a parameter of an inlined function.
    nm = rep['null_member'] or {}
    eq((nm.get('struct'), nm.get('member'), nm.get('variable'), nm.get('basis')),
       ('struct widget', 'count', 'w', 'register'), 'NULL + offsetof(struct widget, count)')
    return rep


@case
def fileline_vmlinux(_):
    rep = fileline(ARGS['oopsprog'], False)
    out, _ = decode('--no-auto', '--vmlinux', ARGS['oopsprog'], fixture('case-01.txt'))
    expect('MISMATCH' in out, 'symbols of another program are flagged')


@case
def fileline_module(_):
    fileline(ARGS['oopsmod'], True)


# ---- the struct member behind NULL + offset -------------------------------------

def gadget_insns(path):
    """gadget_flags's instructions: (offset, text), and the offset and base register of the
    load of g->flags (the memory operand whose displacement is offsetof(struct gadget, flags))."""
    syms = elf_symbols(path)
    ins = [(a - syms['gadget_flags'][0], t) for a, t in insns(path, 'gadget_flags', syms)]
    want = '%#x(%%' % offsets()['gadget.flags']
    load = [(o, re.search(r'\(%(\w+)\)', t).group(1)) for o, t in ins if want in t]
    expect(len(load) == 1, 'one load of g->flags in gadget_flags: %r' % ins)
    return syms, ins, load[0]


def member_report(path, module, fault_off, address, code=None):
    syms = elf_symbols(path)
    name = write_report(syms, fault_off, [], module='oopsmod' if module else None,
                        fault='gadget_flags', address=address, code=code)
    try:
        argv = ['--modules', os.path.dirname(path)] if module else ['--vmlinux', path]
        rep = decode_json(name, *argv)[0]
        out, _ = decode('--no-auto', *(argv + [name]))
    finally:
        os.unlink(name)
    eq(rep['symbols_mismatch'], False, 'symbols_mismatch')
    return rep, out


def member_by_register(path, module):
    _, _, (off, reg) = gadget_insns(path)
    flags = offsets()['gadget.flags']
    rep, out = member_report(path, module, off, flags)
    eq(rep['null_member'], {'struct': 'struct gadget', 'member': 'flags', 'variable': 'g',
                            'register': reg, 'basis': 'register', 'others': []}, 'null_member')
    want = ('NULL + %#x: probably struct gadget.flags (a struct gadget * that was NULL, '
            'in variable g, register %s)' % (flags, reg))
    expect(want in out, 'text lacks %r:\n%s' % (want, out))
    expect(want in rep['address_hint'], 'address_hint: %r' % rep['address_hint'])


@case
def member_register_vmlinux(_):
    """The faulting load's base register holds parameter g: its struct's member is named,
    although the other parameter's struct has a member at the same offset."""
    expect(offsets()['gizmo.e'] == offsets()['gadget.flags'], 'oopsprog: gizmo.e shares the offset')
    member_by_register(ARGS['oopsprog'], False)


@case
def member_register_module(_):
    member_by_register(ARGS['oopsmod'], True)


@case
def member_from_code_bytes(_):
    """The log's Code: bytes are what ran: a load through z's register names z's struct."""
    path = ARGS['oopsprog']
    _, ins, (off, _) = gadget_insns(path)
    # z (the first parameter) arrives in rdi (x86_64 SysV); gadget_flags reads z->a through it.
    expect(any(re.search(r'\(%rdi\)', t) for _, t in ins), 'z is read through %%rdi: %r' % ins)
    e = offsets()['gizmo.e']
    code = '48 89 f8 <48> 8b 47 %02x c3' % e    # mov rax,rdi; mov rax,[rdi+e]; ret
    rep, _ = member_report(path, False, off, e, code=code)
    eq(rep['code']['faulting_instruction'], 'mov rax, qword ptr [rdi + %#x]' % e, 'the Code: insn')
    nm = rep['null_member'] or {}
    eq((nm.get('struct'), nm.get('member'), nm.get('variable'), nm.get('register')),
       ('struct gizmo', 'e', 'z', 'rdi'), 'null_member from the Code: bytes')


@case
def member_guessed_from_offset(_):
    """No memory operand at the RIP: the function's struct pointers with a member exactly there."""
    path = ARGS['oopsprog']
    _, ins, _ = gadget_insns(path)
    no_mem = [o for o, t in ins if '(' not in t]
    expect(no_mem, 'gadget_flags has an instruction without a memory operand: %r' % ins)
    o = offsets()
    rep, out = member_report(path, False, no_mem[-1], o['gadget.name'])
    nm = rep['null_member'] or {}
    eq((nm.get('struct'), (nm.get('member') or '').split('[')[0], nm.get('variable'),
        nm.get('register'), nm.get('basis'), nm.get('others')),
       ('struct gadget', 'name', 'g', None, 'offset', []), 'unique guess')
    expect('possibly struct gadget.name' in out and 'a guess from the offset alone' in out,
           'text marks the guess: %s' % out)
    # At the offset both structs have a member: both are offered, none claimed.
    rep, _ = member_report(path, False, no_mem[-1], o['gadget.flags'])
    nm = rep['null_member'] or {}
    got = sorted(['%s.%s (variable %s)' % (nm.get('struct'), nm.get('member'), nm.get('variable'))] +
                 (nm.get('others') or []))
    eq(got, ['struct gadget.flags (variable g)', 'struct gizmo.e (variable z)'], 'both guesses')
    eq(nm.get('basis'), 'offset', 'basis')


@case
def member_needs_dwarf(_):
    """Without DWARF (System.map) or without symbols, NULL + offset stays a generic hint."""
    path = ARGS['oopsprog']
    _, _, (off, _) = gadget_insns(path)
    flags = offsets()['gadget.flags']
    name = write_report(elf_symbols(path), off, [], fault='gadget_flags', address=flags)
    try:
        with tempfile.TemporaryDirectory() as d:
            smap = os.path.join(d, 'System.map')
            with open(smap, 'w') as f:
                f.write(tool(['nm', '-n', path]))
            rep = decode_json(name, '--system-map', smap)[0]
        bare = decode_json(name)[0]
    finally:
        os.unlink(name)
    eq((rep['null_member'], bare['null_member']), (None, None), 'no member without DWARF')
    expect('likely a member at offset %#x' % flags in rep['address_hint'], rep['address_hint'])


@case
def vmlinux_mismatch(_):
    path = ARGS['oopsprog']
    syms = elf_symbols(path)
    name = write_report(syms, 4, [('oops_middle', 8)], sizes={'oops_middle': syms['oops_middle'][1] + 16})
    try:
        rep = decode_json(name, '--vmlinux', path)[0]
        out, _ = decode('--no-auto', '--vmlinux', path, name)
    finally:
        os.unlink(name)
    eq(rep['symbols_mismatch'], True, 'symbols_mismatch')
    eq([f['size_mismatch'] for f in rep['frames']], [True], 'the frame is flagged')
    expect('oops_middle is 0x%x bytes in the log' % (syms['oops_middle'][1] + 16) in rep['symbols_note'],
           'note names the symbol: %r' % rep['symbols_note'])
    expect('MISMATCH' in out and 'size differs' in out, 'text output flags it')


@case
def vmlinux_other_version(_):
    """The vmlinux's linux_banner names another release or build than the log: flagged."""
    path = ARGS['oopsprog']
    syms = elf_symbols(path)
    rel, build = banner_version()
    other_build = '#%d' % (int(build[1:]) + 1)
    for version, want in (('%s-other %s' % (rel, build), 'is Linux %s (its linux_banner), '
                           "the log's kernel is %s-other" % (rel, rel)),
                          ('%s %s' % (rel, other_build), 'is not build %s of %s' % (other_build, rel))):
        name = write_report(syms, fault_offset(path, syms), [], version=version)
        try:
            rep = decode_json(name, '--vmlinux', path)[0]
            out, _ = decode('--no-auto', '--vmlinux', path, name)
        finally:
            os.unlink(name)
        eq(rep['symbols_mismatch'], True, version + ': symbols_mismatch')
        expect(want in (rep['symbols_note'] or ''), '%s: note %r lacks %r' % (version, rep['symbols_note'], want))
        expect('MISMATCH' in out, version + ': text flags it')
        eq(rep['null_member'], None, version + ': no member named from another kernel')


@case
def system_map_kaslr(_):
    """Symbol-only resolution with System.map; [<addr>]-only frames resolved through Kernel Offset."""
    path = ARGS['oopsprog']
    syms = elf_symbols(path)
    kaslr = 0x1e000000
    ret = ret_after_call(path, 'oops_top', syms)
    with tempfile.TemporaryDirectory() as d:
        smap = os.path.join(d, 'System.map')
        with open(smap, 'w') as f:
            f.write(tool(['nm', '-n', path]))
        log = os.path.join(d, 'log.txt')
        with open(log, 'w') as f:
            f.write('kernel BUG at drivers/x.c:1!\ninvalid opcode: 0000 [#1] SMP\n'
                    'CPU: 0 PID: 9 Comm: t Not tainted 6.1.0 #1\n'
                    'RIP: 0010:oops_middle+0x4/0x%x\nCall Trace:\n'
                    ' [<%016x>] 0x%x\nKernel Offset: 0x%x from 0xffffffff81000000\n'
                    % (syms['oops_middle'][1], ret + kaslr, ret + kaslr, kaslr))
        rep = decode_json(log, '--system-map', smap)[0]
    eq(rep['fault_address'], None, 'RIP printed without address')
    eq(rep['frames'][0]['function'], 'oops_top', 'address-only frame named')
    eq(rep['frames'][0]['offset'], ret - syms['oops_top'][0], 'its offset')
    eq(rep['frames'][0]['link_address'], '%#x' % ret, 'link address = runtime - KASLR')
    eq(rep['frames'][0]['file'], None, 'System.map has no lines')


@case
def build_id_debug_dir(_):
    """A module frame carrying its build id finds the ELF in DIR/.build-id."""
    path = ARGS['oopsprog']
    m = re.search(r'Build ID: ([0-9a-f]+)', tool(['readelf', '-n', path]))
    expect(m, 'oopsprog has a build id (-Wl,--build-id)')
    bid = m.group(1)
    syms = elf_symbols(path)
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, '.build-id', bid[:2]))
        os.symlink(os.path.abspath(path), os.path.join(d, '.build-id', bid[:2], bid[2:] + '.debug'))
        log = os.path.join(d, 'log.txt')
        with open(log, 'w') as f:
            f.write('WARNING: CPU: 0 PID: 9 at x.c:1 oops_fault+0x0/0x%x [oopsprog %s]\n'
                    'CPU: 0 PID: 9 Comm: t Not tainted 6.1.0 #1\nCall Trace:\n'
                    ' oops_top+0x%x/0x%x [oopsprog %s]\n'
                    % (syms['oops_fault'][1], bid, ret_after_call(path, 'oops_top', syms) -
                       syms['oops_top'][0], syms['oops_top'][1], bid))
        rep = decode_json(log, '--debug-dir', d)[0]
    eq(rep['frames'][0]['build_id'], bid, 'build id read')
    eq(os.path.basename(rep['frames'][0]['file'] or ''), 'oopsprog.c', 'resolved through the build id')


@case
def module_build_id_mismatch(_):
    """A frame's printed build id that is not the .ko's flags the .ko (--modules)."""
    path = ARGS['oopsprog']
    bid = re.search(r'Build ID: ([0-9a-f]+)', tool(['readelf', '-n', path])).group(1)
    other = ''.join('%x' % (15 - int(ch, 16)) for ch in bid)
    syms = elf_symbols(path)
    with tempfile.TemporaryDirectory() as d:
        shutil.copy(path, os.path.join(d, 'oopsprog.ko'))
        log = os.path.join(d, 'log.txt')
        got = {}
        for b in (bid, other):
            with open(log, 'w') as f:
                f.write('WARNING: CPU: 0 PID: 9 at x.c:1 oops_fault+0x0/0x%x [oopsprog %s]\n'
                        'CPU: 0 PID: 9 Comm: t Not tainted 6.1.0 #1\n' % (syms['oops_fault'][1], b))
            rep = decode_json(log, '--modules', d)[0]
            got[b] = (rep['symbols_mismatch'], rep['symbols_note'] or '')
    eq(got[bid][0], False, 'the right build id')
    eq(got[other][0], True, 'another build id')
    expect('its build id is %s, the log\'s oopsprog is %s' % (bid, other) in got[other][1],
           'note: %r' % got[other][1])


@case
def kallsyms_running_kernel(_):
    """A report naming the running kernel's version: /proc/kallsyms is used unasked."""
    rel = os.uname().release
    addrs = {}
    try:
        with open('/proc/kallsyms') as f:
            for l in f:
                a, t, n = l.split()[:3]
                if n in ('schedule', 'do_syscall_64') and t in 'tT':
                    addrs[n] = int(a, 16)
    except OSError as e:
        raise Skip('/proc/kallsyms: %s' % e)
    if len(addrs) < 2 or not all(addrs.values()):
        raise Skip('/proc/kallsyms hides addresses (kptr_restrict) or lacks the symbols')
    with tempfile.NamedTemporaryFile('w', suffix='.txt') as t:
        t.write('INFO: task x:5 blocked for more than 120 seconds.\n'
                '      Not tainted %s #1\nCall Trace:\n <TASK>\n schedule+0x10/0x20\n'
                ' do_syscall_64+0x4/0x8\n </TASK>\n' % rel)
        t.flush()
        status, out, err = run([tracekit(), 'oops', '--json', t.name])
    expect(status == 0, 'exit %d: %s' % (status, err))
    rep = json.loads(out)[0]
    expect('/proc/kallsyms' in (rep['symbols_note'] or ''), 'note: %r' % rep['symbols_note'])
    eq(rep['frames'][0]['link_address'], '%#x' % (addrs['schedule'] + 0x10), 'schedule+0x10')


# ---- inputs, errors ----------------------------------------------------------

@case
def no_report(_):
    with tempfile.NamedTemporaryFile('w', suffix='.txt') as t:
        t.write('[    1.0] Linux version 6.1.0\n[    2.0] usb 1-1: new device\n')
        t.flush()
        out, err = decode('--no-auto', t.name, rc=1)
    eq(out, '', 'nothing on stdout')
    expect(err.startswith('tracekit: oops: %s: no kernel report found' % t.name) and
           err.count('\n') == 1, 'one error line naming the input: %r' % err)


@case
def usage_errors(_):
    for argv, what in ((['--bogus'], "unknown option '--bogus'"),
                       (['a.txt', 'b.txt'], 'unexpected argument'),
                       (['--dmesg', 'a.txt'], 'give one input')):
        _, err = decode(*argv, rc=2)
        expect(what in err and err.count('\n') == 1, '%s: %r' % (argv, err))
    _, err = decode('/nonexistent/log.txt', rc=1)
    expect('/nonexistent/log.txt' in err, 'missing file named: %r' % err)
    # A missing file is a runtime error (1) whether it is the log or --vmlinux (docs/exit-status.md).
    _, err = decode('--vmlinux', '/nonexistent/vmlinux', fixture('case-01.txt'), rc=1)
    expect('/nonexistent/vmlinux' in err and err.count('\n') == 1, 'missing --vmlinux: %r' % err)
    with tempfile.NamedTemporaryFile('w', suffix='.txt') as t:
        t.write('RIP: 0010:x+0x1/0x2\n')
        t.flush()
        _, err = decode('--no-auto', '--vmlinux', t.name, fixture('case-01.txt'), rc=1)
    expect('--vmlinux' in err and err.count('\n') == 1, 'not an ELF: %r' % err)


@case
def pstore_dir(_):
    """pstore's dmesg parts (Part1 is the newest) joined in log order."""
    lines = open(fixture('case-04.txt')).read().splitlines()[1:]
    half = len(lines) // 2
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, 'dmesg-ramoops-0'), 'w') as f:
            f.write('Oops#1 Part1\n' + '\n'.join('<4>' + l for l in lines[half:]) + '\n')
        with open(os.path.join(d, 'dmesg-ramoops-1'), 'w') as f:
            f.write('Oops#1 Part2\n' + '\n'.join('<4>' + l for l in lines[:half]) + '\n')
        status, out, err = run([tracekit(), 'oops', '--json', '--no-auto', '--pstore=' + d])
        expect(status == 0, 'exit %d: %s' % (status, err))
        rep = json.loads(out)[0]
        check_report(rep, dict(kind='warning', pid=2460, nframes=14), 'pstore')
        _, err = decode('--pstore=' + os.path.join(d, 'none'), rc=1)
        expect('pstore' in err, 'missing pstore dir explained: %r' % err)


@case
def text_output(_):
    out, _ = decode('--no-auto', fixture('case-02.txt'))
    for want in ('general protection fault in mremap', 'verdict:   panic', 'Call Trace:',
                 '<TASK>', '? __pfx___se_sys_mremap+0x10/0x10',
                 '-->', 'cmp byte ptr [rax + 4], 0   <-- trapping instruction'):
        expect(want in out, 'text lacks %r' % want)
    out, _ = decode('--no-auto', fixture('case-01.txt'))
    for want in ('W  the kernel issued a warning earlier', 'E  an unsigned module was loaded',
                 'NULL + 0x14', 'not-present page, read, kernel mode'):
        expect(want in out, 'text lacks %r' % want)


@case
def text_code_once(_):
    """Every report with Code: bytes lists them once in text, as --json has them once."""
    for name in ('case-02', 'case-04', 'case-06', 'case-08'):
        out, _ = decode('--no-auto', fixture(name + '.txt'))
        eq(out.count('<-- trapping instruction'), 1, name + ' trapping-instruction lines')
        eq(len(re.findall(r'^Code:', out, re.M)), 1, name + ' Code: headings')


@case
def docs_walk_through(_):
    """docs/oops.md's walk-through: its report, decoded with its command, prints its output."""
    src = os.path.dirname(os.path.dirname(os.path.abspath(ARGS['fixtures'])))
    doc = open(os.path.join(src, 'docs', 'oops.md')).read()
    sect = doc.split('## A walk through one decode', 1)[1].split('\nLine by line:', 1)[0]
    blocks = re.findall(r'```\n(.*?)```', sect, re.S)
    cmd = re.search(r'`(tracekit oops [^`]+)` prints:', sect)
    expect(len(blocks) == 2 and cmd, 'docs/oops.md: the walk-through lacks its report, command '
           'or output')
    argv = cmd.group(1).split()
    expect(argv[-1] == 'crash.txt' and 'build/tests/oops/oopsprog' in argv,
           'the walk-through command: %r' % argv)
    prog = os.path.relpath(ARGS['oopsprog'], src)
    with tempfile.TemporaryDirectory(prefix='tk-oops-doc-') as d:
        report = os.path.join(d, 'crash.txt')
        with open(report, 'w') as f:
            f.write(blocks[0])
        argv = [tracekit()] + [prog if a == 'build/tests/oops/oopsprog' else a
                               for a in argv[1:-1]] + [report]
        p = subprocess.run(argv, cwd=src, capture_output=True, text=True, timeout=60)
    expect(p.returncode == 0, '%s: exit %d: %s' % (' '.join(argv), p.returncode, p.stderr))
    want = blocks[1].replace('build/tests/oops/oopsprog', prog)
    # The program's build directory decides the relative source paths DWARF gives.
    want = want.replace('../tests/oops/oopsprog.c',
                        os.path.relpath(os.path.join(src, 'tests', 'oops', 'oopsprog.c'),
                                        os.path.dirname(ARGS['oopsprog']) + '/../..'))
    expect(p.stdout == want, 'the walk-through output differs from the real one:\n%s' % ''.join(
        __import__('difflib').unified_diff(want.splitlines(True), p.stdout.splitlines(True),
                                           'docs/oops.md', 'tracekit oops')))


def setup(argv):
    it = iter(argv[2:])
    for a in it:
        ARGS[a.lstrip('-')] = next(it)
    return None


if __name__ == '__main__':
    sys.exit(main(sys.argv, 'test_oops.py CASE --fixtures DIR --oopsprog ELF --oopsmod KO', setup))

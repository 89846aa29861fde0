/*
 * The syzkaller-compatible titles, as tables (the rules are those of
 * syzkaller's pkg/report for Linux, written down here as data; see syz.c for
 * how they are applied).
 *
 * A report starts at a line holding one of the group headers anywhere, unless
 * one of the group's suppressions matches it.  Within the report the first
 * line matching a format's title regex (POSIX ERE, one line) names it; an
 * "after" regex must then match a later line, and adds its captures.  The
 * title is fmt with %1..%9 replaced by the captures and then the frames the
 * stack recipe found.  A recipe is a list of parts: a regex searched for line
 * by line (its group `fn` is a frame), or STACK: the frames of the trace that
 * follows, up to the next trace header; the first frame not skipped counts,
 * or the stall/hang extractor picks one.
 */
#include <stddef.h>

#include "oops/syz.h"

#define PC "\\[<?[0-9a-fx]+>?\\]"
#define FUNC "([a-zA-Z0-9_]+)[.+]"
#define SRC "([-a-zA-Z0-9_/.]+\\.[a-z]+:[0-9]+)"
#define STACK { NULL, 0, 0 }
#define CALL_TRACE { "Call [Tt]race:|Backtrace:", 0 }
/* The faulting location line: RIP/IP/NIP/pc/PC is at; group 5 is the function. */
#define RIP_RE "(IP|NIP|pc |PC is at):? (([0-9]+:)?(" PC " +){0,2}" FUNC "|([0-9]+:)?0x[0-9a-f]+" \
	"|([0-9]+:)?" PC " +\\[< *\\(null\\)>\\] +\\(null\\)|[0-9]+: +\\(null\\))"
#define RIP { RIP_RE, 5 }
#define RIP_OR_INTERRUPT { RIP_RE "|--- interrupt: [0-9]+ at " FUNC, 5, 8 }

/* RIP or Call Trace, then the trace: the recipe of most oopses. */
#define OOPS_STACK .parts = { RIP, CALL_TRACE, STACK }, .nparts = 3
#define TRACE_STACK .parts = { CALL_TRACE, STACK }, .nparts = 2
/* WARN(): the RIP of the trap (newer kernels) or, failing that, the Call Trace. */
#define WARN_STACK .parts = { RIP_OR_INTERRUPT, STACK }, .nparts = 2, \
	.parts2 = { CALL_TRACE, STACK }, .nparts2 = 2

static const struct syz_format bug_formats[] = {
	{ .title = "BUG: KASAN: ([-a-z]+) in " FUNC, .after = "(Read|Write) (of size|at addr) [0-9a-f]+",
	  .fmt = "KASAN: %1 %3 in %5", .kind = OK_KASAN,
	  .parts = { { "BUG: KASAN: [-a-z]+ in " FUNC, 1 }, CALL_TRACE, STACK }, .nparts = 3,
	  .skip = "kernel_fault|tag_check|mem_abort|^el1_|^el1h_" },
	{ .title = "BUG: KASAN: (double-free or invalid-free|double-free|invalid-free) in " FUNC,
	  .fmt = "KASAN: invalid-free in %3", .kind = OK_KASAN,
	  .parts = { { "BUG: KASAN: [-a-z ]+ in " FUNC, 1 }, CALL_TRACE, STACK }, .nparts = 3,
	  .skip = "slab_|kfree|vunmap|vfree" },
	{ .title = "BUG: KASAN: ([-a-z]+) on address", .after = "(Read|Write) of size ([0-9]+)",
	  .fmt = "KASAN: %1 %2", .kind = OK_KASAN },
	{ .title = "BUG: KASAN: (.*)", .fmt = "KASAN: %1", .kind = OK_KASAN, .corrupted = true },
	{ .title = "BUG: KMSAN: kernel-usb-infoleak in " FUNC, .fmt = "KMSAN: kernel-usb-infoleak in %2",
	  .kind = OK_KASAN, .parts = { STACK, { "Local variable .* created at:|Uninit was created at:", 0 },
	  STACK }, .nparts = 3, .no_stack = true,
	  .skip = "alloc_skb|usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|usb_interrupt_msg|usb_control_msg" },
	{ .title = "BUG: KMSAN: ([-a-z]+) in " FUNC, .fmt = "KMSAN: %1 in %3", .kind = OK_KASAN,
	  .parts = { STACK, { "Local variable .* created at:|Uninit was created at:", 0 }, STACK },
	  .nparts = 3, .no_stack = true,
	  .skip = "alloc_skb|netlink_ack|netlink_rcv_skb|_encrypt$|^(crypto|cipher|drbg|rng)_" },
	{ .title = "BUG: KCSAN: (.*)", .fmt = "KCSAN: %1", .kind = OK_KCSAN, .no_stack = true },
	{ .title = "BUG: KFENCE: (use-after-free|out-of-bounds) (read|write) in " FUNC,
	  .fmt = "KFENCE: %1 %2 in %4", .kind = OK_KFENCE,
	  .parts = { { "BUG: KFENCE: [- a-z]+ in " FUNC, 1 }, STACK }, .nparts = 2 },
	{ .title = "BUG: KFENCE: invalid free in " FUNC, .fmt = "KFENCE: invalid free in %2",
	  .kind = OK_KFENCE, .no_stack = true,
	  .parts = { { "BUG: KFENCE: [- a-z]+ in " FUNC, 1 }, STACK }, .nparts = 2 },
	{ .title = "BUG: KFENCE: invalid (read|write) in " FUNC, .fmt = "KFENCE: invalid %1 in %3",
	  .kind = OK_KFENCE, .parts = { { "BUG: KFENCE: [- a-z]+ in " FUNC, 1 }, STACK }, .nparts = 2 },
	{ .title = "BUG: KFENCE: memory corruption in " FUNC, .fmt = "KFENCE: memory corruption in %2",
	  .kind = OK_KFENCE, .no_stack = true,
	  .parts = { { "BUG: KFENCE: [- a-z]+ in " FUNC, 1 }, STACK }, .nparts = 2 },
	{ .title = "BUG: (unable to handle kernel paging request|unable to handle page fault for address"
		   "|Unable to handle kernel data access)",
	  .fmt = "BUG: unable to handle kernel paging request in %2", .kind = OK_PAGE_FAULT, OOPS_STACK },
	{ .title = "BUG: (unable to handle kernel NULL pointer dereference|kernel NULL pointer dereference"
		   "|Kernel NULL pointer dereference)",
	  .fmt = "BUG: unable to handle kernel NULL pointer dereference in %2", .kind = OK_NULL_DEREF,
	  OOPS_STACK },
	/* The second half of the header is a separate printk that may be lost. */
	{ .title = "BUG: (unable to handle kernel|Unable to handle kernel)",
	  .fmt = "BUG: unable to handle kernel", .kind = OK_PAGE_FAULT, .corrupted = true },
	{ .title = "BUG: (spinlock|rwlock) (lockup suspected|already unlocked|recursion|cpu recursion"
		   "|bad magic|wrong owner|wrong CPU|trylock failure on UP)",
	  .fmt = "BUG: %1 %2 in %3", .kind = OK_LOCKDEP, TRACE_STACK, .skip = "spin_|_lock|_unlock" },
	{ .title = "BUG: soft lockup", .fmt = "BUG: soft lockup in %1", .kind = OK_SOFT_LOCKUP,
	  OOPS_STACK, .extract = SYZ_STALL },
	{ .title = "BUG: .*still has locks held!", .after = PC " +" FUNC,
	  .fmt = "BUG: still has locks held in %1", .kind = OK_LOCKDEP },
	{ .title = "BUG: scheduling while atomic", .fmt = "BUG: scheduling while atomic in %1",
	  .kind = OK_ATOMIC_SLEEP, TRACE_STACK, .skip = "schedule" },
	{ .title = "BUG: lock held when returning to user space",
	  .after = "leaving the kernel with locks still held", .after2 = "at: (" PC " +)?" FUNC,
	  .fmt = "BUG: lock held when returning to user space in %2", .kind = OK_LOCKDEP, .no_stack = true },
	{ .title = "BUG: bad unlock balance detected!", .fmt = "BUG: bad unlock balance in %1",
	  .kind = OK_LOCKDEP, .parts = { { PC " +" FUNC, 1 }, CALL_TRACE, STACK }, .nparts = 3 },
	{ .title = "BUG: held lock freed!", .after = PC " +" FUNC, .fmt = "BUG: held lock freed in %1",
	  .kind = OK_LOCKDEP },
	{ .title = "BUG: Bad rss-counter state", .fmt = "BUG: Bad rss-counter state", .no_stack = true },
	{ .title = "BUG: non-zero nr_ptes on freeing mm", .fmt = "BUG: non-zero nr_ptes on freeing mm",
	  .no_stack = true },
	{ .title = "BUG: non-zero nr_pmds on freeing mm", .fmt = "BUG: non-zero nr_pmds on freeing mm",
	  .no_stack = true },
	{ .title = "BUG: Dentry .* still in use", .cont = "still in use \\([0-9]+\\) \\[(unmount) of ([^]]+)\\]",
	  .fmt = "BUG: Dentry still in use in %1" },
	{ .title = "BUG: Bad page (state|cache)", .fmt = "BUG: Bad page %1 in %2",
	  .parts = { { "page last allocated", 0 }, STACK }, .nparts = 2,
	  .skip = "(free|put|get|update|release)_page|free_unref|^_*folio|truncate_inode_pages"
		  "|page_frag_free|alloc|vmap|page_owner" },
	{ .title = "BUG: Bad page map", .fmt = "BUG: Bad page map" },
	{ .title = "BUG: workqueue lockup", .fmt = "BUG: workqueue lockup", .no_stack = true },
	{ .title = "BUG: sleeping function called from invalid context at (.*)",
	  .fmt = "BUG: sleeping function called from invalid context in %2", .kind = OK_MIGHT_SLEEP,
	  TRACE_STACK },
	{ .title = "BUG: using ([a-z_]+)\\(\\) in preemptible",
	  .fmt = "BUG: using %1() in preemptible code in %2", TRACE_STACK,
	  .skip = "dump_stack|preemption|preempt|debug_|processor_id|this_cpu" },
	{ .title = "BUG: workqueue leaked lock or atomic", .after = "last function: ([a-zA-Z0-9_]+)$",
	  .fmt = "BUG: workqueue leaked lock or atomic in %1", .kind = OK_LOCKDEP, .no_stack = true },
	{ .title = "BUG: memory leak", .fmt = "memory leak in %1", .kind = OK_MEMLEAK,
	  .parts = { { "backtrace( \\(crc [0-9a-fA-F]*\\))?:", 0 }, STACK }, .nparts = 2,
	  .skip = "kmemleak|mmap|kmem|slab|alloc|create_object|idr_get|list_lru_init|kasprintf"
		  "|kvasprintf|pcpu_create|strdup|strndup|memdup" },
	{ .title = "BUG: .*stack guard page was hit at", .fmt = "BUG: stack guard page was hit in %1",
	  OOPS_STACK, .extract = SYZ_STALL },
	/* arm's way of printing lockdep's "locking bug" of x86 */
	{ .title = "BUG: Invalid wait context", .fmt = "WARNING: locking bug in %1", .kind = OK_LOCKDEP,
	  TRACE_STACK, .skip = "lock_sock|release_sock" },
	{ .title = "BUG:[[:space:]]*$", .fmt = "BUG: corrupted", .corrupted = true },
};

static const struct syz_format warning_formats[] = {
	{ .title = "WARNING: .*lib/debugobjects\\.c.* (debug_print|debug_check|at)",
	  .fmt = "WARNING: ODEBUG bug in %2", WARN_STACK,
	  .skip = "debug_|rcu|hrtimer_|timer_|work_|percpu_|vunmap|vfree|__free_|debug_check|kobject_" },
	{ .title = "WARNING: .*mm/usercopy\\.c.* (usercopy_warn|at)", .fmt = "WARNING: bad usercopy in %2",
	  WARN_STACK, .skip = "usercopy|__check" },
	{ .title = "WARNING: .*lib/kobject\\.c.* (kobject_|at)", .fmt = "WARNING: kobject bug in %2",
	  WARN_STACK, .skip = "kobject_" },
	{ .title = "WARNING: .*fs/proc/generic\\.c.* (proc_register|at)",
	  .fmt = "WARNING: proc registration bug in %2", WARN_STACK, .skip = "proc_" },
	{ .title = "WARNING: .*lib/refcount\\.c.* (refcount_|at)", .fmt = "WARNING: refcount bug in %2",
	  WARN_STACK, .skip = "refcount|kobject_" },
	{ .title = "WARNING: .*kernel/locking/lockdep\\.c.*lock_", .fmt = "WARNING: locking bug in %1",
	  .kind = OK_LOCKDEP, WARN_STACK, .skip = "lock_sock|release_sock" },
	{ .title = "WARNING: .*still has locks held!", .after = "at: " FUNC,
	  .fmt = "WARNING: still has locks held in %1", .kind = OK_LOCKDEP },
	{ .title = "WARNING: Nested lock was not taken", .fmt = "WARNING: nested lock was not taken in %1",
	  .kind = OK_LOCKDEP, WARN_STACK },
	{ .title = "WARNING: lock held when returning to user space",
	  .after = "leaving the kernel with locks still held", .after2 = "at: (" PC " +)?" FUNC,
	  .fmt = "WARNING: lock held when returning to user space in %2", .kind = OK_LOCKDEP,
	  .no_stack = true },
	{ .title = "WARNING: .*mm/.*\\.c.* k?.?malloc", .fmt = "WARNING: kmalloc bug in %1", WARN_STACK,
	  .skip = "kmalloc|krealloc|slab|kmem" },
	{ .title = "WARNING: .*mm/vmalloc.c.*__vmalloc_node", .fmt = "WARNING: zero-size vmalloc in %1",
	  WARN_STACK },
	{ .title = "WARNING: .* usb_submit_urb", .fmt = "WARNING in %1/usb_submit_urb", WARN_STACK,
	  .skip = "usb_submit_urb|usb_start_wait_urb|usb_bulk_msg|usb_interrupt_msg|usb_control_msg" },
	/* 6.19+: "WARNING: file.c:12 at 0x0, CPU#1: comm/123" */
	{ .title = "WARNING: " SRC " at 0x[0-9]+, CPU#[0-9]+", .fmt = "WARNING in %2", WARN_STACK },
	{ .title = "WARNING: .* at " SRC " " FUNC, .fmt = "WARNING in %3", WARN_STACK },
	{ .title = "WARNING: " SRC " at " FUNC, .fmt = "WARNING in %3", WARN_STACK },
	{ .title = "WARNING: \\[.*\\] " SRC " at " FUNC, .fmt = "WARNING in %3", WARN_STACK },
	{ .title = "WARNING: possible circular locking dependency detected",
	  .after = "is trying to acquire lock", .fmt = "possible deadlock in %1", .kind = OK_LOCKDEP,
	  .parts = { { "at: (" PC " +)?" FUNC, 2 }, { "at: (" PC " +)?" FUNC, 2 }, STACK }, .nparts = 3,
	  .skip = "process_one_work|flush_workqueue|drain_workqueue|destroy_workqueue" },
	{ .title = "WARNING: possible irq lock inversion dependency detected",
	  .after = "just changed the state of lock", .after2 = "at: (" PC " +)?" FUNC,
	  .fmt = "possible deadlock in %2", .kind = OK_LOCKDEP },
	{ .title = "WARNING: .*-safe -> .*-unsafe lock order detected", .fmt = "possible deadlock in %1",
	  .kind = OK_LOCKDEP, .parts = { { "which became .* at:", 0 }, STACK }, .nparts = 2 },
	{ .title = "WARNING: possible recursive locking detected", .after = "is trying to acquire lock",
	  .after2 = "at: (" PC " +)?" FUNC, .fmt = "possible deadlock in %2", .kind = OK_LOCKDEP },
	{ .title = "WARNING: inconsistent lock state", .after = "takes", .after2 = "at: (" PC " +)?" FUNC,
	  .fmt = "inconsistent lock state in %3", .kind = OK_LOCKDEP, TRACE_STACK },
	{ .title = "WARNING: suspicious RCU usage", .after = SRC,
	  .fmt = "WARNING: suspicious RCU usage in %2", .kind = OK_LOCKDEP, TRACE_STACK,
	  .skip = "rcu|kmem|slab" },
	{ .title = "WARNING: kernel stack regs at [0-9a-f]+ in [^ ]* has bad '([^']+)' value",
	  .fmt = "WARNING: kernel stack regs has bad '%1' value", .no_stack = true },
	{ .title = "WARNING: kernel stack frame pointer at [0-9a-f]+ in [^ ]* has bad value",
	  .fmt = "WARNING: kernel stack frame pointer has bad value", .no_stack = true },
	{ .title = "WARNING: bad unlock balance detected!", .fmt = "WARNING: bad unlock balance in %1",
	  .kind = OK_LOCKDEP, .parts = { { PC " +" FUNC, 1 }, CALL_TRACE, STACK }, .nparts = 3 },
	{ .title = "WARNING: held lock freed!", .after = "at:( " PC ")? +" FUNC,
	  .fmt = "WARNING: held lock freed in %2", .kind = OK_LOCKDEP },
	{ .title = "WARNING: kernel stack regs .* has bad 'bp' value",
	  .fmt = "WARNING: kernel stack regs has bad value", .no_stack = true },
	{ .title = "WARNING: kernel stack frame pointer .* has bad value",
	  .fmt = "WARNING: kernel stack regs has bad value", .no_stack = true },
	{ .title = "WARNING:[[:space:]]*$", .fmt = "WARNING: corrupted", .corrupted = true },
};

static const struct syz_format info_formats[] = {
	/* Old lockdep headers: "[ INFO: possible circular locking dependency detected ]" */
	{ .title = "INFO: possible circular locking dependency detected \\]",
	  .after = "is trying to acquire lock", .after2 = "at: " PC " +" FUNC,
	  .fmt = "possible deadlock in %1", .kind = OK_LOCKDEP },
	{ .title = "INFO: possible irq lock inversion dependency detected \\]",
	  .after = "just changed the state of lock", .after2 = "at: " PC " +" FUNC,
	  .fmt = "possible deadlock in %1", .kind = OK_LOCKDEP },
	{ .title = "INFO: SOFTIRQ-safe -> SOFTIRQ-unsafe lock order detected \\]",
	  .after = "is trying to acquire", .after2 = "at: " PC " +" FUNC,
	  .fmt = "possible deadlock in %1", .kind = OK_LOCKDEP },
	{ .title = "INFO: possible recursive locking detected \\]", .after = "is trying to acquire lock",
	  .after2 = "at: " PC " +" FUNC, .fmt = "possible deadlock in %1", .kind = OK_LOCKDEP },
	{ .title = "INFO: inconsistent lock state", .after = "takes", .after2 = "at: " PC " +" FUNC,
	  .fmt = "inconsistent lock state in %1", .kind = OK_LOCKDEP },
	{ .title = "INFO: rcu_(preempt|sched|bh|tasks) (self-)?detected( expedited)? stall",
	  .fmt = "INFO: rcu detected stall in %4", .kind = OK_RCU_STALL,
	  .parts = { { "apic_timer_interrupt", 0 }, RIP, STACK }, .nparts = 3,
	  .parts2 = { { "apic_timer_interrupt|Exception stack|el1h_64_irq", 0 }, STACK }, .nparts2 = 2,
	  .skip = "apic_timer_interrupt|rcu", .extract = SYZ_STALL },
	{ .title = "INFO: trying to register non-static key",
	  .fmt = "INFO: trying to register non-static key in %1", .kind = OK_LOCKDEP, TRACE_STACK,
	  .skip = "stack|lock|IRQ" },
	{ .title = "INFO: suspicious RCU usage", .after = SRC, .fmt = "INFO: suspicious RCU usage in %2",
	  .kind = OK_LOCKDEP, TRACE_STACK, .skip = "rcu|kmem|slab" },
	{ .title = "INFO: task .{0,100}blocked (in I/O wait )?for more than [0-9]+ seconds",
	  .fmt = "INFO: task hung in %2", .kind = OK_HUNG_TASK, TRACE_STACK, .extract = SYZ_HANG },
	{ .title = "INFO: task .{0,100}can't die for more than .* seconds", .fmt = "INFO: task can't die in %1",
	  .kind = OK_HUNG_TASK, TRACE_STACK, .skip = "schedule" },
	/* Pieces of old-style KASAN reports. */
	{ .title = "INFO: (Freed|Allocated) in (.*)", .fmt = "INFO: %1 in %2", .corrupted = true },
	{ .title = "INFO:[[:space:]]*$", .fmt = "INFO: corrupted", .corrupted = true },
};

static const struct syz_format unable_formats[] = {
	{ .title = "Unable to handle kernel (paging request|NULL pointer dereference|access to user memory)",
	  .fmt = "BUG: unable to handle kernel %1 in %2", .kind = OK_PAGE_FAULT, OOPS_STACK },
};
static const struct syz_format gpf_formats[] = {
	{ .title = "general protection fault.*:", .fmt = "general protection fault in %1", .kind = OK_GPF,
	  OOPS_STACK },
};
static const struct syz_format stack_segment_formats[] = {
	{ .title = "stack segment: ", .fmt = "stack segment fault in %1", .kind = OK_GPF, OOPS_STACK },
};
static const struct syz_format panic_formats[] = {
	{ .title = "Kernel panic - not syncing: stack-protector:",
	  .cont = "Kernel stack is corrupted in: " FUNC, .fmt = "kernel panic: stack is corrupted in %1",
	  .kind = OK_PANIC, .no_stack = true },
	{ .title = "Kernel panic - not syncing: stack-protector:", .cont = "Kernel stack is corrupted in: [a-f0-9]+",
	  .fmt = "kernel panic: stack is corrupted in %1", .kind = OK_PANIC, TRACE_STACK, .skip = "stack_chk" },
	{ .title = "Kernel panic - not syncing: corrupted stack end", .cont = "detected inside scheduler",
	  .fmt = "kernel panic: corrupted stack end in %1", .kind = OK_PANIC, TRACE_STACK,
	  .skip = "schedule|retint_kernel", .extract = SYZ_STALL },
	{ .title = "Kernel panic - not syncing: kernel stack overflow", .fmt = "kernel stack overflow in %1",
	  .kind = OK_PANIC, TRACE_STACK, .skip = "bad_stack", .extract = SYZ_STALL },
	{ .title = "Kernel panic - not syncing: Attempted to kill init!",
	  .fmt = "kernel panic: Attempted to kill init!", .kind = OK_PANIC },
	{ .title = "Kernel panic - not syncing: Couldn't open N_TTY ldisc for [^ ]+ --- error -[0-9]+",
	  .fmt = "kernel panic: Couldn't open N_TTY ldisc", .kind = OK_PANIC },
	/* A panic line alone means the report before it was lost. */
	{ .title = "Kernel panic - not syncing: Fatal exception", .fmt = "kernel panic: Fatal exception",
	  .kind = OK_PANIC, .corrupted = true },
	{ .title = "Kernel panic - not syncing: panic_on_warn set", .fmt = "kernel panic: panic_on_warn set",
	  .kind = OK_PANIC, .corrupted = true },
	{ .title = "Kernel panic - not syncing: hung_task: blocked tasks",
	  .fmt = "kernel panic: hung_task: blocked tasks", .kind = OK_PANIC, .corrupted = true },
	{ .title = "Kernel panic - not syncing: (.*)", .fmt = "kernel panic: %1", .kind = OK_PANIC },
};
static const struct syz_format double_fault_formats[] = {
	{ .title = "PANIC: double fault", .fmt = "PANIC: double fault in %1", .kind = OK_OOPS,
	  .parts = { RIP }, .nparts = 1 },
};
/*
 * Rust's panic!() (which ends in BUG()): the message is the line after
 * "panicked at"; the frame is the first below the unwinder.
 */
static const struct syz_format rust_formats[] = {
	{ .title = "rust_kernel: panicked", .after = "^(.+)$", .fmt = "%1 in %2", .kind = OK_BUG,
	  TRACE_STACK, .skip = "__rustc::rust_begin_unwind" },
};
static const struct syz_format kernel_bug_formats[] = {
	{ .title = "kernel BUG at mm/usercopy.c", .fmt = "BUG: bad usercopy in %1", .kind = OK_BUG,
	  TRACE_STACK, .skip = "usercopy|__check" },
	{ .title = "kernel BUG at lib/list_debug.c", .fmt = "BUG: corrupted list in %1", .kind = OK_BUG,
	  TRACE_STACK },
	{ .title = "kernel BUG at (.*)", .fmt = "kernel BUG in %2", .kind = OK_BUG, OOPS_STACK,
	  .skip = "^skb_" },
};
static const struct syz_format kernel_bug2_formats[] = {
	{ .title = "Kernel BUG (.*)", .fmt = "kernel BUG %1", .kind = OK_BUG },
};
static const struct syz_format kmalloc_formats[] = {
	{ .title = "BUG kmalloc-.*: Object already free", .fmt = "BUG: Object already free", .kind = OK_BUG },
};
static const struct syz_format divide_formats[] = {
	{ .title = "divide.error: ", .fmt = "divide error in %1", .kind = OK_DIVIDE, .parts = { RIP },
	  .nparts = 1 },
};
static const struct syz_format invalid_op_formats[] = {
	{ .title = "invalid opcode: ", .fmt = "invalid opcode in %1", .kind = OK_INVALID_OPCODE,
	  .parts = { RIP }, .nparts = 1 },
};
static const struct syz_format int3_formats[] = {
	{ .title = "int3: ", .fmt = "int3 in %1", .kind = OK_OOPS, OOPS_STACK },
};
static const struct syz_format ubsan_formats[] = {
	{ .title = "UBSAN: Undefined behaviour in", .fmt = "UBSAN: undefined-behaviour in %1",
	  .kind = OK_UBSAN, TRACE_STACK, .skip = "ubsan|overflow" },
	{ .title = "UBSAN: (.*) in", .fmt = "UBSAN: %1 in %2", .kind = OK_UBSAN, TRACE_STACK,
	  .skip = "ubsan|overflow" },
};
static const struct syz_format reboot_formats[] = {
	{ .title = "^Booting the kernel", .fmt = "unexpected kernel reboot", .no_stack = true },
};
static const struct syz_format netdev_formats[] = {
	{ .title = "unregister_netdevice: waiting for .* to become free",
	  .fmt = "unregister_netdevice: waiting for DEV to become free", .no_stack = true },
};
static const struct syz_format vfs_close_formats[] = {
	{ .title = "VFS: Close: file count is 0", .fmt = "VFS: Close: file count is zero (use-after-free)",
	  .no_stack = true },
};
static const struct syz_format vfs_busy_formats[] = {
	{ .title = "VFS: Busy inodes after unmount", .fmt = "VFS: Busy inodes after unmount (use-after-free)",
	  .no_stack = true },
};
static const struct syz_format internal_formats[] = {
	{ .title = "Internal error:", .fmt = "Internal error in %1", .kind = OK_OOPS, OOPS_STACK },
};
static const struct syz_format unhandled_formats[] = {
	{ .title = "Unhandled fault:", .fmt = "Unhandled fault in %1", .kind = OK_PAGE_FAULT, OOPS_STACK },
};
static const struct syz_format alignment_formats[] = {
	{ .title = "Alignment trap:", .fmt = "Alignment trap in %1", .kind = OK_OOPS, OOPS_STACK },
};
static const struct syz_format trusty_formats[] = {
	{ .title = "trusty: panic.* ASSERT FAILED",
	  .cont = "trusty: panic \\(.*\\):( DEBUG)? ASSERT FAILED at \\(.*\\): (.+)",
	  .fmt = "trusty: ASSERT FAILED: %2", .no_stack = true },
	{ .title = "trusty: panic.* ASSERT FAILED.*: *(.*)", .fmt = "trusty: ASSERT FAILED: %1",
	  .corrupted = true },
	{ .title = "trusty: panic", .cont = "trusty: panic \\([^)]*\\): (.+)", .fmt = "trusty: panic: %1",
	  .no_stack = true },
};
static const struct syz_format go_formats[] = {
	{ .title = "fatal error:", .fmt = "go runtime error", .no_stack = true },
};
static const struct syz_format syzfail_formats[] = {
	{ .title = "SYZFAIL:(.*)", .fmt = "SYZFAIL:%1", .no_stack = true },
};
static const struct syz_format syzfatal_formats[] = {
	{ .title = "SYZFATAL:(.*)", .fmt = "SYZFATAL:%1", .no_stack = true },
};
static const struct syz_format gopanic_formats[] = {
	{ .title = "panic: Sentry detected .* stuck task", .fmt = "panic: Sentry detected stuck tasks",
	  .no_stack = true },
	{ .title = "panic:(.*)", .fmt = "panic:%1", .no_stack = true },
};

#define FORMATS(f) f, sizeof(f) / sizeof(f[0])

const struct syz_group syz_groups[] = {
	{ "BUG:", FORMATS(bug_formats),
	  "ODEBUG:|Boot_DEBUG:|xlog_status:|DEBUG:|BUG: no syscalls can create resource" },
	{ "WARNING:", FORMATS(warning_formats),
	  "WARNING: /etc/ssh/moduli does not exist, using fixed modulus"
	  "|WARNING: workqueue cpumask: online intersect > possible intersect"
	  "|WARNING: [Tt]he mand mount option|WARNING: Unsupported flag value\\(s\\) of 0x%x in DT_FLAGS_1"
	  "|WARNING: Unprivileged eBPF is enabled with eIBRS"
	  "|WARNING: fbcon: Driver '.*' missed to adjust virtual screen size"
	  "|WARNING: See https.* for mitigation options\\.|WARNING: kernel not compiled with CPU_SRSO"
	  "|EXT4-[Ff][Ss]( \\(.*\\))?:|[Ww][Aa][Rr][Nn][Ii][Nn][Gg]: .* uses (deprecated v2 capabilities"
	  "|wireless extensions)|XFS \\([a-zA-Z0-9_]+\\): WARNING" },
	{ "INFO:", FORMATS(info_formats),
	  "INFO: lockdep is turned off|INFO: Stall ended before state dump start|INFO: NMI handler"
	  "|INFO: recovery required on readonly filesystem|(handler|interrupt).*took too long"
	  "|INFO: sys_.* is not present in /proc/kallsyms|INFO: no syscalls can create resource"
	  "|rmt_storage:INFO:|_INFO:" },
	{ "Unable to handle kernel", FORMATS(unable_formats), NULL },
	{ "general protection fault", FORMATS(gpf_formats), "general protection fault .* error:[0-9]+ in " },
	{ "stack segment: ", FORMATS(stack_segment_formats), NULL },
	{ "Kernel panic", FORMATS(panic_formats), NULL },
	{ "PANIC: double fault", FORMATS(double_fault_formats), NULL },
	{ "rust_kernel: panicked", FORMATS(rust_formats), NULL },
	{ "kernel BUG", FORMATS(kernel_bug_formats), NULL },
	{ "Kernel BUG", FORMATS(kernel_bug2_formats), NULL },
	{ "BUG kmalloc-", FORMATS(kmalloc_formats), NULL },
	{ "divide error:", FORMATS(divide_formats), NULL },
	{ "divide_error:", FORMATS(divide_formats), NULL },
	{ "invalid opcode:", FORMATS(invalid_op_formats), NULL },
	{ "int3:", FORMATS(int3_formats), NULL },
	{ "UBSAN:", FORMATS(ubsan_formats), NULL },
	{ "Booting the kernel.", FORMATS(reboot_formats), "Parsing ELF|Decompressing Linux|Unknown parameter '" },
	{ "unregister_netdevice: waiting for", FORMATS(netdev_formats), NULL },
	{ "VFS: Close: file count is 0", FORMATS(vfs_close_formats), NULL },
	{ "VFS: Busy inodes after unmount", FORMATS(vfs_busy_formats), NULL },
	{ "Internal error:", FORMATS(internal_formats), NULL },
	{ "Unhandled fault:", FORMATS(unhandled_formats), NULL },
	{ "Alignment trap:", FORMATS(alignment_formats), NULL },
	{ "trusty: panic", FORMATS(trusty_formats), NULL },
	{ "fatal error:", FORMATS(go_formats), "ALSA|fatal error: cannot create timer" },
	{ "SYZFAIL:", FORMATS(syzfail_formats), NULL },
	{ "SYZFATAL:", FORMATS(syzfatal_formats), NULL },
	{ "panic:", FORMATS(gopanic_formats), "_panic:|xlog_status:|ddb\\.onpanic:|evtlog_status:" },
};
const size_t syz_ngroups = sizeof(syz_groups) / sizeof(syz_groups[0]);

/*
 * Frames no title names: sanitizers, report printing, allocators, locking,
 * atomics, string and user-copy helpers, list/tree/refcount debugging, work
 * and timer plumbing, device-model teardown, printk.  Matched anywhere in the
 * name unless anchored.
 */
const char *const syz_skip_frames[] = {
	"__sanitizer", "__asan", "kasan", "hwasan", "__msan", "kmsan", "kcsan_setup_watchpoint",
	"check_memory_region", "check_heap_object", "check_object", "read_word_at_a_time",
	"(read|write)_once_.*nocheck", "print_address_description", "panic", "invalid_op",
	"report_bug", "fixup_bug", "print_report", "print_usage_bug", "do_error", "_trap$|do_trap",
	"show_stack", "dump_stack", "walk_stack", "dump_backtrace", "warn_slowpath", "warn_alloc",
	"warn_bogus", "__warn", "alloc_page", "k?v?(m|z|c)alloc", "krealloc", "kmem_cache",
	"allocate_slab", "__alloc_frozen_pages_noprof", "folio_(alloc|unlock)", "filemap_alloc_folio",
	"__filemap_get_folio", "find_or_create_page", "do_read_cache_folio", "read_cache_page",
	"pagecache_get_page", "grab_cache_page_write_begin", "slab_", "debug_object",
	"timer_is_static_object", "work_is_static_object", "__might_fault", "print_unlock",
	"imbalance_bug", "lockdep", "bh_enable", "bh_disable", "perf_trace", "lock_acquire",
	"lock_release", "lock_class", "mark_lock", "(reacquire|mark)_held_locks", "raw_spin_rq",
	"spin_lock", "spin_trylock", "spin_unlock", "read_lock", "read_trylock", "write_lock",
	"write_trylock", "read_unlock", "write_unlock", "^down$", "down_read", "down_write",
	"down_trylock", "up_read", "up_write", "^mutex_", "^__mutex_", "^rt_mutex_", "owner_on_cpu",
	"osq_lock", "osq_unlock",
	"atomic(64)?_(dec|inc|read|set|or|xor|and|add|sub|fetch|xchg|cmpxchg|try)",
	"(set|clear|change|test)_bit", "__wake_up", "^refcount_", "^kref_", "ref_tracker",
	"seqprop_assert", "memcpy", "memcmp", "memset", "memchr", "memmove", "memdup", "strcmp",
	"strncmp", "strcpy", "strlcpy", "strncpy", "strscpy", "strlen", "strstr", "strnstr",
	"strnlen", "strchr", "strdup", "strndup", "copy_to_user", "copy_from_user", "copy_to_iter",
	"copy_from_iter", "copy_page_to_iter", "copy_page_from_iter", "copy_folio_to_iter",
	"^copyin$", "^copyout$", "put_user", "get_user", "might_fault", "might_sleep", "list_add",
	"list_del", "list_replace", "list_move", "list_splice", "^rb_", "^__rb_", "_indirect_thunk_",
	"string", "pointer", "snprintf", "scnprintf", "kasprintf", "kvasprintf", "printk",
	"va_format", "dev_info", "dev_notice", "dev_warn", "dev_err", "dev_alert", "dev_crit",
	"dev_emerg", "program_check_exception", "program_check_common", "del_timer", "flush_work",
	"__cancel_work_timer", "cancel_work_sync", "try_to_grab_pending", "flush_workqueue",
	"drain_workqueue", "destroy_workqueue", "queue_work", "finish_wait", "kthread_stop",
	"kobject_", "add_uevent_var", "get_device_parent", "device_add", "device_del",
	"device_unregister", "device_destroy", "device_release", "devres_release_all",
	"hwrng_unregister", "i2c_del_adapter", "__unregister_client", "device_for_each_child",
	"rollback_registered", "unregister_netdev", "sysfs_remove", "device_remove_file",
	"tty_unregister_device", "dummy_urb_enqueue", "usb_kill_urb", "usb_kill_anchored_urbs",
	"usb_control_msg", "usb_hcd_submit_urb", "usb_submit_urb", "^complete$",
	"wait_for_completion", "^kv?free$", "kfree_skb", "readb$", "readw$", "readl$", "readq$",
	"writeb$", "writew$", "writel$", "writeq$", "logic_in", "logic_out", "^crc[0-9]+",
	"crc_itu_t", "__might_resched", "assertfail", "^iput$", "^iput_final$", "^ihold$",
	"hex_dump_to_buffer", "print_hex_dump", "^klist_", "(trace|lockdep)_(hard|soft)irq",
	"^(un)?lock_page", "stack_trace_consume_entry", "arch_stack_walk", "stack_trace_save",
	"insert_work", "__queue_delayed_work", "queue_delayed_work_on", "ida_free",
	/* arm64 translation faults */
	"do_(kernel|translation)_fault", "do_mem_abort", "el1_abort", "el1h_64_sync(_handler)?",
	"print_tainted", "xas_(start|load|find)", "find_lock_entries", "truncate_inode_pages_range",
	"__phys_addr", "__fortify_report", "cleanup_srcu_struct", "rhashtable_lookup",
	"extract_(user|iter)_to_sg", "drop_nlink", "^get_taint$", "^put_device$", "lock_timer_base",
	"__timer_delete_sync", "sk_stop_timer_sync", "__mod_timer", "fast_dput", "dput",
	"mark_buffer_dirty",
	NULL,
};

/* Syscall and entry wrappers a title names without (the shortest strip wins). */
const char *const syz_strip_prefixes[] = {
	"SYSC_", "SyS_", "sys_", "__x64_", "__ia32_", "__arm64_", "____sys_", "___sys_", "__sys_",
	"__se_", "__se_sys_", "__do_sys_", "compat_SYSC_", "compat_SyS_", "ksys_", NULL,
};

/*
 * Stalls and lockups: the loop is somewhere above the entry that dispatched
 * the work, so the title names the frame just above the first of these
 * (syscall entry, workqueue, softirq, timer, file/socket operation ...).
 */
const char *const syz_stall_anchors[] = {
	"process_one_work", "do_syscall_", "do_fast_syscall_", "sysenter_dispatch", "tracesys_phase2",
	"el0_svc_handler", "invoke_syscall", "ret_fast_syscall", "netif_receive_skb", "do_softirq",
	"call_timer_fn", "_run_timers", "run_timer_softirq", "hrtimer_run", "run_ksoftirqd",
	"smpboot_thread_fn", "^kthread$", "start_secondary", "cpu_startup_entry", "ret_from_fork",
	"vfs_write", "vfs_read", "vfs_iter_read", "vfs_iter_write", "do_iter_read", "do_iter_write",
	"call_read_iter", "call_write_iter", "new_sync_read", "new_sync_write", "vfs_ioctl",
	"ksys_ioctl", "compat_ioctl", "compat_sys_ioctl", "blkdev_driver_ioctl", "blkdev_ioctl",
	"do_iter_readv_writev", "^call_mmap", "mmap_region", "do_mmap", "do_dentry_open", "vfs_open",
	"^sock_sendmsg", "^sock_recvmsg", "^sock_release", "^__sock_release", "^setsockopt$",
	"kernel_setsockopt", "sock_common_setsockopt", "^listen$", "kernel_listen",
	"sk_common_release", "^sock_mmap", "^accept$", "kernel_accept", "^sock_do_ioctl",
	"^sock_ioctl", "^compat_sock_ioctl", "^nfnetlink_rcv_msg", "^rtnetlink_rcv_msg",
	"^netlink_dump", "^(sys_)?(socketpair|connect|ioctl)", "__do_fault", "do_page_fault",
	"^page_fault$", "__fput", "task_work_run", "exit_to_usermode", "smp_call_function",
	"tasklet_action", "tasklet_hi_action", NULL,
};

/* Lines that start a report but do not cut the one before it. */
const char *const syz_report_continuations[] = {
	"invalid opcode: 0000", "Kernel panic - not syncing", "unregister_netdevice: waiting for",
	"PANIC: double fault", "Internal error:", NULL,
};

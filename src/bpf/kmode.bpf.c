// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracekit syscalls --kernel: the BPF side.
 *
 * Raw tracepoints on sys_enter/sys_exit see every syscall of the machine; a
 * task is looked up in `slots` (the traced pid tree, kept here: forks of a
 * traced task join it when following) and, for traced tasks and traced
 * numbers, records are written to the ring buffer: the number, the six
 * arguments and the return value, and the memory the number's copy plan
 * names (user space derives the plan from the decoders' struct sc_mem_spec).
 * Most calls are one record at their exit (KM_CALL: the entry waits in the
 * task's slot); the plan marks the others, which get one at each end.
 *
 * Tracepoint programs cannot sleep, so a page that is not in memory cannot
 * be read: such a region is sent with fault set and user space prints the
 * address, as strace does for memory it cannot read.
 *
 * BTF raw tracepoints (tp_btf) need no tracefs, pass the tracepoint's own
 * arguments (struct pt_regs *, the task) as typed pointers the program reads
 * directly, and cost least.  They need the kernel's BTF; without it the load
 * fails and user space falls back to ftrace.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "kmode.h"

char LICENSE[] SEC("license") = "GPL";

/* Only the fields read here; CO-RE finds them in the running kernel's BTF. */
struct pt_regs {
	unsigned long r10, r9, r8, dx, si, di, orig_ax, sp;
} __attribute__((preserve_access_index));

struct ns_common {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct pid_namespace {
	struct ns_common ns;
} __attribute__((preserve_access_index));

struct upid {
	int nr;
	struct pid_namespace *ns;
} __attribute__((preserve_access_index));

struct pid {
	unsigned int level;
	struct upid numbers[1];
} __attribute__((preserve_access_index));

struct task_struct;

typedef struct {
	int counter;
} atomic_t;

struct signal_struct {
	struct pid *pids[4];	/* by enum pid_type: PID, TGID, PGID, SID */
	atomic_t live;		/* threads not yet exiting */
	struct task_struct *group_exec_task;	/* a thread in execve, killing the others */
} __attribute__((preserve_access_index));

typedef struct {
	unsigned long sig[1];
} sigset_t;

struct sigpending {
	sigset_t signal;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	int tgid;
	int exit_code;
	struct files_struct *files;
	struct fs_struct *fs;
	struct pid *thread_pid;
	struct signal_struct *signal;
	struct sigpending pending;
} __attribute__((preserve_access_index));

struct km_scratch {
	__u8 buf[KM_BUF_SIZE];
};

const volatile __u32 cfg_follow;	/* -f: forks of traced tasks are traced */
const volatile __u32 cfg_slot_mask = KM_SLOTS - 1;	/* fewer slots: tests make tasks spill */
const volatile __u64 cfg_wake_at = 1 << 22;	/* bytes waiting that wake user space: a quarter of the ring */
/*
 * Times are read only when the output shows them (-t -r -T -c --json): a
 * clock read costs more than all else a call's record needs here (the
 * lfence before rdtsc, in a VM).  Without it, records carry a number from
 * one counter instead, which orders them as well (see stamp()).
 */
const volatile __u32 cfg_clock = 1;
/* -y/-yy/--decode-fds: records carry what their descriptors were (put_fds); off, nothing changes. */
const volatile __u32 cfg_fds;
const volatile __u32 cfg_pidns;		/* --pidns-translation: send KM_PIDS records */


__u64 lost_records;		/* the ring buffer was full */
__u64 stamps;			/* the last order number given (cfg_clock off); user space reads it */
__u64 truncated_records;	/* KM_DATA_LIMIT reached */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);	/* set by user space (--buffer-size) */
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KM_SLOTS);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);	/* tid & (KM_SLOTS - 1) */
	__type(value, struct km_task);
} slots SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 65536);
	__type(key, __u32);	/* tid */
	__type(value, struct km_task);
} spill SEC(".maps");

__u64 spilled;			/* tasks in spill: while 0, a task not in its slot is not traced */

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, KM_NR_MAX);
	__type(key, __u32);
	__type(value, struct km_plan);
} plans SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct km_scratch);
} scratch SEC(".maps");

/*
 * No wakeup per record (it costs the traced program an interrupt each time):
 * user space polls on a short timer, and is woken by the record that fills
 * the ring past cfg_wake_at, once: while it lags behind, a wakeup per record
 * would only slow the program down (an IPI, a trap to the hypervisor in a VM).
 * size: the record's bytes, and the ring's 8-byte header.
 */
static __always_inline __u64 wakeup(__u64 size)
{
	__u64 before = bpf_ringbuf_query(&rb, BPF_RB_AVAIL_DATA);
	return before <= cfg_wake_at && before + size + 8 > cfg_wake_at ? BPF_RB_FORCE_WAKEUP :
									   BPF_RB_NO_WAKEUP;
}

/*
 * A record's place in time: CLOCK_MONOTONIC ns, or without cfg_clock the
 * next number of a machine-wide counter (one atomic add, no clock): the
 * order of events across tasks and CPUs is all the lines need then.
 */
static __always_inline __u64 stamp(void)
{
	return cfg_clock ? bpf_ktime_get_ns() : __sync_add_and_fetch(&stamps, 1);
}

static __always_inline struct km_scratch *scratch_buf(void)
{
	__u32 zero = 0;
	return bpf_map_lookup_elem(&scratch, &zero);
}

/* The traced task tid's entry, or NULL. */
static __always_inline struct km_task *task_of(__u32 tid)
{
	__u32 i = tid & cfg_slot_mask;
	struct km_task *t = bpf_map_lookup_elem(&slots, &i);
	if (t && t->tid == tid)
		return t;
	return spilled ? bpf_map_lookup_elem(&spill, &tid) : NULL;
}

/* Trace tid from now: its slot if free, else the spill map. */
static __always_inline void task_add(__u32 tid, __u32 state)
{
	__u32 i = tid & cfg_slot_mask;
	struct km_task *t = bpf_map_lookup_elem(&slots, &i);
	if (t && (t->tid == tid || __sync_val_compare_and_swap(&t->tid, 0, tid) == 0)) {
		t->state = state;
		t->pids_key = 0;
		return;
	}
	struct km_task nt = { .tid = tid, .state = state };
	if (bpf_map_update_elem(&spill, &tid, &nt, BPF_NOEXIST) == 0)
		__sync_fetch_and_add(&spilled, 1);
	else
		bpf_map_update_elem(&spill, &tid, &nt, BPF_EXIST);
}

static __always_inline void task_del(__u32 tid)
{
	__u32 i = tid & cfg_slot_mask;
	struct km_task *t = bpf_map_lookup_elem(&slots, &i);
	if (t && t->tid == tid) {
		t->state = 0;
		t->pids_key = 0;
		t->tid = 0;
	} else if (spilled && bpf_map_delete_elem(&spill, &tid) == 0) {
		__sync_fetch_and_sub(&spilled, 1);
	}
}

/* put_region's how: a string, a guess (see KM_QUIET). */
#define PUT_STR 1
#define PUT_QUIET 2

/*
 * Copy len bytes (a string with PUT_STR) at addr as one region of the record
 * in the scratch (its header counts the bytes so far).  A read that fails is
 * retried up to the end of its first page, as process_vm_readv would return
 * the readable part; what fails still leaves a region with fault set, so
 * user space can count it (with PUT_QUIET nothing: the address was a guess).
 * A global function: the verifier checks it once, not once per caller's state.
 */
__noinline int put_region(__u64 addr, __u32 len, int how, int when)
{
	struct km_scratch *s = scratch_buf();
	if (!s || !addr)
		return 0;
	struct km_hdr *h = (struct km_hdr *)s->buf;
	if (h->size >= KM_DATA_LIMIT) {
		if (!(how & PUT_QUIET))
			h->truncated |= KM_HDR_CUT;
		return -1;
	}
	/* The masks are for the verifier: offsets and sizes it can bound within the scratch. */
	__u32 off = h->size & (KM_DATA_LIMIT - 1);
	struct km_region *reg = (void *)(s->buf + sizeof(struct km_hdr) + off);
	void *data = reg + 1;
	__u64 n = len < KM_REG_CAP ? len : KM_REG_CAP;
	/* In asm, so the compiler keeps the mask on the register the helper gets. */
	asm volatile("%0 &= 8191" : "+r"(n));
	long got;
	/* 1..4096: the mask is the verifier's bound (4095 would make a page's start 0). */
	__u64 in_page = 4096 - (addr & 4095);
	asm volatile("%0 &= 8191" : "+r"(in_page));
	if (how & PUT_STR) {
		/* Ask one byte more: a string that fills it was cut, keep it without the NUL. */
		got = bpf_probe_read_user_str(data, n, (void *)addr);
		if (got == (long)n && n > 0)
			got--;
	} else {
		got = bpf_probe_read_user(data, n, (void *)addr) ? -1 : (long)n;
	}
	/*
	 * What is readable up to the end of the first page, as process_vm_readv
	 * gives it (a string there without its NUL: the page after is not mapped).
	 */
	if (got < 0 && in_page < n)
		got = bpf_probe_read_user(data, in_page, (void *)addr) ? -1 : (long)in_page;
	if (got < 0 && (how & PUT_QUIET))
		return -1;
	reg->addr = addr;
	reg->when = when;
	reg->fault = got < 0;
	reg->pad = 0;
	reg->len = got < 0 ? 0 : (__u32)got;
	if (got < 0)
		h->faults = 1;
	h->size += sizeof(*reg) + ((reg->len + 7) & ~7u);
	h->nregions++;
	return got < 0 ? -1 : 0;
}

#include "kmode_fds.bpf.h"

/*
 * The pointer-shaped words of the region at scratch offset at (a region's
 * header, as put_region left it): cap bytes at each, quietly; with more,
 * the same one level down (follow_leaf).  Global, like put_region.
 */
static __always_inline __u64 region_word(struct km_scratch *s, __u32 at, int i, __u32 *len)
{
	__u32 o = (at & (KM_DATA_LIMIT - 1)) + sizeof(struct km_hdr);
	struct km_region *reg = (void *)(s->buf + o);
	*len = reg->len;
	__u32 w = o + sizeof(struct km_region) + i * 8;
	asm volatile("%0 &= 32767" : "+r"(w));
	if (w > KM_BUF_SIZE - 8)
		return 0;
	return *(__u64 *)(s->buf + w);
}

__noinline int follow_leaf(__u32 at, __u32 cap, int when)
{
	struct km_scratch *s = scratch_buf();
	if (!s)
		return 0;
	for (int i = 0; i < KM_DEEP_WORDS2; i++) {
		__u32 len = 0;
		__u64 p = region_word(s, at, i, &len);
		if ((__u32)(i * 8 + 8) > len)
			break;
		if (p >= KM_USER_PTR_MIN && p < KM_USER_PTR_END)
			put_region(p, cap, PUT_QUIET, when);
	}
	return 0;
}

__noinline int follow(__u32 at, __u32 cap1, __u32 cap2, int when)
{
	struct km_scratch *s = scratch_buf();
	if (!s)
		return 0;
	struct km_hdr *h = (struct km_hdr *)s->buf;
	for (int i = 0; i < KM_DEEP_WORDS; i++) {
		__u32 len = 0;
		__u64 p = region_word(s, at, i, &len);
		if ((__u32)(i * 8 + 8) > len)
			break;
		if (p < KM_USER_PTR_MIN || p >= KM_USER_PTR_END)
			continue;
		__u32 next = h->size;
		if (put_region(p, cap1, PUT_QUIET, when) == 0 && cap2)
			follow_leaf(next, cap2, when);
	}
	return 0;
}

/* Read a word of user memory and keep it as a region too: decoders print pointers they follow. */
static __always_inline int word(__u64 addr, void *val, __u32 size, int when)
{
	if (bpf_probe_read_user(val, size, (void *)addr)) {
		put_region(addr, size, 0, when);
		return -1;
	}
	return put_region(addr, size, 0, when);
}

static __always_inline void copy_strv(__u64 addr, __u32 cap, int when)
{
	for (int i = 0; i < KM_STRV_MAX; i++) {
		__u64 p = 0;
		if (word(addr + i * 8, &p, 8, when) < 0 || !p)
			return;
		if (cap)
			put_region(p, cap, PUT_STR, when);
	}
}

/*
 * Global functions, like put_region: the verifier checks each once, not once
 * per place that calls it (inlined, msghdr's iovec loop inside mmsghdr's
 * loop made loading the program take twice as long).
 */
__noinline int copy_iov(__u64 addr, __u64 cnt, __u32 cap, int when)
{
	/* The array as one region (mem.c reads it whole), then each element's bytes. */
	if (put_region(addr, (cnt < KM_IOV_MAX ? cnt : KM_IOV_MAX) * 16, 0, when) < 0)
		return 0;
	for (int i = 0; i < KM_IOV_MAX; i++) {
		__u64 iov[2];
		if (i >= cnt || bpf_probe_read_user(iov, 16, (void *)(addr + i * 16)))
			return 0;
		put_region(iov[0], iov[1] < cap ? iov[1] : cap, 0, when);
	}
	return 0;
}

__noinline int copy_msghdr(__u64 addr, __u32 cap, int when)
{
	/* struct msghdr: name, namelen, iov, iovlen, control, controllen, flags */
	__u64 m[7];
	if (word(addr, m, sizeof(m), when) < 0)
		return 0;
	put_region(m[0], (__u32)m[1] < 128 ? (__u32)m[1] : 128, 0, when);
	copy_iov(m[2], m[3], cap, when);
	put_region(m[4], m[5] < 1024 ? m[5] : 1024, 0, when);
	if (cfg_fds)
		put_cmsg_fds(m[4], m[5]);
	return 0;
}

/* The entries' messages first, then the array (its msg_len words are read whole by mem.c). */
static __always_inline void copy_mmsghdr(__u64 addr, __u64 cnt, __u32 cap, int when)
{
	__u64 n = cnt < KM_MMSG_MAX ? cnt : KM_MMSG_MAX;
	for (int i = 0; i < KM_MMSG_MAX; i++) {
		if (i >= n)
			break;
		copy_msghdr(addr + i * 64, cap, when);	/* sizeof(struct mmsghdr) */
	}
	put_region(addr, n * 64, 0, when);
}

static __always_inline __u64 copy_len(const struct km_copy *c, const __u64 *args, __s64 ret,
				      int when)
{
	__u64 n;
	switch (c->len_src) {
	case KM_LEN_ARG:
		n = c->len_arg < 6 ? args[c->len_arg & 7] * c->elem : 0;
		break;
	case KM_LEN_RET:
		n = ret > 0 ? (__u64)ret * c->elem : 0;
		break;
	case KM_LEN_ARGPTR: {
		int v = 0;
		if (c->len_arg >= 6 || word(args[c->len_arg & 7], &v, 4, when) < 0 || v < 0)
			return 0;
		n = (__u64)v;
		break;
	}
	default:
		return c->cap;
	}
	return n < c->cap ? n : c->cap;
}

/*
 * Copy i of syscall nr's plan into the record in the scratch (its header
 * holds the arguments).  Global, like put_region: verified once, whatever
 * the callers' states, which keeps loading fast.
 */
__noinline int copy_one(__u32 nr, __u32 i, __s64 ret, __u64 sp, int when)
{
	struct km_scratch *s = scratch_buf();
	struct km_plan *p = bpf_map_lookup_elem(&plans, &nr);
	if (!s || !p)
		return 0;
	__u64 idx = i;
	asm volatile("%0 &= 7" : "+r"(idx));
	if (idx >= KM_COPY_MAX)
		return 0;
	const struct km_copy *c = &p->c[idx];
	const __u64 *args = ((struct km_hdr *)s->buf)->args;
	__u64 addr = c->arg == KM_ARG_SP ? sp : c->arg < 6 ? args[c->arg & 7] : 0;
	if (!addr)
		return 0;
	addr += c->off;
	switch (c->op) {
	case KM_OP_BUF: {
		/* Big buffers (getdents64) in page-sized regions; user space reads across them. */
		__u64 n = copy_len(c, args, ret, when);
		for (int k = 0; k < KM_DATA_LIMIT / 4096 && n; k++) {
			__u32 part = n < 4096 ? n : 4096;
			if (put_region(addr, part, 0, when) < 0)
				break;
			addr += part;
			n -= part;
		}
		break;
	}
	case KM_OP_STR:
		put_region(addr, c->cap, PUT_STR, when);
		break;
	case KM_OP_DEREF: {
		__u64 p = 0;
		if (c->flags & KM_QUIET) {
			/* Only some calls hold a pointer there: a guess, kept only when it reads. */
			if (!bpf_probe_read_user(&p, 8, (void *)addr) && p >= KM_USER_PTR_MIN &&
			    p < KM_USER_PTR_END)
				put_region(p, c->cap, PUT_QUIET, when);
		} else if (word(addr, &p, 8, when) == 0) {
			put_region(p, c->cap, 0, when);
		}
		break;
	}
	case KM_OP_DEEP: {
		/* The first page's worth is followed; the rest (UBI_IOCRNVOL's 4368 bytes) in a second region. */
		__u32 at = ((struct km_hdr *)s->buf)->size;
		__u64 n = copy_len(c, args, ret, when);
		__u32 part = n < 4096 ? n : 4096;
		if (put_region(addr, part, PUT_QUIET, when) < 0)
			break;
		if (n > part)
			put_region(addr + part, n - part, PUT_QUIET, when);
		follow(at, c->cap1, c->cap2, when);
		break;
	}
	case KM_OP_STRV:
		copy_strv(addr, c->cap, when);
		break;
	case KM_OP_IOVEC: {
		/*
		 * The argument's count (copy_iov stops at KM_IOV_MAX), not capped by
		 * -s as each element's bytes are: the decoder reads the element after
		 * the -s'th to print "..." (strace's print_array).
		 */
		__u64 n = KM_IOV_MAX;
		if (c->len_src == KM_LEN_ARG)
			n = c->len_arg < 6 ? args[c->len_arg & 7] : 0;
		else if (c->len_src != KM_LEN_FIXED)
			n = copy_len(c, args, ret, when);
		copy_iov(addr, n, c->cap, when);
		break;
	}
	case KM_OP_MSGHDR:
		copy_msghdr(addr, c->cap, when);
		break;
	case KM_OP_MMSGHDR: {
		__u64 n = c->len_src == KM_LEN_RET ? (ret > 0 ? (__u64)ret : 0) :
			  c->len_arg < 6 ? args[c->len_arg & 7] : 0;
		copy_mmsghdr(addr, n, c->cap, when);
		break;
	}
	}
	return 0;
}

/* Where a record is built: the per-CPU scratch, header first. */
struct rec {
	struct km_scratch *s;
	__u8 when;
};

static __always_inline struct km_hdr *hdr(struct rec *r)
{
	return (struct km_hdr *)r->s->buf;
}

/* A record's header without regions yet (args and sp are the caller's). */
static __always_inline void put_hdr(struct km_hdr *h, __u32 type, __u32 tid, __u32 tgid, __s32 nr,
				    __s64 ret, __u64 ts, __u64 exit_ts)
{
	h->ts = ts;
	h->exit_ts = exit_ts;
	h->type = type;
	h->tid = tid;
	h->tgid = tgid;
	h->nr = nr;
	h->ret = ret;
	h->sp = 0;
	h->size = 0;
	h->nregions = 0;
	h->truncated = 0;
	h->faults = 0;
}

/* A record begins in the scratch; ts: its stamp (a KM_CALL's is its entry's). */
static __always_inline struct rec start(__u32 type, __u32 tid, __u32 tgid, __s32 nr, __u8 when, __u64 ts)
{
	struct rec r = { .s = scratch_buf(), .when = when };
	if (!r.s)
		return r;
	struct km_hdr *h = hdr(&r);
	put_hdr(h, type, tid, tgid, nr, 0, ts, 0);
	for (int i = 0; i < 6; i++)
		h->args[i] = 0;
	return r;
}

static __always_inline void send(struct rec *r)
{
	struct km_hdr *h = hdr(r);
	if (h->truncated & KM_HDR_CUT)
		__sync_fetch_and_add(&truncated_records, 1);
	__u64 size = (sizeof(*h) + h->size) & (KM_BUF_SIZE - 1);
	if (bpf_ringbuf_output(&rb, r->s->buf, size, wakeup(size)))
		__sync_fetch_and_add(&lost_records, 1);
}

/* tp_btf: regs is a typed kernel pointer, read directly (CO-RE places the fields). */
static __always_inline void read_args(struct pt_regs *regs, __u64 *a)
{
	a[0] = regs->di;
	a[1] = regs->si;
	a[2] = regs->dx;
	a[3] = regs->r10;
	a[4] = regs->r8;
	a[5] = regs->r9;
}

static __always_inline void copy_plan(struct rec *r, const struct km_plan *p, __u32 nr, __s64 ret,
				      __u64 sp)
{
	for (int i = 0; i < KM_COPY_MAX; i++) {
		if (i >= p->ncopy)
			break;
		if (p->c[i].when & r->when)
			copy_one(nr, i, ret, sp, r->when);
	}
}

/*
 * A record with no memory (getppid, or a plan with nothing for this side):
 * written straight into the ring, no scratch and no second copy.  Returns
 * nothing: a full ring is counted.
 */
static __always_inline void send_plain(__u32 type, __u64 id, long nr, struct pt_regs *regs, __s64 ret,
				       __u64 ts, __u64 exit_ts)
{
	__u64 flags = wakeup(sizeof(struct km_hdr));
	struct km_hdr *h = bpf_ringbuf_reserve(&rb, sizeof(*h), 0);
	if (!h) {
		__sync_fetch_and_add(&lost_records, 1);
		return;
	}
	put_hdr(h, type, (__u32)id, id >> 32, (__s32)nr, ret, ts, exit_ts);
	if (regs)
		read_args(regs, h->args);
	else
		for (int i = 0; i < 6; i++)
			h->args[i] = 0;
	bpf_ringbuf_submit(h, flags);
}

/*
 * --pidns-translation: a task's ids are hashed by their pid structs'
 * addresses; a KM_PIDS record goes out when the hash changes (its first
 * call, setpgid, setsid, a thread's exec).  Only then: the program reads
 * three words more per call, and nothing at all without the option.
 */
static __always_inline __u32 pids_key(struct task_struct *task)
{
	struct signal_struct *sig = BPF_CORE_READ(task, signal);
	__u64 pids[4] = {};
	bpf_core_read(pids, sizeof(pids), &sig->pids);
	__u64 k = (__u64)BPF_CORE_READ(task, thread_pid) ^ (pids[1] << 1) ^ (pids[2] << 2) ^ (pids[3] << 3);
	return (__u32)(k ^ (k >> 32)) | 1;
}

/*
 * KM_PIDS: the task's ids at its own PID namespace level and each one above
 * (struct km_pids).  A group or session led from another namespace has no
 * number at a level whose namespace is not the task's: 0 there.
 */
static __noinline int send_pids(struct task_struct *task, __u32 tid, __u32 tgid)
{
	struct rec r = start(KM_PIDS, tid, tgid, 0, 0, stamp());
	if (!r.s)
		return 0;
	struct km_region *reg = (void *)(r.s->buf + sizeof(struct km_hdr));
	struct km_pids *k = (void *)(reg + 1);
	struct signal_struct *sig = BPF_CORE_READ(task, signal);
	struct pid *p[4] = {};
	bpf_core_read(p, sizeof(p), &sig->pids);
	p[0] = BPF_CORE_READ(task, thread_pid);
	int level = BPF_CORE_READ(p[0], level);
	k->levels = 0;
	k->pad = 0;
	for (int i = 0; i < KM_PIDNS_DEPTH; i++) {
		int l = level - i;
		if (l < 0)
			break;
		struct upid own = {};
		bpf_core_read(&own, sizeof(own), &p[0]->numbers[l]);
		k->lv[i].ns = BPF_CORE_READ(own.ns, ns.inum);
		k->lv[i].id[0] = own.nr;
		for (int t = 1; t < 4; t++) {
			struct upid u = {};
			if (p[t] && BPF_CORE_READ(p[t], level) >= (unsigned int)l)
				bpf_core_read(&u, sizeof(u), &p[t]->numbers[l]);
			k->lv[i].id[t] = u.ns == own.ns ? u.nr : 0;
		}
		k->levels = i + 1;
	}
	reg->addr = 0;
	reg->len = sizeof(*k);
	reg->when = 0;
	reg->fault = 0;
	reg->pad = 0;
	hdr(&r)->size = sizeof(*reg) + sizeof(*k);
	hdr(&r)->nregions = 1;
	send(&r);
	return 0;
}

static __always_inline void check_pids(struct km_task *t, __u64 id)
{
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	__u32 key = pids_key(task);
	if (key == t->pids_key)
		return;
	t->pids_key = key;
	send_pids(task, (__u32)id, id >> 32);
}

SEC("tp_btf/sys_enter")
int km_sys_enter(unsigned long long *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct km_task *t = task_of(tid);
	if (!t)
		return 0;
	long nr = (long)ctx[1];
	if ((t->state & KM_STATE) == KM_PENDING) {
		/* The held command: its own calls before exec are tracekit's, not the program's. */
		if (nr != 59 && nr != 322)
			return 0;
		t->state = KM_ACTIVE;
	}
	t->state &= ~(KM_RETRY | KM_INCALL);
	__u32 key = (__u32)nr;
	struct km_plan *p = bpf_map_lookup_elem(&plans, &key);
	if (p && !p->traced)
		return 0;
	if (cfg_pidns)
		check_pids(t, id);
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	/* The exit's number is the entry's (a successful execveat's exit says execve's: see km_sys_exit). */
	t->nr = (__s32)nr;
	if (p && p->one) {
		/*
		 * One record at the exit: the entry waits here (user space reads it
		 * should the call block; see kernel_mode.c).
		 */
		read_args(regs, t->args);
		t->ts = stamp();
		t->state |= KM_INCALL;
		return 0;
	}
	if (!cfg_fds && p && !(p->sides & 1)) {
		send_plain(KM_ENTER, id, nr, regs, 0, stamp(), 0);
		return 0;
	}
	struct rec r = start(KM_ENTER, tid, id >> 32, (__s32)nr, 1, stamp());
	if (!r.s)
		return 0;
	struct km_hdr *h = hdr(&r);
	read_args(regs, h->args);
	h->sp = regs->sp;
	if (p)
		copy_plan(&r, p, key, 0, h->sp);
	if (cfg_fds)
		put_fds(h, 1, 0);
	if (h->faults && nr != 59 && nr != 322)
		t->state |= KM_RETRY;
	send(&r);
	return 0;
}

#define KM_SMALL 64

/* A whole call with one small buffer (write, read at the default -s) and where it was. */
struct km_small {
	struct km_hdr h;
	struct km_region r;
	__u64 data[KM_SMALL / 8];
};

/*
 * The common case without the scratch: the buffer is read onto the stack
 * (a copy from user space into map or ring memory pays the kernel's check
 * of a vmalloc'd destination) and the record is written in the ring.  -1:
 * not such a call.  Not inlined: its stack is its own.
 */
static __noinline int send_small(struct km_task *t, __u64 id, struct pt_regs *regs, __s64 ret,
				 const struct km_plan *p)
{
	const struct km_copy *c = &p->c[0];
	if (p->ncopy != 1 || c->op != KM_OP_BUF || c->cap > KM_SMALL || c->arg >= 6 || c->len_arg >= 6 ||
	    c->len_src == KM_LEN_ARGPTR)
		return -1;
	__u64 now = stamp();
	__u64 flags = wakeup(sizeof(struct km_small));
	struct km_small *k = bpf_ringbuf_reserve(&rb, sizeof(*k), 0);
	if (!k) {
		__sync_fetch_and_add(&lost_records, 1);
		return 0;
	}
	read_args(regs, k->h.args);
	__u64 addr = k->h.args[c->arg & 7];
	__u64 n = c->cap;
	if (c->len_src == KM_LEN_ARG)
		n = k->h.args[c->len_arg & 7] * c->elem;
	else if (c->len_src == KM_LEN_RET)
		n = ret > 0 ? (__u64)ret * c->elem : 0;
	if (n > c->cap)
		n = c->cap;
	put_hdr(&k->h, KM_CALL, (__u32)id, id >> 32, t->nr, ret, t->ts, now);
	k->h.sp = regs->sp;
	if (addr && n) {
		__u64 buf[KM_SMALL / 8];
		addr += c->off;
		asm volatile("%0 &= 127" : "+r"(n));
		if (n > KM_SMALL)
			n = KM_SMALL;
		long got = bpf_probe_read_user(buf, n, (void *)addr) ? -1 : (long)n;
		__u64 in_page = 4096 - (addr & 4095);
		if (got < 0 && in_page < n) {
			/* in_page < n <= 63 already; older verifiers (6.1) need it said */
			asm volatile("%0 &= 63" : "+r"(in_page));
			got = bpf_probe_read_user(buf, in_page, (void *)addr) ? -1 : (long)in_page;
		}
		k->r.addr = addr;
		k->r.when = c->when;
		k->r.pad = 0;
		k->r.fault = got < 0;
		k->r.len = got < 0 ? 0 : (__u32)got;
		for (int i = 0; i < KM_SMALL / 8; i++)
			k->data[i] = buf[i];
		k->h.faults = got < 0;
		k->h.nregions = 1;
		k->h.size = sizeof(k->r) + ((k->r.len + 7) & ~7u);
	}
	bpf_ringbuf_submit(k, flags);
	return 0;
}

/* The whole of a one-record call: its entry's copies are made now, with the exit's. */
static __always_inline void send_call(struct km_task *t, __u64 id, struct pt_regs *regs, __s64 ret)
{
	__u32 key = (__u32)t->nr;
	struct km_plan *p = bpf_map_lookup_elem(&plans, &key);
	if (!cfg_fds && (!p || !p->ncopy)) {
		send_plain(KM_CALL, id, t->nr, regs, ret, t->ts, stamp());
		return;
	}
	if (!cfg_fds && p && send_small(t, id, regs, ret, p) == 0)
		return;
	__u64 now = stamp();
	struct rec r = start(KM_CALL, (__u32)id, id >> 32, t->nr, 1, t->ts);
	if (!r.s)
		return;
	struct km_hdr *h = hdr(&r);
	h->exit_ts = now;
	h->ret = ret;
	read_args(regs, h->args);
	h->sp = regs->sp;
	if (p) {
		copy_plan(&r, p, key, 0, h->sp);
		r.when = 2;
		copy_plan(&r, p, key, ret, 0);
	}
	if (cfg_fds)
		put_fds(h, 1, 1);
	send(&r);
}

/*
 * A call that returns to a pending SIGKILL (its group dies, or another
 * thread's execve replaces it): ptrace reports no exit of it, so the record
 * says KM_RET_KILLED.  Looked at only for the codes a signal leaves.
 */
static __always_inline __s64 exit_ret(__s64 ret)
{
	if (ret != -4 && (ret < -516 || ret > -512))	/* EINTR, ERESTARTSYS .. ERESTART_RESTARTBLOCK */
		return ret;
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	unsigned long pending = BPF_CORE_READ(task, pending.signal.sig[0]);
	return pending & (1ul << (9 - 1)) ? KM_RET_KILLED : ret;
}

SEC("tp_btf/sys_exit")
int km_sys_exit(unsigned long long *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct km_task *t = task_of(tid);
	if (!t || (t->state & KM_STATE) != KM_ACTIVE)
		return 0;
	struct pt_regs *regs = (struct pt_regs *)ctx[0];
	__s64 ret = exit_ret((__s64)ctx[1]);
	if (t->state & KM_INCALL) {
		t->state &= ~KM_INCALL;
		send_call(t, id, regs, ret);
		return 0;
	}
	__u32 retry = t->state & KM_RETRY;
	t->state &= ~KM_RETRY;
	long nr = regs->orig_ax;
	/* The new program's registers: the kernel reports a successful execveat's exit as execve's. */
	if (nr == 59 && t->nr == 322)
		nr = 322;
	__u32 key = (__u32)nr;
	struct km_plan *p = bpf_map_lookup_elem(&plans, &key);
	if (p && !p->traced)
		return 0;
	if (!cfg_fds && p && !retry && !(p->sides & 2)) {
		/* Nothing to copy: the arguments are the entry's, user space has them. */
		send_plain(KM_EXIT, id, nr, NULL, ret, stamp(), 0);
		return 0;
	}
	struct rec r = start(KM_EXIT, tid, id >> 32, (__s32)nr, 2, stamp());
	if (!r.s)
		return 0;
	struct km_hdr *h = hdr(&r);
	h->ret = ret;
	/* The argument registers still hold the arguments (execve aside: it copies nothing at exit). */
	read_args(regs, h->args);
	if (p && retry) {
		r.when = 1;
		copy_plan(&r, p, key, 0, regs->sp);
		r.when = 2;
	}
	if (p)
		copy_plan(&r, p, key, h->ret, 0);
	if (cfg_fds)
		put_fds(h, 0, 1);
	send(&r);
	return 0;
}

/*
 * The same two tracepoints when -e trace= shows no call and none is sent
 * for its descriptors (-e none, as strace's signal tests run): only the
 * command's exec and numbers no syscall has (shown whatever trace= says,
 * as plain records: they have no memory to copy).  A fraction of the full
 * programs' instructions to verify: a run starts in far less time (user
 * space loads one pair or the other).
 */
SEC("tp_btf/sys_enter")
int km_sys_enter_none(unsigned long long *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct km_task *t = task_of((__u32)id);
	if (!t)
		return 0;
	long nr = (long)ctx[1];
	if ((t->state & KM_STATE) == KM_PENDING) {
		if (nr != 59 && nr != 322)
			return 0;
		t->state = KM_ACTIVE;
	}
	__u32 key = (__u32)nr;
	struct km_plan *p = bpf_map_lookup_elem(&plans, &key);
	if (p && !p->traced)
		return 0;
	send_plain(KM_ENTER, id, nr, (struct pt_regs *)ctx[0], 0, stamp(), 0);
	return 0;
}

SEC("tp_btf/sys_exit")
int km_sys_exit_none(unsigned long long *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct km_task *t = task_of((__u32)id);
	if (!t || (t->state & KM_STATE) != KM_ACTIVE)
		return 0;
	long nr = ((struct pt_regs *)ctx[0])->orig_ax;
	__u32 key = (__u32)nr;
	struct km_plan *p = bpf_map_lookup_elem(&plans, &key);
	if (p && !p->traced)
		return 0;
	send_plain(KM_EXIT, id, nr, NULL, (__s64)ctx[1], stamp(), 0);
	return 0;
}

SEC("tp_btf/sched_process_fork")
int km_fork(unsigned long long *ctx)
{
	if (!cfg_follow && !cfg_pidns)
		return 0;
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct km_task *t = task_of(tid);
	if (!t || (t->state & KM_STATE) != KM_ACTIVE)
		return 0;
	struct task_struct *child = (struct task_struct *)ctx[1];
	__u32 ctid = child->pid;
	/* The child's ids before the fork's return (its pid) prints: it may be gone by then. */
	if (cfg_pidns)
		send_pids(child, ctid, child->tgid);
	if (!cfg_follow)
		return 0;
	task_add(ctid, KM_ACTIVE);
	if (cfg_pidns) {
		struct km_task *c = task_of(ctid);
		if (c)
			c->pids_key = pids_key(child);
	}
	struct rec r = start(KM_FORK, tid, id >> 32, 0, 0, stamp());
	if (!r.s)
		return 0;
	hdr(&r)->args[0] = ctid;
	hdr(&r)->args[1] = child->tgid;
	send(&r);
	return 0;
}

SEC("tp_btf/sched_process_exec")
int km_exec(unsigned long long *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u32 old = (__u32)ctx[1];
	struct km_task *t = task_of(old);
	if (!t || (t->state & KM_STATE) != KM_ACTIVE)
		return 0;
	if (old != tid) {
		/* A thread exec'd: it carries on with the leader's id, in its execve. */
		__s32 nr = t->nr;
		task_del(old);
		task_add(tid, KM_ACTIVE);
		struct km_task *n = task_of(tid);
		if (n)
			n->nr = nr;
	}
	struct rec r = start(KM_EXEC, tid, id >> 32, 0, 0, stamp());
	if (!r.s)
		return 0;
	hdr(&r)->args[0] = old;
	send(&r);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int km_task_exit(unsigned long long *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct km_task *t = task_of(tid);
	if (!t)
		return 0;
	__u32 state = t->state & KM_STATE;
	task_del(tid);
	if (state != KM_ACTIVE)
		return 0;
	struct task_struct *task = (struct task_struct *)ctx[0];
	/* A leader's end, as ptrace says it: replaced by an execve, or later, with its group. */
	__s32 how = KM_GONE_EXIT;
	if (tid == id >> 32) {
		struct signal_struct *sig = BPF_CORE_READ(task, signal);
		struct task_struct *exec_task = NULL;
		if (bpf_core_field_exists(sig->group_exec_task))
			exec_task = BPF_CORE_READ(sig, group_exec_task);
		if (exec_task && exec_task != task)
			how = KM_GONE_SUPERSEDED;
		else if (BPF_CORE_READ(sig, live.counter) > 0)
			how = KM_GONE_LEADER_FIRST;
	}
	struct rec r = start(KM_GONE, tid, id >> 32, how, 0, stamp());
	if (!r.s)
		return 0;
	hdr(&r)->ret = task->exit_code;
	send(&r);
	return 0;
}

static __always_inline void send_signal(__u32 tid, __u32 tgid, int sig, __u64 info, __u32 fake_pid)
{
	struct rec r = start(KM_SIGNAL, tid, tgid, sig, 0, stamp());
	if (!r.s)
		return;
	/* struct kernel_siginfo: 48 bytes; SEND_SIG_NOINFO (0) and SEND_SIG_PRIV (1) are no pointers. */
	struct km_region *reg = (void *)(r.s->buf + sizeof(struct km_hdr));
	__u32 *si = (__u32 *)(reg + 1);
	for (int i = 0; i < 12; i++)
		si[i] = 0;
	if (info > 4096) {
		bpf_probe_read_kernel(si, 48, (void *)info);
	} else {
		si[0] = sig;
		si[2] = info ? 0x80 : 0;	/* SI_KERNEL : SI_USER */
		si[4] = fake_pid;
	}
	reg->addr = 0;
	reg->len = 48;
	reg->when = 0;
	reg->fault = 0;
	reg->pad = 0;
	hdr(&r)->size = sizeof(*reg) + 48;
	hdr(&r)->nregions = 1;
	send(&r);
}

SEC("tp_btf/signal_deliver")
int km_signal_deliver(unsigned long long *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct km_task *t = task_of(tid);
	if (!t || (t->state & KM_STATE) != KM_ACTIVE)
		return 0;
	send_signal(tid, id >> 32, (int)ctx[0], ctx[1], 0);
	return 0;
}

/*
 * A signal dropped at generation because the target ignores it never reaches
 * signal_deliver; ptrace reports it anyway (a traced task ignores nothing),
 * so strace shows it: report it here, for the target.
 */
SEC("tp_btf/signal_generate")
int km_signal_generate(unsigned long long *ctx)
{
	if ((int)ctx[4] != 1)	/* TRACE_SIGNAL_IGNORED */
		return 0;
	struct task_struct *task = (struct task_struct *)ctx[2];
	__u32 tid = task->pid;
	struct km_task *t = task_of(tid);
	if (!t || (t->state & KM_STATE) != KM_ACTIVE)
		return 0;
	send_signal(tid, task->tgid, (int)ctx[0], ctx[1],
		    bpf_get_current_pid_tgid() >> 32);
	return 0;
}

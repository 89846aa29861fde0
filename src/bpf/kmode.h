/*
 * The contract between the kernel mode's BPF program (kmode.bpf.c) and user
 * space (src/syscalls/kernel_*.c): the copy plan per syscall number, written
 * by user space into a map, and the records the program writes into its ring
 * buffer.  Included by both sides, so plain fixed-size types only.
 *
 * The program does not decode anything: it copies the bytes a decoder's
 * struct sc_mem_spec names, as (address, length, bytes) regions, and user
 * space replays the decoder's own fetch against those regions.
 */
#ifndef TRACEKIT_BPF_KMODE_H
#define TRACEKIT_BPF_KMODE_H

#include <linux/types.h>

#define KM_NR_MAX 512		/* syscall numbers the plan covers */
#define KM_COPY_MAX 8		/* SC_MEM_MAX */
#define KM_REG_CAP 4104		/* bytes of one region at most: a path and its NUL, rounded */
#define KM_DATA_LIMIT 16384	/* region bytes of one record at most */
#define KM_BUF_SIZE 32768	/* the per-CPU scratch a record is built in */
#define KM_STRV_MAX 128		/* argv/envp pointers followed */
#define KM_IOV_MAX 16		/* iovec entries followed */
#define KM_MMSG_MAX 33		/* sendmmsg/recvmmsg entries followed: -s 32 of them and the one that says "..." */
#define KM_ARG_SP 7		/* SC_ARG_SP: the user stack pointer, not an argument */

/* Task states in the tasks map. */
enum km_task_state {
	KM_PENDING = 1,		/* spawned, held: traced from its execve on */
	KM_ACTIVE = 2,
	KM_STATE = 0xff,
	/*
	 * The entry's memory could not all be read (a page not in memory yet): the
	 * call itself faults it in, so the entry copies are made again at exit.
	 */
	KM_RETRY = 0x100,
	/*
	 * A call sent as one record at its exit (struct km_plan's one) is in
	 * flight: struct km_task holds its entry.
	 */
	KM_INCALL = 0x200,
};

/*
 * The tasks map's value.  The entry of a one-record call is kept here until
 * its exit; user space reads it for a call that has not returned for a while
 * (kernel_mode.c shows its entry then, as strace would have, other tasks'
 * lines after it).
 */
struct km_task {
	__u32 tid;		/* the slot's owner, 0: free */
	__u32 state;		/* enum km_task_state */
	__s32 nr;
	__u32 pids_key;		/* with --pidns-translation: the ids last sent as KM_PIDS, hashed */
	__u64 ts;
	__u64 args[6];
};

/*
 * Traced tasks live in an array indexed by the tid's low bits (no hashing on
 * the path of every syscall of the machine); a task whose slot another task
 * holds goes to a hash map beside it.  User space maps the array to read a
 * blocked call's entry without a syscall.
 */
#define KM_SLOTS 65536

/* How one copy finds its bytes (what the verifier can check, from sc_mem_spec kinds). */
enum km_op {
	KM_OP_BUF = 1,		/* len bytes at the pointer */
	KM_OP_STR,		/* a NUL-terminated string of at most cap bytes */
	KM_OP_DEREF,		/* the pointer at arg + off, then cap bytes where it points */
	KM_OP_STRV,		/* NULL-terminated pointer array; strings too when cap > 0 */
	KM_OP_IOVEC,		/* struct iovec[len] and up to cap bytes of each element */
	KM_OP_MSGHDR,		/* struct msghdr, its name, iovec (+cap bytes each) and control */
	KM_OP_MMSGHDR,		/* struct mmsghdr[len], each entry's msghdr as KM_OP_MSGHDR */
	/*
	 * A decoder that follows pointers the plan cannot name (a .walk_fn:
	 * SG_IO's buffers, V4L2's clips, io_uring_register's arrays; io_submit's
	 * iocbs): cap (or len) bytes at the pointer, then cap1 bytes at each
	 * pointer-shaped word of those (KM_DEEP_WORDS at most), and cap2 bytes at
	 * each pointer-shaped word of those (KM_DEEP_WORDS2).  Quietly: a word
	 * that was no pointer leaves nothing.  A superset of what the walk reads,
	 * for walks two pointers deep.
	 */
	KM_OP_DEEP,
};

#define KM_DEEP_WORDS 64	/* words of the first bytes looked at: 512 bytes */
#define KM_DEEP_WORDS2 16	/* words of each target looked at: 128 bytes */
/* A user-space pointer, by its value: above the zero page, below the canonical hole. */
#define KM_USER_PTR_MIN 4096ull
#define KM_USER_PTR_END 0x800000000000ull

enum km_copy_flags {
	/* A read that fails leaves no region, counts no fault, asks no retry: the pointer was a guess. */
	KM_QUIET = 1,
};

enum km_len {
	KM_LEN_FIXED = 0,	/* cap */
	KM_LEN_ARG,		/* args[len_arg] * elem */
	KM_LEN_RET,		/* ret * elem */
	KM_LEN_ARGPTR,		/* the int args[len_arg] points to (copied as well) */
};

struct km_copy {
	__u8 op;		/* enum km_op */
	__u8 arg;		/* argument index, or KM_ARG_SP */
	__u8 when;		/* SC_AT_ENTRY 1, SC_AT_EXIT 2 */
	__u8 len_src;		/* enum km_len */
	__u8 len_arg;
	__u8 flags;		/* enum km_copy_flags */
	__u16 off;		/* added to the pointer */
	__u32 elem;		/* element size for KM_LEN_ARG/RET */
	__u32 cap;		/* bytes at most (strings: with their NUL) */
	__u16 cap1, cap2;	/* KM_OP_DEEP: bytes at the pointers of the first and second level */
};

struct km_plan {
	__u8 traced;		/* -e trace= lets it through */
	__u8 ncopy;
	__u8 sides;		/* the copies' when bits, or'ed: a side without copies is a plain record */
	/*
	 * The call is sent as one record at its exit (KM_CALL): its entry's memory
	 * is input the call leaves as it was, so it is copied then.
	 */
	__u8 one;
	struct km_copy c[KM_COPY_MAX];
};

/* Record types. */
enum km_type {
	KM_ENTER = 1,		/* args valid */
	KM_EXIT,		/* ret valid; with KM_RETRY also the entry's regions (when 1) */
	KM_FORK,		/* args[0] child tid, args[1] child tgid */
	KM_GONE,		/* the task exited: ret is its exit_code; nr: enum km_gone */
	KM_SIGNAL,		/* nr is the signal; one region: the kernel_siginfo */
	KM_EXEC,		/* a traced task became a new program: args[0] its former tid */
	KM_CALL,		/* a whole call: ts its entry, exit_ts its exit, regions of both sides */
	/* User space's own, in kernel_mode.c's queue: */
	KM_STALLED,		/* a KM_CALL's entry read from struct km_task, no regions */
	KM_CALL_ENTRY,		/* a KM_CALL split around other tasks' records: its entry, */
	KM_CALL_EXIT,		/* and its exit (ts: the exit's) */
	/* The program's again: */
	KM_PIDS,		/* the task's ids in each PID namespace: one region, struct km_pids */
};

/* KM_GONE's nr: how the task went, where ptrace would say it otherwise than at its exit. */
enum km_gone {
	KM_GONE_EXIT = 0,
	KM_GONE_NOCODE = -1,		/* the ftrace source: no exit code in the event */
	KM_GONE_SUPERSEDED = -2,	/* a leader killed by another thread's execve (KM_EXEC follows) */
	KM_GONE_LEADER_FIRST = -3,	/* a leader gone while threads of its group live on */
};

/*
 * A call's return value when a SIGKILL was pending as it returned (the group
 * dies, or another thread's execve replaces it): ptrace reports no exit of
 * that call, strace prints "= ?".
 */
#define KM_RET_KILLED ((__s64)-0x4000000000000000LL)

#define KM_PIDNS_DEPTH 8	/* PID namespace levels sent, the task's own first */

/*
 * --pidns-translation: a task's ids as the namespaces from its own up see
 * them, sent before its first record and whenever they change (setpgid,
 * setsid, a thread's exec), and for a child at fork.  User space translates
 * a pid with them when its line prints, which may be after the process has
 * gone from /proc, where the ptrace mode looks.
 */
struct km_pids {
	__u32 levels;		/* entries of lv used */
	__u32 pad;
	struct {
		__u32 ns;	/* the namespace's inode number (/proc/PID/ns/pid) */
		__s32 id[4];	/* TID, TGID, PGID, SID there; 0: none there */
	} lv[KM_PIDNS_DEPTH];
};

struct km_hdr {
	__u64 ts;		/* CLOCK_MONOTONIC ns, or an order number (kmode.bpf.c's stamp()) */
	__u32 type;
	__u32 tid;
	__u32 tgid;
	__s32 nr;
	__u64 args[6];
	__s64 ret;
	__u64 sp;
	__u64 exit_ts;		/* KM_CALL: the exit's time (or order number) */
	__u32 size;		/* bytes of regions after the header */
	__u16 nregions;
	__u8 truncated;		/* KM_HDR_*: regions were left out (KM_DATA_LIMIT reached), ... */
	__u8 faults;		/* regions whose read failed */
};

/* km_hdr's truncated bits. */
enum {
	KM_HDR_CUT = 1,		/* regions were left out: KM_DATA_LIMIT reached */
	KM_HDR_FDS = 2,		/* the record's descriptors were looked up (struct km_fdinfo) */
};

struct km_region {
	__u64 addr;
	__u32 len;		/* bytes that follow, padded to 8 */
	__u8 when;
	__u8 fault;		/* the read failed: the page was not in memory (or not mapped) */
	__u16 pad;
};


/*
 * -y: a descriptor as the task's table held it when the record was made
 * (cfg_fds): a region of when KM_WHEN_FD at address KM_FD_ADDR + (__u32)fd
 * (AT_FDCWD: the working directory), holding struct km_fdinfo and then the
 * path's names, leaf first, each with its NUL.  A record with KM_HDR_FDS set
 * looked up every argument (KM_ENTER, KM_CALL) and the return value
 * (KM_EXIT, KM_CALL) that could be a descriptor: one without a region was
 * not open then.
 */
#define KM_WHEN_FD 4
#define KM_FD_ADDR 0xfdfd000000000000ull
#define KM_FD_STEPS 40		/* names and mount crossings walked towards the root */
#define KM_FD_NAME 256		/* NAME_MAX and its NUL */

struct km_fdinfo {
	__u64 ino;
	__u64 magic;		/* the file system's s_magic: pipes, sockets, anon inodes */
	__u32 mode;
	__u32 rdev;		/* the kernel's dev_t: major << 20 | minor */
	__u32 pid;		/* an anon inode's pid, when it is a pidfd */
	__u8 deleted;		/* unlinked: /proc says " (deleted)" */
	__u8 depth;		/* names that follow */
	__u8 cut;		/* the walk ended before the root: the path is not whole */
	__u8 pad;
	char proto[16];		/* a socket's protocol name (sk_prot->name) */
	/* A socket as sock_diag would list it, at the call: */
	__u16 family;		/* AF_INET, AF_INET6, AF_UNIX, AF_NETLINK */
	__u16 sport;		/* inet: the local port (host order), the remote one (network order) */
	__u16 dport;
	__u16 unix_len;		/* unix: the bound address's bytes (sun_family and path) */
	__u32 portid;		/* netlink: the port id, 0 unbound */
	__u32 nl_proto;		/* netlink: the protocol */
	__u64 peer_ino;		/* unix: the peer's inode */
	__u8 saddr[16], daddr[16];	/* inet: the addresses (IPv4 in the first 4 bytes) */
	char unix_path[108];	/* unix: sun_path */
};

#endif

/*
 * Kernel interfaces whose decoders print structs and composed values:
 * prctl's SVE and tagged-address values, quotactl, SysV IPC info structs,
 * keyctl, io_uring, bpf, extensible structs, control messages, seccomp
 * filters, TLS descriptors.  Most calls
 * fail on purpose (bad descriptors, bad sizes) so that the output is the
 * same on every run and nothing on the machine changes; the ones that
 * succeed only read (IPC limits, keyctl capabilities) or undo what they did.
 */
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/fanotify.h>
#include <asm/ldt.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/io_uring.h>
#include <linux/keyctl.h>
#include <linux/mount.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <linux/quota.h>
#include <linux/sysctl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "progs.h"

#ifndef __NR_quotactl_fd
#define __NR_quotactl_fd 443
#endif
#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442
#endif

static void do_prctl(void)
{
	syscall(SYS_prctl, 50 /* PR_SVE_SET_VL */, 0x2ea57UL, 0, 0, 0);
	syscall(SYS_prctl, 55 /* PR_SET_TAGGED_ADDR_CTRL */, 0x57ae57f4UL, 1, 2, 3);
	syscall(SYS_prctl, PR_SET_SECUREBITS, 0xbadc0ded00000000UL, 0, 0, 0);
	syscall(SYS_prctl, PR_GET_SPECULATION_CTRL, 0 /* PR_SPEC_STORE_BYPASS */, 0, 0, 0);
}

static void do_quota(void)
{
	uint32_t fmt = 0;
	struct if_dqinfo di;
	memset(&di, 0, sizeof(di));
	di.dqi_flags = 0xdeadabcd;
	syscall(SYS_quotactl, 0xbadc0ded, NULL, 0xca7faced, NULL);
	syscall(SYS_quotactl, QCMD(Q_GETFMT, USRQUOTA), "/dev/null", 0, &fmt);
	syscall(SYS_quotactl, QCMD(Q_SETINFO, GRPQUOTA), "/nonexistent", 0, &di);
	syscall(SYS_quotactl, QCMD(Q_QUOTAON, PRJQUOTA), "/nonexistent", QFMT_VFS_V0, "/x");
	syscall(__NR_quotactl_fd, -1, QCMD(Q_GETINFO, GRPQUOTA), 0, &di);
}

static void do_ipc(void)
{
	struct msginfo mi;
	struct shminfo si;
	struct seminfo se;
	msgctl(0, IPC_INFO, (struct msqid_ds *)&mi);
	shmctl(0, IPC_INFO, (struct shmid_ds *)&si);
	semctl(0, 0, IPC_INFO, &se);
}

static void do_keyctl(void)
{
	unsigned char caps[2];
	syscall(SYS_keyctl, 0xfacefeed, 1, 2, 3, 4);
	syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_THREAD_KEYRING, 0);
	syscall(SYS_keyctl, KEYCTL_SETPERM, 123456789, 0x3f3f0000);
	syscall(SYS_keyctl, KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, "user", "no-such-key", 0);
	syscall(SYS_keyctl, KEYCTL_CAPABILITIES, caps, sizeof(caps));
}

/* Every call names a bad ring (EBADF): only the decoding of the argument shows. */
static void do_io_uring_register(void)
{
	int fds[] = { 1, -1, IORING_REGISTER_FILES_SKIP };
	struct io_uring_restriction r[2];
	struct {
		struct io_uring_probe p;
		struct io_uring_probe_op ops[2];
	} probe;
	struct io_uring_rsrc_update2 upd;
	uint64_t tags[] = { 0x1337, 0, 0xfacefeed };
	unsigned long aff = 0x5;
	memset(r, 0, sizeof(r));
	r[0].opcode = IORING_RESTRICTION_SQE_OP;
	r[0].sqe_op = IORING_OP_READV;
	r[1].opcode = IORING_RESTRICTION_SQE_FLAGS_ALLOWED;
	r[1].sqe_flags = IOSQE_FIXED_FILE | IOSQE_ASYNC | 0x80;
	memset(&probe, 0, sizeof(probe));
	probe.p.last_op = IORING_OP_WRITEV;
	probe.ops[1].op = IORING_OP_NOP;
	probe.ops[1].flags = IO_URING_OP_SUPPORTED;
	memset(&upd, 0, sizeof(upd));
	upd.offset = 7;
	upd.data = (uintptr_t)fds;
	upd.tags = (uintptr_t)tags;
	upd.nr = 3;
	syscall(SYS_io_uring_register, -1, IORING_REGISTER_FILES, fds, 3);
	syscall(SYS_io_uring_register, -1, IORING_REGISTER_RESTRICTIONS, r, 2);
	syscall(SYS_io_uring_register, -1, IORING_REGISTER_PROBE, &probe, 2);
	syscall(SYS_io_uring_register, -1, IORING_REGISTER_FILES_UPDATE2, &upd, sizeof(upd));
	syscall(SYS_io_uring_register, -1, IORING_REGISTER_IOWQ_AFF, &aff, 1);
	syscall(SYS_io_uring_register, -1, IORING_UNREGISTER_FILES, NULL, 0);
	syscall(SYS_io_uring_register, -1, 0xbadc0de, NULL, 0);
}

static void do_io_uring(void)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CLAMP | (1u << 20);
	syscall(SYS_io_uring_setup, 1, NULL);
	syscall(SYS_io_uring_setup, 2, &p);
	syscall(SYS_io_uring_enter, -1, 1, 2, IORING_ENTER_GETEVENTS | 0x100, NULL, 8);
	do_io_uring_register();
}

static void do_bpf(void)
{
	union bpf_attr a;
	memset(&a, 0, sizeof(a));
	a.prog_type = 32;
	a.insn_cnt = 3;
	a.kern_version = (5 << 16) | (10 << 8);
	syscall(SYS_bpf, BPF_PROG_LOAD, &a, 128);

	/* Bad attrs only (fd -1, sizes 0): nothing is created. */
	unsigned char big[256];
	memset(&a, 0, sizeof(a));
	a.map_type = BPF_MAP_TYPE_ARRAY;
	a.map_flags = BPF_F_NUMA_NODE | BPF_F_RDONLY;
	a.inner_map_fd = -1;
	a.numa_node = 0xffffffff;
	strcpy(a.map_name, "tk_map");
	syscall(SYS_bpf, BPF_MAP_CREATE, &a, 48);
	memset(&a, 0, sizeof(a));
	a.map_fd = -1;
	a.flags = BPF_F_LOCK;
	syscall(SYS_bpf, BPF_MAP_LOOKUP_ELEM, &a, 32);
	syscall(SYS_bpf, BPF_MAP_FREEZE, &a, 4);
	memset(&a, 0, sizeof(a));
	a.pathname = (uintptr_t)"/nonexistent/tk_pin";
	a.file_flags = BPF_F_RDONLY;
	syscall(SYS_bpf, BPF_OBJ_GET, &a, 16);
	memset(&a, 0, sizeof(a));
	a.start_id = 0xfffffff0;
	syscall(SYS_bpf, BPF_PROG_GET_NEXT_ID, &a, 12);
	memset(big, 0, sizeof(big));
	big[200] = 1;
	syscall(SYS_bpf, BPF_MAP_DELETE_ELEM, big, sizeof(big));

	/* An instruction to print with -v; the unknown program type fails the load. */
	static const struct bpf_insn exit_insn = { .code = BPF_JMP | BPF_EXIT };
	memset(&a, 0, sizeof(a));
	a.prog_type = 32;
	a.insn_cnt = 1;
	a.insns = (uintptr_t)&exit_insn;
	syscall(SYS_bpf, BPF_PROG_LOAD, &a, 128);
	memset(&a, 0, sizeof(a));
	a.query.target_fd = -1;
	a.query.query_flags = BPF_F_QUERY_EFFECTIVE;
	syscall(SYS_bpf, BPF_PROG_QUERY, &a, 28);
	memset(&a, 0, sizeof(a));
	a.batch.map_fd = -1;
	a.batch.count = 2;
	syscall(SYS_bpf, BPF_MAP_LOOKUP_BATCH, &a, 56);
	memset(&a, 0, sizeof(a));
	a.link_create.prog_fd = -1;
	a.link_create.attach_type = BPF_PERF_EVENT;
	a.link_create.perf_event.bpf_cookie = 0xfeed;
	syscall(SYS_bpf, BPF_LINK_CREATE, &a, 24);
}

/*
 * The TLS descriptor calls with entries the kernel refuses (0 is not a TLS
 * slot, -1 asks get_thread_area for none): EINVAL, or ENOSYS without ia32.
 */
static void do_thread_area(void)
{
	struct user_desc ud;
	memset(&ud, 0, sizeof(ud));
	ud.limit = 0xfffff;
	ud.seg_32bit = 1;
	ud.limit_in_pages = 1;
	syscall(SYS_set_thread_area, &ud);
	ud.entry_number = (unsigned)-1;
	syscall(SYS_get_thread_area, &ud);
}

static void do_misc(void)
{
	struct mount_attr_big {
		struct mount_attr a;
		uint64_t extra;
	} ma;
	struct __sysctl_args sa;
	struct __user_cap_data_struct cd[2];
	memset(&ma, 0, sizeof(ma));
	ma.a.attr_set = MOUNT_ATTR_RDONLY;
	ma.extra = 0x8081828384858687ULL;
	memset(&sa, 0, sizeof(sa));
	memset(cd, 0, sizeof(cd));
	int fd = syscall(SYS_inotify_init);
	if (fd >= 0)
		close(fd);
	syscall(SYS_memfd_create, "x", MFD_HUGETLB | (21u << 26) | 0x80u);
	syscall(__NR_mount_setattr, -1, "/", 0, &ma, sizeof(ma));
	syscall(SYS__sysctl, &sa);
	syscall(SYS_capset, (void *)8, cd);
	syscall(SYS_fanotify_mark, -1, 0, 0, -1, NULL);
	syscall(SYS_ioprio_set, 2, 0, -87097619);
	syscall(SYS_mq_open, NULL, 0x87654321UL << 32, 0, NULL);
	do_thread_area();
}

/*
 * perf_event_open with attrs the kernel refuses before it checks anything
 * else: a size past the one it knows with non-zero bytes there (E2BIG, the
 * kernel writes its size back), and an unknown flag (EINVAL).
 */
static void do_perf(void)
{
	union {
		struct perf_event_attr a;
		unsigned char raw[PERF_ATTR_SIZE_VER7 + 64];
	} u;
	memset(&u, 0, sizeof(u));
	u.a.type = PERF_TYPE_HW_CACHE;
	u.a.size = sizeof(u.raw);
	u.a.config = PERF_COUNT_HW_CACHE_LL | PERF_COUNT_HW_CACHE_OP_PREFETCH << 8 |
		     PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
	u.a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_STACK_USER;
	u.a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	u.a.read_format = PERF_FORMAT_ID;
	u.a.disabled = u.a.exclude_kernel = u.a.freq = u.a.use_clockid = 1;
	u.a.precise_ip = 2;
	u.a.sample_freq = 4000;
	u.a.clockid = CLOCK_MONOTONIC;
	u.a.sample_stack_user = 0x2000;
	u.raw[sizeof(u.raw) - 1] = 1;
	syscall(SYS_perf_event_open, &u.a, 0, -1, -1, 0UL);
	u.a.type = PERF_TYPE_BREAKPOINT;
	u.a.size = PERF_ATTR_SIZE_VER1;
	u.a.bp_type = HW_BREAKPOINT_W;
	u.a.bp_len = 8;
	syscall(SYS_perf_event_open, &u.a, -1, 0, -1, 0x100UL);
}

/* An AIO context, a write and a vector read to a bad descriptor, no events. */
static void do_aio(void)
{
	aio_context_t ctx = 0;
	static char data[] = "aio data";
	struct iovec iov[2] = { { data, 3 }, { data + 3, 5 } };
	struct iocb w, r;
	struct iocb *cbs[3] = { &w, &r, NULL };
	struct timespec ts = { 0, 1000 };
	memset(&w, 0, sizeof(w));
	memset(&r, 0, sizeof(r));
	w.aio_data = 0xfeedface;
	w.aio_lio_opcode = IOCB_CMD_PWRITE;
	w.aio_fildes = (uint32_t)-1;
	w.aio_buf = (uintptr_t)data;
	w.aio_nbytes = sizeof(data);
	r.aio_lio_opcode = IOCB_CMD_PREADV;
	r.aio_fildes = (uint32_t)-1;
	r.aio_buf = (uintptr_t)iov;
	r.aio_nbytes = 2;
	if (syscall(SYS_io_setup, 2, &ctx) < 0)
		return;
	syscall(SYS_io_submit, ctx, 3L, cbs);
	syscall(SYS_io_getevents, ctx, 0L, 1L, NULL, &ts);
	syscall(SYS_io_destroy, ctx);
}

/* A control message with three timestamps, to a bad descriptor. */
static void do_cmsg(void)
{
	union {
		char buf[CMSG_SPACE(3 * sizeof(struct timespec))];
		struct cmsghdr align;
	} u;
	struct msghdr mh;
	memset(&u, 0, sizeof(u));
	memset(&mh, 0, sizeof(mh));
	struct cmsghdr *cm = (struct cmsghdr *)u.buf;
	cm->cmsg_len = CMSG_LEN(3 * sizeof(struct timespec));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = 37;	/* SO_TIMESTAMPING_OLD */
	struct timespec ts[3] = { { 1, 2 }, { 3, 4 }, { 5, 6 } };
	memcpy(CMSG_DATA(cm), ts, sizeof(ts));
	mh.msg_control = u.buf;
	mh.msg_controllen = sizeof(u.buf);
	sendmsg(-1, &mh, 0);
}

/* Last: a seccomp filter that allows everything (getpid returns EPERM's number 1 as data). */
static void do_seccomp(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
		BPF_JUMP(BPF_JMP | BPF_K | BPF_JEQ, 0xfffff, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 1),
		BPF_STMT(BPF_ALU | BPF_K | BPF_AND, 0xff),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };
	/* a flag the kernel does not know: EINVAL, nothing installed */
	syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0x80000000u, &prog);
	syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	syscall(SYS_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

int main(void)
{
	do_prctl();
	do_quota();
	do_ipc();
	do_keyctl();
	do_io_uring();
	do_bpf();
	do_misc();
	do_perf();
	do_aio();
	do_cmsg();
	do_seccomp();
	return 0;
}

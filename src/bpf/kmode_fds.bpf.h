// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tracekit syscalls --kernel, the BPF side's -y: what a descriptor was when
 * the call ran (kmode.h's struct km_fdinfo), looked up in the task's table.
 * Included by kmode.bpf.c after put_region (it uses its scratch and config).
 */
#ifndef TRACEKIT_BPF_KMODE_FDS_H
#define TRACEKIT_BPF_KMODE_FDS_H

/* -y's walk from a descriptor to its file's names (put_fd). */
struct qstr {
	const unsigned char *name;
} __attribute__((preserve_access_index));

struct hlist_bl_node {
	void *next, **pprev;
} __attribute__((preserve_access_index));

struct super_block {
	unsigned long s_magic;
} __attribute__((preserve_access_index));

struct inode {
	unsigned short i_mode;
	unsigned int i_rdev;
	unsigned long i_ino;
	struct super_block *i_sb;
	void *i_private;
} __attribute__((preserve_access_index));

struct dentry {
	struct hlist_bl_node d_hash;
	struct dentry *d_parent;
	struct qstr d_name;
} __attribute__((preserve_access_index));

struct vfsmount {
	struct dentry *mnt_root;
} __attribute__((preserve_access_index));

struct mount {
	struct mount *mnt_parent;
	struct dentry *mnt_mountpoint;
	struct vfsmount mnt;
} __attribute__((preserve_access_index));

struct path {
	struct vfsmount *mnt;
	struct dentry *dentry;
} __attribute__((preserve_access_index));

struct file {
	struct path f_path;
	struct inode *f_inode;
	void *private_data;
} __attribute__((preserve_access_index));

struct fdtable {
	unsigned int max_fds;
	struct file **fd;
} __attribute__((preserve_access_index));

struct files_struct {
	struct fdtable *fdt;
} __attribute__((preserve_access_index));

struct fs_struct {
	struct path root, pwd;
} __attribute__((preserve_access_index));

struct proto {
	char name[32];
} __attribute__((preserve_access_index));

struct in6_addr {
	__u8 s6_addr[16];
} __attribute__((preserve_access_index));

struct sock_common {
	struct proto *skc_prot;
	unsigned short skc_family;
	__u16 skc_num;
	__u16 skc_dport;
	__u32 skc_daddr;
	__u32 skc_rcv_saddr;
	struct in6_addr skc_v6_daddr;
	struct in6_addr skc_v6_rcv_saddr;
} __attribute__((preserve_access_index));

struct sock {
	struct sock_common __sk_common;
	struct socket *sk_socket;
	__u16 sk_protocol;
} __attribute__((preserve_access_index));

struct socket {
	struct sock *sk;
} __attribute__((preserve_access_index));

struct socket_alloc {
	struct socket socket;
	struct inode vfs_inode;
} __attribute__((preserve_access_index));

struct netlink_sock {
	__u32 portid;
} __attribute__((preserve_access_index));

struct sockaddr_un {
	unsigned short sun_family;
	char sun_path[108];
} __attribute__((preserve_access_index));

struct unix_address {
	int len;
	struct sockaddr_un name[];
} __attribute__((preserve_access_index));

struct unix_sock {
	struct unix_address *addr;
	struct sock *peer;
} __attribute__((preserve_access_index));

/* struct pid and struct upid: kmode.bpf.c's (--pidns-translation reads them too). */

#define S_IFMT 0170000
#define S_IFSOCK 0140000
#define ANON_INODE_FS_MAGIC 0x09041934
#define PID_FS_MAGIC 0x50494446	/* pidfds since 6.9 */
#define AF_UNIX 1
#define AF_INET 2
#define AF_INET6 10
#define AF_NETLINK 16

/* -yy: what sock_diag would say of sk: its protocol, addresses, peer (put_fd). */
static __always_inline void put_sock(struct km_fdinfo *fi, struct sock *sk)
{
	struct proto *prot = BPF_CORE_READ(sk, __sk_common.skc_prot);
	bpf_probe_read_kernel_str(fi->proto, sizeof(fi->proto), &prot->name);
	fi->family = BPF_CORE_READ(sk, __sk_common.skc_family);
	if (fi->family == AF_INET || fi->family == AF_INET6) {
		fi->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
		fi->dport = BPF_CORE_READ(sk, __sk_common.skc_dport);
		if (fi->family == AF_INET) {
			bpf_core_read(fi->saddr, 4, &sk->__sk_common.skc_rcv_saddr);
			bpf_core_read(fi->daddr, 4, &sk->__sk_common.skc_daddr);
		} else {
			bpf_core_read(fi->saddr, 16, &sk->__sk_common.skc_v6_rcv_saddr);
			bpf_core_read(fi->daddr, 16, &sk->__sk_common.skc_v6_daddr);
		}
	} else if (fi->family == AF_NETLINK) {
		fi->portid = BPF_CORE_READ((struct netlink_sock *)sk, portid);
		fi->nl_proto = BPF_CORE_READ(sk, sk_protocol);
	} else if (fi->family == AF_UNIX) {
		struct unix_address *addr = BPF_CORE_READ((struct unix_sock *)sk, addr);
		int len = addr ? BPF_CORE_READ(addr, len) : 0;
		if (len > 2) {
			fi->unix_len = len > 110 ? 110 : len;
			bpf_probe_read_kernel(fi->unix_path, sizeof(fi->unix_path), &addr->name[0].sun_path);
		}
		struct sock *peer = BPF_CORE_READ((struct unix_sock *)sk, peer);
		struct socket *ps = peer ? BPF_CORE_READ(peer, sk_socket) : NULL;
		if (ps)
			fi->peer_ino = BPF_CORE_READ((struct socket_alloc *)ps, vfs_inode.i_ino);
	}
}

/* put_fd's walk towards the root: one name or one mount crossing a step (bpf_loop's callback). */
struct walk {
	struct dentry *d, *root;
	struct vfsmount *mnt, *root_mnt;
	struct mount *m;
	__u32 at;		/* where the next name goes, from the end of the record's header */
	__u32 depth;
	int done;
};

static int walk_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	struct km_scratch *s = scratch_buf();
	/* Plain locals: a struct walk field inside BPF_CORE_READ would be relocated too. */
	struct dentry *d = w->d;
	struct vfsmount *mnt = w->mnt;
	struct mount *m = w->m;
	if (!s)
		return 1;
	if (d == w->root && mnt == w->root_mnt) {
		w->done = 1;
		return 1;
	}
	struct dentry *parent = BPF_CORE_READ(d, d_parent);
	if (d == BPF_CORE_READ(mnt, mnt_root)) {
		struct mount *up = BPF_CORE_READ(m, mnt_parent);
		if (up == m) {
			w->done = 1;	/* the namespace's root, or an internal mount's */
			return 1;
		}
		w->d = BPF_CORE_READ(m, mnt_mountpoint);
		w->m = up;
		w->mnt = (void *)((char *)up + bpf_core_field_offset(struct mount, mnt));
		return 0;
	}
	if (w->at > KM_DATA_LIMIT - KM_FD_NAME)
		return 1;
	__u32 at = w->at & (KM_DATA_LIMIT - 1);
	long n = bpf_probe_read_kernel_str(s->buf + sizeof(struct km_hdr) + at, KM_FD_NAME,
					   BPF_CORE_READ(d, d_name.name));
	if (n <= 0)
		return 1;
	w->at += n;
	w->depth++;
	if (parent == d) {
		w->done = 1;	/* a file of no directory (a pseudo file's own root) */
		return 1;
	}
	w->d = parent;
	return 0;
}

/*
 * -y: descriptor fd of the current task (AT_FDCWD: its working directory)
 * as one region of struct km_fdinfo and the names from the file up to the
 * task's root, leaf first: what /proc/PID/fd would say now, taken while the
 * call runs (the descriptor may be closed or reused right after).  Nothing
 * when fd is not open.  Global, like put_region.
 */
__noinline int put_fd(int fd)
{
	struct km_scratch *s = scratch_buf();
	if (!s)
		return 0;
	struct km_hdr *h = (struct km_hdr *)s->buf;
	if (h->size > KM_DATA_LIMIT - sizeof(struct km_region) - sizeof(struct km_fdinfo) - KM_FD_NAME) {
		h->truncated |= KM_HDR_CUT;
		return -1;
	}
	struct task_struct *task = (struct task_struct *)bpf_get_current_task();
	struct file *f = NULL;
	struct vfsmount *mnt;
	struct dentry *d;
	if (fd == -100) {
		mnt = BPF_CORE_READ(task, fs, pwd.mnt);
		d = BPF_CORE_READ(task, fs, pwd.dentry);
	} else {
		struct fdtable *fdt = BPF_CORE_READ(task, files, fdt);
		if (fd < 0 || (unsigned)fd >= BPF_CORE_READ(fdt, max_fds))
			return 0;
		struct file **fds = BPF_CORE_READ(fdt, fd);
		if (bpf_probe_read_kernel(&f, sizeof(f), fds + fd) || !f)
			return 0;
		mnt = BPF_CORE_READ(f, f_path.mnt);
		d = BPF_CORE_READ(f, f_path.dentry);
	}
	if (!d || !mnt)
		return 0;
	__u32 off = h->size & (KM_DATA_LIMIT - 1);
	struct km_region *reg = (void *)(s->buf + sizeof(struct km_hdr) + off);
	struct km_fdinfo *fi = (void *)(reg + 1);
	struct inode *ino = f ? BPF_CORE_READ(f, f_inode) : NULL;
	struct dentry *parent = BPF_CORE_READ(d, d_parent);
	__builtin_memset(fi, 0, sizeof(*fi));
	fi->deleted = !BPF_CORE_READ(d, d_hash.pprev) && parent != d;
	if (ino) {
		fi->ino = BPF_CORE_READ(ino, i_ino);
		fi->mode = BPF_CORE_READ(ino, i_mode);
		fi->rdev = BPF_CORE_READ(ino, i_rdev);
		fi->magic = BPF_CORE_READ(ino, i_sb, s_magic);
		if ((fi->mode & S_IFMT) == S_IFSOCK) {
			struct socket *sock = BPF_CORE_READ(f, private_data);
			put_sock(fi, BPF_CORE_READ(sock, sk));
		} else if (fi->magic == ANON_INODE_FS_MAGIC || fi->magic == PID_FS_MAGIC) {
			/* A pidfd's pid: the file's (anon inode), the inode's (pidfs, 6.9 on) */
			struct pid *pid = fi->magic == PID_FS_MAGIC ? BPF_CORE_READ(ino, i_private) :
								      BPF_CORE_READ(f, private_data);
			fi->pid = BPF_CORE_READ(pid, numbers[0].nr);
		}
	}
	/* As the kernel's d_path: names up to the task's root, crossing mounts on the way. */
	struct walk w = {
		.d = d,
		.mnt = mnt,
		.m = (void *)((char *)mnt - bpf_core_field_offset(struct mount, mnt)),
		.root = BPF_CORE_READ(task, fs, root.dentry),
		.root_mnt = BPF_CORE_READ(task, fs, root.mnt),
		.at = off + sizeof(struct km_region) + sizeof(*fi),
	};
	bpf_loop(KM_FD_STEPS, walk_step, &w, 0);
	__u32 pos = w.at - off;
	fi->depth = w.depth;
	int done = w.done;
	fi->cut = !done;
	reg->addr = KM_FD_ADDR + (__u32)fd;
	reg->len = pos - sizeof(struct km_region);
	reg->when = KM_WHEN_FD;
	reg->fault = 0;
	reg->pad = 0;
	h->size += sizeof(*reg) + ((reg->len + 7) & ~7u);
	h->nregions++;
	return 0;
}

/*
 * -y: the descriptors the record's arguments (use_args) and return value
 * (use_ret) may be, each once: every value a descriptor could be is looked
 * up, as the program does not know which arguments are descriptors.
 */
static __always_inline void put_fds(struct km_hdr *h, int use_args, int use_ret)
{
	h->truncated |= KM_HDR_FDS;
	for (int i = 0; use_args && i < 6; i++) {
		int fd = (int)h->args[i], seen = 0;
		for (int j = 0; j < i; j++)
			seen |= (int)h->args[j] == fd;
		if (!seen && (fd >= 0 || fd == -100))
			put_fd(fd);
	}
	__s64 ret = h->ret;
	if (use_ret && ret >= 0 && ret < (1 << 20)) {
		int seen = 0;
		for (int j = 0; use_args && j < 6; j++)
			seen |= (int)h->args[j] == (int)ret;
		if (!seen)
			put_fd((int)ret);
	}
}

/*
 * -y: the descriptors an SCM_RIGHTS message carries (msg_control at addr,
 * len bytes): a sendmsg's at entry, a recvmsg's new ones at exit.
 */
__noinline int put_cmsg_fds(__u64 addr, __u64 len)
{
	__u64 end = addr + (len < 1024 ? len : 1024);
	for (int i = 0; i < 4 && addr + 16 <= end; i++) {
		struct { __u64 len; int level, type; } c;
		if (bpf_probe_read_user(&c, sizeof(c), (void *)addr) || c.len < 16 || c.len > 1024)
			return 0;
		if (c.level == 1 && c.type == 1) {	/* SOL_SOCKET, SCM_RIGHTS */
			int fds[8];
			__u64 n = (c.len - 16) / 4;
			__u32 size = (n < 8 ? n : 8) * 4;
			/* No byte past the message: it may end where the page does. */
			asm volatile("%0 &= 63" : "+r"(size));
			if (size > sizeof(fds) || bpf_probe_read_user(fds, size, (void *)(addr + 16)))
				return 0;
			for (int k = 0; k < 8 && k < n; k++)
				put_fd(fds[k]);
		}
		addr += (c.len + 7) & ~7ull;
	}
	return 0;
}

#endif

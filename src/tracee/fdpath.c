/*
 * Descriptor paths for -y/-yy; see fdpath.h.
 *
 * -y is readlink(/proc/TID/fd/N).  -yy adds what strace 6.1 adds: sockets
 * described by protocol (the kernel names it in the "system.sockprotoname"
 * xattr of the fd) and by the addresses a NETLINK_SOCK_DIAG query returns
 * for the socket's inode; device numbers for char/block devices; the pid of
 * a pidfd.  A socket whose protocol we know but the kernel does not list
 * (unbound, or a diag module missing) prints as PROTO:[inode]; one of an
 * unknown protocol stays socket:[inode].
 */
#include "fdpath.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>

#include "util/die.h"
#include "util/strbuf.h"

#ifndef IPPROTO_L2TP
# define IPPROTO_L2TP 115	/* linux/in.h has it; glibc's netinet/in.h does not */
#endif

struct tr_fdpath {
	unsigned kinds;		/* TR_FD_* */
};

struct tr_fdpath *tr_fdpath_new(int level)
{
	struct tr_fdpath *p = xcalloc(1, sizeof(*p));

	p->kinds = level >= 2 ? TR_FD_ALL : TR_FD_PATH;
	return p;
}

void tr_fdpath_set_kinds(struct tr_fdpath *p, unsigned kinds)
{
	p->kinds = kinds;
}

void tr_fdpath_free(struct tr_fdpath *p)
{
	free(p);
}

/* ---- sock_diag queries ---------------------------------------------------- */

enum sk_kind { SK_INET, SK_UNIX, SK_NETLINK };

/* Protocol names as the kernel's struct proto calls them. */
static const struct sk_proto {
	const char *name;
	enum sk_kind kind;
	int family, protocol;
} sk_protos[] = {
	{ "TCP", SK_INET, AF_INET, IPPROTO_TCP },
	{ "UDP", SK_INET, AF_INET, IPPROTO_UDP },
	{ "UDPLITE", SK_INET, AF_INET, IPPROTO_UDPLITE },
	{ "DCCP", SK_INET, AF_INET, IPPROTO_DCCP },
	{ "SCTP", SK_INET, AF_INET, IPPROTO_SCTP },
	{ "L2TP/IP", SK_INET, AF_INET, IPPROTO_L2TP },
	{ "PING", SK_INET, AF_INET, IPPROTO_ICMP },
	{ "RAW", SK_INET, AF_INET, IPPROTO_RAW },
	{ "TCPv6", SK_INET, AF_INET6, IPPROTO_TCP },
	{ "UDPv6", SK_INET, AF_INET6, IPPROTO_UDP },
	{ "UDPLITEv6", SK_INET, AF_INET6, IPPROTO_UDPLITE },
	{ "DCCPv6", SK_INET, AF_INET6, IPPROTO_DCCP },
	{ "SCTPv6", SK_INET, AF_INET6, IPPROTO_SCTP },
	{ "L2TP/IPv6", SK_INET, AF_INET6, IPPROTO_L2TP },
	{ "PINGv6", SK_INET, AF_INET6, IPPROTO_ICMP },
	{ "RAWv6", SK_INET, AF_INET6, IPPROTO_RAW },
	{ "UNIX", SK_UNIX, AF_UNIX, 0 },
	{ "UNIX-STREAM", SK_UNIX, AF_UNIX, 0 },
	{ "NETLINK", SK_NETLINK, AF_NETLINK, 0 },
};

static const char *const netlink_names[] = {
	[NETLINK_ROUTE] = "ROUTE",
	[NETLINK_UNUSED] = "UNUSED",
	[NETLINK_USERSOCK] = "USERSOCK",
	[NETLINK_FIREWALL] = "FIREWALL",
	[NETLINK_SOCK_DIAG] = "SOCK_DIAG",
	[NETLINK_NFLOG] = "NFLOG",
	[NETLINK_XFRM] = "XFRM",
	[NETLINK_SELINUX] = "SELINUX",
	[NETLINK_ISCSI] = "ISCSI",
	[NETLINK_AUDIT] = "AUDIT",
	[NETLINK_FIB_LOOKUP] = "FIB_LOOKUP",
	[NETLINK_CONNECTOR] = "CONNECTOR",
	[NETLINK_NETFILTER] = "NETFILTER",
	[NETLINK_IP6_FW] = "IP6_FW",
	[NETLINK_DNRTMSG] = "DNRTMSG",
	[NETLINK_KOBJECT_UEVENT] = "KOBJECT_UEVENT",
	[NETLINK_GENERIC] = "GENERIC",
	[NETLINK_SCSITRANSPORT] = "SCSITRANSPORT",
	[NETLINK_ECRYPTFS] = "ECRYPTFS",
	[NETLINK_RDMA] = "RDMA",
	[NETLINK_CRYPTO] = "CRYPTO",
	[NETLINK_SMC] = "SMC",
};

/* One query's context: what we look for and where the answer goes. */
struct sk_query {
	const struct sk_proto *proto;
	unsigned long inode;
	struct strbuf *out;
};

/* Parse one reply message: 1 found (out written), 0 not this one, -1 stop. */
typedef int (*sk_parse_fn)(struct sk_query *q, const struct nlmsghdr *h);

static bool sk_send(int fd, void *req, size_t len)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	while (sendto(fd, req, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		if (errno != EINTR)
			return false;
	return true;
}

/* Read replies until one matches, the dump ends, or an error. */
static bool sk_receive(int fd, struct sk_query *q, sk_parse_fn parse)
{
	static union {
		struct nlmsghdr h;
		char buf[32768];
	} rx;

	for (;;) {
		ssize_t n = recv(fd, rx.buf, sizeof(rx.buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		for (struct nlmsghdr *h = &rx.h; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR)
				return false;
			int r = parse(q, h);
			if (r)
				return r > 0;
		}
	}
}

/* An inet socket's text: PROTO:[src:port->dst:port]; ports in network order. */
static bool inet_text(struct strbuf *out, const char *name, int af, const void *sa, uint16_t sport,
		      const void *da, uint16_t dport)
{
	static const uint8_t zero[16];
	char src[INET6_ADDRSTRLEN], dst[INET6_ADDRSTRLEN];
	size_t alen = af == AF_INET6 ? 16 : 4;
	const char *ob = af == AF_INET6 ? "[" : "", *cb = af == AF_INET6 ? "]" : "";

	if ((af != AF_INET && af != AF_INET6) || !inet_ntop(af, sa, src, sizeof(src)))
		return false;
	sb_printf(out, "%s:[%s%s%s:%u", name, ob, src, cb, ntohs(sport));
	/* A peer only when connected: strace leaves "->" out otherwise. */
	if (dport || memcmp(da, zero, alen)) {
		if (!inet_ntop(af, da, dst, sizeof(dst)))
			return false;
		sb_printf(out, "->%s%s%s:%u", ob, dst, cb, ntohs(dport));
	}
	sb_addc(out, ']');
	return true;
}

static int inet_parse(struct sk_query *q, const struct nlmsghdr *h)
{
	const struct inet_diag_msg *m = NLMSG_DATA(h);

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
		return -1;
	if (m->idiag_inode != q->inode)
		return 0;
	return inet_text(q->out, q->proto->name, m->idiag_family, m->id.idiag_src, m->id.idiag_sport,
			 m->id.idiag_dst, m->id.idiag_dport) ? 1 : -1;
}

static bool inet_lookup(int fd, struct sk_query *q)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 req;
	} msg = {
		.nlh = {
			.nlmsg_len = sizeof(msg),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.req = {
			.sdiag_family = q->proto->family,
			.sdiag_protocol = q->proto->protocol,
			.idiag_states = ~0u,
		},
	};

	return sk_send(fd, &msg, sizeof(msg)) && sk_receive(fd, q, inet_parse);
}

/* The C escape letter strace uses for c, or 0. */
static char escape_letter(unsigned char c)
{
	switch (c) {
	case '"': return '"';
	case '\\': return '\\';
	case '\f': return 'f';
	case '\n': return 'n';
	case '\r': return 'r';
	case '\t': return 't';
	case '\v': return 'v';
	}
	return 0;
}

/* strace's quoting of a socket path: C escapes, short octal for the rest. */
static void quote_path(struct strbuf *out, const char *s, size_t n)
{
	sb_addc(out, '"');
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		char e = escape_letter(c);

		if (e) {
			sb_addc(out, '\\');
			sb_addc(out, e);
		} else if (c >= ' ' && c < 0x7f) {
			sb_addc(out, (char)c);
		} else if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
			sb_printf(out, "\\%03o", c);	/* a digit follows: all three */
		} else {
			sb_printf(out, "\\%o", c);
		}
	}
	sb_addc(out, '"');
}

/*
 * The peers of unix sockets seen so far, by inode: once the peer closes,
 * the kernel stops reporting it, but strace keeps showing the socket as it
 * first saw it (its details are cached by inode), so we remember them too.
 */
#define UNIX_PEERS 256
static struct { unsigned long inode; uint32_t peer; } unix_peers[UNIX_PEERS];
static unsigned unix_peers_next;

static uint32_t unix_peer_remember(unsigned long inode, uint32_t peer)
{
	for (unsigned i = 0; i < UNIX_PEERS; i++) {
		if (unix_peers[i].inode != inode || !inode)
			continue;
		if (peer)
			unix_peers[i].peer = peer;
		return unix_peers[i].peer;
	}
	if (peer) {
		unix_peers[unix_peers_next].inode = inode;
		unix_peers[unix_peers_next].peer = peer;
		unix_peers_next = (unix_peers_next + 1) % UNIX_PEERS;
	}
	return peer;
}

/* A unix socket's text: PROTO:[inode->peer,"path"]; false when it is neither bound nor connected. */
static bool unix_text(struct strbuf *out, const char *name, unsigned long inode, uint32_t peer,
		      const char *path, size_t path_len)
{
	peer = unix_peer_remember(inode, peer);
	/* Neither bound nor connected: nothing to add to the inode. */
	if (!peer && !path_len)
		return false;
	sb_printf(out, "%s:[%lu", name, inode);
	if (peer)
		sb_printf(out, "->%u", peer);
	if (path_len) {
		sb_addc(out, ',');
		if (path[0] == '\0') {		/* abstract namespace */
			sb_addc(out, '@');
			quote_path(out, path + 1, path_len - 1);
		} else {
			quote_path(out, path, path_len);
		}
	}
	sb_addc(out, ']');
	return true;
}

static int unix_parse(struct sk_query *q, const struct nlmsghdr *h)
{
	const struct unix_diag_msg *m = NLMSG_DATA(h);
	int rta_len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*m));
	const char *path = NULL;
	size_t path_len = 0;
	uint32_t peer = 0;

	if (rta_len < 0 || m->udiag_family != AF_UNIX)
		return -1;
	if (m->udiag_ino != q->inode)
		return 0;
	for (struct rtattr *a = (struct rtattr *)(m + 1); RTA_OK(a, rta_len); a = RTA_NEXT(a, rta_len)) {
		if (a->rta_type == UNIX_DIAG_NAME && !path) {
			path = RTA_DATA(a);
			path_len = RTA_PAYLOAD(a);
		} else if (a->rta_type == UNIX_DIAG_PEER && RTA_PAYLOAD(a) >= sizeof(peer)) {
			memcpy(&peer, RTA_DATA(a), sizeof(peer));
		}
	}
	return unix_text(q->out, q->proto->name, q->inode, peer, path, path_len) ? 1 : -1;
}

static bool unix_lookup(int fd, struct sk_query *q)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} msg = {
		.nlh = {
			.nlmsg_len = sizeof(msg),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST,
		},
		.req = {
			.sdiag_family = AF_UNIX,
			.udiag_ino = (uint32_t)q->inode,
			.udiag_states = ~0u,
			.udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER,
			.udiag_cookie = { ~0u, ~0u },	/* by inode, any cookie */
		},
	};

	return sk_send(fd, &msg, sizeof(msg)) && sk_receive(fd, q, unix_parse);
}

/* A netlink socket's text: PROTO:[FAMILY:portid]. */
static void netlink_text(struct strbuf *out, const char *name, unsigned protocol, uint32_t portid)
{
	size_t nnames = sizeof(netlink_names) / sizeof(netlink_names[0]);

	if (protocol < nnames && netlink_names[protocol])
		sb_printf(out, "%s:[%s:%u]", name, netlink_names[protocol], portid);
	else
		sb_printf(out, "%s:[%u]", name, protocol);
}

static int netlink_parse(struct sk_query *q, const struct nlmsghdr *h)
{
	const struct netlink_diag_msg *m = NLMSG_DATA(h);

	if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) || m->ndiag_family != AF_NETLINK)
		return -1;
	if (m->ndiag_ino != q->inode)
		return 0;
	netlink_text(q->out, q->proto->name, m->ndiag_protocol, m->ndiag_portid);
	return 1;
}

static bool netlink_lookup(int fd, struct sk_query *q)
{
	struct {
		struct nlmsghdr nlh;
		struct netlink_diag_req req;
	} msg = {
		.nlh = {
			.nlmsg_len = sizeof(msg),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.req = {
			.sdiag_family = AF_NETLINK,
			.sdiag_protocol = NDIAG_PROTO_ALL,
		},
	};

	return sk_send(fd, &msg, sizeof(msg)) && sk_receive(fd, q, netlink_parse);
}

/* Where a descriptor's details come from: /proc now, or what the kernel said at the call. */
struct fd_src {
	pid_t tid;
	const char *fdlink;			/* /proc/TID/fd/N, when not facts */
	const struct tr_fd_facts *facts;
};

static const struct sk_proto *sk_proto_of(const struct fd_src *src)
{
	char name[64];

	if (src->facts) {
		if (!src->facts->sock_proto)
			return NULL;
		snprintf(name, sizeof(name), "%s", src->facts->sock_proto);
	} else {
		ssize_t n = getxattr(src->fdlink, "system.sockprotoname", name, sizeof(name) - 1);
		if (n <= 0)
			return NULL;
		name[n] = '\0';
	}
	for (size_t i = 0; i < sizeof(sk_protos) / sizeof(sk_protos[0]); i++)
		if (!strcmp(name, sk_protos[i].name))
			return &sk_protos[i];
	return NULL;
}

/*
 * The -yy text of socket inode into out; false when the protocol is not one
 * we decode.  A fresh diag socket per lookup: a dump we stop reading
 * halfway must not leak into the next query.
 */
static bool sk_describe(const struct fd_src *src, unsigned long inode, struct strbuf *out)
{
	const struct sk_proto *proto = sk_proto_of(src);
	struct sk_query q = { proto, inode, out };
	bool found = false;

	if (!proto)
		return false;
	const struct tr_sock_facts *sk = src->facts ? src->facts->sock : NULL;
	int fd = sk ? -1 : socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (sk) {
		/* What the kernel held at the call; "listed" as sock_diag would have listed it. */
		if (proto->kind == SK_INET)
			found = sk->sport && inet_text(out, proto->name, sk->family, sk->saddr,
						       htons(sk->sport), sk->daddr, sk->dport);
		else if (proto->kind == SK_UNIX)
			found = unix_text(out, proto->name, inode, (uint32_t)sk->peer_ino, sk->unix_path,
					  sk->unix_path_len);
		else if (sk->portid)
			netlink_text(out, proto->name, sk->nl_proto, sk->portid), found = true;
	} else if (fd >= 0) {
		if (proto->kind == SK_INET)
			found = inet_lookup(fd, &q);
		else if (proto->kind == SK_UNIX)
			found = unix_lookup(fd, &q);
		else
			found = netlink_lookup(fd, &q);
		close(fd);
	}
	if (!found) {
		sb_reset(out);
		sb_printf(out, "%s:[%lu]", proto->name, inode);
	}
	return true;
}

/* ---- -yy extras ------------------------------------------------------------ */

/* "pid:N" for a pidfd, from its fdinfo; false if not readable. */
static bool pidfd_describe(const struct fd_src *src, int fd, struct strbuf *out)
{
	char name[64], line[256];
	bool found = false;

	if (src->facts) {
		if (src->facts->pid <= 0)
			return false;
		sb_printf(out, "pid:%d", src->facts->pid);
		return true;
	}
	snprintf(name, sizeof(name), "/proc/%d/fdinfo/%d", (int)src->tid, fd);
	FILE *f = fopen(name, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		int pid;
		if (sscanf(line, "Pid:\t%d", &pid) == 1 && pid > 0) {
			sb_printf(out, "pid:%d", pid);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/*
 * A name the kernel ended in " (deleted)" that is really a file's name (the
 * link and the name lead to the same inode), as strace checks.
 */
static bool deleted_is_name(const struct fd_src *src, const char *target)
{
	struct stat l, t;
	if (src->facts)
		return !src->facts->deleted;
	return stat(src->fdlink, &l) == 0 && lstat(target, &t) == 0 &&
	       l.st_ino == t.st_ino && l.st_dev == t.st_dev;
}

/* path\0<char M:m> / path\0<block M:m>, any " (deleted)" suffix after it. */
static bool device_describe(const struct fd_src *src, const char *target, struct strbuf *out)
{
	static const char deleted[] = " (deleted)";
	struct stat st;
	size_t n = strlen(target), dl = sizeof(deleted) - 1;
	bool gone = n > dl && !strcmp(target + n - dl, deleted) && !deleted_is_name(src, target);

	if (src->facts) {
		st.st_mode = src->facts->mode;
		st.st_rdev = src->facts->rdev;
	} else if (stat(src->fdlink, &st) < 0) {
		return false;
	}
	if (target[0] != '/' || (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode)))
		return false;
	sb_addn(out, target, gone ? n - dl : n);
	sb_addc(out, '\0');
	sb_printf(out, "<%s %u:%u>", S_ISCHR(st.st_mode) ? "char" : "block",
		  major(st.st_rdev), minor(st.st_rdev));
	if (gone)
		sb_add(out, deleted);
	return true;
}

/* What the enabled kinds (TR_FD_*) say of fd; false when none applies. */
static bool describe(const struct tr_fdpath *p, int fd, const struct fd_src *src,
		     const char *target, struct strbuf *out)
{
	static const char deleted[] = " (deleted)";
	size_t n = strlen(target), dl = sizeof(deleted) - 1;
	unsigned long inode;
	char end;

	if (fd != AT_FDCWD) {
		if ((p->kinds & TR_FD_SOCKET) && sscanf(target, "socket:[%lu%c", &inode, &end) == 2 &&
		    end == ']' && sk_describe(src, inode, out))
			return true;
		if ((p->kinds & TR_FD_DEV) && device_describe(src, target, out))
			return true;
		if ((p->kinds & TR_FD_PIDFD) && !strcmp(target, "anon_inode:[pidfd]") &&
		    pidfd_describe(src, fd, out))
			return true;
	}
	if (!(p->kinds & TR_FD_PATH))
		return false;
	sb_add(out, target);
	/* A trailing NUL tells the printer the " (deleted)" is part of the name. */
	if (n > dl && !strcmp(target + n - dl, deleted) && deleted_is_name(src, target))
		sb_addc(out, '\0');
	return true;
}

/* describe() into buf (NUL-terminated, cut to len - 1): its length, or -1. */
static int describe_into(const struct tr_fdpath *p, int fd, const struct fd_src *src,
			 const char *target, char *buf, size_t len)
{
	struct strbuf out = STRBUF_INIT;

	if (!describe(p, fd, src, target, &out)) {
		sb_free(&out);
		return -1;
	}
	size_t copy = out.len < len - 1 ? out.len : len - 1;
	memcpy(buf, out.buf, copy);
	buf[copy] = '\0';
	sb_free(&out);
	return (int)copy;
}

int tr_fd_path(void *ctx, pid_t tid, int fd, char *buf, size_t len)
{
	const struct tr_fdpath *p = ctx;
	char fdlink[64], target[PATH_MAX + 1];

	if (!p || !len || (fd < 0 && fd != AT_FDCWD))
		return -1;
	if (fd == AT_FDCWD)
		snprintf(fdlink, sizeof(fdlink), "/proc/%d/cwd", (int)tid);
	else
		snprintf(fdlink, sizeof(fdlink), "/proc/%d/fd/%d", (int)tid, fd);
	ssize_t n = readlink(fdlink, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';

	struct fd_src src = { .tid = tid, .fdlink = fdlink };
	return describe_into(p, fd, &src, target, buf, len);
}

int tr_fd_describe(void *ctx, int fd, const struct tr_fd_facts *f, char *buf, size_t len)
{
	struct fd_src src = { .facts = f };

	if (!ctx || !len || !f || !f->target)
		return -1;
	return describe_into(ctx, fd, &src, f->target, buf, len);
}

/*
 * The Eth column of /proc/TID/net/netlink (the tracee's namespace) for
 * inode; TR_NETLINK_UNLISTED when absent.
 */
static int netlink_proto_of_inode(pid_t tid, unsigned long inode)
{
	char path[64], line[256];
	int proto = TR_NETLINK_UNLISTED;

	snprintf(path, sizeof(path), "/proc/%d/net/netlink", (int)tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return TR_NETLINK_UNLISTED;
	while (proto == TR_NETLINK_UNLISTED && fgets(line, sizeof(line), f)) {
		unsigned long ino;
		int eth;
		if (sscanf(line, "%*s %d %*s %*s %*s %*s %*s %*s %*s %lu", &eth, &ino) == 2 &&
		    ino == inode)
			proto = eth;
	}
	fclose(f);
	return proto;
}

int tr_fd_netlink_proto(pid_t tid, int fd)
{
	char fdlink[64], target[64], name[16];
	unsigned long inode;

	if (fd < 0)
		return -1;
	snprintf(fdlink, sizeof(fdlink), "/proc/%d/fd/%d", (int)tid, fd);
	ssize_t n = readlink(fdlink, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = '\0';
	if (sscanf(target, "socket:[%lu]", &inode) != 1)
		return -1;
	n = getxattr(fdlink, "system.sockprotoname", name, sizeof(name) - 1);
	if (n <= 0)
		return -1;
	name[n] = '\0';
	if (strcmp(name, "NETLINK"))
		return -1;
	return netlink_proto_of_inode(tid, inode);
}

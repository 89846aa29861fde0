/*
 * Sockets: creation, addresses, connections and the send/recv family,
 * including the message-header calls and their vector forms.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "print_net.h"
#include "print_pid.h"
#include "netlink/netlink.h"

#define MMSGHDR_SIZE sizeof(struct mmsghdr)
#define MMSG_MAX 1024u		/* IOV_MAX: strace prints at most this many messages */

/* socket(2)'s protocol means something different in each family. */
static void p_protocol(struct sc_call *c, uint64_t family, uint64_t proto)
{
	switch (family) {
	case AF_INET:
	case AF_INET6:
		p_xval(c, &xlat_inet_protocols, proto, "IPPROTO_???");
		break;
	case AF_NETLINK:
		p_xval(c, &xlat_netlink_protocols, proto, "NETLINK_???");
		break;
	case AF_PACKET:
		out(c, "htons(");
		p_xval(c, &xlat_ethernet_protocols, ntohs((uint16_t)proto), "ETH_P_???");
		out(c, ")");
		break;
	default:
		p_ulong(c, proto);
	}
}

SC_DECODER(socket)
{
	p_xval(c, &xlat_addrfams, c->args[0], "AF_???");
	p_sep(c);
	pn_sock_type(c, c->args[1]);
	p_sep(c);
	p_protocol(c, c->args[0], c->args[2]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

static bool p_fd_elem(struct sc_call *c, const void *elem, size_t size, void *data)
{
	int fd;
	(void)size;
	(void)data;
	memcpy(&fd, elem, sizeof(fd));
	p_fd(c, (uint64_t)(int64_t)fd);
	return true;
}

SC_DECODER(socketpair, MEM_BYTES_OUT(3, 2 * sizeof(int)))
{
	if (c->entering) {
		p_xval(c, &xlat_addrfams, c->args[0], "AF_???");
		p_sep(c);
		pn_sock_type(c, c->args[1]);
		p_sep(c);
		p_ulong(c, c->args[2]);
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[3]);
	else
		pn_array(c, c->args[3], 2, sizeof(int), p_fd_elem, NULL);
	return 0;
}

/* bind and connect: an address the kernel reads, and its length. */
static int decode_sockaddr_in(struct sc_call *c)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_sockaddr(c, c->args[1], (int)c->args[2]);
	out(c, ", %d", (int)c->args[2]);
	return SC_DONE;
}

SC_DECODER(bind, MEM_SOCKADDR_IN(1, 2))
{
	return decode_sockaddr_in(c);
}

SC_DECODER(connect, MEM_SOCKADDR_IN(1, 2))
{
	return decode_sockaddr_in(c);
}

SC_DECODER(listen)
{
	p_fd(c, c->args[0]);
	out(c, ", %d", (int)c->args[1]);
	return SC_DONE;
}

SC_DECODER(shutdown)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_xval(c, &xlat_shutdown_modes, c->args[1], "SHUT_???");
	return SC_DONE;
}

/* The length the caller offered, kept for exit; false when it cannot be read. */
static bool save_socklen(struct sc_call *c, uint64_t addr, uint64_t lenp)
{
	int len;
	if (!addr || !lenp || sc_mem_read(c, lenp, &len, sizeof(len)) < 0)
		return false;
	pn_save_int(c, len);
	return true;
}

/* [16], or [128 => 16] when the kernel changed the length. */
static void p_socklen_change(struct sc_call *c, int ulen, int rlen)
{
	if (ulen != rlen)
		out(c, "[%d => %d]", ulen, rlen);
	else
		out(c, "[%d]", rlen);
}

/* At exit: the address the kernel wrote at addr, its length at lenp. */
static void p_sockaddr_out(struct sc_call *c, uint64_t addr, uint64_t lenp)
{
	int ulen = pn_saved_int(c), rlen;
	if (sc_failed(c) || sc_mem_read(c, lenp, &rlen, sizeof(rlen)) < 0) {
		p_addr(c, addr);
		out(c, ", [%d]", ulen);
		return;
	}
	p_sockaddr(c, addr, ulen > rlen ? rlen : ulen);
	p_sep(c);
	p_socklen_change(c, ulen, rlen);
}

/* accept, accept4, getsockname, getpeername. */
static int decode_sockname(struct sc_call *c)
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		if (save_socklen(c, c->args[1], c->args[2]))
			return 0;
		p_addr(c, c->args[1]);
		p_sep(c);
		p_addr(c, c->args[2]);
		return SC_DONE;
	}
	p_sockaddr_out(c, c->args[1], c->args[2]);
	return 0;
}

SC_DECODER(accept, MEM_BYTES_IN(2, sizeof(int)), MEM_SOCKADDR_OUT(1, 2))
{
	c->rv = SC_RV_FD;
	return decode_sockname(c);
}

SC_DECODER(accept4, MEM_BYTES_IN(2, sizeof(int)), MEM_SOCKADDR_OUT(1, 2))
{
	c->rv = SC_RV_FD;
	int rc = decode_sockname(c);
	if (rc == SC_DONE || !c->entering) {
		p_sep(c);
		p_flags(c, &xlat_sock_type_flags, c->args[3], "SOCK_???");
	}
	return rc;
}

SC_DECODER(getsockname, MEM_BYTES_IN(2, sizeof(int)), MEM_SOCKADDR_OUT(1, 2))
{
	return decode_sockname(c);
}

SC_DECODER(getpeername, MEM_BYTES_IN(2, sizeof(int)), MEM_SOCKADDR_OUT(1, 2))
{
	return decode_sockname(c);
}

static void p_len_flags(struct sc_call *c, uint64_t len, uint64_t flags)
{
	out(c, ", %llu, ", (unsigned long long)len);
	p_flags(c, &xlat_msg_flags, flags, "MSG_???");
}

/* The netlink protocol of the socket fd, or -1 (not netlink, or not known). */
static int sock_nl_proto(const struct sc_call *c, uint64_t fd)
{
	if (!c->fmt || !c->fmt->nl_proto)
		return -1;
	/* /proc may be an outer namespace's, where the tracee has another number. */
	return c->fmt->nl_proto(sc_pid_proc(c->tid), (int)fd);
}

/* Netlink messages are decoded whole; other data has its copy already. */
static size_t sendto_len(const struct sc_call *c)
{
	return sock_nl_proto(c, c->args[0]) >= 0 ? c->args[2] : 0;
}

/* A buffer sent or received on fd: netlink messages by field, else a string. */
static void p_sockbuf(struct sc_call *c, uint64_t fd, uint64_t addr, uint64_t len)
{
	int proto = sock_nl_proto(c, fd);
	if (proto >= 0)
		nl_decode(c, proto, addr, len);
	else
		p_buf(c, addr, (int64_t)len);
}

/*
 * The data as before (up to -s), then all of it when the socket is a
 * netlink one: the later copy wins where both hold bytes, and --kernel,
 * which cannot ask, keeps the first.
 */
SC_DECODER(sendto, MEM_BUF_IN(1, 2), MEM_FN(1, SC_MEM_BUF, SC_AT_ENTRY, sendto_len),
	   MEM_SOCKADDR_IN(4, 5))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_sockbuf(c, c->args[0], c->args[1], c->args[2]);
	p_len_flags(c, c->args[2], c->args[3]);
	p_sep(c);
	p_sockaddr(c, c->args[4], (int)c->args[5]);
	out(c, ", %d", (int)c->args[5]);
	return SC_DONE;
}

SC_DECODER(recvfrom, MEM_BUF_OUT_RET(1), MEM_BYTES_IN(5, sizeof(int)), MEM_SOCKADDR_OUT(4, 5))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		save_socklen(c, c->args[4], c->args[5]);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else
		p_buf(c, c->args[1], (uint64_t)c->ret < c->args[2] ? c->ret : (int64_t)c->args[2]);
	p_len_flags(c, c->args[2], c->args[3]);
	p_sep(c);
	int rlen;
	if (!c->args[4] || !c->args[5] || sc_mem_read(c, c->args[5], &rlen, sizeof(rlen)) < 0) {
		p_addr(c, c->args[4]);
		p_sep(c);
		p_addr(c, c->args[5]);
		return 0;
	}
	p_sockaddr_out(c, c->args[4], c->args[5]);
	return 0;
}

SC_DECODER(sendmsg, MEM_MSGHDR_IN(1))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_msghdr(c, c->args[1], -1);
	p_sep(c);
	p_flags(c, &xlat_msg_flags, (unsigned)c->args[2], "MSG_???");
	return SC_DONE;
}

SC_DECODER(recvmsg, MEM_MSGHDR_OUT(1))
{
	struct msghdr m;
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		if (c->args[1] && sc_mem_read(c, c->args[1], &m, sizeof(m)) == 0) {
			pn_save_int(c, (int)m.msg_namelen);
			return 0;
		}
		p_addr(c, c->args[1]);
	} else {
		int ulen = pn_saved_int(c);
		if (sc_failed(c))
			out(c, "{msg_namelen=%d}", ulen);
		else
			pn_msghdr(c, c->args[1], c->ret, &ulen);
	}
	p_sep(c);
	p_flags(c, &xlat_msg_flags, (unsigned)c->args[2], "MSG_???");
	return SC_DONE;
}

/* ---- sendmmsg, recvmmsg ------------------------------------------------- */

struct mmsg_state {
	char timeout[64];	/* recvmmsg's timeout as it was at entry */
	unsigned count;		/* namelen[] entries read at entry */
	int namelen[];
};

/*
 * [{msg_hdr={...}, msg_len=5}, ...] for n messages; the first with_len of
 * them show msg_len, and use_len limits each one's data to its msg_len.
 */
static void p_mmsgvec(struct sc_call *c, uint64_t addr, uint64_t n, uint64_t with_len,
		      bool use_len, const struct mmsg_state *st)
{
	struct mmsghdr mh;
	unsigned limit = st && st->count < MMSG_MAX ? st->count : MMSG_MAX;

	if (!addr || !n || n > UINT64_MAX / MMSGHDR_SIZE) {
		if (!addr || n)
			p_addr(c, addr);
		else
			out(c, "[]");
		return;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t cur = addr + i * MMSGHDR_SIZE;
		if (i)
			p_sep(c);
		/* The kernel handles at most UIO_MAXIOV (1024) messages per call. */
		if (i >= 1024) {
			out(c, "...");
			break;
		}
		if (sc_mem_read(c, cur, &mh, sizeof(mh)) < 0) {
			if (!i) {
				p_addr(c, cur);
				return;
			}
			out(c, "... /* %#llx */", (unsigned long long)cur);
			break;
		}
		if (!i)
			out(c, "[");
		if ((!c->fmt || !c->fmt->verbose) && i >= (c->fmt ? c->fmt->strsize : 32)) {
			out(c, "...");
			break;
		}
		if (i >= limit || p_line_full(c)) {
			out(c, "...");
			break;
		}
		out(c, "{msg_hdr=");
		pn_msghdr(c, cur, use_len ? (int64_t)mh.msg_len : -1,
			  st && i < st->count ? &st->namelen[i] : NULL);
		if (i < with_len)
			out(c, ", msg_len=%u", mh.msg_len);
		out(c, "}");
	}
	out(c, "]");
}

SC_DECODER(sendmmsg, MEM_MMSGHDR_IN(1, 2), MEM_MMSGHDR_OUT(1))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	/* The kernel read the vector whether or not it failed: print it anyway. */
	p_mmsgvec(c, c->args[1], (unsigned)c->args[2], sc_failed(c) ? 0 : (uint64_t)c->ret,
		  false, NULL);
	out(c, ", %u, ", (unsigned)c->args[2]);
	p_flags(c, &xlat_msg_flags, (unsigned)c->args[3], "MSG_???");
	return 0;
}

static void save_mmsg_state(struct sc_call *c)
{
	unsigned n = (unsigned)c->args[2] < MMSG_MAX ? (unsigned)c->args[2] : MMSG_MAX;
	struct mmsg_state *st = calloc(1, sizeof(*st) + n * sizeof(int));
	if (!st)
		return;
	pn_capture(c, st->timeout, sizeof(st->timeout), p_timespec, c->args[4]);
	for (; st->count < n; st->count++) {
		struct msghdr m;
		if (sc_mem_read(c, c->args[1] + st->count * MMSGHDR_SIZE, &m, sizeof(m)) < 0)
			break;
		st->namelen[st->count] = (int)m.msg_namelen;
	}
	free(c->priv);
	c->priv = st;
}

SC_DECODER(recvmmsg, MEM_MMSGHDR_IN(1, 2), MEM_MMSGHDR_OUT(1),
	   MEM_STRUCT_INOUT(4, struct timespec))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		save_mmsg_state(c);
		return 0;
	}
	const struct mmsg_state *st = c->priv;
	p_mmsgvec(c, c->args[1], (uint64_t)c->ret, (uint64_t)c->ret, true, st);
	out(c, ", %u, ", (unsigned)c->args[2]);
	p_flags(c, &xlat_msg_flags, (unsigned)c->args[3], "MSG_???");
	out(c, ", %s", st ? st->timeout : "");
	if (sc_failed(c))
		return 0;
	if (c->ret == 0) {
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(Timeout)");
	} else if (c->args[4] && !(c->fmt && c->fmt->by_addr)) {
		char left[sizeof(c->rv_extra) - 8];
		pn_capture(c, left, sizeof(left), p_timespec, c->args[4]);
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(left %s)", left);
	}
	return 0;
}

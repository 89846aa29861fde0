/*
 * setsockopt and getsockopt: the option's name depends on its level, its
 * value on both; ints print as [1], a few structs by field, the rest as a
 * string of the option's length.
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <linux/if_packet.h>
#include <linux/filter.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "print_pid.h"
#include "print_bpf.h"
#include "print_net.h"

#define OPTVAL_MAX 4096u	/* option bytes copied; far above any struct printed */

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif
#ifndef SOL_PACKET
#define SOL_PACKET 263
#endif

struct level_names {
	int level;
	const struct xlat *names;
	const char *dflt;
};

static const struct level_names level_names[] = {
	{ SOL_IP, &xlat_sock_ip_options, "IP_???" },
	{ SOL_IPV6, &xlat_sock_ipv6_options, "IPV6_???" },
	{ SOL_TCP, &xlat_sock_tcp_options, "TCP_???" },
	{ SOL_UDP, &xlat_sock_udp_options, "UDP_???" },
	{ SOL_NETLINK, &xlat_sock_netlink_options, "NETLINK_???" },
	{ SOL_PACKET, &xlat_sock_packet_options, "PACKET_???" },
	{ SOL_RAW, &xlat_sock_raw_options, "ICMP_???" },
};

static void p_optname(struct sc_call *c, unsigned level, unsigned name, bool get)
{
	if (level == SOL_SOCKET) {
		const struct xlat *x = get ? &xlat_getsock_options : &xlat_setsock_options;
		p_xval(c, xlat_str(x, name) ? x : &xlat_sock_options, name, "SO_???");
		return;
	}
	for (size_t i = 0; i < sizeof(level_names) / sizeof(level_names[0]); i++)
		if ((unsigned)level_names[i].level == level) {
			p_xval(c, level_names[i].names, name, level_names[i].dflt);
			return;
		}
	out(c, "%u", name);
}

static void p_fd_level_name(struct sc_call *c, bool get)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_xval(c, &xlat_socketlayers, (unsigned)c->args[1], "SOL_??");
	p_sep(c);
	p_optname(c, (unsigned)c->args[1], (unsigned)c->args[2], get);
	p_sep(c);
}

/* SOL_SOCKET options whose value is an int. */
static bool so_int_like(unsigned name)
{
	static const unsigned names[] = {
		SO_DEBUG, SO_REUSEADDR, SO_DONTROUTE, SO_BROADCAST, SO_SNDBUF, SO_RCVBUF,
		SO_KEEPALIVE, SO_OOBINLINE, SO_NO_CHECK, SO_PRIORITY, SO_BSDCOMPAT, SO_REUSEPORT,
		SO_PASSCRED, SO_RCVLOWAT, SO_SNDLOWAT, SO_DETACH_FILTER, 29 /* SO_TIMESTAMP_OLD */,
		SO_ACCEPTCONN, SO_SNDBUFFORCE, SO_RCVBUFFORCE, SO_PASSSEC,
		35 /* SO_TIMESTAMPNS_OLD */, SO_MARK, 37 /* SO_TIMESTAMPING_OLD */, SO_RXQ_OVFL,
		SO_WIFI_STATUS, SO_PEEK_OFF, SO_NOFCS, SO_LOCK_FILTER, SO_SELECT_ERR_QUEUE,
		SO_BUSY_POLL, SO_INCOMING_CPU, SO_CNX_ADVICE, SO_INCOMING_NAPI_ID, SO_ZEROCOPY,
		63, 64, 65 /* SO_TIMESTAMP{,NS,ING}_NEW */, 68 /* SO_DETACH_REUSEPORT_BPF */,
		69 /* SO_PREFER_BUSY_POLL */, 70 /* SO_BUSY_POLL_BUDGET */, 73 /* SO_RESERVE_MEM */,
		75 /* SO_RCVMARK */,
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i] == name)
			return true;
	return false;
}

/* [42], or the address when the int is not held. */
static void p_int_at(struct sc_call *c, uint64_t addr)
{
	int v;
	if (p_fetch(c, addr, &v, sizeof(v)) == 0)
		out(c, "[%d]", v);
}

/* strace's printstr_ex(QUOTE_FORCE_HEX): every byte as \xNN. */
static void p_hex_bytes(struct sc_call *c, uint64_t addr, int len)
{
	struct sc_fmt hex = c->fmt ? *c->fmt : (struct sc_fmt){ .strsize = 32 };
	const struct sc_fmt *saved = c->fmt;
	hex.xflag = 2;
	c->fmt = &hex;
	p_buf(c, addr, len);
	c->fmt = saved;
}

static void p_linger(struct sc_call *c, uint64_t addr)
{
	struct linger l;
	if (p_fetch(c, addr, &l, sizeof(l)) == 0)
		out(c, "{l_onoff=%d, l_linger=%d}", l.l_onoff, l.l_linger);
}

static void p_mreq(struct sc_call *c, uint64_t addr)
{
	struct ip_mreq m;
	if (p_fetch(c, addr, &m, sizeof(m)) < 0)
		return;
	out(c, "{");
	pn_inet_addr(c, AF_INET, &m.imr_multiaddr, "imr_multiaddr");
	out(c, ", ");
	pn_inet_addr(c, AF_INET, &m.imr_interface, "imr_interface");
	out(c, "}");
}

static void p_mreq6(struct sc_call *c, uint64_t addr)
{
	struct ipv6_mreq m;
	if (p_fetch(c, addr, &m, sizeof(m)) < 0)
		return;
	out(c, "{");
	pn_inet_addr(c, AF_INET6, &m.ipv6mr_multiaddr, "ipv6mr_multiaddr");
	out(c, ", ipv6mr_interface=");
	pn_ifindex(c, m.ipv6mr_interface);
	out(c, "}");
}

/* struct group_req (MCAST_JOIN_GROUP, MCAST_LEAVE_GROUP): an interface and a group address. */
static void p_group_req(struct sc_call *c, uint64_t addr)
{
	struct group_req g;
	if (p_fetch(c, addr, &g, sizeof(g)) < 0)
		return;
	out(c, "{gr_interface=");
	pn_ifindex(c, g.gr_interface);
	out(c, ", gr_group=");
	p_sockaddr(c, addr + offsetof(struct group_req, gr_group), sizeof(g.gr_group));
	out(c, "}");
}

/* [SOCK_TXREHASH_ENABLED], or the address when the int is not held. */
static void p_txrehash_at(struct sc_call *c, uint64_t addr)
{
	int v;
	if (p_fetch(c, addr, &v, sizeof(v)) < 0)
		return;
	out(c, "[");
	pn_xval_dec(c, &xlat_sock_txrehash, v, "SOCK_TXREHASH_???");
	out(c, "]");
}

/*
 * ICMP_FILTER's mask of ICMP types: [ICMP_ECHO ICMP_REDIRECT], or ~[...]
 * of the bits left clear when most are set (as strace prints sets).
 */
static void p_icmp_filter(struct sc_call *c, uint64_t addr)
{
	uint32_t m;
	if (p_fetch(c, addr, &m, sizeof(m)) < 0)
		return;
	if (__builtin_popcount(m) > 16) {
		out(c, "~");
		m = ~m;
	}
	out(c, "[");
	for (unsigned i = 0, n = 0; i < 32; i++) {
		if (!(m & (1u << i)))
			continue;
		const char *s = xlat_str(&xlat_icmp_types, i);
		if (n++)
			out(c, " ");
		if (s)
			out(c, "%s", s);
		else
			out(c, "%u", i);
	}
	out(c, "]");
}

/* Raw bytes as \xNN each (strace's print_quoted_hex). */
static void p_hex_data(struct sc_call *c, const unsigned char *d, size_t n)
{
	struct sc_fmt hex = c->fmt ? *c->fmt : (struct sc_fmt){ .strsize = 32 };
	const struct sc_fmt *saved = c->fmt;
	hex.xflag = 2;
	hex.strsize = (unsigned)n;
	c->fmt = &hex;
	p_quoted(c, d, n, false);
	c->fmt = saved;
}

/* A hardware address: ff:ff:..., or its bytes with -X raw/verbose. */
static void p_hwaddr(struct sc_call *c, const unsigned char *d, size_t n)
{
	if (xlat_style != XLAT_STYLE_ABBREV) {
		p_hex_data(c, d, n);
		if (xlat_style == XLAT_STYLE_RAW)
			return;
		out(c, " /* ");
	}
	for (size_t i = 0; i < n; i++)
		out(c, "%s%02x", i ? ":" : "", d[i]);
	if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " */");
}

static void p_packet_mreq(struct sc_call *c, uint64_t addr)
{
	struct packet_mreq m;
	if (p_fetch(c, addr, &m, sizeof(m)) < 0)
		return;
	out(c, "{mr_ifindex=");
	pn_ifindex(c, (unsigned)m.mr_ifindex);
	out(c, ", mr_type=");
	p_xval(c, &xlat_packet_mr_types, m.mr_type, "PACKET_MR_???");
	out(c, ", mr_alen=%u, mr_address=", m.mr_alen);
	p_hwaddr(c, m.mr_address, m.mr_alen < sizeof(m.mr_address) ? m.mr_alen
								    : sizeof(m.mr_address));
	out(c, "}");
}

static void p_tpacket_req(struct sc_call *c, uint64_t addr)
{
	struct tpacket_req r;
	if (p_fetch(c, addr, &r, sizeof(r)) == 0)
		out(c, "{tp_block_size=%u, tp_block_nr=%u, tp_frame_size=%u, tp_frame_nr=%u}",
		    r.tp_block_size, r.tp_block_nr, r.tp_frame_size, r.tp_frame_nr);
}

/* SOL_PACKET values that print by field; false for the rest. */
static bool p_packet_optval(struct sc_call *c, unsigned name, uint64_t addr, int len)
{
	switch (name) {
	case PACKET_ADD_MEMBERSHIP:
	case PACKET_DROP_MEMBERSHIP:
		if (len != (int)sizeof(struct packet_mreq))
			return false;
		p_packet_mreq(c, addr);
		return true;
	case PACKET_RX_RING:
	case PACKET_TX_RING:
		if (len != (int)sizeof(struct tpacket_req))
			return false;
		p_tpacket_req(c, addr);
		return true;
	}
	return false;
}

/* The options whose value is a struct sock_fprog, a pointer to a filter. */
static bool is_fprog_opt(unsigned level, unsigned name)
{
	return level == SOL_SOCKET && (name == SO_ATTACH_FILTER || name == SO_ATTACH_REUSEPORT_CBPF);
}

/* The filter a sock_fprog points to: only for those options. */
static size_t fprog_insns_len(const struct sc_call *c)
{
	return is_fprog_opt((unsigned)c->args[1], (unsigned)c->args[2]) &&
	       c->args[4] == sizeof(struct sock_fprog) ? BPF_MAX_INSNS * BPF_INSN_SIZE : 0;
}

/* SO_GET_FILTER writes instructions, its length counting them. */
static size_t get_filter_len(const struct sc_call *c)
{
	return (unsigned)c->args[1] == SOL_SOCKET && (unsigned)c->args[2] == SO_GET_FILTER
	       ? BPF_MAX_INSNS * BPF_INSN_SIZE : 0;
}

/* {len=10, filter=[BPF_STMT(...), ...]} */
static void p_sock_fprog(struct sc_call *c, uint64_t addr)
{
	struct sock_fprog f;
	if (p_fetch(c, addr, &f, sizeof(f)) < 0)
		return;
	out(c, "{len=%u, filter=", f.len);
	pn_sock_filters(c, (uint64_t)(uintptr_t)f.filter, f.len);
	out(c, "}");
}

/* The value strace prints when no level-specific rule applies. */
static void p_optval_default(struct sc_call *c, uint64_t addr, int len)
{
	if (len == (int)sizeof(int))
		p_int_at(c, addr);
	else
		p_buf(c, addr, len);
}

static void p_setsockopt_val(struct sc_call *c, unsigned level, unsigned name, uint64_t addr,
			     int len)
{
	if (!addr) {
		p_optval_default(c, addr, len);
		return;
	}
	if (level == SOL_SOCKET && name == SO_LINGER) {
		if (len < (int)sizeof(struct linger))
			p_addr(c, addr);
		else
			p_linger(c, addr);
		return;
	}
	if (is_fprog_opt(level, name)) {
		if (len != (int)sizeof(struct sock_fprog))
			p_addr(c, addr);
		else
			p_sock_fprog(c, addr);
		return;
	}
	if (level == SOL_SOCKET && name == 74 /* SO_TXREHASH */) {
		if (len < (int)sizeof(int))
			p_addr(c, addr);
		else
			p_txrehash_at(c, addr);
		return;
	}
	if ((level == SOL_SOCKET && so_int_like(name)) || level == SOL_NETLINK) {
		if (len < (int)sizeof(int))
			p_addr(c, addr);
		else
			p_int_at(c, addr);
		return;
	}
	if (level == SOL_PACKET && p_packet_optval(c, name, addr, len))
		return;
	if (level == SOL_RAW && name == 1 /* ICMP_FILTER */) {
		if (len < (int)sizeof(uint32_t))
			p_addr(c, addr);
		else
			p_icmp_filter(c, addr);
		return;
	}
	if (level == SOL_IP && (name == IP_ADD_MEMBERSHIP || name == IP_DROP_MEMBERSHIP)) {
		if (len < (int)sizeof(struct ip_mreq))
			p_addr(c, addr);
		else
			p_mreq(c, addr);
		return;
	}
	if (level == SOL_IPV6 && (name == IPV6_ADD_MEMBERSHIP || name == IPV6_DROP_MEMBERSHIP ||
				  name == IPV6_JOIN_ANYCAST || name == IPV6_LEAVE_ANYCAST)) {
		if (len < (int)sizeof(struct ipv6_mreq))
			p_addr(c, addr);
		else
			p_mreq6(c, addr);
		return;
	}
	if ((level == SOL_IP || level == SOL_IPV6) &&
	    (name == MCAST_JOIN_GROUP || name == MCAST_LEAVE_GROUP)) {
		if (len < (int)sizeof(struct group_req))
			p_addr(c, addr);
		else
			p_group_req(c, addr);
		return;
	}
	p_optval_default(c, addr, len);
}

SC_DECODER(setsockopt, MEM_NBUF_IN(3, 4, OPTVAL_MAX),
	   { .arg = 3, .off = offsetof(struct sock_fprog, filter), .kind = SC_MEM_DEREF, .guess = true,
	     .when = SC_AT_ENTRY, .size = BPF_MAX_INSNS * BPF_INSN_SIZE, .len_fn = fprog_insns_len })
{
	p_fd_level_name(c, false);
	p_setsockopt_val(c, (unsigned)c->args[1], (unsigned)c->args[2], c->args[3],
			 (int)c->args[4]);
	out(c, ", %d", (int)c->args[4]);
	return SC_DONE;
}

static void p_ucred_at(struct sc_call *c, uint64_t addr)
{
	struct ucred uc;
	if (p_fetch(c, addr, &uc, sizeof(uc)) < 0)
		return;
	out(c, "{pid=");
	p_pid(c, uc.pid, SC_PT_TGID);
	out(c, ", uid=");
	out(c, uc.uid == (uid_t)-1 ? "-1" : "%u", uc.uid);
	out(c, ", gid=");
	out(c, uc.gid == (gid_t)-1 ? "-1" : "%u", uc.gid);
	out(c, "}");
}

static void p_so_error(struct sc_call *c, uint64_t addr, int len)
{
	int err;
	if (len < (int)sizeof(err)) {
		p_hex_bytes(c, addr, len);
		return;
	}
	if (p_fetch(c, addr, &err, sizeof(err)) < 0)
		return;
	const char *name = sc_errname(err);
	if (name)
		out(c, "[%s]", name);
	else
		out(c, "[%d]", err);
}

/* How p_int_fields_partial prints whole fields. */
enum field_kind {
	FIELDS_SIGNED,
	FIELDS_IDS,		/* pid, then uid/gid: unsigned unless -1 */
	FIELDS_UNSIGNED,
};

/*
 * A struct of int fields the kernel wrote only rlen bytes of: the whole
 * fields, then the part of the next one as hex bytes (strace's way).
 */
static void p_int_fields_partial(struct sc_call *c, uint64_t addr, int rlen,
				 const char *const *names, int nfields, enum field_kind kind)
{
	out(c, "{");
	for (int i = 0; i < nfields && i * 4 < rlen; i++) {
		int v;
		out(c, "%s%s=", i ? ", " : "", names[i]);
		if (rlen < (i + 1) * 4) {
			p_hex_bytes(c, addr + (uint64_t)i * 4, rlen - i * 4);
			break;
		}
		if (p_fetch(c, addr + (uint64_t)i * 4, &v, sizeof(v)) < 0)
			break;
		if (kind == FIELDS_IDS && i == 0)	/* ucred's pid */
			p_pid(c, v, SC_PT_TGID);
		else if (kind == FIELDS_UNSIGNED || (kind == FIELDS_IDS && v != -1))
			out(c, "%u", (unsigned)v);
		else
			out(c, "%d", v);
	}
	out(c, "}");
}

static const char *const linger_fields[] = { "l_onoff", "l_linger" };
static const char *const ucred_fields[] = { "pid", "uid", "gid" };
static const char *const tpacket_stats_fields[] = { "tp_packets", "tp_drops", "tp_freeze_q_cnt" };

static void p_getsockopt_val(struct sc_call *c, unsigned level, unsigned name, uint64_t addr,
			     int ulen, int rlen)
{
	if (ulen <= 0 || rlen <= 0 || !addr) {
		p_addr(c, addr);
		return;
	}
	if (level == SOL_SOCKET && name == SO_GET_FILTER) {
		pn_sock_filters(c, addr, (unsigned)rlen);
		return;
	}
	if (level == SOL_SOCKET) {
		if (name == SO_LINGER && rlen >= (int)sizeof(struct linger)) {
			p_linger(c, addr);
			return;
		}
		if (name == SO_PEERCRED && rlen >= (int)sizeof(struct ucred)) {
			p_ucred_at(c, addr);
			return;
		}
		if (name == SO_LINGER) {
			p_int_fields_partial(c, addr, rlen, linger_fields, 2, FIELDS_SIGNED);
			return;
		}
		if (name == SO_PEERCRED) {
			p_int_fields_partial(c, addr, rlen, ucred_fields, 3, FIELDS_IDS);
			return;
		}
		if (name == SO_ERROR) {
			p_so_error(c, addr, rlen);
			return;
		}
		if (name == 74 /* SO_TXREHASH */ && rlen >= (int)sizeof(int)) {
			p_txrehash_at(c, addr);
			return;
		}
		if (so_int_like(name) || name == 74) {
			if (rlen >= (int)sizeof(int))
				p_int_at(c, addr);
			else
				p_hex_bytes(c, addr, rlen);
			return;
		}
	}
	if (level == SOL_NETLINK) {
		p_int_at(c, addr);
		return;
	}
	if (level == SOL_PACKET && name == PACKET_STATISTICS) {
		p_int_fields_partial(c, addr, rlen, tpacket_stats_fields, 3, FIELDS_UNSIGNED);
		return;
	}
	p_optval_default(c, addr, rlen);
}

SC_DECODER(getsockopt, MEM_BYTES_INOUT(4, sizeof(int)), MEM_NBUF_OUT_PTR(3, 4, OPTVAL_MAX),
	   { .arg = 3, .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_FN,
	     .len_fn = get_filter_len, .size = BPF_MAX_INSNS * BPF_INSN_SIZE })
{
	int ulen, rlen;
	if (c->entering) {
		p_fd_level_name(c, true);
		if (c->args[4] && sc_mem_read(c, c->args[4], &ulen, sizeof(ulen)) == 0) {
			pn_save_int(c, ulen);
			return 0;
		}
		p_addr(c, c->args[3]);
		p_sep(c);
		p_addr(c, c->args[4]);
		return SC_DONE;
	}
	ulen = pn_saved_int(c);
	if (sc_failed(c) || sc_mem_read(c, c->args[4], &rlen, sizeof(rlen)) < 0) {
		p_addr(c, c->args[3]);
		out(c, ", [%d]", ulen);
		return 0;
	}
	p_getsockopt_val(c, (unsigned)c->args[1], (unsigned)c->args[2], c->args[3], ulen, rlen);
	if (ulen != rlen)
		out(c, ", [%d => %d]", ulen, rlen);
	else
		out(c, ", [%d]", rlen);
	return 0;
}

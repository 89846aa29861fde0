/*
 * NETLINK_SOCK_DIAG: requests and replies open with the address family
 * they are about; the family picks the header (unix_diag_req, inet_diag_msg,
 * ...), NLM_F_REQUEST tells a request from a reply.
 */
#include <arpa/inet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/packet_diag.h>
#include <linux/smc_diag.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <string.h>
#include <sys/socket.h>

#include "family.h"
#include "syscalls/print_bpf.h"
#include "syscalls/print_net.h"

#ifndef AF_SMC
#define AF_SMC 43
#endif

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NAMES(name, xl, dflt) \
	static const struct nla_table name = { &xl, dflt, NULL, 0 }

#define TABLE(name, xl, dflt, pol) \
	static const struct nla_table name = { &xl, dflt, pol, N(pol) }
#define STRUCT(T, ...) { nla_struct, &(const struct nla_struct)NLA_STRUCT(T, __VA_ARGS__) }

static bool p_u32_elem(struct sc_call *c, const void *elem, size_t size, void *data)
{
	uint32_t v;
	(void)size;
	(void)data;
	memcpy(&v, elem, sizeof(v));
	out(c, "%u", v);
	return true;
}

static bool p_x64_elem(struct sc_call *c, const void *elem, size_t size, void *data)
{
	uint64_t v;
	(void)size;
	(void)data;
	memcpy(&v, elem, sizeof(v));
	out(c, "%#llx", (unsigned long long)v);
	return true;
}

/* [1, 2]: an array of u32 (inodes of pending connections). */
static bool nla_u32_array(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (len < 4)
		return false;
	pn_array(c, addr, len / 4, 4, p_u32_elem, NULL);
	return true;
}

/* [0xdeadbeef]: a bitmap in u64 words (netlink groups). */
static bool nla_x64_array(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (len < 8)
		return false;
	pn_array(c, addr, len / 8, 8, p_x64_elem, NULL);
	return true;
}

static bool p_unix_vfs(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct unix_diag_vfs v;
	(void)arg;
	int got = nla_read(c, addr, len, &v, sizeof(v));
	if (got <= 0)
		return got == 0;
	out(c, "{udiag_vfs_dev=");
	p_dev(c, v.udiag_vfs_dev);
	out(c, ", udiag_vfs_ino=%u}", v.udiag_vfs_ino);
	return true;
}

static const struct nla_policy unix_pol[] = {
	[UNIX_DIAG_NAME] = { nla_str, NULL },
	[UNIX_DIAG_VFS] = { p_unix_vfs, NULL },
	[UNIX_DIAG_PEER] = { nla_u32, NULL },
	[UNIX_DIAG_ICONS] = { nla_u32_array, NULL },
	[UNIX_DIAG_RQLEN] = STRUCT(struct unix_diag_rqlen,
				   NLA_F(struct unix_diag_rqlen, udiag_rqueue, NF_U),
				   NLA_F(struct unix_diag_rqlen, udiag_wqueue, NF_U)),
	[UNIX_DIAG_MEMINFO] = { nla_meminfo, NULL },
	[UNIX_DIAG_SHUTDOWN] = { nla_u8, NULL },
	[UNIX_DIAG_UID] = { nla_u32, NULL },
};
TABLE(unix_diag_attrs, xlat_unix_diag_attrs, "UNIX_DIAG_???", unix_pol);

static const struct nla_policy netlink_pol[] = {
	[NETLINK_DIAG_MEMINFO] = { nla_meminfo, NULL },
	[NETLINK_DIAG_GROUPS] = { nla_x64_array, NULL },
	[NETLINK_DIAG_RX_RING] = STRUCT(struct netlink_diag_ring,
					NLA_F(struct netlink_diag_ring, ndr_block_size, NF_U),
					NLA_F(struct netlink_diag_ring, ndr_block_nr, NF_U),
					NLA_F(struct netlink_diag_ring, ndr_frame_size, NF_U),
					NLA_F(struct netlink_diag_ring, ndr_frame_nr, NF_U)),
	[NETLINK_DIAG_TX_RING] = STRUCT(struct netlink_diag_ring,
					NLA_F(struct netlink_diag_ring, ndr_block_size, NF_U),
					NLA_F(struct netlink_diag_ring, ndr_block_nr, NF_U),
					NLA_F(struct netlink_diag_ring, ndr_frame_size, NF_U),
					NLA_F(struct netlink_diag_ring, ndr_frame_nr, NF_U)),
	[NETLINK_DIAG_FLAGS] = { nla_flags32, &(const struct nla_xlat){ &xlat_netlink_diag_flags,
									"NDIAG_FLAG_???" } },
};
TABLE(netlink_diag_attrs, xlat_netlink_diag_attrs, "NETLINK_DIAG_???", netlink_pol);
static bool p_mclist_elem(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct packet_diag_mclist m;
	(void)size;
	(void)data;
	memcpy(&m, elem, sizeof(m));
	out(c, "{pdmc_index=");
	pn_ifindex(c, m.pdmc_index);
	out(c, ", pdmc_count=%u, pdmc_type=%u, pdmc_alen=%u, pdmc_addr=", m.pdmc_count, m.pdmc_type,
	    m.pdmc_alen);
	unsigned n = m.pdmc_alen < sizeof(m.pdmc_addr) ? m.pdmc_alen : sizeof(m.pdmc_addr);
	struct sc_fmt hex = c->fmt ? *c->fmt : (struct sc_fmt){ .strsize = 32 };
	const struct sc_fmt *saved = c->fmt;
	hex.xflag = 2;
	hex.strsize = n;
	c->fmt = &hex;
	p_quoted(c, m.pdmc_addr, n, false);
	c->fmt = saved;
	out(c, "}");
	return true;
}

static bool p_mclist(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (len < sizeof(struct packet_diag_mclist))
		return false;
	pn_array(c, addr, len / sizeof(struct packet_diag_mclist), sizeof(struct packet_diag_mclist),
		 p_mclist_elem, NULL);
	return true;
}

static bool p_filter(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (len < BPF_INSN_SIZE)
		return false;
	pn_sock_filters(c, addr, len / BPF_INSN_SIZE);
	return true;
}

#define PDR(f) NLA_F(struct packet_diag_ring, f, NF_U)
#define RING STRUCT(struct packet_diag_ring, PDR(pdr_block_size), PDR(pdr_block_nr), \
		    PDR(pdr_frame_size), PDR(pdr_frame_nr), PDR(pdr_retire_tmo), \
		    PDR(pdr_sizeof_priv), PDR(pdr_features))

static const struct nla_policy packet_pol[] = {
	[PACKET_DIAG_INFO] = STRUCT(struct packet_diag_info,
		NLA_F(struct packet_diag_info, pdi_index, NF_IFINDEX),
		NLA_FX(struct packet_diag_info, pdi_version, NF_XVAL, &xlat_packet_versions, "TPACKET_???"),
		NLA_F(struct packet_diag_info, pdi_reserve, NF_U),
		NLA_F(struct packet_diag_info, pdi_copy_thresh, NF_U),
		NLA_F(struct packet_diag_info, pdi_tstamp, NF_U),
		NLA_FX(struct packet_diag_info, pdi_flags, NF_FLAGS, &xlat_packet_diag_info_flags, "PDI_???")),
	[PACKET_DIAG_MCLIST] = { p_mclist, NULL },
	[PACKET_DIAG_RX_RING] = RING,
	[PACKET_DIAG_TX_RING] = RING,
	[PACKET_DIAG_FANOUT] = { nla_u32, NULL },
	[PACKET_DIAG_UID] = { nla_u32, NULL },
	[PACKET_DIAG_MEMINFO] = { nla_meminfo, NULL },
	[PACKET_DIAG_FILTER] = { p_filter, NULL },
};
TABLE(packet_diag_attrs, xlat_packet_diag_attrs, "PACKET_DIAG_???", packet_pol);
static void p_bc_op(struct sc_call *c, const struct inet_diag_bc_op *op)
{
	out(c, "{code=");
	p_xval(c, &xlat_inet_diag_bytecodes, op->code, "INET_DIAG_BC_???");
	out(c, ", yes=%u, no=%u}", op->yes, op->no);
}

/* addr=inet_addr("1.2.3.4"), inet_pton(AF_INET6, "::1", &addr), or its bytes. */
static void p_cond_addr(struct sc_call *c, uint8_t family, uint64_t addr, unsigned len)
{
	unsigned char a[16];
	unsigned need = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	if (!need || len < need) {
		out(c, "addr=");
		nl_hex(c, addr, len);
	} else if (!nl_read(c, addr, a, need)) {
		out(c, "addr=");
		p_addr(c, addr);
	} else {
		pn_inet_addr(c, family, a, "addr");
	}
}

/* What follows a bytecode operation: its condition, by operation. */
static void p_bc_data(struct sc_call *c, uint8_t code, uint64_t addr, unsigned len)
{
	switch (code) {
	case INET_DIAG_BC_S_COND:
	case INET_DIAG_BC_D_COND: {
		struct inet_diag_hostcond h;
		if (len < sizeof(h)) {
			nl_hex(c, addr, len);
		} else if (!nl_read(c, addr, &h, sizeof(h))) {
			p_addr(c, addr);
		} else {
			out(c, "{family=");
			p_xval(c, &xlat_addrfams, h.family, "AF_???");
			out(c, ", prefix_len=%u, port=%d", h.prefix_len, h.port);
			if (len > sizeof(h)) {
				out(c, ", ");
				p_cond_addr(c, h.family, addr + sizeof(h), len - sizeof(h));
			}
			out(c, "}");
		}
		return;
	}
	case INET_DIAG_BC_DEV_COND: {
		uint32_t idx;
		if (len < sizeof(idx))
			nl_hex(c, addr, len);
		else if (!nl_read(c, addr, &idx, sizeof(idx)))
			p_addr(c, addr);
		else
			pn_ifindex(c, idx);
		return;
	}
	case INET_DIAG_BC_S_GE:
	case INET_DIAG_BC_S_LE:
	case INET_DIAG_BC_D_GE:
	case INET_DIAG_BC_D_LE: {
		struct inet_diag_bc_op op;
		if (len < sizeof(op))
			nl_hex(c, addr, len);
		else if (!nl_read(c, addr, &op, sizeof(op)))
			p_addr(c, addr);
		else
			p_bc_op(c, &op);
		return;
	}
	case INET_DIAG_BC_MARK_COND: {
		struct inet_diag_markcond m;
		if (len < sizeof(m))
			nl_hex(c, addr, len);
		else if (!nl_read(c, addr, &m, sizeof(m)))
			p_addr(c, addr);
		else
			out(c, "{mark=%u, mask=%u}", m.mark, m.mask);
		return;
	}
	}
	nl_hex(c, addr, len);
}

/* INET_DIAG_REQ_BYTECODE: an operation, then the condition it tests. */
static bool p_bytecode(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct inet_diag_bc_op op;
	(void)arg;
	int got = nla_read(c, addr, len, &op, sizeof(op));
	if (got <= 0)
		return got == 0;
	p_bc_op(c, &op);
	if (len > sizeof(op)) {
		out(c, ", ");
		p_bc_data(c, op.code, addr + sizeof(op), len - sizeof(op));
	}
	return true;
}

static const struct nla_policy inet_req_pol[] = {
	[INET_DIAG_REQ_BYTECODE] = { p_bytecode, NULL },
	[INET_DIAG_REQ_PROTOCOL] = { nla_xval, &(const struct nla_xlat){ &xlat_inet_protocols,
									"IPPROTO_???" } },
};
TABLE(inet_diag_req_attrs, xlat_inet_diag_req_attrs, "INET_DIAG_REQ_???", inet_req_pol);

static void p_cookie(struct sc_call *c, const char *name, const uint32_t *ck)
{
	out(c, "%s=[%u, %u]", name, ck[0], ck[1]);
}

static void p_states(struct sc_call *c, const char *name, uint32_t states)
{
	out(c, "%s=", name);
	p_flags(c, &xlat_tcp_state_flags, states, "1<<TCP_???");
}

/* id={idiag_sport=htons(80), idiag_dport=..., idiag_src=..., idiag_dst=..., idiag_if=..., idiag_cookie=[...]} */
static void p_sockid(struct sc_call *c, const struct inet_diag_sockid *id, uint8_t family)
{
	out(c, "id={idiag_sport=htons(%u), idiag_dport=htons(%u), ", ntohs(id->idiag_sport),
	    ntohs(id->idiag_dport));
	if (family == AF_INET || family == AF_INET6) {
		pn_inet_addr(c, family, id->idiag_src, "idiag_src");
		out(c, ", ");
		pn_inet_addr(c, family, id->idiag_dst, "idiag_dst");
	} else {
		out(c, "idiag_src=");
		p_quoted(c, (const unsigned char *)id->idiag_src, sizeof(id->idiag_src), false);
		out(c, ", idiag_dst=");
		p_quoted(c, (const unsigned char *)id->idiag_dst, sizeof(id->idiag_dst), false);
	}
	out(c, ", idiag_if=");
	pn_ifindex(c, id->idiag_if);
	out(c, ", ");
	p_cookie(c, "idiag_cookie", id->idiag_cookie);
	out(c, "}");
}

static void unix_req(struct sc_call *c, const void *buf)
{
	struct unix_diag_req r;
	memcpy(&r, buf, sizeof(r));
	out(c, "sdiag_protocol=%u, ", r.sdiag_protocol);
	p_states(c, "udiag_states", r.udiag_states);
	out(c, ", udiag_ino=%u, udiag_show=", r.udiag_ino);
	p_flags(c, &xlat_unix_diag_show, r.udiag_show, "UDIAG_SHOW_???");
	out(c, ", ");
	p_cookie(c, "udiag_cookie", r.udiag_cookie);
}

static void unix_msg(struct sc_call *c, const void *buf)
{
	struct unix_diag_msg m;
	memcpy(&m, buf, sizeof(m));
	out(c, "udiag_type=");
	p_xval(c, &xlat_socktypes, m.udiag_type, "SOCK_???");
	out(c, ", udiag_state=");
	p_xval(c, &xlat_tcp_states, m.udiag_state, "TCP_???");
	out(c, ", udiag_ino=%u, ", m.udiag_ino);
	p_cookie(c, "udiag_cookie", m.udiag_cookie);
}

static void p_nl_protocol(struct sc_call *c, uint8_t proto)
{
	if (proto == NDIAG_PROTO_ALL)
		out(c, "NDIAG_PROTO_ALL");
	else
		p_xval(c, &xlat_netlink_protocols, proto, "NETLINK_???");
}

static void netlink_req(struct sc_call *c, const void *buf)
{
	struct netlink_diag_req r;
	memcpy(&r, buf, sizeof(r));
	out(c, "sdiag_protocol=");
	p_nl_protocol(c, r.sdiag_protocol);
	out(c, ", ndiag_ino=%u, ndiag_show=", r.ndiag_ino);
	p_flags(c, &xlat_netlink_diag_show, r.ndiag_show, "NDIAG_SHOW_???");
	out(c, ", ");
	p_cookie(c, "ndiag_cookie", r.ndiag_cookie);
}

static void netlink_msg(struct sc_call *c, const void *buf)
{
	struct netlink_diag_msg m;
	memcpy(&m, buf, sizeof(m));
	out(c, "ndiag_type=");
	p_xval(c, &xlat_socktypes, m.ndiag_type, "SOCK_???");
	out(c, ", ndiag_protocol=");
	p_xval(c, &xlat_netlink_protocols, m.ndiag_protocol, "NETLINK_???");
	out(c, ", ndiag_state=");
	p_xval(c, &xlat_netlink_states, m.ndiag_state, "NETLINK_???");
	out(c, ", ndiag_portid=%u, ndiag_dst_portid=%u, ndiag_dst_group=%u, ndiag_ino=%u, ",
	    m.ndiag_portid, m.ndiag_dst_portid, m.ndiag_dst_group, m.ndiag_ino);
	p_cookie(c, "ndiag_cookie", m.ndiag_cookie);
}

static void packet_req(struct sc_call *c, const void *buf)
{
	struct packet_diag_req r;
	memcpy(&r, buf, sizeof(r));
	out(c, "sdiag_protocol=%#x, pdiag_ino=%u, pdiag_show=", r.sdiag_protocol, r.pdiag_ino);
	p_flags(c, &xlat_packet_diag_show, r.pdiag_show, "PACKET_SHOW_???");
	out(c, ", ");
	p_cookie(c, "pdiag_cookie", r.pdiag_cookie);
}

static void packet_msg(struct sc_call *c, const void *buf)
{
	struct packet_diag_msg m;
	memcpy(&m, buf, sizeof(m));
	out(c, "pdiag_type=");
	p_xval(c, &xlat_socktypes, m.pdiag_type, "SOCK_???");
	out(c, ", pdiag_num=");
	p_xval(c, &xlat_ethernet_protocols, m.pdiag_num, "ETH_P_???");
	out(c, ", pdiag_ino=%u, ", m.pdiag_ino);
	p_cookie(c, "pdiag_cookie", m.pdiag_cookie);
}

static void inet_req_v2(struct sc_call *c, const void *buf)
{
	struct inet_diag_req_v2 r;
	memcpy(&r, buf, sizeof(r));
	out(c, "sdiag_protocol=");
	p_xval(c, &xlat_inet_protocols, r.sdiag_protocol, "IPPROTO_???");
	out(c, ", idiag_ext=");
	p_flags(c, &xlat_inet_diag_extended_flags, r.idiag_ext, "1<<INET_DIAG_\?\?\?-1");
	out(c, ", ");
	p_states(c, "idiag_states", r.idiag_states);
	out(c, ", ");
	p_sockid(c, &r.id, r.sdiag_family);
}

static void inet_req_compat(struct sc_call *c, const void *buf)
{
	struct inet_diag_req r;
	memcpy(&r, buf, sizeof(r));
	out(c, "idiag_src_len=%u, idiag_dst_len=%u, idiag_ext=", r.idiag_src_len, r.idiag_dst_len);
	p_flags(c, &xlat_inet_diag_extended_flags, r.idiag_ext, "1<<INET_DIAG_\?\?\?-1");
	out(c, ", ");
	p_sockid(c, &r.id, r.idiag_family);
	out(c, ", ");
	p_states(c, "idiag_states", r.idiag_states);
	out(c, ", idiag_dbs=%u", r.idiag_dbs);
}

static void inet_msg(struct sc_call *c, const void *buf)
{
	struct inet_diag_msg m;
	memcpy(&m, buf, sizeof(m));
	out(c, "idiag_state=");
	p_xval(c, &xlat_tcp_states, m.idiag_state, "TCP_???");
	out(c, ", idiag_timer=%u, idiag_retrans=%u, ", m.idiag_timer, m.idiag_retrans);
	p_sockid(c, &m.id, m.idiag_family);
	out(c, ", idiag_expires=%u, idiag_rqueue=%u, idiag_wqueue=%u, idiag_uid=%u, idiag_inode=%u",
	    m.idiag_expires, m.idiag_rqueue, m.idiag_wqueue, m.idiag_uid, m.idiag_inode);
}

static void smc_req(struct sc_call *c, const void *buf)
{
	struct smc_diag_req r;
	memcpy(&r, buf, sizeof(r));
	out(c, "diag_ext=");
	p_flags(c, &xlat_smc_diag_extended_flags, r.diag_ext, "1<<SMC_DIAG_\?\?\?-1");
	out(c, ", ");
	/* the sockid's addresses are those of the TCP connection underneath: IPv4 */
	p_sockid(c, &r.id, AF_INET);
}

static void smc_msg(struct sc_call *c, const void *buf)
{
	struct smc_diag_msg m;
	memcpy(&m, buf, sizeof(m));
	out(c, "diag_state=");
	p_xval(c, &xlat_smc_states, m.diag_state, "SMC_???");
	out(c, ", diag_fallback=");
	p_xval(c, &xlat_smc_diag_mode, m.diag_mode, "SMC_DIAG_MODE_???");
	out(c, ", diag_shutdown=%u, ", m.diag_shutdown);
	p_sockid(c, &m.id, AF_INET);
	out(c, ", diag_uid=%u, diag_inode=%llu", m.diag_uid, (unsigned long long)m.diag_inode);
}

#define HDR(field, T, fn, attrs) { field, sizeof(T), fn, attrs }

static const struct nl_hdr_desc diag_hdrs[][2] = {
	/* [family] = { request, reply } */
	[AF_UNIX] = { HDR("sdiag_family", struct unix_diag_req, unix_req, NULL),
		      HDR("udiag_family", struct unix_diag_msg, unix_msg, &unix_diag_attrs) },
	[AF_INET] = { HDR("sdiag_family", struct inet_diag_req_v2, inet_req_v2, &inet_diag_req_attrs),
		      HDR("idiag_family", struct inet_diag_msg, inet_msg, &nl_inet_diag_attrs) },
	[AF_INET6] = { HDR("sdiag_family", struct inet_diag_req_v2, inet_req_v2, &inet_diag_req_attrs),
		       HDR("idiag_family", struct inet_diag_msg, inet_msg, &nl_inet_diag_attrs) },
	[AF_NETLINK] = { HDR("sdiag_family", struct netlink_diag_req, netlink_req, NULL),
			 HDR("ndiag_family", struct netlink_diag_msg, netlink_msg, &netlink_diag_attrs) },
	[AF_PACKET] = { HDR("sdiag_family", struct packet_diag_req, packet_req, NULL),
			HDR("pdiag_family", struct packet_diag_msg, packet_msg, &packet_diag_attrs) },
	[AF_SMC] = { HDR("diag_family", struct smc_diag_req, smc_req, NULL),
		     HDR("diag_family", struct smc_diag_msg, smc_msg, &nl_smc_diag_attrs) },
};

static const struct nl_hdr_desc inet_compat_hdr =
	HDR("idiag_family", struct inet_diag_req, inet_req_compat, &inet_diag_req_attrs);

bool nl_sock_diag_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
			  unsigned len)
{
	uint8_t family;
	if (type == NLMSG_DONE)
		return false;
	if (!nl_read(c, addr, &family, 1)) {
		p_addr(c, addr);
		return true;
	}
	bool request = flags & NLM_F_REQUEST;
	const struct nl_hdr_desc *d = NULL;
	if (family < N(diag_hdrs) && len > 1) {
		d = &diag_hdrs[family][request ? 0 : 1];
		if (request && (family == AF_INET || family == AF_INET6) &&
		    (type == TCPDIAG_GETSOCK || type == DCCPDIAG_GETSOCK))
			d = &inet_compat_hdr;
	}
	if (d && d->family_field)
		nl_family_hdr(c, d, addr, len);
	else
		nl_family_only(c, family, addr, len);
	return true;
}

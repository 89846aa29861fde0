/*
 * The netlink protocols: each one's message types, the flags each kind of
 * request takes (GET, NEW, DEL), and its payload decoder.  Protocols with
 * small payloads (SELinux, netfilter's nfgenmsg) are decoded here.
 */
#include <arpa/inet.h>
#include <linux/netfilter/nfnetlink.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/selinux_netlink.h>
#include <linux/xfrm.h>

#include "netlink.h"

/* Request kinds named by a table of their own flags. */
#define NEW (&xlat_nl_new_flags)
#define DEL (&xlat_nl_delete_flags)
#define GET (&xlat_nl_get_flags)

static const struct xlat *route_flags(uint16_t type)
{
	static const struct xlat *const by_low_bits[] = { NEW, DEL, GET, NULL };
	if (type == RTM_DELACTION)	/* takes NLM_F_ROOT */
		return GET;
	return by_low_bits[type & 3];
}

static const struct xlat *sock_diag_flags(uint16_t type)
{
	(void)type;
	return GET;
}

static const struct xlat *xfrm_flags(uint16_t type)
{
	switch (type) {
	case XFRM_MSG_NEWSA: case XFRM_MSG_NEWPOLICY: case XFRM_MSG_NEWAE:
	case XFRM_MSG_NEWSADINFO: case XFRM_MSG_NEWSPDINFO:
		return NEW;
	case XFRM_MSG_DELSA: case XFRM_MSG_DELPOLICY:
		return DEL;
	case XFRM_MSG_GETSA: case XFRM_MSG_GETPOLICY: case XFRM_MSG_GETAE:
	case XFRM_MSG_GETSADINFO: case XFRM_MSG_GETSPDINFO:
		return GET;
	}
	return NULL;
}

/* nfnetlink: subsystem in the high byte, its message in the low one. */
struct nf_subsys {
	const struct xlat *types;
	const char *dflt;
	/* The kind of each message type (index), NULL past the end. */
	const struct xlat *const *kinds;
	unsigned nkinds;
};

#define KINDS(...) (const struct xlat *const[]){ __VA_ARGS__ }, \
	sizeof((const struct xlat *const[]){ __VA_ARGS__ }) / sizeof(const struct xlat *)

static const struct nf_subsys nf_subsys[] = {
	[NFNL_SUBSYS_CTNETLINK] = { &xlat_nf_ctnetlink_msg_types, "IPCTNL_MSG_CT_???",
				    KINDS(NEW, GET, DEL, GET, GET, GET, GET, GET) },
	[NFNL_SUBSYS_CTNETLINK_EXP] = { &xlat_nf_ctnetlink_exp_msg_types, "IPCTNL_MSG_EXP_???",
					KINDS(NEW, GET, DEL, GET) },
	[NFNL_SUBSYS_QUEUE] = { &xlat_nf_queue_msg_types, "NFQNL_MSG_???", NULL, 0 },
	[NFNL_SUBSYS_ULOG] = { &xlat_nf_ulog_msg_types, "NFULNL_MSG_???", NULL, 0 },
	[NFNL_SUBSYS_OSF] = { &xlat_nf_osf_msg_types, "OSF_MSG_???", NULL, 0 },
	[NFNL_SUBSYS_IPSET] = { &xlat_nf_ipset_msg_types, "IPSET_CMD_???", NULL, 0 },
	[NFNL_SUBSYS_ACCT] = { &xlat_nf_acct_msg_types, "NFNL_MSG_ACCT_???",
			       KINDS(NEW, GET, GET, DEL) },
	[NFNL_SUBSYS_CTNETLINK_TIMEOUT] = { &xlat_nf_cttimeout_msg_types, "IPCTNL_MSG_TIMEOUT_???",
					    KINDS(NEW, GET, DEL) },
	[NFNL_SUBSYS_CTHELPER] = { &xlat_nf_cthelper_msg_types, "NFNL_MSG_CTHELPER_???",
				   KINDS(NEW, GET, DEL) },
	/* NEWTABLE GETTABLE DELTABLE, CHAIN, RULE, SET, SETELEM, NEWGEN GETGEN TRACE,
	   NEWOBJ GETOBJ DELOBJ GETOBJ_RESET, NEWFLOWTABLE GETFLOWTABLE DELFLOWTABLE */
	[NFNL_SUBSYS_NFTABLES] = { &xlat_nf_nftables_msg_types, "NFT_MSG_???",
				   KINDS(NEW, GET, DEL, NEW, GET, DEL, NEW, GET, DEL, NEW, GET, DEL,
					 NEW, GET, DEL, NEW, GET, NULL, NEW, GET, DEL, GET,
					 NEW, GET, DEL) },
	[NFNL_SUBSYS_NFT_COMPAT] = { &xlat_nf_nft_compat_msg_types, "NFNL_MSG_COMPAT_???",
				     KINDS(GET) },
	[NFNL_SUBSYS_HOOK] = { &xlat_nf_hook_msg_types, "NFT_MSG_HOOK_???", KINDS(GET) },
};

#define NF_NSUBSYS (sizeof(nf_subsys) / sizeof(nf_subsys[0]))

static const struct xlat *netfilter_flags(uint16_t type)
{
	unsigned sub = type >> 8, msg = type & 0xff;
	if (sub < NF_NSUBSYS && msg < nf_subsys[sub].nkinds)
		return nf_subsys[sub].kinds[msg];
	return NULL;
}

/* A name printed in -X style for a value no table holds under that name. */
static void p_named(struct sc_call *c, uint64_t v, const char *name)
{
	if (xlat_style == XLAT_STYLE_RAW)
		out(c, "%#llx", (unsigned long long)v);
	else if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%#llx /* %s */", (unsigned long long)v, name);
	else
		out(c, "%s", name);
}

/* NFNL_SUBSYS_CTNETLINK<<8|IPCTNL_MSG_CT_NEW */
static void netfilter_type(struct sc_call *c, uint16_t type)
{
	const char *ctl = xlat_str(&xlat_nl_netfilter_msg_types, type);
	unsigned sub = type >> 8, msg = type & 0xff;
	if (ctl) {
		p_named(c, type, ctl);
		return;
	}
	p_xval(c, &xlat_nl_netfilter_subsys_ids, sub, "NFNL_SUBSYS_???");
	out(c, "<<8|");
	if (sub < NF_NSUBSYS && nf_subsys[sub].types)
		p_xval(c, nf_subsys[sub].types, msg, nf_subsys[sub].dflt);
	else
		out(c, "%#x", msg);
}

bool nl_netfilter_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
			  unsigned len)
{
	struct nfgenmsg m;
	(void)flags;
	if (type == NLMSG_DONE)
		return false;
	if (len < sizeof(m)) {
		nl_hex(c, addr, len);
		return true;
	}
	if (!nl_read(c, addr, &m, sizeof(m))) {
		p_addr(c, addr);
		return true;
	}
	uint16_t res_id = ntohs(m.res_id);
	bool nftables = type >> 8 == NFNL_SUBSYS_NFTABLES;
	out(c, "{nfgen_family=");
	p_xval(c, &xlat_addrfams, m.nfgen_family, "AF_???");
	out(c, ", version=");
	p_xval(c, &xlat_nfnl_versions, m.version, "NFNETLINK_???");
	out(c, ", res_id=");
	/* nftables once sent res_id in host order: strace names both forms */
	if (nftables && res_id == NFNL_SUBSYS_NFTABLES)
		p_named(c, m.res_id, "htons(NFNL_SUBSYS_NFTABLES)");
	else if (nftables && m.res_id == NFNL_SUBSYS_NFTABLES)
		p_named(c, m.res_id, "NFNL_SUBSYS_NFTABLES");
	else
		out(c, "htons(%u)", res_id);
	out(c, "}");
	unsigned off = NLMSG_ALIGN(sizeof(m));
	if (len > off) {
		static const struct nla_table untyped = { NULL, NULL, NULL, 0 };
		out(c, ", ");
		if (type == NFNL_MSG_BATCH_BEGIN || type == NFNL_MSG_BATCH_END)
			nl_hex(c, addr + off, len - off);
		else
			nl_attrs(c, addr + off, len - off, &untyped);
	}
	return true;
}

bool nl_selinux_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
			unsigned len)
{
	uint32_t v;
	(void)flags;
	if (type != SELNL_MSG_SETENFORCE && type != SELNL_MSG_POLICYLOAD)
		return false;
	if (len < sizeof(v))
		return false;
	if (!nl_read(c, addr, &v, sizeof(v)))
		p_addr(c, addr);
	else if (type == SELNL_MSG_SETENFORCE)
		out(c, "{val=%d}", (int)v);
	else
		out(c, "{seqno=%u}", v);
	return true;
}

static const struct nl_proto_desc protos[] = {
	[NETLINK_ROUTE] = { &xlat_nl_route_types, "RTM_???", route_flags, nl_route_payload, NULL },
	[NETLINK_SOCK_DIAG] = { &xlat_nl_sock_diag_types, "SOCK_DIAG_???", sock_diag_flags,
				nl_sock_diag_payload, NULL },
	[NETLINK_XFRM] = { &xlat_nl_xfrm_types, "XFRM_MSG_???", xfrm_flags, NULL, NULL },
	[NETLINK_SELINUX] = { &xlat_nl_selinux_types, "SELNL_MSG_???", NULL, nl_selinux_payload,
			      NULL },
	[NETLINK_AUDIT] = { &xlat_nl_audit_types, "AUDIT_???", NULL, NULL, NULL },
	[NETLINK_NETFILTER] = { &xlat_nl_netfilter_subsys_ids, "NFNL_SUBSYS_???", netfilter_flags,
				nl_netfilter_payload, netfilter_type },
	[NETLINK_GENERIC] = { &xlat_nl_types, "NLMSG_???", NULL, NULL, nl_genl_type },
};

const struct nl_proto_desc *nl_proto_desc(int proto)
{
	if (proto < 0 || (unsigned)proto >= sizeof(protos) / sizeof(protos[0]) ||
	    !protos[proto].types)
		return NULL;
	return &protos[proto];
}

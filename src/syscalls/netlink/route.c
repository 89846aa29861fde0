/*
 * NETLINK_ROUTE: each message type's family header (ifinfomsg for links,
 * ifaddrmsg for addresses, rtmsg for routes, ...) and the attribute table
 * after it.  The attribute tables are in route_attrs.c.
 */
#include <linux/dcbnl.h>
#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/netconf.h>
#include <linux/netlink.h>
#include <linux/nexthop.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "family.h"
#include "route.h"
#include "syscalls/print_net.h"

#define FIELDS(T, name) static void name(struct sc_call *c, const void *buf_)		\
	{ T m; memcpy(&m, buf_, sizeof(m)); name##_(c, &m); }				\
	static void name##_(struct sc_call *c, const T *m)

static void ifinfomsg_(struct sc_call *c, const struct ifinfomsg *m);
FIELDS(struct ifinfomsg, ifinfomsg)
{
	out(c, "ifi_type=");
	p_xval(c, &xlat_arp_hardware_types, m->ifi_type, "ARPHRD_???");
	out(c, ", ifi_index=");
	pn_ifindex(c, (unsigned)m->ifi_index);
	out(c, ", ifi_flags=");
	p_flags(c, &xlat_iffflags, m->ifi_flags, "IFF_???");
	out(c, ", ifi_change=%#x", m->ifi_change);
}

static void ifaddrmsg_(struct sc_call *c, const struct ifaddrmsg *m);
FIELDS(struct ifaddrmsg, ifaddrmsg)
{
	out(c, "ifa_prefixlen=%u, ifa_flags=", m->ifa_prefixlen);
	p_flags(c, &xlat_ifaddrflags, m->ifa_flags, "IFA_F_???");
	out(c, ", ifa_scope=");
	p_xval(c, &xlat_routing_scopes, m->ifa_scope, NULL);
	out(c, ", ifa_index=");
	pn_ifindex(c, m->ifa_index);
}

static void rtmsg_(struct sc_call *c, const struct rtmsg *m);
FIELDS(struct rtmsg, rtmsg)
{
	out(c, "rtm_dst_len=%u, rtm_src_len=%u, rtm_tos=", m->rtm_dst_len, m->rtm_src_len);
	p_flags(c, &xlat_ip_type_of_services, m->rtm_tos, "IPTOS_TOS_???");
	out(c, ", rtm_table=");
	p_xval(c, &xlat_routing_table_ids, m->rtm_table, NULL);
	out(c, ", rtm_protocol=");
	p_xval(c, &xlat_routing_protocols, m->rtm_protocol, "RTPROT_???");
	out(c, ", rtm_scope=");
	p_xval(c, &xlat_routing_scopes, m->rtm_scope, NULL);
	out(c, ", rtm_type=");
	p_xval(c, &xlat_routing_types, m->rtm_type, "RTN_???");
	out(c, ", rtm_flags=");
	p_flags(c, &xlat_route_flags, m->rtm_flags, "RTM_F_???");
}

static void ndmsg_(struct sc_call *c, const struct ndmsg *m);
FIELDS(struct ndmsg, ndmsg)
{
	out(c, "ndm_ifindex=");
	pn_ifindex(c, (unsigned)m->ndm_ifindex);
	out(c, ", ndm_state=");
	p_flags(c, &xlat_neighbor_cache_entry_states, m->ndm_state, "NUD_???");
	out(c, ", ndm_flags=");
	p_flags(c, &xlat_neighbor_cache_entry_flags, m->ndm_flags, "NTF_???");
	out(c, ", ndm_type=");
	p_xval(c, &xlat_routing_types, m->ndm_type, "RTN_???");
}

static void fib_rule_hdr_(struct sc_call *c, const struct fib_rule_hdr *m);
FIELDS(struct fib_rule_hdr, fib_rule_hdr)
{
	out(c, "dst_len=%u, src_len=%u, tos=", m->dst_len, m->src_len);
	p_flags(c, &xlat_ip_type_of_services, m->tos, "IPTOS_TOS_???");
	out(c, ", table=");
	p_xval(c, &xlat_routing_table_ids, m->table, NULL);
	out(c, ", action=");
	p_xval(c, &xlat_fib_rule_actions, m->action, "FR_ACT_???");
	out(c, ", flags=");
	p_flags(c, &xlat_fib_rule_flags, m->flags, "FIB_RULE_???");
}

static void tcmsg_(struct sc_call *c, const struct tcmsg *m);
FIELDS(struct tcmsg, tcmsg)
{
	out(c, "tcm_ifindex=");
	pn_ifindex(c, (unsigned)m->tcm_ifindex);
	out(c, ", tcm_handle=%u, tcm_parent=%u, tcm_info=%u", m->tcm_handle, m->tcm_parent,
	    m->tcm_info);
}

static void ifaddrlblmsg_(struct sc_call *c, const struct ifaddrlblmsg *m);
FIELDS(struct ifaddrlblmsg, ifaddrlblmsg)
{
	out(c, "ifal_prefixlen=%u, ifal_flags=%u, ifal_index=", m->ifal_prefixlen, m->ifal_flags);
	pn_ifindex(c, m->ifal_index);
	out(c, ", ifal_seq=%u", m->ifal_seq);
}

static void dcbmsg_(struct sc_call *c, const struct dcbmsg *m);
FIELDS(struct dcbmsg, dcbmsg)
{
	out(c, "cmd=");
	p_xval(c, &xlat_dcb_commands, m->cmd, "DCB_CMD_???");
}

static void br_port_msg_(struct sc_call *c, const struct br_port_msg *m);
FIELDS(struct br_port_msg, br_port_msg)
{
	out(c, "ifindex=");
	pn_ifindex(c, m->ifindex);
}

static void if_stats_msg_(struct sc_call *c, const struct if_stats_msg *m);
FIELDS(struct if_stats_msg, if_stats_msg)
{
	if (m->pad1)
		out(c, "pad1=%#x, ", m->pad1);
	if (m->pad2)
		out(c, "pad2=%#x, ", m->pad2);
	out(c, "ifindex=");
	pn_ifindex(c, m->ifindex);
	out(c, ", filter_mask=");
	p_flags(c, &xlat_ifstats_filter_mask, m->filter_mask, "1<<IFLA_STATS_???");
}

static void nhmsg_(struct sc_call *c, const struct nhmsg *m);
FIELDS(struct nhmsg, nhmsg)
{
	out(c, "nh_scope=");
	p_xval(c, &xlat_routing_scopes, m->nh_scope, NULL);
	out(c, ", nh_protocol=");
	p_xval(c, &xlat_routing_protocols, m->nh_protocol, "RTPROT_???");
	if (m->resvd)
		out(c, ", resvd=%#x", m->resvd);
	out(c, ", nh_flags=");
	p_flags(c, &xlat_route_nexthop_flags, m->nh_flags, "RTNH_F_???");
}

#define HDR(field, T, fn, attrs) { field, sizeof(T), fn, attrs }
#define FAMILY_ONLY(field, T, attrs) { field, sizeof(T), NULL, attrs }

static const struct nl_hdr_desc link_hdr = HDR("ifi_family", struct ifinfomsg, ifinfomsg, &rtnl_link_attrs);
static const struct nl_hdr_desc addr_hdr = HDR("ifa_family", struct ifaddrmsg, ifaddrmsg, &rtnl_addr_attrs);
static const struct nl_hdr_desc route_hdr = HDR("rtm_family", struct rtmsg, rtmsg, &rtnl_route_attrs);
static const struct nl_hdr_desc neigh_hdr = HDR("ndm_family", struct ndmsg, ndmsg, &rtnl_neigh_attrs);
static const struct nl_hdr_desc rule_hdr = HDR("family", struct fib_rule_hdr, fib_rule_hdr, &rtnl_rule_attrs);
static const struct nl_hdr_desc tc_hdr = HDR("tcm_family", struct tcmsg, tcmsg, &rtnl_tc_attrs);
static const struct nl_hdr_desc tca_hdr = FAMILY_ONLY("tca_family", struct tcamsg, &rtnl_tca_attrs);
static const struct nl_hdr_desc neightbl_hdr = FAMILY_ONLY("ndtm_family", struct ndtmsg, &rtnl_neightbl_attrs);
static const struct nl_hdr_desc addrlabel_hdr = HDR("ifal_family", struct ifaddrlblmsg, ifaddrlblmsg, &rtnl_addrlabel_attrs);
static const struct nl_hdr_desc dcb_hdr = HDR("dcb_family", struct dcbmsg, dcbmsg, &rtnl_dcb_attrs);
static const struct nl_hdr_desc netconf_hdr = FAMILY_ONLY("ncm_family", struct netconfmsg, &rtnl_netconf_attrs);
static const struct nl_hdr_desc mdb_hdr = HDR("family", struct br_port_msg, br_port_msg, &rtnl_mdb_attrs);
static const struct nl_hdr_desc nsid_hdr = FAMILY_ONLY("rtgen_family", struct rtgenmsg, &rtnl_nsid_attrs);
static const struct nl_hdr_desc stats_hdr = HDR("family", struct if_stats_msg, if_stats_msg, &rtnl_stats_attrs);
static const struct nl_hdr_desc nexthop_hdr = HDR("nh_family", struct nhmsg, nhmsg, &rtnl_nexthop_attrs);

static const struct nl_hdr_desc *const route_hdrs[] = {
	[RTM_NEWLINK - RTM_BASE] = &link_hdr, [RTM_DELLINK - RTM_BASE] = &link_hdr,
	[RTM_GETLINK - RTM_BASE] = &link_hdr, [RTM_SETLINK - RTM_BASE] = &link_hdr,
	[RTM_NEWADDR - RTM_BASE] = &addr_hdr, [RTM_DELADDR - RTM_BASE] = &addr_hdr,
	[RTM_GETADDR - RTM_BASE] = &addr_hdr,
	[RTM_NEWROUTE - RTM_BASE] = &route_hdr, [RTM_DELROUTE - RTM_BASE] = &route_hdr,
	[RTM_GETROUTE - RTM_BASE] = &route_hdr,
	[RTM_NEWNEIGH - RTM_BASE] = &neigh_hdr, [RTM_DELNEIGH - RTM_BASE] = &neigh_hdr,
	[RTM_GETNEIGH - RTM_BASE] = &neigh_hdr,
	[RTM_NEWRULE - RTM_BASE] = &rule_hdr, [RTM_DELRULE - RTM_BASE] = &rule_hdr,
	[RTM_GETRULE - RTM_BASE] = &rule_hdr,
	[RTM_NEWQDISC - RTM_BASE] = &tc_hdr, [RTM_DELQDISC - RTM_BASE] = &tc_hdr,
	[RTM_GETQDISC - RTM_BASE] = &tc_hdr,
	[RTM_NEWTCLASS - RTM_BASE] = &tc_hdr, [RTM_DELTCLASS - RTM_BASE] = &tc_hdr,
	[RTM_GETTCLASS - RTM_BASE] = &tc_hdr,
	[RTM_NEWTFILTER - RTM_BASE] = &tc_hdr, [RTM_DELTFILTER - RTM_BASE] = &tc_hdr,
	[RTM_GETTFILTER - RTM_BASE] = &tc_hdr,
	[RTM_NEWACTION - RTM_BASE] = &tca_hdr, [RTM_DELACTION - RTM_BASE] = &tca_hdr,
	[RTM_GETACTION - RTM_BASE] = &tca_hdr,
	[RTM_GETMULTICAST - RTM_BASE] = &addr_hdr, [RTM_GETANYCAST - RTM_BASE] = &addr_hdr,
	[RTM_NEWNEIGHTBL - RTM_BASE] = &neightbl_hdr, [RTM_GETNEIGHTBL - RTM_BASE] = &neightbl_hdr,
	[RTM_SETNEIGHTBL - RTM_BASE] = &neightbl_hdr,
	[RTM_NEWADDRLABEL - RTM_BASE] = &addrlabel_hdr, [RTM_DELADDRLABEL - RTM_BASE] = &addrlabel_hdr,
	[RTM_GETADDRLABEL - RTM_BASE] = &addrlabel_hdr,
	[RTM_GETDCB - RTM_BASE] = &dcb_hdr, [RTM_SETDCB - RTM_BASE] = &dcb_hdr,
	[RTM_NEWNETCONF - RTM_BASE] = &netconf_hdr, [RTM_DELNETCONF - RTM_BASE] = &netconf_hdr,
	[RTM_GETNETCONF - RTM_BASE] = &netconf_hdr,
	[RTM_NEWMDB - RTM_BASE] = &mdb_hdr, [RTM_DELMDB - RTM_BASE] = &mdb_hdr,
	[RTM_GETMDB - RTM_BASE] = &mdb_hdr,
	[RTM_NEWNSID - RTM_BASE] = &nsid_hdr, [RTM_DELNSID - RTM_BASE] = &nsid_hdr,
	[RTM_GETNSID - RTM_BASE] = &nsid_hdr,
	[RTM_NEWSTATS - RTM_BASE] = &stats_hdr, [RTM_GETSTATS - RTM_BASE] = &stats_hdr,
	[RTM_NEWCHAIN - RTM_BASE] = &tc_hdr, [RTM_DELCHAIN - RTM_BASE] = &tc_hdr,
	[RTM_GETCHAIN - RTM_BASE] = &tc_hdr,
	[RTM_NEWNEXTHOP - RTM_BASE] = &nexthop_hdr, [RTM_DELNEXTHOP - RTM_BASE] = &nexthop_hdr,
	[RTM_GETNEXTHOP - RTM_BASE] = &nexthop_hdr,
};

/* Cache reports name their family among RTNL_FAMILY_* first. */
static void p_cachereport(struct sc_call *c, uint8_t family, uint64_t addr, unsigned len)
{
	out(c, "{rtgen_family=");
	if (xlat_str(&xlat_rtnl_family, family))
		p_xval(c, &xlat_rtnl_family, family, NULL);
	else
		p_xval(c, &xlat_addrfams, family, "RTNL_FAMILY_???");
	out(c, "}");
	unsigned off = NLMSG_ALIGN(sizeof(struct rtgenmsg));
	if (len <= off)
		return;
	out(c, ", ");
	const struct nla_table *t = rtnl_creport_attrs(family);
	if (t)
		nl_attrs(c, addr + off, len - off, t);
	else
		nl_hex(c, addr + off, len - off);
}

bool nl_route_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
		      unsigned len)
{
	uint8_t family;
	unsigned i = (unsigned)type - RTM_BASE;
	(void)flags;
	if (type == NLMSG_DONE)
		return false;
	if (!nl_read(c, addr, &family, 1)) {
		p_addr(c, addr);
		return true;
	}
	if (type == RTM_NEWCACHEREPORT)
		p_cachereport(c, family, addr, len);
	else if (i < sizeof(route_hdrs) / sizeof(route_hdrs[0]) && route_hdrs[i])
		nl_family_hdr(c, route_hdrs[i], addr, len);
	else
		nl_family_only(c, family, addr, len);
	return true;
}

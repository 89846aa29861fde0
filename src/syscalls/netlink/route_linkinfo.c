/*
 * IFLA_LINKINFO: the link's kind (IFLA_INFO_KIND, IFLA_INFO_SLAVE_KIND)
 * names the attribute table of the data that follows it in the same nest
 * (IFLA_INFO_DATA, IFLA_INFO_XSTATS, IFLA_INFO_SLAVE_DATA).
 */
#include <arpa/inet.h>
#include <string.h>
#include <linux/can/netlink.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/if_tun.h>

#include "route.h"

/* The kinds seen so far in the IFLA_LINKINFO nest being printed. */
static char link_kind[32], slave_kind[32];

static bool p_kind(struct sc_call *c, uint64_t addr, unsigned len, char *kind, size_t size)
{
	size_t n = len < size - 1 ? len : size - 1;
	memset(kind, 0, size);
	if (!nl_read(c, addr, kind, n))
		kind[0] = '\0';
	return nla_str(c, addr, len, NULL);
}

static bool p_link_kind(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	return p_kind(c, addr, len, link_kind, sizeof(link_kind));
}

static bool p_slave_kind(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	return p_kind(c, addr, len, slave_kind, sizeof(slave_kind));
}

/* htons(ETH_P_8021Q) */
static bool p_be16_ethproto(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint16_t v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (!nl_read(c, addr, &v, sizeof(v))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "htons(");
	p_xval(c, &xlat_ethernet_protocols, ntohs(v), "ETH_P_???");
	out(c, ")");
	return true;
}

/* struct br_boolopt_multi: {optval=1<<BR_BOOLOPT_..., optmask=...} */
static bool p_boolopt_multi(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct br_boolopt_multi b;
	(void)arg;
	if (len < sizeof(b))
		return false;
	if (!nl_read(c, addr, &b, sizeof(b))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{optval=");
	p_flags(c, &xlat_br_boolopt_flags, b.optval, "1<<BR_BOOLOPT_???");
	out(c, ", optmask=");
	p_flags(c, &xlat_br_boolopt_flags, b.optmask, "1<<BR_BOOLOPT_???");
	out(c, "}");
	return true;
}

static const struct nla_policy querier_pol[] = {
	[BRIDGE_QUERIER_IP_ADDRESS] = { nla_in_addr, NULL },
	[BRIDGE_QUERIER_IP_PORT] = IFINDEX,
	[BRIDGE_QUERIER_IP_OTHER_TIMER] = CLOCK_T,
	[BRIDGE_QUERIER_IPV6_ADDRESS] = { nla_in6_addr, NULL },
	[BRIDGE_QUERIER_IPV6_PORT] = U32,
	[BRIDGE_QUERIER_IPV6_OTHER_TIMER] = CLOCK_T,
};
static TABLE(querier_attrs, xlat_rtnl_ifla_br_mcast_querier_attrs, "BRIDGE_QUERIER_???",
	     querier_pol);

static const struct nla_policy br_pol[] = {
	[IFLA_BR_FORWARD_DELAY] = CLOCK_T,
	[IFLA_BR_HELLO_TIME] = CLOCK_T,
	[IFLA_BR_MAX_AGE] = CLOCK_T,
	[IFLA_BR_AGEING_TIME] = CLOCK_T,
	[IFLA_BR_STP_STATE] = U32,
	[IFLA_BR_PRIORITY] = U16,
	[IFLA_BR_VLAN_FILTERING] = U8,
	[IFLA_BR_VLAN_PROTOCOL] = { p_be16_ethproto, NULL },
	[IFLA_BR_GROUP_FWD_MASK] = { nla_x16, NULL },
	[IFLA_BR_ROOT_ID] = { rtnl_bridge_id, NULL },
	[IFLA_BR_BRIDGE_ID] = { rtnl_bridge_id, NULL },
	[IFLA_BR_ROOT_PORT] = U16,
	[IFLA_BR_ROOT_PATH_COST] = U32,
	[IFLA_BR_TOPOLOGY_CHANGE] = U8,
	[IFLA_BR_TOPOLOGY_CHANGE_DETECTED] = U8,
	[IFLA_BR_HELLO_TIMER] = CLOCK_T,
	[IFLA_BR_TCN_TIMER] = CLOCK_T,
	[IFLA_BR_TOPOLOGY_CHANGE_TIMER] = CLOCK_T,
	[IFLA_BR_GC_TIMER] = CLOCK_T,
	[IFLA_BR_GROUP_ADDR] = { nla_hwaddr, NULL },
	[IFLA_BR_MCAST_ROUTER] = U8,
	[IFLA_BR_MCAST_SNOOPING] = U8,
	[IFLA_BR_MCAST_QUERY_USE_IFADDR] = U8,
	[IFLA_BR_MCAST_QUERIER] = U8,
	[IFLA_BR_MCAST_HASH_ELASTICITY] = U32,
	[IFLA_BR_MCAST_HASH_MAX] = U32,
	[IFLA_BR_MCAST_LAST_MEMBER_CNT] = U32,
	[IFLA_BR_MCAST_STARTUP_QUERY_CNT] = U32,
	[IFLA_BR_MCAST_LAST_MEMBER_INTVL] = CLOCK_T,
	[IFLA_BR_MCAST_MEMBERSHIP_INTVL] = CLOCK_T,
	[IFLA_BR_MCAST_QUERIER_INTVL] = CLOCK_T,
	[IFLA_BR_MCAST_QUERY_INTVL] = CLOCK_T,
	[IFLA_BR_MCAST_QUERY_RESPONSE_INTVL] = CLOCK_T,
	[IFLA_BR_MCAST_STARTUP_QUERY_INTVL] = CLOCK_T,
	[IFLA_BR_NF_CALL_IPTABLES] = U8,
	[IFLA_BR_NF_CALL_IP6TABLES] = U8,
	[IFLA_BR_NF_CALL_ARPTABLES] = U8,
	[IFLA_BR_VLAN_DEFAULT_PVID] = U16,
	[IFLA_BR_VLAN_STATS_ENABLED] = U8,
	[IFLA_BR_MCAST_STATS_ENABLED] = U8,
	[IFLA_BR_MCAST_IGMP_VERSION] = U8,
	[IFLA_BR_MCAST_MLD_VERSION] = U8,
	[IFLA_BR_VLAN_STATS_PER_PORT] = U8,
	[IFLA_BR_MULTI_BOOLOPT] = { p_boolopt_multi, NULL },
	[IFLA_BR_MCAST_QUERIER_STATE] = NESTED(querier_attrs),
};
static TABLE(br_attrs, xlat_rtnl_ifla_br_attrs, "IFLA_BR_???", br_pol);

/* A tun owner or group: a uid/gid, -1 for none. */
static bool p_tun_id(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint32_t v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (!nl_read(c, addr, &v, sizeof(v)))
		p_addr(c, addr);
	else if (v == UINT32_MAX)
		out(c, "-1");
	else
		out(c, "%u", v);
	return true;
}

static const struct nla_policy tun_pol[] = {
	[IFLA_TUN_OWNER] = { p_tun_id, NULL },
	[IFLA_TUN_GROUP] = { p_tun_id, NULL },
	[IFLA_TUN_TYPE] = { nla_xval8, &(const struct nla_xlat){ &xlat_tun_device_types, "IFF_???" } },
	[IFLA_TUN_PI] = U8,
	[IFLA_TUN_VNET_HDR] = U8,
	[IFLA_TUN_PERSIST] = U8,
	[IFLA_TUN_MULTI_QUEUE] = U8,
	[IFLA_TUN_NUM_QUEUES] = U32,
	[IFLA_TUN_NUM_DISABLED_QUEUES] = U32,
};
static TABLE(tun_attrs, xlat_rtnl_ifla_tun_attrs, "IFLA_TUN_???", tun_pol);

/* The data table of a link kind; NULL for kinds printed in hex. */
static const struct nla_table *kind_data(const char *kind)
{
	if (strcmp(kind, "bridge") == 0)
		return &br_attrs;
	if (strcmp(kind, "tun") == 0)
		return &tun_attrs;
	return NULL;
}

static bool p_info_data(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	const struct nla_table *t = kind_data(link_kind);
	(void)arg;
	if (!t)
		return false;
	nl_attrs(c, addr, len, t);
	return true;
}

static bool p_slave_data(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (strcmp(slave_kind, "bridge") != 0)
		return false;
	nl_attrs(c, addr, len, &rtnl_brport_attrs);
	return true;
}

#define CAN(f) NLA_F(struct can_device_stats, f, NF_U)
static const struct nla_policy can_xstats_pol =
	STRUCT(struct can_device_stats, CAN(bus_error), CAN(error_warning), CAN(error_passive),
	       CAN(bus_off), CAN(arbitration_lost), CAN(restarts));

static bool p_info_xstats(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (strcmp(link_kind, "can") != 0)
		return false;
	return can_xstats_pol.fn(c, addr, len, can_xstats_pol.arg);
}

static const struct nla_policy info_pol[] = {
	[IFLA_INFO_KIND] = { p_link_kind, NULL },
	[IFLA_INFO_DATA] = { p_info_data, NULL },
	[IFLA_INFO_XSTATS] = { p_info_xstats, NULL },
	[IFLA_INFO_SLAVE_KIND] = { p_slave_kind, NULL },
	[IFLA_INFO_SLAVE_DATA] = { p_slave_data, NULL },
};
static TABLE(info_attrs, xlat_rtnl_ifla_info_attrs, "IFLA_INFO_???", info_pol);

bool rtnl_linkinfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	link_kind[0] = slave_kind[0] = '\0';
	nl_attrs(c, addr, len, &info_attrs);
	link_kind[0] = slave_kind[0] = '\0';
	return true;
}

/*
 * NETLINK_ROUTE attribute tables: for each family header, the name of
 * every attribute type and the printer of its value.  A type without a
 * printer shows its value in hex, as strace does.
 */
#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netconf.h>
#include <linux/nexthop.h>
#include <linux/pkt_cls.h>
#include <linux/rtnetlink.h>

#include "route.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define TABLE(name, xl, dflt, pol) \
	const struct nla_table name = { &xl, dflt, pol, N(pol) }
#define U8 { nla_u8, NULL }
#define U16 { nla_u16, NULL }
#define U32 { nla_u32, NULL }
#define U64 { nla_u64, NULL }
#define S32 { nla_s32, NULL }
#define X32 { nla_x32, NULL }
#define STR { nla_str, NULL }
#define IFINDEX { nla_ifindex, NULL }
#define XVAL(x, d) { nla_xval, &(const struct nla_xlat){ &x, d } }
#define FLAGS32(x, d) { nla_flags32, &(const struct nla_xlat){ &x, d } }
#define NESTED(t) { nla_nested, &t }

static const struct nla_policy link_pol[] = {
	[IFLA_IFNAME] = STR,
	[IFLA_MTU] = U32,
	[IFLA_LINK] = U32,
	[IFLA_QDISC] = STR,
	[IFLA_COST] = U32,
	[IFLA_PRIORITY] = U32,
	[IFLA_MASTER] = U32,
	[IFLA_TXQLEN] = U32,
	[IFLA_WEIGHT] = U32,
	[IFLA_OPERSTATE] = U8,
	[IFLA_LINKMODE] = U8,
	[IFLA_NET_NS_PID] = U32,
	[IFLA_IFALIAS] = STR,
	[IFLA_NUM_VF] = U32,
	[IFLA_GROUP] = U32,
	[IFLA_PROMISCUITY] = U32,
	[IFLA_NUM_TX_QUEUES] = U32,
	[IFLA_NUM_RX_QUEUES] = U32,
	[IFLA_CARRIER] = U8,
	[IFLA_CARRIER_CHANGES] = U32,
	[IFLA_LINK_NETNSID] = S32,
	[IFLA_PHYS_PORT_NAME] = STR,
	[IFLA_PROTO_DOWN] = U8,
	[IFLA_GSO_MAX_SEGS] = U32,
	[IFLA_GSO_MAX_SIZE] = U32,
	[IFLA_NEW_NETNSID] = S32,
	[IFLA_IF_NETNSID] = S32,
	[IFLA_CARRIER_UP_COUNT] = U32,
	[IFLA_CARRIER_DOWN_COUNT] = U32,
	[IFLA_NEW_IFINDEX] = S32,
	[IFLA_MIN_MTU] = U32,
	[IFLA_MAX_MTU] = U32,
	[IFLA_ALT_IFNAME] = STR,
	[IFLA_PARENT_DEV_NAME] = STR,
	[IFLA_PARENT_DEV_BUS_NAME] = STR,
	[IFLA_GRO_MAX_SIZE] = U32,
	[IFLA_TSO_MAX_SIZE] = U32,
	[IFLA_TSO_MAX_SEGS] = U32,
};
TABLE(rtnl_link_attrs, xlat_rtnl_link_attrs, "IFLA_???", link_pol);

static const struct nla_policy addr_pol[] = {
	[IFA_LABEL] = STR,
	[IFA_FLAGS] = FLAGS32(xlat_ifaddrflags, "IFA_F_???"),
	[IFA_RT_PRIORITY] = U32,
	[IFA_TARGET_NETNSID] = S32,
};
TABLE(rtnl_addr_attrs, xlat_rtnl_addr_attrs, "IFA_???", addr_pol);

static const struct nla_policy route_pol[] = {
	[RTA_IIF] = IFINDEX,
	[RTA_OIF] = IFINDEX,
	[RTA_PRIORITY] = U32,
	[RTA_FLOW] = U32,
	[RTA_TABLE] = U32,
	[RTA_MARK] = U32,
	[RTA_PREF] = U8,
	[RTA_EXPIRES] = U64,
	[RTA_UID] = U32,
	[RTA_TTL_PROPAGATE] = U8,
	[RTA_NH_ID] = U32,
};
TABLE(rtnl_route_attrs, xlat_rtnl_route_attrs, "RTA_???", route_pol);

static const struct nla_policy neigh_pol[] = {
	[NDA_PROBES] = U32,
	[NDA_VLAN] = U16,
	[NDA_VNI] = U32,
	[NDA_IFINDEX] = IFINDEX,
	[NDA_MASTER] = IFINDEX,
	[NDA_LINK_NETNSID] = U32,
	[NDA_SRC_VNI] = U32,
	[NDA_NH_ID] = U32,
};
TABLE(rtnl_neigh_attrs, xlat_rtnl_neigh_attrs, "NDA_???", neigh_pol);

static const struct nla_policy rule_pol[] = {
	[FRA_IIFNAME] = STR,
	[FRA_GOTO] = U32,
	[FRA_PRIORITY] = U32,
	[FRA_FWMARK] = U32,
	[FRA_FLOW] = U32,
	[FRA_SUPPRESS_IFGROUP] = U32,
	[FRA_SUPPRESS_PREFIXLEN] = U32,
	[FRA_FWMASK] = U32,
	[FRA_OIFNAME] = STR,
	[FRA_L3MDEV] = U8,
};
TABLE(rtnl_rule_attrs, xlat_rtnl_rule_attrs, "FRA_???", rule_pol);

static const struct nla_policy tc_pol[] = {
	[TCA_KIND] = STR,
	[TCA_CHAIN] = U32,
	[TCA_INGRESS_BLOCK] = U32,
	[TCA_EGRESS_BLOCK] = U32,
};
TABLE(rtnl_tc_attrs, xlat_rtnl_tc_attrs, "TCA_???", tc_pol);

static const struct nla_policy tca_pol[] = {
	[TCA_ACT_KIND] = STR,
	[TCA_ACT_INDEX] = U32,
	[TCA_ACT_FLAGS] = FLAGS32(xlat_tca_act_flags, "TCA_ACT_FLAGS_???"),
	[TCA_ACT_HW_STATS] = FLAGS32(xlat_tca_act_hw_stats, "TCA_ACT_HW_STATS_???"),
	[TCA_ACT_USED_HW_STATS] = FLAGS32(xlat_tca_act_hw_stats, "TCA_ACT_HW_STATS_???"),
	[TCA_ACT_IN_HW_COUNT] = U32,
};
TABLE(rtnl_tca_attrs, xlat_rtnl_tc_action_attrs, "TCA_ACT_???", tca_pol);

static const struct nla_policy none_pol[1];
TABLE(rtnl_neightbl_attrs, xlat_rtnl_neightbl_attrs, "NDTA_???", none_pol);
TABLE(rtnl_addrlabel_attrs, xlat_rtnl_addrlabel_attrs, "IFAL_???", none_pol);
TABLE(rtnl_dcb_attrs, xlat_rtnl_dcb_attrs, "DCB_ATTR_???", none_pol);
TABLE(rtnl_netconf_attrs, xlat_rtnl_netconf_attrs, "NETCONFA_???", none_pol);
TABLE(rtnl_mdb_attrs, xlat_rtnl_mdb_attrs, "MDBA_???", none_pol);
TABLE(rtnl_nsid_attrs, xlat_rtnl_nsid_attrs, "NETNSA_???", none_pol);
TABLE(rtnl_stats_attrs, xlat_ifla_stats, "IFLA_STATS_???", none_pol);

static const struct nla_policy nexthop_pol[] = {
	[NHA_ID] = U32,
	[NHA_OIF] = IFINDEX,
	[NHA_MASTER] = IFINDEX,
};
TABLE(rtnl_nexthop_attrs, xlat_rtnl_nexthop_attrs, "NHA_???", nexthop_pol);

const struct nla_table *rtnl_creport_attrs(uint8_t family)
{
	(void)family;
	return NULL;
}

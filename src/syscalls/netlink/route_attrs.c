/*
 * NETLINK_ROUTE attribute tables: for each family header, the name of
 * every attribute type and the printer of its value.  A type without a
 * printer shows its value in hex, as strace does.
 */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/fib_rules.h>
#include <linux/if_addr.h>
#include <linux/if_addrlabel.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/net_namespace.h>
#include <linux/netconf.h>
#include <linux/nexthop.h>
#include <linux/gen_stats.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include <string.h>

#include "route.h"
#include "syscalls/print_net.h"

/* Bytes as \xNN each. */
void nl_hex_bytes(struct sc_call *c, const uint8_t *b, size_t n)
{
	out(c, "\"");
	for (size_t i = 0; i < n; i++)
		out(c, "\\x%02x", b[i]);
	out(c, "\"");
}

static const struct nla_policy metrics_pol[] = {
	[RTAX_LOCK] = U32, [RTAX_MTU] = U32, [RTAX_WINDOW] = U32, [RTAX_RTT] = U32,
	[RTAX_RTTVAR] = U32, [RTAX_SSTHRESH] = U32, [RTAX_CWND] = U32, [RTAX_ADVMSS] = U32,
	[RTAX_REORDERING] = U32, [RTAX_HOPLIMIT] = U32, [RTAX_INITCWND] = U32,
	[RTAX_FEATURES] = U32, [RTAX_RTO_MIN] = U32, [RTAX_INITRWND] = U32,
	[RTAX_QUICKACK] = U32, [RTAX_CC_ALGO] = STR,
};
static TABLE(metrics_attrs, xlat_rtnl_rta_metrics_attrs, "RTAX_???", metrics_pol);

static bool p_multipath(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
static bool p_rtvia(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);


static const struct nla_policy addr_pol[] = {
	[IFA_ADDRESS] = ADDR,
	[IFA_LOCAL] = ADDR,
	[IFA_BROADCAST] = ADDR,
	[IFA_ANYCAST] = ADDR,
	[IFA_MULTICAST] = ADDR,
	[IFA_CACHEINFO] = STRUCT(struct ifa_cacheinfo, NLA_F(struct ifa_cacheinfo, ifa_prefered, NF_U),
				 NLA_F(struct ifa_cacheinfo, ifa_valid, NF_U),
				 NLA_F(struct ifa_cacheinfo, cstamp, NF_U),
				 NLA_F(struct ifa_cacheinfo, tstamp, NF_U)),
	[IFA_LABEL] = STR,
	[IFA_FLAGS] = FLAGS32(xlat_ifaddrflags, "IFA_F_???"),
	[IFA_RT_PRIORITY] = U32,
	[IFA_TARGET_NETNSID] = S32,
};
TABLE(rtnl_addr_attrs, xlat_rtnl_addr_attrs, "IFA_???", addr_pol);

static const struct nla_policy route_pol[] = {
	[RTA_DST] = ADDR,
	[RTA_SRC] = ADDR,
	[RTA_GATEWAY] = ADDR,
	[RTA_PREFSRC] = ADDR,
	[RTA_NEWDST] = ADDR,
	[RTA_METRICS] = NESTED(metrics_attrs),
	[RTA_MULTIPATH] = { p_multipath, NULL },
	[RTA_PROTOINFO] = U32,
	[RTA_MP_ALGO] = U32,
	[RTA_CACHEINFO] = STRUCT(struct rta_cacheinfo, NLA_F(struct rta_cacheinfo, rta_clntref, NF_U),
				 NLA_F(struct rta_cacheinfo, rta_lastuse, NF_U),
				 NLA_F(struct rta_cacheinfo, rta_expires, NF_U),
				 NLA_F(struct rta_cacheinfo, rta_error, NF_U),
				 NLA_F(struct rta_cacheinfo, rta_used, NF_U),
				 NLA_F(struct rta_cacheinfo, rta_id, NF_X),
				 NLA_F(struct rta_cacheinfo, rta_ts, NF_U),
				 NLA_F(struct rta_cacheinfo, rta_tsage, NF_U)),
	[RTA_MFC_STATS] = STRUCT(struct rta_mfc_stats,
				 NLA_F(struct rta_mfc_stats, mfcs_packets, NF_U),
				 NLA_F(struct rta_mfc_stats, mfcs_bytes, NF_U),
				 NLA_F(struct rta_mfc_stats, mfcs_wrong_if, NF_U)),
	[RTA_VIA] = { p_rtvia, NULL },
	[RTA_ENCAP_TYPE] = { nla_xval16, &(const struct nla_xlat){ &xlat_lwtunnel_encap_types,
								  "LWTUNNEL_ENCAP_???" } },
	[RTA_IP_PROTO] = U8,
	[RTA_SPORT] = U16,
	[RTA_DPORT] = U16,
	[RTA_IIF] = IFINDEX,
	[RTA_OIF] = IFINDEX,
	[RTA_PRIORITY] = U32,
	[RTA_FLOW] = U32,
	[RTA_TABLE] = RT_TABLE,
	[RTA_MARK] = U32,
	[RTA_PREF] = U8,
	[RTA_EXPIRES] = U64,
	[RTA_UID] = U32,
	[RTA_TTL_PROPAGATE] = U8,
	[RTA_NH_ID] = U32,
};
TABLE(rtnl_route_attrs, xlat_rtnl_route_attrs, "RTA_???", route_pol);

static const struct nla_policy fdb_ext_pol[] = {
	[NFEA_ACTIVITY_NOTIFY] = { nla_flags8, &(const struct nla_xlat){ &xlat_fdb_notify_flags, "FDB_NOTIFY_???" } },
};
static TABLE(fdb_ext_attrs, xlat_rtnl_neigh_fdb_ext_attrs, "NFEA_???", fdb_ext_pol);

static const struct nla_policy neigh_pol[] = {
	[NDA_DST] = ADDR,
	[NDA_LLADDR] = { nla_hwaddr, NULL },
	[NDA_CACHEINFO] = STRUCT(struct nda_cacheinfo, NLA_F(struct nda_cacheinfo, ndm_confirmed, NF_U),
				 NLA_F(struct nda_cacheinfo, ndm_used, NF_U),
				 NLA_F(struct nda_cacheinfo, ndm_updated, NF_U),
				 NLA_F(struct nda_cacheinfo, ndm_refcnt, NF_U)),
	[NDA_PORT] = { nla_be16, NULL },
	[NDA_PROTOCOL] = XVAL(xlat_routing_protocols, "RTPROT_???"),
	[NDA_FDB_EXT_ATTRS] = NESTED(fdb_ext_attrs),
	[NDA_FLAGS_EXT] = FLAGS32(xlat_neighbor_cache_entry_ext_flags, "NTF_EXT_???"),
	[NDA_NDM_STATE_MASK] = { nla_flags16, &(const struct nla_xlat){ &xlat_neighbor_cache_entry_states, "NUD_???" } },
	[NDA_NDM_FLAGS_MASK] = { nla_flags8, &(const struct nla_xlat){ &xlat_neighbor_cache_entry_flags, "NTF_???" } },
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
	[FRA_DST] = ADDR,
	[FRA_SRC] = ADDR,
	[FRA_TUN_ID] = { nla_be64, NULL },
	[FRA_TABLE] = RT_TABLE,
	[FRA_UID_RANGE] = STRUCT(struct fib_rule_uid_range, NLA_F(struct fib_rule_uid_range, start, NF_U),
				 NLA_F(struct fib_rule_uid_range, end, NF_U)),
	[FRA_PROTOCOL] = XVAL(xlat_routing_protocols, "RTPROT_???"),
	[FRA_IP_PROTO] = XVAL(xlat_inet_protocols, "IPPROTO_???"),
	[FRA_SPORT_RANGE] = STRUCT(struct fib_rule_port_range, NLA_F(struct fib_rule_port_range, start, NF_U),
				   NLA_F(struct fib_rule_port_range, end, NF_U)),
	[FRA_DPORT_RANGE] = STRUCT(struct fib_rule_port_range, NLA_F(struct fib_rule_port_range, start, NF_U),
				   NLA_F(struct fib_rule_port_range, end, NF_U)),
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

static const struct nla_policy tca_stats_pol[] = {
	/* struct gnet_stats_basic without its tail padding: what the kernel sends */
	[TCA_STATS_BASIC] = STRUCT_SZ(12, NLA_F(struct gnet_stats_basic, bytes, NF_U),
				      NLA_F(struct gnet_stats_basic, packets, NF_U)),
	[TCA_STATS_RATE_EST] = STRUCT(struct gnet_stats_rate_est,
				      NLA_F(struct gnet_stats_rate_est, bps, NF_U),
				      NLA_F(struct gnet_stats_rate_est, pps, NF_U)),
	[TCA_STATS_QUEUE] = STRUCT(struct gnet_stats_queue,
				   NLA_F(struct gnet_stats_queue, qlen, NF_U),
				   NLA_F(struct gnet_stats_queue, backlog, NF_U),
				   NLA_F(struct gnet_stats_queue, drops, NF_U),
				   NLA_F(struct gnet_stats_queue, requeues, NF_U),
				   NLA_F(struct gnet_stats_queue, overlimits, NF_U)),
	[TCA_STATS_RATE_EST64] = STRUCT(struct gnet_stats_rate_est64,
					NLA_F(struct gnet_stats_rate_est64, bps, NF_U),
					NLA_F(struct gnet_stats_rate_est64, pps, NF_U)),
	[TCA_STATS_BASIC_HW] = STRUCT_SZ(12, NLA_F(struct gnet_stats_basic, bytes, NF_U),
					 NLA_F(struct gnet_stats_basic, packets, NF_U)),
	[TCA_STATS_PKT64] = U64,
};
static TABLE(tca_stats_attrs, xlat_rtnl_tca_stats_attrs, "TCA_STATS_???", tca_stats_pol);

static bool p_u16_elem(struct sc_call *c, const void *elem, size_t size, void *data)
{
	uint16_t v;
	(void)size;
	(void)data;
	memcpy(&v, elem, sizeof(v));
	out(c, "%u", v);
	return true;
}

/* TCA_STAB_DATA: the size table, u16 each. */
static bool p_stab_data(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (len < 2)
		return false;
	pn_array(c, addr, len / 2, 2, p_u16_elem, NULL);
	return true;
}

#define SZS(f, k) NLA_F(struct tc_sizespec, f, k)
static const struct nla_policy tca_stab_pol[] = {
	[TCA_STAB_BASE] = STRUCT(struct tc_sizespec, SZS(cell_log, NF_U), SZS(size_log, NF_U),
				 SZS(cell_align, NF_S), SZS(overhead, NF_S), SZS(linklayer, NF_U),
				 SZS(mpu, NF_U), SZS(mtu, NF_U), SZS(tsize, NF_U)),
	[TCA_STAB_DATA] = { p_stab_data, NULL },
};
static TABLE(tca_stab_attrs, xlat_rtnl_tca_stab_attrs, "TCA_STAB_???", tca_stab_pol);

static const struct nla_policy tc_pol[] = {
	[TCA_STATS2] = NESTED(tca_stats_attrs),
	[TCA_STAB] = NESTED(tca_stab_attrs),
	[TCA_STATS] = STRUCT_SZ(offsetof(struct tc_stats, backlog) + 4, NLA_F(struct tc_stats, bytes, NF_U),
			     NLA_F(struct tc_stats, packets, NF_U), NLA_F(struct tc_stats, drops, NF_U),
			     NLA_F(struct tc_stats, overlimits, NF_U), NLA_F(struct tc_stats, bps, NF_U),
			     NLA_F(struct tc_stats, pps, NF_U), NLA_F(struct tc_stats, qlen, NF_U),
			     NLA_F(struct tc_stats, backlog, NF_U)),
	[TCA_RATE] = STRUCT(struct tc_estimator, NLA_F(struct tc_estimator, interval, NF_S),
			    NLA_F(struct tc_estimator, ewma_log, NF_U)),
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

static const struct nla_policy ndtpa_pol[] = {
	[NDTPA_IFINDEX] = IFINDEX,
	[NDTPA_REFCNT] = U32,
	[NDTPA_REACHABLE_TIME] = U64,
	[NDTPA_BASE_REACHABLE_TIME] = U64,
	[NDTPA_RETRANS_TIME] = U64,
	[NDTPA_GC_STALETIME] = U64,
	[NDTPA_DELAY_PROBE_TIME] = U64,
	[NDTPA_QUEUE_LEN] = U32,
	[NDTPA_APP_PROBES] = U32,
	[NDTPA_UCAST_PROBES] = U32,
	[NDTPA_MCAST_PROBES] = U32,
	[NDTPA_ANYCAST_DELAY] = U64,
	[NDTPA_PROXY_DELAY] = U64,
	[NDTPA_PROXY_QLEN] = U32,
	[NDTPA_LOCKTIME] = U64,
	[NDTPA_QUEUE_LENBYTES] = U32,
	[NDTPA_MCAST_REPROBES] = U32,
};
static TABLE(ndtpa_attrs, xlat_rtnl_neightbl_parms_attrs, "NDTPA_???", ndtpa_pol);

#define NDTC(f, k) NLA_F(struct ndt_config, f, k)
#define NDTS(f) NLA_F(struct ndt_stats, f, NF_U)
static const struct nla_policy neightbl_pol[] = {
	[NDTA_NAME] = STR,
	[NDTA_THRESH1] = U32,
	[NDTA_THRESH2] = U32,
	[NDTA_THRESH3] = U32,
	[NDTA_CONFIG] = STRUCT(struct ndt_config, NDTC(ndtc_key_len, NF_U), NDTC(ndtc_entry_size, NF_U),
			       NDTC(ndtc_entries, NF_U), NDTC(ndtc_last_flush, NF_U),
			       NDTC(ndtc_last_rand, NF_U), NDTC(ndtc_hash_rnd, NF_U),
			       NDTC(ndtc_hash_mask, NF_X), NDTC(ndtc_hash_chain_gc, NF_U),
			       NDTC(ndtc_proxy_qlen, NF_U)),
	[NDTA_PARMS] = NESTED(ndtpa_attrs),
	[NDTA_STATS] = STRUCT(struct ndt_stats, NDTS(ndts_allocs), NDTS(ndts_destroys),
			      NDTS(ndts_hash_grows), NDTS(ndts_res_failed), NDTS(ndts_lookups),
			      NDTS(ndts_hits), NDTS(ndts_rcv_probes_mcast), NDTS(ndts_rcv_probes_ucast),
			      NDTS(ndts_periodic_gc_runs), NDTS(ndts_forced_gc_runs),
			      NDTS(ndts_table_fulls)),
	[NDTA_GC_INTERVAL] = U64,
};
TABLE(rtnl_neightbl_attrs, xlat_rtnl_neightbl_attrs, "NDTA_???", neightbl_pol);
TABLE(rtnl_addrlabel_attrs, xlat_rtnl_addrlabel_attrs, "IFAL_???", none_pol);
TABLE(rtnl_dcb_attrs, xlat_rtnl_dcb_attrs, "DCB_ATTR_???", none_pol);
TABLE(rtnl_netconf_attrs, xlat_rtnl_netconf_attrs, "NETCONFA_???", none_pol);
static const struct nla_policy mdb_eattr_pol[] = {
	[MDBA_MDB_EATTR_TIMER] = CLOCK_T,
};
static TABLE(mdb_eattr_attrs, xlat_rtnl_mdb_eattr_attrs, "MDBA_MDB_EATTR_???", mdb_eattr_pol);

/* struct br_mdb_entry, then its attributes (MDBA_MDB_EATTR_*). */
static bool p_mdb_entry_info(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct br_mdb_entry e;
	(void)arg;
	int got = nla_read(c, addr, len, &e, sizeof(e));
	if (got <= 0)
		return got == 0;
	unsigned off = NLA_ALIGN(sizeof(e));
	out(c, "{ifindex=");
	pn_ifindex(c, e.ifindex);
	out(c, ", state=");
	p_xval(c, &xlat_mdb_states, e.state, "MDB_???");
	out(c, ", flags=");
	p_flags(c, &xlat_mdb_flags, e.flags, "MDB_FLAGS_???");
	out(c, ", vid=%u, addr={u=", e.vid);
	nl_hex_bytes(c, (const uint8_t *)&e.addr.u, sizeof(e.addr.u));
	out(c, ", proto=htons(");
	p_xval(c, &xlat_addrfams, ntohs(e.addr.proto), "AF_???");
	out(c, ")}}");
	if (len > off) {	/* strace prints them beside the struct, in the same list */
		out(c, ", ");
		nl_attrs(c, addr + off, len - off, &mdb_eattr_attrs);
	}
	return true;
}

static const struct nla_policy mdb_entry_pol[] = {
	[MDBA_MDB_ENTRY_INFO] = { p_mdb_entry_info, NULL },
};
static TABLE(mdb_entry_attrs, xlat_rtnl_mdb_entry_attrs, "MDBA_MDB_ENTRY_???", mdb_entry_pol);

static const struct nla_policy mdba_mdb_pol[] = {
	[MDBA_MDB_ENTRY] = NESTED(mdb_entry_attrs),
};
static TABLE(mdba_mdb_attrs, xlat_rtnl_mdba_mdb_attrs, "MDBA_MDB_???", mdba_mdb_pol);

static const struct nla_policy router_pattr_pol[] = {
	[MDBA_ROUTER_PATTR_TIMER] = CLOCK_T,
	[MDBA_ROUTER_PATTR_TYPE] = { nla_xval8, &(const struct nla_xlat){ &xlat_multicast_router_types,
									 "MDB_RTR_TYPE_???" } },
	[MDBA_ROUTER_PATTR_INET_TIMER] = CLOCK_T,
	[MDBA_ROUTER_PATTR_INET6_TIMER] = CLOCK_T,
	[MDBA_ROUTER_PATTR_VID] = U16,
};
static TABLE(router_pattr_attrs, xlat_rtnl_mdb_router_pattr_attrs, "MDBA_ROUTER_PATTR_???",
	     router_pattr_pol);

/* MDBA_ROUTER_PORT: an ifindex, then the port's attributes. */
static bool p_router_port(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint32_t idx;
	(void)arg;
	int got = nla_read(c, addr, len, &idx, sizeof(idx));
	if (got <= 0)
		return got == 0;
	pn_ifindex(c, idx);
	if (len > NLA_ALIGN(sizeof(idx))) {
		out(c, ", ");
		nl_attrs(c, addr + NLA_ALIGN(sizeof(idx)), len - NLA_ALIGN(sizeof(idx)),
			 &router_pattr_attrs);
	}
	return true;
}

static const struct nla_policy mdba_router_pol[] = {
	[MDBA_ROUTER_PORT] = { p_router_port, NULL },
};
static TABLE(mdba_router_attrs, xlat_rtnl_mdba_router_attrs, "MDBA_ROUTER_???", mdba_router_pol);

static const struct nla_policy mdb_pol[] = {
	[MDBA_MDB] = NESTED(mdba_mdb_attrs),
	[MDBA_ROUTER] = NESTED(mdba_router_attrs),
};
TABLE(rtnl_mdb_attrs, xlat_rtnl_mdb_attrs, "MDBA_???", mdb_pol);
TABLE(rtnl_nsid_attrs, xlat_rtnl_nsid_attrs, "NETNSA_???", none_pol);

static const struct nla_policy nha_res_group_pol[] = {
	[NHA_RES_GROUP_BUCKETS] = U16,
	[NHA_RES_GROUP_IDLE_TIMER] = CLOCK_T,
	[NHA_RES_GROUP_UNBALANCED_TIMER] = CLOCK_T,
	[NHA_RES_GROUP_UNBALANCED_TIME] = CLOCK_T,
};
static TABLE(nha_res_group_attrs, xlat_rtnl_nha_res_group_attrs, "NHA_RES_GROUP_???",
	     nha_res_group_pol);

static const struct nla_policy nha_res_bucket_pol[] = {
	[NHA_RES_BUCKET_INDEX] = U16,
	[NHA_RES_BUCKET_IDLE_TIME] = CLOCK_T,
	[NHA_RES_BUCKET_NH_ID] = U32,
};
static TABLE(nha_res_bucket_attrs, xlat_rtnl_nha_res_bucket_attrs, "NHA_RES_BUCKET_???",
	     nha_res_bucket_pol);

/* struct nexthop_grp as strace 6.1 names it (newer headers call resvd1 weight_high). */
struct nh_grp {
	uint32_t id;
	uint8_t weight, resvd1;
	uint16_t resvd2;
};

static bool p_nh_grp(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct nh_grp g;
	(void)size;
	(void)data;
	memcpy(&g, elem, sizeof(g));
	out(c, "{id=%u, weight=%u", g.id, g.weight);
	if (g.resvd1)
		out(c, ", resvd1=%#x", g.resvd1);
	if (g.resvd2)
		out(c, ", resvd2=%#x", g.resvd2);
	out(c, "}");
	return true;
}

/* NHA_GROUP: [{id=1, weight=0}, ...] */
static bool p_nh_group(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (len < sizeof(struct nh_grp))
		return false;
	pn_array(c, addr, len / sizeof(struct nh_grp), sizeof(struct nh_grp), p_nh_grp,
		 NULL);
	return true;
}

static const struct nla_policy nexthop_pol[] = {
	[NHA_ID] = U32,
	[NHA_GROUP] = { p_nh_group, NULL },
	[NHA_GROUP_TYPE] = { nla_xval16, &(const struct nla_xlat){ &xlat_rtnl_nexthop_grp_types,
								  "NEXTHOP_GRP_TYPE_???" } },
	[NHA_BLACKHOLE] = U32,
	[NHA_GATEWAY] = ADDR,
	[NHA_ENCAP_TYPE] = { nla_xval16, &(const struct nla_xlat){ &xlat_lwtunnel_encap_types,
								  "LWTUNNEL_ENCAP_???" } },
	[NHA_GROUPS] = U32,
	[NHA_FDB] = U32,
	[NHA_RES_GROUP] = NESTED(nha_res_group_attrs),
	[NHA_RES_BUCKET] = NESTED(nha_res_bucket_attrs),
	[NHA_OIF] = IFINDEX,
	[NHA_MASTER] = IFINDEX,
};
TABLE(rtnl_nexthop_attrs, xlat_rtnl_nexthop_attrs, "NHA_???", nexthop_pol);

/* {rtvia_family=AF_INET, rtvia_addr=inet_addr("1.2.3.4")} */
static bool p_rtvia(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	uint16_t family;
	(void)arg;
	int got = nla_read(c, addr, len, &family, sizeof(family));
	if (got <= 0)
		return got == 0;
	out(c, "{rtvia_family=");
	p_xval(c, &xlat_addrfams, family, "AF_???");
	if (len > sizeof(family)) {
		uint64_t a = addr + sizeof(family);
		unsigned n = len - sizeof(family);
		unsigned char buf[16];
		out(c, ", ");
		if ((family == AF_INET && n >= 4) || (family == AF_INET6 && n >= 16)) {
			if (nl_read(c, a, buf, family == AF_INET ? 4 : 16))
				pn_inet_addr(c, family, buf, "rtvia_addr");
			else
				p_addr(c, a);
		} else {
			out(c, "rtvia_addr=");
			nl_hex(c, a, n);
		}
	}
	out(c, "}");
	return true;
}

/* RTA_MULTIPATH: rtnexthop after rtnexthop, each with route attributes of its own. */
static bool p_multipath(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct rtnexthop nh;
	uint64_t cur = addr;
	unsigned left = len;
	bool array = false;
	(void)arg;
	if (len < sizeof(nh))
		return false;
	for (;;) {
		if (!nl_read(c, cur, &nh, sizeof(nh))) {
			p_addr(c, cur);
			break;
		}
		unsigned off = RTNH_ALIGN(sizeof(nh));
		unsigned nh_len = nh.rtnh_len < left ? nh.rtnh_len : left;
		if (cur == addr && nh.rtnh_len < len) {
			out(c, "[");
			array = true;
		}
		if (cur > addr)
			out(c, ", ");
		if (nh_len > off)
			out(c, "[");
		out(c, "{rtnh_len=%u, rtnh_flags=", nh.rtnh_len);
		p_flags(c, &xlat_route_nexthop_flags, nh.rtnh_flags, "RTNH_F_???");
		out(c, ", rtnh_hops=%u, rtnh_ifindex=", nh.rtnh_hops);
		pn_ifindex(c, (unsigned)nh.rtnh_ifindex);
		out(c, "}");
		if (nh_len > off) {
			out(c, ", ");
			nl_attrs(c, cur + off, nh_len - off, &rtnl_route_attrs);
			out(c, "]");
		}
		if (RTNH_ALIGN(nh_len) >= left)
			break;
		cur += RTNH_ALIGN(nh_len);
		left -= RTNH_ALIGN(nh_len);
	}
	if (array)
		out(c, "]");
	return true;
}

static const struct nla_policy ipmra_creport_pol[] = {
	[1] = { nla_xval8, &(const struct nla_xlat){ &xlat_igmpmsg_types, "IGMPMSG_???" } },
	[2] = U32,		/* VIF_ID */
	[3] = { nla_in_addr, NULL },
	[4] = { nla_in_addr, NULL },
	[6] = U32,		/* TABLE */
};
static TABLE(ipmra_creport_attrs, xlat_rtnl_ipmra_creport_attrs, "IPMRA_CREPORT_???",
	     ipmra_creport_pol);

static const struct nla_policy ip6mra_creport_pol[] = {
	[1] = { nla_xval8, &(const struct nla_xlat){ &xlat_mrt6msg_types, "MRT6MSG_???" } },
	[2] = U32,		/* MIF_ID */
	[3] = { nla_in6_addr, NULL },
	[4] = { nla_in6_addr, NULL },
};
static TABLE(ip6mra_creport_attrs, xlat_rtnl_ip6mra_creport_attrs, "IP6MRA_CREPORT_???",
	     ip6mra_creport_pol);

const struct nla_table *rtnl_creport_attrs(uint8_t family)
{
	switch (family) {
	case RTNL_FAMILY_IPMR:
		return &ipmra_creport_attrs;
	case RTNL_FAMILY_IP6MR:
		return &ip6mra_creport_attrs;
	}
	return NULL;
}

/*
 * NETLINK_ROUTE link attributes (IFLA_*): counters, ifmap, VF info, ports,
 * XDP, AF_INET6 and bridge protinfo, and the other nests of a link message.
 */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <string.h>

#include "route.h"
#include "syscalls/print_net.h"

static const char *const link_stats_fields[] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes", "rx_errors", "tx_errors",
	"rx_dropped", "tx_dropped", "multicast", "collisions", "rx_length_errors",
	"rx_over_errors", "rx_crc_errors", "rx_frame_errors", "rx_fifo_errors",
	"rx_missed_errors", "tx_aborted_errors", "tx_carrier_errors", "tx_fifo_errors",
	"tx_heartbeat_errors", "tx_window_errors", "rx_compressed", "tx_compressed",
	"rx_nohandler", "rx_otherhost_dropped",
};

/*
 * rtnl_link_stats{,64}: counters of elem bytes each; the struct grew over
 * time, so the kernel's older sizes (min fields, or one of the sizes in
 * between) print the fields they hold and a longer value the whole struct.
 */
static bool p_link_stats_n(struct sc_call *c, uint64_t addr, unsigned len, unsigned elem,
			   unsigned min, unsigned max)
{
	unsigned n = len >= max * elem ? max : len % elem == 0 && len / elem >= min &&
		     len / elem < max ? len / elem : 0;
	unsigned char buf[25 * 8];
	if (!n)
		return false;
	if (!nl_read(c, addr, buf, n * elem)) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{");
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = 0;
		memcpy(&v, buf + i * elem, elem);
		out(c, "%s%s=%llu", i ? ", " : "", link_stats_fields[i], (unsigned long long)v);
	}
	out(c, "}");
	return true;
}

static bool p_link_stats(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	/* 23 counters, or 24 with rx_nohandler (longer values: the 24) */
	if (len != 23 * 4 && len < 24 * 4)
		return false;
	return p_link_stats_n(c, addr, len, 4, 23, 24);
}

bool rtnl_link_stats64(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	/* 23, 24 (rx_nohandler) or 25 (rx_otherhost_dropped) counters, as strace 6.1 knows them */
	if (len != 23 * 8 && len != 24 * 8 && len < 25 * 8)
		return false;
	return p_link_stats_n(c, addr, len, 8, 23, 25);
}

/* struct rtnl_link_ifmap, without its tail padding. */
static bool p_ifmap(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct rtnl_link_ifmap m;
	unsigned size = offsetof(struct rtnl_link_ifmap, port) + sizeof(m.port);
	(void)arg;
	int got = nla_read(c, addr, len, &m, size);
	if (got <= 0)
		return got == 0;
	out(c, "{mem_start=%#llx, mem_end=%#llx, base_addr=%#llx, irq=%u, dma=%u, port=%u}",
	    (unsigned long long)m.mem_start, (unsigned long long)m.mem_end,
	    (unsigned long long)m.base_addr, m.irq, m.dma, m.port);
	return true;
}

static bool p_nla_fd(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	int32_t fd;
	(void)arg;
	int got = nla_read(c, addr, len, &fd, sizeof(fd));
	if (got > 0)
		p_fd(c, (uint64_t)(int64_t)fd);
	return got >= 0;
}


/* {vsi_mgr_id=1, vsi_type_id="\x01\x02\x03", vsi_type_version=2[, pad="..."]} */
static bool p_port_vsi(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct ifla_port_vsi v;
	static const uint8_t zero[sizeof(v.pad)];
	(void)arg;
	int got = nla_read(c, addr, len, &v, sizeof(v));
	if (got <= 0)
		return got == 0;
	out(c, "{vsi_mgr_id=%u, vsi_type_id=", v.vsi_mgr_id);
	nl_hex_bytes(c, v.vsi_type_id, sizeof(v.vsi_type_id));
	out(c, ", vsi_type_version=%u", v.vsi_type_version);
	if (memcmp(v.pad, zero, sizeof(zero))) {
		out(c, ", pad=");
		nl_hex_bytes(c, v.pad, sizeof(v.pad));
	}
	out(c, "}");
	return true;
}

static const struct nla_policy ifla_port_pol[] = {
	[IFLA_PORT_VF] = U32,
	[IFLA_PORT_PROFILE] = STR,
	[IFLA_PORT_VSI_TYPE] = { p_port_vsi, NULL },
	[IFLA_PORT_REQUEST] = U8,
	[IFLA_PORT_RESPONSE] = U16,
};
static TABLE(ifla_port_attrs, xlat_rtnl_ifla_port_attrs, "IFLA_VF_PORT_???", ifla_port_pol);

static const struct nla_policy ifla_vf_port_pol[] = {
	[IFLA_VF_PORT] = NESTED(ifla_port_attrs),
};
static TABLE(ifla_vf_port_attrs, xlat_rtnl_ifla_vf_port_attrs, "IFLA_VF_PORT_???", ifla_vf_port_pol);

static const struct nla_policy ifla_xdp_pol[] = {
	[IFLA_XDP_FD] = { p_nla_fd, NULL },
	[IFLA_XDP_ATTACHED] = { nla_xval8, &(const struct nla_xlat){ &xlat_rtnl_ifla_xdp_attached_mode,
								     "XDP_ATTACHED_???" } },
	[IFLA_XDP_FLAGS] = FLAGS32(xlat_xdp_flags, "XDP_FLAGS_???"),
	[IFLA_XDP_PROG_ID] = U32,
	[IFLA_XDP_DRV_PROG_ID] = U32,
	[IFLA_XDP_SKB_PROG_ID] = U32,
	[IFLA_XDP_HW_PROG_ID] = U32,
	[IFLA_XDP_EXPECTED_FD] = { p_nla_fd, NULL },
};
static TABLE(ifla_xdp_attrs, xlat_rtnl_ifla_xdp_attrs, "IFLA_XDP_???", ifla_xdp_pol);

static const struct nla_policy proto_down_reason_pol[] = {
	[IFLA_PROTO_DOWN_REASON_MASK] = X32,
	[IFLA_PROTO_DOWN_REASON_VALUE] = X32,
};
static TABLE(proto_down_reason_attrs, xlat_rtnl_ifla_proto_down_reason_attrs,
	     "IFLA_PROTO_DOWN_REASON_???", proto_down_reason_pol);

/* [[DEVCONF_FORWARDING]=1, ...]: an array of n-byte counters indexed by a table. */
struct indexed {
	unsigned size;		/* 4 (signed) or 8 (unsigned) */
	const struct xlat *x;
	const char *dflt;
	unsigned base;		/* slot i holds the constant i + base: [NAME-base] */
};

static bool p_indexed(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	const struct indexed *ix = arg;
	unsigned n = len / ix->size;
	if (!n)
		return false;
	out(c, "[");
	for (unsigned i = 0; i < n; i++) {
		unsigned char b[8];
		if (i)
			out(c, ", ");
		if (nl_abbrev_stop(c, i)) {
			out(c, "...");
			break;
		}
		if (!nl_read(c, addr + (uint64_t)i * ix->size, b, ix->size)) {
			if (i)
				out(c, "... /* %#llx */", (unsigned long long)(addr + (uint64_t)i * ix->size));
			else
				p_addr(c, addr);
			break;
		}
		out(c, "[");
		pn_xval_dec(c, ix->x, i + ix->base, ix->dflt);
		if (ix->base)
			out(c, "-%u", ix->base);
		if (ix->size == 4) {
			int32_t v;
			memcpy(&v, b, 4);
			out(c, "]=%d", v);
		} else {
			uint64_t v;
			memcpy(&v, b, 8);
			out(c, "]=%llu", (unsigned long long)v);
		}
	}
	out(c, "]");
	return true;
}

#define INDEXED(sz, xl, d) { p_indexed, &(const struct indexed){ sz, &xl, d, 0 } }

static const struct nla_policy ifla_inet_pol[] = {
	[IFLA_INET_CONF] = { p_indexed, &(const struct indexed){ 4, &xlat_ipv4_devconf,
								 "IPV4_DEVCONF_???", 1 } },
};
TABLE(rtnl_ifla_inet_attrs, xlat_rtnl_ifla_inet_attrs, "IFLA_INET_???", ifla_inet_pol);

static const struct nla_policy ifla_inet6_pol[] = {
	[IFLA_INET6_FLAGS] = FLAGS32(xlat_inet6_if_flags, "IF_???"),
	[IFLA_INET6_CONF] = INDEXED(4, xlat_inet6_devconf_indices, "DEVCONF_???"),
	[IFLA_INET6_STATS] = INDEXED(8, xlat_snmp_ip_stats, "IPSTATS_MIB_???"),
	[IFLA_INET6_CACHEINFO] = STRUCT(struct ifla_cacheinfo,
					NLA_F(struct ifla_cacheinfo, max_reasm_len, NF_U),
					NLA_F(struct ifla_cacheinfo, tstamp, NF_U),
					NLA_F(struct ifla_cacheinfo, reachable_time, NF_U),
					NLA_F(struct ifla_cacheinfo, retrans_time, NF_U)),
	[IFLA_INET6_ICMP6STATS] = INDEXED(8, xlat_snmp_icmp6_stats, "ICMP6_MIB_???"),
	[IFLA_INET6_TOKEN] = { nla_in6_addr, NULL },
	[IFLA_INET6_ADDR_GEN_MODE] = { nla_xval8, &(const struct nla_xlat){ &xlat_in6_addr_gen_mode,
									   "IN6_ADDR_GEN_MODE_???" } },
	[IFLA_INET6_RA_MTU] = U32,
};
TABLE(rtnl_ifla_inet6_attrs, xlat_rtnl_ifla_inet6_attrs, "IFLA_INET6_???", ifla_inet6_pol);

/* struct ifla_bridge_id: {prio=[128, 0], addr=00:11:22:33:44:55} */
bool rtnl_bridge_id(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct ifla_bridge_id id;
	(void)arg;
	int got = nla_read(c, addr, len, &id, sizeof(id));
	if (got <= 0)
		return got == 0;
	out(c, "{prio=[%u, %u], addr=", id.prio[0], id.prio[1]);
	nl_mac(c, id.addr, sizeof(id.addr));
	out(c, "}");
	return true;
}

static const struct nla_policy brport_pol[] = {
	[IFLA_BRPORT_STATE] = U8,
	[IFLA_BRPORT_PRIORITY] = U16,
	[IFLA_BRPORT_COST] = U32,
	[IFLA_BRPORT_MODE] = U8,
	[IFLA_BRPORT_GUARD] = U8,
	[IFLA_BRPORT_PROTECT] = U8,
	[IFLA_BRPORT_FAST_LEAVE] = U8,
	[IFLA_BRPORT_LEARNING] = U8,
	[IFLA_BRPORT_UNICAST_FLOOD] = U8,
	[IFLA_BRPORT_PROXYARP] = U8,
	[IFLA_BRPORT_LEARNING_SYNC] = U8,
	[IFLA_BRPORT_PROXYARP_WIFI] = U8,
	[IFLA_BRPORT_ROOT_ID] = { rtnl_bridge_id, NULL },
	[IFLA_BRPORT_BRIDGE_ID] = { rtnl_bridge_id, NULL },
	[IFLA_BRPORT_DESIGNATED_PORT] = U16,
	[IFLA_BRPORT_DESIGNATED_COST] = U16,
	[IFLA_BRPORT_ID] = U16,
	[IFLA_BRPORT_NO] = U16,
	[IFLA_BRPORT_TOPOLOGY_CHANGE_ACK] = U8,
	[IFLA_BRPORT_CONFIG_PENDING] = U8,
	[IFLA_BRPORT_MESSAGE_AGE_TIMER] = CLOCK_T,
	[IFLA_BRPORT_FORWARD_DELAY_TIMER] = CLOCK_T,
	[IFLA_BRPORT_HOLD_TIMER] = CLOCK_T,
	[IFLA_BRPORT_MULTICAST_ROUTER] = U8,
	[IFLA_BRPORT_MCAST_FLOOD] = U8,
	[IFLA_BRPORT_MCAST_TO_UCAST] = U8,
	[IFLA_BRPORT_VLAN_TUNNEL] = U8,
	[IFLA_BRPORT_BCAST_FLOOD] = U8,
	[IFLA_BRPORT_GROUP_FWD_MASK] = { nla_x16, NULL },
	[IFLA_BRPORT_NEIGH_SUPPRESS] = U8,
	[IFLA_BRPORT_ISOLATED] = U8,
	[IFLA_BRPORT_BACKUP_PORT] = IFINDEX,
	[IFLA_BRPORT_MRP_RING_OPEN] = U8,
	[IFLA_BRPORT_MRP_IN_OPEN] = U8,
	[IFLA_BRPORT_MCAST_EHT_HOSTS_LIMIT] = U32,
	[IFLA_BRPORT_MCAST_EHT_HOSTS_CNT] = U32,
	[IFLA_BRPORT_LOCKED] = U8,
};
TABLE(rtnl_brport_attrs, xlat_rtnl_ifla_brport_attrs, "IFLA_BRPORT_???", brport_pol);

/* IFLA_PROTINFO: by the link's family (AF_INET6, AF_BRIDGE; others in hex). */
static bool p_protinfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	if (nl_family() == AF_INET6)
		nl_attrs(c, addr, len, &rtnl_ifla_inet6_attrs);
	else if (nl_family() == AF_BRIDGE)
		nl_attrs(c, addr, len, &rtnl_brport_attrs);
	else
		return false;
	return true;
}

/* {vf=1, mac=00:11:...} and {broadcast=...}: 32-byte hardware addresses. */
static bool p_vf_mac(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct ifla_vf_mac m;
	(void)arg;
	int got = nla_read(c, addr, len, &m, sizeof(m));
	if (got <= 0)
		return got == 0;
	out(c, "{vf=%u, mac=", m.vf);
	nl_mac(c, m.mac, sizeof(m.mac));
	out(c, "}");
	return true;
}

static bool p_vf_broadcast(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct ifla_vf_broadcast b;
	(void)arg;
	int got = nla_read(c, addr, len, &b, sizeof(b));
	if (got <= 0)
		return got == 0;
	out(c, "{broadcast=");
	nl_mac(c, b.broadcast, sizeof(b.broadcast));
	out(c, "}");
	return true;
}

static bool p_vf_vlan_info(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct ifla_vf_vlan_info v;
	(void)arg;
	int got = nla_read(c, addr, len, &v, sizeof(v));
	if (got <= 0)
		return got == 0;
	out(c, "{vf=%u, vlan=%u, qos=%u, vlan_proto=htons(", v.vf, v.vlan, v.qos);
	p_xval(c, &xlat_ethernet_protocols, ntohs(v.vlan_proto), "ETH_P_???");
	out(c, ")}");
	return true;
}

static const struct nla_policy vf_vlan_list_pol[] = {
	[IFLA_VF_VLAN_INFO] = { p_vf_vlan_info, NULL },
};
static TABLE(vf_vlan_list_attrs, xlat_rtnl_ifla_vf_vlan_list_attrs, "IFLA_VF_VLAN_INFO_???",
	     vf_vlan_list_pol);

static const struct nla_policy vf_stats_pol[] = {
	[IFLA_VF_STATS_RX_PACKETS] = U64, [IFLA_VF_STATS_TX_PACKETS] = U64,
	[IFLA_VF_STATS_RX_BYTES] = U64, [IFLA_VF_STATS_TX_BYTES] = U64,
	[IFLA_VF_STATS_BROADCAST] = U64, [IFLA_VF_STATS_MULTICAST] = U64,
	[IFLA_VF_STATS_RX_DROPPED] = U64, [IFLA_VF_STATS_TX_DROPPED] = U64,
};
static TABLE(vf_stats_attrs, xlat_rtnl_ifla_vf_stats_attrs, "IFLA_VF_STATS_???", vf_stats_pol);

#define VF_SETTING(T) STRUCT(T, NLA_F(T, vf, NF_U), NLA_F(T, setting, NF_U))
#define VF_GUID STRUCT(struct ifla_vf_guid, NLA_F(struct ifla_vf_guid, vf, NF_U), \
		       NLA_F(struct ifla_vf_guid, guid, NF_X))
static const struct nla_policy vf_info_pol[] = {
	[IFLA_VF_MAC] = { p_vf_mac, NULL },
	[IFLA_VF_VLAN] = STRUCT(struct ifla_vf_vlan, NLA_F(struct ifla_vf_vlan, vf, NF_U),
				NLA_F(struct ifla_vf_vlan, vlan, NF_U),
				NLA_F(struct ifla_vf_vlan, qos, NF_U)),
	[IFLA_VF_TX_RATE] = STRUCT(struct ifla_vf_tx_rate, NLA_F(struct ifla_vf_tx_rate, vf, NF_U),
				   NLA_F(struct ifla_vf_tx_rate, rate, NF_U)),
	[IFLA_VF_SPOOFCHK] = VF_SETTING(struct ifla_vf_spoofchk),
	[IFLA_VF_LINK_STATE] = STRUCT(struct ifla_vf_link_state,
				      NLA_F(struct ifla_vf_link_state, vf, NF_U),
				      NLA_FX(struct ifla_vf_link_state, link_state, NF_XVAL,
					     &xlat_rtnl_ifla_vf_link_states, "IFLA_VF_LINK_STATE_???")),
	[IFLA_VF_RATE] = STRUCT(struct ifla_vf_rate, NLA_F(struct ifla_vf_rate, vf, NF_U),
				NLA_F(struct ifla_vf_rate, min_tx_rate, NF_U),
				NLA_F(struct ifla_vf_rate, max_tx_rate, NF_U)),
	[IFLA_VF_RSS_QUERY_EN] = VF_SETTING(struct ifla_vf_rss_query_en),
	[IFLA_VF_STATS] = NESTED(vf_stats_attrs),
	[IFLA_VF_TRUST] = VF_SETTING(struct ifla_vf_trust),
	[IFLA_VF_IB_NODE_GUID] = VF_GUID,
	[IFLA_VF_IB_PORT_GUID] = VF_GUID,
	[IFLA_VF_VLAN_LIST] = NESTED(vf_vlan_list_attrs),
	[IFLA_VF_BROADCAST] = { p_vf_broadcast, NULL },
};
static TABLE(vf_info_attrs, xlat_rtnl_ifla_vf_info_attrs, "IFLA_VF_???", vf_info_pol);

static const struct nla_policy vfinfo_list_pol[] = {
	[IFLA_VF_INFO] = NESTED(vf_info_attrs),
};
static TABLE(vfinfo_list_attrs, xlat_rtnl_ifla_vfinfo_list_attrs, "IFLA_VF_INFO_???",
	     vfinfo_list_pol);

/* IFLA_PROP_LIST holds link attributes again, of which only IFLA_ALT_IFNAME is decoded. */
static const struct nla_policy prop_list_pol[] = {
	[IFLA_ALT_IFNAME] = STR,
};
static TABLE(prop_list_attrs, xlat_rtnl_link_attrs, "IFLA_???", prop_list_pol);

#define HWADDR { nla_hwaddr, NULL }
static const struct nla_policy link_pol[] = {
	[IFLA_ADDRESS] = HWADDR,
	[IFLA_BROADCAST] = HWADDR,
	[IFLA_IFNAME] = STR,
	[IFLA_MTU] = U32,
	[IFLA_LINK] = U32,
	[IFLA_QDISC] = STR,
	[IFLA_STATS] = { p_link_stats, NULL },
	[IFLA_MASTER] = U32,
	[IFLA_PROTINFO] = { p_protinfo, NULL },
	[IFLA_AF_SPEC] = { rtnl_link_af_spec, NULL },
	[IFLA_TXQLEN] = U32,
	[IFLA_MAP] = { p_ifmap, NULL },
	[IFLA_WEIGHT] = U32,
	[IFLA_OPERSTATE] = U8,
	[IFLA_LINKMODE] = U8,
	[IFLA_LINKINFO] = { rtnl_linkinfo, NULL },
	[IFLA_NET_NS_PID] = U32,
	[IFLA_IFALIAS] = STR,
	[IFLA_NUM_VF] = U32,
	[IFLA_VFINFO_LIST] = NESTED(vfinfo_list_attrs),
	[IFLA_STATS64] = { rtnl_link_stats64, NULL },
	[IFLA_VF_PORTS] = NESTED(ifla_vf_port_attrs),
	[IFLA_PORT_SELF] = NESTED(ifla_port_attrs),
	[IFLA_GROUP] = U32,
	[IFLA_NET_NS_FD] = { p_nla_fd, NULL },
	[IFLA_EXT_MASK] = FLAGS32(xlat_rtnl_ifla_ext_filter_flags, "RTEXT_FILTER_???"),
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
	[IFLA_XDP] = NESTED(ifla_xdp_attrs),
	[IFLA_EVENT] = { nla_xval32, &(const struct nla_xlat){ &xlat_rtnl_ifla_events, "IFLA_EVENT_???" } },
	[IFLA_NEW_NETNSID] = S32,
	[IFLA_IF_NETNSID] = S32,
	[IFLA_CARRIER_UP_COUNT] = U32,
	[IFLA_CARRIER_DOWN_COUNT] = U32,
	[IFLA_NEW_IFINDEX] = IFINDEX,
	[IFLA_MIN_MTU] = U32,
	[IFLA_MAX_MTU] = U32,
	[IFLA_PROP_LIST] = NESTED(prop_list_attrs),
	[IFLA_ALT_IFNAME] = STR,
	[IFLA_PERM_ADDRESS] = HWADDR,
	[IFLA_PROTO_DOWN_REASON] = NESTED(proto_down_reason_attrs),
	[IFLA_PARENT_DEV_NAME] = STR,
	[IFLA_PARENT_DEV_BUS_NAME] = STR,
	[IFLA_GRO_MAX_SIZE] = U32,
	[IFLA_TSO_MAX_SIZE] = U32,
	[IFLA_TSO_MAX_SEGS] = U32,
	[IFLA_ALLMULTI] = U32,
};
TABLE(rtnl_link_attrs, xlat_rtnl_link_attrs, "IFLA_???", link_pol);

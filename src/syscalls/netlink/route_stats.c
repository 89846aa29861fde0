/*
 * RTM_{NEW,GET}STATS attributes (IFLA_STATS_*): 64-bit link counters, the
 * per-link-kind extended stats of bridges and bonds, offload stats, and the
 * per-address-family stats (MPLS).
 */
#include <sys/socket.h>
#include <linux/if_bonding.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>
#include <linux/mpls.h>

#include "route.h"
#include "syscalls/print_net.h"

/* A struct value, then the bytes past it (a newer kernel's fields) in hex. */
static bool nla_struct_tail(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	const struct nla_struct *st = arg;
	if (!nla_struct(c, addr, len, arg))
		return false;
	if (len > st->size) {
		out(c, ", ");
		nl_hex(c, addr + st->size, len - st->size);
	}
	return true;
}
#define STRUCT_TAIL(T, ...) { nla_struct_tail, &(const struct nla_struct)NLA_STRUCT(T, __VA_ARGS__) }

/* struct bridge_vlan_xstats: pad2 only when set. */
static bool p_bridge_vlan_xstats(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct bridge_vlan_xstats v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (!nl_read(c, addr, &v, sizeof(v))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{rx_bytes=%llu, rx_packets=%llu, tx_bytes=%llu, tx_packets=%llu, vid=%u, flags=",
	    (unsigned long long)v.rx_bytes, (unsigned long long)v.rx_packets,
	    (unsigned long long)v.tx_bytes, (unsigned long long)v.tx_packets, v.vid);
	p_flags(c, &xlat_bridge_vlan_info_flags, v.flags, "BRIDGE_VLAN_INFO_???");
	if (v.pad2)
		out(c, ", pad2=%#x", v.pad2);
	out(c, "}");
	if (len > sizeof(v)) {
		out(c, ", ");
		nl_hex(c, addr + sizeof(v), len - sizeof(v));
	}
	return true;
}

/* struct br_mcast_stats: counters, most of them [rx, tx] pairs. */
static bool p_br_mcast_stats(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	static const struct { const char *name; unsigned char pair; } f[] = {
		{ "igmp_v1queries", 1 }, { "igmp_v2queries", 1 }, { "igmp_v3queries", 1 },
		{ "igmp_leaves", 1 }, { "igmp_v1reports", 1 }, { "igmp_v2reports", 1 },
		{ "igmp_v3reports", 1 }, { "igmp_parse_errors", 0 }, { "mld_v1queries", 1 },
		{ "mld_v2queries", 1 }, { "mld_leaves", 1 }, { "mld_v1reports", 1 },
		{ "mld_v2reports", 1 }, { "mld_parse_errors", 0 }, { "mcast_bytes", 1 },
		{ "mcast_packets", 1 },
	};
	struct br_mcast_stats s;
	const uint64_t *v = (const uint64_t *)&s;
	(void)arg;
	if (len < sizeof(s))
		return false;
	if (!nl_read(c, addr, &s, sizeof(s))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{");
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		out(c, "%s%s=", i ? ", " : "", f[i].name);
		if (!f[i].pair) {
			out(c, "%llu", (unsigned long long)*v++);
			continue;
		}
		for (int d = 0; d < BR_MCAST_DIR_SIZE; d++) {
			out(c, d ? ", [" : "[[");
			pn_xval_dec(c, &xlat_br_mcast_dir, d, "BR_MCAST_DIR_???");
			out(c, "]=%llu", (unsigned long long)*v++);
		}
		out(c, "]");
	}
	out(c, "}");
	if (len > sizeof(s)) {
		out(c, ", ");
		nl_hex(c, addr + sizeof(s), len - sizeof(s));
	}
	return true;
}

#define BSTP(f) NLA_F(struct bridge_stp_xstats, f, NF_U)
static const struct nla_policy bridge_xstats_pol[] = {
	[BRIDGE_XSTATS_VLAN] = { p_bridge_vlan_xstats, NULL },
	[BRIDGE_XSTATS_MCAST] = { p_br_mcast_stats, NULL },
	[BRIDGE_XSTATS_STP] = STRUCT_TAIL(struct bridge_stp_xstats, BSTP(transition_blk),
					  BSTP(transition_fwd), BSTP(rx_bpdu), BSTP(tx_bpdu),
					  BSTP(rx_tcn), BSTP(tx_tcn)),
};
static TABLE(bridge_xstats_attrs, xlat_bridge_xstats, "BRIDGE_XSTATS_???", bridge_xstats_pol);

static const struct nla_policy bond_3ad_pol[] = {
	[BOND_3AD_STAT_LACPDU_RX] = U64, [BOND_3AD_STAT_LACPDU_TX] = U64,
	[BOND_3AD_STAT_LACPDU_UNKNOWN_RX] = U64, [BOND_3AD_STAT_LACPDU_ILLEGAL_RX] = U64,
	[BOND_3AD_STAT_MARKER_RX] = U64, [BOND_3AD_STAT_MARKER_TX] = U64,
	[BOND_3AD_STAT_MARKER_RESP_RX] = U64, [BOND_3AD_STAT_MARKER_RESP_TX] = U64,
	[BOND_3AD_STAT_MARKER_UNKNOWN_RX] = U64,
};
/* strace names unknown 3AD counters BOND_XSTATS_??? */
static TABLE(bond_3ad_attrs, xlat_bond_3ad_stats, "BOND_XSTATS_???", bond_3ad_pol);

static const struct nla_policy bond_xstats_pol[] = {
	[BOND_XSTATS_3AD] = NESTED(bond_3ad_attrs),
};
static TABLE(bond_xstats_attrs, xlat_bond_xstats, "BOND_XSTATS_???", bond_xstats_pol);

static const struct nla_policy link_xstats_pol[] = {
	[LINK_XSTATS_TYPE_BRIDGE] = NESTED(bridge_xstats_attrs),
	[LINK_XSTATS_TYPE_BOND] = NESTED(bond_xstats_attrs),
};
static TABLE(link_xstats_attrs, xlat_link_xstats_types, "LINK_XSTATS_TYPE_???", link_xstats_pol);

static const struct nla_policy offload_xstats_pol[] = {
	[IFLA_OFFLOAD_XSTATS_CPU_HIT] = { rtnl_link_stats64, NULL },
};
static TABLE(offload_xstats_attrs, xlat_ifla_offload_xstats, "IFLA_OFFLOAD_XSTATS_???",
	     offload_xstats_pol);

#define MPLS(f) NLA_F(struct mpls_link_stats, f, NF_U)
static const struct nla_policy mpls_stats_pol[] = {
	[MPLS_STATS_LINK] = STRUCT_TAIL(struct mpls_link_stats, MPLS(rx_packets), MPLS(tx_packets),
					MPLS(rx_bytes), MPLS(tx_bytes), MPLS(rx_errors),
					MPLS(tx_errors), MPLS(rx_dropped), MPLS(tx_dropped),
					MPLS(rx_noroute)),
};
static TABLE(mpls_stats_attrs, xlat_mpls_stats, "MPLS_STATS_???", mpls_stats_pol);

/* IFLA_STATS_AF_SPEC: one nest per address family. */
static const struct nla_policy stats_af_pol[] = {
	[AF_MPLS] = NESTED(mpls_stats_attrs),
};
static TABLE(stats_af_attrs, xlat_addrfams, "AF_???", stats_af_pol);

static const struct nla_policy stats_pol[] = {
	[IFLA_STATS_LINK_64] = { rtnl_link_stats64, NULL },
	[IFLA_STATS_LINK_XSTATS] = NESTED(link_xstats_attrs),
	[IFLA_STATS_LINK_XSTATS_SLAVE] = NESTED(link_xstats_attrs),
	[IFLA_STATS_LINK_OFFLOAD_XSTATS] = NESTED(offload_xstats_attrs),
	[IFLA_STATS_AF_SPEC] = NESTED(stats_af_attrs),
};
TABLE(rtnl_stats_attrs, xlat_ifla_stats, "IFLA_STATS_???", stats_pol);

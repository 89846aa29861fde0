/* NETLINK_ROUTE attribute tables (route_attrs.c), one per family header. */
#ifndef TRACEKIT_SYSCALLS_NETLINK_ROUTE_H
#define TRACEKIT_SYSCALLS_NETLINK_ROUTE_H

#include "netlink.h"

extern const struct nla_table rtnl_link_attrs, rtnl_addr_attrs, rtnl_route_attrs,
	rtnl_neigh_attrs, rtnl_rule_attrs, rtnl_tc_attrs, rtnl_tca_attrs, rtnl_neightbl_attrs,
	rtnl_addrlabel_attrs, rtnl_dcb_attrs, rtnl_netconf_attrs, rtnl_mdb_attrs, rtnl_nsid_attrs,
	rtnl_stats_attrs, rtnl_nexthop_attrs;

/* Table shorthands for the route attribute files. */
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
#define CLOCK_T { nla_clock_t, NULL }
#define ADDR { nla_inet_addr, NULL }
#define STRUCT(T, ...) { nla_struct, &(const struct nla_struct)NLA_STRUCT(T, __VA_ARGS__) }
/* A struct whose kernel size is less than its C size (tail padding). */
#define STRUCT_SZ(size, ...) { nla_struct, &(const struct nla_struct){ size, \
	(const struct nla_field[]){ __VA_ARGS__ }, \
	sizeof((const struct nla_field[]){ __VA_ARGS__ }) / sizeof(struct nla_field) } }
#define RT_TABLE { nla_xval32, &(const struct nla_xlat){ &xlat_routing_table_ids, NULL } }

/* Bytes as a quoted string of \xNN escapes (fixed-size binary fields). */
void nl_hex_bytes(struct sc_call *c, const uint8_t *b, size_t n);

/* struct rtnl_link_stats64 in any of the sizes the kernel used (route_link.c). */
bool rtnl_link_stats64(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);

/* IFLA_AF_SPEC by the link's family (route_af_spec.c), and the per-family nests it uses. */
bool rtnl_link_af_spec(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
extern const struct nla_table rtnl_ifla_inet_attrs, rtnl_ifla_inet6_attrs;

/* IFLA_LINKINFO's attributes, its data by link kind (route_linkinfo.c). */
bool rtnl_linkinfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
extern const struct nla_table rtnl_brport_attrs;
/* struct ifla_bridge_id (route_link.c). */
bool rtnl_bridge_id(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);

/* The attributes of a cache report of family RTNL_FAMILY_IPMR or _IP6MR; NULL for others. */
const struct nla_table *rtnl_creport_attrs(uint8_t family);

#endif

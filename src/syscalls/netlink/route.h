/* NETLINK_ROUTE attribute tables (route_attrs.c), one per family header. */
#ifndef TRACEKIT_SYSCALLS_NETLINK_ROUTE_H
#define TRACEKIT_SYSCALLS_NETLINK_ROUTE_H

#include "netlink.h"

extern const struct nla_table rtnl_link_attrs, rtnl_addr_attrs, rtnl_route_attrs,
	rtnl_neigh_attrs, rtnl_rule_attrs, rtnl_tc_attrs, rtnl_tca_attrs, rtnl_neightbl_attrs,
	rtnl_addrlabel_attrs, rtnl_dcb_attrs, rtnl_netconf_attrs, rtnl_mdb_attrs, rtnl_nsid_attrs,
	rtnl_stats_attrs, rtnl_nexthop_attrs;

/* The attributes of a cache report of family RTNL_FAMILY_IPMR or _IP6MR; NULL for others. */
const struct nla_table *rtnl_creport_attrs(uint8_t family);

#endif

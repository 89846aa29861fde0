/*
 * IFLA_AF_SPEC of a link message: for an AF_BRIDGE link the bridge's own
 * attributes (IFLA_BRIDGE_*), otherwise one nest per address family
 * (AF_INET devconf, AF_INET6 device state, AF_MCTP network).
 */
#include <sys/socket.h>
#include <linux/if_bridge.h>
#include <linux/if_link.h>

#include "route.h"

/* struct bridge_vlan_info, then any bytes past it in hex. */
static bool p_bridge_vlan_info(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	struct bridge_vlan_info v;
	(void)arg;
	if (len < sizeof(v))
		return false;
	if (!nl_read(c, addr, &v, sizeof(v))) {
		p_addr(c, addr);
		return true;
	}
	out(c, "{flags=");
	p_flags(c, &xlat_bridge_vlan_info_flags, v.flags, "BRIDGE_VLAN_INFO_???");
	out(c, ", vid=%u}", v.vid);
	if (len > sizeof(v)) {
		out(c, ", ");
		nl_hex(c, addr + sizeof(v), len - sizeof(v));
	}
	return true;
}

static const struct nla_policy vlan_tunnel_pol[] = {
	[IFLA_BRIDGE_VLAN_TUNNEL_ID] = U32,
	[IFLA_BRIDGE_VLAN_TUNNEL_VID] = U16,
	[IFLA_BRIDGE_VLAN_TUNNEL_FLAGS] = { nla_flags16, &(const struct nla_xlat){
		&xlat_bridge_vlan_info_flags, "BRIDGE_VLAN_INFO_???" } },
};
static TABLE(vlan_tunnel_attrs, xlat_rtnl_ifla_bridge_vlan_tunnel_attrs,
	     "IFLA_BRIDGE_VLAN_TUNNEL_???", vlan_tunnel_pol);

static const struct nla_policy bridge_pol[] = {
	[IFLA_BRIDGE_FLAGS] = { nla_flags16, &(const struct nla_xlat){ &xlat_bridge_flags,
								       "BRIDGE_FLAGS_???" } },
	[IFLA_BRIDGE_MODE] = { nla_xval16, &(const struct nla_xlat){ &xlat_bridge_mode,
								     "BRIDGE_MODE_???" } },
	[IFLA_BRIDGE_VLAN_INFO] = { p_bridge_vlan_info, NULL },
	[IFLA_BRIDGE_VLAN_TUNNEL_INFO] = NESTED(vlan_tunnel_attrs),
};
static TABLE(bridge_attrs, xlat_rtnl_ifla_bridge_attrs, "IFLA_BRIDGE_???", bridge_pol);

static const struct nla_policy mctp_pol[] = {
	[IFLA_MCTP_NET] = U32,
};
static TABLE(mctp_attrs, xlat_rtnl_ifla_mctp_attrs, "IFLA_MCTP_???", mctp_pol);

static const struct nla_policy af_pol[] = {
	[AF_INET] = NESTED(rtnl_ifla_inet_attrs),
	[AF_INET6] = NESTED(rtnl_ifla_inet6_attrs),
	[AF_MCTP] = NESTED(mctp_attrs),
};
static TABLE(af_attrs, xlat_addrfams, "AF_???", af_pol);

bool rtnl_link_af_spec(struct sc_call *c, uint64_t addr, unsigned len, const void *arg)
{
	(void)arg;
	nl_attrs(c, addr, len, nl_family() == AF_BRIDGE ? &bridge_attrs : &af_attrs);
	return true;
}

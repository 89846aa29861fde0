/*
 * NETLINK_ROUTE: each message type's family header (ifinfomsg for links,
 * ifaddrmsg for addresses, rtmsg for routes, ...) and its attributes.
 */
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "family.h"

bool nl_route_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
		      unsigned len)
{
	uint8_t family;
	(void)flags;
	if (type == NLMSG_DONE)
		return false;
	if (!nl_read(c, addr, &family, 1))
		p_addr(c, addr);
	else
		nl_family_only(c, family, addr, len);
	return true;
}

/*
 * NETLINK_SOCK_DIAG: requests and replies open with the address family
 * they are about.  Per-family headers (inet_diag_req_v2, unix_diag_msg,
 * ...) are not decoded yet: their bytes print in hex after the family.
 */
#include <linux/netlink.h>

#include "family.h"

bool nl_sock_diag_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
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

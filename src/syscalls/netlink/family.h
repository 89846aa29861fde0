/* Family-header printing shared by the route and sock_diag decoders. */
#ifndef TRACEKIT_SYSCALLS_NETLINK_FAMILY_H
#define TRACEKIT_SYSCALLS_NETLINK_FAMILY_H

#include "netlink.h"

struct nl_hdr_desc {
	const char *family_field;	/* "ifi_family" */
	unsigned size;			/* sizeof the struct */
	/* The fields after the family, without a leading ", "; NULL: the family only. */
	void (*fields)(struct sc_call *c, const void *buf);
	const struct nla_table *attrs;	/* what follows the struct; NULL: hex */
};

/* {family=AF_INET, data="\x01..."}: a payload no header is known for. */
void nl_family_only(struct sc_call *c, uint8_t family, uint64_t addr, unsigned len);
/* The header at addr in len bytes of payload, then its attributes. */
void nl_family_hdr(struct sc_call *c, const struct nl_hdr_desc *d, uint64_t addr, unsigned len);

#endif

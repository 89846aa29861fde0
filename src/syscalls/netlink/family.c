/*
 * Family headers: the struct that opens a message's payload, its first
 * byte an address family.  Printed as strace does: the family, then the
 * other fields (or "..." when the payload is shorter than the struct, or
 * the address when it is not readable), then the attributes after it.
 */
#include <linux/netlink.h>
#include <string.h>

#include "family.h"

/*
 * The family of the header being decoded: attribute printers whose value
 * depends on it (addresses) read it here.  Decoding is single-threaded and
 * nested headers (an ack quoting a request) set it before their attributes.
 */
static uint8_t cur_family;

uint8_t nl_family(void)
{
	return cur_family;
}

void nl_family_only(struct sc_call *c, uint8_t family, uint64_t addr, unsigned len)
{
	cur_family = family;
	out(c, "{family=");
	p_xval(c, &xlat_addrfams, family, "AF_???");
	if (len > 1) {
		out(c, ", data=");
		nl_hex(c, addr + 1, len - 1);
	}
	out(c, "}");
}

void nl_family_hdr(struct sc_call *c, const struct nl_hdr_desc *d, uint64_t addr, unsigned len)
{
	unsigned char buf[256];
	uint8_t family;
	bool attrs = false;

	if (!nl_read(c, addr, &family, 1)) {
		p_addr(c, addr);
		return;
	}
	cur_family = family;
	out(c, "{%s=", d->family_field);
	p_xval(c, &xlat_addrfams, family, "AF_???");
	if (d->fields) {
		out(c, ", ");
		if (len < d->size)
			out(c, "...");
		else if (!nl_read(c, addr, buf, d->size))
			p_addr(c, addr + 1);
		else {
			d->fields(c, buf);
			attrs = true;
		}
	} else {
		attrs = true;
	}
	out(c, "}");
	unsigned off = NLMSG_ALIGN(d->size);
	if (attrs && len > off && d->attrs) {
		out(c, ", ");
		nl_attrs(c, addr + off, len - off, d->attrs);
	} else if (attrs && len > off) {
		out(c, ", ");
		nl_hex(c, addr + off, len - off);
	}
}

/*
 * NETLINK_KOBJECT_UEVENT: libudev's monitor messages open with a header of
 * their own ("libudev", a magic, hashes in network order); kernel uevents
 * and anything else are plain strings.
 */
#include <arpa/inet.h>
#include <string.h>

#include "netlink.h"

/* libudev's struct udev_monitor_netlink_header. */
struct udev_header {
	char prefix[8];
	uint32_t magic, header_size, properties_off, properties_len;
	uint32_t filter_subsystem_hash, filter_devtype_hash;
	uint32_t filter_tag_bloom_hi, filter_tag_bloom_lo;
};

void nl_kobject_uevent(struct sc_call *c, uint64_t addr, uint64_t len)
{
	struct udev_header h;
	if (len < sizeof(h) || !nl_read(c, addr, &h, sizeof(h)) ||
	    memcmp(h.prefix, "libudev", sizeof("libudev"))) {
		p_buf(c, addr, (int64_t)len);
		return;
	}
	if (len > sizeof(h))
		out(c, "[");
	out(c, "{prefix=\"libudev\", magic=htonl(%#x), header_size=%u, properties_off=%u, "
	    "properties_len=%u, filter_subsystem_hash=htonl(%#x), filter_devtype_hash=htonl(%#x), "
	    "filter_tag_bloom_hi=htonl(%#x), filter_tag_bloom_lo=htonl(%#x)}",
	    ntohl(h.magic), h.header_size, h.properties_off, h.properties_len,
	    ntohl(h.filter_subsystem_hash), ntohl(h.filter_devtype_hash),
	    ntohl(h.filter_tag_bloom_hi), ntohl(h.filter_tag_bloom_lo));
	if (len > sizeof(h)) {
		out(c, ", ");
		p_buf(c, addr + sizeof(h), (int64_t)(len - sizeof(h)));
		out(c, "]");
	}
}

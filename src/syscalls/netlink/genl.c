/*
 * NETLINK_GENERIC message types are family ids the kernel hands out at
 * run time, so their names come from the kernel: one CTRL_CMD_GETFAMILY
 * dump on a netlink socket of our own, asked once and kept.
 */
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "netlink.h"

#define GENL_MAX_FAMILIES 256

struct genl_family {
	uint16_t id;
	char name[GENL_NAMSIZ];
};

static struct genl_family families[GENL_MAX_FAMILIES];
static unsigned nfamilies;
static bool loaded;

/* One CTRL_CMD_NEWFAMILY reply: its id and name attributes. */
static void add_family(const struct nlmsghdr *h)
{
	const unsigned char *p = (const unsigned char *)NLMSG_DATA(h) + GENL_HDRLEN;
	const unsigned char *end = (const unsigned char *)h + h->nlmsg_len;
	struct genl_family f = { 0, "" };
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const struct nlattr *)p;
		if (a->nla_len < NLA_HDRLEN || p + a->nla_len > end)
			break;
		const void *v = p + NLA_HDRLEN;
		unsigned vlen = a->nla_len - NLA_HDRLEN;
		if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID && vlen >= 2)
			memcpy(&f.id, v, 2);
		else if ((a->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_NAME)
			snprintf(f.name, sizeof(f.name), "%.*s", (int)vlen, (const char *)v);
		p += NLA_ALIGN(a->nla_len);
	}
	if (f.name[0] && nfamilies < GENL_MAX_FAMILIES)
		families[nfamilies++] = f;
}

static void load_families(void)
{
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
	} req = {
		{ sizeof(req), GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_DUMP, 1, 0 },
		{ CTRL_CMD_GETFAMILY, 1, 0 },
	};
	static char buf[32768];
	loaded = true;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (fd < 0)
		return;
	if (send(fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req))
		goto out;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		if (n <= 0)
			goto out;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR)
				goto out;
			if (h->nlmsg_type == GENL_ID_CTRL)
				add_family(h);
		}
	}
out:
	close(fd);
}

/* The family name of a generic netlink message type; NULL when unknown. */
static const char *genl_family_name(uint16_t id)
{
	if (!loaded)
		load_families();
	for (unsigned i = 0; i < nfamilies; i++)
		if (families[i].id == id)
			return families[i].name;
	return NULL;
}

void nl_genl_type(struct sc_call *c, uint16_t type)
{
	const char *name = genl_family_name(type);
	if (name)
		out(c, "%s", name);
	else
		p_xval(c, &xlat_nl_types, type, "NLMSG_???");
}

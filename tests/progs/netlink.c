/*
 * netlink: requests sent on NETLINK_ROUTE and NETLINK_SOCK_DIAG sockets
 * (family headers, attributes, two messages in one buffer), and the socket
 * options whose values are structs: a classic BPF filter, packet_mreq,
 * tpacket_req and the ICMP filter (the last ones on fd -1, so no privilege
 * is needed).  Replies are never read: only what the program sends is traced.
 * Also: nested link attributes (IFLA_LINKINFO by kind, IFLA_AF_SPEC by
 * family), RTM_GETSTATS attributes, and a generic netlink request whose
 * type strace names by asking the kernel (nlctrl).
 */
#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/icmp.h>
#include <linux/if_packet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

#include "progs.h"

/* lo is the first interface of every network namespace (if_nametoindex would add an ioctl). */
#define LO_INDEX 1

#ifndef SOL_PACKET
#define SOL_PACKET 263
#endif

static int nl_socket(int proto)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW, proto);
	check(fd >= 0, "socket(AF_NETLINK)");
	check(bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0, "bind");
	return fd;
}

/* Append an attribute of len bytes at *off in buf; returns its size with padding. */
static size_t put_attr(char *buf, size_t off, unsigned short type, const void *val, size_t len)
{
	struct nlattr *a = (struct nlattr *)(buf + off);
	a->nla_len = (unsigned short)(NLA_HDRLEN + len);
	a->nla_type = type;
	memcpy(buf + off + NLA_HDRLEN, val, len);
	return NLA_ALIGN(a->nla_len);
}

static void route_requests(void)
{
	int fd = nl_socket(NETLINK_ROUTE);
	char buf[256];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;

	/* RTM_GETLINK for "lo": ifinfomsg, then IFLA_IFNAME and IFLA_MTU. */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = RTM_GETLINK;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = 1;
	struct ifinfomsg *ifi = NLMSG_DATA(h);
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = LO_INDEX;
	size_t len = NLMSG_LENGTH(sizeof(*ifi));
	unsigned mtu = 65536;
	len += put_attr(buf, len, IFLA_IFNAME, "lo", 3);
	len += put_attr(buf, len, IFLA_MTU, &mtu, sizeof(mtu));
	h->nlmsg_len = (unsigned)len;
	check(sendto(fd, buf, len, 0, NULL, 0) == (ssize_t)len, "sendto RTM_GETLINK");

	/* Two messages in one buffer: a NOOP, then an RTM_GETADDR dump of AF_INET. */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_len = NLMSG_HDRLEN;
	h->nlmsg_type = NLMSG_NOOP;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = 2;
	struct nlmsghdr *h2 = (struct nlmsghdr *)(buf + NLMSG_HDRLEN);
	h2->nlmsg_len = NLMSG_LENGTH(sizeof(struct ifaddrmsg));
	h2->nlmsg_type = RTM_GETADDR;
	h2->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	h2->nlmsg_seq = 3;
	((struct ifaddrmsg *)NLMSG_DATA(h2))->ifa_family = AF_INET;
	len = NLMSG_HDRLEN + h2->nlmsg_len;
	check(sendto(fd, buf, len, 0, NULL, 0) == (ssize_t)len, "sendto RTM_GETADDR");

	/* RTM_GETROUTE to 127.0.0.1 out of lo: rtmsg, RTA_DST, RTA_OIF. */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = RTM_GETROUTE;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = 4;
	struct rtmsg *rtm = NLMSG_DATA(h);
	rtm->rtm_family = AF_INET;
	rtm->rtm_dst_len = 32;
	rtm->rtm_table = RT_TABLE_MAIN;
	len = NLMSG_LENGTH(sizeof(*rtm));
	struct in_addr dst = { htonl(INADDR_LOOPBACK) };
	unsigned oif = LO_INDEX;
	len += put_attr(buf, len, RTA_DST, &dst, sizeof(dst));
	len += put_attr(buf, len, RTA_OIF, &oif, sizeof(oif));
	h->nlmsg_len = (unsigned)len;
	check(sendto(fd, buf, len, 0, NULL, 0) == (ssize_t)len, "sendto RTM_GETROUTE");
	close(fd);
}

/* Open a nest at *off: returns where its header is, for nest_end. */
static size_t nest_begin(char *buf, size_t *off, unsigned short type)
{
	size_t at = *off;
	((struct nlattr *)(buf + at))->nla_type = type;
	*off += NLA_HDRLEN;
	return at;
}

static void nest_end(char *buf, size_t at, size_t off)
{
	((struct nlattr *)(buf + at))->nla_len = (unsigned short)(off - at);
}

static void nested_link_requests(void)
{
	int fd = nl_socket(NETLINK_ROUTE);
	char buf[512];
	struct nlmsghdr *h = (struct nlmsghdr *)buf;

	/* RTM_GETLINK with a bridge's IFLA_INFO_DATA and an AF_INET6 IFLA_AF_SPEC. */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = RTM_GETLINK;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = 7;
	struct ifinfomsg *ifi = NLMSG_DATA(h);
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = LO_INDEX;
	size_t len = NLMSG_LENGTH(sizeof(*ifi));
	size_t info = nest_begin(buf, &len, IFLA_LINKINFO);
	len += put_attr(buf, len, IFLA_INFO_KIND, "bridge", 7);
	size_t data = nest_begin(buf, &len, IFLA_INFO_DATA);
	unsigned stp = 1;
	unsigned short prio = 0x8000;
	len += put_attr(buf, len, IFLA_BR_STP_STATE, &stp, sizeof(stp));
	len += put_attr(buf, len, IFLA_BR_PRIORITY, &prio, sizeof(prio));
	nest_end(buf, data, len);
	nest_end(buf, info, len);
	size_t af = nest_begin(buf, &len, IFLA_AF_SPEC);
	size_t in6 = nest_begin(buf, &len, AF_INET6);
	unsigned char mode = 1;	/* IN6_ADDR_GEN_MODE_NONE */
	len += put_attr(buf, len, IFLA_INET6_ADDR_GEN_MODE, &mode, sizeof(mode));
	nest_end(buf, in6, len);
	nest_end(buf, af, len);
	h->nlmsg_len = (unsigned)len;
	check(sendto(fd, buf, len, 0, NULL, 0) == (ssize_t)len, "sendto RTM_GETLINK nested");

	/* RTM_GETSTATS with bond 3AD xstats and MPLS link stats nested in it. */
	memset(buf, 0, sizeof(buf));
	h->nlmsg_type = RTM_GETSTATS;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = 8;
	struct if_stats_msg *ism = NLMSG_DATA(h);
	ism->ifindex = LO_INDEX;
	ism->filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_XSTATS);
	len = NLMSG_LENGTH(sizeof(*ism));
	size_t xs = nest_begin(buf, &len, IFLA_STATS_LINK_XSTATS);
	size_t bond = nest_begin(buf, &len, LINK_XSTATS_TYPE_BOND);
	size_t ad = nest_begin(buf, &len, 1 /* BOND_XSTATS_3AD */);
	unsigned long long rx = 42;
	len += put_attr(buf, len, 0 /* BOND_3AD_STAT_LACPDU_RX */, &rx, sizeof(rx));
	nest_end(buf, ad, len);
	nest_end(buf, bond, len);
	nest_end(buf, xs, len);
	h->nlmsg_len = (unsigned)len;
	check(sendto(fd, buf, len, 0, NULL, 0) == (ssize_t)len, "sendto RTM_GETSTATS");
	close(fd);

	/* A generic netlink request to the controller: nlmsg_type prints as "nlctrl". */
	fd = nl_socket(NETLINK_GENERIC);
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
	} greq = {
		{ sizeof(greq), GENL_ID_CTRL, NLM_F_REQUEST, 9, 0 },
		{ CTRL_CMD_GETFAMILY, 1, 0 },
	};
	check(sendto(fd, &greq, sizeof(greq), 0, NULL, 0) == sizeof(greq), "sendto genl");
	close(fd);
}

static void sock_diag_requests(void)
{
	int fd = nl_socket(NETLINK_SOCK_DIAG);
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} ureq = {
		.h = { sizeof(ureq), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, 5, 0 },
		.r = { .sdiag_family = AF_UNIX, .udiag_states = ~0u,
		       .udiag_show = UDIAG_SHOW_NAME | UDIAG_SHOW_PEER },
	};
	check(sendto(fd, &ureq, sizeof(ureq), 0, NULL, 0) == sizeof(ureq), "sendto unix_diag");

	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} ireq = {
		.h = { sizeof(ireq), SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST | NLM_F_DUMP, 6, 0 },
		.r = { .sdiag_family = AF_INET, .sdiag_protocol = IPPROTO_TCP,
		       .idiag_states = 1 << 10 /* TCP_LISTEN */ },
	};
	check(sendto(fd, &ireq, sizeof(ireq), 0, NULL, 0) == sizeof(ireq), "sendto inet_diag");
	close(fd);
}

static void struct_sockopts(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_B | BPF_ABS, SKF_AD_OFF + SKF_AD_PROTOCOL),
		BPF_STMT(BPF_RET | BPF_K, 0xffff),
	};
	struct sock_fprog prog = { .len = 2, .filter = insns };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	check(fd >= 0, "socket");
	check(setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) == 0,
	      "setsockopt SO_ATTACH_FILTER");
	close(fd);

	struct packet_mreq mreq = { .mr_ifindex = 1, .mr_type = PACKET_MR_PROMISC, .mr_alen = 6,
				    .mr_address = { 0x02, 0, 0, 0, 0, 0x01 } };
	setsockopt(-1, SOL_PACKET, PACKET_ADD_MEMBERSHIP, &mreq, sizeof(mreq));
	struct tpacket_req tp = { 4096, 4, 2048, 8 };
	setsockopt(-1, SOL_PACKET, PACKET_RX_RING, &tp, sizeof(tp));
	struct icmp_filter icmp = { ~(1u << ICMP_ECHOREPLY) };
	setsockopt(-1, SOL_RAW, ICMP_FILTER, &icmp, sizeof(icmp));
}

int main(void)
{
	route_requests();
	nested_link_requests();
	sock_diag_requests();
	struct_sockopts();
	return 0;
}

/*
 * netlink: requests sent on NETLINK_ROUTE and NETLINK_SOCK_DIAG sockets
 * (family headers, attributes, two messages in one buffer), and the socket
 * options whose values are structs: a classic BPF filter, packet_mreq,
 * tpacket_req and the ICMP filter (the last ones on fd -1, so no privilege
 * is needed).  Replies are never read: only what the program sends is traced.
 */
#include <arpa/inet.h>
#include <linux/filter.h>
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
	sock_diag_requests();
	struct_sockopts();
	return 0;
}

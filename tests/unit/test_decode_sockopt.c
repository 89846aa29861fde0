/* setsockopt and getsockopt: names by level, ints as [1], structs, lengths. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_setsockopt_int_options(void)
{
	struct dh d;
	int one = 1;
	dh_init(&d, SYS_setsockopt, 3, SOL_SOCKET, SO_REUSEADDR, 0x1000, 4, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &one, sizeof(one));
	CHECK_STR(dh_run(&d, 0), "setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0");
	dh_free(&d);
	dh_init(&d, SYS_setsockopt, 3, IPPROTO_TCP, TCP_NODELAY, 0x1000, 4, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &one, sizeof(one));
	CHECK_STR(dh_run(&d, 0), "setsockopt(3, SOL_TCP, TCP_NODELAY, [1], 4) = 0");
	dh_free(&d);
}

static void test_setsockopt_short_int_prints_address(void)
{
	struct dh d;
	int one = 1;
	dh_init(&d, SYS_setsockopt, 3, SOL_SOCKET, SO_SNDBUF, 0x1000, 2, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &one, 2);
	CHECK_STR(dh_run(&d, -22), "setsockopt(3, SOL_SOCKET, SO_SNDBUF, 0x1000, 2) = -1 EINVAL "
		  "(Invalid argument)");
	dh_free(&d);
}

static void test_setsockopt_linger_and_string(void)
{
	struct dh d;
	struct linger lg = { 1, 5 };
	dh_init(&d, SYS_setsockopt, 3, SOL_SOCKET, SO_LINGER, 0x1000, sizeof(lg), 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &lg, sizeof(lg));
	CHECK_STR(dh_run(&d, 0), "setsockopt(3, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=5}, 8) = 0");
	dh_free(&d);
	dh_init(&d, SYS_setsockopt, 3, SOL_SOCKET, SO_BINDTODEVICE, 0x1000, 3, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "lo", 3);
	CHECK_STR(dh_run(&d, 0), "setsockopt(3, SOL_SOCKET, SO_BINDTODEVICE, \"lo\\0\", 3) = 0");
	dh_free(&d);
}

static void test_setsockopt_linger_with_small_strsize(void)
{
	struct dh d;
	struct linger lg = { 1, 5 };
	dh_init(&d, SYS_setsockopt, 3, SOL_SOCKET, SO_LINGER, 0x1000, sizeof(lg), 0);
	d.fmt.strsize = 2;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &lg, sizeof(lg));
	CHECK_STR(dh_run(&d, 0), "setsockopt(3, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=5}, 8) = 0");
	dh_free(&d);
}

static void getsockopt_run(struct dh *d, int name, const void *val, int ulen, int rlen)
{
	dh_init(d, SYS_getsockopt, 4, SOL_SOCKET, name, 0x1000, 0x2000, 0);
	dh_mem(d, SC_AT_ENTRY, 0x2000, &ulen, sizeof(ulen));
	dh_mem(d, SC_AT_EXIT, 0x2000, &rlen, sizeof(rlen));
	dh_mem(d, SC_AT_EXIT, 0x1000, val, (size_t)rlen);
}

static void test_getsockopt_error_and_rcvbuf(void)
{
	struct dh d;
	int v = 0;
	getsockopt_run(&d, SO_ERROR, &v, 4, 4);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_ERROR, [0], [4]) = 0");
	dh_free(&d);
	v = 111;
	getsockopt_run(&d, SO_ERROR, &v, 4, 4);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0");
	dh_free(&d);
	v = 131072;
	getsockopt_run(&d, SO_RCVBUF, &v, 4, 4);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_RCVBUF, [131072], [4]) = 0");
	dh_free(&d);
}

static void test_getsockopt_peercred_and_short_value(void)
{
	struct dh d;
	struct ucred uc = { 13042, 0, 0 };
	getsockopt_run(&d, SO_PEERCRED, &uc, 12, 12);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_PEERCRED, {pid=13042, uid=0, gid=0}, [12]) = 0");
	dh_free(&d);
	int v = 1;
	getsockopt_run(&d, SO_TYPE, &v, 2, 2);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_TYPE, \"\\1\\0\", [2]) = 0");
	dh_free(&d);
}

static void test_getsockopt_changed_length(void)
{
	struct dh d;
	int v = 1;
	getsockopt_run(&d, SO_KEEPALIVE, &v, 8, 4);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_KEEPALIVE, [1], [8 => 4]) = 0");
	dh_free(&d);
}

static void test_getsockopt_null_length_and_failure(void)
{
	struct dh d;
	dh_init(&d, SYS_getsockopt, 3, SOL_SOCKET, SO_TYPE, 0x1000, 0, 0);
	CHECK_STR(dh_run(&d, -14), "getsockopt(3, SOL_SOCKET, SO_TYPE, 0x1000, NULL) = -1 EFAULT "
		  "(Bad address)");
	dh_free(&d);
	int ulen = 4;
	dh_init(&d, SYS_getsockopt, 3, SOL_SOCKET, SO_TYPE, 0x1000, 0x2000, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ulen, sizeof(ulen));
	CHECK_STR(dh_run(&d, -9), "getsockopt(3, SOL_SOCKET, SO_TYPE, 0x1000, [4]) = -1 EBADF "
		  "(Bad file descriptor)");
	dh_free(&d);
}

static void test_unknown_level_and_name(void)
{
	struct dh d;
	int one = 1;
	dh_init(&d, SYS_setsockopt, 3, 999, 77, 0x1000, 4, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &one, sizeof(one));
	CHECK_STR(dh_run(&d, -92), "setsockopt(3, 0x3e7 /* SOL_?? */, 77, [1], 4) = -1 ENOPROTOOPT "
		  "(Protocol not available)");
	dh_free(&d);
	dh_init(&d, SYS_setsockopt, 3, SOL_SOCKET, 999, 0x1000, 4, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &one, sizeof(one));
	CHECK_STR(dh_run(&d, -92), "setsockopt(3, SOL_SOCKET, 0x3e7 /* SO_??? */, [1], 4) = -1 "
		  "ENOPROTOOPT (Protocol not available)");
	dh_free(&d);
}

static void test_ip_add_membership(void)
{
	struct dh d;
	struct ip_mreq m;
	m.imr_multiaddr.s_addr = htonl(0xe0000001);
	m.imr_interface.s_addr = htonl(INADDR_ANY);
	dh_init(&d, SYS_setsockopt, 3, IPPROTO_IP, IP_ADD_MEMBERSHIP, 0x1000, sizeof(m), 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &m, sizeof(m));
	CHECK_STR(dh_run(&d, 0), "setsockopt(3, SOL_IP, IP_ADD_MEMBERSHIP, "
		  "{imr_multiaddr=inet_addr(\"224.0.0.1\"), imr_interface=inet_addr(\"0.0.0.0\")}, 8) = 0");
	dh_free(&d);
}

/* MCAST_JOIN_GROUP: the interface and the group's sockaddr; shorter than the struct, the address. */
static void test_mcast_join_group(void)
{
	struct dh d;
	struct group_req g;
	struct sockaddr_in *sin = (struct sockaddr_in *)&g.gr_group;
	memset(&g, 0, sizeof(g));
	g.gr_interface = 0;
	sin->sin_family = AF_INET;
	sin->sin_port = htons(65535);
	sin->sin_addr.s_addr = htonl(0xe0000003);
	dh_init(&d, SYS_setsockopt, 0, IPPROTO_IP, MCAST_JOIN_GROUP, 0x1000, sizeof(g), 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &g, sizeof(g));
	CHECK_STR(dh_run(&d, 0), "setsockopt(0, SOL_IP, MCAST_JOIN_GROUP, {gr_interface=0, "
		  "gr_group={sa_family=AF_INET, sin_port=htons(65535), sin_addr=inet_addr(\"224.0.0.3\")}}, "
		  "136) = 0");
	dh_free(&d);
	dh_init(&d, SYS_setsockopt, 0, IPPROTO_IP, MCAST_JOIN_GROUP, 0x1000, sizeof(g) - 1, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &g, sizeof(g) - 1);
	CHECK_STR(dh_run(&d, -22), "setsockopt(0, SOL_IP, MCAST_JOIN_GROUP, 0x1000, 135) = "
		  "-1 EINVAL (Invalid argument)");
	dh_free(&d);
}

/* A struct the kernel wrote only part of: whole fields, then the rest in hex. */
static void test_getsockopt_partial_linger_and_peercred(void)
{
	struct dh d;
	int l[2] = { 1, 0x8d4fdf };
	getsockopt_run(&d, SO_LINGER, l, 7, 7);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_LINGER, {l_onoff=1, l_linger=\"\\xdf\\x4f\\x8d\"}, [7]) = 0");
	dh_free(&d);
	getsockopt_run(&d, SO_LINGER, l, 3, 3);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_LINGER, {l_onoff=\"\\x01\\x00\\x00\"}, [3]) = 0");
	dh_free(&d);
	int cred[3] = { 25087, 0, 0 };
	getsockopt_run(&d, SO_PEERCRED, cred, 8, 8);
	CHECK_STR(dh_run(&d, 0), "getsockopt(4, SOL_SOCKET, SO_PEERCRED, {pid=25087, uid=0}, [8]) = 0");
	dh_free(&d);
}

/* The kernel rewrote the length though the value pointer is NULL. */
static void test_getsockopt_null_value_length_changed(void)
{
	struct dh d;
	int ulen = 4096, rlen = 0;
	dh_init(&d, SYS_getsockopt, 3, SOL_SOCKET, SO_GET_FILTER, 0, 0x2000, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ulen, sizeof(ulen));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &rlen, sizeof(rlen));
	CHECK_STR(dh_run(&d, 0), "getsockopt(3, SOL_SOCKET, SO_GET_FILTER, NULL, [4096 => 0]) = 0");
	dh_free(&d);
}

/* The interface index by its name here: index 1 is always the loopback. */
static void test_ipv6_mreq_interface_name(void)
{
	struct dh d;
	struct ipv6_mreq m;
	memset(&m, 0, sizeof(m));
	inet_pton(AF_INET6, "ff01::c", &m.ipv6mr_multiaddr);
	m.ipv6mr_interface = 1;
	dh_init(&d, SYS_setsockopt, 0, SOL_IPV6, IPV6_ADD_MEMBERSHIP, 0x1000, sizeof(m), 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &m, sizeof(m));
	CHECK_STR(dh_run(&d, -92), "setsockopt(0, SOL_IPV6, IPV6_ADD_MEMBERSHIP, {inet_pton(AF_INET6, "
		  "\"ff01::c\", &ipv6mr_multiaddr), ipv6mr_interface=if_nametoindex(\"lo\")}, 20) "
		  "= -1 ENOPROTOOPT (Protocol not available)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_ipv6_mreq_interface_name),
	TK_CASE(test_getsockopt_null_value_length_changed),
	TK_CASE(test_getsockopt_partial_linger_and_peercred),
	TK_CASE(test_setsockopt_int_options),
	TK_CASE(test_setsockopt_short_int_prints_address),
	TK_CASE(test_setsockopt_linger_and_string),
	TK_CASE(test_setsockopt_linger_with_small_strsize),
	TK_CASE(test_getsockopt_error_and_rcvbuf),
	TK_CASE(test_getsockopt_peercred_and_short_value),
	TK_CASE(test_getsockopt_changed_length),
	TK_CASE(test_getsockopt_null_length_and_failure),
	TK_CASE(test_unknown_level_and_name),
	TK_CASE(test_ip_add_membership),
	TK_CASE(test_mcast_join_group))

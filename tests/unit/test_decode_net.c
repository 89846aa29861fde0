/*
 * Sockets: socket, addresses of each family, the sockname calls' length
 * forms, send/recv and the msghdr calls with control messages.  Expected
 * lines are what strace 6.1 printed for equivalent calls.
 */
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_socket_inet_stream_cloexec(void)
{
	struct dh d;
	dh_init(&d, SYS_socket, AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 3), "socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_IP) = 3");
	dh_free(&d);
}

static void test_socket_protocol_depends_on_family(void)
{
	struct dh d;
	dh_init(&d, SYS_socket, AF_UNIX, SOCK_STREAM, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 12), "socket(AF_UNIX, SOCK_STREAM, 0) = 12");
	dh_free(&d);
	dh_init(&d, SYS_socket, AF_NETLINK, SOCK_RAW, NETLINK_ROUTE, 0, 0, 0);
	CHECK_STR(dh_run(&d, 14), "socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE) = 14");
	dh_free(&d);
	dh_init(&d, SYS_socket, AF_PACKET, SOCK_RAW, htons(3), 0, 0, 0);
	CHECK_STR(dh_run(&d, -1), "socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)) = -1 EPERM "
		  "(Operation not permitted)");
	dh_free(&d);
}

static void test_socketpair_prints_fds_at_exit(void)
{
	struct dh d;
	int sv[2] = { 6, 7 };
	dh_init(&d, SYS_socketpair, AF_UNIX, SOCK_DGRAM, 0, 0x1000, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, sv, sizeof(sv));
	CHECK_STR(dh_run(&d, 0), "socketpair(AF_UNIX, SOCK_DGRAM, 0, [6, 7]) = 0");
	dh_free(&d);
	dh_init(&d, SYS_socketpair, AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, 0x1000, 0, 0);
	CHECK_STR(dh_run(&d, -24), "socketpair(AF_UNIX, SOCK_STREAM|SOCK_NONBLOCK, 0, 0x1000) = -1 "
		  "EMFILE (Too many open files)");
	dh_free(&d);
}

static struct sockaddr_in sin_of(const char *ip, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	inet_pton(AF_INET, ip, &a.sin_addr);
	return a;
}

static void test_connect_inet(void)
{
	struct dh d;
	struct sockaddr_in a = sin_of("127.0.0.1", 80);
	dh_init(&d, SYS_connect, 3, 0x2000, sizeof(a), 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &a, sizeof(a));
	CHECK_STR(dh_run(&d, 0), "connect(3, {sa_family=AF_INET, sin_port=htons(80), "
		  "sin_addr=inet_addr(\"127.0.0.1\")}, 16) = 0");
	dh_free(&d);
}

static void test_connect_unix_path_and_abstract(void)
{
	struct dh d;
	struct sockaddr_un u = { .sun_family = AF_UNIX, .sun_path = "/tmp/nosuch.sock" };
	dh_init(&d, SYS_connect, 12, 0x2000, sizeof(u), 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &u, sizeof(u));
	CHECK_STR(dh_run(&d, -2), "connect(12, {sa_family=AF_UNIX, sun_path=\"/tmp/nosuch.sock\"}, "
		  "110) = -1 ENOENT (No such file or directory)");
	dh_free(&d);

	struct sockaddr_un ab = { .sun_family = AF_UNIX, .sun_path = "\0abstract" };
	size_t len = offsetof(struct sockaddr_un, sun_path) + 9;
	dh_init(&d, SYS_connect, 12, 0x2000, len, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ab, len);
	CHECK_STR(dh_run(&d, -111), "connect(12, {sa_family=AF_UNIX, sun_path=@\"abstract\"}, 11) = "
		  "-1 ECONNREFUSED (Connection refused)");
	dh_free(&d);
}

static void test_connect_inet6(void)
{
	struct dh d;
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_port = htons(443) };
	inet_pton(AF_INET6, "::1", &a.sin6_addr);
	dh_init(&d, SYS_connect, 13, 0x2000, sizeof(a), 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &a, sizeof(a));
	CHECK_STR(dh_run(&d, 0), "connect(13, {sa_family=AF_INET6, sin6_port=htons(443), "
		  "sin6_flowinfo=htonl(0), inet_pton(AF_INET6, \"::1\", &sin6_addr), "
		  "sin6_scope_id=0}, 28) = 0");
	dh_free(&d);
}

static void test_bind_netlink(void)
{
	struct dh d;
	struct sockaddr_nl n = { .nl_family = AF_NETLINK };
	dh_init(&d, SYS_bind, 14, 0x2000, sizeof(n), 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &n, sizeof(n));
	CHECK_STR(dh_run(&d, 0), "bind(14, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 0");
	dh_free(&d);
}

static void test_unknown_family_prints_sa_data(void)
{
	struct dh d;
	unsigned char sa[6] = { 99, 0, 'a', 'b', 0, 1 };
	dh_init(&d, SYS_bind, 3, 0x2000, sizeof(sa), 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x2000, sa, sizeof(sa));
	CHECK_STR(dh_run(&d, -97), "bind(3, {sa_family=0x63 /* AF_??? */, sa_data=\"ab\\0\\1\"}, 6) = "
		  "-1 EAFNOSUPPORT (Address family not supported by protocol)");
	dh_free(&d);
}

static void test_short_address_length_prints_pointer(void)
{
	struct dh d;
	dh_init(&d, SYS_bind, 3, 0x2000, 1, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "bind(3, 0x2000, 1) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_listen_and_shutdown(void)
{
	struct dh d;
	dh_init(&d, SYS_listen, 3, 5, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "listen(3, 5) = 0");
	dh_free(&d);
	dh_init(&d, SYS_shutdown, 4, SHUT_WR, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "shutdown(4, SHUT_WR) = 0");
	dh_free(&d);
	dh_init(&d, SYS_shutdown, 3, 7, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -22), "shutdown(3, 0x7 /* SHUT_??? */) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_accept4_prints_changed_length(void)
{
	struct dh d;
	struct sockaddr_in a = sin_of("127.0.0.1", 56474);
	int ulen = 128, rlen = 16;
	dh_init(&d, SYS_accept4, 3, 0x2000, 0x3000, SOCK_NONBLOCK, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x3000, &ulen, sizeof(ulen));
	dh_mem(&d, SC_AT_EXIT, 0x3000, &rlen, sizeof(rlen));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &a, sizeof(a));
	CHECK_STR(dh_run(&d, 5), "accept4(3, {sa_family=AF_INET, sin_port=htons(56474), "
		  "sin_addr=inet_addr(\"127.0.0.1\")}, [128 => 16], SOCK_NONBLOCK) = 5");
	dh_free(&d);
}

static void test_getsockname_same_length(void)
{
	struct dh d;
	struct sockaddr_in a = sin_of("127.0.0.1", 45495);
	int len = 16;
	dh_init(&d, SYS_getsockname, 3, 0x2000, 0x3000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x3000, &len, sizeof(len));
	dh_mem(&d, SC_AT_EXIT, 0x3000, &len, sizeof(len));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &a, sizeof(a));
	CHECK_STR(dh_run(&d, 0), "getsockname(3, {sa_family=AF_INET, sin_port=htons(45495), "
		  "sin_addr=inet_addr(\"127.0.0.1\")}, [16]) = 0");
	dh_free(&d);
}

static void test_accept_null_address(void)
{
	struct dh d;
	dh_init(&d, SYS_accept, 3, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 4), "accept(3, NULL, NULL) = 4");
	dh_free(&d);
}

static void test_accept_failure_prints_address_and_offered_length(void)
{
	struct dh d;
	int ulen = 16;
	dh_init(&d, SYS_accept, 3, 0x2000, 0x3000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x3000, &ulen, sizeof(ulen));
	CHECK_STR(dh_run(&d, -11), "accept(3, 0x2000, [16]) = -1 EAGAIN (Resource temporarily "
		  "unavailable)");
	dh_free(&d);
}

static void test_sendto_and_recvfrom(void)
{
	struct dh d;
	dh_init(&d, SYS_sendto, 4, 0x1000, 5, MSG_NOSIGNAL, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "hello", 5);
	CHECK_STR(dh_run(&d, 5), "sendto(4, \"hello\", 5, MSG_NOSIGNAL, NULL, 0) = 5");
	dh_free(&d);

	dh_init(&d, SYS_recvfrom, 5, 0x1000, 100, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, "hello", 5);
	CHECK_STR(dh_run(&d, 5), "recvfrom(5, \"hello\", 100, 0, NULL, NULL) = 5");
	dh_free(&d);
}

static void test_recvfrom_with_source_address(void)
{
	struct dh d;
	struct sockaddr_in a = sin_of("10.0.0.1", 53);
	int ulen = 16;
	dh_init(&d, SYS_recvfrom, 5, 0x1000, 512, MSG_DONTWAIT, 0x2000, 0x3000);
	dh_mem(&d, SC_AT_ENTRY, 0x3000, &ulen, sizeof(ulen));
	dh_mem(&d, SC_AT_EXIT, 0x3000, &ulen, sizeof(ulen));
	dh_mem(&d, SC_AT_EXIT, 0x2000, &a, sizeof(a));
	dh_mem(&d, SC_AT_EXIT, 0x1000, "\1\2", 2);
	CHECK_STR(dh_run(&d, 2), "recvfrom(5, \"\\1\\2\", 512, MSG_DONTWAIT, {sa_family=AF_INET, "
		  "sin_port=htons(53), sin_addr=inet_addr(\"10.0.0.1\")}, [16]) = 2");
	dh_free(&d);
}

/* A msghdr at 0x5000 with one iovec at 0x5100 and control at 0x5200. */
static void put_msghdr(struct dh *d, unsigned when, const char *data, size_t iov_len,
		       const void *ctl, size_t ctl_len)
{
	struct iovec iov = { (void *)0x5300, iov_len };
	struct msghdr m = { .msg_iov = (void *)0x5100, .msg_iovlen = 1,
			    .msg_control = ctl ? (void *)0x5200 : NULL, .msg_controllen = ctl_len };
	dh_mem(d, when, 0x5000, &m, sizeof(m));
	dh_mem(d, when, 0x5100, &iov, sizeof(iov));
	dh_mem(d, when, 0x5300, data, strlen(data));
	if (ctl)
		dh_mem(d, when, 0x5200, ctl, ctl_len);
}

static void test_sendmsg_with_scm_rights(void)
{
	struct dh d;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct cmsghdr *cm = (struct cmsghdr *)u.buf;
	int fd = 3;
	memset(&u, 0, sizeof(u));
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	memcpy(CMSG_DATA(cm), &fd, sizeof(fd));
	dh_init(&d, SYS_sendmsg, 6, 0x5000, 0, 0, 0, 0);
	put_msghdr(&d, SC_AT_ENTRY, "world", 5, u.buf, sizeof(u.buf));
	CHECK_STR(dh_run(&d, 5), "sendmsg(6, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"world\", "
		  "iov_len=5}], msg_iovlen=1, msg_control=[{cmsg_len=20, cmsg_level=SOL_SOCKET, "
		  "cmsg_type=SCM_RIGHTS, cmsg_data=[3]}], msg_controllen=24, msg_flags=0}, 0) = 5");
	dh_free(&d);
}

/* A cmsg_len near 2^64 ends the list: its aligned length must not wrap to 0 (the fuzzer's loop). */
static void test_cmsg_len_near_2_64_ends_the_list(void)
{
	struct dh d;
	uint64_t ctl[3] = { 0 };	/* a header and 8 bytes of data */
	struct cmsghdr h = { .cmsg_len = (size_t)-3, .cmsg_level = SOL_SOCKET, .cmsg_type = SCM_RIGHTS };
	memcpy(ctl, &h, sizeof(h));
	dh_init(&d, SYS_sendmsg, 6, 0x5000, 0, 0, 0, 0);
	put_msghdr(&d, SC_AT_ENTRY, "world", 5, (const char *)ctl, sizeof(ctl));
	CHECK_STR(dh_run(&d, 5), "sendmsg(6, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"world\", "
		  "iov_len=5}], msg_iovlen=1, msg_control=[{cmsg_len=18446744073709551613, "
		  "cmsg_level=SOL_SOCKET, cmsg_type=SCM_RIGHTS, cmsg_data=[0, 0]}], msg_controllen=24, "
		  "msg_flags=0}, 0) = 5");
	dh_free(&d);
}

static void test_sendmsg_with_credentials(void)
{
	struct dh d;
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} u;
	struct cmsghdr *cm = (struct cmsghdr *)u.buf;
	struct ucred uc = { 13042, 0, 0 };
	memset(&u, 0, sizeof(u));
	cm->cmsg_len = CMSG_LEN(sizeof(uc));
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_CREDENTIALS;
	memcpy(CMSG_DATA(cm), &uc, sizeof(uc));
	dh_init(&d, SYS_sendmsg, 3, 0x5000, 0, 0, 0, 0);
	put_msghdr(&d, SC_AT_ENTRY, "z", 1, u.buf, sizeof(u.buf));
	CHECK_STR(dh_run(&d, 1), "sendmsg(3, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"z\", "
		  "iov_len=1}], msg_iovlen=1, msg_control=[{cmsg_len=28, cmsg_level=SOL_SOCKET, "
		  "cmsg_type=SCM_CREDENTIALS, cmsg_data={pid=13042, uid=0, gid=0}}], "
		  "msg_controllen=32, msg_flags=0}, 0) = 1");
	dh_free(&d);
}

static void test_recvmsg_prints_received_data_only(void)
{
	struct dh d;
	dh_init(&d, SYS_recvmsg, 7, 0x5000, 0, 0, 0, 0);
	put_msghdr(&d, SC_AT_ENTRY, "garbage-before-the-call", 64, NULL, 0);
	put_msghdr(&d, SC_AT_EXIT, "world", 64, NULL, 0);
	CHECK_STR(dh_run(&d, 5), "recvmsg(7, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base=\"world\", "
		  "iov_len=64}], msg_iovlen=1, msg_controllen=0, msg_flags=0}, 0) = 5");
	dh_free(&d);
}

static void test_recvmsg_failure_prints_namelen(void)
{
	struct dh d;
	dh_init(&d, SYS_recvmsg, 7, 0x5000, MSG_DONTWAIT, 0, 0, 0);
	put_msghdr(&d, SC_AT_ENTRY, "x", 64, NULL, 0);
	CHECK_STR(dh_run(&d, -11), "recvmsg(7, {msg_namelen=0}, MSG_DONTWAIT) = -1 EAGAIN "
		  "(Resource temporarily unavailable)");
	dh_free(&d);
}

/* Two mmsghdrs at 0x6000, iovecs at 0x6100 and 0x6110, data at 0x6200 and 0x6300. */
static void put_mmsg(struct dh *d, unsigned when, const char *d0, size_t l0, const char *d1,
		     size_t l1, unsigned len0, unsigned len1)
{
	struct mmsghdr mm[2];
	struct iovec iov[2] = { { (void *)0x6200, l0 }, { (void *)0x6300, l1 } };
	memset(mm, 0, sizeof(mm));
	mm[0].msg_hdr.msg_iov = (void *)0x6100;
	mm[0].msg_hdr.msg_iovlen = 1;
	mm[0].msg_len = len0;
	mm[1].msg_hdr.msg_iov = (void *)0x6110;
	mm[1].msg_hdr.msg_iovlen = 1;
	mm[1].msg_len = len1;
	dh_mem(d, when, 0x6000, mm, sizeof(mm));
	dh_mem(d, when, 0x6100, iov, sizeof(iov));
	dh_mem(d, when, 0x6200, d0, strlen(d0));
	dh_mem(d, when, 0x6300, d1, strlen(d1));
}

static void test_sendmmsg(void)
{
	struct dh d;
	dh_init(&d, SYS_sendmmsg, 3, 0x6000, 2, 0, 0, 0);
	put_mmsg(&d, SC_AT_ENTRY, "ab", 2, "cde", 3, 0, 0);
	put_mmsg(&d, SC_AT_EXIT, "ab", 2, "cde", 3, 2, 3);
	CHECK_STR(dh_run(&d, 2), "sendmmsg(3, [{msg_hdr={msg_name=NULL, msg_namelen=0, "
		  "msg_iov=[{iov_base=\"ab\", iov_len=2}], msg_iovlen=1, msg_controllen=0, "
		  "msg_flags=0}, msg_len=2}, {msg_hdr={msg_name=NULL, msg_namelen=0, "
		  "msg_iov=[{iov_base=\"cde\", iov_len=3}], msg_iovlen=1, msg_controllen=0, "
		  "msg_flags=0}, msg_len=3}], 2, 0) = 2");
	dh_free(&d);
}

static void test_recvmmsg_and_its_failure(void)
{
	struct dh d;
	dh_init(&d, SYS_recvmmsg, 4, 0x6000, 2, 0, 0, 0);
	put_mmsg(&d, SC_AT_ENTRY, "", 8, "", 8, 0, 0);
	put_mmsg(&d, SC_AT_EXIT, "abcde", 8, "", 8, 5, 0);
	CHECK_STR(dh_run(&d, 1), "recvmmsg(4, [{msg_hdr={msg_name=NULL, msg_namelen=0, "
		  "msg_iov=[{iov_base=\"abcde\", iov_len=8}], msg_iovlen=1, msg_controllen=0, "
		  "msg_flags=0}, msg_len=5}], 2, 0, NULL) = 1");
	dh_free(&d);

	dh_init(&d, SYS_recvmmsg, 4, 0x6000, 2, MSG_DONTWAIT, 0, 0);
	put_mmsg(&d, SC_AT_ENTRY, "", 8, "", 8, 0, 0);
	CHECK_STR(dh_run(&d, -11), "recvmmsg(4, 0x6000, 2, MSG_DONTWAIT, NULL) = -1 EAGAIN "
		  "(Resource temporarily unavailable)");
	dh_free(&d);
}

/*
 * A hostile sendmmsg under -v: 64 messages, each with the same 1024 iovecs of 256 bytes and
 * 4 KB of SCM_RIGHTS.  Printed whole that is ~20 MB in one line; the line stops near
 * SC_LINE_MAX with "..." and still ends as a line does.
 */
static void test_hostile_mmsg_vector_is_capped(void)
{
	enum { NMSG = 64, NIOV = 1024, DATA = 256, CTRL = 4096 };
	struct mmsghdr *mm = calloc(NMSG, sizeof(*mm));
	struct iovec *iov = calloc(NIOV, sizeof(*iov));
	unsigned char *data = malloc(DATA), *ctrl = calloc(1, CTRL);
	struct cmsghdr h = { .cmsg_len = CTRL, .cmsg_level = SOL_SOCKET, .cmsg_type = SCM_RIGHTS };
	memset(data, 'a', DATA);
	memcpy(ctrl, &h, sizeof(h));
	for (int i = 0; i < NIOV; i++)
		iov[i] = (struct iovec){ (void *)0x30000, DATA };
	for (int i = 0; i < NMSG; i++) {
		mm[i].msg_hdr.msg_iov = (void *)0x20000;
		mm[i].msg_hdr.msg_iovlen = NIOV;
		mm[i].msg_hdr.msg_control = (void *)0x40000;
		mm[i].msg_hdr.msg_controllen = CTRL;
	}
	struct dh d;
	dh_init(&d, SYS_sendmmsg, 3, 0x10000, NMSG, 0, 0, 0);
	d.fmt.verbose = true;
	d.fmt.strsize = DATA;
	for (unsigned when = SC_AT_ENTRY; when <= SC_AT_EXIT; when <<= 1) {
		dh_mem(&d, when, 0x10000, mm, NMSG * sizeof(*mm));
		dh_mem(&d, when, 0x20000, iov, NIOV * sizeof(*iov));
		dh_mem(&d, when, 0x30000, data, DATA);
		dh_mem(&d, when, 0x40000, ctrl, CTRL);
	}
	const char *line = dh_run(&d, NMSG);
	size_t len = strlen(line);
	CHECK(len >= SC_LINE_MAX);
	CHECK(len < SC_LINE_MAX + 64 * 1024);
	CHECK(strstr(line, "iov_len=256}, ...]") != NULL);
	const char *end = "...], 64, 0) = 64";
	CHECK(len > strlen(end) && strcmp(line + len - strlen(end), end) == 0);
	dh_free(&d);
	free(mm);
	free(iov);
	free(data);
	free(ctrl);
}

/* writev with more iovecs than the kernel takes: even -v prints UIO_MAXIOV, then "...". */
static void test_iovec_stops_at_uio_maxiov_with_v(void)
{
	enum { NIOV = 1500 };
	struct iovec *iov = calloc(NIOV, sizeof(*iov));
	for (int i = 0; i < NIOV; i++)
		iov[i] = (struct iovec){ (void *)0x30000, 1 };
	struct dh d;
	dh_init(&d, SYS_writev, 1, 0x20000, NIOV, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem(&d, SC_AT_ENTRY, 0x20000, iov, NIOV * sizeof(*iov));
	dh_mem_str(&d, SC_AT_ENTRY, 0x30000, "x");
	const char *line = dh_run(&d, -22);
	size_t n = 0;
	for (const char *p = line; (p = strstr(p, "iov_len=1}")); p++)
		n++;
	CHECK_INT(n, SC_VEC_MAX);
	CHECK(strstr(line, "iov_len=1}, ...], 1500) = -1 EINVAL") != NULL);
	dh_free(&d);
	free(iov);
}

static void test_declared_specs_cover_sockaddr_lengths(void)
{
	const struct sc_mem_spec *s = dh_spec(SYS_accept);
	CHECK(s != NULL);
	int n = 0;
	for (; s && s->kind; s++)
		n += s->arg == 2 || s->arg == 1;
	CHECK_INT(n, 2);
}

/* The socket of fd 3 is NETLINK_ROUTE, of fd 4 NETLINK_SOCK_DIAG; others are not netlink. */
static int fake_nl_proto(pid_t tid, int fd)
{
	(void)tid;
	return fd == 3 ? NETLINK_ROUTE : fd == 4 ? NETLINK_SOCK_DIAG : -1;
}

static void test_sendto_netlink_route_request(void)
{
	struct {
		struct nlmsghdr h;
		struct rtgenmsg g;
		char pad[3];
		struct nlattr a;
		uint32_t v;
	} m = { { sizeof(m), RTM_GETNSID, NLM_F_REQUEST | NLM_F_DUMP, 7, 0 }, { AF_UNIX }, { 0 },
		{ 8, 1 /* NETNSA_NSID */ }, 42 };
	struct dh d;
	dh_init(&d, SYS_sendto, 3, 0x1000, sizeof(m), 0, 0, 0);
	d.fmt.nl_proto = fake_nl_proto;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &m, sizeof(m));
	CHECK_STR(dh_run(&d, sizeof(m)),
		  "sendto(3, [{nlmsg_len=28, nlmsg_type=RTM_GETNSID, nlmsg_flags=NLM_F_REQUEST|NLM_F_DUMP, "
		  "nlmsg_seq=7, nlmsg_pid=0}, {rtgen_family=AF_UNIX}, "
		  "[{nla_len=8, nla_type=NETNSA_NSID}, \"\\x2a\\x00\\x00\\x00\"]], 28, 0, NULL, 0) = 28");
	dh_free(&d);
}

static void test_sendto_netlink_short_and_unreadable(void)
{
	struct dh d;
	/* Shorter than a header: its bytes in hex. */
	dh_init(&d, SYS_sendto, 3, 0x1000, 4, 0, 0, 0);
	d.fmt.nl_proto = fake_nl_proto;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "abcd", 4);
	CHECK_STR(dh_run(&d, 4), "sendto(3, \"\\x61\\x62\\x63\\x64\", 4, 0, NULL, 0) = 4");
	dh_free(&d);
	/* The header not held: the address. */
	dh_init(&d, SYS_sendto, 3, 0x2000, 16, 0, 0, 0);
	d.fmt.nl_proto = fake_nl_proto;
	CHECK_STR(dh_run(&d, -14), "sendto(3, 0x2000, 16, 0, NULL, 0) = -1 EFAULT (Bad address)");
	dh_free(&d);
	/* Not a netlink socket: a string, as before. */
	dh_init(&d, SYS_sendto, 5, 0x1000, 4, 0, 0, 0);
	d.fmt.nl_proto = fake_nl_proto;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "abcd", 4);
	CHECK_STR(dh_run(&d, 4), "sendto(5, \"abcd\", 4, 0, NULL, 0) = 4");
	dh_free(&d);
}

static void test_sendto_netlink_error_quotes_request(void)
{
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} m = { { sizeof(m), NLMSG_ERROR, NLM_F_REQUEST | NLM_F_CAPPED, 0, 0 },
		{ -13, { 20, SOCK_DIAG_BY_FAMILY, NLM_F_REQUEST, 1, 2 } } };
	struct dh d;
	dh_init(&d, SYS_sendto, 4, 0x1000, sizeof(m), 0, 0, 0);
	d.fmt.nl_proto = fake_nl_proto;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &m, sizeof(m));
	CHECK_STR(dh_run(&d, sizeof(m)),
		  "sendto(4, [{nlmsg_len=36, nlmsg_type=NLMSG_ERROR, nlmsg_flags=NLM_F_REQUEST|NLM_F_CAPPED, "
		  "nlmsg_seq=0, nlmsg_pid=0}, {error=-EACCES, msg={nlmsg_len=20, "
		  "nlmsg_type=SOCK_DIAG_BY_FAMILY, nlmsg_flags=NLM_F_REQUEST, nlmsg_seq=1, nlmsg_pid=2}}], "
		  "36, 0, NULL, 0) = 36");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_socket_inet_stream_cloexec),
	TK_CASE(test_socket_protocol_depends_on_family),
	TK_CASE(test_socketpair_prints_fds_at_exit),
	TK_CASE(test_connect_inet),
	TK_CASE(test_connect_unix_path_and_abstract),
	TK_CASE(test_connect_inet6),
	TK_CASE(test_bind_netlink),
	TK_CASE(test_unknown_family_prints_sa_data),
	TK_CASE(test_short_address_length_prints_pointer),
	TK_CASE(test_listen_and_shutdown),
	TK_CASE(test_accept4_prints_changed_length),
	TK_CASE(test_getsockname_same_length),
	TK_CASE(test_accept_null_address),
	TK_CASE(test_accept_failure_prints_address_and_offered_length),
	TK_CASE(test_sendto_and_recvfrom),
	TK_CASE(test_recvfrom_with_source_address),
	TK_CASE(test_sendmsg_with_scm_rights),
	TK_CASE(test_sendmsg_with_credentials),
	TK_CASE(test_cmsg_len_near_2_64_ends_the_list),
	TK_CASE(test_recvmsg_prints_received_data_only),
	TK_CASE(test_recvmsg_failure_prints_namelen),
	TK_CASE(test_sendmmsg),
	TK_CASE(test_recvmmsg_and_its_failure),
	TK_CASE(test_hostile_mmsg_vector_is_capped),
	TK_CASE(test_iovec_stops_at_uio_maxiov_with_v),
	TK_CASE(test_declared_specs_cover_sockaddr_lengths),
	TK_CASE(test_sendto_netlink_route_request),
	TK_CASE(test_sendto_netlink_short_and_unreadable),
	TK_CASE(test_sendto_netlink_error_quotes_request))

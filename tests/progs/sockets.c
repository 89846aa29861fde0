/*
 * sockets: a TCP conversation over 127.0.0.1 inside one process (listen,
 * connect, accept4, then both ends talk), socket options and names, and an
 * AF_UNIX socketpair carrying a sendmsg/recvmsg, and datagrams in batches
 * (sendmmsg/recvmmsg, as resolvers send them; a batch of 12 past --kernel's
 * first entries), a classic BPF filter attached (its instructions are behind
 * a pointer in the option's struct).  The port is chosen by the
 * kernel (bind to port 0), so nothing collides with other tests.  Last,
 * connect(-1, ...) with an address of each less common family: the call
 * fails (EBADF) but the address prints.
 */
#include <arpa/inet.h>
#include <netax25/ax25.h>
#include <netipx/ipx.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/if_alg.h>
#include <linux/if_xdp.h>
#include <linux/mctp.h>
#include <linux/nfc.h>
#include <linux/qrtr.h>
#include <linux/rxrpc.h>
#include <linux/vm_sockets.h>
#include <linux/x25.h>

#include "progs.h"

static void tcp_loopback(void)
{
	struct sockaddr_in addr, peer;
	socklen_t len = sizeof(addr);
	int srv, cli, conn, one = 1, val;
	char buf[16];

	srv = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	check(srv >= 0, "socket");
	check(setsockopt(srv, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0, "setsockopt");
	memset(&addr, 0, sizeof(addr));
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	addr.sin_port = 0;
	check(bind(srv, (struct sockaddr *)&addr, sizeof(addr)) == 0, "bind");
	check(listen(srv, 4) == 0, "listen");
	check(getsockname(srv, (struct sockaddr *)&addr, &len) == 0, "getsockname");

	cli = socket(AF_INET, SOCK_STREAM, 0);
	check(cli >= 0, "socket");
	check(setsockopt(cli, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)) == 0, "setsockopt");
	len = sizeof(val);
	check(getsockopt(cli, SOL_SOCKET, SO_TYPE, &val, &len) == 0, "getsockopt");
	check(connect(cli, (struct sockaddr *)&addr, sizeof(addr)) == 0, "connect");

	len = sizeof(peer);
	conn = accept4(srv, (struct sockaddr *)&peer, &len, SOCK_CLOEXEC);
	check(conn >= 0, "accept4");
	len = sizeof(peer);
	check(getpeername(conn, (struct sockaddr *)&peer, &len) == 0, "getpeername");

	check(sendto(cli, "ping", 4, 0, NULL, 0) == 4, "sendto");
	check(recvfrom(conn, buf, sizeof(buf), 0, NULL, NULL) == 4, "recvfrom");
	check(sendto(conn, "pong", 4, MSG_NOSIGNAL, NULL, 0) == 4, "sendto");
	check(recvfrom(cli, buf, 4, MSG_WAITALL, NULL, NULL) == 4, "recvfrom");

	check(shutdown(cli, SHUT_WR) == 0, "shutdown");
	check(recvfrom(conn, buf, sizeof(buf), 0, NULL, NULL) == 0, "recvfrom eof");
	close(conn);
	close(cli);
	close(srv);
}

static void unix_pair(void)
{
	int sv[2];
	char a[4], b[8];
	struct iovec out[2] = { { "abc", 3 }, { "defgh", 5 } };
	struct iovec in[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct msghdr msg;

	check(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0, "socketpair");
	memset(&msg, 0, sizeof(msg));
	msg.msg_iov = out;
	msg.msg_iovlen = 2;
	check(sendmsg(sv[0], &msg, 0) == 8, "sendmsg");
	msg.msg_iov = in;
	check(recvmsg(sv[1], &msg, 0) == 8, "recvmsg");
	close(sv[0]);
	close(sv[1]);
}

static void datagram_batches(void)
{
	int sv[2];
	char r1[8], r2[8];
	struct iovec out[2] = { { "query1", 6 }, { "query22", 7 } };
	struct iovec in[2] = { { r1, sizeof(r1) }, { r2, sizeof(r2) } };
	struct mmsghdr send[2], recv[2];

	check(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0, "socketpair");
	memset(send, 0, sizeof(send));
	memset(recv, 0, sizeof(recv));
	for (int i = 0; i < 2; i++) {
		send[i].msg_hdr.msg_iov = &out[i];
		send[i].msg_hdr.msg_iovlen = 1;
		recv[i].msg_hdr.msg_iov = &in[i];
		recv[i].msg_hdr.msg_iovlen = 1;
	}
	check(sendmmsg(sv[0], send, 2, 0) == 2, "sendmmsg");
	check(recvmmsg(sv[1], recv, 2, 0, NULL) == 2, "recvmmsg");
	close(sv[0]);
	close(sv[1]);
}

/* More datagrams in one sendmmsg than --kernel once followed (8). */
static void datagram_big_batch(void)
{
	enum { N = 12 };
	int sv[2];
	char data[N][4];
	struct iovec out[N];
	struct mmsghdr send[N];

	check(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0, "socketpair");
	memset(send, 0, sizeof(send));
	for (int i = 0; i < N; i++) {
		snprintf(data[i], sizeof(data[i]), "d%02d", i);
		out[i] = (struct iovec){ data[i], 3 };
		send[i].msg_hdr.msg_iov = &out[i];
		send[i].msg_hdr.msg_iovlen = 1;
	}
	check(sendmmsg(sv[0], send, N, 0) == N, "sendmmsg");
	close(sv[0]);
	close(sv[1]);
}

/* A classic BPF filter: setsockopt's struct sock_fprog points at the instructions. */
static void socket_filter(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 64, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_fprog prog = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	check(fd >= 0, "socket");
	check(setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog, sizeof(prog)) == 0, "setsockopt");
	close(fd);
}

static void connect_bad(const void *addr, socklen_t len)
{
	check(connect(-1, addr, len) == -1, "connect(-1)");
}

/* An AX.25 call sign as the wire holds it: characters shifted left by one. */
static void ax25_call(ax25_address *a, const char *call, int ssid)
{
	for (int i = 0; i < 6; i++)
		a->ax25_call[i] = (char)(call[i] << 1);
	a->ax25_call[6] = (char)(ssid << 1);
}

static void foreign_addresses(void)
{
	struct sockaddr_ipx ipx = { .sipx_family = AF_IPX, .sipx_port = htons(4660),
				    .sipx_network = htonl(0xfacefeed), .sipx_node = "ABCDEF",
				    .sipx_type = 4 };
	struct full_sockaddr_ax25 ax = { .fsa_ax25 = { .sax25_family = AF_AX25,
						       .sax25_ndigis = 2 } };
	struct sockaddr_x25 x25 = { .sx25_family = AF_X25, .sx25_addr = { "2342" } };
	/* sockaddr_l2 (BlueZ): psm 3, bdaddr, cid 0x40, LE random */
	unsigned char l2[14] = { AF_BLUETOOTH, 0, 3, 0, 1, 2, 3, 4, 5, 6, 0x40, 0, 2, 0 };
	struct sockaddr_vm vm = { .svm_family = AF_VSOCK, .svm_cid = VMADDR_CID_HOST,
				  .svm_port = 1024, .svm_flags = VMADDR_FLAG_TO_HOST };
	struct sockaddr_qrtr qrtr = { .sq_family = AF_QIPCRTR, .sq_node = 1,
				      .sq_port = QRTR_PORT_CTRL };
	struct sockaddr_xdp xdp = { .sxdp_family = AF_XDP, .sxdp_flags = XDP_COPY,
				    .sxdp_queue_id = 3 };
	struct sockaddr_mctp mctp = { .smctp_family = AF_MCTP, .smctp_network = 1,
				      .smctp_addr = { MCTP_ADDR_ANY }, .smctp_type = 1 };
	struct sockaddr_alg alg = { .salg_family = AF_ALG, .salg_type = "hash",
				    .salg_name = "sha256" };
	struct sockaddr_nfc nfc = { .sa_family = AF_NFC, .target_idx = 2,
				    .nfc_protocol = NFC_PROTO_NFC_DEP };
	struct sockaddr_rxrpc rx = { .srx_family = AF_RXRPC, .srx_service = 1,
				     .transport_type = SOCK_DGRAM,
				     .transport_len = sizeof(struct sockaddr_in) };

	ax25_call(&ax.fsa_ax25.sax25_call, "N0CALL", 7);
	ax25_call(&ax.fsa_digipeater[0], "RELAY ", 1);
	ax25_call(&ax.fsa_digipeater[1], "lower ", 2);
	rx.transport.sin.sin_family = AF_INET;
	rx.transport.sin.sin_port = htons(7001);
	rx.transport.sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);

	connect_bad(&ipx, sizeof(ipx));
	connect_bad(&ax, sizeof(ax.fsa_ax25) + 2 * sizeof(ax25_address));
	connect_bad(&x25, sizeof(x25));
	connect_bad(l2, sizeof(l2));
	connect_bad(&vm, sizeof(vm));
	connect_bad(&qrtr, sizeof(qrtr));
	connect_bad(&xdp, sizeof(xdp));
	connect_bad(&mctp, sizeof(mctp));
	connect_bad(&alg, sizeof(alg));
	connect_bad(&nfc, sizeof(nfc));
	connect_bad(&rx, sizeof(rx));
}

int main(void)
{
	tcp_loopback();
	unix_pair();
	datagram_batches();
	datagram_big_batch();
	socket_filter();
	foreign_addresses();
	return 0;
}

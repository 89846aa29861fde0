/*
 * sockets: a TCP conversation over 127.0.0.1 inside one process (listen,
 * connect, accept4, then both ends talk), socket options and names, and an
 * AF_UNIX socketpair carrying a sendmsg/recvmsg, and datagrams in batches
 * (sendmmsg/recvmmsg, as resolvers send them).  The port is chosen by the
 * kernel (bind to port 0), so nothing collides with other tests.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

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

int main(void)
{
	tcp_loopback();
	unix_pair();
	datagram_batches();
	return 0;
}

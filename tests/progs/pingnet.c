/*
 * pingnet: a message and its answer between two machines, for checking that
 * a host's and a guest's recordings merged on one clock keep cause before
 * effect (tests/kernel/causality.py).
 *
 *   pingnet serve PORT N        accept one connection on PORT, then N times:
 *                               receive a message, send it back
 *   pingnet ping HOST PORT N    connect to HOST:PORT, then N times: send a
 *                               message, receive the answer, pause 20 ms
 *
 * The recorded events are the syscalls around each message: the pinger's
 * sendto (entered before the message leaves) and recvfrom (returned after the
 * answer came), the server's recvfrom return and sendto entry.  Round i's four
 * events must be in that order on any right merge of the two clocks.  Round i's
 * message is MSG_BASE + i bytes long, so sendto's len names the round in both
 * recordings, whatever either missed.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MSG_BASE 64
#define MAX_ROUNDS 1000
#define MSG_MAX (MSG_BASE + MAX_ROUNDS)

static int full_recv(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, buf + got, len - got, 0);

		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

static int serve(int port, long rounds)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), c;
	char buf[MSG_MAX];

	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) || listen(s, 1)) {
		perror("pingnet: serve");
		return 1;
	}
	printf("pingnet %d serving on port %d\n", (int)getpid(), port);
	fflush(stdout);
	c = accept(s, NULL, NULL);
	if (c < 0) {
		perror("pingnet: accept");
		return 1;
	}
	setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (long i = 0; i < rounds; i++) {
		size_t len = MSG_BASE + i;

		if (full_recv(c, buf, len) || send(c, buf, len, 0) != (ssize_t)len) {
			fprintf(stderr, "pingnet: round %ld: the connection ended\n", i);
			return 1;
		}
	}
	close(c);
	close(s);
	return 0;
}

static int connect_retrying(const char *host, int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };

	if (inet_pton(AF_INET, host, &a.sin_addr) != 1) {
		fprintf(stderr, "pingnet: %s: not an IPv4 address\n", host);
		return -1;
	}
	/* the server may still be starting: 30 s of tries */
	for (int tries = 0; tries < 300; tries++) {
		int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (connect(s, (struct sockaddr *)&a, sizeof(a)) == 0)
			return s;
		close(s);
		usleep(100000);
	}
	fprintf(stderr, "pingnet: cannot connect to %s:%d\n", host, port);
	return -1;
}

static int ping(const char *host, int port, long rounds)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };
	int one = 1, s = connect_retrying(host, port);
	char buf[MSG_MAX], back[MSG_MAX];

	if (s < 0)
		return 1;
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (long i = 0; i < rounds; i++) {
		size_t len = MSG_BASE + i;

		memset(buf, 'a' + i % 26, len);
		if (send(s, buf, len, 0) != (ssize_t)len || full_recv(s, back, len)) {
			fprintf(stderr, "pingnet: round %ld: the connection ended\n", i);
			return 1;
		}
		if (memcmp(buf, back, len)) {
			fprintf(stderr, "pingnet: round %ld: a different answer\n", i);
			return 1;
		}
		nanosleep(&pause, NULL);
	}
	close(s);
	printf("%ld rounds\n", rounds);
	return 0;
}

static long rounds_arg(const char *s)
{
	long n = atol(s);

	if (n < 1 || n > MAX_ROUNDS) {
		fprintf(stderr, "pingnet: %s rounds: 1 to %d\n", s, MAX_ROUNDS);
		exit(2);
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "serve"))
		return serve(atoi(argv[2]), rounds_arg(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "ping"))
		return ping(argv[2], atoi(argv[3]), rounds_arg(argv[4]));
	fprintf(stderr, "usage: pingnet serve PORT N | pingnet ping HOST PORT N\n");
	return 2;
}

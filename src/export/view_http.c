/*
 * view_http: `tracekit view --serve`'s server (see view_http.h).  One thread, one
 * request per connection, a few seconds to send it: a local viewer has one user.
 * Pages are made whole in memory before a byte is sent, so a failed page is a
 * clean 500, never half a page.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "export/view.h"
#include "export/view_http.h"

static const char *status_text(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 408: return "Request Timeout";
	case 414: return "URI Too Long";
	case 431: return "Request Header Fields Too Large";
	default: return "Internal Server Error";
	}
}

static void send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

static void respond(int fd, int status, const char *type, const char *body, size_t len)
{
	char head[512];
	int n = snprintf(head, sizeof(head), "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
			 "Content-Length: %zu\r\nCache-Control: no-store\r\n"
			 "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n",
			 status, status_text(status), type, len);
	send_all(fd, head, (size_t)n);
	send_all(fd, body, len);
}

static void refuse(int fd, int status)
{
	char body[64];
	int n = snprintf(body, sizeof(body), "%d %s\n", status, status_text(status));
	respond(fd, status, "text/plain; charset=utf-8", body, (size_t)n);
}

/* The head of a request, up to its blank line: its length, or minus the status to answer. */
static long read_head(int fd, char *buf, size_t cap)
{
	struct timespec t0, t;
	size_t n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (n < cap) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		if (t.tv_sec - t0.tv_sec > 10)
			return -408;	/* a byte now and then: no */
		ssize_t r = recv(fd, buf + n, cap - n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -408;	/* SO_RCVTIMEO: too slow */
		if (r == 0)
			return -400;
		size_t from = n >= 3 ? n - 3 : 0;
		n += (size_t)r;
		for (size_t i = from; i < n; i++) {
			if (i + 4 <= n && !memcmp(buf + i, "\r\n\r\n", 4))
				return (long)(i + 4);
			if (i + 2 <= n && !memcmp(buf + i, "\n\n", 2))
				return (long)(i + 2);
		}
	}
	return -431;
}

/* Constant time: how long the token matches says nothing. */
static bool token_ok(const char *given, const char *token)
{
	unsigned char d = 0;

	for (int i = 0; i < VW_TOKEN_LEN; i++)
		d |= (unsigned char)(given[i] ^ token[i]);
	return given[0] && d == 0;
}

static void serve_one(struct vw_served *s, int fd, const char *token)
{
	char buf[VW_HTTP_MAX_REQUEST];
	struct vw_request rq;
	struct timeval tv = { .tv_sec = 5 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	tv.tv_sec = 60;
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	long n = read_head(fd, buf, sizeof(buf));
	if (n < 0) {
		refuse(fd, (int)-n);
		return;
	}
	int status = vw_http_parse(buf, (size_t)n, &rq);
	if (!status && !token_ok(rq.token, token))
		status = 403;
	if (status) {
		refuse(fd, status);
		return;
	}
	char *page = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&page, &len);
	int rc = f ? vw_served_page(s, rq.kind == VW_REQ_WINDOW ? rq.ka : -1, rq.kb, f) : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	if (rc < 0)
		refuse(fd, rc == -2 ? 400 : 500);
	else
		respond(fd, 200, "text/html; charset=utf-8", page, len);
	free(page);
}

/*
 * Close after the answer is out: input left unread (a request too long) would make
 * close() reset the connection and the client lose the answer; so read a little of
 * it first, for a moment at most.
 */
static void linger_close(int fd)
{
	struct timeval tv = { .tv_usec = 200000 };
	char sink[4096];

	shutdown(fd, SHUT_WR);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (int i = 0; i < 16 && recv(fd, sink, sizeof(sink), 0) > 0; i++)
		;
	close(fd);
}

int vw_http_listen(int port, char *err, size_t errlen)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int one = 1;

	int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 16) < 0) {
		snprintf(err, errlen, "cannot listen on 127.0.0.1:%d: %s", port, strerror(errno));
		if (lfd >= 0)
			close(lfd);
		return -1;
	}
	return lfd;
}

int vw_http_serve(struct vw_served *s, int lfd, void (*ready)(const char *url),
		  volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char raw[VW_TOKEN_LEN / 2];
	char token[VW_TOKEN_LEN + 1], url[128];
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw)) {
		snprintf(err, errlen, "cannot make a token: %s", strerror(errno));
		close(lfd);
		return -1;
	}
	for (size_t i = 0; i < sizeof(raw); i++) {
		token[2 * i] = hex[raw[i] >> 4];
		token[2 * i + 1] = hex[raw[i] & 15];
	}
	token[VW_TOKEN_LEN] = '\0';
	if (getsockname(lfd, (struct sockaddr *)&sa, &salen) < 0) {
		snprintf(err, errlen, "cannot read the listening address: %s", strerror(errno));
		close(lfd);
		return -1;
	}
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/?t=%s", ntohs(sa.sin_port), token);
	ready(url);
	while (!*stop) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		if (poll(&p, 1, 500) <= 0)
			continue;
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		serve_one(s, fd, token);
		linger_close(fd);
	}
	close(lfd);
	return 0;
}

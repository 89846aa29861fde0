/* Addresses, allow-lists and sockets for listen/agent/record -N (see addr.h). */
#include "net/addr.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(char *err, size_t errlen, const char *msg, const char *what)
{
	snprintf(err, errlen, msg, what);
	return -1;
}

int net_allow_add(struct net_allow *a, const char *text, char *err, size_t errlen)
{
	struct net_cidr c = { 0 };
	char host[64];
	const char *slash = strchr(text, '/');
	size_t hl = slash ? (size_t)(slash - text) : strlen(text);
	int max;

	if (a->n >= NET_MAX_ALLOW)
		return fail(err, errlen, "%s: too many (32 at most)", text);
	if (hl >= sizeof(host))
		return fail(err, errlen, "%s: not a numeric address (e.g. 10.0.2.2, 10.0.0.0/8, ::1)", text);
	memcpy(host, text, hl);
	host[hl] = '\0';
	if (inet_pton(AF_INET, host, c.addr) == 1) {
		c.family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, host, c.addr) == 1) {
		c.family = AF_INET6;
		max = 128;
	} else {
		return fail(err, errlen, "%s: not a numeric address (e.g. 10.0.2.2, 10.0.0.0/8, ::1)", text);
	}
	c.bits = max;
	if (slash) {
		char *end;
		long b = strtol(slash + 1, &end, 10);

		if (!slash[1] || *end || b < 0 || b > max)
			return fail(err, errlen, "%s: bad prefix length", text);
		c.bits = (int)b;
	}
	a->cidr[a->n++] = c;
	return 0;
}

void net_allow_loopback(struct net_allow *a)
{
	char err[64];

	a->n = 0;
	net_allow_add(a, "127.0.0.0/8", err, sizeof(err));
	net_allow_add(a, "::1", err, sizeof(err));
}

static bool prefix_match(const unsigned char *x, const unsigned char *y, int bits)
{
	int bytes = bits / 8, rest = bits % 8;

	if (memcmp(x, y, (size_t)bytes))
		return false;
	if (!rest)
		return true;
	unsigned char mask = (unsigned char)(0xff << (8 - rest));
	return (x[bytes] & mask) == (y[bytes] & mask);
}

bool net_allowed(const struct net_allow *a, const struct sockaddr *sa)
{
	unsigned char addr[16];
	int family = sa->sa_family;

	if (family == AF_INET) {
		memcpy(addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
	} else if (family == AF_INET6) {
		const struct in6_addr *v6 = &((const struct sockaddr_in6 *)sa)->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(v6)) {	/* ::ffff:a.b.c.d is a.b.c.d */
			family = AF_INET;
			memcpy(addr, v6->s6_addr + 12, 4);
		} else {
			memcpy(addr, v6->s6_addr, 16);
		}
	} else {
		return false;
	}
	for (int i = 0; i < a->n; i++)
		if (a->cidr[i].family == family && prefix_match(addr, a->cidr[i].addr, a->cidr[i].bits))
			return true;
	return false;
}

int net_split_hostport(const char *text, char *host, size_t hostlen, unsigned *port, char *err,
		       size_t errlen)
{
	const char *colon = strrchr(text, ':');
	const char *p = colon ? colon + 1 : text;
	size_t hl;
	char *end;
	long v;

	if (text[0] == '[') {	/* [::1]:PORT */
		const char *close = strchr(text, ']');

		if (!close || close[1] != ':')
			return fail(err, errlen, "'%s': expected [IPV6]:PORT", text);
		colon = close + 1;
		p = colon + 1;
		hl = (size_t)(close - text - 1);
		text++;
	} else {
		hl = colon ? (size_t)(colon - text) : 0;
	}
	v = strtol(p, &end, 10);
	if (!*p || *end || v <= 0 || v > 65535)
		return fail(err, errlen, "'%s': expected HOST:PORT (a port from 1 to 65535)", text);
	if (hl >= hostlen)
		return fail(err, errlen, "'%s': the host name is too long", text);
	if (hl) {
		memcpy(host, text, hl);
		host[hl] = '\0';
	} else {
		snprintf(host, hostlen, "localhost");
	}
	*port = (unsigned)v;
	return 0;
}

int net_connect(const char *host, unsigned port, int type, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = type }, *res, *rp;
	char service[16];
	int fd = -1, e = 0, r;

	snprintf(service, sizeof(service), "%u", port);
	r = getaddrinfo(host, service, &hints, &res);
	if (r) {
		snprintf(err, errlen, "%s: %s", host, gai_strerror(r));
		return -1;
	}
	for (rp = res; rp; rp = rp->ai_next) {
		fd = socket(rp->ai_family, rp->ai_socktype | SOCK_CLOEXEC, rp->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, rp->ai_addr, rp->ai_addrlen) == 0)
			break;
		e = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		snprintf(err, errlen, "cannot connect to %s:%u (%s): %s", host, port,
			 type == SOCK_DGRAM ? "UDP" : "TCP", strerror(e ? e : ECONNREFUSED));
	return fd;
}

int net_bind(const char *addr, unsigned port, int type, char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = type, .ai_flags = AI_PASSIVE | AI_NUMERICHOST };
	struct addrinfo *res;
	char service[16];
	int fd, r, one = 1;

	snprintf(service, sizeof(service), "%u", port);
	r = getaddrinfo(addr ? addr : "127.0.0.1", service, &hints, &res);
	if (r) {
		snprintf(err, errlen, "%s: not a numeric address (%s)", addr, gai_strerror(r));
		return -1;
	}
	fd = socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		freeaddrinfo(res);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, res->ai_addr, res->ai_addrlen) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 64) < 0)) {
		snprintf(err, errlen, "cannot listen on %s port %u: %s", addr ? addr : "127.0.0.1",
			 port, strerror(errno));
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

unsigned net_local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return 0;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	if (ss.ss_family == AF_INET6)
		return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	return 0;
}

void net_numeric_host(const struct sockaddr *sa, char *buf, size_t len)
{
	socklen_t sl = sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6)
						 : sizeof(struct sockaddr_in);

	if (getnameinfo(sa, sl, buf, (socklen_t)len, NULL, 0, NI_NUMERICHOST))
		snprintf(buf, len, "unknown");
}

bool net_same_host(const struct sockaddr *a, const struct sockaddr *b)
{
	char x[64], y[64];

	net_numeric_host(a, x, sizeof(x));
	net_numeric_host(b, y, sizeof(y));
	return !strcmp(x, y);
}

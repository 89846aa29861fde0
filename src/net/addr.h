/*
 * Addresses for the network verbs: HOST:PORT as trace-cmd writes it, the
 * listeners' --allow CIDR lists (loopback only unless told), and the few
 * socket calls they share.
 */
#ifndef TRACEKIT_NET_ADDR_H
#define TRACEKIT_NET_ADDR_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct net_cidr {
	int family;		/* AF_INET or AF_INET6 */
	unsigned char addr[16];
	int bits;
};

#define NET_MAX_ALLOW 32
struct net_allow {
	struct net_cidr cidr[NET_MAX_ALLOW];
	int n;
};

/* "10.0.0.0/8", "::1", "127.0.0.1": 0, or -1 with err. */
int net_allow_add(struct net_allow *a, const char *text, char *err, size_t errlen);
/* 127.0.0.0/8 and ::1 (the default). */
void net_allow_loopback(struct net_allow *a);
bool net_allowed(const struct net_allow *a, const struct sockaddr *sa);

/* "HOST:PORT", "[V6]:PORT" or "PORT" (localhost): host and port, or -1 with err. */
int net_split_hostport(const char *text, char *host, size_t hostlen, unsigned *port, char *err,
		       size_t errlen);
/* A connected socket of type (SOCK_STREAM/SOCK_DGRAM) to host:port, or -1 with err. */
int net_connect(const char *host, unsigned port, int type, char *err, size_t errlen);
/* Bound to addr (NULL: 127.0.0.1) and port (0: any); TCP ones listen.  -1 with err. */
int net_bind(const char *addr, unsigned port, int type, char *err, size_t errlen);
/* The port a socket is bound to. */
unsigned net_local_port(int fd);
/* The numeric address of sa ("127.0.0.1", "::1"). */
void net_numeric_host(const struct sockaddr *sa, char *buf, size_t len);
/* Whether a and b are the same address (the port is not compared). */
bool net_same_host(const struct sockaddr *a, const struct sockaddr *b);

#endif

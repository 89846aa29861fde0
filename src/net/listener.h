/*
 * `tracekit listen`: trace-cmd's listener.  Clients (trace-cmd record -N,
 * tracekit record -N) stream a recording: the file's metadata on the control
 * connection, each CPU's ring-buffer pages on a connection (TCP) or socket
 * (UDP) of its own.  One thread per client writes one file per client, named
 * as trace-cmd names them: NAME.HOST:PORT.dat in DIR.
 */
#ifndef TRACEKIT_NET_LISTENER_H
#define TRACEKIT_NET_LISTENER_H

#include <stdbool.h>
#include <stdint.h>

#include "net/addr.h"

struct net_listen_opts {
	const char *addr;		/* bind address; NULL: 127.0.0.1 */
	unsigned port;
	const char *dir;		/* -d; NULL: "." */
	const char *name;		/* -o; NULL: "trace" */
	struct net_allow allow;		/* who may connect */
	bool json;			/* JSON lines on stdout */
	int max_clients;		/* at once; more are refused */
	int clients;			/* --clients N: stop after N clients ended (0: never) */
	uint64_t max_meta;		/* bytes of metadata a client may send */
	volatile int *stop;		/* set by a signal: finish every client and return */
};

/* Serve until stopped; 0, or 1 after an error line (the port taken...). */
int net_listen_run(const struct net_listen_opts *o);

#endif

/*
 * The sending side of trace-cmd's listen protocol, for `tracekit record -N`:
 * connect to a listener (trace-cmd listen or tracekit listen), announce the
 * CPUs, send the trace file's metadata, then stream each CPU's pages as the
 * recorder writes them to its spool file, and CLOSE.
 */
#ifndef TRACEKIT_NET_CLIENT_H
#define TRACEKIT_NET_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct net_client;

struct net_client_stats {
	uint64_t pages_sent;
	uint64_t pages_failed;	/* UDP pages the socket refused (counted, not resent) */
	uint64_t bytes_sent;
};

/*
 * Connect to HOST:PORT, greet, TINIT (cpus, page_size; tcp: TCP data
 * connections, else UDP), RINIT, and one data socket per CPU.  NULL with err.
 */
struct net_client *net_client_open(const char *hostport, bool tcp, int cpus, unsigned page_size,
				   char *err, size_t errlen);
/*
 * The agent's side (tracekit agent): the same sending, to the host that sent
 * TRACE_REQ -- the metadata on its control connection, each CPU's pages on
 * the connection it makes to that CPU's data port; the end is CLOSE_RESP.
 */
struct net_agent_session;
struct net_client *net_client_agent(struct net_agent_session *a);
/* The metadata: the bytes of fd (a file of size bytes), SEND_DATA then FIN_DATA. */
int net_client_send_meta(struct net_client *c, int fd, uint64_t size, char *err, size_t errlen);
/*
 * One thread per CPU streams whole pages from "<spool>.cpuN" as it grows
 * (punching out what is sent, so the spool stays small).
 */
int net_client_stream(struct net_client *c, const char *spool, char *err, size_t errlen);
/*
 * After the recorder drained: send what is left, end the data connections and
 * CLOSE.  Stats filled; 0, or -1 with err (the listener went away...).
 */
int net_client_finish(struct net_client *c, struct net_client_stats *st, char *err,
		      size_t errlen);
void net_client_free(struct net_client *c);

#endif

/*
 * `tracekit agent`: the guest's side of trace-cmd's host-guest protocol over
 * TCP (tracecmd/trace-agent.c in trace-cmd 3.1).  A host (trace-cmd record
 * -A, tracekit record -A) connects and sends TRACE_REQ: the record options
 * for this machine, its trace id and the time-sync protocols it speaks.  The
 * agent answers TRACE_RESP: its CPUs, page size, one data port per CPU and a
 * time-sync port (each the first free one from 1500 up), its own trace id
 * and "ptp".  Then the host syncs the clocks on the time-sync connection,
 * the agent records and sends the file's metadata on the control connection
 * and each CPU's pages on that CPU's connection, until the host's CLOSE,
 * answered with CLOSE_RESP.  There is no greeting on this connection.
 *
 * One host at a time: the next waits until the recording ends.
 */
#ifndef TRACEKIT_NET_AGENT_H
#define TRACEKIT_NET_AGENT_H

#include <stdbool.h>
#include <stdint.h>

#include "net/addr.h"
#include "net/msg.h"

/* trace-cmd's default agent port, and where its data ports start. */
#define NET_AGENT_PORT 823
#define NET_AGENT_FIRST_PORT 1500

struct net_agent_session {
	int ctl;			/* the host's control connection */
	char host[64];			/* its numeric address */
	struct net_trace_req req;	/* what it asked: argc/argv are record options */
	uint64_t trace_id;		/* ours, in TRACE_RESP and our file's TRACEID */
	int cpus;
	unsigned page_size;
	int *data_fds;			/* listening, one per CPU */
	unsigned *ports;
	const struct net_allow *allow;	/* who may connect to the data ports */
	const char *addr;		/* where they listen */
	char clock[32];			/* -C in the request, or "" */
	bool close_seen;		/* the host's CLOSE (or its end) arrived */
	volatile int *stop;		/* the agent's Ctrl-C: one taken before the recording
					 * caught the signals itself ends it too */
	/* what the recording sent, set when it ends (net_agent_recorded) */
	bool recorded;
	unsigned long long events, lost, pages_sent;
};

/*
 * The recording for one host, given by the CLI: record with s->req's options,
 * send through net_client_agent(s), stop when net_agent_close_asked(s).
 * Returns an exit status (0: recorded).
 */
typedef int (*net_agent_record_fn)(struct net_agent_session *s, void *arg);

struct net_agent_opts {
	const char *addr;		/* bind address; NULL: 127.0.0.1 */
	unsigned port;			/* -p, default NET_AGENT_PORT */
	struct net_allow allow;		/* who may connect (-N and --allow) */
	int sessions;			/* stop after N hosts (0: until a signal) */
	unsigned first_port;		/* data and time-sync ports from here up (0: 1500) */
	bool json;			/* --json: a JSON line on stdout for each step, only
					 * problems on stderr */
	volatile int *stop;
	net_agent_record_fn record;
	void *arg;
};

/* Serve hosts until stopped; 0, or 1 after an error line (the port taken...). */
int net_agent_run(const struct net_agent_opts *o);

/* The recording for s ended having sent this: said when the session ends. */
void net_agent_recorded(struct net_agent_session *s, unsigned long long events,
			unsigned long long lost, unsigned long long pages_sent);

/* Whether the host asked for the end (CLOSE) or went away; never blocks. */
bool net_agent_close_asked(struct net_agent_session *s);

/* The "-C CLOCK" among a request's record options, or NULL. */
const char *net_agent_req_clock(const struct net_trace_req *r);

#endif

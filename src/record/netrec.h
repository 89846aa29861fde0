/*
 * record -N HOST:PORT: the recording goes to a listener (trace-cmd listen or
 * tracekit listen) instead of a local file.  The recorder spools each CPU's
 * pages into a temporary directory; src/net/client.c sends them on as they
 * come, after the file's metadata.
 */
#ifndef TRACEKIT_RECORD_NETREC_H
#define TRACEKIT_RECORD_NETREC_H

#include <stdbool.h>
#include <stddef.h>

struct ft_session;
struct rec_net;

/*
 * Connect, and send the metadata of the session's events (version 6 or 7).
 * spool (len bytes) gets the prefix the recorder's files take.  NULL with err.
 */
struct rec_net *rec_net_start(struct ft_session *s, const char *hostport, bool tcp, int version,
			      const char *const *notes, int nnotes, const char *clock,
			      char *spool, size_t len, char *err, size_t errlen);
/*
 * tracekit agent: the same to the host of an agent session (the metadata with
 * the TRACEID option; the pages to the connections the host makes).
 */
struct net_agent_session;
struct rec_net *rec_net_start_agent(struct ft_session *s, struct net_agent_session *a,
				    int version, const char *const *notes, int nnotes,
				    const char *clock, char *spool, size_t len, char *err,
				    size_t errlen);
/* Once the recorder runs: the senders follow its spool files. */
int rec_net_stream(struct rec_net *n, char *err, size_t errlen);
/* After the recorder drained: the rest, CLOSE, and a line saying what was sent. */
int rec_net_finish(struct rec_net *n, unsigned long long events, unsigned long long lost,
		   bool quiet, char *err, size_t errlen);
/* Close and remove the spool directory (the recorder's files are gone by then). */
void rec_net_free(struct rec_net *n);

#endif

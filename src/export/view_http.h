/*
 * The local web server of `tracekit view --serve`: the page of a big trace asks it
 * for windows in full detail.  It listens on 127.0.0.1 only, answers one request
 * per connection, and takes every request as hostile: bounded in size and time,
 * parsed by vw_http_parse (fuzzed: tests/fuzz/fuzz_view_request.c), and refused
 * unless it carries the random token printed in the page's address.
 */
#ifndef TRACEKIT_EXPORT_VIEW_HTTP_H
#define TRACEKIT_EXPORT_VIEW_HTTP_H

#include <signal.h>
#include <stddef.h>

struct vw_served;

#define VW_HTTP_MAX_REQUEST 8192	/* bytes of request line and headers */
#define VW_TOKEN_LEN 32			/* hex digits */

enum vw_req_kind { VW_REQ_OVERVIEW, VW_REQ_WINDOW };

struct vw_request {
	enum vw_req_kind kind;
	int ka, kb;			/* VW_REQ_WINDOW: chunks ka..kb */
	char token[VW_TOKEN_LEN + 1];	/* as given ("" when absent) */
};

/*
 * A request's head (buf, n bytes, up to and including the blank line): 0 and *rq
 * filled, or the HTTP status to answer: 400 malformed, 404 no such page, 405 not a
 * GET, 414 target too long.  The token is not checked here.
 */
int vw_http_parse(const char *buf, size_t n, struct vw_request *rq);

/*
 * Listen on 127.0.0.1:port (0: any free port) before the trace is indexed, so a
 * port taken is said at once: the socket, or -1 and a message in err.
 */
int vw_http_listen(int port, char *err, size_t errlen);

/*
 * Serve s on the socket lfd (vw_http_listen's; closed on return) until *stop is
 * set (a signal); ready(url) is called first (the url carries the token).  0, or
 * -1 and a message in err.
 */
int vw_http_serve(struct vw_served *s, int lfd, void (*ready)(const char *url),
		  volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif

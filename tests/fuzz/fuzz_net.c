/*
 * Fuzz trace-cmd's network messages as tracekit reads them: the bytes are a
 * control connection's stream, cut into messages by their headers, each
 * decoded as every kind it could be.  A decoder that accepts must give
 * values within the bounds msg.h promises.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/msg.h"

static void decode_all(const struct net_msg *m)
{
	struct net_tinit ti;
	struct net_trace_req req;
	struct net_tsync ts;
	static struct net_trace_resp resp;
	unsigned ports[NET_MAX_CPUS];
	uint32_t n;
	char err[256];

	if (m->data_len > NET_MSG_MAX_DATA || m->body_len > net_cmd_body_len(m->cmd))
		abort();
	if (!net_tinit_decode(m, &ti, err, sizeof(err)) &&
	    (!ti.cpus || ti.cpus > NET_MAX_CPUS || ti.page_size < 1024 || ti.page_size > 65536))
		abort();
	if (!net_rinit_decode(m, ports, NET_MAX_CPUS, &n, err, sizeof(err))) {
		for (uint32_t i = 0; i < n; i++)
			if (!ports[i] || ports[i] > 65535)
				abort();
	}
	if (!net_trace_req_decode(m, &req, err, sizeof(err))) {
		for (int i = 0; i < req.argc; i++)
			if (strlen(req.argv[i]) > NET_MSG_MAX)
				abort();
		for (int i = 0; req.protos[i]; i++)
			if (!req.protos[i][0])
				abort();
		net_trace_req_free(&req);
	}
	if (!net_trace_resp_decode(m, &resp, err, sizeof(err)) &&
	    (resp.cpus > NET_MAX_CPUS || strlen(resp.tsync_proto) > NET_TSYNC_NAME_LEN))
		abort();
	if (!net_tsync_decode(m, &ts, err, sizeof(err)) && ts.payload_len > NET_MSG_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct net_msg m;
	char err[256];

	while (size >= NET_MSG_HDR) {
		int len = net_msg_check_header(data, err, sizeof(err));

		if (len < 0)
			break;
		if ((size_t)len > size)
			len = (int)size;	/* cut short: parse must refuse */
		if (net_msg_parse(data, (size_t)len, &m, err, sizeof(err)) == 0)
			decode_all(&m);
		data += len;
		size -= (size_t)len;
	}
	return 0;
}

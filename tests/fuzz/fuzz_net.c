/*
 * Fuzz trace-cmd's network messages as tracekit reads them: the bytes are a
 * control connection's stream, cut into messages by their headers, each
 * decoded as every kind it could be.  A decoder that accepts must give
 * values within the bounds msg.h promises.  Inputs whose first byte is 'M'
 * are a streamed trace file's metadata instead: checked, and when accepted
 * completed with one CPU's page, as the listener does (or, for inputs of even
 * length, as record -A completes a guest's file: with a TIME_SHIFT option).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/msg.h"
#include "net/tracemeta.h"
#include "tracefile/writer.h"

#include <sys/mman.h>
#include <unistd.h>

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

static void metadata(const uint8_t *data, size_t size)
{
	static int fd = -1, page = -1;
	struct net_meta mi;
	char err[256];

	if (fd < 0) {
		fd = memfd_create("fuzz-meta", 0);
		page = memfd_create("fuzz-page", 0);
	}
	if (fd < 0 || page < 0 || ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return;
	if (net_meta_inspect(fd, size, &mi, err, sizeof(err)) < 0)
		return;
	if (mi.link > size || mi.page_size < 1024 || mi.page_size > 65536)
		abort();
	char buf[65536] = { 0 };
	if (ftruncate(page, 0) || pwrite(page, buf, mi.page_size, 0) != (ssize_t)mi.page_size)
		return;
	struct net_cpu_file cpu = { .cpu = 0, .fd = page, .size = mi.page_size };
	/* as record -A completes a guest's file: with a TIME_SHIFT option, when the order is ours */
	static const uint8_t shift[16 + 4 + 32] = { 1 };
	struct tf_option opt = { TF_OPT_TIME_SHIFT, shift, sizeof(shift) };
	if (size % 2)
		net_meta_finish(fd, &mi, &cpu, 1, err, sizeof(err));
	else
		net_meta_finish_with(fd, &mi, &cpu, 1, &opt, 1, err, sizeof(err));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct net_msg m;
	char err[256];

	if (size && data[0] == 'M') {
		metadata(data + 1, size - 1);
		return 0;
	}

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

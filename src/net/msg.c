/*
 * trace-cmd's messages, read and written (see msg.h).  The layouts are those
 * of trace-cmd 3.1's trace-msg.c: every number big-endian, strings
 * NUL-terminated, a message at most 8192 bytes.  Unlike trace-cmd, nothing a
 * peer sends is trusted: counts are checked against the bytes that carry them.
 */
#include "net/msg.h"

#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/die.h"

/* The fixed part of each command, as trace-cmd lays it out (packed). */
static const uint32_t body_lens[NET_NCMDS] = {
	[NET_TINIT] = 12,	/* cpus, page_size, opt_num */
	[NET_RINIT] = 4,	/* cpus */
	[NET_TRACE_REQ] = 16,	/* flags, argc, trace_id */
	[NET_TRACE_RESP] = 40,	/* flags, cpus, page_size, trace_id, tsync name[16], tsync port */
	[NET_TIME_SYNC] = 20,	/* tsync name[16], message id */
	[NET_TRACE_PROXY] = 24,	/* TRACE_REQ's, cpus, siblings */
};

static const char *const names[NET_NCMDS] = {
	"CLOSE", "TINIT", "RINIT", "SEND_DATA", "FIN_DATA", "NOT_SUPP", "TRACE_REQ",
	"TRACE_RESP", "CLOSE_RESP", "TIME_SYNC", "TRACE_PROXY", "CONT",
};

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	errno = EPROTO;
	return -1;
}

const char *net_cmd_name(uint32_t cmd)
{
	return cmd < NET_NCMDS ? names[cmd] : "unknown";
}

uint32_t net_cmd_body_len(uint32_t cmd)
{
	return cmd < NET_NCMDS ? body_lens[cmd] : 0;
}

static uint32_t get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static void put_be32(uint8_t *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

int net_msg_check_header(const uint8_t hdr[NET_MSG_HDR], char *err, size_t errlen)
{
	uint32_t size = get_be32(hdr), cmd = get_be32(hdr + 4), cmd_size = get_be32(hdr + 8);

	if (size < NET_MSG_HDR || size > NET_MSG_MAX)
		return fail(err, errlen, "a message of %u bytes (a message is 12 to 8192 bytes)",
			    size);
	if (cmd >= NET_NCMDS)
		return fail(err, errlen, "an unknown message (command %u)", cmd);
	if (cmd_size > size - NET_MSG_HDR)
		return fail(err, errlen, "a %s message whose fixed part (%u bytes) is longer than "
			    "the message (%u bytes)", names[cmd], cmd_size, size);
	return (int)size;
}

/* Lay out m from its header and the bytes after it (rest: size - 12 bytes). */
static void place(struct net_msg *m, const uint8_t *hdr, const uint8_t *rest)
{
	uint32_t cmd_size = get_be32(hdr + 8);
	uint32_t want = body_lens[m->cmd];
	uint32_t got = cmd_size < want ? cmd_size : want;

	(void)rest;
	/* buf: [fixed part zero-filled to want][data] -- the fixed part's excess is dropped */
	memmove(m->buf + want, m->buf + cmd_size, m->size - NET_MSG_HDR - cmd_size);
	memset(m->buf + got, 0, want - got);
	m->body = m->buf;
	m->body_len = got;
	m->data = m->buf + want;
	m->data_len = m->size - NET_MSG_HDR - cmd_size;
}

int net_msg_parse(const uint8_t *bytes, size_t len, struct net_msg *m, char *err, size_t errlen)
{
	int size;

	if (len < NET_MSG_HDR)
		return fail(err, errlen, "a message cut short (%zu bytes)", len);
	size = net_msg_check_header(bytes, err, errlen);
	if (size < 0)
		return -1;
	if ((size_t)size != len)
		return fail(err, errlen, "a message of %d bytes in %zu", size, len);
	m->cmd = get_be32(bytes + 4);
	m->size = (uint32_t)size;
	memcpy(m->buf, bytes + NET_MSG_HDR, len - NET_MSG_HDR);
	place(m, bytes, m->buf);
	return 0;
}

/* Set: waits look at it every 200 ms and end when it is (net_set_interrupt). */
static volatile sig_atomic_t *interrupt_flag;

void net_set_interrupt(volatile sig_atomic_t *flag)
{
	interrupt_flag = flag;
}

/*
 * poll() for events on fd, a signal not ending the wait (the flag of net_set_interrupt
 * does): >0 ready, 0 timed out, -1 error (EINTR: interrupted).
 */
static int wait_for(int fd, short events, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = events };
	long long end = net_now_ms() + timeout_ms;

	for (;;) {
		long long left = end - net_now_ms();
		int slice = left > 0 ? (int)left : 0, r;

		if (interrupt_flag && *interrupt_flag) {
			errno = EINTR;
			return -1;
		}
		if (interrupt_flag && slice > 200)
			slice = 200;	/* the signal may have gone to another thread */
		r = poll(&p, 1, slice);
		if (r > 0 || (r < 0 && errno != EINTR))
			return r;
		if (r == 0 && net_now_ms() >= end)
			return 0;
	}
}

long long net_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000LL + t.tv_nsec / 1000000;
}

int net_read_full(int fd, void *buf, size_t len, int timeout_ms, char *err, size_t errlen)
{
	/* One deadline for the whole: a peer that sends a byte now and then is as stuck. */
	long long end = net_now_ms() + timeout_ms;
	size_t done = 0;

	while (done < len) {
		long long left = end - net_now_ms();
		int w = left > 0 ? wait_for(fd, POLLIN, (int)left) : 0;
		ssize_t r;

		if (w < 0 && errno == EINTR)
			return fail(err, errlen, "interrupted");
		if (w < 0)
			return fail(err, errlen, "poll: %s", strerror(errno));
		if (w == 0 && done)
			return fail(err, errlen, "the peer sent %zu of %zu bytes in %d s", done, len,
				    timeout_ms / 1000);
		if (w == 0)
			return fail(err, errlen, "the peer sent nothing for %d s", timeout_ms / 1000);
		r = read(fd, (char *)buf + done, len - done);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0 && errno == ECONNRESET)
			r = 0;	/* the peer's end too: it closed with our bytes unread */
		if (r < 0)
			return fail(err, errlen, "read: %s", strerror(errno));
		if (r == 0) {
			if (!done)
				return 1;
			return fail(err, errlen, "the peer closed the connection mid-message");
		}
		done += (size_t)r;
	}
	return 0;
}

int net_write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		/* A peer that takes nothing for this long is gone (or means us harm). */
		int r = wait_for(fd, POLLOUT, NET_WRITE_STALL_MS);

		if (r < 0)
			return -1;
		if (r == 0) {
			errno = ETIMEDOUT;
			return -1;
		}
		ssize_t w = send(fd, (const char *)buf + done, len - done,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (w < 0 && errno == ENOTSOCK)
			w = write(fd, (const char *)buf + done, len - done);
		if (w < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w < 0)
			return -1;
		done += (size_t)w;
	}
	return 0;
}

int net_msg_read(int fd, struct net_msg *m, int timeout_ms, char *err, size_t errlen)
{
	uint8_t hdr[NET_MSG_HDR];
	int r, size;

	r = net_read_full(fd, hdr, sizeof(hdr), timeout_ms, err, errlen);
	if (r)
		return r;
	size = net_msg_check_header(hdr, err, errlen);
	if (size < 0)
		return -1;
	m->cmd = get_be32(hdr + 4);
	m->size = (uint32_t)size;
	r = net_read_full(fd, m->buf, (size_t)size - NET_MSG_HDR, timeout_ms, err, errlen);
	if (r == 1)
		return fail(err, errlen, "the peer closed the connection mid-message");
	if (r)
		return -1;
	place(m, hdr, m->buf);
	return 0;
}

int net_msg_write(int fd, uint32_t cmd, const void *body, uint32_t body_len, const void *data,
		  uint32_t data_len)
{
	uint8_t buf[NET_MSG_MAX];
	uint32_t size = NET_MSG_HDR + body_len + data_len;

	if (size > NET_MSG_MAX || cmd >= NET_NCMDS) {
		errno = EMSGSIZE;
		return -1;
	}
	put_be32(buf, size);
	put_be32(buf + 4, cmd);
	put_be32(buf + 8, body_len);
	if (body_len)
		memcpy(buf + NET_MSG_HDR, body, body_len);
	if (data_len)
		memcpy(buf + NET_MSG_HDR + body_len, data, data_len);
	return net_write_full(fd, buf, size);
}

int net_send_cmd(int fd, uint32_t cmd)
{
	uint8_t zero[64] = { 0 };

	return net_msg_write(fd, cmd, zero, body_lens[cmd], NULL, 0);
}

int net_send_data(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		uint32_t n = len > NET_MSG_MAX_DATA ? NET_MSG_MAX_DATA : (uint32_t)len;

		if (net_msg_write(fd, NET_SEND_DATA, NULL, 0, p, n) < 0)
			return -1;
		p += n;
		len -= n;
	}
	return 0;
}

/* ---- TINIT / RINIT ---- */

int net_tinit_decode(const struct net_msg *m, struct net_tinit *t, char *err, size_t errlen)
{
	uint32_t opts;
	const char *p, *end;

	if (m->cmd != NET_TINIT)
		return fail(err, errlen, "expected TINIT, got %s", net_cmd_name(m->cmd));
	t->cpus = get_be32(m->body);
	t->page_size = get_be32(m->body + 4);
	opts = get_be32(m->body + 8);
	t->flags = 0;
	if (t->cpus == 0 || t->cpus > NET_MAX_CPUS)
		return fail(err, errlen, "TINIT announces %u CPUs (1 to %d taken)", t->cpus,
			    NET_MAX_CPUS);
	if (t->page_size < 1024 || t->page_size > 65536 || (t->page_size & (t->page_size - 1)))
		return fail(err, errlen, "TINIT announces a page size of %u bytes (a power of two "
			    "from 1024 to 65536 taken)", t->page_size);
	if (m->data_len && m->data[m->data_len - 1] != '\0')
		return fail(err, errlen, "TINIT's options are not NUL-terminated");
	p = (const char *)m->data;
	end = p + m->data_len;
	for (uint32_t i = 0; i < opts; i++) {
		if (p >= end)
			return fail(err, errlen, "TINIT announces %u options in %u bytes", opts,
				    m->data_len);
		if (!strcmp(p, "tcp"))
			t->flags |= NET_TINIT_TCP;
		else if (!strcmp(p, "vsock"))
			t->flags |= NET_TINIT_VSOCK;
		p += strlen(p) + 1;
	}
	return 0;
}

int net_send_tinit(int fd, uint32_t cpus, uint32_t page_size, bool tcp)
{
	uint8_t body[12];

	put_be32(body, cpus);
	put_be32(body + 4, page_size);
	put_be32(body + 8, tcp ? 1 : 0);
	return net_msg_write(fd, NET_TINIT, body, sizeof(body), tcp ? "tcp" : NULL, tcp ? 4 : 0);
}

/* n decimal port numbers, each NUL-terminated, from data. */
static int decode_ports(const uint8_t *data, uint32_t len, uint32_t n, unsigned *ports,
			const char *what, char *err, size_t errlen)
{
	const char *p = (const char *)data, *end = p + len;

	if (!len || data[len - 1] != '\0')
		return fail(err, errlen, "%s's ports are not NUL-terminated", what);
	for (uint32_t i = 0; i < n; i++) {
		char *e;
		unsigned long v;

		if (p >= end)
			return fail(err, errlen, "%s announces %u ports and carries %u", what, n, i);
		errno = 0;
		v = strtoul(p, &e, 10);
		if (e == p || *e || errno || v == 0 || v > 65535)
			return fail(err, errlen, "%s carries a bad port '%.20s'", what, p);
		ports[i] = (unsigned)v;
		p += strlen(p) + 1;
	}
	return 0;
}

int net_rinit_decode(const struct net_msg *m, unsigned *ports, uint32_t max, uint32_t *n,
		     char *err, size_t errlen)
{
	if (m->cmd != NET_RINIT)
		return fail(err, errlen, "expected RINIT, got %s", net_cmd_name(m->cmd));
	*n = get_be32(m->body);
	if (*n == 0 || *n > max)
		return fail(err, errlen, "RINIT announces %u ports (1 to %u taken)", *n, max);
	return decode_ports(m->data, m->data_len, *n, ports, "RINIT", err, errlen);
}

/* Decimal ports, each NUL-terminated, into buf; the length or -1 when it does not fit. */
static int put_ports(char *buf, size_t size, const unsigned *ports, uint32_t n)
{
	size_t len = 0;

	for (uint32_t i = 0; i < n; i++) {
		int w = snprintf(buf + len, size - len, "%u", ports[i]);

		if (w < 0 || (size_t)w + 1 > size - len)
			return -1;
		len += (size_t)w + 1;
	}
	return (int)len;
}

int net_send_rinit(int fd, const unsigned *ports, uint32_t n)
{
	char data[NET_MSG_MAX_DATA];
	uint8_t body[4];
	int len = put_ports(data, sizeof(data) - 4, ports, n);

	if (len < 0) {
		errno = EMSGSIZE;
		return -1;
	}
	put_be32(body, n);
	return net_msg_write(fd, NET_RINIT, body, 4, data, (uint32_t)len);
}

/* ---- TRACE_REQ / TRACE_RESP ---- */

enum { REQ_ARGS = 0, REQ_TSYNC_PROTOS = 1 };

/* count NUL-terminated strings from p[0..len), copied into one block, as a vector. */
static char **string_vector(const char *p, uint32_t len, uint32_t count)
{
	char **v = xcalloc((size_t)count + 1, sizeof(char *));
	char *copy = xmalloc((size_t)len + 1);
	char *q = copy;

	memcpy(copy, p, len);
	copy[len] = '\0';
	for (uint32_t i = 0; i < count; i++) {
		v[i] = q;
		q += strlen(q) + 1;
	}
	if (!count)
		free(copy);
	return v;
}

static void free_vector(char **v)
{
	if (!v)
		return;
	free(v[0]);
	free(v);
}

/* Strings in p[0..len) that all end within it. */
static uint32_t count_strings(const char *p, uint32_t len)
{
	uint32_t n = 0, i = 0;

	while (i < len) {
		const char *nul = memchr(p + i, '\0', len - i);

		if (!nul)
			break;
		if (nul == p + i)	/* an empty string ends the list */
			break;
		n++;
		i = (uint32_t)(nul - p) + 1;
	}
	return n;
}

static int req_args(const uint8_t *p, uint32_t len, struct net_trace_req *r, char *err,
		    size_t errlen)
{
	uint32_t argc;
	const char *s, *end;

	if (len <= 4 || p[len - 1] != '\0')
		return fail(err, errlen, "TRACE_REQ's arguments are cut short");
	argc = get_be32(p);
	if (argc > 4096)
		return fail(err, errlen, "TRACE_REQ announces %u arguments", argc);
	s = (const char *)p + 4;
	end = (const char *)p + len;
	for (uint32_t i = 0; i < argc; i++) {
		if (s >= end)
			return fail(err, errlen, "TRACE_REQ announces %u arguments and carries %u",
				    argc, i);
		s += strlen(s) + 1;
	}
	free_vector(r->argv);
	r->argc = (int)argc;
	r->argv = string_vector((const char *)p + 4, len - 4, argc);
	return 0;
}

int net_trace_req_decode(const struct net_msg *m, struct net_trace_req *r, char *err,
			 size_t errlen)
{
	const uint8_t *p = m->data;
	uint32_t left = m->data_len;

	memset(r, 0, sizeof(*r));
	if (m->cmd != NET_TRACE_REQ && m->cmd != NET_TRACE_PROXY)
		return fail(err, errlen, "expected TRACE_REQ, got %s", net_cmd_name(m->cmd));
	r->flags = get_be32(m->body);
	r->trace_id = get_be64(m->body + 8);
	while (left > 8) {
		uint32_t id = get_be32(p), len = get_be32(p + 4);

		p += 8;
		left -= 8;
		if (len > left) {
			net_trace_req_free(r);
			return fail(err, errlen, "TRACE_REQ's parameter %u claims %u bytes of %u", id,
				    len, left);
		}
		if (id == REQ_ARGS && req_args(p, len, r, err, errlen) < 0) {
			net_trace_req_free(r);
			return -1;
		}
		if (id == REQ_TSYNC_PROTOS) {
			free_vector(r->protos);
			r->protos = string_vector((const char *)p, len, count_strings((const char *)p,
										    len));
		}
		p += len;
		left -= len;
	}
	if (!r->argv)
		r->argv = xcalloc(1, sizeof(char *));
	if (!r->protos)
		r->protos = xcalloc(1, sizeof(char *));
	return 0;
}

void net_trace_req_free(struct net_trace_req *r)
{
	free_vector(r->argv);
	free_vector(r->protos);
	r->argv = r->protos = NULL;
	r->argc = 0;
}

int net_send_trace_req(int fd, uint64_t trace_id, int argc, char *const *argv,
		       const char *const *protos)
{
	uint8_t body[16], data[NET_MSG_MAX_DATA];
	size_t len = 0, start;

	put_be32(body, 0);
	put_be32(body + 4, (uint32_t)argc);
	put_be64(body + 8, trace_id);
	/* ARGS: id, length, argc, the arguments */
	start = len;
	len += 8;
	if (len + 4 > sizeof(data))
		goto big;
	put_be32(data + len, (uint32_t)argc);
	len += 4;
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		if (len + n > sizeof(data))
			goto big;
		memcpy(data + len, argv[i], n);
		len += n;
	}
	put_be32(data + start, REQ_ARGS);
	put_be32(data + start + 4, (uint32_t)(len - start - 8));
	if (protos && protos[0]) {
		start = len;
		len += 8;
		for (int i = 0; protos[i]; i++) {
			size_t n = strlen(protos[i]) + 1;

			if (len + n + 1 > sizeof(data))
				goto big;
			memcpy(data + len, protos[i], n);
			len += n;
		}
		data[len++] = '\0';
		put_be32(data + start, REQ_TSYNC_PROTOS);
		put_be32(data + start + 4, (uint32_t)(len - start - 8));
	}
	return net_msg_write(fd, NET_TRACE_REQ, body, sizeof(body), data, (uint32_t)len);
big:
	errno = EMSGSIZE;
	return -1;
}

int net_trace_resp_decode(const struct net_msg *m, struct net_trace_resp *r, char *err,
			  size_t errlen)
{
	if (m->cmd != NET_TRACE_RESP)
		return fail(err, errlen, "expected TRACE_RESP, got %s", net_cmd_name(m->cmd));
	r->flags = get_be32(m->body);
	r->cpus = get_be32(m->body + 4);
	r->page_size = get_be32(m->body + 8);
	r->trace_id = get_be64(m->body + 12);
	memcpy(r->tsync_proto, m->body + 20, NET_TSYNC_NAME_LEN);
	r->tsync_proto[NET_TSYNC_NAME_LEN] = '\0';
	r->tsync_port = get_be32(m->body + 36);
	if (r->cpus == 0 || r->cpus > NET_MAX_CPUS)
		return fail(err, errlen, "TRACE_RESP announces %u CPUs (1 to %d taken)", r->cpus,
			    NET_MAX_CPUS);
	if (r->page_size < 1024 || r->page_size > 65536 || (r->page_size & (r->page_size - 1)))
		return fail(err, errlen, "TRACE_RESP announces a page size of %u bytes",
			    r->page_size);
	if (r->tsync_port > 65535)
		return fail(err, errlen, "TRACE_RESP announces time-sync port %u", r->tsync_port);
	return decode_ports(m->data, m->data_len, r->cpus, r->ports, "TRACE_RESP", err, errlen);
}

int net_send_trace_resp(int fd, const struct net_trace_resp *r)
{
	uint8_t body[40];
	char data[NET_MSG_MAX_DATA];
	int len = put_ports(data, sizeof(data) - 40, r->ports, r->cpus);

	if (len < 0) {
		errno = EMSGSIZE;
		return -1;
	}
	memset(body, 0, sizeof(body));
	put_be32(body, r->flags);
	put_be32(body + 4, r->cpus);
	put_be32(body + 8, r->page_size);
	put_be64(body + 12, r->trace_id);
	memcpy(body + 20, r->tsync_proto, strnlen(r->tsync_proto, NET_TSYNC_NAME_LEN));
	put_be32(body + 36, r->tsync_port);
	return net_msg_write(fd, NET_TRACE_RESP, body, sizeof(body), data, (uint32_t)len);
}

/* ---- TIME_SYNC ---- */

int net_tsync_decode(const struct net_msg *m, struct net_tsync *t, char *err, size_t errlen)
{
	if (m->cmd != NET_TIME_SYNC)
		return fail(err, errlen, "expected TIME_SYNC, got %s", net_cmd_name(m->cmd));
	memcpy(t->proto, m->body, NET_TSYNC_NAME_LEN);
	t->proto[NET_TSYNC_NAME_LEN] = '\0';
	t->id = get_be32(m->body + 16);
	t->payload = m->data;
	t->payload_len = m->data_len;
	return 0;
}

int net_send_tsync(int fd, const char *proto, uint32_t id, const void *payload, uint32_t len)
{
	uint8_t body[20];

	memset(body, 0, sizeof(body));
	memcpy(body, proto, strnlen(proto, NET_TSYNC_NAME_LEN));
	put_be32(body + 16, id);
	return net_msg_write(fd, NET_TIME_SYNC, body, sizeof(body), payload, len);
}

/* ---- the greeting ---- */

#define V3_CPU "-1V3"
/* trace-cmd's V3_MAGIC is "766679\0" and it sends sizeof() of it: eight bytes. */
static const char v3_magic[8] = "766679";

/* A NUL-terminated string of at most size-1 bytes, read a byte at a time (nothing more). */
static int read_cstring(int fd, char *buf, size_t size, int timeout_ms, char *err, size_t errlen)
{
	for (size_t i = 0; i < size; i++) {
		int r = net_read_full(fd, buf + i, 1, timeout_ms, err, errlen);

		if (r == 1)
			return fail(err, errlen, "the peer closed the connection during the greeting");
		if (r)
			return -1;
		if (!buf[i])
			return 0;
	}
	return fail(err, errlen, "the peer's greeting is longer than %zu bytes", size - 1);
}

int net_greet_client(int fd, int timeout_ms, char *err, size_t errlen)
{
	char buf[32], magic[8];
	int r;

	if (net_write_full(fd, "tracecmd", 8) < 0)
		return fail(err, errlen, "write: %s", strerror(errno));
	if (read_cstring(fd, buf, sizeof(buf), timeout_ms, err, errlen) < 0)
		return -1;
	if (strcmp(buf, V3_CPU)) {
		if (!strncmp(buf, "-1V", 3))
			return fail(err, errlen, "the client asks for protocol %.8s (only V3 is "
				    "spoken)", buf + 2);
		return fail(err, errlen, "the client speaks trace-cmd's protocol V1 (sent '%.8s'; "
			    "only V3, trace-cmd 2.9 and later, is spoken)", buf);
	}
	if (net_write_full(fd, "V3", 3) < 0)
		return fail(err, errlen, "write: %s", strerror(errno));
	r = net_read_full(fd, magic, sizeof(magic), timeout_ms, err, errlen);
	if (r == 1)
		return fail(err, errlen, "the peer closed the connection during the greeting");
	if (r)
		return -1;
	if (memcmp(magic, v3_magic, sizeof(magic)))
		return fail(err, errlen, "the client's V3 magic is wrong");
	if (net_write_full(fd, "OK", 2) < 0)
		return fail(err, errlen, "write: %s", strerror(errno));
	return 0;
}

int net_greet_listener(int fd, int timeout_ms, char *err, size_t errlen)
{
	char buf[8];
	int r;

	r = net_read_full(fd, buf, 8, timeout_ms, err, errlen);
	if (r == 1)
		return fail(err, errlen, "the listener closed the connection at once");
	if (r)
		return -1;
	if (memcmp(buf, "tracecmd", 8))
		return fail(err, errlen, "the peer is not a trace-cmd listener (it did not greet "
			    "with 'tracecmd')");
	if (net_write_full(fd, V3_CPU, sizeof(V3_CPU)) < 0)
		return fail(err, errlen, "write: %s", strerror(errno));
	if (read_cstring(fd, buf, sizeof(buf), timeout_ms, err, errlen) < 0)
		return -1;
	if (strcmp(buf, "V3"))
		return fail(err, errlen, "the listener answers protocol '%.8s' (V3 is spoken)", buf);
	if (net_write_full(fd, v3_magic, sizeof(v3_magic)) < 0)
		return fail(err, errlen, "write: %s", strerror(errno));
	r = net_read_full(fd, buf, 2, timeout_ms, err, errlen);
	if (r == 1 || (!r && memcmp(buf, "OK", 2)))
		return fail(err, errlen, "the listener refused the V3 greeting");
	return r ? -1 : 0;
}

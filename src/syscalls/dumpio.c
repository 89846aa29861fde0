/* -e read= and -e write=: hex dumps of the data a call moved; see dumpio.h. */
#include "dumpio.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DUMP_WIDTH 16	/* bytes per line, in two groups of 8 */
#define DUMP_CHUNK 65536	/* read from the tracee this much at a time */

/* " | 00000  68 69 0a ...  hi.  |" lines, the offset at least 5 hex digits wide. */
static void dump_bytes(struct strbuf *out, sc_read_fn rd, void *ctx, pid_t pid, uint64_t addr,
		       uint64_t len)
{
	if (!len || addr + len < addr)
		return;
	int offs = 5;
	while (offs < 16 && (len - 1) >> (4 * offs))
		offs++;
	unsigned char *buf = malloc(len < DUMP_CHUNK ? len : DUMP_CHUNK);
	if (!buf)
		return;
	uint64_t got = 0;
	for (uint64_t i = 0; i < len; i += DUMP_WIDTH) {
		if (i % DUMP_CHUNK == 0) {
			uint64_t want = len - i < DUMP_CHUNK ? len - i : DUMP_CHUNK;
			if (rd(ctx, addr + i, buf, want) != (long)want) {
				if (i)
					sb_printf(out, " | <Cannot fetch %" PRIu64 " byte%s from pid %d @%#"
						  PRIx64 ">\n", want, want == 1 ? "" : "s", (int)pid, addr + i);
				break;
			}
			got = i;
		}
		char hex[DUMP_WIDTH * 3 + 2], text[DUMP_WIDTH + 1];
		char *h = hex;
		for (int j = 0; j < DUMP_WIDTH; j++) {
			uint64_t k = i + (uint64_t)j;
			unsigned char ch = k < len ? buf[k - got] : 0;
			if (k < len)
				h += sprintf(h, "%02x ", ch);
			else
				h += sprintf(h, "   ");
			if (j == 7)
				*h++ = ' ';
			text[j] = k >= len ? ' ' : (ch >= ' ' && ch < 0x7f) ? (char)ch : '.';
		}
		*h = '\0';
		text[DUMP_WIDTH] = '\0';
		sb_printf(out, " | %0*" PRIx64 "  %s %s |\n", offs, i, hex, text);
	}
	free(buf);
}

/* An iovec array: each buffer announced, then dumped, up to size bytes in all (-1: all). */
static void dump_iov(struct strbuf *out, sc_read_fn rd, void *ctx, pid_t pid, uint64_t iov,
		     uint64_t n, uint64_t size)
{
	uint64_t vec[2 * 1024];
	/* All of the array or nothing, as strace: a vector it cannot read is not dumped. */
	if (!n || n > 1024 || rd(ctx, iov, vec, 16 * n) != (long)(16 * n))
		return;
	for (uint64_t i = 0; i < n && size; i++) {
		uint64_t *v = vec + 2 * i;
		uint64_t len = v[1] < size ? v[1] : size;
		if (!len)
			break;
		size -= len;
		sb_printf(out, " * %" PRIu64 " bytes in buffer %d\n", len, (int)i);
		dump_bytes(out, rd, ctx, pid, v[0], len);
	}
}

/* The iovec of a struct msghdr (msg_iov at offset 16, msg_iovlen at 24). */
static void dump_msghdr(struct strbuf *out, sc_read_fn rd, void *ctx, pid_t pid, uint64_t msg,
			uint64_t size)
{
	uint64_t v[2];
	if (rd(ctx, msg + 16, v, sizeof(v)) == (long)sizeof(v))
		dump_iov(out, rd, ctx, pid, v[0], v[1], size);
}

/* sendmmsg/recvmmsg: each of the ret struct mmsghdr (64 bytes: msghdr, msg_len) announced,
 * then its iovec dumped up to its msg_len. */
static void dump_mmsghdr(struct strbuf *out, sc_read_fn rd, void *ctx, pid_t pid, uint64_t vec,
			 uint64_t n)
{
	for (uint64_t i = 0; i < n && i < 1024; i++) {
		uint64_t h[8];
		if (rd(ctx, vec + 64 * i, h, sizeof(h)) != (long)sizeof(h))
			return;
		sb_printf(out, " = %" PRIu64 " buffers in vector %u\n", h[3], (unsigned)i);
		dump_iov(out, rd, ctx, pid, h[2], h[3], (uint32_t)h[7]);
	}
}

static bool named(const char *name, const char *const *names)
{
	for (; *names; names++)
		if (strcmp(name, *names) == 0)
			return true;
	return false;
}

void sc_dumpio(struct strbuf *out, const struct sc_call *c, const struct sc_filter *f,
	       sc_read_fn rd, void *ctx)
{
	static const char *const wr_buf[] = { "write", "pwrite64", "sendto", "mq_timedsend", NULL };
	static const char *const wr_iov[] = { "writev", "pwritev", "pwritev2", "vmsplice", NULL };
	static const char *const rd_buf[] = { "read", "pread64", "recvfrom", "mq_timedreceive", NULL };
	static const char *const rd_iov[] = { "readv", "preadv", "preadv2", NULL };
	if (!c->ent || (int)c->args[0] < 0)
		return;
	const char *name = c->ent->name;
	int fd = (int)c->args[0];
	if (sc_filter_dump_fd(f, true, fd)) {
		if (named(name, wr_buf))
			dump_bytes(out, rd, ctx, c->tid, c->args[1], c->args[2]);
		else if (named(name, wr_iov))
			dump_iov(out, rd, ctx, c->tid, c->args[1], c->args[2], UINT64_MAX);
		else if (strcmp(name, "sendmsg") == 0)
			dump_msghdr(out, rd, ctx, c->tid, c->args[1], UINT64_MAX);
		else if (strcmp(name, "sendmmsg") == 0 && c->ret > 0)
			dump_mmsghdr(out, rd, ctx, c->tid, c->args[1], (uint64_t)c->ret);
	}
	if (c->ret < 0 || !sc_filter_dump_fd(f, false, fd))
		return;
	if (named(name, rd_buf))
		dump_bytes(out, rd, ctx, c->tid, c->args[1], (uint64_t)c->ret);
	else if (named(name, rd_iov))
		dump_iov(out, rd, ctx, c->tid, c->args[1], c->args[2], (uint64_t)c->ret);
	else if (strcmp(name, "recvmsg") == 0)
		dump_msghdr(out, rd, ctx, c->tid, c->args[1], (uint64_t)c->ret);
	else if (strcmp(name, "recvmmsg") == 0)
		dump_mmsghdr(out, rd, ctx, c->tid, c->args[1], (uint64_t)c->ret);
}

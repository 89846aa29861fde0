/*
 * Per-CPU page streams for the reader's fast path (pages.h).  Uncompressed data
 * is read WINDOW bytes at a time (whole pages); zstd data one chunk at a time:
 * trace-cmd compresses whole pages per chunk, each chunk one zstd frame.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zstd.h>

#include "tracefile/pages.h"

#define WINDOW (256u << 10)
/* A chunk bigger than this is not trace-cmd's (it writes a few pages per chunk). */
#define MAX_CHUNK (64u << 20)

struct tf_pages {
	int fd;
	uint64_t pos, end;	/* next byte to read, end of the CPU's data */
	bool zstd, big_endian;
	unsigned page_size;
	uint32_t chunks_left;
	bool counted;		/* zstd: the chunk count has been read */
	unsigned char *buf;	/* the window or the decompressed chunk */
	size_t len, cap, at;	/* bytes in buf, its size, the next page's offset */
	unsigned char *zbuf;	/* one compressed chunk */
	size_t zcap;
	ZSTD_DCtx *dctx;
};

struct tf_pages *tf_pages_open(int fd, uint64_t off, uint64_t size, bool zstd, bool big_endian,
			       unsigned page_size)
{
	struct tf_pages *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->fd = fd;
	p->pos = off;
	/* zstd: the size trace-cmd records leaves out the 4-byte chunk count. */
	p->end = off + size + (zstd && size ? 4 : 0);
	p->zstd = zstd;
	p->big_endian = big_endian;
	p->page_size = page_size;
	if (zstd && !(p->dctx = ZSTD_createDCtx())) {
		free(p);
		return NULL;
	}
	return p;
}

void tf_pages_close(struct tf_pages *p)
{
	if (!p)
		return;
	if (p->dctx)
		ZSTD_freeDCtx(p->dctx);
	free(p->buf);
	free(p->zbuf);
	free(p);
}

static int grow(unsigned char **buf, size_t *cap, size_t need)
{
	unsigned char *b;

	if (need <= *cap)
		return 0;
	b = realloc(*buf, need);
	if (!b)
		return -1;
	*buf = b;
	*cap = need;
	return 0;
}

static int read_at(struct tf_pages *p, void *buf, size_t n, uint64_t at, char *err,
		   size_t errlen)
{
	size_t done = 0;

	while (done < n) {
		ssize_t got = pread(p->fd, (char *)buf + done, n - done, (off_t)(at + done));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			snprintf(err, errlen, "read error at offset 0x%" PRIx64 ": %s", at + done,
				 got < 0 ? strerror(errno) : "unexpected end of file");
			return -1;
		}
		done += (size_t)got;
	}
	return 0;
}

static uint32_t u32_of(const struct tf_pages *p, const unsigned char *b)
{
	if (p->big_endian)
		return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

/* Uncompressed: the next window of whole pages; 0 at the end. */
static int fill_plain(struct tf_pages *p, char *err, size_t errlen)
{
	uint64_t left = p->end - p->pos;
	size_t n = left < WINDOW ? (size_t)left : WINDOW;

	n -= n % p->page_size;
	if (!n)
		return 0;
	if (grow(&p->buf, &p->cap, n) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (read_at(p, p->buf, n, p->pos, err, errlen) < 0)
		return -1;
	p->pos += n;
	p->len = n;
	p->at = 0;
	return 1;
}

/* zstd: decompress the next chunk; 0 after the last. */
static int fill_zstd(struct tf_pages *p, char *err, size_t errlen)
{
	unsigned char h[8];
	uint32_t csize, usize;
	size_t got;

	if (!p->counted) {
		p->counted = true;
		if (p->end - p->pos < 4)
			return 0;
		if (read_at(p, h, 4, p->pos, err, errlen) < 0)
			return -1;
		p->chunks_left = u32_of(p, h);
		p->pos += 4;
	}
	if (!p->chunks_left)
		return 0;
	if (read_at(p, h, 8, p->pos, err, errlen) < 0)
		return -1;
	csize = u32_of(p, h);
	usize = u32_of(p, h + 4);
	if (usize > MAX_CHUNK || csize > MAX_CHUNK || p->pos + 8 + csize > p->end) {
		snprintf(err, errlen, "corrupt compressed chunk at offset 0x%" PRIx64, p->pos);
		return -1;
	}
	if (grow(&p->zbuf, &p->zcap, csize) < 0 || grow(&p->buf, &p->cap, usize) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (read_at(p, p->zbuf, csize, p->pos + 8, err, errlen) < 0)
		return -1;
	got = ZSTD_decompressDCtx(p->dctx, p->buf, usize, p->zbuf, csize);
	if (ZSTD_isError(got) || got != usize) {
		snprintf(err, errlen, "compressed chunk at offset 0x%" PRIx64 " does not decompress"
			 " (%s)", p->pos, ZSTD_isError(got) ? ZSTD_getErrorName(got) : "short");
		return -1;
	}
	p->pos += 8 + csize;
	p->chunks_left--;
	p->len = usize - usize % p->page_size;
	p->at = 0;
	return 1;
}

int tf_pages_next(struct tf_pages *p, void **page, char *err, size_t errlen)
{
	while (p->at + p->page_size > p->len) {
		int ret = p->zstd ? fill_zstd(p, err, errlen) : fill_plain(p, err, errlen);
		if (ret <= 0)
			return ret;
	}
	*page = p->buf + p->at;
	p->at += p->page_size;
	return 1;
}

/* The protobuf wire-format writer: see pb.h. */
#include <stdlib.h>
#include <string.h>

#include "export/pb.h"
#include "util/die.h"

enum { WIRE_VARINT = 0, WIRE_LEN = 2 };

static void reserve(struct pb *pb, size_t n)
{
	if (pb->cap - pb->len >= n)
		return;
	size_t cap = pb->cap ? pb->cap : 256;
	while (cap - pb->len < n)
		cap *= 2;
	pb->buf = xrealloc(pb->buf, cap);
	pb->cap = cap;
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void put_varint_at(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p = (uint8_t)v;
}

void pb_raw_varint(struct pb *pb, uint64_t v)
{
	size_t n = varint_size(v);

	reserve(pb, n);
	put_varint_at(pb->buf + pb->len, v);
	pb->len += n;
}

void pb_raw(struct pb *pb, const void *p, size_t n)
{
	reserve(pb, n);
	if (n)
		memcpy(pb->buf + pb->len, p, n);
	pb->len += n;
}

static void tag(struct pb *pb, unsigned field, unsigned wire)
{
	pb_raw_varint(pb, (uint64_t)field << 3 | wire);
}

void pb_uint(struct pb *pb, unsigned field, uint64_t v)
{
	tag(pb, field, WIRE_VARINT);
	pb_raw_varint(pb, v);
}

void pb_int(struct pb *pb, unsigned field, int64_t v)
{
	pb_uint(pb, field, (uint64_t)v);
}

void pb_bool(struct pb *pb, unsigned field, int v)
{
	pb_uint(pb, field, v ? 1 : 0);
}

void pb_bytes(struct pb *pb, unsigned field, const void *p, size_t n)
{
	tag(pb, field, WIRE_LEN);
	pb_raw_varint(pb, n);
	pb_raw(pb, p, n);
}

void pb_str(struct pb *pb, unsigned field, const char *s)
{
	pb_bytes(pb, field, s, strlen(s));
}

void pb_begin(struct pb *pb, unsigned field)
{
	if (pb->depth == PB_MAX_DEPTH)
		die(1, "protobuf writer: messages nested deeper than %d", PB_MAX_DEPTH);
	tag(pb, field, WIRE_LEN);
	pb->open[pb->depth++] = pb->len;
}

void pb_end(struct pb *pb)
{
	if (pb->depth == 0)
		die(1, "protobuf writer: pb_end without pb_begin");
	size_t start = pb->open[--pb->depth];
	size_t body = pb->len - start;
	size_t n = varint_size(body);

	reserve(pb, n);
	memmove(pb->buf + start + n, pb->buf + start, body);
	put_varint_at(pb->buf + start, body);
	pb->len += n;
}

void pb_reset(struct pb *pb)
{
	pb->len = 0;
	pb->depth = 0;
}

void pb_free(struct pb *pb)
{
	free(pb->buf);
	*pb = (struct pb)PB_INIT;
}

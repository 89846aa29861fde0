/*
 * pb: the little of protocol buffers' wire format the Perfetto exporter needs,
 * written by hand so tracekit needs no protobuf library: varints, strings and
 * nested (length-delimited) messages, appended to one growable buffer.
 *
 * A nested message is opened with pb_begin() and closed with pb_end(); its
 * length is only known at the end, so pb_end() moves the body up by the size of
 * the length's varint.  Bodies stay small (one packet), so the move is cheap and
 * every length is encoded in the fewest bytes, as protoc would.
 */
#ifndef TRACEKIT_EXPORT_PB_H
#define TRACEKIT_EXPORT_PB_H

#include <stddef.h>
#include <stdint.h>

#define PB_MAX_DEPTH 16

struct pb {
	uint8_t *buf;
	size_t len, cap;
	size_t open[PB_MAX_DEPTH];	/* where each open message's body starts */
	int depth;
};

#define PB_INIT { NULL, 0, 0, { 0 }, 0 }

/* The bare varint of v, as the wire format writes it (no tag). */
void pb_raw_varint(struct pb *pb, uint64_t v);

/* Bytes already encoded (fields of a message built elsewhere), appended as they are. */
void pb_raw(struct pb *pb, const void *p, size_t n);

/* Fields.  Signed values are int32/int64 fields: negative ones take ten bytes, as in protobuf. */
void pb_uint(struct pb *pb, unsigned field, uint64_t v);
void pb_int(struct pb *pb, unsigned field, int64_t v);
void pb_bool(struct pb *pb, unsigned field, int v);
void pb_bytes(struct pb *pb, unsigned field, const void *p, size_t n);
void pb_str(struct pb *pb, unsigned field, const char *s);

/* A nested message: fields written between begin and end go inside it. */
void pb_begin(struct pb *pb, unsigned field);
void pb_end(struct pb *pb);

/* Empty the buffer (keeping its memory); only with no message open. */
void pb_reset(struct pb *pb);
void pb_free(struct pb *pb);

#endif

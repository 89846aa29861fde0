/*
 * The protobuf writer behind `tracekit export --format perfetto`: exact bytes
 * for known values (the wire-format examples of protobuf's encoding guide and
 * the edges of varints), and nested messages of every length size.
 */
#include <stdint.h>
#include <string.h>

#include "export/pb.h"
#include "tk_test.h"

/* The buffer as hex, "08 96 01". */
static const char *hex(const struct pb *pb)
{
	static char out[4096];
	size_t o = 0;

	out[0] = '\0';
	for (size_t i = 0; i < pb->len && o + 4 < sizeof(out); i++)
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%02x", i ? " " : "", pb->buf[i]);
	return out;
}

static const char *varint_hex(uint64_t v)
{
	static struct pb pb = PB_INIT;

	pb_reset(&pb);
	pb_raw_varint(&pb, v);
	return hex(&pb);
}

static void test_varint_known_values(void)
{
	CHECK_STR(varint_hex(0), "00");
	CHECK_STR(varint_hex(1), "01");
	CHECK_STR(varint_hex(127), "7f");
	CHECK_STR(varint_hex(128), "80 01");
	CHECK_STR(varint_hex(150), "96 01");
	CHECK_STR(varint_hex(300), "ac 02");
	CHECK_STR(varint_hex(16383), "ff 7f");
	CHECK_STR(varint_hex(16384), "80 80 01");
	CHECK_STR(varint_hex(UINT32_MAX), "ff ff ff ff 0f");
	CHECK_STR(varint_hex(UINT64_MAX), "ff ff ff ff ff ff ff ff ff 01");
}

static void test_uint_field_has_tag_then_varint(void)
{
	struct pb pb = PB_INIT;

	pb_uint(&pb, 1, 150);
	CHECK_STR(hex(&pb), "08 96 01");
	pb_reset(&pb);
	pb_uint(&pb, 16, 1);	/* field 16: the tag itself takes two bytes */
	CHECK_STR(hex(&pb), "80 01 01");
	pb_free(&pb);
}

static void test_negative_int_takes_ten_bytes(void)
{
	struct pb pb = PB_INIT;

	pb_int(&pb, 2, -1);
	CHECK_STR(hex(&pb), "10 ff ff ff ff ff ff ff ff ff 01");
	pb_reset(&pb);
	pb_int(&pb, 2, -2);
	CHECK_STR(hex(&pb), "10 fe ff ff ff ff ff ff ff ff 01");
	pb_free(&pb);
}

static void test_bool_is_zero_or_one(void)
{
	struct pb pb = PB_INIT;

	pb_bool(&pb, 9, 42);
	pb_bool(&pb, 9, 0);
	CHECK_STR(hex(&pb), "48 01 48 00");
	pb_free(&pb);
}

static void test_string_is_length_delimited(void)
{
	struct pb pb = PB_INIT;

	pb_str(&pb, 2, "testing");
	CHECK_STR(hex(&pb), "12 07 74 65 73 74 69 6e 67");
	pb_reset(&pb);
	pb_str(&pb, 23, "");
	CHECK_STR(hex(&pb), "ba 01 00");
	pb_free(&pb);
}

static void test_nested_message(void)
{
	struct pb pb = PB_INIT;

	pb_begin(&pb, 3);
	pb_uint(&pb, 1, 150);
	pb_end(&pb);
	CHECK_STR(hex(&pb), "1a 03 08 96 01");
	pb_free(&pb);
}

static void test_empty_nested_message(void)
{
	struct pb pb = PB_INIT;

	pb_begin(&pb, 60);
	pb_end(&pb);
	CHECK_STR(hex(&pb), "e2 03 00");
	pb_free(&pb);
}

/* Two levels, fields before and after the inner one: lengths count the inner header. */
static void test_two_levels(void)
{
	struct pb pb = PB_INIT;

	pb_begin(&pb, 1);
	pb_uint(&pb, 8, 5);
	pb_begin(&pb, 2);
	pb_str(&pb, 1, "ab");
	pb_end(&pb);
	pb_bool(&pb, 3, 1);
	pb_end(&pb);
	CHECK_STR(hex(&pb), "0a 0a 40 05 12 04 0a 02 61 62 18 01");
	CHECK_INT(pb.depth, 0);
	pb_free(&pb);
}

/* A body of 200 bytes needs a two-byte length: the body moves up by two, intact. */
static void test_long_body_gets_two_byte_length(void)
{
	struct pb pb = PB_INIT;
	char s[198];

	memset(s, 'x', sizeof(s));
	pb_uint(&pb, 7, 1);
	pb_begin(&pb, 1);
	pb_bytes(&pb, 2, s, sizeof(s));	/* tag, two length bytes, 198: 201 bytes */
	pb_end(&pb);
	CHECK_INT(pb.len, 2 + 1 + 2 + 201);
	CHECK(pb.buf[0] == 0x38 && pb.buf[1] == 0x01);
	CHECK(pb.buf[2] == 0x0a && pb.buf[3] == 0xc9 && pb.buf[4] == 0x01);
	CHECK(pb.buf[5] == 0x12 && pb.buf[6] == 0xc6 && pb.buf[7] == 0x01);
	CHECK(pb.buf[8] == 'x' && pb.buf[pb.len - 1] == 'x');
	pb_free(&pb);
}

/* A body past 16383 bytes: three length bytes; and growth from an empty buffer. */
static void test_large_body_three_byte_length(void)
{
	struct pb pb = PB_INIT;

	pb_begin(&pb, 1);
	for (int i = 0; i < 10000; i++)
		pb_uint(&pb, 1, 1);	/* two bytes each */
	pb_end(&pb);
	CHECK_INT(pb.len, 1 + 3 + 20000);
	CHECK(pb.buf[1] == 0xa0 && pb.buf[2] == 0x9c && pb.buf[3] == 0x01);
	CHECK(pb.buf[4] == 0x08 && pb.buf[5] == 0x01 && pb.buf[pb.len - 2] == 0x08);
	pb_free(&pb);
}

static void test_raw_bytes_append_as_they_are(void)
{
	struct pb inner = PB_INIT, outer = PB_INIT;

	pb_uint(&inner, 1, 2);
	pb_begin(&outer, 2);
	pb_raw(&outer, inner.buf, inner.len);
	pb_end(&outer);
	CHECK_STR(hex(&outer), "12 02 08 02");
	pb_free(&inner);
	pb_free(&outer);
}

TK_MAIN(TK_CASE(test_varint_known_values), TK_CASE(test_uint_field_has_tag_then_varint),
	TK_CASE(test_negative_int_takes_ten_bytes), TK_CASE(test_bool_is_zero_or_one),
	TK_CASE(test_string_is_length_delimited), TK_CASE(test_nested_message),
	TK_CASE(test_empty_nested_message), TK_CASE(test_two_levels),
	TK_CASE(test_long_body_gets_two_byte_length), TK_CASE(test_large_body_three_byte_length),
	TK_CASE(test_raw_bytes_append_as_they_are))

/*
 * sb_printf against snprintf: the common conversions take a fast path in
 * strbuf.c, everything else goes to vsnprintf; either way the text must be
 * the C library's, byte for byte.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tk_test.h"
#include "util/strbuf.h"

/* fmt with its arguments, after some text already in the buffer. */
#define SAME(fmt, ...)								\
	do {									\
		char want_[512];						\
		snprintf(want_, sizeof(want_), fmt, __VA_ARGS__);		\
		struct strbuf sb_ = STRBUF_INIT;				\
		sb_add(&sb_, "<");						\
		sb_printf(&sb_, fmt, __VA_ARGS__);				\
		CHECK_STR(sb_str(&sb_) + 1, want_);				\
		CHECK_INT(sb_.len, strlen(want_) + 1);				\
		sb_free(&sb_);							\
	} while (0)

static void test_integers(void)
{
	static const long long values[] = { 0, 1, -1, 7, -42, 100, 65535, INT_MAX, INT_MIN,
					    (long long)UINT_MAX, LLONG_MAX, LLONG_MIN, 1000000007 };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		long long v = values[i];
		SAME("%d", (int)v);
		SAME("%i", (int)v);
		SAME("%u", (unsigned)v);
		SAME("%x", (unsigned)v);
		SAME("%ld", (long)v);
		SAME("%lu", (unsigned long)v);
		SAME("%lx", (unsigned long)v);
		SAME("%lld", v);
		SAME("%llu", (unsigned long long)v);
		SAME("%llx", (unsigned long long)v);
		SAME("%zd", (ssize_t)v);
		SAME("%zu", (size_t)v);
		SAME("%jd", (intmax_t)v);
		SAME("%ju", (uintmax_t)v);
		SAME("%hd", (short)v);
		SAME("%hu", (unsigned short)v);
		SAME("%hhd", (signed char)v);
		SAME("%hhu", (unsigned char)v);
		SAME("%5d", (int)v);
		SAME("%-5d", (int)v);
		SAME("%05d", (int)v);
		SAME("%08x", (unsigned)v);
		SAME("%016llx", (unsigned long long)v);
		SAME("[pid %5d] ", (int)v);
		SAME(" = %ld (%s)", (long)v, "text");
	}
}

/* fmt with v as the type its length and conversion name, in both. */
#define SAME_AS(type)								\
	do {									\
		snprintf(want, sizeof(want), fmt, (type)v);			\
		sb_printf(&sb, fmt, (type)v);					\
	} while (0)

/* Widths, flags and lengths built at run time, over many values: the fast path's grammar, all of it. */
static void test_built_formats(void)
{
	static const char *const flags[] = { "", "-", "0", "-0", "0-", "00" };	/* both: "-" wins */
	static const char *const lens[] = { "", "hh", "h", "l", "ll", "z", "j" };
	unsigned long long x = 88172645463325252ull;
	for (int n = 0; n < 5000; n++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift: values of every size */
		long long v = (long long)(x >> (x % 64));
		if (x & 1)
			v = -v;
		char conv = "diux"[n % 4], fmt[32], want[512];
		const char *len = lens[(n / 4) % 7];
		char width[8] = "";
		if (x % 3)
			snprintf(width, sizeof(width), "%d", (int)(x % 25));
		snprintf(fmt, sizeof(fmt), "a%%%s%s%s%cb", flags[(n / 28) % 6], width, len, conv);
		struct strbuf sb = STRBUF_INIT;
		bool is_signed = conv == 'd' || conv == 'i';
		if (!strcmp(len, "l")) {
			if (is_signed)
				SAME_AS(long);
			else
				SAME_AS(unsigned long);
		} else if (!strcmp(len, "ll")) {
			if (is_signed)
				SAME_AS(long long);
			else
				SAME_AS(unsigned long long);
		} else if (!strcmp(len, "z")) {
			if (is_signed)
				SAME_AS(ssize_t);
			else
				SAME_AS(size_t);
		} else if (!strcmp(len, "j")) {
			if (is_signed)
				SAME_AS(intmax_t);
			else
				SAME_AS(uintmax_t);
		} else if (is_signed) {
			SAME_AS(int);	/* hh and h too: promoted */
		} else {
			SAME_AS(unsigned);
		}
		CHECK_STR(sb_str(&sb), want);
		sb_free(&sb);
	}
}

static void test_strings_and_chars(void)
{
	SAME("%s", "");
	SAME("%s", "read");
	SAME("%-16s|", "getppid()");
	SAME("%16s|", "getppid()");
	SAME("%3s|", "longer than three");
	SAME("%s(%s)", "write", "1, \"x\", 1");
	SAME("%c%c", 'a', '"');
	SAME("%-3c|", 'z');
	SAME("%3c|", 'z');
	SAME("100%% %s", "done");
	SAME("no conversion%s", "");
	SAME("<... %s resumed>", "read");
}

/* Formats the fast path leaves to vsnprintf, mixed with ones it takes. */
static void test_others_fall_back(void)
{
	SAME("%#x", 255u);
	SAME("%#o", 8u);
	SAME("%o", 8u);
	SAME("%X", 0xbeefu);
	SAME("%+d", 5);
	SAME("% d", 5);
	SAME("%.3s", "abcdef");
	SAME("%.6f", 0.25);
	SAME("%*d", 6, 42);
	SAME("%d %#lx %s", 1, 0x10ul, "z");
	SAME("%s.%0*ld ", "12:00:00", 6, 123456L);
	SAME("%p", (void *)0);
}

TK_MAIN(TK_CASE(test_integers), TK_CASE(test_built_formats), TK_CASE(test_strings_and_chars),
	TK_CASE(test_others_fall_back))

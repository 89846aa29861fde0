/* The values of strace's options: precisions, --timestamps, -I, token lists, -O. */
#include "syscalls/opts.h"
#include "tk_test.h"

static void test_timescale_units_are_digits_after_the_second(void)
{
	int w = 6;
	CHECK_INT(sc_opt_timescale("s", &w), 0);
	CHECK_INT(w, 0);
	CHECK_INT(sc_opt_timescale("ms", &w), 0);
	CHECK_INT(w, 3);
	CHECK_INT(sc_opt_timescale("ns", &w), 0);
	CHECK_INT(w, 9);
	CHECK_INT(sc_opt_timescale(NULL, &w), 0);
	CHECK_INT(w, 9);
	CHECK_INT(sc_opt_timescale("sec", &w), -1);
	CHECK_INT(sc_opt_timescale("", &w), -1);
}

static void test_timestamps_take_format_and_precision_in_any_order(void)
{
	struct sc_clock_fmt ts = { NULL, 0 };
	CHECK_INT(sc_opt_timestamps("unix,ms", &ts), 0);
	CHECK_STR(ts.format, "%s");
	CHECK_INT(ts.width, 3);
	CHECK_INT(sc_opt_timestamps("precision:ns,format:time", &ts), 0);
	CHECK_STR(ts.format, "%T");
	CHECK_INT(ts.width, 9);
	CHECK_INT(sc_opt_timestamps("none", &ts), 0);
	CHECK(ts.format == NULL);
	/* a precision alone keeps the format, or starts time of day */
	CHECK_INT(sc_opt_timestamps("us", &ts), 0);
	CHECK_STR(ts.format, "%T");
	CHECK_INT(ts.width, 6);
	CHECK_INT(sc_opt_timestamps("format:s", &ts), -1);
	CHECK_INT(sc_opt_timestamps("precision:none", &ts), -1);
	CHECK_INT(sc_opt_timestamps("s,non", &ts), -1);
	CHECK_INT(sc_opt_timestamps(",,", &ts), 0);
}

static void test_interruptible_names_and_numbers(void)
{
	CHECK_INT(sc_opt_interruptible("1"), SC_INTR_ANYWHERE);
	CHECK_INT(sc_opt_interruptible("always"), SC_INTR_ANYWHERE);
	CHECK_INT(sc_opt_interruptible("waiting"), SC_INTR_WAITING);
	CHECK_INT(sc_opt_interruptible("never_tstp"), SC_INTR_NEVER_TSTP);
	CHECK_INT(sc_opt_interruptible("4"), SC_INTR_NEVER_TSTP);
	CHECK_INT(sc_opt_interruptible("0"), -1);
	CHECK_INT(sc_opt_interruptible("5"), -1);
	CHECK_INT(sc_opt_interruptible("nev"), -1);
	CHECK_INT(sc_opt_interruptible("0x1"), -1);
}

static void test_token_lists_negate_and_name_the_bad_token(void)
{
	unsigned set = 0;
	const char *bad = NULL;
	CHECK_INT(sc_opt_tokens("attach,exit", sc_quiet_tokens, 0x1f, &set, &bad), 0);
	CHECK_INT(set, SC_QUIET_ATTACH | SC_QUIET_EXIT);
	CHECK_INT(sc_opt_tokens("!exits", sc_quiet_tokens, 0x1f, &set, &bad), 0);
	CHECK_INT(set, 0x1f & ~(unsigned)SC_QUIET_EXIT);
	CHECK_INT(sc_opt_tokens("all", sc_quiet_tokens, 0x1f, &set, &bad), 0);
	CHECK_INT(set, 0x1f);
	CHECK_INT(sc_opt_tokens("none", sc_quiet_tokens, 0x1f, &set, &bad), 0);
	CHECK_INT(set, 0);
	CHECK_INT(sc_opt_tokens("attach,bogus", sc_quiet_tokens, 0x1f, &set, &bad), -1);
	CHECK_STR(bad, "bogus");
	CHECK_INT(sc_opt_tokens("comm", sc_decode_pid_tokens, 3, &set, &bad), 0);
	CHECK_INT(set, SC_DPID_COMM);
}

static void test_strings_in_hex_levels(void)
{
	CHECK_INT(sc_opt_strings_in_hex(NULL), 2);
	CHECK_INT(sc_opt_strings_in_hex("none"), 0);
	CHECK_INT(sc_opt_strings_in_hex("non-ascii"), 1);
	CHECK_INT(sc_opt_strings_in_hex("non-ascii-chars"), 3);
	CHECK_INT(sc_opt_strings_in_hex("all"), 2);
	CHECK_INT(sc_opt_strings_in_hex("some"), -1);
}

static void test_overhead_defaults_to_microseconds(void)
{
	CHECK_INT(sc_opt_overhead("3"), 3000);
	CHECK_INT(sc_opt_overhead("2ms"), 2000000);
	CHECK_INT(sc_opt_overhead("1.5us"), 1500);
	CHECK_INT(sc_opt_overhead("-42"), -1);
	CHECK_INT(sc_opt_overhead("x"), -1);
	CHECK_INT(sc_opt_overhead("3h"), -1);
	/* the limit is on the time, not on the number written */
	CHECK_INT(sc_opt_overhead("456789012ns"), 456789012);
	CHECK_INT(sc_opt_overhead("1e7s"), -1);
}

TK_MAIN(TK_CASE(test_timescale_units_are_digits_after_the_second),
	 TK_CASE(test_timestamps_take_format_and_precision_in_any_order),
	 TK_CASE(test_interruptible_names_and_numbers),
	 TK_CASE(test_token_lists_negate_and_name_the_bad_token),
	 TK_CASE(test_strings_in_hex_levels),
	 TK_CASE(test_overhead_defaults_to_microseconds))

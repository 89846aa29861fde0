/*
 * A minimal test runner: each test is a function; CHECK macros report
 * file:line and keep going; main() runs the TESTS table and exits non-zero
 * when anything failed.
 *
 *	static void test_read_prints_buffer(void) { CHECK_STR(got, "read(3, ...)"); }
 *	TK_TESTS(test_read_prints_buffer, test_other);
 */
#ifndef TRACEKIT_TK_TEST_H
#define TRACEKIT_TK_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tk_failures;
static const char *tk_current;

#define CHECK(cond)								\
	do {									\
		if (!(cond)) {							\
			fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n",	\
				__FILE__, __LINE__, tk_current, #cond);		\
			tk_failures++;						\
		}								\
	} while (0)

#define CHECK_STR(got, want)							\
	do {									\
		const char *g_ = (got), *w_ = (want);				\
		if (!g_ || strcmp(g_, w_) != 0) {				\
			fprintf(stderr, "%s:%d: %s:\n  got:  %s\n  want: %s\n",	\
				__FILE__, __LINE__, tk_current, g_ ? g_ : "(null)", w_); \
			tk_failures++;						\
		}								\
	} while (0)

#define CHECK_INT(got, want)							\
	do {									\
		long long g_ = (long long)(got), w_ = (long long)(want);	\
		if (g_ != w_) {							\
			fprintf(stderr, "%s:%d: %s: %s = %lld, want %lld\n",	\
				__FILE__, __LINE__, tk_current, #got, g_, w_);	\
			tk_failures++;						\
		}								\
	} while (0)

struct tk_case {
	const char *name;
	void (*fn)(void);
};

#define TK_CASE(fn) { #fn, fn }

static inline int tk_run(const struct tk_case *cases, size_t n)
{
	int failed_tests = 0;
	for (size_t i = 0; i < n; i++) {
		int before = tk_failures;
		tk_current = cases[i].name;
		cases[i].fn();
		if (tk_failures != before)
			failed_tests++;
	}
	printf("%zu passed, %d failed\n", n - (size_t)failed_tests, failed_tests);
	return failed_tests ? 1 : 0;
}

#define TK_MAIN(...)								\
	int main(void)								\
	{									\
		static const struct tk_case cases_[] = { __VA_ARGS__ };		\
		return tk_run(cases_, sizeof(cases_) / sizeof(cases_[0]));	\
	}

#endif

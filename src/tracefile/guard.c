/*
 * Section checks before libtraceevent sees a section (see guard.h).
 *
 * tep_parse_printk_formats() (libtraceevent 1.7, and trace-cmd with it)
 * splits the text into lines, cuts each at its first ':' (after skipping
 * leading ones, as strtok does), takes the format from the second byte after
 * that ':', and tep_register_print_string() then strips a leading quote and
 * looks at the last three bytes of what is left.  So a line without ':', with
 * nothing after it, or whose format is shorter than three bytes makes the
 * library read past the end or before the start of a heap buffer.
 */
#include "tracefile/guard.h"

#include <stdio.h>
#include <string.h>

/* One line of printk_formats (without its '\n'): 0 if the library reads it safely. */
static int printk_line_ok(const char *line, size_t len, const char **what)
{
	size_t i = 0;

	while (i < len && line[i] == ':')
		i++;
	if (i == len)
		return 0;	/* only ':': the library stops there, harmlessly */
	const char *colon = memchr(line + i, ':', len - i);
	if (!colon) {
		*what = "has no ':' after the address";
		return -1;
	}
	size_t rest = len - (size_t)(colon + 1 - line);
	if (rest < 1) {
		*what = "has nothing after the ':'";
		return -1;
	}
	const char *fmt = colon + 2;	/* the library skips one byte (the space) */
	size_t flen = rest - 1;
	if (flen && fmt[0] == '"') {
		fmt++;
		flen--;
	}
	if (flen < 3) {
		*what = "has a format shorter than the library expects";
		return -1;
	}
	return 0;
}

int tf_guard_printk(const char *text, size_t len, char *why, size_t whylen)
{
	const char *end = memchr(text, '\0', len);
	const char *p = text;
	int n = 0;

	if (end)
		len = (size_t)(end - text);
	end = text + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t llen = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *what;

		n++;
		if (llen && printk_line_ok(p, llen, &what) < 0) {
			snprintf(why, whylen, "line %d %s", n, what);
			return -1;
		}
		p += llen + 1;
	}
	return 0;
}

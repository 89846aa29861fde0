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

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

static uint64_t num(const unsigned char *p, size_t n, int big)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

/*
 * TIME_SHIFT: <trace id 8><flags 4><CPU count 4>, per CPU <count 4> and
 * count times, offsets and scalings (8 bytes each), then maybe the
 * fractions.  libtracecmd allocates for the CPU count and each count
 * before it reads them (and skips an option under 16 bytes).
 */
int tf_guard_time_shift(const unsigned char *data, size_t len, int big_endian,
			char *why, size_t whylen)
{
	if (len < 16)
		return 0;
	size_t at = 16, cpus = (size_t)num(data + 12, 4, big_endian);
	if (cpus > (len - at) / 4) {
		snprintf(why, whylen, "time shift option claims %zu CPUs", cpus);
		return -1;
	}
	for (size_t i = 0; i < cpus; i++) {
		if (len - at < 4) {
			snprintf(why, whylen, "time shift option ends in CPU %zu", i);
			return -1;
		}
		size_t n = (size_t)num(data + at, 4, big_endian);
		at += 4;
		if (n > (len - at) / 24) {
			snprintf(why, whylen, "time shift option claims %zu samples for CPU %zu", n, i);
			return -1;
		}
		at += 24 * n;
	}
	return 0;
}

/* GUEST: <name NUL><trace id 8><vCPU count 4>, per vCPU <id 4><host pid 4>. */
int tf_guard_guest(const unsigned char *data, size_t len, int big_endian,
		   char *why, size_t whylen)
{
	const unsigned char *nul = memchr(data, '\0', len);
	size_t at = nul ? (size_t)(nul - data) + 1 : len;

	if (len - at < 12)
		return 0;	/* libtracecmd refuses it before allocating */
	size_t count = (size_t)num(data + at + 8, 4, big_endian);
	at += 12;
	if (count > (len - at) / 8) {
		snprintf(why, whylen, "guest option claims %zu vCPUs", count);
		return -1;
	}
	for (size_t i = 0; i < count; i++, at += 8) {
		uint64_t cpu = num(data + at, 4, big_endian);
		if (cpu >= count) {
			snprintf(why, whylen, "guest option names vCPU %lld of %zu",
				 (long long)(int32_t)cpu, count);
			return -1;
		}
	}
	return 0;
}

/* PROCMAPS, when NUL-terminated: "PID COUNT NAME\n" then COUNT lines. */
int tf_guard_procmaps(const char *data, size_t len, char *why, size_t whylen)
{
	unsigned pid, count;
	size_t lines = 0;

	if (!len || data[len - 1] != '\0')
		return 0;	/* libtracecmd ignores it */
	if (sscanf(data, "%x %x", &pid, &count) != 2)
		return 0;
	for (const char *p = data; (p = strchr(p, '\n')); p++)
		lines++;
	if (count > lines) {
		snprintf(why, whylen, "process maps option claims %u maps in %zu lines", count, lines);
		return -1;
	}
	return 0;
}

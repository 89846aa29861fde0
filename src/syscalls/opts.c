/* Option values of `tracekit syscalls`; see opts.h. */
#include "opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/die.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

int sc_opt_timescale(const char *arg, int *width)
{
	static const struct { const char *unit; int width; } units[] = {
		{ "s", 0 }, { "ms", 3 }, { "us", 6 }, { "ns", 9 },
	};
	if (!arg)
		return 0;
	for (size_t i = 0; i < ARRAY_LEN(units); i++)
		if (strcmp(arg, units[i].unit) == 0) {
			*width = units[i].width;
			return 0;
		}
	return -1;
}

/* One token of --timestamps=: a format, a precision, or (unprefixed) either. */
static int ts_token(const char *tok, const char **format, int *width, bool *format_set)
{
	static const struct { const char *name; const char *format; } formats[] = {
		{ "none", NULL }, { "time", "%T" }, { "unix", "%s" },
	};
	bool may_format = true, may_scale = true;
	if (strncasecmp(tok, "format:", 7) == 0) {
		tok += 7;
		may_scale = false;
	} else if (strncasecmp(tok, "precision:", 10) == 0) {
		tok += 10;
		may_format = false;
	}
	for (size_t i = 0; may_format && i < ARRAY_LEN(formats); i++)
		if (strcasecmp(tok, formats[i].name) == 0) {
			*format = formats[i].format;
			*format_set = true;
			return 0;
		}
	if (may_scale && *tok && sc_opt_timescale(tok, width) == 0)
		return 0;
	return -1;
}

int sc_opt_timestamps(const char *arg, struct sc_clock_fmt *ts)
{
	const char *format = NULL;
	int width = ts->width;
	bool format_set = false;
	char *copy = xstrdup(arg ? arg : ""), *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (ts_token(tok, &format, &width, &format_set) < 0) {
			free(copy);
			return -1;
		}
	}
	free(copy);
	/* strace: no format given keeps the one set before, or time of day. */
	if (format_set)
		ts->format = format;
	else if (!ts->format)
		ts->format = "%T";
	ts->width = width;
	return 0;
}

int sc_opt_interruptible(const char *arg)
{
	static const struct { const char *name; int val; } names[] = {
		{ "anywhere", SC_INTR_ANYWHERE }, { "always", SC_INTR_ANYWHERE },
		{ "waiting", SC_INTR_WAITING }, { "never", SC_INTR_NEVER },
		{ "never_tstp", SC_INTR_NEVER_TSTP },
	};
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (strcmp(arg, names[i].name) == 0)
			return names[i].val;
	if (arg[0] >= '1' && arg[0] <= '4' && !arg[1])
		return arg[0] - '0';
	return -1;
}

int sc_opt_strings_in_hex(const char *arg)
{
	static const struct { const char *name; int xflag; } names[] = {
		{ "none", 0 }, { "non-ascii-chars", 3 }, { "non-ascii", 1 }, { "all", 2 },
	};
	if (!arg)
		return 2;
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (strcmp(arg, names[i].name) == 0)
			return names[i].xflag;
	return -1;
}

const struct sc_opt_token sc_quiet_tokens[] = {
	{ "attach", SC_QUIET_ATTACH }, { "exit", SC_QUIET_EXIT }, { "exits", SC_QUIET_EXIT },
	{ "path-resolution", SC_QUIET_PATH_RESOLUTION }, { "personality", SC_QUIET_PERSONALITY },
	{ "superseded", SC_QUIET_THREAD_EXECVE }, { "thread-execve", SC_QUIET_THREAD_EXECVE },
	{ NULL, 0 },
};

const struct sc_opt_token sc_decode_pid_tokens[] = {
	{ "pidns", SC_DPID_PIDNS }, { "comm", SC_DPID_COMM }, { NULL, 0 },
};

const struct sc_opt_token sc_decode_fd_tokens[] = {
	{ "path", SC_DFD_PATH }, { "socket", SC_DFD_SOCKET }, { "dev", SC_DFD_DEV },
	{ "pidfd", SC_DFD_PIDFD }, { NULL, 0 },
};

static unsigned token_bits(const struct sc_opt_token *tab, const char *tok)
{
	for (; tab->name; tab++)
		if (strcmp(tab->name, tok) == 0)
			return tab->bits;
	return 0;
}

int sc_opt_tokens(const char *list, const struct sc_opt_token *tab, unsigned all,
		  unsigned *set, const char **bad)
{
	static char badtok[128];
	bool negate = false;
	while (*list == '!') {
		negate = !negate;
		list++;
	}
	unsigned bits = 0;
	char *copy = xstrdup(list), *save = NULL;
	int n = 0;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save), n++) {
		unsigned b = strcmp(tok, "all") == 0 ? all : strcmp(tok, "none") == 0 ? 0 :
			     token_bits(tab, tok);
		if (!b && strcmp(tok, "none") != 0) {
			snprintf(badtok, sizeof(badtok), "%s", tok);
			*bad = badtok;
			free(copy);
			return -1;
		}
		bits |= b;
	}
	free(copy);
	if (!n) {
		*bad = list;
		return -1;
	}
	*set = negate ? all & ~bits : bits;
	return 0;
}

long sc_opt_overhead(const char *arg)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "", 1e3 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	char *end;
	double v = strtod(arg, &end);
	if (end == arg || !(v >= 0))
		return -1;
	/* the limit is on the time, whatever its unit: 456789012ns is fine, 1e7s is not */
	for (size_t i = 0; i < ARRAY_LEN(units); i++)
		if (strcmp(end, units[i].unit) == 0)
			return v * units[i].ns <= 1e15 ? (long)(v * units[i].ns + 0.5) : -1;
	return -1;
}

/* Error reporting and allocation helpers; see die.h. */
#include "die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *verb;
static const char *prefix;

void err_set_verb(const char *v)
{
	verb = v;
}

void err_set_prefix(const char *p)
{
	prefix = p;
}

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	char line[8192];	/* a message may quote a whole path (PATH_MAX) */
	int n = prefix ? snprintf(line, sizeof(line), "%s: %s", prefix, kind) :
		snprintf(line, sizeof(line), "tracekit: %s%s%s", verb ? verb : "", verb ? ": " : "", kind);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	fprintf(stderr, "%s\n", line);
}

void errmsg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

void warnmsg(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void die(int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	exit(status);
}

static void *oom(void)
{
	fputs("tracekit: out of memory\n", stderr);
	exit(1);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	return p ? p : oom();
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	return p ? p : oom();
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	return p ? p : oom();
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);
	return p ? p : oom();
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);
	return p ? p : oom();
}

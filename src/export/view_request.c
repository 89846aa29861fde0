/*
 * view_request: the request line of `tracekit view --serve`'s server, parsed as
 * the hostile input it is (see view_http.h): only GET of "/" and "/w" with the
 * parameters t (the token, 32 hex digits), a and b (chunk numbers, 9 digits at
 * most), each once.  Fuzzed by tests/fuzz/fuzz_view_request.c.
 */
#include <stdbool.h>
#include <string.h>

#include "export/view_http.h"

#define MAX_TARGET 512

/* A decimal number of at most 9 digits from [s, e): 0 and *out, or -1. */
static int small_number(const char *s, const char *e, int *out)
{
	int v = 0;

	if (e <= s || e - s > 9)
		return -1;
	for (; s < e; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
	}
	*out = v;
	return 0;
}

static bool hex_digits(const char *s, const char *e)
{
	for (; s < e; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
			return false;
	return true;
}

/* The query "t=TOKEN[&a=N&b=N]" of [q, e). */
static int parse_query(const char *q, const char *e, struct vw_request *rq, bool window)
{
	bool has_a = false, has_b = false;

	while (q < e) {
		const char *amp = memchr(q, '&', e - q), *end = amp ? amp : e;
		const char *eq = memchr(q, '=', end - q);
		if (!eq || eq - q != 1)
			return 400;
		const char *val = eq + 1;
		switch (*q) {
		case 't':
			if (end - val != VW_TOKEN_LEN || rq->token[0] || !hex_digits(val, end))
				return 400;
			memcpy(rq->token, val, VW_TOKEN_LEN);
			rq->token[VW_TOKEN_LEN] = '\0';
			break;
		case 'a':
			if (!window || has_a || small_number(val, end, &rq->ka) < 0)
				return 400;
			has_a = true;
			break;
		case 'b':
			if (!window || has_b || small_number(val, end, &rq->kb) < 0)
				return 400;
			has_b = true;
			break;
		default:
			return 400;
		}
		q = amp ? amp + 1 : e;
	}
	if (window && (!has_a || !has_b))
		return 400;
	return 0;
}

int vw_http_parse(const char *buf, size_t n, struct vw_request *rq)
{
	memset(rq, 0, sizeof(*rq));
	const char *eol = memchr(buf, '\n', n);
	if (!eol)
		return 400;
	const char *line = buf, *end = eol > buf && eol[-1] == '\r' ? eol - 1 : eol;
	if ((size_t)(end - line) < 4 || memcmp(line, "GET ", 4))
		return memchr(line, ' ', end - line) ? 405 : 400;
	const char *target = line + 4, *sp = memchr(target, ' ', end - target);
	if (!sp)
		return 400;
	if (sp - target > MAX_TARGET)
		return 414;
	const char *proto = sp + 1;
	if (end - proto != 8 || (memcmp(proto, "HTTP/1.1", 8) && memcmp(proto, "HTTP/1.0", 8)))
		return 400;
	const char *q = memchr(target, '?', sp - target), *path_end = q ? q : sp;
	size_t plen = path_end - target;
	bool window;
	if (plen == 1 && target[0] == '/')
		window = false;
	else if (plen == 2 && !memcmp(target, "/w", 2))
		window = true;
	else
		return 404;
	rq->kind = window ? VW_REQ_WINDOW : VW_REQ_OVERVIEW;
	return parse_query(q ? q + 1 : sp, sp, rq, window);
}

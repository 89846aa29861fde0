/* --json objects; see json.h. */
#include "json.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int json_split_args(const char *text, size_t len, struct strbuf *pieces)
{
	int depth = 0, n = 0;
	bool quoted = false;
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		char ch = i < len ? text[i] : ',';
		if (quoted) {
			if (ch == '\\' && i + 1 < len)
				i++;
			else if (ch == '"')
				quoted = false;
			continue;
		}
		if (ch == '"')
			quoted = true;
		else if (ch == '[' || ch == '{' || ch == '(')
			depth++;
		else if ((ch == ']' || ch == '}' || ch == ')') && depth > 0)
			depth--;
		else if (ch == ',' && depth == 0) {
			size_t a = start, b = i;
			while (a < b && text[a] == ' ')
				a++;
			if (b > a || i < len) {
				sb_addn(pieces, text + a, b - a);
				sb_addc(pieces, '\0');
				n++;
			}
			start = i + 1;
		}
	}
	return n;
}

void json_call(struct strbuf *sb, const struct sc_call *c, pid_t tgid, const char *text,
	       const char *ret_text, const struct timespec *start, double duration, bool finished)
{
	const char *name = c->ent ? c->ent->name : NULL;
	sb_add(sb, "{\"type\":\"syscall\",\"time\":");
	sb_printf(sb, "%ld.%06ld", (long)start->tv_sec, start->tv_nsec / 1000);
	sb_printf(sb, ",\"pid\":%d,\"tid\":%d,\"nr\":%ld,\"name\":", (int)tgid, (int)c->tid, c->nr);
	if (name) {
		json_str(sb, name);
	} else {
		char raw[32];
		snprintf(raw, sizeof(raw), "syscall_%#lx", (unsigned long)c->nr);
		json_str(sb, raw);
	}

	/* The arguments: what is between "name(" and the closing ")". */
	const char *open = strchr(text, '(');
	size_t len = open ? strlen(open + 1) : 0;
	if (len && open[len] == ')')
		len--;
	struct strbuf pieces = STRBUF_INIT;
	int n = open ? json_split_args(open + 1, len, &pieces) : 0;
	sb_add(sb, ",\"args\":[");
	const char *p = sb_str(&pieces);
	for (int i = 0; i < n; i++) {
		if (i)
			sb_addc(sb, ',');
		json_str(sb, p);
		p += strlen(p) + 1;
	}
	sb_free(&pieces);
	sb_addc(sb, ']');

	if (!finished) {
		sb_add(sb, ",\"ret\":null,\"errno\":null,\"finished\":false");
	} else if (sc_failed(c)) {
		const char *e = sc_errname((int)-c->ret);
		sb_printf(sb, ",\"ret\":-1,\"errno\":");
		if (e)
			json_str(sb, e);
		else
			sb_printf(sb, "%d", (int)-c->ret);
	} else {
		sb_printf(sb, ",\"ret\":%" PRId64 ",\"errno\":null", c->ret);
	}
	if (ret_text) {
		sb_add(sb, ",\"ret_text\":");
		json_str(sb, ret_text);
	}
	sb_printf(sb, ",\"duration\":%.6f}", duration);
}

/*
 * Log cleanup: a pasted kernel log comes with prefixes the report parser
 * should not see — syslog and journal headers, dmesg -x facility:level,
 * <N> levels, /dev/kmsg record headers, [timestamps], printk caller ids —
 * and, from mail clients, lines wrapped in the middle.  Each stripper below
 * takes one kind of prefix off the front; they run until none applies, so
 * any stacking of them works.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/die.h"

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static const char *skip_digits(const char *s, int min)
{
	int n = 0;
	while (isdigit((unsigned char)*s)) {
		s++;
		n++;
	}
	return n >= min ? s : NULL;
}

/* s starts with pat, where 'd' is any digit; stops at the first mismatch (so at the NUL). */
static bool shape(const char *s, const char *pat)
{
	for (; *pat; s++, pat++)
		if (*pat == 'd' ? !isdigit((unsigned char)*s) : *s != *pat)
			return false;
	return true;
}

/* "host kernel: " after a syslog or journal date. */
static const char *skip_host_kernel(const char *s)
{
	const char *sp = strchr(s, ' ');
	if (!sp || sp == s)
		return NULL;
	if (strncmp(sp + 1, "kernel:", 7) != 0)
		return NULL;
	s = sp + 8;
	return *s == ' ' ? s + 1 : s;
}

/* "Nov  8 19:38:07 host kernel: " (syslog, journalctl's short format). */
static const char *skip_syslog(const char *s, char *caller, size_t csz)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	(void)caller;
	(void)csz;
	if (strlen(s) < 16)
		return NULL;
	bool month = false;
	for (int i = 0; i < 12; i++)
		if (!strncmp(s, months + 3 * i, 3))
			month = true;
	if (!month || s[3] != ' ')
		return NULL;
	const char *p = skip_digits(skip_spaces(s + 3), 1);
	if (!p || *p != ' ')
		return NULL;
	const char *t = p + 1;
	if (!shape(t, "dd:dd:dd "))
		return NULL;
	return skip_host_kernel(t + 9);
}

/* "2022-11-08T19:38:07.123456+01:00 host kernel: " (rsyslog, journalctl -o short-iso). */
static const char *skip_iso_syslog(const char *s, char *caller, size_t csz)
{
	(void)caller;
	(void)csz;
	const char *p = skip_digits(s, 4);
	if (!p || !shape(p, "-dd-ddT"))
		return NULL;
	const char *sp = strchr(p, ' ');
	return sp ? skip_host_kernel(sp + 1) : NULL;
}

/* /dev/kmsg records: "6,1234,5678901,-;" or "6,1234,5678901,-,caller=T12;". */
static const char *skip_kmsg_header(const char *s, char *caller, size_t csz)
{
	const char *p = skip_digits(s, 1);
	for (int i = 0; i < 2; i++) {
		if (!p || *p != ',')
			return NULL;
		p = skip_digits(p + 1, 1);
	}
	if (!p || *p != ',')
		return NULL;
	const char *semi = strchr(p, ';');
	if (!semi || semi - p > 40)
		return NULL;
	const char *c = strstr(p, "caller=");
	if (c && c < semi) {
		size_t n = (size_t)(semi - (c + 7));
		if (n < csz) {
			memcpy(caller, c + 7, n);
			caller[n] = '\0';
		}
	}
	return semi + 1;
}

/* "<4>" printk levels, as in /proc/kmsg, pstore and serial consoles with loglevels. */
static const char *skip_level(const char *s, char *caller, size_t csz)
{
	(void)caller;
	(void)csz;
	if (s[0] != '<' || !isdigit((unsigned char)s[1]))
		return NULL;
	const char *p = skip_digits(s + 1, 1);
	return p && *p == '>' ? p + 1 : NULL;
}

/* dmesg -x: "kern  :warn  : " (the padding varies). */
static const char *skip_dmesg_x(const char *s, char *caller, size_t csz)
{
	static const char *const facilities[] = { "kern", "user", "mail", "daemon", "auth",
		"syslog", "lpr", "news", "uucp", "cron", "authpriv", "ftp", "local0", "local1",
		"local2", "local3", "local4", "local5", "local6", "local7" };
	(void)caller;
	(void)csz;
	size_t n = 0;
	while (islower((unsigned char)s[n]) || isdigit((unsigned char)s[n]))
		n++;
	bool known = false;
	for (size_t i = 0; i < sizeof(facilities) / sizeof(facilities[0]); i++)
		if (strlen(facilities[i]) == n && !strncmp(s, facilities[i], n))
			known = true;
	if (!known)
		return NULL;
	const char *p = skip_spaces(s + n);
	if (*p != ':')
		return NULL;
	p = skip_spaces(p + 1);
	while (islower((unsigned char)*p))
		p++;
	p = skip_spaces(p);
	if (*p != ':')
		return NULL;
	p++;
	return *p == ' ' ? p + 1 : p;
}

/* "[  361.813390]" and, after it, journal's "host kernel: " when present. */
static const char *skip_timestamp(const char *s, char *caller, size_t csz)
{
	(void)caller;
	(void)csz;
	if (*s != '[')
		return NULL;
	const char *p = skip_digits(skip_spaces(s + 1), 1);
	if (!p || *p != '.')
		return NULL;
	p = skip_digits(p + 1, 1);
	if (!p || *p != ']')
		return NULL;
	p++;
	if (*p == ' ' && p[1] != ' ' && p[1] != '[') {
		const char *k = skip_host_kernel(p + 1);
		if (k)
			return k;
	}
	return *p == ' ' ? p + 1 : p;
}

/* dmesg -T (--ctime): "[Sat Jun  1 10:00:00 2024] ", the timestamp as a date. */
static const char *skip_ctime(const char *s, char *caller, size_t csz)
{
	(void)caller;
	(void)csz;
	char day[4], mon[4];
	int mday, h, m, sec, year, n = 0;
	if (*s != '[' ||
	    sscanf(s, "[%3[A-Za-z] %3[A-Za-z] %d %d:%d:%d %d]%n", day, mon, &mday, &h, &m, &sec,
		   &year, &n) != 7 || !n || strlen(day) != 3 || strlen(mon) != 3)
		return NULL;
	return s[n] == ' ' ? s + n + 1 : s + n;
}

/* printk caller ids: "[ T5827]" (task) or "[  C1]" (CPU, in interrupt). */
static const char *skip_caller(const char *s, char *caller, size_t csz)
{
	if (*s != '[')
		return NULL;
	const char *p = skip_spaces(s + 1);
	if (*p != 'T' && *p != 'C')
		return NULL;
	const char *id = p;
	p = skip_digits(p + 1, 1);
	if (!p || *p != ']')
		return NULL;
	size_t n = (size_t)(p - id);
	if (n < csz) {
		memcpy(caller, id, n);
		caller[n] = '\0';
	}
	p++;
	return *p == ' ' ? p + 1 : p;
}

/* "> " quoting of a mail reply. */
static const char *skip_quote(const char *s, char *caller, size_t csz)
{
	(void)caller;
	(void)csz;
	if (s[0] != '>')
		return NULL;
	return s[1] == ' ' ? s + 2 : s + 1;
}

typedef const char *(*stripper)(const char *s, char *caller, size_t csz);

static const stripper strippers[] = {
	skip_quote, skip_syslog, skip_iso_syslog, skip_kmsg_header, skip_level, skip_dmesg_x,
	skip_timestamp, skip_ctime, skip_caller,
};

const char *oops_strip_prefixes(const char *line, char *caller, size_t csz)
{
	const char *s = line, *stripped = NULL;
	if (csz)
		caller[0] = '\0';
	for (int round = 0; round < 12; round++) {
		const char *next = NULL;
		for (size_t i = 0; i < sizeof(strippers) / sizeof(strippers[0]) && !next; i++)
			next = strippers[i](s, caller, csz);
		if (!next)
			break;
		s = stripped = next;
	}
	return stripped;
}

/* A line of nothing but Code: bytes ("0f 0b <8b> 44" or "(b9410360)"): a wrapped Code: line. */
static bool only_code_bytes(const char *s)
{
	bool any = false;
	for (s = skip_spaces(s); *s; s = skip_spaces(s)) {
		size_t n = strspn(s, "0123456789abcdefABCDEF<>()");
		if (!n || (s[n] && s[n] != ' '))
			return false;
		s += n;
		any = true;
	}
	return any;
}

static void push(struct oops_lines *ls, char *text, const char *caller, bool prefixed)
{
	if (ls->n == ls->cap) {
		ls->cap = ls->cap ? 2 * ls->cap : 64;
		ls->v = xrealloc(ls->v, ls->cap * sizeof(*ls->v));
	}
	struct oops_line *l = &ls->v[ls->n++];
	l->text = text;
	snprintf(l->caller, sizeof(l->caller), "%s", caller);
	l->prefixed = prefixed;
}

static void append_to(struct oops_line *l, const char *more)
{
	size_t a = strlen(l->text), b = strlen(more);
	l->text = xrealloc(l->text, a + b + 2);
	l->text[a] = ' ';
	memcpy(l->text + a + 1, more, b + 1);
}

/*
 * Join wrapped lines.  In a log whose lines carry prefixes, a line without one
 * is the tail of the line before it (a mail client broke it); in any log, a line
 * of bare hex bytes after a Code: line continues it.
 */
static void rewrap(struct oops_lines *ls)
{
	size_t prefixed = 0, nonempty = 0;
	for (size_t i = 0; i < ls->n; i++) {
		if (ls->v[i].text[0])
			nonempty++;
		prefixed += ls->v[i].prefixed;
	}
	bool by_prefix = prefixed >= 2 && prefixed * 2 >= nonempty;
	size_t out = 0;
	for (size_t i = 0; i < ls->n; i++) {
		struct oops_line *l = &ls->v[i];
		struct oops_line *prev = out ? &ls->v[out - 1] : NULL;
		bool join = false;
		if (prev && l->text[0] && prev->text[0]) {
			if (by_prefix && !l->prefixed && prev->prefixed)
				join = true;
			else if (!strncmp(prev->text, "Code: ", 6) && only_code_bytes(l->text) &&
				 !strchr(prev->text, '(') && !strchr(prev->text, ')') &&
				 strlen(prev->text) > 6)
				join = !by_prefix || !l->prefixed ||
					(strchr(l->text, '<') && !strchr(prev->text, '<'));
		}
		if (join) {
			const char *t = skip_spaces(l->text);
			char *keep = prev->text;
			size_t klen = strlen(keep);
			while (klen && keep[klen - 1] == ' ')
				keep[--klen] = '\0';
			append_to(prev, t);
			free(l->text);
			continue;
		}
		ls->v[out++] = *l;
	}
	ls->n = out;
}

/*
 * How many lines after i finish a hung-task headline that i starts and a
 * newline in the task's name broke ("INFO: task " + "syz\nexec:12 blocked for
 * more than 143 seconds."): a name may hold any byte (PR_SET_NAME), and
 * syzkaller's {{TASK}} spans lines for that.  0 when i is no such line.
 */
static size_t task_name_lines(const struct oops_lines *ls, size_t i)
{
	static const char *const ends[] = { " for more than ", "can't die for" };
	const char *h = strstr(ls->v[i].text, "INFO: task");
	if (!h)
		return 0;
	for (size_t e = 0; e < 2; e++)
		if (strstr(h, ends[e]))
			return 0;
	size_t name = strlen(h + 10);	/* TASK_COMM_LEN - 1 bytes, a ':' and a pid: short */
	for (size_t k = i + 1; k < ls->n && k <= i + 16; k++) {
		const struct oops_line *l = &ls->v[k];
		if (strcmp(l->caller, ls->v[i].caller))
			return 0;
		for (size_t e = 0; e < 2; e++) {
			const char *end = strstr(l->text, ends[e]);
			if (end && name + (size_t)(end - l->text) <= 100)
				return k - i;
		}
		name += strlen(l->text) + 1;
		if (name > 100)
			return 0;
	}
	return 0;
}

/* Join the pieces of hung-task headlines (task_name_lines); the newlines become spaces. */
static void join_task_names(struct oops_lines *ls)
{
	size_t out = 0;
	for (size_t i = 0; i < ls->n; i++) {
		size_t more = task_name_lines(ls, i);
		struct oops_line *l = &ls->v[i];
		for (size_t k = 1; k <= more; k++) {
			append_to(l, skip_spaces(ls->v[i + k].text));
			free(ls->v[i + k].text);
		}
		ls->v[out++] = *l;
		i += more;
	}
	ls->n = out;
}

/* /dev/kmsg dictionary lines after a record: " SUBSYSTEM=cpu", " DEVICE=+cpu:0". */
static bool kmsg_dict_line(const char *s)
{
	if (s[0] != ' ' || !isupper((unsigned char)s[1]))
		return false;
	size_t n = 1 + strspn(s + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
	return s[n] == '=' && !strchr(s + n, ' ');
}

void oops_lines_from_text(struct oops_lines *ls, const char *text, size_t len)
{
	memset(ls, 0, sizeof(*ls));
	size_t i = 0;
	bool after_kmsg = false;
	while (i < len) {
		size_t j = i;
		while (j < len && text[j] != '\n')
			j++;
		size_t n = j - i;
		while (n && (text[i + n - 1] == '\r' || text[i + n - 1] == ' ' || text[i + n - 1] == '\t'))
			n--;
		char *raw = xmalloc(n + 1);
		memcpy(raw, text + i, n);
		raw[n] = '\0';
		/* Bytes the log should not have (NULs, controls) become spaces. */
		for (size_t k = 0; k < n; k++)
			if ((unsigned char)raw[k] < 0x20 && raw[k] != '\t')
				raw[k] = ' ';
		char caller[16];
		if (after_kmsg && kmsg_dict_line(raw)) {
			free(raw);
			i = j + 1;
			continue;
		}
		char tmp[16];
		after_kmsg = skip_kmsg_header(raw, tmp, sizeof(tmp)) != NULL || (after_kmsg && raw[0] == ' ');
		const char *body = oops_strip_prefixes(raw, caller, sizeof(caller));
		char *t = xstrdup(body ? body : raw);
		free(raw);
		push(ls, t, caller, body != NULL);
		i = j + 1;
	}
	rewrap(ls);
	join_task_names(ls);
}

void oops_lines_free(struct oops_lines *ls)
{
	for (size_t i = 0; i < ls->n; i++)
		free(ls->v[i].text);
	free(ls->v);
	memset(ls, 0, sizeof(*ls));
}

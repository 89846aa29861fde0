/*
 * Register dump lines: "RAX: ffff964f82144000 RBX: ... RCX: ...",
 * "RSP: 0018:ffffa737801d3d50 EFLAGS: 00010286", "FS:  0000(0000) GS: ...",
 * arm64's "x29: ffffa9f829d43c40 x28: 0000000000004000" and "sp : ...".
 * A line is a register line when its first name is one of the table's; then
 * every "NAME: value" pair on it is taken.  The first dump of a report wins
 * (later ones repeat it after "end trace", or belong to user space).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/die.h"

static const char *const first_names[] = {
	"RSP", "RAX", "RDX", "RBP", "R10", "R13", "FS", "CS", "CR2", "DR0", "DR3", "PKRU",
	"ESP", "EAX", "ESI", "EBP", "DS", "CR0", "EFLAGS",
	"sp", "pstate", "x29", "x27", "x25", "x23", "x21", "x19", "x17", "x15", "x13", "x11",
	"x9", "x7", "x5", "x3", "x1",
};

static bool is_first_name(const char *s, size_t n)
{
	/* arm64 prints two or three of x0..x29 a line, in varying order. */
	if (n >= 2 && n <= 3 && s[0] == 'x' && strspn(s + 1, "0123456789") == n - 1)
		return true;
	for (size_t i = 0; i < sizeof(first_names) / sizeof(first_names[0]); i++)
		if (strlen(first_names[i]) == n && !strncmp(first_names[i], s, n))
			return true;
	return false;
}

static bool have_reg(const struct oops_report *r, const char *name)
{
	for (size_t i = 0; i < r->nregs; i++)
		if (!strcmp(r->regs[i].name, name))
			return true;
	return false;
}

static void add_reg(struct oops_report *r, const char *name, size_t n, uint64_t v)
{
	char nm[8];
	if (n >= sizeof(nm))
		return;
	memcpy(nm, name, n);
	nm[n] = '\0';
	if (have_reg(r, nm))
		return;
	r->regs = xrealloc(r->regs, (r->nregs + 1) * sizeof(*r->regs));
	snprintf(r->regs[r->nregs].name, sizeof(r->regs[0].name), "%s", nm);
	r->regs[r->nregs].value = v;
	r->nregs++;
}

bool oops_parse_regs(struct oops_report *r, const char *line)
{
	const char *s = line;
	while (*s == ' ')
		s++;
	size_t n = 0;
	while (isalnum((unsigned char)s[n]) || s[n] == '_')
		n++;
	const char *c = s + n;
	while (*c == ' ')
		c++;
	if (!n || *c != ':' || !is_first_name(s, n))
		return false;
	while (*s) {
		n = 0;
		while (isalnum((unsigned char)s[n]) || s[n] == '_')
			n++;
		c = s + n;
		while (*c == ' ')
			c++;
		if (!n || *c != ':')
			break;
		const char *v = c + 1;
		while (*v == ' ')
			v++;
		char *end;
		uint64_t val = strtoull(v, &end, 16);
		if (end == v)
			break;
		/* "RSP: 0018:ffffa737801d3d50": the segment, then the value. */
		if (*end == ':' && isxdigit((unsigned char)end[1])) {
			v = end + 1;
			val = strtoull(v, &end, 16);
		}
		add_reg(r, s, n, val);
		if (*end == '(') {	/* "FS:  0000000000000000(0000)" */
			const char *close = strchr(end, ')');
			end = close ? (char *)close + 1 : end + strlen(end);
		}
		s = end;
		while (*s == ' ')
			s++;
	}
	return true;
}

/*
 * C++ names in titles: a module built from C++ has Itanium-mangled symbols
 * (_ZN6widget5Queue4pushEPv), printed as they are in traces.  syzkaller titles
 * them demangled without parameters (widget::Queue::push), so we do too.  The
 * frames keep the symbol as printed: the symbol files know it by that name.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "oops/oops.h"
#include "util/die.h"
#include "util/strbuf.h"

/* From libstdc++ (the Itanium C++ ABI's demangler), as src/probe/elfsym.c uses it. */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

static bool ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* "ns::f<int>(int) const" -> "ns::f<int>": the name up to its parameter list. */
static void drop_params(char *d)
{
	int angle = 0;
	for (char *p = d; *p; p++) {
		if (*p == '<')
			angle++;
		else if (*p == '>' && angle)
			angle--;
		else if (*p == '(' && !angle) {
			if (!strncmp(p, "(anonymous namespace)", 21)) {
				p += 20;
				continue;
			}
			*p = '\0';
			return;
		}
	}
}

char *oops_demangle_names(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text;
	while (*p) {
		size_t n = 0;
		if ((p == text || !ident(p[-1])) && !strncmp(p, "_Z", 2))
			while (ident(p[n]))
				n++;
		if (!n) {
			sb_addc(&sb, *p++);
			continue;
		}
		char *word = xstrndup(p, n);
		int status = -1;
		char *d = __cxa_demangle(word, NULL, NULL, &status);
		if (d && status == 0) {
			drop_params(d);
			sb_add(&sb, d);
		} else {
			sb_addn(&sb, p, n);
		}
		free(d);
		free(word);
		p += n;
	}
	char *out = xstrdup(sb_str(&sb));
	sb_free(&sb);
	return out;
}

/*
 * Stack frame lines, in every form the kernel and its helpers print them:
 *
 *	 func+0x1c0/0x1f0 [btrfs]                 x86 and arm64 since ~4.15
 *	 ? func+0x10/0x10                         unreliable (found on the stack)
 *	 [<ffffffff8108c3a1>] ? func+0x1/0x2      older kernels print the address
 *	 func+0x1/0x2 [mod 0123abcd...]           CONFIG_STACKTRACE_BUILD_ID
 *	 func+0x30/0x568 (P)                      arm64 since 6.14: from pc/lr
 *	 func (lib/dump_stack.c:123 (discriminator 1))   decode_stacktrace.sh output
 *
 * A frame is a whole line: text that merely contains "sym+off/size" (like
 * "get_random_bytes called from print_oops_end_marker+0x54/0x70") is not one.
 */
#include <ctype.h>
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

static bool sym_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

static const char *parse_hex(const char *s, uint64_t *v)
{
	char *end;
	if (!isxdigit((unsigned char)*s))
		return NULL;
	*v = strtoull(s, &end, 16);
	return end;
}

/* "[<ffffffff8108c3a1>]" */
static const char *parse_bracket_addr(const char *s, uint64_t *v)
{
	if (s[0] != '[' || s[1] != '<')
		return NULL;
	const char *p = parse_hex(s + 2, v);
	if (!p || p[0] != '>' || p[1] != ']')
		return NULL;
	return p + 2;
}

/* " [mod]" or " [mod buildid]" */
static const char *parse_module(const char *s, struct oops_sym *sym)
{
	const char *p = skip_spaces(s);
	if (*p != '[' || p[1] == '<')
		return s;
	const char *close = strchr(p, ']');
	if (!close || close == p + 1)
		return s;
	const char *sp = memchr(p, ' ', (size_t)(close - p));
	const char *name_end = sp ? sp : close;
	for (const char *c = p + 1; c < name_end; c++)
		if (!sym_char(*c) && *c != '-')
			return s;
	sym->module = strndup(p + 1, (size_t)(name_end - p - 1));
	if (sp && close - sp > 1)
		sym->build_id = strndup(sp + 1, (size_t)(close - sp - 1));
	return close + 1;
}

int oops_parse_sym(const char *s, struct oops_sym *sym, const char **end)
{
	memset(sym, 0, sizeof(*sym));
	s = skip_spaces(s);
	uint64_t a;
	const char *p;
	while ((p = parse_bracket_addr(s, &a))) {
		if (!sym->has_addr) {
			sym->addr = a;
			sym->has_addr = true;
		}
		s = skip_spaces(p);
	}
	if (s[0] == '0' && s[1] == 'x') {
		p = parse_hex(s + 2, &a);
		if (!p || sym_char(*p))
			return -1;
		sym->addr = a;
		sym->has_addr = true;
		*end = parse_module(p, sym);
		return 0;
	}
	const char *name = s;
	while (sym_char(*s))
		s++;
	if (s == name || isdigit((unsigned char)*name)) {
		*end = s;
		return sym->has_addr ? 0 : -1;
	}
	uint64_t off, size;
	if (s[0] == '+' && s[1] == '0' && s[2] == 'x' && (p = parse_hex(s + 3, &off)) && p[0] == '/' &&
	    p[1] == '0' && p[2] == 'x' && (p = parse_hex(p + 3, &size))) {
		sym->function = strndup(name, (size_t)(s - name));
		sym->offset = off;
		sym->size = size;
		sym->has_offset = true;
		*end = parse_module(p, sym);
		return 0;
	}
	sym->function = strndup(name, (size_t)(s - name));
	*end = s;
	return 0;
}

void oops_sym_free(struct oops_sym *s)
{
	free(s->function);
	free(s->module);
	free(s->build_id);
	memset(s, 0, sizeof(*s));
}

void oops_loc_free(struct oops_loc *l, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(l[i].function);
		free(l[i].file);
	}
	free(l);
}

void oops_frame_free(struct oops_frame *f)
{
	oops_sym_free(&f->sym);
	free(f->file);
	oops_loc_free(f->inlined, f->ninlined);
	memset(f, 0, sizeof(*f));
}

/*
 * Paths in decoded frames carry the build machine's directory
 * ("kbuild/obj/consumer/x86_64-rhel-9.4-func/lib/dump_stack.c"): keep the
 * part from the kernel tree's top-level directory on.
 */
static const char *tree_path(const char *path)
{
	static const char *const top[] = { "arch/", "block/", "certs/", "crypto/", "drivers/",
		"fs/", "include/", "init/", "io_uring/", "ipc/", "kernel/", "lib/", "mm/", "net/",
		"rust/", "samples/", "security/", "sound/", "tools/", "usr/", "virt/" };
	for (const char *p = path; *p; p++) {
		if (p != path && p[-1] != '/')
			continue;
		for (size_t i = 0; i < sizeof(top) / sizeof(top[0]); i++)
			if (!strncmp(p, top[i], strlen(top[i])))
				return p;
	}
	return path;
}

/* "(a.c:12 (discriminator 1) b.h:3)": the last location is the frame's own, the rest inlined. */
static int parse_decoded(const char *s, struct oops_frame *f, const char **end)
{
	int depth = 0;
	const char *p = s;
	for (; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			break;
	}
	if (*p != ')')
		return -1;
	*end = p + 1;
	char *body = strndup(s + 1, (size_t)(p - s - 1));
	struct oops_loc locs[32];
	size_t n = 0;
	for (char *tok = strtok(body, " "); tok; tok = strtok(NULL, " ")) {
		char *colon = strrchr(tok, ':');
		if (!colon || !isdigit((unsigned char)colon[1]) || n == 32)
			continue;	/* "(discriminator", "1)" */
		*colon = '\0';
		locs[n].function = NULL;
		locs[n].file = xstrdup(tree_path(tok));
		locs[n].line = atoi(colon + 1);
		n++;
	}
	free(body);
	if (!n)
		return -1;
	f->file = locs[n - 1].file;
	f->line = locs[n - 1].line;
	if (n > 1) {
		/* decode_stacktrace prints innermost first, like addr2line -i. */
		f->inlined = xcalloc(n - 1, sizeof(*f->inlined));
		memcpy(f->inlined, locs, (n - 1) * sizeof(*locs));
		f->ninlined = n - 1;
	}
	return 0;
}

int oops_parse_frame(const char *line, struct oops_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->reliable = true;
	const char *s = skip_spaces(line);
	uint64_t a = 0;
	bool has_a = false;
	const char *p;
	while ((p = parse_bracket_addr(s, &a))) {
		has_a = true;
		s = skip_spaces(p);
	}
	if (s[0] == '?' && s[1] == ' ') {
		f->reliable = false;
		s = skip_spaces(s + 2);
	}
	const char *end;
	if (oops_parse_sym(s, &f->sym, &end) < 0)
		goto fail;
	if (has_a && !f->sym.has_addr) {
		f->sym.addr = a;
		f->sym.has_addr = true;
	}
	if (!f->sym.has_offset && f->sym.function) {
		/* Only the decoded form may leave out +off/size. */
		end = skip_spaces(end);
		if (*end != '(' || parse_decoded(end, f, &end) < 0)
			goto fail;
		end = parse_module(end, &f->sym);
		const char *m = skip_spaces(end);
		if (*m && !f->sym.module) {
			const char *e = m;
			while (sym_char(*e) || *e == '-')
				e++;
			if (*skip_spaces(e) == '\0' && e > m) {
				f->sym.module = strndup(m, (size_t)(e - m));
				end = e;
			}
		}
	} else if (!f->sym.function && !has_a && f->reliable) {
		/* A bare 0x... on a line is not a frame; "? 0xffffffffc05ef000" is (an address in
		 * freed module init memory, found on the stack). */
		goto fail;
	}
	end = skip_spaces(end);
	/* arm64 (6.14+) marks entries taken from pc and lr: "(P)", "(L)"; old kernels "()". */
	if ((end[0] == '(' && (end[1] == 'P' || end[1] == 'L') && end[2] == ')') )
		end = skip_spaces(end + 3);
	else if (end[0] == '(' && end[1] == ')')
		end = skip_spaces(end + 2);
	if (*end)
		goto fail;
	return 0;
fail:
	oops_frame_free(f);
	return -1;
}

/* Lookups over the generated constant tables; see xlat.h. */
#include "xlat.h"

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

const char *xlat_str(const struct xlat *x, uint64_t val)
{
	for (size_t i = 0; i < x->n; i++)
		if (x->e[i].val == val)
			return x->e[i].str;
	return NULL;
}

int xlat_val(const struct xlat *x, const char *str, uint64_t *val)
{
	for (size_t i = 0; i < x->n; i++)
		if (strcmp(x->e[i].str, str) == 0) {
			*val = x->e[i].val;
			return 0;
		}
	return -1;
}

enum xlat_style xlat_style = XLAT_STYLE_ABBREV;

int sb_xlat(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt)
{
	const char *s = xlat_str(x, val);
	if (xlat_style == XLAT_STYLE_RAW) {
		sb_printf(sb, "%#" PRIx64, val);
		return s != NULL;
	}
	if (s && xlat_style == XLAT_STYLE_VERBOSE) {
		sb_printf(sb, "%#" PRIx64 " /* %s */", val, s);
		return 1;
	}
	if (s) {
		sb_add(sb, s);
		return 1;
	}
	sb_printf(sb, "%#" PRIx64, val);
	if (dflt)
		sb_printf(sb, " /* %s */", dflt);
	return 0;
}

static int flags_names(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt);

void sb_flags(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt)
{
	if (xlat_style == XLAT_STYLE_ABBREV) {
		flags_names(sb, x, val, dflt);
		return;
	}
	/* -X raw: the number; -X verbose: the number, then the names as a comment. */
	sb_printf(sb, val ? "%#" PRIx64 : "0", val);
	if (xlat_style == XLAT_STYLE_RAW || (val == 0 && !xlat_str(x, 0)))
		return;
	struct strbuf names = STRBUF_INIT;
	/* No name matched: strace's comment is the unknown-bits default, if any. */
	if (flags_names(&names, x, val, NULL))
		sb_printf(sb, " /* %s */", sb_str(&names));
	else if (dflt)
		sb_printf(sb, " /* %s */", dflt);
	sb_free(&names);
}

void sb_xparts_how(struct strbuf *sb, uint64_t val, unsigned how, sb_parts_fn parts,
		   const void *arg)
{
	enum xlat_style style = xlat_style;
	const char *numfmt = how & SB_XP_DEC ? "%" PRId64 : how & SB_XP_UDEC ? "%" PRIu64
										: "%#" PRIx64;
	if (style == XLAT_STYLE_RAW) {
		sb_printf(sb, val ? numfmt : "0", val);
		return;
	}
	if (style == XLAT_STYLE_VERBOSE) {
		sb_printf(sb, val ? numfmt : "0", val);
		sb_add(sb, " /* ");
	}
	/* The parts read as in the default style, names only, unless asked to keep -X. */
	if (!(how & SB_XP_KEEP_STYLE))
		xlat_style = XLAT_STYLE_ABBREV;
	parts(sb, val, arg);
	xlat_style = style;
	if (style == XLAT_STYLE_VERBOSE)
		sb_add(sb, " */");
}

void sb_xparts(struct strbuf *sb, uint64_t val, sb_parts_fn parts, const void *arg)
{
	sb_xparts_how(sb, val, SB_XP_HEX, parts, arg);
}

int sb_xlat_d(struct strbuf *sb, const struct xlat *x, int64_t val, const char *dflt)
{
	const char *s = xlat_str(x, (uint64_t)val);
	if (s && xlat_style == XLAT_STYLE_ABBREV) {
		sb_add(sb, s);
		return 1;
	}
	sb_printf(sb, "%" PRId64, val);
	if (xlat_style == XLAT_STYLE_RAW)
		return s != NULL;
	if (s || dflt)
		sb_printf(sb, " /* %s */", s ? s : dflt);
	return s != NULL;
}

/* Returns how many names it printed. */
static int flags_names(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt)
{
	if (val == 0) {
		const char *zero = xlat_str(x, 0);
		sb_add(sb, zero ? zero : "0");
		return zero != NULL;
	}
	int printed = 0;
	for (size_t i = 0; i < x->n; i++) {
		uint64_t f = x->e[i].val;
		if (f && (val & f) == f) {
			if (printed++)
				sb_addc(sb, '|');
			sb_add(sb, x->e[i].str);
			val &= ~f;
		}
	}
	if (val) {
		if (printed)
			sb_addc(sb, '|');
		sb_printf(sb, "%#" PRIx64, val);
		if (dflt && !printed)
			sb_printf(sb, " /* %s */", dflt);
	}
	return printed;
}

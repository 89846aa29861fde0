/* Lookups over the generated constant tables; see xlat.h. */
#include "xlat.h"

#include <inttypes.h>
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

static void flags_names(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt);

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
	flags_names(&names, x, val, NULL);
	/* No name among the bits: the dflt comment ("0x40 /\* MS_??? *\/"), or nothing. */
	if (strncmp(sb_str(&names), "0x", 2) != 0)
		sb_printf(sb, " /* %s */", sb_str(&names));
	else if (dflt)
		sb_printf(sb, " /* %s */", dflt);
	sb_free(&names);
}

static void flags_names(struct strbuf *sb, const struct xlat *x, uint64_t val, const char *dflt)
{
	if (val == 0) {
		const char *zero = xlat_str(x, 0);
		sb_add(sb, zero ? zero : "0");
		return;
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
}

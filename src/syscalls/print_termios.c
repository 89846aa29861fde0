/*
 * struct termios the way strace 6.1 prints it: each flag word by name, the
 * multi-bit fields of c_oflag (output delays) and c_cflag (baud rate,
 * character size) as values first, then the plain flags.
 */
#include <inttypes.h>
#include <termios.h>

#include "print_stat.h"
#include "print_termios.h"

/* The kernel shifts the input baud rate into CIBAUD by this much (termbits.h). */
#define IBSHIFT 16

/* c_oflag's delay fields: a value each, always printed ("NL0|CR0|TAB0|..."). */
static const struct {
	uint32_t mask;
	const char *names[4];
} out_delays[] = {
	{ NLDLY, { "NL0", "NL1" } },
	{ CRDLY, { "CR0", "CR1", "CR2", "CR3" } },
	{ TABDLY, { "TAB0", "TAB1", "TAB2", "XTABS" } },	/* XTABS == TAB3: strace's name */
	{ BSDLY, { "BS0", "BS1" } },
	{ VTDLY, { "VT0", "VT1" } },
	{ FFDLY, { "FF0", "FF1" } },
};

/*
 * A flag word: strace 6.1 prints nothing at all for 0 (c_lflag=, and a
 * trailing | after the fields of c_oflag and c_cflag).
 */
static void p_term_flags(struct sc_call *c, const struct xlat *x, uint32_t v)
{
	if (v)
		p_flags(c, x, v, NULL);
}

/* One field's value by name, as -X asks: name, number, or number and name. */
static void p_field(struct sc_call *c, uint32_t v, const char *name, const char *dflt)
{
	if (xlat_style == XLAT_STYLE_RAW)
		out(c, "%#" PRIx32, v);
	else if (!name)
		out(c, "%#" PRIx32 " /* %s */", v, dflt);
	else if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%#" PRIx32 " /* %s */", v, name);
	else
		out(c, "%s", name);
}

static void p_oflag(struct sc_call *c, uint32_t v)
{
	for (size_t i = 0; i < sizeof(out_delays) / sizeof(out_delays[0]); i++) {
		uint32_t m = out_delays[i].mask, low = m & -m;
		p_field(c, v & m, out_delays[i].names[(v & m) / low], NULL);
		out(c, "|");
		v &= ~m;
	}
	p_term_flags(c, &xlat_termios_oflags, v);
}

static void p_baud(struct sc_call *c, uint32_t b)
{
	p_field(c, b, xlat_str(&xlat_baud_options, b), "B???");
}

/* The output speed, the input speed (when set) shifted, the character size, the flags. */
static void p_cflag(struct sc_call *c, uint32_t v)
{
	p_baud(c, v & (CBAUD | CBAUDEX));
	out(c, "|");
	if (v & CIBAUD) {
		p_baud(c, (v & CIBAUD) >> IBSHIFT);
		out(c, "<<");
		p_field(c, IBSHIFT, "IBSHIFT", NULL);
		out(c, "|");
	}
	p_xval(c, &xlat_termios_csize, v & CSIZE, NULL);
	out(c, "|");
	p_term_flags(c, &xlat_termios_cflags, v & ~(uint32_t)(CBAUD | CBAUDEX | CSIZE | CIBAUD));
}

static void p_cc(struct sc_call *c, const uint8_t *cc, int n)
{
	out(c, "c_cc=[");
	for (int i = 0; i < n; i++) {
		const char *name = xlat_str(&xlat_termios_cc, (uint64_t)i);
		out(c, "%s", i ? ", " : "");
		if (name)
			out(c, "[%s]=", name);
		else
			out(c, "[%d]=", i);
		out(c, cc[i] ? "%#x" : "%u", cc[i]);
	}
	out(c, "]");
}

static void p_flag_words(struct sc_call *c, uint32_t i, uint32_t o, uint32_t cf, uint32_t l)
{
	out(c, "{c_iflag=");
	p_term_flags(c, &xlat_termios_iflags, i);
	out(c, ", c_oflag=");
	p_oflag(c, o);
	out(c, ", c_cflag=");
	p_cflag(c, cf);
	out(c, ", c_lflag=");
	p_term_flags(c, &xlat_termios_lflags, l);
}

/* ", c_line=N_TTY, c_cc=[...]" with -v; ", ..." without (then false: nothing more to print). */
static bool p_line_cc(struct sc_call *c, uint8_t line, const uint8_t *cc, int n)
{
	if (!sc_verbose(c)) {
		out(c, ", ...}");
		return false;
	}
	out(c, ", c_line=");
	p_xval(c, &xlat_tty_line_disciplines, line, "N_???");
	out(c, ", ");
	p_cc(c, cc, n);
	return true;
}

void p_termios(struct sc_call *c, uint64_t addr)
{
	struct sc_ktermios t;

	if (p_fetch(c, addr, &t, sizeof(t)) < 0)
		return;
	p_flag_words(c, t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag);
	if (p_line_cc(c, t.c_line, t.c_cc, SC_KTERMIOS_NCCS))
		out(c, "}");
}

void p_termios2(struct sc_call *c, uint64_t addr)
{
	struct sc_ktermios2 t;

	if (p_fetch(c, addr, &t, sizeof(t)) < 0)
		return;
	p_flag_words(c, t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag);
	if (p_line_cc(c, t.c_line, t.c_cc, SC_KTERMIOS_NCCS))
		out(c, ", c_ispeed=%u, c_ospeed=%u}", t.c_ispeed, t.c_ospeed);
}

void p_termio(struct sc_call *c, uint64_t addr)
{
	struct sc_ktermio t;

	if (p_fetch(c, addr, &t, sizeof(t)) < 0)
		return;
	p_flag_words(c, t.c_iflag, t.c_oflag, t.c_cflag, t.c_lflag);
	if (p_line_cc(c, t.c_line, t.c_cc, SC_KTERMIO_NCC))
		out(c, "}");
}

/*
 * tty requests ('T') the generic table in decode_ioctl.c leaves as numbers:
 * the modem control lines (TIOCM*).  The rest of the 'T' requests stay
 * with that table: this family returns IOCTL_NOT_DECODED for them.
 */
#include <sys/ioctl.h>

#include "family.h"

static void p_modem_lines(struct sc_call *c, uint64_t arg)
{
	unsigned v;
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	out(c, "[");
	p_flags(c, &xlat_tiocm_lines, v, "TIOCM_???");
	out(c, "]");
}

static int tty_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case TIOCMGET:
		if (c->entering)
			return 0;
		p_sep(c);
		if (sc_failed(c))
			p_addr(c, arg);
		else
			p_modem_lines(c, arg);
		return 0;
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		p_sep(c);
		p_modem_lines(c, arg);
		return SC_DONE;
	}
	return IOCTL_NOT_DECODED;
}

static size_t tty_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	switch (req) {
	case TIOCMGET:
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return sizeof(unsigned);
	}
	return 0;
}

const struct ioctl_family ioctl_tty = {
	.type = 'T',
	.decode = tty_decode,
	.arg_len = tty_arg_len,
};

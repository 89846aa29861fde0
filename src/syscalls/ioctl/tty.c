/*
 * tty requests ('T') the generic table in decode_ioctl.c leaves as numbers:
 * the modem control lines (TIOCM*), struct termios2 (TCGETS2 ...), the old
 * struct termio (TCGETA ...) and the locked termios.  The rest of the 'T'
 * requests stay with that table: this family returns IOCTL_UNDECODED.
 */
#include <sys/ioctl.h>

#include "family.h"
#include "syscalls/print_termios.h"

/*
 * <asm/ioctls.h>'s termios2 requests name struct termios2, which only
 * <asm/termbits.h> declares (and it clashes with glibc's <termios.h>):
 * the same numbers over the struct as print_termios.h declares it.
 */
#define TTY_TCGETS2	_IOR('T', 0x2A, struct sc_ktermios2)
#define TTY_TCSETS2	_IOW('T', 0x2B, struct sc_ktermios2)
#define TTY_TCSETSW2	_IOW('T', 0x2C, struct sc_ktermios2)
#define TTY_TCSETSF2	_IOW('T', 0x2D, struct sc_ktermios2)

static void p_modem_lines(struct sc_call *c, uint64_t arg)
{
	unsigned v;
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	out(c, "[");
	p_flags(c, &xlat_tiocm_lines, v, "TIOCM_???");
	out(c, "]");
}

/* How a termios-like request's struct prints. */
static void (*termios_printer(unsigned req))(struct sc_call *, uint64_t)
{
	switch (req) {
	case TTY_TCGETS2:
	case TTY_TCSETS2:
	case TTY_TCSETSW2:
	case TTY_TCSETSF2:
		return p_termios2;
	case TCGETA:
	case TCSETA:
	case TCSETAW:
	case TCSETAF:
		return p_termio;
	case TIOCGLCKTRMIOS:
	case TIOCSLCKTRMIOS:
		return p_termios;
	}
	return NULL;
}

/* Getters print at exit (the address when the call failed), setters at entry. */
static int termios_like(struct sc_call *c, unsigned req, uint64_t arg)
{
	void (*print)(struct sc_call *, uint64_t) = termios_printer(req);
	if (req == TTY_TCGETS2 || req == TCGETA || req == TIOCGLCKTRMIOS)
		return ioctl_getter(c, arg, print);
	return ioctl_setter(c, arg, print);
}

static int tty_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (termios_printer(req))
		return termios_like(c, req, arg);
	switch (req) {
	case TIOCMGET:
		return ioctl_getter(c, arg, p_modem_lines);
	case TIOCMBIS:
	case TIOCMBIC:
	case TIOCMSET:
		return ioctl_setter(c, arg, p_modem_lines);
	}
	return IOCTL_UNDECODED;
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
	case TTY_TCGETS2:
	case TTY_TCSETS2:
	case TTY_TCSETSW2:
	case TTY_TCSETSF2:
		return sizeof(struct sc_ktermios2);
	case TCGETA:
	case TCSETA:
	case TCSETAW:
	case TCSETAF:
		return sizeof(struct sc_ktermio);
	case TIOCGLCKTRMIOS:
	case TIOCSLCKTRMIOS:
		return sizeof(struct sc_ktermios);
	}
	return 0;
}

const struct ioctl_family ioctl_tty = {
	.type = 'T',
	.names = &xlat_tty_ioctls,
	.decode = tty_decode,
	.arg_len = tty_arg_len,
};

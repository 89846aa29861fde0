/*
 * ioctl: the request by name (or as _IOC(dir, type, nr, size) when it has
 * none) and, for the common tty and file requests, the argument the way
 * strace prints it.  How each request's argument prints is data: the table
 * below; the memory it needs follows from the same table.
 */
#include <inttypes.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "decoder.h"
#include "print_stat.h"
#include "print_termios.h"
#include "ioctl/family.h"

enum ioctl_arg {
	IA_HEX = 0,	/* not decoded: the raw argument in hex */
	IA_NONE,	/* no argument at all (FIOCLEX) */
	IA_INT,		/* the argument itself is an int (TIOCSCTTY) */
	IA_INT_IN,	/* [n]: an int the kernel reads */
	IA_INT_OUT,	/* [n]: an int the kernel writes */
	IA_WINSZ_IN,	/* struct winsize the kernel reads */
	IA_WINSZ_OUT,	/* struct winsize the kernel writes */
	IA_PTR,		/* a struct not decoded yet: its address, NULL when 0 (TCGETA) */
	IA_TERMIOS_IN,	/* struct termios the kernel reads (TCSETS*) */
	IA_TERMIOS_OUT,	/* struct termios the kernel writes (TCGETS) */
	IA_FLUSH,	/* TCFLSH queue selector */
	IA_XONC,	/* TCXONC action */
};

static const struct {
	unsigned req;
	unsigned char arg;
} ioctl_args[] = {
	{ FIOCLEX, IA_NONE }, { FIONCLEX, IA_NONE }, { TIOCEXCL, IA_NONE },
	{ TIOCNXCL, IA_NONE }, { TIOCNOTTY, IA_NONE }, { TIOCSBRK, IA_NONE },
	{ TIOCCBRK, IA_NONE }, { TIOCCONS, IA_NONE }, { TIOCVHANGUP, IA_NONE },
	{ FIFREEZE, IA_NONE }, { FITHAW, IA_NONE },
	{ TIOCSCTTY, IA_INT }, { TCSBRK, IA_INT }, { TCSBRKP, IA_INT }, { TIOCSIG, IA_INT },
	{ FICLONE, IA_INT },	/* the source descriptor */
	{ FIONBIO, IA_INT_IN }, { FIOASYNC, IA_INT_IN }, { TIOCSPGRP, IA_INT_IN },
	{ TIOCSETD, IA_INT_IN }, { TIOCSPTLCK, IA_INT_IN }, { TIOCSSOFTCAR, IA_INT_IN },
	{ FIONREAD, IA_INT_OUT }, { TIOCOUTQ, IA_INT_OUT }, { TIOCGPGRP, IA_INT_OUT },
	{ TIOCGSID, IA_INT_OUT }, { TIOCGETD, IA_INT_OUT }, { TIOCGPTN, IA_INT_OUT },
	{ TIOCGPTLCK, IA_INT_OUT }, { TIOCGPKT, IA_INT_OUT }, { TIOCGEXCL, IA_INT_OUT },
	{ TIOCGSOFTCAR, IA_INT_OUT }, { FIGETBSZ, IA_INT_OUT },
	{ TIOCSWINSZ, IA_WINSZ_IN }, { TIOCGWINSZ, IA_WINSZ_OUT },
	{ TCFLSH, IA_FLUSH }, { TCXONC, IA_XONC },
	{ TCGETS, IA_TERMIOS_OUT }, { TCSETS, IA_TERMIOS_IN }, { TCSETSW, IA_TERMIOS_IN },
	{ TCSETSF, IA_TERMIOS_IN },
	{ TCGETA, IA_PTR }, { TCSETA, IA_PTR }, { TCSETAW, IA_PTR }, { TCSETAF, IA_PTR },
};

static enum ioctl_arg arg_kind(uint64_t req)
{
	for (size_t i = 0; i < sizeof(ioctl_args) / sizeof(ioctl_args[0]); i++)
		if (ioctl_args[i].req == (unsigned)req)
			return ioctl_args[i].arg;
	return IA_HEX;
}

static size_t ioctl_arg_len(const struct sc_call *c)
{
	const struct ioctl_family *fam = ioctl_family_of((unsigned)c->args[1]);
	size_t fam_len = fam && fam->arg_len ? fam->arg_len(c, (unsigned)c->args[1]) : 0;
	if (fam_len)
		return fam_len;
	switch (arg_kind(c->args[1])) {
	case IA_INT_IN:
	case IA_INT_OUT:
		return sizeof(int);
	case IA_WINSZ_IN:
	case IA_WINSZ_OUT:
		return sizeof(struct winsize);
	case IA_TERMIOS_IN:
	case IA_TERMIOS_OUT:
		return sizeof(struct sc_ktermios);
	default:
		return 0;
	}
}

/* "SNDCTL_TMR_START or TCSETS", "TCGETS", or _IOC(_IOC_READ, 0x54, 0x1, 0x4). */
static void p_request_name(struct sc_call *c, unsigned req, bool in_comment)
{
	if (ioctl_family_name(c, req, in_comment))
		return;
	const char *name = xlat_str(&xlat_ioctl_names, req);
	const char *alias = xlat_str(&xlat_ioctl_aliases, req);
	if (name) {
		out(c, "%s%s%s", alias ? alias : "", alias ? " or " : "", name);
		return;
	}
	out(c, "_IOC(");
	p_flags(c, &xlat_ioctl_dirs, _IOC_DIR(req), NULL);
	out(c, ", %#x, %#x, %#x)", _IOC_TYPE(req), _IOC_NR(req), _IOC_SIZE(req));
}

/* -X raw: the number; -X verbose: the number, the name in a comment. */
static void p_request(struct sc_call *c, unsigned req)
{
	if (xlat_style == XLAT_STYLE_ABBREV) {
		p_request_name(c, req, false);
		return;
	}
	out(c, "%#x", req);
	if (xlat_style == XLAT_STYLE_RAW)
		return;
	out(c, " /* ");
	/* The comment holds the name as -X abbrev prints it (EVIOCGBIT(EV_KEY, 8), _IOC(_IOC_READ, ...)). */
	xlat_style = XLAT_STYLE_ABBREV;
	p_request_name(c, req, true);
	xlat_style = XLAT_STYLE_VERBOSE;
	out(c, " */");
}

static void p_winsize(struct sc_call *c, uint64_t addr)
{
	struct winsize ws;
	if (p_fetch(c, addr, &ws, sizeof(ws)) == 0)
		out(c, "{ws_row=%u, ws_col=%u, ws_xpixel=%u, ws_ypixel=%u}", ws.ws_row, ws.ws_col,
		    ws.ws_xpixel, ws.ws_ypixel);
}

/* At entry: what the kernel reads.  Returns SC_DONE unless something is left for exit. */
static int ioctl_entry(struct sc_call *c, enum ioctl_arg kind, uint64_t arg)
{
	switch (kind) {
	case IA_NONE:
		return SC_DONE;
	case IA_INT:
		out(c, ", %d", (int)arg);
		return SC_DONE;
	case IA_INT_IN:
		p_sep(c);
		p_int_ptr(c, arg);
		return SC_DONE;
	case IA_WINSZ_IN:
		p_sep(c);
		p_winsize(c, arg);
		return SC_DONE;
	case IA_TERMIOS_IN:
		p_sep(c);
		p_termios(c, arg);
		return SC_DONE;
	case IA_PTR:
		p_sep(c);
		p_addr(c, arg);
		return SC_DONE;
	case IA_FLUSH:
		p_sep(c);
		p_xval(c, &xlat_tcflsh_queues, arg, "TC???");
		return SC_DONE;
	case IA_XONC:
		p_sep(c);
		p_xval(c, &xlat_tcxonc_actions, arg, "TC???");
		return SC_DONE;
	case IA_INT_OUT:
	case IA_WINSZ_OUT:
	case IA_TERMIOS_OUT:
		return 0;
	case IA_HEX:
		break;
	}
	out(c, ", %#" PRIx64, arg);
	return SC_DONE;
}

/* Bytes of an ioctl argument copied at most (KVM CPUID tables: 10 KiB). */
#define IOCTL_ARG_MAX 16384

/* What a family's argument points to (V4L2 clips and controls). */
static void ioctl_walk(struct sc_walk *w, const struct sc_call *c)
{
	const struct ioctl_family *fam = ioctl_family_of((unsigned)c->args[1]);
	if (fam && fam->walk)
		fam->walk(w, c, (unsigned)c->args[1]);
}

SC_DECODER(ioctl, { .arg = 2, .kind = SC_MEM_BUF, .when = SC_AT_ENTRY | SC_AT_EXIT,
		    .len_src = SC_LEN_FN, .len_fn = ioctl_arg_len, .size = IOCTL_ARG_MAX },
		  { .arg = 2, .kind = SC_MEM_WALK, .when = SC_AT_ENTRY | SC_AT_EXIT, .walk_fn = ioctl_walk })
{
	enum ioctl_arg kind = arg_kind(c->args[1]);
	const struct ioctl_family *fam = ioctl_family_of((unsigned)c->args[1]);
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		p_request(c, (unsigned)c->args[1]);
		int rc = fam ? fam->decode(c, (unsigned)c->args[1], c->args[2]) : IOCTL_NOT_DECODED;
		if (rc != IOCTL_NOT_DECODED)
			return rc;
		return ioctl_entry(c, kind, c->args[2]);
	}
	if (fam && fam->decode(c, (unsigned)c->args[1], c->args[2]) != IOCTL_NOT_DECODED)
		return 0;
	p_sep(c);
	if (sc_failed(c))
		p_addr(c, c->args[2]);
	else if (kind == IA_INT_OUT)
		p_int_ptr(c, c->args[2]);
	else if (kind == IA_TERMIOS_OUT)
		p_termios(c, c->args[2]);
	else
		p_winsize(c, c->args[2]);
	return 0;
}

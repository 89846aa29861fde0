/*
 * ioctl: the request by name (or as _IOC(dir, type, nr, size) when it has
 * none) and its argument the way strace prints it.  The families of requests
 * in src/syscalls/ioctl/ (evdev, block, fs, dm, ...) are asked first; the common tty
 * requests are data here: the table below, and the memory each needs follows
 * from the same table.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>

#include "decoder.h"
#include "ioctl/family.h"
#include "ioctl/ioctl.h"
#include "print_stat.h"
#include "print_termios.h"

#define FOR_FAMILIES_OF(f, req)                                                              \
	for (const struct ioctl_family *const *f##_p = ioctl_families, *f;                  \
	     f##_p < ioctl_families + ioctl_n_families && (f = *f##_p, 1); f##_p++)          \
		if (ioctl_family_asked(f, req))

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
	{ TIOCSCTTY, IA_INT }, { TCSBRK, IA_INT }, { TCSBRKP, IA_INT }, { TIOCSIG, IA_INT },
	{ FIONBIO, IA_INT_IN }, { FIOASYNC, IA_INT_IN }, { TIOCSPGRP, IA_INT_IN },
	{ TIOCSETD, IA_INT_IN }, { TIOCSPTLCK, IA_INT_IN }, { TIOCSSOFTCAR, IA_INT_IN },
	{ FIONREAD, IA_INT_OUT }, { TIOCOUTQ, IA_INT_OUT }, { TIOCGPGRP, IA_INT_OUT },
	{ TIOCGSID, IA_INT_OUT }, { TIOCGETD, IA_INT_OUT }, { TIOCGPTN, IA_INT_OUT },
	{ TIOCGPTLCK, IA_INT_OUT }, { TIOCGPKT, IA_INT_OUT }, { TIOCGEXCL, IA_INT_OUT },
	{ TIOCGSOFTCAR, IA_INT_OUT },
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
	unsigned req = (unsigned)c->args[1];
	size_t len = 0;
	FOR_FAMILIES_OF(f, req) {
		size_t n = f->arg_len ? f->arg_len(c, req) : 0;
		if (n > len)
			len = n;
	}
	if (len)
		return len;
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

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The names of req in every table, sorted as strace lists them; returns how many. */
static size_t request_names(unsigned req, const char **names, size_t max)
{
	size_t n = 0;
	const char *s = xlat_str(&xlat_ioctl_aliases, req);
	if (s)
		names[n++] = s;
	if ((s = xlat_str(&xlat_ioctl_names, req)))
		names[n++] = s;
	/* An owner's names were tried first (ioctl_family_name). */
	for (size_t i = 0; i < ioctl_n_families && n < max; i++) {
		const struct xlat *x = ioctl_families[i]->names;
		if (ioctl_families[i]->type != IOCTL_ANY_TYPE || !x || !(s = xlat_str(x, req)))
			continue;
		bool dup = false;
		for (size_t j = 0; j < n; j++)
			dup |= strcmp(names[j], s) == 0;
		if (!dup)
			names[n++] = s;
	}
	qsort(names, n, sizeof(names[0]), by_name);
	return n;
}

static const char *const ioc_dirs[] = {
	"_IOC_NONE", "_IOC_WRITE", "_IOC_READ", "_IOC_READ|_IOC_WRITE",
};

/*
 * "SNDCTL_TMR_START or TCSETS", or _IOC(_IOC_READ, 0x54, 0x1, 0x4) without a
 * name; -X raw prints the number, -X verbose the number with that as a comment.
 */
static void p_request(struct sc_call *c, unsigned req)
{
	if (xlat_style != XLAT_STYLE_ABBREV)
		out(c, "%#x", req);
	if (xlat_style == XLAT_STYLE_RAW)
		return;
	if (xlat_style == XLAT_STYLE_VERBOSE)
		out(c, " /* ");
	/* The character-device families name their own requests (EVIOCGBIT(EV_KEY, 8)). */
	if (ioctl_family_name(c, req, xlat_style == XLAT_STYLE_VERBOSE)) {
		if (xlat_style == XLAT_STYLE_VERBOSE)
			out(c, " */");
		return;
	}
	/* a name computed from the number first, then those of the tables */
	char computed[64];
	size_t k = 0;
	FOR_FAMILIES_OF(f, req)
		if (!k && f->name_of && f->name_of(req, computed, sizeof(computed)))
			k = 1;
	if (k)
		out(c, "%s", computed);
	const char *names[8];
	size_t n = request_names(req, names, sizeof(names) / sizeof(names[0]));
	for (size_t i = 0; i < n; i++)
		out(c, "%s%s", i || k ? " or " : "", names[i]);
	if (!n && !k)
		out(c, "_IOC(%s, %#x, %#x, %#x)", ioc_dirs[_IOC_DIR(req) & 3], _IOC_TYPE(req),
		    _IOC_NR(req), _IOC_SIZE(req));
	if (xlat_style == XLAT_STYLE_VERBOSE)
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

static size_t ioctl_deref_len(const struct sc_call *c)
{
	unsigned req = (unsigned)c->args[1];
	FOR_FAMILIES_OF(f, req) {
		size_t n = f->deref_len ? f->deref_len(c, req) : 0;
		if (n)
			return n;
	}
	return 0;
}

static size_t ioctl_ptr_len(const struct sc_call *c, unsigned off)
{
	unsigned req = (unsigned)c->args[1];
	FOR_FAMILIES_OF(f, req) {
		size_t n = f->ptr_len ? f->ptr_len(c, req, off) : 0;
		if (n)
			return n;
	}
	return 0;
}

static size_t ioctl_ptr0_len(const struct sc_call *c)
{
	return ioctl_ptr_len(c, IOCTL_PTR_AT0);
}

static size_t ioctl_ptr8_len(const struct sc_call *c)
{
	return ioctl_ptr_len(c, IOCTL_PTR_AT8);
}

static size_t ioctl_ptr24_len(const struct sc_call *c)
{
	return ioctl_ptr_len(c, IOCTL_PTR_AT24);
}

/* What the argument points to: SG_IO's buffers, V4L2's clips and controls. */
static void ioctl_walk(struct sc_walk *w, const struct sc_call *c)
{
	unsigned req = (unsigned)c->args[1];
	FOR_FAMILIES_OF(f, req)
		if (f->walk)
			f->walk(w, c, req);
}

/* Bytes of an ioctl argument copied at most (KVM CPUID tables: 10 KiB). */
#define IOCTL_ARG_MAX (IOCTL_MEM_CAP > 16384 ? IOCTL_MEM_CAP : 16384)

SC_DECODER(ioctl, { .arg = 2, .kind = SC_MEM_BUF, .when = SC_AT_ENTRY | SC_AT_EXIT,
		    .len_src = SC_LEN_FN, .len_fn = ioctl_arg_len, .size = IOCTL_ARG_MAX },
		  { .arg = 2, .off = IOCTL_DEREF_OFF, .kind = SC_MEM_DEREF, .when = SC_AT_ENTRY,
		    .len_src = SC_LEN_FN, .len_fn = ioctl_deref_len, .size = IOCTL_DEREF_CAP },
		  { .arg = 2, .off = IOCTL_PTR_AT0, .kind = SC_MEM_DEREF, .when = SC_AT_ENTRY | SC_AT_EXIT,
		    .len_src = SC_LEN_FN, .len_fn = ioctl_ptr0_len, .size = IOCTL_PTR_CAP },
		  { .arg = 2, .off = IOCTL_PTR_AT8, .kind = SC_MEM_DEREF, .when = SC_AT_ENTRY | SC_AT_EXIT,
		    .len_src = SC_LEN_FN, .len_fn = ioctl_ptr8_len, .size = IOCTL_PTR_CAP },
		  { .arg = 2, .off = IOCTL_PTR_AT24, .kind = SC_MEM_DEREF, .when = SC_AT_ENTRY | SC_AT_EXIT,
		    .len_src = SC_LEN_FN, .len_fn = ioctl_ptr24_len, .size = IOCTL_PTR_CAP },
		  { .arg = 2, .kind = SC_MEM_WALK, .when = SC_AT_ENTRY | SC_AT_EXIT, .walk_fn = ioctl_walk })
{
	enum ioctl_arg kind = arg_kind(c->args[1]);
	unsigned req = (unsigned)c->args[1];
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		p_request(c, req);
	}
	/* The owner of the request's type byte first, then the others. */
	FOR_FAMILIES_OF(f, req) {
		int r = f->decode(c, req, c->args[2]);
		if (r != IOCTL_UNDECODED)
			return r;
	}
	if (c->entering)
		return ioctl_entry(c, kind, c->args[2]);
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

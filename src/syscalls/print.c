/*
 * The printing helpers decoders are written with: each prints one argument
 * the way strace does, reading tracee memory from the call's snapshot only.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "decoder.h"
#include "print_pid.h"

static unsigned strsize(const struct sc_call *c)
{
	return c->fmt ? c->fmt->strsize : 32;
}

static int xflag(const struct sc_call *c)
{
	return c->fmt ? c->fmt->xflag : 0;
}

void out(struct sc_call *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sb_vprintf(c->out, fmt, ap);
	va_end(ap);
}

bool p_line_full(const struct sc_call *c)
{
	size_t max = (size_t)strsize(c) * 16;
	return c->out->len >= (max > SC_LINE_MAX ? max : SC_LINE_MAX);
}

void p_sep(struct sc_call *c)
{
	sb_add(c->out, ", ");
}

void p_addr(struct sc_call *c, uint64_t addr)
{
	if (addr)
		sb_printf(c->out, "%#" PRIx64, addr);
	else
		sb_add(c->out, "NULL");
}

void p_int(struct sc_call *c, uint64_t v)
{
	sb_printf(c->out, "%d", (int)v);
}

void p_long(struct sc_call *c, uint64_t v)
{
	sb_printf(c->out, "%" PRId64, (int64_t)v);
}

void p_ulong(struct sc_call *c, uint64_t v)
{
	sb_printf(c->out, "%" PRIu64, v);
}

void p_hex(struct sc_call *c, uint64_t v)
{
	sb_printf(c->out, "%#" PRIx64, v);
}

void p_oct(struct sc_call *c, uint64_t v)
{
	sb_printf(c->out, "%#03" PRIo64, v);
}

/* The text -y prints between < and >: the path (or socket, pipe...) of fd. */
static void quote_chars(struct strbuf *o, const unsigned char *s, size_t n, int hex,
			const char *also);

static void p_fd_text(struct sc_call *c, int fd)
{
	char path[4096];
	int len = c->fmt->fd_path(c->fmt->fd_ctx, sc_pid_proc(c->tid), fd, path, sizeof(path));
	if (len < 0)
		return;
	path[len] = '\0';
	/* The kernel marks unlinked files " (deleted)"; strace prints that after the >. */
	const char *deleted = " (deleted)";
	size_t dl = strlen(deleted);
	bool gone = (size_t)len > dl && strcmp(path + len - dl, deleted) == 0 && path[0] == '/';
	if (gone)
		len -= (int)dl;
	sb_addc(c->out, '<');
	/* A file name is quoted as strings are, without the quotes, and < > escaped too;
	 * what follows a NUL (a device's <char 1:3>) is printed as it is. */
	const char *nul = memchr(path, '\0', (size_t)len);
	size_t name = nul ? (size_t)(nul - path) : (size_t)len;
	if (path[0] == '/')
		quote_chars(c->out, (const unsigned char *)path, name, 0, "<>");
	else
		sb_addn(c->out, path, name);
	if (nul)
		sb_addn(c->out, nul + 1, (size_t)len - name - 1);
	sb_addc(c->out, '>');
	if (gone)
		sb_add(c->out, "(deleted)");
}

void p_fd(struct sc_call *c, uint64_t fd)
{
	int n = (int)fd;
	sb_printf(c->out, "%d", n);
	if (n >= 0 && c->fmt && c->fmt->yflag && c->fmt->fd_path)
		p_fd_text(c, n);
}

void sb_comm(struct strbuf *sb, const char *comm, size_t n)
{
	sb_addc(sb, '<');
	quote_chars(sb, (const unsigned char *)comm, n, 0, "<>");
	sb_addc(sb, '>');
}

void p_dirfd(struct sc_call *c, uint64_t fd)
{
	if ((int)fd == -100) {
		/* -X raw and verbose show the number, verbose with the name as a comment */
		sb_add(c->out, xlat_style == XLAT_STYLE_RAW ? "-100" :
			       xlat_style == XLAT_STYLE_VERBOSE ? "-100 /* AT_FDCWD */" : "AT_FDCWD");
		if (c->fmt && c->fmt->yflag && c->fmt->fd_path)
			p_fd_text(c, -100);
	} else
		p_fd(c, fd);
}

/*
 * strace's string_quote: C escapes, octal for the unprintable (three digits
 * when an octal digit follows), and the characters in also escaped too.
 * hex: 1 every byte as \xNN (-xx), 2 only the non-ASCII ones
 * (--strings-in-hex=non-ascii-chars).
 */
static void quote_chars(struct strbuf *o, const unsigned char *s, size_t n, int hex,
			const char *also)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = s[i];
		if (hex == 1) {
			sb_printf(o, "\\x%02x", ch);
			continue;
		}
		switch (ch) {
		case '"': sb_add(o, "\\\""); continue;
		case '\\': sb_add(o, "\\\\"); continue;
		case '\f': sb_add(o, "\\f"); continue;
		case '\n': sb_add(o, "\\n"); continue;
		case '\r': sb_add(o, "\\r"); continue;
		case '\t': sb_add(o, "\\t"); continue;
		case '\v': sb_add(o, "\\v"); continue;
		}
		if (ch >= ' ' && ch <= 0x7e && !(also && ch && strchr(also, ch))) {
			sb_addc(o, (char)ch);
		} else if (hex == 2) {	/* --strings-in-hex=non-ascii-chars */
			sb_printf(o, "\\x%02x", ch);
		} else if (i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7') {
			sb_printf(o, "\\%03o", ch);
		} else {
			sb_printf(o, "\\%o", ch);
		}
	}
}

void p_quoted(struct sc_call *c, const unsigned char *s, size_t n, bool ellipsis)
{
	struct strbuf *o = c->out;
	int hex = xflag(c) == 2 ? 1 : xflag(c) == 3 ? 2 : 0;
	if (xflag(c) == 1)
		for (size_t i = 0; i < n && !hex; i++)
			hex = s[i] > 0x7e || (s[i] < ' ' && (unsigned)(s[i] - 9) >= 5);

	sb_grow(o, n * 4 + 8);
	sb_addc(o, '"');
	quote_chars(o, s, n, hex, NULL);
	sb_addc(o, '"');
	if (ellipsis)
		sb_add(o, "...");
}

void p_struct_tail(struct sc_call *c, uint64_t addr, size_t known, uint64_t size)
{
	if (size <= known)
		return;
	if (size > SC_STRUCT_TAIL_MAX)
		size = SC_STRUCT_TAIL_MAX;
	size_t len = size - known;
	const unsigned char *p;
	if (sc_mem_peek(c, addr + known, len, &p) != (long)len) {
		sb_add(c->out, ", ???");
		return;
	}
	size_t i = 0;
	while (i < len && !p[i])
		i++;
	if (i == len)
		return;
	size_t shown = len < strsize(c) ? len : strsize(c);
	sb_printf(c->out, ", /* bytes %zu..%zu */ \"", known, (size_t)size - 1);
	sb_grow(c->out, shown * 4 + 8);
	quote_chars(c->out, p, shown, 1, NULL);
	sb_addc(c->out, '"');
	if (shown < len)
		sb_add(c->out, "...");
}

/* A NUL-terminated string of at most max bytes from the snapshot. */
static void print_cstr(struct sc_call *c, uint64_t addr, size_t max)
{
	const unsigned char *p;
	if (!addr) {
		sb_add(c->out, "NULL");
		return;
	}
	long n = sc_mem_peek(c, addr, max + 1, &p);
	if (n <= 0) {
		p_addr(c, addr);
		return;
	}
	const unsigned char *nul = memchr(p, 0, (size_t)n);
	if (nul) {
		p_quoted(c, p, (size_t)(nul - p), false);
	} else if ((size_t)n > max) {
		p_quoted(c, p, max, true);
	} else {
		/* Unreadable before its end: strace prints the address (umovestr fails). */
		p_addr(c, addr);
	}
}

void p_path(struct sc_call *c, uint64_t addr)
{
	print_cstr(c, addr, 4095);	/* PATH_MAX - 1 bytes, then "..." */
}

void p_str(struct sc_call *c, uint64_t addr)
{
	print_cstr(c, addr, strsize(c));
}

void p_str_max(struct sc_call *c, uint64_t addr, size_t max)
{
	const unsigned char *p;
	size_t want = max < strsize(c) ? max : strsize(c);
	size_t look = max > want ? want + 1 : want;	/* a byte more tells "..." apart */
	if (!addr) {
		sb_add(c->out, "NULL");
		return;
	}
	long n = sc_mem_peek(c, addr, look, &p);
	const unsigned char *nul = n > 0 ? memchr(p, 0, (size_t)n) : NULL;
	if (nul && (size_t)(nul - p) <= want)
		p_quoted(c, p, (size_t)(nul - p), false);
	else if (n < 0 || (size_t)n < look)
		p_addr(c, addr);	/* unreadable before max bytes or a NUL */
	else
		p_quoted(c, p, want, true);
}

void p_buf(struct sc_call *c, uint64_t addr, int64_t len)
{
	const unsigned char *p;
	if (!addr) {
		sb_add(c->out, "NULL");
		return;
	}
	/* The length is the kernel's size_t: a "negative" one is huge. */
	if (len == 0) {
		sb_add(c->out, "\"\"");
		return;
	}
	size_t want = (uint64_t)len < strsize(c) ? (size_t)len : strsize(c);
	size_t more = (uint64_t)len > want ? want + 1 : want;
	/*
	 * strace reads one byte past -s and prints the address when that byte is
	 * unreadable; the ptrace engine copies it (a copy cut short says it is
	 * unreadable), the kernel mode's copies stop at -s.
	 */
	long n = sc_mem_peek(c, addr, more, &p);
	if (n < 0 || (size_t)n < want || ((size_t)n < more && sc_mem_cut(c, addr))) {
		p_addr(c, addr);
		return;
	}
	p_quoted(c, p, want, (uint64_t)len > want);
}

void p_buf_or_addr(struct sc_call *c, uint64_t addr, int64_t len)
{
	if (sc_failed(c))
		p_addr(c, addr);
	else
		p_buf(c, addr, len);
}

void p_flags(struct sc_call *c, const struct xlat *x, uint64_t v, const char *dflt)
{
	sb_flags(c->out, x, v, dflt);
}

void p_xval(struct sc_call *c, const struct xlat *x, uint64_t v, const char *dflt)
{
	sb_xlat(c->out, x, v, dflt);
}

void p_compound(struct sc_call *c, uint64_t v, void (*abbrev)(struct sc_call *c, uint64_t v))
{
	enum xlat_style style = xlat_style;
	if (style == XLAT_STYLE_ABBREV) {
		abbrev(c, v);
		return;
	}
	out(c, v ? "%#llx" : "0", (unsigned long long)v);
	if (style == XLAT_STYLE_RAW)
		return;
	xlat_style = XLAT_STYLE_ABBREV;
	out(c, " /* ");
	abbrev(c, v);
	out(c, " */");
	xlat_style = style;
}

int p_fetch(struct sc_call *c, uint64_t addr, void *buf, size_t len)
{
	if (!addr) {
		sb_add(c->out, "NULL");
		return -1;
	}
	if ((c->fmt && c->fmt->by_addr) || sc_mem_read(c, addr, buf, len) < 0) {
		p_addr(c, addr);
		return -1;
	}
	return 0;
}

/* Count the entries of a NULL-terminated pointer array in the snapshot; -1 if not held. */
/* Elements before the NULL; *unterminated when unreadable memory came first. */
static long strv_len(struct sc_call *c, uint64_t addr, bool *unterminated)
{
	uint64_t p;
	long n = 0;
	*unterminated = false;
	for (;; n++) {
		if (sc_mem_read(c, addr + (uint64_t)n * sizeof(p), &p, sizeof(p)) < 0) {
			*unterminated = n > 0;
			return n ? n : -1;
		}
		if (!p)
			return n;
	}
}

void p_strv(struct sc_call *c, uint64_t addr)
{
	bool unterminated;
	if (!addr) {
		sb_add(c->out, "NULL");
		return;
	}
	long n = strv_len(c, addr, &unterminated);
	if (n < 0) {
		p_addr(c, addr);
		return;
	}
	sb_addc(c->out, '[');
	long i;
	for (i = 0; i < n; i++) {
		uint64_t p;
		if (i)
			p_sep(c);
		if (!c->fmt || (!c->fmt->verbose && (unsigned long)i >= strsize(c)) || p_line_full(c)) {
			sb_add(c->out, "...");
			break;
		}
		sc_mem_read(c, addr + (uint64_t)i * sizeof(p), &p, sizeof(p));
		p_str(c, p);
	}
	/* The array ran into unreadable memory: where, as strace says it. */
	if (i == n && unterminated)
		sb_printf(c->out, ", ... /* %#" PRIx64 " */", addr + (uint64_t)n * sizeof(uint64_t));
	sb_addc(c->out, ']');
}

void p_strv_count(struct sc_call *c, uint64_t addr)
{
	bool unterminated = false;
	if (c->fmt && c->fmt->verbose) {
		p_strv(c, addr);
		return;
	}
	long n = addr ? strv_len(c, addr, &unterminated) : -1;
	p_addr(c, addr);
	if (n >= 0)
		sb_printf(c->out, " /* %ld var%s%s */", n, n == 1 ? "" : "s",
			  unterminated ? ", unterminated" : "");
}

void p_iov(struct sc_call *c, uint64_t addr, uint64_t cnt, int64_t data_len)
{
	struct { uint64_t base, len; } iov;
	if (!addr) {
		sb_add(c->out, "NULL");
		return;
	}
	if (sc_mem_read(c, addr, &iov, sizeof(iov)) < 0 && cnt) {
		p_addr(c, addr);
		return;
	}
	sb_addc(c->out, '[');
	for (uint64_t i = 0; i < cnt; i++) {
		if (i)
			p_sep(c);
		/* As strace's print_array: an unreadable element ends it before the -s count does. */
		if (sc_mem_read(c, addr + i * sizeof(iov), &iov, sizeof(iov)) < 0) {
			sb_printf(c->out, "... /* %#" PRIx64 " */", addr + i * sizeof(iov));
			break;
		}
		if ((i >= strsize(c) && !(c->fmt && c->fmt->verbose)) || i >= SC_VEC_MAX ||
		    p_line_full(c)) {
			sb_add(c->out, "...");
			break;
		}
		sb_add(c->out, "{iov_base=");
		if (data_len == SC_IOV_ADDR_ONLY) {
			p_addr(c, iov.base);
		} else {
			/* data_len < 0: the kernel read every byte (writev at entry). */
			uint64_t show = (data_len < 0 || (uint64_t)data_len > iov.len) ? iov.len
										: (uint64_t)data_len;
			p_buf(c, iov.base, show > INT64_MAX ? INT64_MAX : (int64_t)show);
			if (data_len > 0)
				data_len -= (int64_t)show;
		}
		sb_printf(c->out, ", iov_len=%" PRIu64 "}", iov.len);
	}
	sb_addc(c->out, ']');
}

void p_signal(struct sc_call *c, uint64_t sig)
{
	const char *s = sc_signame((int)sig);
	if (s)
		sb_add(c->out, s);
	else if ((int)sig == 32)
		sb_add(c->out, "SIGRTMIN");
	else if ((int)sig > 32 && (int)sig <= 64)
		sb_printf(c->out, "SIGRT_%d", (int)sig - 32);
	else
		sb_printf(c->out, "%d", (int)sig);
}

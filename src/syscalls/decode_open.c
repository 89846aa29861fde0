/*
 * Opening files: open, openat, openat2, creat, memfd_create and the file
 * handle calls.  Each returns a new descriptor (shown with its path by -y).
 */
#include <fcntl.h>
#include <inttypes.h>
#include <linux/openat2.h>
#include <stdlib.h>

#include "util/die.h"
#include <string.h>

#include "decoder.h"
#include "print_stat.h"

/* glibc's __O_TMPFILE includes O_DIRECTORY: test the tmpfile bit alone. */
#define O_TMPFILE_BIT (O_TMPFILE & ~O_DIRECTORY)
#define HANDLE_HDR 8		/* struct file_handle: handle_bytes, handle_type */
#define HANDLE_MAX 128		/* MAX_HANDLE_SZ */

/* O_RDONLY|O_CLOEXEC: the access mode is a value, the rest are flags. */
static void p_open_flags(struct sc_call *c, uint64_t flags)
{
	if (xlat_style != XLAT_STYLE_ABBREV) {
		/* -X raw: the number; -X verbose: the number and the names as a comment */
		sb_printf(c->out, flags ? "%#" PRIx64 : "0", flags);
		if (xlat_style == XLAT_STYLE_VERBOSE) {
			xlat_style = XLAT_STYLE_ABBREV;
			out(c, " /* ");
			p_open_flags(c, flags);
			out(c, " */");
			xlat_style = XLAT_STYLE_VERBOSE;
		}
		return;
	}
	p_xval(c, &xlat_open_access_modes, flags & O_ACCMODE, NULL);
	flags &= ~(uint64_t)O_ACCMODE;
	if (flags) {
		out(c, "|");
		p_flags(c, &xlat_open_flags, flags, NULL);
	}
}

/* The mode matters only when the call may create a file. */
static void p_open_tail(struct sc_call *c, uint64_t flags, uint64_t mode)
{
	p_open_flags(c, flags);
	if (flags & (O_CREAT | O_TMPFILE_BIT)) {
		p_sep(c);
		p_oct(c, (uint16_t)mode);	/* umode_t */
	}
}

SC_DECODER(open, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_open_tail(c, (unsigned)c->args[1], c->args[2]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(openat, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_open_tail(c, (unsigned)c->args[2], c->args[3]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(creat, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_oct(c, (uint16_t)c->args[1]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

/* struct open_how: the mode only when it may create a file or is set. */
static void p_open_how(struct sc_call *c, uint64_t addr, uint64_t size)
{
	struct open_how how;
	if (size < sizeof(how)) {
		p_addr(c, addr);
		return;
	}
	if (p_fetch(c, addr, &how, sizeof(how)) < 0)
		return;
	out(c, "{flags=");
	p_open_flags(c, how.flags);
	if ((how.flags & (O_CREAT | O_TMPFILE_BIT)) || how.mode) {
		out(c, ", mode=");
		p_oct(c, how.mode);
	}
	out(c, ", resolve=");
	p_flags(c, &xlat_resolve_flags, how.resolve, "RESOLVE_???");
	p_struct_tail(c, addr, sizeof(how), size);
	out(c, "}");
}

/* struct open_how and the bytes a newer caller put past it, up to a page. */
static size_t open_how_len(const struct sc_call *c)
{
	return c->args[3] < SC_STRUCT_TAIL_MAX ? c->args[3] : SC_STRUCT_TAIL_MAX;
}

SC_DECODER(openat2, MEM_PATH(1), MEM_FN(2, SC_MEM_BUF, SC_AT_ENTRY, open_how_len))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_open_how(c, c->args[2], c->args[3]);
	out(c, ", %" PRIu64, c->args[3]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

/* The flags print in hex only when none are set: "0x0" is not strace's style. */
#define MFD_NAME_MAX_LEN_ (255 - 6)	/* 255 minus "memfd:" */

#define MFD_HUGE_BITS_ (0x3fu << 26)	/* MFD_HUGE_MASK << MFD_HUGE_SHIFT */

/* MFD_CLOEXEC|MFD_HUGETLB|21<<MFD_HUGE_SHIFT */
static void sb_memfd_flags(struct strbuf *sb, uint64_t v, const void *unused)
{
	unsigned flags = (unsigned)v & ~MFD_HUGE_BITS_;
	(void)unused;
	if (flags) {
		sb_flags(sb, &xlat_memfd_flags, flags, "MFD_???");
		sb_addc(sb, '|');
	}
	sb_printf(sb, "%u<<MFD_HUGE_SHIFT", ((unsigned)v & MFD_HUGE_BITS_) >> 26);
}

SC_DECODER(memfd_create, MEM_STR_IN(0))
{
	p_str_max(c, c->args[0], MFD_NAME_MAX_LEN_ + 1);
	p_sep(c);
	unsigned flags = (unsigned)c->args[1];
	if (flags & MFD_HUGE_BITS_)
		sb_xparts(c->out, flags, sb_memfd_flags, NULL);
	else if (!flags)
		out(c, "0");
	else
		p_flags(c, &xlat_memfd_flags, flags, "MFD_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

/* handle_bytes at entry; at exit the size the kernel wanted, the type and the handle. */
static void p_handle_exit(struct sc_call *c, uint64_t addr, unsigned asked)
{
	unsigned char h[HANDLE_HDR + HANDLE_MAX];
	const unsigned char *p;
	bool ok = !sc_failed(c) || -c->ret == 75;	/* EOVERFLOW says the size needed */
	long n = ok ? sc_mem_peek(c, addr, sizeof(h), &p) : -1;
	if (n >= HANDLE_HDR) {
		uint32_t bytes;
		int32_t type;
		/* The snapshot holds bytes, not aligned structs. */
		memcpy(&bytes, p, sizeof(bytes));
		memcpy(&type, p + 4, sizeof(type));
		if (bytes != asked)
			out(c, " => %u", bytes);
		if (!sc_failed(c)) {
			out(c, ", handle_type=%d, f_handle=", type);
			unsigned len = bytes < HANDLE_MAX ? bytes : HANDLE_MAX;
			if ((unsigned long)n >= HANDLE_HDR + len)
				p_hex_bytes(c, p + HANDLE_HDR, len, bytes > len);
			else
				out(c, "???");
		}
	}
	out(c, "}");
}

SC_DECODER(name_to_handle_at, MEM_PATH(1), MEM_BYTES_INOUT(2, HANDLE_HDR + HANDLE_MAX),
	   MEM_BYTES_OUT(3, sizeof(int)))
{
	uint32_t bytes;
	if (c->entering) {
		p_dirfd_path(c, c->args[0], c->args[1]);
		p_sep(c);
		if (p_fetch(c, c->args[2], &bytes, sizeof(bytes)) < 0) {
			p_sep(c);
			p_addr(c, c->args[3]);
			p_sep(c);
			p_flags(c, &xlat_at_flags, (unsigned)c->args[4], "AT_???");
			return SC_DONE;
		}
		out(c, "{handle_bytes=%u", bytes);
		c->priv = xmalloc(sizeof(bytes));
		*(uint32_t *)c->priv = bytes;
		return 0;
	}
	p_handle_exit(c, c->args[2], c->priv ? *(uint32_t *)c->priv : 0);
	p_sep(c);
	p_int_ptr(c, c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_at_flags, (unsigned)c->args[4], "AT_???");
	return 0;
}

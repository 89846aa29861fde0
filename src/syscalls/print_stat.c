/*
 * File modes, device numbers, struct stat and the wall-clock comments
 * strace prints after file timestamps.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "print_stat.h"

bool sc_verbose(const struct sc_call *c)
{
	return c->fmt && c->fmt->verbose;
}

/* S_IFREG|0644; the set-id and sticky bits by name once a type is known. */
void p_mode(struct sc_call *c, uint64_t mode)
{
	unsigned m = (unsigned)mode;
	const char *type = "";
	if (m & S_IFMT)
		type = xlat_str(&xlat_file_types, m & S_IFMT);
	if (!type) {
		out(c, "%#03o", m);
		return;
	}
	out(c, "%s%s%s%s%s%#03o", type, type[0] ? "|" : "",
	    (m & S_ISUID) ? "S_ISUID|" : "", (m & S_ISGID) ? "S_ISGID|" : "",
	    (m & S_ISVTX) ? "S_ISVTX|" : "", m & ~(unsigned)(S_IFMT | S_ISUID | S_ISGID | S_ISVTX));
}

void p_dev(struct sc_call *c, uint64_t dev)
{
	out(c, "makedev(%#x, %#x)", major(dev), minor(dev));
}

void p_time_comment(struct sc_call *c, int64_t sec, uint64_t frac, int digits)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char buf[64];
	uint64_t limit = 1;
	for (int i = 0; i < digits; i++)
		limit *= 10;
	if (frac >= limit && (digits || frac))	/* not a valid fraction: no date */
		return;
	if (sec == 0 && frac == 0)	/* strace gives the epoch itself no date */
		return;
	if (!localtime_r(&t, &tm) || !strftime(buf, sizeof(buf), "%FT%T", &tm))
		return;
	out(c, " /* %s", buf);
	if (frac)
		out(c, ".%0*" PRIu64, digits, frac);
	if (strftime(buf, sizeof(buf), "%z", &tm))
		out(c, "%s", buf);
	out(c, " */");
}

void p_dirfd_path(struct sc_call *c, uint64_t dirfd, uint64_t path)
{
	p_dirfd(c, dirfd);
	p_sep(c);
	p_path(c, path);
}

static void p_stat_time(struct sc_call *c, const char *name, int64_t sec, uint64_t nsec)
{
	out(c, ", st_%s=%" PRId64, name, sec);
	p_time_comment(c, sec, nsec, 9);
	out(c, ", st_%s_nsec=%" PRIu64, name, nsec);
}

void p_struct_stat(struct sc_call *c, uint64_t addr)
{
	struct stat st;
	if (p_fetch(c, addr, &st, sizeof(st)) < 0)
		return;
	bool v = sc_verbose(c);
	out(c, "{");
	if (v) {
		out(c, "st_dev=");
		p_dev(c, st.st_dev);
		out(c, ", st_ino=%" PRIu64 ", ", (uint64_t)st.st_ino);
	}
	out(c, "st_mode=");
	p_mode(c, st.st_mode);
	if (v)
		out(c, ", st_nlink=%" PRIu64 ", st_uid=%u, st_gid=%u, st_blksize=%ld, st_blocks=%ld",
		    (uint64_t)st.st_nlink, st.st_uid, st.st_gid, (long)st.st_blksize,
		    (long)st.st_blocks);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
		out(c, ", st_rdev=");
		p_dev(c, st.st_rdev);
	} else {
		out(c, ", st_size=%" PRIu64, (uint64_t)st.st_size);
	}
	if (!v) {
		out(c, ", ...}");
		return;
	}
	p_stat_time(c, "atime", st.st_atim.tv_sec, (uint64_t)st.st_atim.tv_nsec);
	p_stat_time(c, "mtime", st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec);
	p_stat_time(c, "ctime", st.st_ctim.tv_sec, (uint64_t)st.st_ctim.tv_nsec);
	out(c, "}");
}

void p_stat_or_addr(struct sc_call *c, uint64_t addr)
{
	if (sc_failed(c))
		p_addr(c, addr);
	else
		p_struct_stat(c, addr);
}

void p_int_ptr(struct sc_call *c, uint64_t addr)
{
	int v;
	if (p_fetch(c, addr, &v, sizeof(v)) == 0)
		out(c, "[%d]", v);
}

void p_s64_ptr(struct sc_call *c, uint64_t addr)
{
	int64_t v;
	if (p_fetch(c, addr, &v, sizeof(v)) == 0)
		out(c, "[%" PRId64 "]", v);
}

void p_u64_ptr(struct sc_call *c, uint64_t addr)
{
	uint64_t v;
	if (p_fetch(c, addr, &v, sizeof(v)) == 0)
		out(c, "[%" PRIu64 "]", v);
}

void p_hex_bytes(struct sc_call *c, const unsigned char *s, size_t n, bool ellipsis)
{
	struct sc_fmt fmt = c->fmt ? *c->fmt : (struct sc_fmt){ .strsize = 32 };
	const struct sc_fmt *saved = c->fmt;
	fmt.xflag = 2;
	c->fmt = &fmt;
	p_quoted(c, s, n, ellipsis);
	c->fmt = saved;
}

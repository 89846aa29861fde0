/*
 * The file system namespace: access checks, directories, names and links,
 * permissions and owners, times, device nodes, directory listings,
 * extended attributes, inotify/fanotify and mounts.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>

#include "decoder.h"
#include "print_stat.h"

#define XATTR_SIZE_MAX 65536
#define DIRENT_CAP (64u * 1024)	/* bytes of a directory listing copied for -v */

/* ---- access and directories ---------------------------------------------- */

SC_DECODER(access, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_access_modes, (unsigned)c->args[1], "?_OK");
	return SC_DONE;
}

SC_DECODER(faccessat, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_access_modes, (unsigned)c->args[2], "?_OK");
	return SC_DONE;
}

SC_DECODER(faccessat2, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_access_modes, (unsigned)c->args[2], "?_OK");
	p_sep(c);
	p_flags(c, &xlat_at_eaccess_flags, (unsigned)c->args[3], "AT_???");
	return SC_DONE;
}

/* mkdir, chmod: a path and a mode in octal. */
SC_DECODER(mkdir, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_oct(c, (uint16_t)c->args[1]);
	return SC_DONE;
}

/* mkdirat, fchmodat: dirfd, path and a mode in octal. */
SC_DECODER(mkdirat, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_oct(c, (uint16_t)c->args[2]);
	return SC_DONE;
}

SC_DECODER(fchmodat2, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_oct(c, (uint16_t)c->args[2]);
	p_sep(c);
	p_flags(c, &xlat_at_flags, (unsigned)c->args[3], "AT_???");
	return SC_DONE;
}

SC_DECODER(fchmod)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_oct(c, (uint16_t)c->args[1]);
	return SC_DONE;
}

/* unlink, rmdir, chdir, chroot: one path. */
SC_DECODER(unlink, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	return SC_DONE;
}

SC_DECODER(unlinkat, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_at_flags, (unsigned)c->args[2], "AT_???");
	return SC_DONE;
}

SC_DECODER(umask)
{
	p_oct(c, (uint16_t)c->args[0]);
	c->rv = SC_RV_OCT;
	return SC_DONE;
}

SC_DECODER(getcwd, { .arg = 0, .kind = SC_MEM_STR, .when = SC_AT_EXIT, .len_src = SC_LEN_PATH })
{
	if (c->entering)
		return 0;
	if (sc_failed(c))
		p_addr(c, c->args[0]);
	else
		p_path(c, c->args[0]);
	out(c, ", %" PRIu64, c->args[1]);
	return 0;
}

/* ---- names and links ----------------------------------------------------- */

/* rename, link, symlink, pivot_root: two paths. */
SC_DECODER(rename, MEM_PATH(0), MEM_PATH(1))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_path(c, c->args[1]);
	return SC_DONE;
}

SC_DECODER(renameat, MEM_PATH(1), MEM_PATH(3))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_dirfd_path(c, c->args[2], c->args[3]);
	return SC_DONE;
}

SC_DECODER(renameat2, MEM_PATH(1), MEM_PATH(3))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_dirfd_path(c, c->args[2], c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_rename_flags, (unsigned)c->args[4], "RENAME_???");
	return SC_DONE;
}

SC_DECODER(linkat, MEM_PATH(1), MEM_PATH(3))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_dirfd_path(c, c->args[2], c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_at_flags, (unsigned)c->args[4], "AT_???");
	return SC_DONE;
}

SC_DECODER(symlinkat, MEM_PATH(0), MEM_PATH(2))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_dirfd_path(c, c->args[1], c->args[2]);
	return SC_DONE;
}

SC_DECODER(readlink, MEM_PATH(0), MEM_BUF_OUT_RET(1))
{
	if (c->entering) {
		p_path(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_buf_or_addr(c, c->args[1], c->ret);
	out(c, ", %" PRIu64, c->args[2]);
	return 0;
}

SC_DECODER(readlinkat, MEM_PATH(1), MEM_BUF_OUT_RET(2))
{
	if (c->entering) {
		p_dirfd_path(c, c->args[0], c->args[1]);
		p_sep(c);
		return 0;
	}
	p_buf_or_addr(c, c->args[2], c->ret);
	out(c, ", %" PRIu64, c->args[3]);
	return 0;
}

/* ---- owners -------------------------------------------------------------- */

/* chown, lchown: -1 keeps an id, and prints as -1. */
/* uid and gid: unsigned, but the "unchanged" -1 as -1 (strace's printuid). */
static void p_uid_gid(struct sc_call *c, uint64_t uid, uint64_t gid)
{
	unsigned ids[2] = { (unsigned)uid, (unsigned)gid };
	for (int i = 0; i < 2; i++) {
		if (ids[i] == (unsigned)-1)
			out(c, ", -1");
		else
			out(c, ", %u", ids[i]);
	}
}

SC_DECODER(chown, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_uid_gid(c, c->args[1], c->args[2]);
	return SC_DONE;
}

SC_DECODER(fchown)
{
	p_fd(c, c->args[0]);
	p_uid_gid(c, c->args[1], c->args[2]);
	return SC_DONE;
}

SC_DECODER(fchownat, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_uid_gid(c, c->args[2], c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_at_flags, (unsigned)c->args[4], "AT_???");
	return SC_DONE;
}

/* ---- times --------------------------------------------------------------- */

#define UTIME_NOW_ ((1l << 30) - 1l)
#define UTIME_OMIT_ ((1l << 30) - 2l)

static void p_utime_ts(struct sc_call *c, const struct timespec *t)
{
	const char *special = t->tv_nsec == UTIME_NOW_ ? "UTIME_NOW" :
			      t->tv_nsec == UTIME_OMIT_ ? "UTIME_OMIT" : NULL;
	if (special) {
		/* -X raw and verbose show the struct; verbose names it in a comment. */
		if (xlat_style == XLAT_STYLE_ABBREV) {
			out(c, "%s", special);
			return;
		}
		out(c, "{tv_sec=%lld, tv_nsec=%llu}", (long long)t->tv_sec,
		    (unsigned long long)t->tv_nsec);
		if (xlat_style == XLAT_STYLE_VERBOSE)
			out(c, " /* %s */", special);
		return;
	}
	out(c, "{tv_sec=%lld, tv_nsec=%llu}", (long long)t->tv_sec, (unsigned long long)t->tv_nsec);
	p_time_comment(c, t->tv_sec, (uint64_t)t->tv_nsec, 9);
}

SC_DECODER(utimensat, MEM_PATH(1), MEM_BYTES_IN(2, 2 * sizeof(struct timespec)))
{
	struct timespec ts[2];
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	if (p_fetch(c, c->args[2], ts, sizeof(ts)) == 0) {
		out(c, "[");
		p_utime_ts(c, &ts[0]);
		p_sep(c);
		p_utime_ts(c, &ts[1]);
		out(c, "]");
	}
	p_sep(c);
	p_flags(c, &xlat_at_flags, (unsigned)c->args[3], "AT_???");
	return SC_DONE;
}

static void p_timeval_pair(struct sc_call *c, uint64_t addr)
{
	struct timeval tv[2];
	if (p_fetch(c, addr, tv, sizeof(tv)) < 0)
		return;
	for (int i = 0; i < 2; i++) {
		out(c, "%s{tv_sec=%lld, tv_usec=%llu}", i ? ", " : "[", (long long)tv[i].tv_sec,
		    (unsigned long long)tv[i].tv_usec);
		p_time_comment(c, tv[i].tv_sec, (uint64_t)tv[i].tv_usec, 6);
	}
	out(c, "]");
}

SC_DECODER(utimes, MEM_PATH(0), MEM_BYTES_IN(1, 2 * sizeof(struct timeval)))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_timeval_pair(c, c->args[1]);
	return SC_DONE;
}

/* struct utimbuf: two longs, each with its date when it is one. */
SC_DECODER(utime, MEM_PATH(0), MEM_BYTES_IN(1, 2 * sizeof(int64_t)))
{
	int64_t t[2];
	p_path(c, c->args[0]);
	p_sep(c);
	if (p_fetch(c, c->args[1], t, sizeof(t)) < 0)
		return SC_DONE;
	out(c, "{actime=%" PRId64, t[0]);
	p_time_comment(c, t[0], 0, 0);
	out(c, ", modtime=%" PRId64, t[1]);
	p_time_comment(c, t[1], 0, 0);
	out(c, "}");
	return SC_DONE;
}

SC_DECODER(futimesat, MEM_PATH(1), MEM_BYTES_IN(2, 2 * sizeof(struct timeval)))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_timeval_pair(c, c->args[2]);
	return SC_DONE;
}

/* ---- device nodes -------------------------------------------------------- */

static void p_mknod_tail(struct sc_call *c, uint64_t mode, uint64_t dev)
{
	p_mode(c, (uint16_t)mode);	/* umode_t */
	unsigned type = (unsigned)mode & S_IFMT;
	if (type == S_IFCHR || type == S_IFBLK) {
		p_sep(c);
		p_dev(c, (unsigned)dev);	/* the kernel takes 32 bits */
	}
}

SC_DECODER(mknod, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_mknod_tail(c, c->args[1], c->args[2]);
	return SC_DONE;
}

SC_DECODER(mknodat, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_mknod_tail(c, c->args[2], c->args[3]);
	return SC_DONE;
}

/* ---- directory listings -------------------------------------------------- */

/* The two dirent layouts: where the name starts and where d_type lives. */
struct dent_layout {
	unsigned header;	/* offsetof(d_name) */
	bool v64;		/* linux_dirent64: d_type before the name; else after it */
};

static const struct dent_layout dent64 = { 19, true };
static const struct dent_layout dent_old = { 18, false };

struct dent_head {
	uint64_t ino, off;
	unsigned reclen;
};

static void dent_head(const unsigned char *p, struct dent_head *h)
{
	memcpy(&h->ino, p, 8);
	memcpy(&h->off, p + 8, 8);
	uint16_t r;
	memcpy(&r, p + 16, 2);
	h->reclen = r;
}

/* d_name: up to its NUL within len bytes. */
static void p_dent_name(struct sc_call *c, const unsigned char *p, size_t len)
{
	const unsigned char *nul = memchr(p, 0, len);
	out(c, ", d_name=");
	p_quoted(c, p, nul ? (size_t)(nul - p) : len, false);
}

static void p_dent_tail(struct sc_call *c, const unsigned char *p, unsigned reclen,
			const struct dent_layout *l)
{
	unsigned tail = reclen - l->header;
	if (l->v64) {
		out(c, ", d_type=");
		p_xval(c, &xlat_dirent_types, p[18], "DT_???");
		if (tail)
			p_dent_name(c, p + l->header, tail - 1);
	} else if (tail) {
		if (tail > 1)
			p_dent_name(c, p + l->header, tail - 1);
		out(c, ", d_type=");
		p_xval(c, &xlat_dirent_types, p[reclen - 1], "DT_???");
	}
	out(c, "}");
}

/* Without -v: the address and a count; with -v every entry. */
static void p_dents(struct sc_call *c, uint64_t addr, size_t len, const struct dent_layout *l)
{
	const unsigned char *p;
	bool v = sc_verbose(c);
	long held = len ? sc_mem_peek(c, addr, len, &p) : 0;
	if (held < 0 || (size_t)held < len) {
		p_addr(c, addr);
		return;
	}
	unsigned count = 0;
	if (!v)
		p_addr(c, addr);
	else
		out(c, "[");
	while (len >= l->header) {
		struct dent_head h;
		dent_head(p, &h);
		if (h.reclen > len)
			h.reclen = (unsigned)len;
		if (h.reclen < l->header)
			h.reclen = l->header;
		if (v) {
			out(c, "%s{d_ino=%" PRIu64 ", d_off=%" PRIu64 ", d_reclen=%u", count ? ", " : "",
			    h.ino, h.off, h.reclen);
			p_dent_tail(c, p, h.reclen, l);
		}
		count++;
		p += h.reclen;
		len -= h.reclen;
	}
	if (v)
		out(c, "]");
	else
		out(c, " /* %u%s entries */", count, len ? "+" : "");
}

static int getdents_common(struct sc_call *c, const struct dent_layout *l)
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	unsigned count = (unsigned)c->args[2];
	if (sc_failed(c) || (uint64_t)c->ret > count)
		p_addr(c, c->args[1]);
	else
		p_dents(c, c->args[1], (size_t)c->ret, l);
	out(c, ", %u", count);
	return 0;
}

#define MEM_DENTS(a) \
	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_RET, .size = DIRENT_CAP }

SC_DECODER(getdents64, MEM_DENTS(1))
{
	return getdents_common(c, &dent64);
}

SC_DECODER(getdents, MEM_DENTS(1))
{
	return getdents_common(c, &dent_old);
}

/* ---- extended attributes ------------------------------------------------- */

/* A value of size bytes: strace drops one trailing NUL from the text. */
static void p_xattr_value(struct sc_call *c, uint64_t addr, uint64_t size)
{
	const unsigned char *p = NULL;
	unsigned max = c->fmt ? c->fmt->strsize : 32;
	if (size > XATTR_SIZE_MAX || !addr) {
		p_addr(c, addr);
		return;
	}
	size_t want = size < max ? (size_t)size : max;
	long n = want ? sc_mem_peek(c, addr, want, &p) : 0;
	if (n < 0 || (size_t)n < want) {
		p_addr(c, addr);
		return;
	}
	size_t show = want;
	if (show && show == size && p[show - 1] == '\0')
		show--;
	p_quoted(c, p, show, size > want);
}

static void p_xattr_set_tail(struct sc_call *c)
{
	p_sep(c);
	p_str(c, c->args[1]);
	p_sep(c);
	p_xattr_value(c, c->args[2], c->args[3]);
	out(c, ", %" PRIu64 ", ", c->args[3]);
	p_flags(c, &xlat_xattr_flags, (unsigned)c->args[4], "XATTR_???");
}

/* setxattr, lsetxattr */
SC_DECODER(setxattr, MEM_PATH(0), MEM_STR_IN(1), MEM_BUF_IN(2, 3))
{
	p_path(c, c->args[0]);
	p_xattr_set_tail(c);
	return SC_DONE;
}

SC_DECODER(fsetxattr, MEM_STR_IN(1), MEM_BUF_IN(2, 3))
{
	p_fd(c, c->args[0]);
	p_xattr_set_tail(c);
	return SC_DONE;
}

static void p_xattr_get_tail(struct sc_call *c)
{
	p_xattr_value(c, c->args[2], sc_failed(c) ? UINT64_MAX : (uint64_t)c->ret);
	out(c, ", %" PRIu64, c->args[3]);
}

/* getxattr, lgetxattr */
SC_DECODER(getxattr, MEM_PATH(0), MEM_STR_IN(1), MEM_BUF_OUT_RET(2))
{
	if (c->entering) {
		p_path(c, c->args[0]);
		p_sep(c);
		p_str(c, c->args[1]);
		p_sep(c);
		return 0;
	}
	p_xattr_get_tail(c);
	return 0;
}

SC_DECODER(fgetxattr, MEM_STR_IN(1), MEM_BUF_OUT_RET(2))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		p_str(c, c->args[1]);
		p_sep(c);
		return 0;
	}
	p_xattr_get_tail(c);
	return 0;
}

static void p_xattr_list(struct sc_call *c)
{
	if (!c->args[2] || sc_failed(c))
		p_addr(c, c->args[1]);
	else
		p_buf(c, c->args[1], c->ret);
	out(c, ", %" PRIu64, c->args[2]);
}

/* listxattr, llistxattr */
SC_DECODER(listxattr, MEM_PATH(0), MEM_BUF_OUT_RET(1))
{
	if (c->entering) {
		p_path(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_xattr_list(c);
	return 0;
}

SC_DECODER(flistxattr, MEM_BUF_OUT_RET(1))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_xattr_list(c);
	return 0;
}

/* removexattr, lremovexattr */
SC_DECODER(removexattr, MEM_PATH(0), MEM_STR_IN(1))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_str(c, c->args[1]);
	return SC_DONE;
}

SC_DECODER(fremovexattr, MEM_STR_IN(1))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_str(c, c->args[1]);
	return SC_DONE;
}

/* ---- inotify and fanotify ------------------------------------------------ */

SC_DECODER(inotify_init)
{
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(inotify_init1)
{
	p_flags(c, &xlat_inotify_init_flags, (unsigned)c->args[0], "IN_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(inotify_add_watch, MEM_PATH(1))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_path(c, c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_inotify_masks, (unsigned)c->args[2], "IN_???");
	return SC_DONE;
}

SC_DECODER(inotify_rm_watch)
{
	p_fd(c, c->args[0]);
	out(c, ", %d", (int)c->args[1]);
	return SC_DONE;
}

#define FAN_CLASS_BITS 0xcu

SC_DECODER(fanotify_init)
{
	unsigned flags = (unsigned)c->args[0];
	p_xval(c, &xlat_fan_classes, flags & FAN_CLASS_BITS, "FAN_CLASS_???");
	flags &= ~FAN_CLASS_BITS;
	if (flags) {
		out(c, "|");
		p_flags(c, &xlat_fan_init_flags, flags, "FAN_???");
	}
	p_sep(c);
	unsigned ff = (unsigned)c->args[1];
	p_xval(c, &xlat_open_access_modes, ff & O_ACCMODE, NULL);
	if (ff & ~(unsigned)O_ACCMODE) {
		out(c, "|");
		p_flags(c, &xlat_open_flags, ff & ~(unsigned)O_ACCMODE, NULL);
	}
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(fanotify_mark, MEM_PATH(4))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_fan_mark_flags, (unsigned)c->args[1], "FAN_MARK_???");
	p_sep(c);
	p_flags(c, &xlat_fan_event_flags, c->args[2], "FAN_???");
	p_sep(c);
	if ((int)c->args[3] == -1)
		sb_xlat_d(c->out, &xlat_fan_nofd, -1, NULL);
	else
		p_dirfd(c, c->args[3]);
	p_sep(c);
	p_path(c, c->args[4]);
	return SC_DONE;
}

/* ---- mounts -------------------------------------------------------------- */

#define MS_MGC_VAL_ 0xc0ed0000u
#define MS_MGC_MSK_ 0xffff0000u
/* Propagation and bind changes ignore the type and the data; remounts the type. */
#define MS_NO_DATA_ ((1u << 12) | (1u << 13) | (1u << 20) | (1u << 18) | (1u << 19) | (1u << 17))

SC_DECODER(mount, MEM_PATH(0), MEM_PATH(1), MEM_STR_IN(2), MEM_STR_IN(4))
{
	uint64_t flags = c->args[3];
	bool magic = (flags & MS_MGC_MSK_) == MS_MGC_VAL_;
	if (magic)
		flags &= ~(uint64_t)MS_MGC_MSK_;
	bool no_type = flags & (1u << 5);	/* MS_REMOUNT */
	bool no_data = !no_type && (flags & MS_NO_DATA_);
	p_path(c, c->args[0]);
	p_sep(c);
	p_path(c, c->args[1]);
	p_sep(c);
	if (no_type || no_data)
		p_addr(c, c->args[2]);
	else
		p_str(c, c->args[2]);
	p_sep(c);
	if (magic) {
		p_xval(c, &xlat_mount_magic, MS_MGC_VAL_, NULL);
		if (flags)
			out(c, "|");
	}
	if (flags || !magic)
		p_flags(c, &xlat_mount_flags, flags, "MS_???");
	p_sep(c);
	if (no_data)
		p_addr(c, c->args[4]);
	else
		p_str(c, c->args[4]);
	return SC_DONE;
}

SC_DECODER(umount2, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_umount_flags, (unsigned)c->args[1], "MNT_???");
	return SC_DONE;
}

/* lookup_dcookie: all at exit, the path the kernel wrote as a buffer of ret bytes. */
SC_DECODER(lookup_dcookie, MEM_BUF_OUT_RET(1))
{
	if (c->entering)
		return 0;
	out(c, "%llu, ", (unsigned long long)c->args[0]);
	p_buf_or_addr(c, c->args[1], c->ret);
	out(c, ", %llu", (unsigned long long)c->args[2]);
	return 0;
}

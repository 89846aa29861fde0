/*
 * File status: the stat family, statx and statfs.  Without -v strace
 * abbreviates the structs to the fields people read first, then "...".
 */
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>

#include "decoder.h"
#include "print_stat.h"

#define AT_STATX_SYNC_MASK 0x6000
#define ST_VALID 0x0020		/* the kernel sets it when f_flags is meaningful */

SC_DECODER(stat, MEM_PATH(0), MEM_STRUCT_OUT(1, struct stat))
{
	if (c->entering) {
		p_path(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_stat_or_addr(c, c->args[1]);
	return 0;
}

SC_DECODER(fstat, MEM_STRUCT_OUT(1, struct stat))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_stat_or_addr(c, c->args[1]);
	return 0;
}

SC_DECODER(newfstatat, MEM_PATH(1), MEM_STRUCT_OUT(2, struct stat))
{
	if (c->entering) {
		p_dirfd_path(c, c->args[0], c->args[1]);
		p_sep(c);
		return 0;
	}
	p_stat_or_addr(c, c->args[2]);
	p_sep(c);
	p_flags(c, &xlat_at_flags, (unsigned)c->args[3], "AT_???");
	return 0;
}

static void p_statx_ts(struct sc_call *c, const char *name, const struct statx_timestamp *t)
{
	out(c, ", stx_%s={tv_sec=%" PRId64 ", tv_nsec=%u}", name, (int64_t)t->tv_sec, t->tv_nsec);
	p_time_comment(c, t->tv_sec, t->tv_nsec, 9);
}

/* The fields -v adds after the size: blocks, attribute mask, times, devices. */
static void p_statx_tail(struct sc_call *c, const struct statx *s)
{
	if (s->stx_mask & STATX_BLOCKS)
		out(c, ", stx_blocks=%" PRIu64, (uint64_t)s->stx_blocks);
	out(c, ", stx_attributes_mask=");
	p_flags(c, &xlat_statx_attrs, s->stx_attributes_mask, "STATX_ATTR_???");
	if (s->stx_mask & STATX_ATIME)
		p_statx_ts(c, "atime", &s->stx_atime);
	if (s->stx_mask & STATX_BTIME)
		p_statx_ts(c, "btime", &s->stx_btime);
	if (s->stx_mask & STATX_CTIME)
		p_statx_ts(c, "ctime", &s->stx_ctime);
	if (s->stx_mask & STATX_MTIME)
		p_statx_ts(c, "mtime", &s->stx_mtime);
	out(c, ", stx_rdev_major=%u, stx_rdev_minor=%u, stx_dev_major=%u, stx_dev_minor=%u",
	    s->stx_rdev_major, s->stx_rdev_minor, s->stx_dev_major, s->stx_dev_minor);
	if (s->stx_mask & 0x1000)	/* STATX_MNT_ID */
		out(c, ", stx_mnt_id=%#" PRIx64, (uint64_t)s->stx_mnt_id);
	if (s->stx_mask & 0x2000) {	/* STATX_DIOALIGN: the two words after stx_mnt_id */
		const uint32_t *dio = (const uint32_t *)((const char *)&s->stx_mnt_id + 8);
		out(c, ", stx_dio_mem_align=%u, stx_dio_offset_align=%u", dio[0], dio[1]);
	}
}

static void p_statx(struct sc_call *c, uint64_t addr)
{
	struct statx s;
	if (p_fetch(c, addr, &s, sizeof(s)) < 0)
		return;
	bool v = sc_verbose(c);
	out(c, "{stx_mask=");
	p_flags(c, &xlat_statx_masks, s.stx_mask, "STATX_???");
	if (v)
		out(c, ", stx_blksize=%u", s.stx_blksize);
	out(c, ", stx_attributes=");
	p_flags(c, &xlat_statx_attrs, s.stx_attributes, "STATX_ATTR_???");
	if (v && (s.stx_mask & STATX_NLINK))
		out(c, ", stx_nlink=%u", s.stx_nlink);
	if (v && (s.stx_mask & STATX_UID))
		out(c, ", stx_uid=%u", s.stx_uid);
	if (v && (s.stx_mask & STATX_GID))
		out(c, ", stx_gid=%u", s.stx_gid);
	if (s.stx_mask & (STATX_TYPE | STATX_MODE)) {
		out(c, ", stx_mode=");
		p_mode(c, s.stx_mode);
	}
	if (v && (s.stx_mask & STATX_INO))
		out(c, ", stx_ino=%" PRIu64, (uint64_t)s.stx_ino);
	if (s.stx_mask & STATX_SIZE)
		out(c, ", stx_size=%" PRIu64, (uint64_t)s.stx_size);
	if (v)
		p_statx_tail(c, &s);
	else
		out(c, ", ...");
	out(c, "}");
}

SC_DECODER(statx, MEM_PATH(1), MEM_STRUCT_OUT(4, struct statx))
{
	if (c->entering) {
		unsigned flags = (unsigned)c->args[2];
		p_dirfd_path(c, c->args[0], c->args[1]);
		p_sep(c);
		p_flags(c, &xlat_statx_sync_types, flags & AT_STATX_SYNC_MASK, NULL);
		flags &= ~AT_STATX_SYNC_MASK;
		if (flags) {
			out(c, "|");
			p_flags(c, &xlat_at_flags, flags, NULL);
		}
		p_sep(c);
		p_flags(c, &xlat_statx_masks, (unsigned)c->args[3], "STATX_???");
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[4]);
	else
		p_statx(c, c->args[4]);
	return 0;
}

static void p_statfs(struct sc_call *c, uint64_t addr)
{
	struct statfs b;
	if (sc_failed(c)) {
		p_addr(c, addr);
		return;
	}
	if (p_fetch(c, addr, &b, sizeof(b)) < 0)
		return;
	int fsid[2];
	memcpy(fsid, &b.f_fsid, sizeof(fsid));
	out(c, "{f_type=");
	p_xval(c, &xlat_fs_magic, (uint64_t)b.f_type, NULL);
	out(c, ", f_bsize=%lu, f_blocks=%" PRIu64 ", f_bfree=%" PRIu64 ", f_bavail=%" PRIu64
	    ", f_files=%" PRIu64 ", f_ffree=%" PRIu64 ", f_fsid={val=[%#x, %#x]}, f_namelen=%lu"
	    ", f_frsize=%lu", (unsigned long)b.f_bsize, (uint64_t)b.f_blocks, (uint64_t)b.f_bfree,
	    (uint64_t)b.f_bavail, (uint64_t)b.f_files, (uint64_t)b.f_ffree, fsid[0], fsid[1],
	    (unsigned long)b.f_namelen, (unsigned long)b.f_frsize);
	if (b.f_flags & ST_VALID) {
		out(c, ", f_flags=");
		p_flags(c, &xlat_statfs_flags, (uint64_t)b.f_flags, "ST_???");
	}
	out(c, "}");
}

SC_DECODER(statfs, MEM_PATH(0), MEM_STRUCT_OUT(1, struct statfs))
{
	if (c->entering) {
		p_path(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_statfs(c, c->args[1]);
	return 0;
}

SC_DECODER(fstatfs, MEM_STRUCT_OUT(1, struct statfs))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_statfs(c, c->args[1]);
	return 0;
}

/* struct ustat as the kernel fills it (x86_64 layout; glibc no longer has the header). */
struct ustat_ {
	int f_tfree;
	unsigned long f_tinode;
	char f_fname[6];
	char f_fpack[6];
};

SC_DECODER(ustat, MEM_STRUCT_OUT(1, struct ustat_))
{
	struct ustat_ u;
	if (c->entering) {
		p_dev(c, (unsigned)c->args[0]);
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else if (p_fetch(c, c->args[1], &u, sizeof(u)) == 0)
		out(c, "{f_tfree=%d, f_tinode=%lu}", u.f_tfree, u.f_tinode);
	return 0;
}

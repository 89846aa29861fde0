/* File system requests: FI* and FS_IOC_* of <linux/fs.h>, FS_IOC_FIEMAP. */
#include <inttypes.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ FIFREEZE, IS_NONE }, { FITHAW, IS_NONE },
	{ FICLONE, IS_INT },	/* the source descriptor */
};

static void p_inode_flags(struct sc_call *c, uint64_t arg)
{
	unsigned v;
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	out(c, "[");
	p_flags(c, &xlat_fs_inode_flags, v, "FS_???_FL");
	out(c, "]");
}

static void p_fstrim(struct sc_call *c, uint64_t arg)
{
	struct fstrim_range r;
	if (p_fetch(c, arg, &r, sizeof(r)) == 0)
		out(c, "{start=%#llx, len=%llu, minlen=%llu}", (unsigned long long)r.start,
		    (unsigned long long)r.len, (unsigned long long)r.minlen);
}

static void p_fsxattr(struct sc_call *c, uint64_t arg, bool get)
{
	struct fsxattr x;
	if (p_fetch(c, arg, &x, sizeof(x)) < 0)
		return;
	out(c, "{fsx_xflags=");
	p_flags(c, &xlat_fs_xflags, x.fsx_xflags, "FS_XFLAG_???");
	out(c, ", fsx_extsize=%u", x.fsx_extsize);
	if (get)
		out(c, ", fsx_nextents=%u", x.fsx_nextents);
	out(c, ", fsx_projid=%#x, fsx_cowextsize=%u}", x.fsx_projid, x.fsx_cowextsize);
}

static void p_extents(struct sc_call *c, uint64_t addr, unsigned n)
{
	struct fiemap_extent e;
	out(c, "fm_extents=");
	if (n && sc_mem_read(c, addr, &e, sizeof(e)) < 0) {
		p_addr(c, addr);
		return;
	}
	out(c, "[");
	for (unsigned i = 0; i < n; i++, addr += sizeof(e)) {
		if (i && (p_line_full(c) || sc_mem_read(c, addr, &e, sizeof(e)) < 0)) {
			out(c, ", ...");
			break;
		}
		out(c, "%s{fe_logical=%llu, fe_physical=%llu, fe_length=%llu, fe_flags=", i ? ", " : "",
		    (unsigned long long)e.fe_logical, (unsigned long long)e.fe_physical,
		    (unsigned long long)e.fe_length);
		p_flags(c, &xlat_fiemap_extent_flags, e.fe_flags, "FIEMAP_EXTENT_???");
		out(c, "}");
	}
	out(c, "]");
}

/* At entry what the kernel reads, at exit " => {...}" what it wrote. */
static int p_fiemap(struct sc_call *c, uint64_t arg)
{
	struct fiemap m;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &m, sizeof(m)) < 0)
			return SC_DONE;
		out(c, "{fm_start=%llu, fm_length=%llu, fm_flags=", (unsigned long long)m.fm_start,
		    (unsigned long long)m.fm_length);
		p_flags(c, &xlat_fiemap_flags, m.fm_flags, "FIEMAP_FLAG_???");
		out(c, ", fm_extent_count=%u}", m.fm_extent_count);
		return 0;
	}
	if (sc_failed(c) || sc_mem_read(c, arg, &m, sizeof(m)) < 0)
		return 0;
	out(c, " => {fm_flags=");
	p_flags(c, &xlat_fiemap_flags, m.fm_flags, "FIEMAP_FLAG_???");
	out(c, ", fm_mapped_extents=%u, ", m.fm_mapped_extents);
	if (c->fmt && c->fmt->verbose)
		p_extents(c, arg + sizeof(m), m.fm_mapped_extents);
	else
		out(c, "...");
	out(c, "}");
	return 0;
}

static void p_fsxattr_get(struct sc_call *c, uint64_t arg)
{
	p_fsxattr(c, arg, true);
}

static int fs_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case FS_IOC_GETFLAGS:
	case FS_IOC32_GETFLAGS:
		return ioctl_getter(c, arg, p_inode_flags);
	case FS_IOC_FSGETXATTR:
		return ioctl_getter(c, arg, p_fsxattr_get);
	case FS_IOC_SETFLAGS:
	case FS_IOC32_SETFLAGS:
		return ioctl_setter(c, arg, p_inode_flags);
	case FS_IOC_FSSETXATTR:
		p_sep(c);
		p_fsxattr(c, arg, false);
		return SC_DONE;
	case FITRIM:
		return ioctl_setter(c, arg, p_fstrim);
	case FS_IOC_FIEMAP:
		return p_fiemap(c, arg);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t fs_len(const struct sc_call *c, unsigned req)
{
	switch (req) {
	case FS_IOC_GETFLAGS:
	case FS_IOC32_GETFLAGS:
	case FS_IOC_SETFLAGS:
	case FS_IOC32_SETFLAGS:
		return sizeof(unsigned);
	case FS_IOC_FSGETXATTR:
	case FS_IOC_FSSETXATTR:
		return sizeof(struct fsxattr);
	case FITRIM:
		return sizeof(struct fstrim_range);
	case FS_IOC_FIEMAP:
		/* the extents the kernel fills, printed with -v (len_fn cannot tell entry from exit) */
		if (c->fmt && c->fmt->verbose)
			return IOCTL_MEM_CAP;
		return sizeof(struct fiemap);
	}
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_fs = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_fs, .decode = fs_decode, .arg_len = fs_len,
};

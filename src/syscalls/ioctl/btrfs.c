/*
 * Btrfs requests (<linux/btrfs.h>), with the generic ones btrfs introduced
 * under its own names: FICLONERANGE, FIDEDUPERANGE, FS_IOC_[GS]ETFSLABEL.
 * At entry what the kernel reads; at exit, when the call succeeded, what it
 * wrote after " => ".  Without -v strace leaves out some defaults and
 * arrays ("...").
 */
#include <inttypes.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/fs.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "syscalls/print_stat.h"
#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ BTRFS_IOC_TRANS_START, IS_NONE }, { BTRFS_IOC_TRANS_END, IS_NONE },
	{ BTRFS_IOC_SYNC, IS_NONE }, { BTRFS_IOC_SCRUB_CANCEL, IS_NONE },
	{ BTRFS_IOC_QUOTA_RESCAN_WAIT, IS_NONE },
	/* numbered as taking a vol_args, but the kernel reads nothing */
	{ BTRFS_IOC_DEFRAG, IS_NONE }, { BTRFS_IOC_BALANCE, IS_NONE },
};

/* The structs' sizes: copied at entry and exit. */
static const struct {
	unsigned req;
	unsigned len;
} lens[] = {
	{ BTRFS_IOC_START_SYNC, 8 }, { BTRFS_IOC_DEFAULT_SUBVOL, 8 }, { BTRFS_IOC_WAIT_SYNC, 8 },
	{ BTRFS_IOC_SUBVOL_GETFLAGS, 8 }, { BTRFS_IOC_SUBVOL_SETFLAGS, 8 },
	{ BTRFS_IOC_BALANCE_V2, sizeof(struct btrfs_ioctl_balance_args) },
	{ BTRFS_IOC_BALANCE_PROGRESS, sizeof(struct btrfs_ioctl_balance_args) },
	{ BTRFS_IOC_DEFRAG_RANGE, sizeof(struct btrfs_ioctl_defrag_range_args) },
	{ BTRFS_IOC_DEV_INFO, sizeof(struct btrfs_ioctl_dev_info_args) },
	{ BTRFS_IOC_DEV_REPLACE, sizeof(struct btrfs_ioctl_dev_replace_args) },
	{ BTRFS_IOC_GET_FEATURES, sizeof(struct btrfs_ioctl_feature_flags) },
	{ BTRFS_IOC_SET_FEATURES, 2 * sizeof(struct btrfs_ioctl_feature_flags) },
	{ BTRFS_IOC_GET_SUPPORTED_FEATURES, 3 * sizeof(struct btrfs_ioctl_feature_flags) },
	{ BTRFS_IOC_FS_INFO, sizeof(struct btrfs_ioctl_fs_info_args) },
	{ BTRFS_IOC_GET_DEV_STATS, sizeof(struct btrfs_ioctl_get_dev_stats) },
	{ BTRFS_IOC_INO_LOOKUP, sizeof(struct btrfs_ioctl_ino_lookup_args) },
	{ BTRFS_IOC_INO_PATHS, sizeof(struct btrfs_ioctl_ino_path_args) },
	{ BTRFS_IOC_LOGICAL_INO, sizeof(struct btrfs_ioctl_logical_ino_args) },
	{ BTRFS_IOC_QGROUP_ASSIGN, sizeof(struct btrfs_ioctl_qgroup_assign_args) },
	{ BTRFS_IOC_QGROUP_CREATE, sizeof(struct btrfs_ioctl_qgroup_create_args) },
	{ BTRFS_IOC_QGROUP_LIMIT, sizeof(struct btrfs_ioctl_qgroup_limit_args) },
	{ BTRFS_IOC_QUOTA_CTL, sizeof(struct btrfs_ioctl_quota_ctl_args) },
	{ BTRFS_IOC_QUOTA_RESCAN, sizeof(struct btrfs_ioctl_quota_rescan_args) },
	{ BTRFS_IOC_QUOTA_RESCAN_STATUS, sizeof(struct btrfs_ioctl_quota_rescan_args) },
	{ BTRFS_IOC_SET_RECEIVED_SUBVOL, sizeof(struct btrfs_ioctl_received_subvol_args) },
	{ BTRFS_IOC_SCRUB, sizeof(struct btrfs_ioctl_scrub_args) },
	{ BTRFS_IOC_SCRUB_PROGRESS, sizeof(struct btrfs_ioctl_scrub_args) },
	{ BTRFS_IOC_TREE_SEARCH, sizeof(struct btrfs_ioctl_search_key) },	/* buf: with -v */
	{ BTRFS_IOC_TREE_SEARCH_V2, sizeof(struct btrfs_ioctl_search_args_v2) },
	{ BTRFS_IOC_SEND, sizeof(struct btrfs_ioctl_send_args) },
	{ BTRFS_IOC_SPACE_INFO, sizeof(struct btrfs_ioctl_space_args) },
	{ BTRFS_IOC_SNAP_CREATE, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_RESIZE, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_SCAN_DEV, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_FORGET_DEV, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_ADD_DEV, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_RM_DEV, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_SUBVOL_CREATE, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_SNAP_DESTROY, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_DEVICES_READY, sizeof(struct btrfs_ioctl_vol_args) },
	{ BTRFS_IOC_SNAP_CREATE_V2, sizeof(struct btrfs_ioctl_vol_args_v2) },
	{ BTRFS_IOC_SUBVOL_CREATE_V2, sizeof(struct btrfs_ioctl_vol_args_v2) },
	{ FICLONERANGE, sizeof(struct file_clone_range) },
	{ FS_IOC_GETFSLABEL, FSLABEL_MAX }, { FS_IOC_SETFSLABEL, FSLABEL_MAX },
	/* the header and the first destinations */
	{ FIDEDUPERANGE, sizeof(struct file_dedupe_range) + 16 * sizeof(struct file_dedupe_range_info) },
};

/* Elements of qgroup_inherit's qgroups and send's clone_sources copied. */
#define IDS_FOLLOWED 64

/*
 * The --kernel mode copies only the start of a large argument (512 bytes):
 * its structs print from that part when what they show lies in it.
 */
#define KERNEL_PART 512

/*
 * Like p_fetch, falling back on the first part bytes of buf (the rest
 * zeroed): returns 1 then.
 */
static int fetch_part(struct sc_call *c, uint64_t addr, void *buf, size_t len, size_t part)
{
	if (addr && !(c->fmt && c->fmt->by_addr) && sc_mem_read(c, addr, buf, len) < 0 && part < len &&
	    sc_mem_read(c, addr, buf, part) == 0) {
		memset((char *)buf + part, 0, len - part);
		return 1;
	}
	return p_fetch(c, addr, buf, len);
}

/*
 * A struct ending in a name, through fetch_part: false when nothing more
 * prints (not read, or the name cut, without a NUL in the held bytes of
 * it: then only the address prints).
 */
static bool fetch_named(struct sc_call *c, uint64_t arg, void *buf, size_t len, size_t name_off)
{
	int got = fetch_part(c, arg, buf, len, KERNEL_PART);
	size_t held = KERNEL_PART - name_off;
	if (got < 0)
		return false;
	if (got == 1 && strnlen((const char *)buf + name_off, held) == held) {
		p_addr(c, arg);
		return false;
	}
	return true;
}

static bool verbose(const struct sc_call *c)
{
	return c->fmt && c->fmt->verbose;
}

/* A u64 strace prints as UINT64_MAX (UINT32_MAX for a u32) when all ones. */
static void p_umax(struct sc_call *c, uint64_t v, bool u32)
{
	bool max = u32 ? v == UINT32_MAX : v == UINT64_MAX;
	if (max && xlat_style == XLAT_STYLE_ABBREV) {
		out(c, u32 ? "UINT32_MAX" : "UINT64_MAX");
		return;
	}
	out(c, "%" PRIu64, v);
	if (max && xlat_style == XLAT_STYLE_VERBOSE)
		out(c, u32 ? " /* UINT32_MAX */" : " /* UINT64_MAX */");
}

/* A named value printed in decimal (object ids, key types). */
static void p_xval_u(struct sc_call *c, const struct xlat *x, uint64_t v, bool u32)
{
	const char *s = xlat_str(x, v);
	if (!s) {
		p_umax(c, v, u32);
		return;
	}
	if (xlat_style == XLAT_STYLE_ABBREV)
		out(c, "%s", s);
	else if (xlat_style == XLAT_STYLE_RAW)
		out(c, "%" PRIu64, v);
	else
		out(c, "%" PRIu64 " /* %s */", v, s);
}

static void p_uuid(struct sc_call *c, const uint8_t *u)
{
	for (int i = 0; i < 16; i++)
		out(c, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", u[i]);
}

/* A NUL-terminated char array, quoted up to its NUL (or its size). */
static void p_cstring(struct sc_call *c, const char *s, size_t size)
{
	size_t n = strnlen(s, size);
	p_quoted(c, (const unsigned char *)s, n, false);
}

/* No compat features are defined: every bit is unknown. */
static void p_compat_flags(struct sc_call *c, uint64_t v)
{
	if (xlat_style == XLAT_STYLE_RAW || !v)
		out(c, v ? "%#" PRIx64 : "0", v);
	else
		out(c, "%#" PRIx64 " /* BTRFS_FEATURE_COMPAT_??? */", v);
}

static void p_features(struct sc_call *c, const struct btrfs_ioctl_feature_flags *f)
{
	out(c, "{compat_flags=");
	p_compat_flags(c, f->compat_flags);
	out(c, ", compat_ro_flags=");
	p_flags(c, &xlat_btrfs_features_compat_ro, f->compat_ro_flags, "BTRFS_FEATURE_COMPAT_RO_???");
	out(c, ", incompat_flags=");
	p_flags(c, &xlat_btrfs_features_incompat, f->incompat_flags, "BTRFS_FEATURE_INCOMPAT_???");
	out(c, "}");
}

static void p_features_at(struct sc_call *c, uint64_t arg, unsigned n)
{
	static const char *const comments[] = { "supported", "safe to set", "safe to clear" };
	struct btrfs_ioctl_feature_flags f[3];
	if (p_fetch(c, arg, f, n * sizeof(f[0])) < 0)
		return;
	if (n == 1) {
		p_features(c, &f[0]);
		return;
	}
	out(c, "[");
	for (unsigned i = 0; i < n; i++) {
		out(c, "%s", i ? ", " : "");
		p_features(c, &f[i]);
		if (n == 3)
			out(c, " /* %s */", comments[i]);
	}
	out(c, "]");
}

static void p_balance_args(struct sc_call *c, const struct btrfs_balance_args *a)
{
	out(c, "{profiles=");
	p_flags(c, &xlat_btrfs_space_info_flags, a->profiles, "BTRFS_BLOCK_GROUP_???");
	out(c, ", usage=");
	p_umax(c, a->usage, false);
	out(c, ", devid=");
	p_dev(c, a->devid);
	out(c, ", pstart=");
	p_umax(c, a->pstart, false);
	out(c, ", pend=");
	p_umax(c, a->pend, false);
	out(c, ", vstart=");
	p_umax(c, a->vstart, false);
	out(c, ", vend=");
	p_umax(c, a->vend, false);
	out(c, ", target=");
	p_umax(c, a->target, false);
	out(c, ", flags=");
	p_flags(c, &xlat_btrfs_balance_args, a->flags, "BTRFS_BALANCE_ARGS_???");
	out(c, "}");
}

static void p_balance(struct sc_call *c, uint64_t arg, bool state)
{
	struct btrfs_ioctl_balance_args b;
	if (fetch_part(c, arg, &b, sizeof(b), offsetof(struct btrfs_ioctl_balance_args, stat)) < 0)
		return;
	out(c, "{flags=");
	p_flags(c, &xlat_btrfs_balance_flags, b.flags, "BTRFS_BALANCE_???");
	if (state) {
		out(c, ", state=");
		p_flags(c, &xlat_btrfs_balance_state, b.state, "BTRFS_BALANCE_STATE_???");
	}
	static const struct {
		uint64_t flag;
		const char *name;
		size_t off;
	} parts[] = {
		{ BTRFS_BALANCE_DATA, "data", offsetof(struct btrfs_ioctl_balance_args, data) },
		{ BTRFS_BALANCE_METADATA, "meta", offsetof(struct btrfs_ioctl_balance_args, meta) },
		{ BTRFS_BALANCE_SYSTEM, "sys", offsetof(struct btrfs_ioctl_balance_args, sys) },
	};
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (!(b.flags & parts[i].flag))
			continue;
		out(c, ", %s=", parts[i].name);
		p_balance_args(c, (const void *)((const char *)&b + parts[i].off));
	}
	out(c, "}");
}

static void p_qgroup_limit(struct sc_call *c, const struct btrfs_qgroup_limit *l)
{
	out(c, "{flags=");
	p_flags(c, &xlat_btrfs_qgroup_limit_flags, l->flags, "BTRFS_QGROUP_LIMIT_???");
	out(c, ", max_rfer=%llu, max_excl=%llu, rsv_rfer=%llu, rsv_excl=%llu}",
	    (unsigned long long)l->max_rfer, (unsigned long long)l->max_excl,
	    (unsigned long long)l->rsv_rfer, (unsigned long long)l->rsv_excl);
}

/* [1, 2, ...]: n u64 at addr, each printed by one(). */
static void p_u64_array(struct sc_call *c, uint64_t addr, uint64_t n,
			void (*one)(struct sc_call *c, uint64_t v))
{
	uint64_t v;
	if (!addr) {
		p_addr(c, addr);
		return;
	}
	if (!n) {
		out(c, "[]");
		return;
	}
	if (sc_mem_read(c, addr, &v, sizeof(v)) < 0) {
		p_addr(c, addr);
		return;
	}
	out(c, "[");
	for (uint64_t i = 0; i < n; i++, addr += sizeof(v)) {
		if (i && (i >= IDS_FOLLOWED || p_line_full(c) ||
			  sc_mem_read(c, addr, &v, sizeof(v)) < 0)) {
			out(c, ", ...");
			break;
		}
		out(c, "%s", i ? ", " : "");
		one(c, v);
	}
	out(c, "]");
}

static void p_u64_plain(struct sc_call *c, uint64_t v)
{
	out(c, "%" PRIu64, v);
}

static void p_objectid(struct sc_call *c, uint64_t v)
{
	p_xval_u(c, &xlat_btrfs_tree_objectids, v, false);
}

static void p_qgroup_inherit(struct sc_call *c, uint64_t addr)
{
	struct btrfs_qgroup_inherit q;
	if (p_fetch(c, addr, &q, sizeof(q)) < 0)
		return;
	out(c, "{flags=");
	p_flags(c, &xlat_btrfs_qgroup_inherit_flags, q.flags, "BTRFS_QGROUP_INHERIT_???");
	out(c, ", num_qgroups=%llu, num_ref_copies=%llu, num_excl_copies=%llu, lim=",
	    (unsigned long long)q.num_qgroups, (unsigned long long)q.num_ref_copies,
	    (unsigned long long)q.num_excl_copies);
	p_qgroup_limit(c, &q.lim);
	if (verbose(c)) {
		out(c, ", qgroups=");
		p_u64_array(c, addr + sizeof(q), q.num_qgroups, p_u64_plain);
	} else {
		out(c, ", ...");
	}
	out(c, "}");
}

static void p_vol_args(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_vol_args v;
	if (!fetch_named(c, arg, &v, sizeof(v), offsetof(struct btrfs_ioctl_vol_args, name)))
		return;
	out(c, "{fd=");
	p_fd(c, (uint64_t)(int64_t)v.fd);
	out(c, ", name=");
	p_cstring(c, v.name, sizeof(v.name));
	out(c, "}");
}

static void p_vol_args_v2(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_vol_args_v2 v;
	if (!fetch_named(c, arg, &v, sizeof(v), offsetof(struct btrfs_ioctl_vol_args_v2, name)))
		return;
	out(c, "{fd=");
	p_fd(c, (uint64_t)v.fd);
	out(c, ", flags=");
	p_flags(c, &xlat_btrfs_snap_flags_v2, v.flags, "BTRFS_SUBVOL_???");
	if (v.flags & BTRFS_SUBVOL_QGROUP_INHERIT) {
		out(c, ", size=%llu, qgroup_inherit=", (unsigned long long)v.size);
		p_qgroup_inherit(c, (uint64_t)(uintptr_t)v.qgroup_inherit);
	}
	out(c, ", name=");
	p_cstring(c, v.name, sizeof(v.name));
	out(c, "}");
}

static void p_defrag_range(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_defrag_range_args d;
	if (p_fetch(c, arg, &d, sizeof(d)) < 0)
		return;
	out(c, "{start=%llu, len=", (unsigned long long)d.start);
	p_umax(c, d.len, false);
	out(c, ", flags=");
	p_flags(c, &xlat_btrfs_defrag_flags, d.flags, "BTRFS_DEFRAG_RANGE_???");
	out(c, ", extent_thresh=%u, compress_type=", d.extent_thresh);
	p_xval(c, &xlat_btrfs_compress_types, d.compress_type, "BTRFS_COMPRESS_???");
	out(c, "}");
}

static void p_search_key(struct sc_call *c, const struct btrfs_ioctl_search_key *k)
{
	out(c, "{tree_id=");
	p_objectid(c, k->tree_id);
	if (k->min_objectid != BTRFS_FIRST_FREE_OBJECTID || verbose(c)) {
		out(c, ", min_objectid=");
		p_objectid(c, k->min_objectid);
	}
	if (k->max_objectid != BTRFS_LAST_FREE_OBJECTID || verbose(c)) {
		out(c, ", max_objectid=");
		p_objectid(c, k->max_objectid);
	}
	out(c, ", min_offset=");
	p_umax(c, k->min_offset, false);
	out(c, ", max_offset=");
	p_umax(c, k->max_offset, false);
	out(c, ", min_transid=");
	p_umax(c, k->min_transid, false);
	out(c, ", max_transid=");
	p_umax(c, k->max_transid, false);
	out(c, ", min_type=");
	p_xval_u(c, &xlat_btrfs_key_types, k->min_type, true);
	out(c, ", max_type=");
	p_xval_u(c, &xlat_btrfs_key_types, k->max_type, true);
	out(c, ", nr_items=%u}", k->nr_items);
}

static void p_tree_search(struct sc_call *c, uint64_t arg, bool v2)
{
	struct btrfs_ioctl_search_args_v2 s;
	if (p_fetch(c, arg, &s, v2 ? sizeof(s) : sizeof(s.key)) < 0)
		return;
	out(c, "{key=");
	p_search_key(c, &s.key);
	if (v2)
		out(c, ", buf_size=%llu", (unsigned long long)s.buf_size);
	out(c, "}");
}

static void p_scrub(struct sc_call *c, uint64_t arg, bool full)
{
	struct btrfs_ioctl_scrub_args s;
	if (fetch_part(c, arg, &s, sizeof(s), offsetof(struct btrfs_ioctl_scrub_args, progress)) < 0)
		return;
	out(c, "{devid=");
	p_dev(c, s.devid);
	if (full) {
		out(c, ", start=%llu, end=", (unsigned long long)s.start);
		p_umax(c, s.end, false);
		out(c, ", flags=");
		p_flags(c, &xlat_btrfs_scrub_flags, s.flags, "BTRFS_SCRUB_???");
	}
	out(c, "}");
}

static void p_scrub_full(struct sc_call *c, uint64_t arg)
{
	p_scrub(c, arg, true);
}

static void p_scrub_devid(struct sc_call *c, uint64_t arg)
{
	p_scrub(c, arg, false);
}

static void p_dev_info(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_dev_info_args d;
	if (p_fetch(c, arg, &d, sizeof(d)) < 0)
		return;
	out(c, "{devid=");
	p_dev(c, d.devid);
	if (!ioctl_all_zero(d.uuid, sizeof(d.uuid))) {
		out(c, ", uuid=");
		p_uuid(c, d.uuid);
	}
	out(c, "}");
}

static void p_ino_paths(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_ino_path_args a;
	if (p_fetch(c, arg, &a, sizeof(a)) < 0)
		return;
	out(c, "{inum=%llu, size=%llu, fspath=", (unsigned long long)a.inum,
	    (unsigned long long)a.size);
	p_addr(c, a.fspath);
	out(c, "}");
}

static void p_logical_ino(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_logical_ino_args a;
	if (p_fetch(c, arg, &a, sizeof(a)) < 0)
		return;
	out(c, "{logical=%llu, size=%llu", (unsigned long long)a.logical,
	    (unsigned long long)a.size);
	if (!ioctl_all_zero(a.reserved, sizeof(a.reserved))) {
		out(c, ", reserved=[");
		for (size_t i = 0; i < sizeof(a.reserved) / sizeof(a.reserved[0]); i++) {
			out(c, "%s", i ? ", " : "");
			p_hex(c, a.reserved[i]);
		}
		out(c, "]");
	}
	out(c, ", flags=");
	p_flags(c, &xlat_btrfs_logical_ino_args_flags, a.flags, "BTRFS_LOGICAL_INO_ARGS_???");
	out(c, ", inodes=");
	p_addr(c, a.inodes);
	out(c, "}");
}

static void p_received_subvol(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_received_subvol_args r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	out(c, "{uuid=");
	p_uuid(c, (const uint8_t *)r.uuid);
	out(c, ", stransid=%llu, stime={sec=%llu, nsec=%u}", (unsigned long long)r.stransid,
	    (unsigned long long)r.stime.sec, r.stime.nsec);
	p_time_comment(c, (int64_t)r.stime.sec, r.stime.nsec, 9);
	out(c, ", flags=%llu}", (unsigned long long)r.flags);
}

static void p_send(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_send_args s;
	if (p_fetch(c, arg, &s, sizeof(s)) < 0)
		return;
	out(c, "{send_fd=");
	p_fd(c, (uint64_t)s.send_fd);
	out(c, ", clone_sources_count=%llu, clone_sources=",
	    (unsigned long long)s.clone_sources_count);
	uint64_t src = (uint64_t)(uintptr_t)s.clone_sources;
	if (verbose(c))
		p_u64_array(c, src, s.clone_sources_count, p_objectid);
	else
		p_addr(c, src);
	out(c, ", parent_root=");
	p_objectid(c, s.parent_root);
	out(c, ", flags=");
	p_flags(c, &xlat_btrfs_send_flags, s.flags, "BTRFS_SEND_FLAGS_???");
	out(c, "}");
}

static void p_dev_replace(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_dev_replace_args d;
	if (p_fetch(c, arg, &d, sizeof(d)) < 0)
		return;
	out(c, "{cmd=");
	p_xval(c, &xlat_btrfs_dev_replace_cmds, d.cmd, "BTRFS_IOCTL_DEV_REPLACE_CMD_???");
	if (d.cmd == BTRFS_IOCTL_DEV_REPLACE_CMD_START) {
		out(c, ", start={srcdevid=");
		p_dev(c, d.start.srcdevid);
		out(c, ", cont_reading_from_srcdev_mode=");
		p_xval(c, &xlat_btrfs_cont_reading_modes, d.start.cont_reading_from_srcdev_mode,
		       "BTRFS_IOCTL_DEV_REPLACE_CONT_READING_FROM_SRCDEV_MODE_???");
		out(c, ", srcdev_name=");
		p_cstring(c, (const char *)d.start.srcdev_name, sizeof(d.start.srcdev_name));
		out(c, ", tgtdev_name=");
		p_cstring(c, (const char *)d.start.tgtdev_name, sizeof(d.start.tgtdev_name));
		out(c, "}");
	}
	out(c, "}");
}

static void p_dev_stats(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_get_dev_stats d;
	if (p_fetch(c, arg, &d, sizeof(d)) < 0)
		return;
	out(c, "{devid=");
	p_dev(c, d.devid);
	out(c, ", nr_items=%llu, flags=", (unsigned long long)d.nr_items);
	p_flags(c, &xlat_btrfs_dev_stats_flags, d.flags, "BTRFS_DEV_STATS_???");
	out(c, "}");
}

static void p_clone_range(struct sc_call *c, uint64_t arg)
{
	struct file_clone_range r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	out(c, "{src_fd=");
	p_fd(c, (uint64_t)r.src_fd);
	out(c, ", src_offset=%llu, src_length=%llu, dest_offset=%llu}",
	    (unsigned long long)r.src_offset, (unsigned long long)r.src_length,
	    (unsigned long long)r.dest_offset);
}

/* FIDEDUPERANGE at entry: without -v, two destinations then "...". */
static void p_dedupe(struct sc_call *c, uint64_t arg)
{
	struct file_dedupe_range r;
	struct file_dedupe_range_info i;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	out(c, "{src_offset=%llu, src_length=%llu, dest_count=%u, info=",
	    (unsigned long long)r.src_offset, (unsigned long long)r.src_length, r.dest_count);
	uint64_t addr = arg + sizeof(r);
	if (r.dest_count && sc_mem_read(c, addr, &i, sizeof(i)) < 0) {
		p_addr(c, addr);
		out(c, "}");
		return;
	}
	out(c, "[");
	for (unsigned n = 0; n < r.dest_count; n++, addr += sizeof(i)) {
		if (n && ((!verbose(c) && n >= 2) || p_line_full(c) ||
			  sc_mem_read(c, addr, &i, sizeof(i)) < 0)) {
			out(c, ", ...");
			break;
		}
		out(c, "%s{dest_fd=", n ? ", " : "");
		p_fd(c, (uint64_t)i.dest_fd);
		out(c, ", dest_offset=%llu}", (unsigned long long)i.dest_offset);
	}
	out(c, "]}");
}

static void p_fslabel(struct sc_call *c, uint64_t arg)
{
	char label[FSLABEL_MAX];
	if (p_fetch(c, arg, label, sizeof(label)) == 0)
		p_cstring(c, label, sizeof(label));
}

static void p_u64_at(struct sc_call *c, uint64_t arg)
{
	uint64_t v;
	if (p_fetch(c, arg, &v, sizeof(v)) == 0)
		out(c, "[%" PRIu64 "]", v);
}

static void p_subvol_flags(struct sc_call *c, uint64_t arg)
{
	uint64_t v;
	if (p_fetch(c, arg, &v, sizeof(v)) == 0)
		p_flags(c, &xlat_btrfs_snap_flags_v2, v, "BTRFS_SUBVOL_???");
}

static void p_features1(struct sc_call *c, uint64_t arg)
{
	p_features_at(c, arg, 1);
}

static void p_features3(struct sc_call *c, uint64_t arg)
{
	p_features_at(c, arg, 3);
}

static void p_balance_in(struct sc_call *c, uint64_t arg)
{
	p_balance(c, arg, false);
}

static void p_balance_out(struct sc_call *c, uint64_t arg)
{
	p_balance(c, arg, true);
}

/* " => {transid=N}": the subvolume's generation. */
static void p_vol_args_v2_out(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_vol_args_v2 v;
	if (fetch_part(c, arg, &v, sizeof(v), KERNEL_PART) >= 0)
		out(c, "{transid=%llu}", (unsigned long long)v.transid);
}

static void p_dev_info_out(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_dev_info_args d;
	if (p_fetch(c, arg, &d, sizeof(d)) < 0)
		return;
	out(c, "{");
	if (!ioctl_all_zero(d.uuid, sizeof(d.uuid))) {
		out(c, "uuid=");
		p_uuid(c, d.uuid);
		out(c, ", ");
	}
	out(c, "bytes_used=%llu, total_bytes=%llu, path=", (unsigned long long)d.bytes_used,
	    (unsigned long long)d.total_bytes);
	p_cstring(c, (const char *)d.path, sizeof(d.path));
	out(c, "}");
}

static void p_dev_stats_out(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_get_dev_stats d;
	if (p_fetch(c, arg, &d, sizeof(d)) < 0)
		return;
	out(c, "{nr_items=%llu, flags=", (unsigned long long)d.nr_items);
	p_flags(c, &xlat_btrfs_dev_stats_flags, d.flags, "BTRFS_DEV_STATS_???");
	out(c, ", [");
	for (uint64_t i = 0; i < d.nr_items; i++) {
		if (i)
			out(c, ", ");
		if (i >= sizeof(d.values) / sizeof(d.values[0])) {
			out(c, "...");
			break;
		}
		out(c, "[");
		p_xval_u(c, &xlat_btrfs_dev_stat_values, i, false);
		out(c, "]=%llu", (unsigned long long)d.values[i]);
	}
	out(c, "]}");
}

static void p_received_subvol_out(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_received_subvol_args r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	out(c, "{rtransid=%llu, rtime={sec=%llu, nsec=%u}", (unsigned long long)r.rtransid,
	    (unsigned long long)r.rtime.sec, r.rtime.nsec);
	p_time_comment(c, (int64_t)r.rtime.sec, r.rtime.nsec, 9);
	out(c, "}");
}

/* struct btrfs_data_container's header; its entries only as "..." (not decoded yet). */
static void p_container(struct sc_call *c, const char *name, uint64_t addr)
{
	struct btrfs_data_container h;
	out(c, "{%s=", name);
	if (p_fetch(c, addr, &h, sizeof(h)) == 0)
		out(c, "{bytes_left=%u, bytes_missing=%u, elem_cnt=%u, elem_missed=%u, ...}",
		    h.bytes_left, h.bytes_missing, h.elem_cnt, h.elem_missed);
	out(c, "}");
}

static void p_ino_paths_out(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_ino_path_args a;
	if (p_fetch(c, arg, &a, sizeof(a)) == 0)
		p_container(c, "fspath", a.fspath);
}

static void p_logical_ino_out(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_logical_ino_args a;
	if (p_fetch(c, arg, &a, sizeof(a)) == 0)
		p_container(c, "inodes", a.inodes);
}

/* What the kernel wrote: bytes_deduped and status of each destination. */
static void p_dedupe_out(struct sc_call *c, uint64_t arg)
{
	struct file_dedupe_range r;
	struct file_dedupe_range_info i;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	out(c, "{info=");
	uint64_t addr = arg + sizeof(r);
	if (r.dest_count && sc_mem_read(c, addr, &i, sizeof(i)) < 0) {
		p_addr(c, addr);
		out(c, "}");
		return;
	}
	out(c, "[");
	for (unsigned n = 0; n < r.dest_count; n++, addr += sizeof(i)) {
		if (n && ((!verbose(c) && n >= 2) || p_line_full(c) ||
			  sc_mem_read(c, addr, &i, sizeof(i)) < 0)) {
			out(c, ", ...");
			break;
		}
		out(c, "%s{bytes_deduped=%llu, status=%d}", n ? ", " : "",
		    (unsigned long long)i.bytes_deduped, i.status);
	}
	out(c, "]}");
}

/* The search results' headers (with -v), each followed by its item. */
static void p_search_buf(struct sc_call *c, uint64_t addr, uint64_t size, unsigned items)
{
	if (!verbose(c)) {
		out(c, ", ...");
		return;
	}
	out(c, ", buf=[");
	uint64_t off = 0;
	for (unsigned i = 0; i < items; i++) {
		struct btrfs_ioctl_search_header h;
		if (i)
			out(c, ", ");
		if (off + sizeof(h) > size || i > ioctl_strsize(c) || p_line_full(c)) {
			out(c, "...");
			break;
		}
		if (sc_mem_read(c, addr + off, &h, sizeof(h)) < 0) {
			out(c, "... /* %#" PRIx64 " */", addr + off);
			break;
		}
		out(c, "{transid=%llu, objectid=", (unsigned long long)h.transid);
		p_objectid(c, h.objectid);
		out(c, ", offset=%llu, type=", (unsigned long long)h.offset);
		p_xval_u(c, &xlat_btrfs_key_types, h.type, true);
		out(c, ", len=%u}", h.len);
		off += sizeof(h) + h.len;
	}
	out(c, "]");
}

static int p_tree_search_out(struct sc_call *c, unsigned req, uint64_t arg)
{
	struct btrfs_ioctl_search_args_v2 s;
	bool v2 = req == BTRFS_IOC_TREE_SEARCH_V2;
	if (sc_failed(c)) {
		/* EOVERFLOW: the size the results need */
		if (v2 && c->ret == -EOVERFLOW && sc_mem_read(c, arg, &s, sizeof(s)) == 0)
			out(c, " => {buf_size=%llu}", (unsigned long long)s.buf_size);
		return 0;
	}
	if (sc_mem_read(c, arg, &s, v2 ? sizeof(s) : sizeof(s.key)) < 0)
		return 0;
	out(c, " => {key={nr_items=%u}", s.key.nr_items);
	if (v2) {
		out(c, ", buf_size=%llu", (unsigned long long)s.buf_size);
		p_search_buf(c, arg + sizeof(s), s.buf_size, s.key.nr_items);
	} else {
		p_search_buf(c, arg + sizeof(s.key), BTRFS_SEARCH_ARGS_BUFSIZE, s.key.nr_items);
	}
	out(c, "}");
	return 0;
}

static void p_space_info(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_space_args a;
	struct btrfs_ioctl_space_info i;
	if (p_fetch(c, arg, &a, sizeof(a)) < 0)
		return;
	if (c->entering) {
		out(c, "{space_slots=%llu}", (unsigned long long)a.space_slots);
		return;
	}
	out(c, "{total_spaces=%llu", (unsigned long long)a.total_spaces);
	if (a.space_slots == 0 && a.total_spaces) {
		out(c, "}");
		return;
	}
	if (!verbose(c)) {
		out(c, ", ...}");
		return;
	}
	out(c, ", spaces=[");
	uint64_t addr = arg + sizeof(a);
	for (uint64_t n = 0; n < a.total_spaces; n++, addr += sizeof(i)) {
		if (p_line_full(c) || sc_mem_read(c, addr, &i, sizeof(i)) < 0) {
			out(c, "%s...", n ? ", " : "");
			break;
		}
		out(c, "%s{flags=", n ? ", " : "");
		p_flags(c, &xlat_btrfs_space_info_flags, i.flags, "BTRFS_SPACE_INFO_???");
		out(c, ", total_bytes=%llu, used_bytes=%llu}", (unsigned long long)i.total_bytes,
		    (unsigned long long)i.used_bytes);
	}
	out(c, "]}");
}

/* INO_LOOKUP: the tree id prints at exit too when the caller asked for the containing one (0). */
static int p_ino_lookup(struct sc_call *c, uint64_t arg)
{
	struct btrfs_ioctl_ino_lookup_args a;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &a, sizeof(a)) < 0)
			return SC_DONE;
		if (a.treeid == 0)
			c->priv = calloc(1, 1);
		out(c, "{treeid=");
		p_objectid(c, a.treeid);
		out(c, ", objectid=");
		p_objectid(c, a.objectid);
		out(c, "}");
		return 0;
	}
	if (sc_failed(c) || sc_mem_read(c, arg, &a, sizeof(a)) < 0)
		return 0;
	out(c, " => {");
	if (c->priv) {
		out(c, "treeid=");
		p_objectid(c, a.treeid);
		out(c, ", ");
	}
	out(c, "name=");
	p_cstring(c, a.name, sizeof(a.name));
	out(c, "}");
	return 0;
}

/*
 * Requests read and written: what the kernel reads at entry, then " => "
 * what it wrote when the call succeeded.
 */
static const struct {
	unsigned req;
	void (*in)(struct sc_call *c, uint64_t arg);
	void (*out)(struct sc_call *c, uint64_t arg);	/* NULL: not decoded yet */
} read_write[] = {
	{ BTRFS_IOC_BALANCE_V2, p_balance_in, p_balance_out },
	{ BTRFS_IOC_DEV_INFO, p_dev_info, p_dev_info_out },
	{ BTRFS_IOC_DEV_REPLACE, p_dev_replace, NULL },
	{ BTRFS_IOC_GET_DEV_STATS, p_dev_stats, p_dev_stats_out },
	{ BTRFS_IOC_INO_PATHS, p_ino_paths, p_ino_paths_out },
	{ BTRFS_IOC_LOGICAL_INO, p_logical_ino, p_logical_ino_out },
	{ BTRFS_IOC_SET_RECEIVED_SUBVOL, p_received_subvol, p_received_subvol_out },
	{ BTRFS_IOC_SNAP_CREATE_V2, p_vol_args_v2, p_vol_args_v2_out },
	{ BTRFS_IOC_SUBVOL_CREATE_V2, p_vol_args_v2, p_vol_args_v2_out },
	{ BTRFS_IOC_SCRUB, p_scrub_full, NULL },
	{ BTRFS_IOC_SCRUB_PROGRESS, p_scrub_devid, NULL },
	{ BTRFS_IOC_SPACE_INFO, p_space_info, p_space_info },
	{ FIDEDUPERANGE, p_dedupe, p_dedupe_out },
};

static int p_read_write(struct sc_call *c, unsigned req, uint64_t arg)
{
	for (size_t i = 0; i < sizeof(read_write) / sizeof(read_write[0]); i++) {
		if (read_write[i].req != req)
			continue;
		if (c->entering) {
			p_sep(c);
			read_write[i].in(c, arg);
			return read_write[i].out ? 0 : SC_DONE;
		}
		if (!sc_failed(c)) {
			out(c, " => ");
			read_write[i].out(c, arg);
		}
		return 0;
	}
	return IOCTL_UNDECODED;
}

static int btrfs_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case BTRFS_IOC_BALANCE_CTL:
		p_sep(c);
		p_xval(c, &xlat_btrfs_balance_ctl_cmds, (uint64_t)(int)arg, "BTRFS_BALANCE_CTL_???");
		return SC_DONE;
	case BTRFS_IOC_START_SYNC:
		return ioctl_getter(c, arg, p_u64_at);
	case BTRFS_IOC_DEFAULT_SUBVOL:
	case BTRFS_IOC_WAIT_SYNC:
		return ioctl_setter(c, arg, p_u64_at);
	case BTRFS_IOC_SUBVOL_GETFLAGS:
		return ioctl_getter(c, arg, p_subvol_flags);
	case BTRFS_IOC_SUBVOL_SETFLAGS:
		return ioctl_setter(c, arg, p_subvol_flags);
	case BTRFS_IOC_BALANCE_PROGRESS:
		return ioctl_getter(c, arg, p_balance_out);
	case BTRFS_IOC_DEFRAG_RANGE:
		return ioctl_setter(c, arg, p_defrag_range);
	case BTRFS_IOC_GET_FEATURES:
		return ioctl_getter(c, arg, p_features1);
	case BTRFS_IOC_GET_SUPPORTED_FEATURES:
		return ioctl_getter(c, arg, p_features3);
	case BTRFS_IOC_SET_FEATURES:
		p_sep(c);
		p_features_at(c, arg, 2);
		return SC_DONE;
	case BTRFS_IOC_FS_INFO:
	case BTRFS_IOC_QGROUP_LIMIT:
	case BTRFS_IOC_QUOTA_RESCAN_STATUS:
		/* written by the kernel; only its address for now */
		return ioctl_getter(c, arg, p_addr);
	case BTRFS_IOC_INO_LOOKUP:
		return p_ino_lookup(c, arg);
	case BTRFS_IOC_QGROUP_ASSIGN: {
		struct btrfs_ioctl_qgroup_assign_args a;
		p_sep(c);
		if (p_fetch(c, arg, &a, sizeof(a)) == 0)
			out(c, "{assign=%llu, src=%llu, dst=%llu}", (unsigned long long)a.assign,
			    (unsigned long long)a.src, (unsigned long long)a.dst);
		return SC_DONE;
	}
	case BTRFS_IOC_QGROUP_CREATE: {
		struct btrfs_ioctl_qgroup_create_args a;
		p_sep(c);
		if (p_fetch(c, arg, &a, sizeof(a)) == 0)
			out(c, "{create=%llu, qgroupid=%llu}", (unsigned long long)a.create,
			    (unsigned long long)a.qgroupid);
		return SC_DONE;
	}
	case BTRFS_IOC_QUOTA_CTL: {
		struct btrfs_ioctl_quota_ctl_args a;
		p_sep(c);
		if (p_fetch(c, arg, &a, sizeof(a)) < 0)
			return SC_DONE;
		out(c, "{cmd=");
		p_xval(c, &xlat_btrfs_qgroup_ctl_cmds, a.cmd, "BTRFS_QUOTA_CTL_???");
		out(c, "}");
		return SC_DONE;
	}
	case BTRFS_IOC_QUOTA_RESCAN: {
		struct btrfs_ioctl_quota_rescan_args a;
		p_sep(c);
		if (p_fetch(c, arg, &a, sizeof(a)) == 0)
			out(c, "{flags=%llu}", (unsigned long long)a.flags);
		return SC_DONE;
	}
	case BTRFS_IOC_TREE_SEARCH:
	case BTRFS_IOC_TREE_SEARCH_V2:
		if (!c->entering)
			return p_tree_search_out(c, req, arg);
		p_sep(c);
		p_tree_search(c, arg, req == BTRFS_IOC_TREE_SEARCH_V2);
		return 0;
	case BTRFS_IOC_SEND:
		return ioctl_setter(c, arg, p_send);
	case BTRFS_IOC_SNAP_CREATE:
	case BTRFS_IOC_RESIZE:
	case BTRFS_IOC_SCAN_DEV:
	case BTRFS_IOC_FORGET_DEV:
	case BTRFS_IOC_ADD_DEV:
	case BTRFS_IOC_RM_DEV:
	case BTRFS_IOC_SUBVOL_CREATE:
	case BTRFS_IOC_SNAP_DESTROY:
	case BTRFS_IOC_DEVICES_READY:
		return ioctl_setter(c, arg, p_vol_args);
	case FICLONERANGE:
		return ioctl_setter(c, arg, p_clone_range);
	case FS_IOC_GETFSLABEL:
		return ioctl_getter(c, arg, p_fslabel);
	case FS_IOC_SETFSLABEL:
		return ioctl_setter(c, arg, p_fslabel);
	}
	int r = p_read_write(c, req, arg);
	if (r != IOCTL_UNDECODED)
		return r;
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t btrfs_len(const struct sc_call *c, unsigned req)
{
	/* the results -v prints behind the struct (len_fn cannot tell entry from exit) */
	if (verbose(c) && (req == BTRFS_IOC_TREE_SEARCH || req == BTRFS_IOC_TREE_SEARCH_V2 ||
			   req == BTRFS_IOC_SPACE_INFO))
		return IOCTL_MEM_CAP;
	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		if (lens[i].req == req)
			return lens[i].len;
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

/* The arrays behind vol_args_v2's qgroup_inherit and send's clone_sources. */
static void btrfs_walk(struct sc_walk *w, const struct sc_call *c, unsigned req)
{
	const unsigned char *p;
	if (!c->entering)
		return;
	if (req == BTRFS_IOC_SEND) {
		struct btrfs_ioctl_send_args s;
		if (sc_walk_grab(w, c->args[2], sizeof(s), &p) < sizeof(s))
			return;
		memcpy(&s, p, sizeof(s));
		uint64_t n = s.clone_sources_count < IDS_FOLLOWED ? s.clone_sources_count : IDS_FOLLOWED;
		sc_walk_grab(w, (uint64_t)(uintptr_t)s.clone_sources, n * 8, &p);
	} else if (req == BTRFS_IOC_SNAP_CREATE_V2 || req == BTRFS_IOC_SUBVOL_CREATE_V2) {
		struct btrfs_ioctl_vol_args_v2 v;
		if (sc_walk_grab(w, c->args[2], offsetof(struct btrfs_ioctl_vol_args_v2, name), &p) <
		    offsetof(struct btrfs_ioctl_vol_args_v2, name))
			return;
		memcpy(&v, p, offsetof(struct btrfs_ioctl_vol_args_v2, name));
		if (v.flags & BTRFS_SUBVOL_QGROUP_INHERIT)
			sc_walk_grab(w, (uint64_t)(uintptr_t)v.qgroup_inherit,
				     sizeof(struct btrfs_qgroup_inherit) + IDS_FOLLOWED * 8, &p);
	}
}

const struct ioctl_family ioctl_btrfs = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_btrfs, .decode = btrfs_decode, .arg_len = btrfs_len,
	.walk = btrfs_walk,
};

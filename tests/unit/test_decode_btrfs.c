/*
 * Btrfs requests (src/syscalls/ioctl/btrfs.c): what the kernel writes back
 * on success, which the e2e comparison with strace (bad descriptors, no
 * btrfs here) never reaches.  The expected lines follow strace 6.1's btrfs
 * test's formats.
 */
#include <errno.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_subvol_create_v2_transid(void)
{
	static struct btrfs_ioctl_vol_args_v2 in = { .fd = 3, .flags = BTRFS_SUBVOL_RDONLY,
						     .name = "snap" };
	static struct btrfs_ioctl_vol_args_v2 o;
	o = in;
	o.transid = 42;
	struct dh d;
	dh_init(&d, SYS_ioctl, 5, BTRFS_IOC_SNAP_CREATE_V2, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(5, BTRFS_IOC_SNAP_CREATE_V2, {fd=3, "
		  "flags=BTRFS_SUBVOL_RDONLY, name=\"snap\"} => {transid=42}) = 0");
	dh_free(&d);
}

static void test_tree_search_items(void)
{
	struct btrfs_ioctl_search_key in = { .tree_id = BTRFS_FS_TREE_OBJECTID,
					     .min_objectid = BTRFS_FIRST_FREE_OBJECTID,
					     .max_objectid = 300, .max_offset = UINT64_MAX,
					     .min_type = BTRFS_INODE_ITEM_KEY,
					     .max_type = BTRFS_INODE_ITEM_KEY, .nr_items = 16 }, o;
	o = in;
	o.nr_items = 1;
	struct dh d;
	dh_init(&d, SYS_ioctl, 5, BTRFS_IOC_TREE_SEARCH, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(5, BTRFS_IOC_TREE_SEARCH, {key={tree_id=BTRFS_FS_TREE_OBJECTID, "
		  "max_objectid=300, min_offset=0, max_offset=UINT64_MAX, min_transid=0, "
		  "max_transid=0, min_type=BTRFS_INODE_ITEM_KEY, max_type=BTRFS_INODE_ITEM_KEY, "
		  "nr_items=16}} => {key={nr_items=1}, ...}) = 0");
	dh_free(&d);
}

static void test_tree_search_v2_headers_with_v(void)
{
	struct {
		struct btrfs_ioctl_search_args_v2 a;
		struct btrfs_ioctl_search_header h;
		char item[8];
	} in = { { .key = { .tree_id = BTRFS_ROOT_TREE_OBJECTID, .nr_items = 4 },
		   .buf_size = sizeof(struct btrfs_ioctl_search_header) + 8 } }, o;
	o = in;
	o.a.key.nr_items = 1;
	o.h = (struct btrfs_ioctl_search_header){ .transid = 7, .objectid = 256, .offset = 0,
						  .type = BTRFS_ROOT_ITEM_KEY, .len = 8 };
	struct dh d;
	dh_init(&d, SYS_ioctl, 5, BTRFS_IOC_TREE_SEARCH_V2, 0x1000, 0, 0, 0);
	d.fmt.verbose = true;
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(5, BTRFS_IOC_TREE_SEARCH_V2, {key={tree_id=BTRFS_ROOT_TREE_OBJECTID, "
		  "min_objectid=0, max_objectid=0, min_offset=0, max_offset=0, min_transid=0, "
		  "max_transid=0, min_type=0, max_type=0, nr_items=4}, buf_size=40} => "
		  "{key={nr_items=1}, buf_size=40, buf=[{transid=7, objectid=BTRFS_FIRST_FREE_OBJECTID, "
		  "offset=0, type=BTRFS_ROOT_ITEM_KEY, len=8}]}) = 0");
	dh_free(&d);
}

static void test_tree_search_v2_overflow_size(void)
{
	struct btrfs_ioctl_search_args_v2 in = { .key = { .tree_id = 5, .nr_items = 1 },
						 .buf_size = 8 }, o;
	o = in;
	o.buf_size = 4096;
	struct dh d;
	dh_init(&d, SYS_ioctl, 5, BTRFS_IOC_TREE_SEARCH_V2, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	const char *line = dh_run(&d, -EOVERFLOW);
	CHECK(strstr(line, "nr_items=1}, buf_size=8} => {buf_size=4096}) = -1 EOVERFLOW") != NULL);
	dh_free(&d);
}

static void test_dev_stats_values(void)
{
	struct btrfs_ioctl_get_dev_stats in = { .devid = 1, .nr_items = 2 }, o;
	o = in;
	o.values[0] = 3;
	o.values[1] = 4;
	struct dh d;
	dh_init(&d, SYS_ioctl, 5, BTRFS_IOC_GET_DEV_STATS, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(5, BTRFS_IOC_GET_DEV_STATS, {devid=makedev(0, 0x1), nr_items=2, "
		  "flags=0} => {nr_items=2, flags=0, [[BTRFS_DEV_STAT_WRITE_ERRS]=3, "
		  "[BTRFS_DEV_STAT_READ_ERRS]=4]}) = 0");
	dh_free(&d);
}

static void test_ino_lookup_containing_tree(void)
{
	struct btrfs_ioctl_ino_lookup_args in = { .treeid = 0, .objectid = 256 }, o;
	o = in;
	o.treeid = 5;
	strcpy(o.name, "dir/");
	struct dh d;
	dh_init(&d, SYS_ioctl, 5, BTRFS_IOC_INO_LOOKUP, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(5, BTRFS_IOC_INO_LOOKUP, {treeid=0, "
		  "objectid=BTRFS_FIRST_FREE_OBJECTID} => {treeid=BTRFS_FS_TREE_OBJECTID, "
		  "name=\"dir/\"}) = 0");
	dh_free(&d);
}

static void test_dedupe_status(void)
{
	struct {
		struct file_dedupe_range r;
		struct file_dedupe_range_info i[1];
	} in = { { .src_offset = 0, .src_length = 4096, .dest_count = 1 }, { { .dest_fd = 4 } } }, o;
	o = in;
	o.i[0].bytes_deduped = 4096;
	o.i[0].status = FILE_DEDUPE_RANGE_SAME;
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, FIDEDUPERANGE, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, BTRFS_IOC_FILE_EXTENT_SAME or FIDEDUPERANGE, {src_offset=0, "
		  "src_length=4096, dest_count=1, info=[{dest_fd=4, dest_offset=0}]} => "
		  "{info=[{bytes_deduped=4096, status=0}]}) = 0");
	dh_free(&d);
}

static void test_space_info_without_v(void)
{
	struct btrfs_ioctl_space_args in = { .space_slots = 0 }, o;
	o = in;
	o.total_spaces = 3;
	struct dh d;
	dh_init(&d, SYS_ioctl, 3, BTRFS_IOC_SPACE_INFO, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &in, sizeof(in));
	dh_mem(&d, SC_AT_EXIT, 0x1000, &o, sizeof(o));
	CHECK_STR(dh_run(&d, 0), "ioctl(3, BTRFS_IOC_SPACE_INFO, {space_slots=0} => "
		  "{total_spaces=3}) = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_subvol_create_v2_transid), TK_CASE(test_tree_search_items),
	TK_CASE(test_tree_search_v2_headers_with_v), TK_CASE(test_tree_search_v2_overflow_size),
	TK_CASE(test_dev_stats_values), TK_CASE(test_ino_lookup_containing_tree),
	TK_CASE(test_dedupe_status), TK_CASE(test_space_info_without_v))

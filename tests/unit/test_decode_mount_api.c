/* The new mount API: fsopen, fspick, fsmount, move_mount, open_tree; lines from strace 6.1. */
#include <errno.h>
#include <stdint.h>
#include <sys/syscall.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_fsopen_fspick_fsmount(void)
{
	struct dh d;
	dh_init(&d, SYS_fsopen, 0x1000, 1, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "ext2");
	CHECK_STR(dh_run(&d, 5), "fsopen(\"ext2\", FSOPEN_CLOEXEC) = 5");
	dh_free(&d);
	dh_init(&d, SYS_fsopen, 0, 2, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EINVAL), "fsopen(NULL, 0x2 /* FSOPEN_??? */) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_fspick, -1, 0x1000, 0x1f, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/");
	CHECK_STR(dh_run(&d, -EINVAL), "fspick(-1, \"/\", FSPICK_CLOEXEC|FSPICK_SYMLINK_NOFOLLOW|"
		  "FSPICK_NO_AUTOMOUNT|FSPICK_EMPTY_PATH|0x10) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_fsmount, -1, 1, 0xff, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EINVAL), "fsmount(-1, FSMOUNT_CLOEXEC, MOUNT_ATTR_RDONLY|"
		  "MOUNT_ATTR_NOSUID|MOUNT_ATTR_NODEV|MOUNT_ATTR_NOEXEC|MOUNT_ATTR_NOATIME|"
		  "MOUNT_ATTR_STRICTATIME|MOUNT_ATTR_NODIRATIME|0x40) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_move_mount_open_tree(void)
{
	struct dh d;
	dh_init(&d, SYS_move_mount, -1, 0x1000, -100, 0x2000, 0x377, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/a");
	dh_mem_str(&d, SC_AT_ENTRY, 0x2000, "/b");
	CHECK_STR(dh_run(&d, -EINVAL), "move_mount(-1, \"/a\", AT_FDCWD, \"/b\", "
		  "MOVE_MOUNT_F_SYMLINKS|MOVE_MOUNT_F_AUTOMOUNTS|MOVE_MOUNT_F_EMPTY_PATH|"
		  "MOVE_MOUNT_T_SYMLINKS|MOVE_MOUNT_T_AUTOMOUNTS|MOVE_MOUNT_T_EMPTY_PATH|"
		  "MOVE_MOUNT_SET_GROUP|0x200) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_open_tree, -100, 0x1000, 0x89901, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/a");
	CHECK_STR(dh_run(&d, -ENOENT), "open_tree(AT_FDCWD, \"/a\", OPEN_TREE_CLONE|OPEN_TREE_CLOEXEC|"
		  "AT_SYMLINK_NOFOLLOW|AT_NO_AUTOMOUNT|AT_EMPTY_PATH|AT_RECURSIVE) = -1 ENOENT "
		  "(No such file or directory)");
	dh_free(&d);
}

static void test_fsconfig_and_mount_setattr(void)
{
	struct dh d;
	dh_init(&d, SYS_fsconfig, -1, 2, 0x1000, 0x2000, 3, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "key");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, "\1\2\3", 3);
	CHECK_STR(dh_run(&d, -EINVAL), "fsconfig(-1, FSCONFIG_SET_BINARY, \"key\", \"\\x01\\x02\\x03\", 3) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	dh_init(&d, SYS_fsconfig, -1, 6, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -EINVAL), "fsconfig(-1, FSCONFIG_CMD_CREATE, NULL, NULL, 0) "
		  "= -1 EINVAL (Invalid argument)");
	dh_free(&d);
	uint64_t a[4] = { 0x100001, 0x2, 1 << 18, 3 };
	dh_init(&d, SYS_mount_setattr, -100, 0x1000, 0x8000, 0x2000, 32, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "/nonexistent");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, a, sizeof(a));
	CHECK_STR(dh_run(&d, -EBADF), "mount_setattr(AT_FDCWD, \"/nonexistent\", AT_RECURSIVE, "
		  "{attr_set=MOUNT_ATTR_RDONLY|MOUNT_ATTR_IDMAP, attr_clr=MOUNT_ATTR_NOSUID, "
		  "propagation=MS_PRIVATE, userns_fd=3}, 32) = -1 EBADF (Bad file descriptor)");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_fsopen_fspick_fsmount),
	TK_CASE(test_move_mount_open_tree),
	TK_CASE(test_fsconfig_and_mount_setattr))

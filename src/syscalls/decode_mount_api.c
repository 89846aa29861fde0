/*
 * The new mount API: fsopen, fspick, fsmount, move_mount, open_tree.
 * Each returns a descriptor (or 0) and takes flags of its own.
 */
#include "decoder.h"
#include "print_stat.h"

SC_DECODER(fsopen, MEM_STR_IN(0))
{
	p_str(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_fsopen_flags, (unsigned)c->args[1], "FSOPEN_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(fspick, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_fspick_flags, (unsigned)c->args[2], "FSPICK_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(fsmount)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_flags(c, &xlat_fsmount_flags, (unsigned)c->args[1], "FSMOUNT_???");
	p_sep(c);
	p_flags(c, &xlat_fsmount_attr_flags, (unsigned)c->args[2], "MOUNT_ATTR_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(move_mount, MEM_PATH(1), MEM_PATH(3))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_dirfd_path(c, c->args[2], c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_move_mount_flags, (unsigned)c->args[4], "MOVE_MOUNT_???");
	return SC_DONE;
}

SC_DECODER(open_tree, MEM_PATH(1))
{
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_open_tree_flags, (unsigned)c->args[2], "OPEN_TREE_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

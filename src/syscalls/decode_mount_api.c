/*
 * The new mount API: fsopen, fspick, fsmount, move_mount, open_tree.
 * Each returns a descriptor (or 0) and takes flags of its own.
 */
#include <sys/mount.h>

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

/* -P: both directory descriptors and both paths. */
static void move_mount_trace(const struct sc_call *c, struct sc_trace_args *t)
{
	*t = (struct sc_trace_args){ .fd = { (int)c->args[0], (int)c->args[2] }, .nfd = 2,
				     .path = { c->args[1], c->args[3] }, .npath = 2 };
}

SC_DECODER_FDS(move_mount, move_mount_trace, MEM_PATH(1), MEM_PATH(3))
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

/* FSCONFIG_SET_BINARY's value: aux bytes, copied up to -s and one more. */
static size_t fsconfig_binary_len(const struct sc_call *c)
{
	int aux = (int)c->args[4];
	size_t max = (c->fmt ? c->fmt->strsize : 32) + 1;
	if ((unsigned)c->args[1] != 2 || aux <= 0)
		return 0;
	return (size_t)aux < max ? (size_t)aux : max;
}

/* fsconfig: the key and value's meaning depend on the command. */
/*
 * -P, as strace: not the context descriptor, only what a command points at:
 * FSCONFIG_SET_FD's descriptor, FSCONFIG_SET_PATH*'s directory and path.
 */
static void fsconfig_trace(const struct sc_call *c, struct sc_trace_args *t)
{
	unsigned cmd = (unsigned)c->args[1];
	if (cmd == FSCONFIG_SET_FD || cmd == FSCONFIG_SET_PATH || cmd == FSCONFIG_SET_PATH_EMPTY)
		t->fd[t->nfd++] = (int)c->args[4];
	if (cmd == FSCONFIG_SET_PATH || cmd == FSCONFIG_SET_PATH_EMPTY)
		t->path[t->npath++] = c->args[3];
}

SC_DECODER_FDS(fsconfig, fsconfig_trace, MEM_STR_IN(2), MEM_PATH(3),
	   MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY, fsconfig_binary_len))
{
	unsigned cmd = (unsigned)c->args[1];
	uint64_t key = c->args[2], value = c->args[3];
	int aux = (int)c->args[4];
	const unsigned char *p;
	p_fd(c, c->args[0]);
	p_sep(c);
	p_xval(c, &xlat_fsconfig_cmds, cmd, "FSCONFIG_???");
	p_sep(c);
	if (cmd <= 5)	/* SET_FLAG .. SET_FD name a key */
		p_str_max(c, key, 256);
	else
		p_addr(c, key);
	p_sep(c);
	if (cmd == 1) {		/* FSCONFIG_SET_STRING */
		p_str_max(c, value, 256);
	} else if (cmd == 3 || cmd == 4) {	/* SET_PATH, SET_PATH_EMPTY */
		p_path(c, value);
	} else if (cmd == 2 && aux >= 0 && aux <= 1024 * 1024) {	/* SET_BINARY: hex */
		size_t max = c->fmt ? c->fmt->strsize : 32;
		size_t want = (size_t)aux < max ? (size_t)aux : max;
		size_t need = (size_t)aux > want ? want + 1 : want;
		long n = value ? sc_mem_peek(c, value, need, &p) : -1;
		if (!value)
			out(c, "NULL");
		else if (!aux)
			out(c, "\"\"");
		else if (n < 0 || (size_t)n < need)
			p_addr(c, value);
		else
			p_hex_bytes(c, p, want, (size_t)aux > want);
	} else {
		p_addr(c, value);
	}
	p_sep(c);
	if (cmd == 3 || cmd == 4)
		p_dirfd(c, (uint64_t)(int64_t)aux);
	else if (cmd == 5)	/* FSCONFIG_SET_FD */
		p_fd(c, (uint64_t)(int64_t)aux);
	else
		out(c, "%d", aux);
	return SC_DONE;
}

/* struct mount_attr (VER0): what to set, what to clear, propagation, a user namespace. */
struct mount_attr_ {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

#define MOUNT_ATTR_IDMAP_ 0x00100000u

SC_DECODER(mount_setattr, MEM_PATH(1),
	   { .arg = 3, .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = 4,
	     .size = 4096 })
{
	struct mount_attr_ a;
	uint64_t size = c->args[4];
	p_dirfd_path(c, c->args[0], c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_mount_setattr_flags, (unsigned)c->args[2], "AT_???");
	p_sep(c);
	if (size < sizeof(a)) {
		p_addr(c, c->args[3]);
	} else if (p_fetch(c, c->args[3], &a, sizeof(a)) == 0) {
		out(c, "{attr_set=");
		p_flags(c, &xlat_mount_attr_flags, a.attr_set, "MOUNT_ATTR_???");
		out(c, ", attr_clr=");
		p_flags(c, &xlat_mount_attr_flags, a.attr_clr, "MOUNT_ATTR_???");
		out(c, ", propagation=");
		p_xval(c, &xlat_mount_attr_propagation, a.propagation, "MS_???");
		out(c, ", userns_fd=");
		if (a.userns_fd > 0x7fffffff || !((a.attr_set | a.attr_clr) & MOUNT_ATTR_IDMAP_))
			out(c, "%llu", (unsigned long long)a.userns_fd);
		else
			p_fd(c, a.userns_fd);
		p_struct_tail(c, c->args[3], sizeof(a), size);
		out(c, "}");
	}
	out(c, ", %llu", (unsigned long long)size);
	return SC_DONE;
}

/*
 * fcntl: what the third argument is, and how the result prints, depend on
 * the command.  Getters that return flags print them hex with a comment:
 * "= 0x8002 (flags O_RDWR|O_LARGEFILE)".
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "print_pid.h"
#include "decoder.h"
#include "print_stat.h"

#ifndef F_OFD_GETLK
#define F_OFD_GETLK 36
#define F_OFD_SETLK 37
#define F_OFD_SETLKW 38
#endif

/* struct flock; l_pid only where the kernel reports it (F_GETLK). */
static void p_flock(struct sc_call *c, uint64_t addr, bool getlk)
{
	struct flock fl;
	if (p_fetch(c, addr, &fl, sizeof(fl)) < 0)
		return;
	out(c, "{l_type=");
	p_xval(c, &xlat_lock_types, (uint16_t)fl.l_type, "F_???");
	out(c, ", l_whence=");
	p_xval(c, &xlat_whence, (uint16_t)fl.l_whence, "SEEK_???");
	out(c, ", l_start=%" PRId64 ", l_len=%" PRId64, (int64_t)fl.l_start, (int64_t)fl.l_len);
	if (getlk) {
		out(c, ", l_pid=");
		p_pid(c, fl.l_pid, SC_PT_TGID);
	}
	out(c, "}");
}

static void p_owner_ex(struct sc_call *c, uint64_t addr)
{
	struct f_owner_ex o;
	if (p_fetch(c, addr, &o, sizeof(o)) < 0)
		return;
	out(c, "{type=");
	p_xval(c, &xlat_f_owner_types, (unsigned)o.type, "F_OWNER_???");
	out(c, ", pid=");
	p_pid(c, o.pid, o.type == F_OWNER_TID ? SC_PT_TID : o.type == F_OWNER_PGRP ? SC_PT_PGID : SC_PT_TGID);
	out(c, "}");
}

/* The result comment of the getters: "(flags FD_CLOEXEC)". */
static void rv_flags(struct sc_call *c, const char *prefix, const struct xlat *x, bool open_modes)
{
	struct strbuf sb = { 0 };
	uint64_t v = (uint64_t)c->ret;
	sb_add(&sb, "(");
	sb_add(&sb, prefix);
	if (open_modes) {
		sb_xlat(&sb, &xlat_open_access_modes, v & O_ACCMODE, NULL);
		v &= ~(uint64_t)O_ACCMODE;
		if (v) {
			sb_addc(&sb, '|');
			sb_flags(&sb, x, v, NULL);
		}
	} else {
		sb_flags(&sb, x, v, NULL);
	}
	sb_add(&sb, ")");
	snprintf(c->rv_extra, sizeof(c->rv_extra), "%s", sb_str(&sb));
	sb_free(&sb);
}

static void rv_name(struct sc_call *c, const char *name)
{
	if (name)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", name);
}

/* Commands whose argument the kernel reads: everything printed at entry. */
static int fcntl_entry(struct sc_call *c, unsigned cmd, uint64_t arg)
{
	switch (cmd) {
	case F_SETFD:
		p_sep(c);
		p_flags(c, &xlat_fd_flags, arg, "FD_???");
		return SC_DONE;
	case F_SETOWN:
		p_sep(c);
		p_pid_tgid_pgid(c, (int)arg);
		return SC_DONE;
	case F_SETPIPE_SZ:
		out(c, ", %d", (int)arg);
		return SC_DONE;
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		out(c, ", %d", (int)arg);
		c->rv = SC_RV_FD;
		return SC_DONE;
	case F_SETFL:
		p_sep(c);
		p_xval(c, &xlat_open_access_modes, arg & O_ACCMODE, NULL);
		if ((unsigned)arg & ~(unsigned)O_ACCMODE) {
			out(c, "|");
			p_flags(c, &xlat_open_flags, (unsigned)arg & ~(unsigned)O_ACCMODE, NULL);
		}
		return SC_DONE;
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		p_sep(c);
		p_flock(c, arg, false);
		return SC_DONE;
	case F_SETOWN_EX:
		p_sep(c);
		p_owner_ex(c, arg);
		return SC_DONE;
	case F_NOTIFY:
		p_sep(c);
		p_flags(c, &xlat_dnotify_flags, arg, "DN_???");
		return SC_DONE;
	case F_SETLEASE:
		p_sep(c);
		p_xval(c, &xlat_lock_types, arg, "F_???");
		return SC_DONE;
	case F_ADD_SEALS:
		p_sep(c);
		p_flags(c, &xlat_f_seals, arg, "F_SEAL_???");
		return SC_DONE;
	case F_SETSIG:
		p_sep(c);
		p_signal(c, arg);
		return SC_DONE;
	case F_GETOWN:
		c->rv = SC_RV_TGID;	/* a negative owner is a process group: printed plain */
		return SC_DONE;
	case F_GETPIPE_SZ:
		return SC_DONE;
	case F_GETFD:
	case F_GETFL:
	case F_GETLK:
	case F_OFD_GETLK:
	case F_GETOWN_EX:
	case F_GETLEASE:
	case F_GET_SEALS:
	case F_GETSIG:
		return 0;
	}
	out(c, ", %#" PRIx64, arg);
	return SC_DONE;
}

/* At exit: the structs the kernel filled and the getters' result comments. */
static void fcntl_exit(struct sc_call *c, unsigned cmd, uint64_t arg)
{
	bool ok = !sc_failed(c);
	switch (cmd) {
	case F_GETLK:
	case F_OFD_GETLK:
		p_sep(c);
		p_flock(c, arg, true);
		return;
	case F_GETOWN_EX:
		p_sep(c);
		p_owner_ex(c, arg);
		return;
	}
	if (!ok)
		return;
	switch (cmd) {
	case F_GETFD:
		if (c->ret) {
			c->rv = SC_RV_HEX;
			rv_flags(c, "flags ", &xlat_fd_flags, false);
		}
		break;
	case F_GETFL:
		c->rv = SC_RV_HEX;
		rv_flags(c, "flags ", &xlat_open_flags, true);
		break;
	case F_GETLEASE:
		c->rv = SC_RV_HEX;
		rv_name(c, xlat_str(&xlat_lock_types, (uint64_t)c->ret));
		break;
	case F_GET_SEALS:
		if (c->ret) {
			c->rv = SC_RV_HEX;
			rv_flags(c, "seals ", &xlat_f_seals, false);
		}
		break;
	case F_GETSIG:
		if (c->ret)
			rv_name(c, sc_signame((int)c->ret));
		break;
	}
}

/* Only the lock and owner commands point to memory. */
static size_t fcntl_arg_len(const struct sc_call *c)
{
	switch ((unsigned)c->args[1]) {
	case F_GETLK:
	case F_SETLK:
	case F_SETLKW:
	case F_OFD_GETLK:
	case F_OFD_SETLK:
	case F_OFD_SETLKW:
		return sizeof(struct flock);
	case F_GETOWN_EX:
	case F_SETOWN_EX:
		return sizeof(struct f_owner_ex);
	}
	return 0;
}

SC_DECODER(fcntl, { .arg = 2, .kind = SC_MEM_BUF, .when = SC_AT_ENTRY | SC_AT_EXIT,
		    .len_src = SC_LEN_FN, .len_fn = fcntl_arg_len, .size = sizeof(struct flock) })
{
	unsigned cmd = (unsigned)c->args[1];
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		p_xval(c, &xlat_fcntl_cmds, cmd, "F_???");
		return fcntl_entry(c, cmd, c->args[2]);
	}
	fcntl_exit(c, cmd, c->args[2]);
	return 0;
}

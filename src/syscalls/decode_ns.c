/*
 * Namespaces and process relations: unshare, setns, kcmp, pidfd_getfd,
 * process_mrelease, and I/O priorities (ioprio_get/ioprio_set).
 */
#include <stdio.h>

#include "print_pid.h"
#include "decoder.h"
#include "ioprio.h"

SC_DECODER(unshare)
{
	p_flags(c, &xlat_unshare_flags, c->args[0], "CLONE_???");
	return SC_DONE;
}

/* nstype is one namespace type (or 0), so it prints as a value, not as flags. */
SC_DECODER(setns)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	unsigned type = (unsigned)c->args[1];
	if (type == 0 || xlat_str(&xlat_setns_types, type))
		p_flags(c, &xlat_setns_types, type, NULL);
	else
		p_flags(c, &xlat_setns_types, type, "CLONE_NEW???");
	return SC_DONE;
}

struct kcmp_epoll_slot_ {
	uint32_t efd, tfd, toff;
};

/* fd in process pid (as the tracee numbers it): -y shows its path there. */
static void p_fd_of(struct sc_call *c, int pid, int fd)
{
	struct sc_call there = *c;
	there.tid = sc_pid_translate(c->tid, pid, SC_PT_TGID);
	if (there.tid > 0)
		p_fd(&there, (uint64_t)fd);
	else
		out(c, "%d", fd);
}

SC_DECODER(kcmp, MEM_BYTES_IN(4, sizeof(struct kcmp_epoll_slot_)))
{
	int type = (int)c->args[2];
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	p_sep(c);
	p_pid(c, (int)c->args[1], SC_PT_TGID);
	p_sep(c);
	p_xval(c, &xlat_kcmp_types, (unsigned)type, "KCMP_???");
	switch (type) {
	case 0:	/* KCMP_FILE: two descriptors */
		p_sep(c);
		p_fd_of(c, (int)c->args[0], (int)c->args[3]);
		p_sep(c);
		p_fd_of(c, (int)c->args[1], (int)c->args[4]);
		break;
	case 7: {	/* KCMP_EPOLL_TFD: a descriptor and the slot in pid2's epoll */
		struct kcmp_epoll_slot_ s;
		p_sep(c);
		p_fd_of(c, (int)c->args[0], (int)c->args[3]);
		p_sep(c);
		if (p_fetch(c, c->args[4], &s, sizeof(s)) == 0)
			out(c, "{efd=%d, tfd=%d, toff=%u}", (int)s.efd, (int)s.tfd, s.toff);
		break;
	}
	case 1: case 2: case 3: case 4: case 5: case 6:
		break;	/* the two processes alone */
	default:
		out(c, ", %#llx, %#llx", (unsigned long long)c->args[3],
		    (unsigned long long)c->args[4]);
	}
	return SC_DONE;
}

/* The process a pidfd of the tracee refers to: fdinfo's "Pid:" line; 0 when unknown. */
static pid_t pidfd_pid(struct sc_call *c, int pidfd)
{
	char path[64], line[128];
	pid_t pid = 0;
	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)sc_pid_proc(c->tid), pidfd);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	return pid > 0 ? pid : 0;
}

SC_DECODER(pidfd_getfd)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	/* -y: the descriptor as the pidfd's process has it */
	pid_t owner = c->fmt && c->fmt->yflag ? pidfd_pid(c, (int)c->args[0]) : 0;
	if (owner) {
		struct sc_call there = *c;
		there.tid = owner;
		p_fd(&there, c->args[1]);
		out(c, ", ");
	} else {
		out(c, "%d, ", (int)c->args[1]);
	}
	p_hex(c, (unsigned)c->args[2]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(process_mrelease)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_hex(c, (unsigned)c->args[1]);
	return SC_DONE;
}

/* ---- I/O priorities ------------------------------------------------------- */

#define IOPRIO_CLASS_SHIFT_ 13
#define IOPRIO_DATA_MASK_ ((1u << IOPRIO_CLASS_SHIFT_) - 1)

/* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4); aio's iocbs print theirs with it too. */
void sb_ioprio(struct strbuf *sb, uint64_t v, const void *unused)
{
	unsigned prio = (unsigned)v;
	(void)unused;
	sb_add(sb, "IOPRIO_PRIO_VALUE(");
	sb_xlat(sb, &xlat_ioprio_class, prio >> IOPRIO_CLASS_SHIFT_, "IOPRIO_CLASS_???");
	sb_printf(sb, ", %u)", prio & IOPRIO_DATA_MASK_);
}

static void p_ioprio_who(struct sc_call *c)
{
	unsigned which = (unsigned)c->args[0];
	p_xval(c, &xlat_ioprio_who, which, "IOPRIO_WHO_???");
	p_sep(c);
	if (which == 1)		/* IOPRIO_WHO_PROCESS */
		p_pid(c, (int)c->args[1], SC_PT_TGID);
	else if (which == 2)	/* IOPRIO_WHO_PGRP */
		p_pid(c, (int)c->args[1], SC_PT_PGID);
	else
		out(c, "%d", (int)c->args[1]);
}

SC_DECODER(ioprio_get)
{
	if (c->entering) {
		p_ioprio_who(c);
		return 0;
	}
	if (!sc_failed(c) && xlat_style != XLAT_STYLE_RAW) {
		struct strbuf sb = STRBUF_INIT;
		sb_ioprio(&sb, (unsigned)c->ret, NULL);
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", sb.buf ? sb.buf : "");
		sb_free(&sb);
	}
	return 0;
}

SC_DECODER(ioprio_set)
{
	p_ioprio_who(c);
	p_sep(c);
	/* An int: -X raw prints it signed, -X verbose with the parts in -X verbose too. */
	sb_xparts_how(c->out, (uint64_t)(int64_t)(int)c->args[2], SB_XP_DEC | SB_XP_KEEP_STYLE,
		      sb_ioprio, NULL);
	return SC_DONE;
}

/*
 * Namespaces and process relations: unshare, setns, kcmp, pidfd_getfd,
 * process_mrelease, and I/O priorities (ioprio_get/ioprio_set).
 */
#include <stdio.h>

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

SC_DECODER(kcmp, MEM_BYTES_IN(4, sizeof(struct kcmp_epoll_slot_)))
{
	int type = (int)c->args[2];
	out(c, "%d, %d, ", (int)c->args[0], (int)c->args[1]);
	p_xval(c, &xlat_kcmp_types, (unsigned)type, "KCMP_???");
	switch (type) {
	case 0:	/* KCMP_FILE: two descriptors */
		out(c, ", %d, %d", (int)c->args[3], (int)c->args[4]);
		break;
	case 7: {	/* KCMP_EPOLL_TFD: a descriptor and the slot in pid2's epoll */
		struct kcmp_epoll_slot_ s;
		out(c, ", %d, ", (int)c->args[3]);
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

SC_DECODER(pidfd_getfd)
{
	p_fd(c, c->args[0]);
	p_sep(c);
	out(c, "%d, ", (int)c->args[1]);
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
	p_xval(c, &xlat_ioprio_who, (unsigned)c->args[0], "IOPRIO_WHO_???");
	out(c, ", %d", (int)c->args[1]);
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

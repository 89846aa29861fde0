/*
 * epoll: instances, their interest lists and the events they report; each
 * event's data prints as both u32 and u64, since only the program knows
 * which it meant.
 */
#include <inttypes.h>
#include <string.h>
#include <sys/epoll.h>

#include "print_net.h"
#include "print_signal.h"

SC_DECODER(epoll_create)
{
	out(c, "%d", (int)c->args[0]);
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(epoll_create1)
{
	p_flags(c, &xlat_epollflags, c->args[0], "EPOLL_???");
	c->rv = SC_RV_FD;
	return SC_DONE;
}

static bool p_epoll_event(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct epoll_event ev;
	(void)size;
	(void)data;
	memcpy(&ev, elem, sizeof(ev));
	out(c, "{events=");
	p_flags(c, &xlat_epollevents, ev.events, "EPOLL???");
	out(c, ", data={u32=%u, u64=%" PRIu64 "}}", (uint32_t)ev.data.u64, (uint64_t)ev.data.u64);
	return true;
}

SC_DECODER(epoll_ctl, MEM_STRUCT_IN(3, struct epoll_event))
{
	struct epoll_event ev;
	p_fd(c, c->args[0]);
	p_sep(c);
	p_xval(c, &xlat_epollctls, (unsigned)c->args[1], "EPOLL_CTL_???");
	p_sep(c);
	p_fd(c, c->args[2]);
	p_sep(c);
	if ((unsigned)c->args[1] == EPOLL_CTL_DEL)
		p_addr(c, c->args[3]);
	else if (p_fetch(c, c->args[3], &ev, sizeof(ev)) == 0)
		p_epoll_event(c, &ev, sizeof(ev), NULL);
	return SC_DONE;
}

/* At exit: the events the kernel returned, then maxevents. */
static int epoll_wait_common(struct sc_call *c)
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else
		pn_array(c, c->args[1], (uint64_t)c->ret, sizeof(struct epoll_event),
			 p_epoll_event, NULL);
	out(c, ", %d, ", (int)c->args[2]);
	return 0;
}

SC_DECODER(epoll_wait, MEM_ARRAY_OUT_RET(1, struct epoll_event))
{
	if (epoll_wait_common(c) == 0 && !c->entering)
		out(c, "%d", (int)c->args[3]);
	return 0;
}

/* Printed at exit: when the call failed, strace shows the pointers as addresses. */
static void p_sigmask_tail(struct sc_call *c)
{
	p_sep(c);
	if (sc_failed(c))
		p_addr(c, c->args[4]);
	else
		p_sigset(c, c->args[4], c->args[5]);
	out(c, ", %" PRIu64, c->args[5]);
}

SC_DECODER(epoll_pwait, MEM_ARRAY_OUT_RET(1, struct epoll_event), MEM_SIGSET_IN(4, 5))
{
	epoll_wait_common(c);
	if (!c->entering) {
		out(c, "%d", (int)c->args[3]);
		p_sigmask_tail(c);
	}
	return 0;
}

SC_DECODER(epoll_pwait2, MEM_ARRAY_OUT_RET(1, struct epoll_event),
	   MEM_STRUCT_IN(3, struct timespec), MEM_SIGSET_IN(4, 5))
{
	epoll_wait_common(c);
	if (!c->entering) {
		if (sc_failed(c))
			p_addr(c, c->args[3]);
		else
			p_timespec(c, c->args[3]);
		p_sigmask_tail(c);
	}
	return 0;
}

/*
 * poll, ppoll, select, pselect6: the descriptors asked about at entry, and
 * after the return value what became ready and the time left, as strace's
 * "= 1 ([{fd=3, revents=POLLIN}])" and "= 1 (in [3], left {...})".
 */
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "print_net.h"
#include "print_signal.h"

#define FDSET_MAX (1024u * 1024 / 8)	/* strace reads at most 1M descriptors */

static bool p_pollfd(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct pollfd p;
	(void)size;
	(void)data;
	memcpy(&p, elem, sizeof(p));
	out(c, "{fd=");
	p_fd(c, (uint64_t)(int64_t)p.fd);
	if (p.fd >= 0) {
		out(c, ", events=");
		p_flags(c, &xlat_pollflags, (unsigned short)p.events, "POLL???");
	}
	out(c, "}");
	return true;
}

static void poll_entry(struct sc_call *c)
{
	pn_array(c, c->args[0], (unsigned)c->args[1], sizeof(struct pollfd), p_pollfd, NULL);
	out(c, ", %u, ", (unsigned)c->args[1]);
}

/* "[{fd=3, revents=POLLIN}]" for the ready descriptors, then ", left {...}". */
static void poll_exit(struct sc_call *c, uint64_t ts_addr)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned nfds = (unsigned)c->args[1];
	uint64_t start = c->args[0];
	unsigned printed = 0;
	unsigned max = c->fmt && !c->fmt->verbose ? c->fmt->strsize : -1u;

	if (sc_failed(c))
		return;
	if (c->ret == 0) {
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(Timeout)");
		return;
	}
	if (!start || !nfds)
		return;
	for (unsigned i = 0; i < nfds; i++) {
		struct pollfd p;
		uint64_t cur = start + (uint64_t)i * sizeof(p);
		if (sc_mem_read(c, cur, &p, sizeof(p)) < 0) {
			sb_add(&sb, sb.len ? ", " : "[");
			sb_printf(&sb, "%#" PRIx64, cur);
			break;
		}
		if (!p.revents)
			continue;
		sb_add(&sb, sb.len ? ", " : "[");
		if (printed >= max) {
			sb_add(&sb, "...");
			break;
		}
		sb_printf(&sb, "{fd=%d, revents=", p.fd);
		sb_flags(&sb, &xlat_pollflags, (unsigned short)p.revents, NULL);
		sb_addc(&sb, '}');
		printed++;
	}
	if (sb.len)
		sb_addc(&sb, ']');
	if (ts_addr) {
		char left[64];
		pn_capture(c, left, sizeof(left), p_timespec, ts_addr);
		sb_add(&sb, sb.len ? ", left " : "left ");
		sb_add(&sb, left);
	}
	if (sb.len)
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", sb_str(&sb));
	sb_free(&sb);
}

SC_DECODER(poll, MEM_ARRAY_INOUT(0, struct pollfd, 1))
{
	if (c->entering) {
		poll_entry(c);
		out(c, "%d", (int)c->args[2]);
		return 0;
	}
	poll_exit(c, 0);
	return 0;
}

SC_DECODER(ppoll, MEM_ARRAY_INOUT(0, struct pollfd, 1), MEM_STRUCT_INOUT(2, struct timespec),
	   MEM_SIGSET_IN(3, 4))
{
	if (c->entering) {
		poll_entry(c);
		p_timespec(c, c->args[2]);
		p_sep(c);
		p_sigset(c, c->args[3], c->args[4]);
		out(c, ", %" PRIu64, c->args[4]);
		return 0;
	}
	poll_exit(c, c->args[2]);
	return 0;
}

/* ---- select, pselect6 --------------------------------------------------- */

/* The kernel takes nfds as an int; strace caps what it reads at 1M fds. */
static int select_nfds(const struct sc_call *c)
{
	int nfds = (int)c->args[0];
	if (nfds < 0)
		return 0;
	return nfds > 1024 * 1024 ? 1024 * 1024 : nfds;
}

/* Bytes of each fd_set: whole longs covering nfds bits. */
static size_t fdset_bytes(const struct sc_call *c)
{
	int nfds = select_nfds(c);
	return (((size_t)nfds + 7) / 8 + sizeof(long) - 1) & ~(sizeof(long) - 1);
}

#define MEM_FDSET(a) { .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY | SC_AT_EXIT, \
		       .len_src = SC_LEN_FN, .len_fn = fdset_bytes, .size = FDSET_MAX }

static bool bit_set(const unsigned char *set, int i)
{
	return set[i / 8] & (1u << (i % 8));
}

static void p_fdset(struct sc_call *c, uint64_t addr)
{
	size_t n = fdset_bytes(c);
	const unsigned char *set;
	int nfds = select_nfds(c);
	if (!n || !addr || sc_mem_peek(c, addr, n, &set) != (long)n) {
		p_addr(c, addr);
		return;
	}
	out(c, "[");
	bool first = true;
	for (int i = 0; i < nfds; i++) {
		if (!bit_set(set, i))
			continue;
		if (!first)
			out(c, " ");
		first = false;
		p_fd(c, (uint64_t)i);
	}
	out(c, "]");
}

static void select_entry(struct sc_call *c, void (*p_time)(struct sc_call *, uint64_t))
{
	out(c, "%d", (int)c->args[0]);
	for (int i = 1; i <= 3; i++) {
		p_sep(c);
		p_fdset(c, c->args[i]);
	}
	p_sep(c);
	p_time(c, c->args[4]);
}

/* "in [3], out [4], left {...}", with strace's quirks kept. */
static void select_exit(struct sc_call *c, void (*p_time)(struct sc_call *, uint64_t))
{
	static const char *const names[] = { "in", "out", "except" };
	struct strbuf sb = STRBUF_INIT;
	size_t n = fdset_bytes(c);
	int nfds = select_nfds(c);
	const char *sep = "";

	if (sc_failed(c))
		return;
	int ready = (int)c->ret;
	if (ready == 0) {
		snprintf(c->rv_extra, sizeof(c->rv_extra), "(Timeout)");
		return;
	}
	for (int i = 0; i < 3 && ready > 0; i++) {
		const unsigned char *set;
		bool first = true;
		uint64_t addr = c->args[i + 1];
		if (!addr || !n || sc_mem_peek(c, addr, n, &set) != (long)n)
			continue;
		for (int j = 0; j < nfds; j++) {
			if (!bit_set(set, j))
				continue;
			if (first) {
				sb_printf(&sb, "%s%s [%d", sep, names[i], j);
				first = false;
				sep = ", ";
			} else {
				sb_printf(&sb, " %d", j);
			}
			if (--ready == 0)
				break;
		}
		/* strace closes the list after every set once anything was printed. */
		if (sb.len)
			sb_addc(&sb, ']');
	}
	if (c->args[4]) {
		char left[64];
		pn_capture(c, left, sizeof(left), p_time, c->args[4]);
		sb_printf(&sb, "%sleft %s", sep, left);
	}
	snprintf(c->rv_extra, sizeof(c->rv_extra), "(%s)", sb_str(&sb));
	sb_free(&sb);
}

SC_DECODER(select, MEM_FDSET(1), MEM_FDSET(2), MEM_FDSET(3),
	   MEM_STRUCT_INOUT(4, struct timeval))
{
	if (c->entering) {
		select_entry(c, p_timeval);
		return 0;
	}
	select_exit(c, p_timeval);
	return 0;
}

/* pselect6's last argument: {const sigset_t *ss; size_t ss_len}. */
struct sigset_argpack {
	uint64_t ss;
	uint64_t ss_len;
};

static void p_sigset_argpack(struct sc_call *c, uint64_t addr)
{
	struct sigset_argpack pack;
	if (p_fetch(c, addr, &pack, sizeof(pack)) < 0)
		return;
	/* The sigset sits behind the pack's first pointer: MEM_DEREF_IN copied it. */
	out(c, "{sigmask=");
	p_sigset(c, pack.ss, pack.ss_len);
	out(c, ", sigsetsize=%" PRIu64 "}", pack.ss_len);
}

SC_DECODER(pselect6, MEM_FDSET(1), MEM_FDSET(2), MEM_FDSET(3),
	   MEM_STRUCT_INOUT(4, struct timespec), MEM_STRUCT_IN(5, struct sigset_argpack),
	   MEM_DEREF_IN(5, 0, 128))
{
	if (c->entering) {
		select_entry(c, p_timespec);
		p_sep(c);
		p_sigset_argpack(c, c->args[5]);
		return 0;
	}
	select_exit(c, p_timespec);
	return 0;
}

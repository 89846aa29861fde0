/*
 * perf event requests (<linux/perf_event.h>).  PERF_EVENT_IOC_MODIFY_ATTRIBUTES
 * prints struct perf_event_attr with perf_event_open's printer (print_perf.c).
 */
#include <inttypes.h>
#include <string.h>
#include <linux/perf_event.h>

#include "ioctl.h"
#include "syscalls/print_perf.h"

static const struct ioctl_shape_entry shapes[] = {
	{ PERF_EVENT_IOC_REFRESH, IS_INT }, { PERF_EVENT_IOC_SET_OUTPUT, IS_INT },
	{ PERF_EVENT_IOC_SET_BPF, IS_INT }, { PERF_EVENT_IOC_PAUSE_OUTPUT, IS_ULONG },
	{ PERF_EVENT_IOC_PERIOD, IS_U64_IN }, { PERF_EVENT_IOC_ID, IS_U64_OUT },
};

/* The filter string: up to -s, its address when neither its NUL nor -s + 1 bytes are there. */
static void p_filter(struct sc_call *c, uint64_t arg)
{
	const unsigned char *p;
	size_t max = ioctl_strsize(c);
	long n = arg ? sc_mem_peek(c, arg, max + 1, &p) : -1;
	const unsigned char *nul = n > 0 ? memchr(p, 0, (size_t)n) : NULL;
	if (!nul && n < (long)max + 1) {
		p_addr(c, arg);
		return;
	}
	size_t len = nul ? (size_t)(nul - p) : max;
	p_quoted(c, p, len, !nul);
}

static void p_ids(struct sc_call *c, uint64_t addr, uint32_t cnt)
{
	for (uint32_t i = 0; i < cnt; i++) {
		uint32_t id;
		if (sc_mem_read(c, addr + 4 * (uint64_t)i, &id, sizeof(id)) < 0) {
			if (!i) {
				p_addr(c, addr);
				return;
			}
			out(c, ", ... /* ");
			p_addr(c, addr + 4 * (uint64_t)i);
			out(c, " */]");
			return;
		}
		if (i >= ioctl_strsize(c)) {
			out(c, ", ...]");
			return;
		}
		out(c, i ? ", %u" : "[%u", id);
	}
	out(c, cnt ? "]" : "[]");
}

/* {ids_len=N at entry; at exit the programs attached, or "..." when there are none to show. */
static int query_bpf(struct sc_call *c, uint64_t arg)
{
	uint32_t v[2];
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, v, sizeof(v[0])) < 0)
			return SC_DONE;
		out(c, "{ids_len=%u", v[0]);
		return 0;
	}
	if (sc_failed(c) || sc_mem_read(c, arg, v, sizeof(v)) < 0) {
		out(c, ", ...}");
		return 0;
	}
	out(c, ", prog_cnt=%u, ids=", v[1]);
	p_ids(c, arg + sizeof(v), v[0] < v[1] ? v[0] : v[1]);
	out(c, "}");
	return 0;
}

static int perf_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case PERF_EVENT_IOC_ENABLE:
	case PERF_EVENT_IOC_DISABLE:
	case PERF_EVENT_IOC_RESET:
		p_sep(c);
		p_flags(c, &xlat_perf_ioc_flags, (uint32_t)arg, "PERF_IOC_FLAG_???");
		return SC_DONE;
	case PERF_EVENT_IOC_SET_FILTER:
		return ioctl_setter(c, arg, p_filter);
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return ioctl_setter(c, arg, p_perf_attr);
	case PERF_EVENT_IOC_QUERY_BPF:
		return query_bpf(c, arg);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t perf_len(const struct sc_call *c, unsigned req)
{
	size_t ids = 8 + 4 * (ioctl_strsize(c) + 1);
	switch (req) {
	case PERF_EVENT_IOC_SET_FILTER:
		return ioctl_strsize(c) + 1;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return PERF_ATTR_PRINT_MAX;
	case PERF_EVENT_IOC_QUERY_BPF:
		return ids < IOCTL_MEM_CAP ? ids : IOCTL_MEM_CAP;
	}
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_perf = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_perf, .decode = perf_decode, .arg_len = perf_len,
};

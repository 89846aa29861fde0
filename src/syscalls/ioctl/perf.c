/*
 * perf event requests (<linux/perf_event.h>).  PERF_EVENT_IOC_MODIFY_ATTRIBUTES
 * prints struct perf_event_attr through its flag bits, the part strace shows
 * without -v; the fields after them print as "...".
 */
#include <inttypes.h>
#include <string.h>
#include <linux/perf_event.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ PERF_EVENT_IOC_REFRESH, IS_INT }, { PERF_EVENT_IOC_SET_OUTPUT, IS_INT },
	{ PERF_EVENT_IOC_SET_BPF, IS_INT }, { PERF_EVENT_IOC_PAUSE_OUTPUT, IS_ULONG },
	{ PERF_EVENT_IOC_PERIOD, IS_U64_IN }, { PERF_EVENT_IOC_ID, IS_U64_OUT },
};

/* The flag bits after read_format, in the order of the header's bit-fields. */
static const struct {
	const char *name;
	unsigned char width;
} attr_bits[] = {
	{ "disabled", 1 }, { "inherit", 1 }, { "pinned", 1 }, { "exclusive", 1 },
	{ "exclude_user", 1 }, { "exclude_kernel", 1 }, { "exclude_hv", 1 },
	{ "exclude_idle", 1 }, { "mmap", 1 }, { "comm", 1 }, { "freq", 1 },
	{ "inherit_stat", 1 }, { "enable_on_exec", 1 }, { "task", 1 }, { "watermark", 1 },
	{ "precise_ip", 2 }, { "mmap_data", 1 }, { "sample_id_all", 1 }, { "exclude_host", 1 },
	{ "exclude_guest", 1 }, { "exclude_callchain_kernel", 1 },
	{ "exclude_callchain_user", 1 }, { "mmap2", 1 }, { "comm_exec", 1 },
	{ "use_clockid", 1 }, { "context_switch", 1 }, { "write_backward", 1 },
	{ "namespaces", 1 }, { "ksymbol", 1 }, { "bpf_event", 1 }, { "aux_output", 1 },
	{ "cgroup", 1 }, { "text_poke", 1 }, { "build_id", 1 }, { "inherit_thread", 1 },
	{ "remove_on_exec", 1 }, { "sigtrap", 1 }, { "__reserved_1", 26 },
};

/* What precise_ip asks of the sampled instruction pointer. */
static const char *const skids[] = {
	"arbitrary skid", "constant skid", "requested to have 0 skid", "must have 0 skid",
};

/* The attr's words up to and including its flag bits (PERF_ATTR_SIZE_VER0's first 56 bytes). */
struct attr_head {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format, flags;
};

static void p_attr_bits(struct sc_call *c, uint64_t flags)
{
	unsigned shift = 0;
	for (size_t i = 0; i < sizeof(attr_bits) / sizeof(attr_bits[0]); i++) {
		unsigned w = attr_bits[i].width;
		uint64_t v = (flags >> shift) & ((1ULL << w) - 1);
		if (v && w == 2)
			out(c, ", %s=%" PRIu64 " /* %s */", attr_bits[i].name, v, skids[v]);
		else if (v && w > 2)
			out(c, ", %s=%#" PRIx64 " /* Bits 63..%u */", attr_bits[i].name, v, shift);
		else if (v)
			out(c, ", %s=%" PRIu64, attr_bits[i].name, v);
		shift += w;
	}
}

static void p_attr(struct sc_call *c, uint64_t arg)
{
	struct attr_head a;
	if (p_fetch(c, arg, &a, sizeof(a)) < 0)
		return;
	out(c, "{type=");
	p_xval(c, &xlat_perf_types, a.type, "PERF_TYPE_???");
	out(c, ", size=");
	p_xval(c, &xlat_perf_attr_sizes, a.size, "PERF_ATTR_SIZE_???");
	out(c, ", config=%#" PRIx64 ", %s=%" PRIu64 ", sample_type=", a.config,
	    a.flags & (1u << 10) ? "sample_freq" : "sample_period", a.sample_period);
	p_flags(c, &xlat_perf_sample_types, a.sample_type, "PERF_SAMPLE_???");
	out(c, ", read_format=");
	p_flags(c, &xlat_perf_read_formats, a.read_format, "PERF_FORMAT_???");
	p_attr_bits(c, a.flags);
	out(c, ", ...}");
}

static size_t strsize(const struct sc_call *c)
{
	return c->fmt ? c->fmt->strsize : 32;
}

/* The filter string: up to -s, its address when neither its NUL nor -s + 1 bytes are there. */
static void p_filter(struct sc_call *c, uint64_t arg)
{
	const unsigned char *p;
	size_t max = strsize(c);
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
		if (i >= strsize(c)) {
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
		p_sep(c);
		p_filter(c, arg);
		return SC_DONE;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		p_sep(c);
		p_attr(c, arg);
		return SC_DONE;
	case PERF_EVENT_IOC_QUERY_BPF:
		return query_bpf(c, arg);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t perf_len(const struct sc_call *c, unsigned req)
{
	size_t ids = 8 + 4 * (strsize(c) + 1);
	switch (req) {
	case PERF_EVENT_IOC_SET_FILTER:
		return strsize(c) + 1;
	case PERF_EVENT_IOC_MODIFY_ATTRIBUTES:
		return sizeof(struct attr_head);
	case PERF_EVENT_IOC_QUERY_BPF:
		return ids < IOCTL_MEM_CAP ? ids : IOCTL_MEM_CAP;
	}
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_group ioctl_perf = {
	.names = &xlat_ioctl_perf, .decode = perf_decode, .arg_len = perf_len,
};

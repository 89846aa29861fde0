/*
 * struct perf_event_attr (<linux/perf_event.h>).  The struct grew by
 * versions (PERF_ATTR_SIZE_VER0..7): a field prints only when the size the
 * caller gave covers it, and whatever lies past the last known field is "...".
 * Some fields mean something else by the event type or by a flag bit
 * (config1 is bp_addr for breakpoints, sample_period is sample_freq with freq).
 */
#include <inttypes.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "print_perf.h"

/* Without -v the attr prints up to its flag bits: the bytes before wakeup_events. */
#define ATTR_ABBREV_SIZE 48

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

#define BIT_FREQ	(1ULL << 10)
#define BIT_WATERMARK	(1ULL << 14)
#define BIT_USE_CLOCKID	(1ULL << 25)

/* What precise_ip asks of the sampled instruction pointer. */
static const char *const skids[] = {
	"arbitrary skid", "constant skid", "requested to have 0 skid", "must have 0 skid",
};

static bool verbose(const struct sc_call *c)
{
	return c->fmt && c->fmt->verbose;
}

/* precise_ip always prints; the other bits when set, or all of them under -v. */
static void p_bits(struct sc_call *c, uint64_t flags)
{
	unsigned shift = 0;
	for (size_t i = 0; i < sizeof(attr_bits) / sizeof(attr_bits[0]); i++) {
		unsigned w = attr_bits[i].width;
		uint64_t v = (flags >> shift) & ((1ULL << w) - 1);
		if (w == 2)
			out(c, ", %s=%" PRIu64 " /* %s */", attr_bits[i].name, v, skids[v]);
		else if (v && w > 2)
			out(c, ", %s=%#" PRIx64 " /* Bits 63..%u */", attr_bits[i].name, v, shift);
		else if (w == 1 && (v || verbose(c)))
			out(c, ", %s=%" PRIu64, attr_bits[i].name, v);
		shift += w;
	}
}

/* "HI<<32|" for bits a PMU event id leaves above the 32 the type defines. */
static void p_config_high(struct sc_call *c, uint64_t config)
{
	if (config >> 32)
		out(c, "%#" PRIx64 "<<32|", config >> 32);
}

/* HW_CACHE: id | op << 8 | result << 16, each through its table. */
static void p_cache_config(struct sc_call *c, uint64_t config)
{
	p_config_high(c, config);
	if ((config >> 24) & 0xff)
		out(c, "%#" PRIx64 "<<24|", (config >> 24) & 0xff);
	p_xval(c, &xlat_perf_hw_cache_results, (config >> 16) & 0xff,
	       "PERF_COUNT_HW_CACHE_RESULT_???");
	out(c, "<<16|");
	p_xval(c, &xlat_perf_hw_cache_ops, (config >> 8) & 0xff, "PERF_COUNT_HW_CACHE_OP_???");
	out(c, "<<8|");
	p_xval(c, &xlat_perf_hw_cache_ids, config & 0xff, "PERF_COUNT_HW_CACHE_???");
}

static void p_config(struct sc_call *c, uint32_t type, uint64_t config)
{
	switch (type) {
	case PERF_TYPE_HARDWARE:
		p_config_high(c, config);
		p_xval(c, &xlat_perf_hw_ids, (uint32_t)config, "PERF_COUNT_HW_???");
		return;
	case PERF_TYPE_SOFTWARE:
		p_xval(c, &xlat_perf_sw_ids, config, "PERF_COUNT_SW_???");
		return;
	case PERF_TYPE_TRACEPOINT:
		/* a tracepoint id, as in tracefs's events/.../id */
		out(c, "%" PRIu64, config);
		return;
	case PERF_TYPE_HW_CACHE:
		p_cache_config(c, config);
		return;
	}
	out(c, config ? "%#" PRIx64 : "%" PRIu64, config);
}

/* X with R or W (5..7) is a known but refused combination, unlike bits above X. */
static void p_bp_type(struct sc_call *c, uint32_t v)
{
	if (v > HW_BREAKPOINT_X && v <= HW_BREAKPOINT_INVALID)
		out(c, "%#x /* HW_BREAKPOINT_INVALID */", v);
	else
		p_xval(c, &xlat_hw_breakpoint_types, v, "HW_BREAKPOINT_???");
}

/* A field at off, little-endian host layout as the kernel reads it. */
#define FIELD(a, off, T) ({ T v_; memcpy(&v_, (a) + (off), sizeof(v_)); v_; })

/*
 * The fields after the flag bits, each while size covers it (the struct's
 * versions end at 64, 72, 80, 96, 104, 112, 120 and 128 bytes); returns
 * the offset the known fields end at.
 */
static unsigned p_rest(struct sc_call *c, const unsigned char *a, uint32_t size)
{
	uint32_t type = FIELD(a, 0, uint32_t);
	uint64_t flags = FIELD(a, 40, uint64_t), st = FIELD(a, 24, uint64_t);
	bool bp = type == PERF_TYPE_BREAKPOINT;

	out(c, ", %s=%u", flags & BIT_WATERMARK ? "wakeup_watermark" : "wakeup_events",
	    FIELD(a, 48, uint32_t));
	if (bp) {
		out(c, ", bp_type=");
		p_bp_type(c, FIELD(a, 52, uint32_t));
	}
	out(c, bp ? ", bp_addr=%#" PRIx64 : ", config1=%#" PRIx64, FIELD(a, 56, uint64_t));
	if (size <= 64)
		return 64;
	out(c, bp ? ", bp_len=%" PRIu64 : ", config2=%#" PRIx64, FIELD(a, 64, uint64_t));
	if (size <= 72)
		return 72;
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		out(c, ", branch_sample_type=");
		p_flags(c, &xlat_perf_branch_sample_types, FIELD(a, 72, uint64_t),
			"PERF_SAMPLE_BRANCH_???");
	}
	if (size <= 80)
		return 80;
	out(c, ", sample_regs_user=%#" PRIx64, FIELD(a, 80, uint64_t));
	if (size <= 88)
		return 88;
	if (st & PERF_SAMPLE_STACK_USER)
		out(c, ", sample_stack_user=%#x", FIELD(a, 88, uint32_t));
	if (size <= 92)
		return 92;
	if (flags & BIT_USE_CLOCKID) {
		out(c, ", clockid=");
		p_xval(c, &xlat_clocknames, FIELD(a, 92, uint32_t), "CLOCK_???");
	}
	if (size <= 96)
		return 96;
	out(c, ", sample_regs_intr=%#" PRIx64, FIELD(a, 96, uint64_t));
	if (size <= 104)
		return 104;
	out(c, ", aux_watermark=%u", FIELD(a, 104, uint32_t));
	if (size <= 108)
		return 108;
	out(c, ", sample_max_stack=%u", FIELD(a, 108, uint16_t));
	if (size <= 110)
		return 110;
	if (FIELD(a, 110, uint16_t))
		out(c, " /* bytes 110..111: %#x */", FIELD(a, 110, uint16_t));
	if (size <= 112)
		return 112;
	out(c, ", aux_sample_size=%u", FIELD(a, 112, uint32_t));
	if (size <= 116)
		return 116;
	if (FIELD(a, 116, uint32_t))
		out(c, " /* bytes 116..119: %#x */", FIELD(a, 116, uint32_t));
	if (size <= 120)
		return 120;
	out(c, ", sig_data=%#" PRIx64, FIELD(a, 120, uint64_t));
	return PERF_ATTR_PRINT_MAX;
}

void p_perf_attr(struct sc_call *c, uint64_t addr)
{
	unsigned char a[PERF_ATTR_PRINT_MAX] = { 0 };
	const unsigned char *p;
	long avail = addr ? sc_mem_peek(c, addr, sizeof(a), &p) : -1;
	if (avail < 8) {
		p_addr(c, addr);
		return;
	}
	memcpy(a, p, (size_t)avail);
	uint32_t size = FIELD(a, 4, uint32_t), new_size = size;
	/* memory as it is now: at exit, the size the kernel wrote back */
	(void)sc_mem_read(c, addr + 4, &new_size, sizeof(new_size));
	uint32_t want = !verbose(c) ? ATTR_ABBREV_SIZE
		: size >= sizeof(a) ? sizeof(a) : size ? size : PERF_ATTR_SIZE_VER0;
	/* The kernel refuses a size below the first version's. */
	if ((size_t)avail < want || (size && size < PERF_ATTR_SIZE_VER0)) {
		p_addr(c, addr);
		return;
	}
	uint64_t flags = FIELD(a, 40, uint64_t);

	out(c, "{type=");
	p_xval(c, &xlat_perf_types, FIELD(a, 0, uint32_t), "PERF_TYPE_???");
	out(c, ", size=");
	if (new_size != size) {
		p_xval(c, &xlat_perf_attr_sizes, size, "PERF_ATTR_SIZE_???");
		out(c, " => ");
	}
	p_xval(c, &xlat_perf_attr_sizes, new_size, "PERF_ATTR_SIZE_???");
	out(c, ", config=");
	p_config(c, FIELD(a, 0, uint32_t), FIELD(a, 8, uint64_t));
	out(c, ", %s=%" PRIu64 ", sample_type=", flags & BIT_FREQ ? "sample_freq" : "sample_period",
	    FIELD(a, 16, uint64_t));
	p_flags(c, &xlat_perf_sample_types, FIELD(a, 24, uint64_t), "PERF_SAMPLE_???");
	out(c, ", read_format=");
	p_flags(c, &xlat_perf_read_formats, FIELD(a, 32, uint64_t), "PERF_FORMAT_???");
	p_bits(c, flags);
	if (!verbose(c)) {
		out(c, ", ...}");
		return;
	}
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size > p_rest(c, a, size))
		out(c, ", ...");
	out(c, "}");
}

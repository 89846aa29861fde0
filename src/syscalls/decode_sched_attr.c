/*
 * sched_setattr and sched_getattr: struct sched_attr, whose size the caller
 * (set) or the kernel (get) writes in its first field.  With KEEP_POLICY or
 * KEEP_PARAMS set, strace leaves out the fields the kernel ignores.
 */
#include <inttypes.h>
#include <string.h>

#include "print_pid.h"
#include "decoder.h"

struct sched_attr_ {
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
};

#define ATTR_MIN_SIZE 48	/* SCHED_ATTR_SIZE_VER0 */
#define ATTR_VER1_SIZE 56
#define KEEP_POLICY 0x08
#define KEEP_PARAMS 0x10

/* usize: the caller's buffer size (get), or 0 for set, where attr.size says it. */
static void p_sched_attr(struct sc_call *c, uint64_t addr, unsigned usize)
{
	struct sched_attr_ a;
	unsigned size;
	bool set = !usize;
	memset(&a, 0, sizeof(a));
	if (!set) {
		size = usize < sizeof(a) ? usize : sizeof(a);
		if (p_fetch(c, addr, &a, size) < 0)
			return;
		size = a.size;
	} else {
		if (p_fetch(c, addr, &a.size, sizeof(a.size)) < 0)
			return;
		usize = a.size ? a.size : ATTR_MIN_SIZE;
		size = usize < sizeof(a) ? usize : sizeof(a);
		if (size >= ATTR_MIN_SIZE && p_fetch(c, addr, &a, size) < 0)
			return;
	}
	out(c, "{size=%u", a.size);
	if (size < ATTR_MIN_SIZE)
		goto end;
	if (!set || (int32_t)a.sched_policy < 0 || !(a.sched_flags & (KEEP_POLICY | KEEP_PARAMS))) {
		out(c, ", sched_policy=");
		p_xval(c, &xlat_schedulers, a.sched_policy, "SCHED_???");
	}
	out(c, ", sched_flags=");
	p_flags(c, &xlat_sched_attr_flags, a.sched_flags, "SCHED_FLAG_???");
	if (!set || !(a.sched_flags & KEEP_PARAMS))
		out(c, ", sched_nice=%d, sched_priority=%u, sched_runtime=%" PRIu64
		    ", sched_deadline=%" PRIu64 ", sched_period=%" PRIu64, a.sched_nice,
		    a.sched_priority, a.sched_runtime, a.sched_deadline, a.sched_period);
	if (size >= ATTR_VER1_SIZE)
		out(c, ", sched_util_min=%u, sched_util_max=%u", a.sched_util_min, a.sched_util_max);
end:
	if ((set ? usize : a.size) > size)
		out(c, ", ...");
	out(c, "}");
}

static size_t set_len(const struct sc_call *c)
{
	(void)c;
	return sizeof(struct sched_attr_);
}

static size_t get_len(const struct sc_call *c)
{
	unsigned n = (unsigned)c->args[2];
	return n < sizeof(struct sched_attr_) ? n : sizeof(struct sched_attr_);
}

SC_DECODER(sched_setattr, MEM_FN(1, SC_MEM_BUF, SC_AT_ENTRY, set_len), MEM_BYTES_OUT(1, 4))
{
	uint32_t size;
	if (c->entering) {
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		p_sep(c);
		p_sched_attr(c, c->args[1], 0);
		return 0;
	}
	/* E2BIG: the kernel wrote back the size it supports. */
	if (c->ret == -7 && sc_mem_read(c, c->args[1], &size, sizeof(size)) == 0)
		out(c, " => {size=%u}", size);
	out(c, ", %u", (unsigned)c->args[2]);
	return 0;
}

SC_DECODER(sched_getattr, MEM_FN(1, SC_MEM_BUF, SC_AT_EXIT, get_len))
{
	unsigned size = (unsigned)c->args[2];
	if (c->entering) {
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		p_sep(c);
		return 0;
	}
	if (size && !sc_failed(c))
		p_sched_attr(c, c->args[1], size);
	else
		p_addr(c, c->args[1]);
	out(c, ", %u, %u", size, (unsigned)c->args[3]);
	return 0;
}

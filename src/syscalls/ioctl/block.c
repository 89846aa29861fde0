/* Block device requests (BLK*, <linux/fs.h>, <linux/blkpg.h>, <linux/blktrace_api.h>). */
#include <inttypes.h>
#include <linux/blkpg.h>
#include <linux/blktrace_api.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <sys/ioctl.h>

#include "ioctl.h"
#include "syscalls/print_pid.h"

static const struct ioctl_shape_entry shapes[] = {
	{ BLKRRPART, IS_NONE }, { BLKFLSBUF, IS_NONE }, { BLKTRACESTART, IS_NONE },
	{ BLKTRACESTOP, IS_NONE }, { BLKTRACETEARDOWN, IS_NONE },
	{ BLKRASET, IS_ULONG }, { BLKFRASET, IS_ULONG },
	{ BLKROSET, IS_INT_IN }, { BLKBSZSET, IS_INT_IN },
	{ BLKDISCARD, IS_U64_PAIR_IN }, { BLKSECDISCARD, IS_U64_PAIR_IN },
	{ BLKZEROOUT, IS_U64_PAIR_IN },
	{ BLKROGET, IS_INT_OUT }, { BLKBSZGET, IS_INT_OUT }, { BLKSSZGET, IS_INT_OUT },
	{ BLKIOMIN, IS_UINT_OUT }, { BLKIOOPT, IS_UINT_OUT }, { BLKPBSZGET, IS_UINT_OUT },
	{ BLKALIGNOFF, IS_INT_OUT }, { BLKDISCARDZEROES, IS_UINT_OUT },
	{ BLKGETZONESZ, IS_UINT_OUT }, { BLKGETNRZONES, IS_UINT_OUT },
	{ BLKROTATIONAL, IS_USHORT_OUT }, { BLKSECTGET, IS_USHORT_OUT },
	{ BLKRAGET, IS_LONG_OUT }, { BLKFRAGET, IS_LONG_OUT }, { BLKGETSIZE, IS_ULONG_OUT },
	{ BLKGETSIZE64, IS_U64_OUT }, { BLKGETDISKSEQ, IS_U64_OUT },
};

static void p_blkpg(struct sc_call *c, uint64_t arg)
{
	struct blkpg_ioctl_arg a;
	if (p_fetch(c, arg, &a, sizeof(a)) < 0)
		return;
	out(c, "{op=");
	p_xval(c, &xlat_blkpg_ops, (unsigned)a.op, "BLKPG_???");
	out(c, ", flags=%d, datalen=%d, data=", a.flags, a.datalen);
	struct blkpg_partition p;
	uint64_t data = (uintptr_t)a.data;
	if ((a.op == BLKPG_ADD_PARTITION || a.op == BLKPG_DEL_PARTITION) && data &&
	    sc_mem_read(c, data, &p, sizeof(p)) == 0) {
		out(c, "{start=%lld, length=%lld, pno=%d, devname=", p.start, p.length, p.pno);
		ioctl_p_chars(c, p.devname, sizeof(p.devname));
		out(c, ", volname=");
		ioctl_p_chars(c, p.volname, sizeof(p.volname));
		out(c, "}");
	} else {
		p_addr(c, data);
	}
	out(c, "}");
}

/* At entry what the kernel reads; false when nothing was held (its address printed). */
static bool p_trace_setup_in(struct sc_call *c, uint64_t arg)
{
	struct blk_user_trace_setup b;
	if (p_fetch(c, arg, &b, sizeof(b)) < 0)
		return false;
	out(c, "{act_mask=%hu, buf_size=%u, buf_nr=%u, start_lba=%llu, end_lba=%llu, pid=",
	    b.act_mask, b.buf_size, b.buf_nr, (unsigned long long)b.start_lba,
	    (unsigned long long)b.end_lba);
	p_pid(c, (int)b.pid, SC_PT_TGID);
	return true;
}

/* At exit the name the kernel gave the trace, as one more field, then the struct ends. */
static void p_trace_setup_out(struct sc_call *c, uint64_t arg)
{
	struct blk_user_trace_setup b;
	if (!sc_failed(c) && sc_mem_read(c, arg, &b, sizeof(b)) == 0) {
		out(c, ", name=");
		ioctl_p_chars(c, b.name, sizeof(b.name));
	}
	out(c, "}");
}

static int block_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case BLKPG:
		return ioctl_setter(c, arg, p_blkpg);
	case BLKTRACESETUP:
		if (!c->entering) {
			p_trace_setup_out(c, arg);
			return 0;
		}
		p_sep(c);
		return p_trace_setup_in(c, arg) ? 0 : SC_DONE;
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t block_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	switch (req) {
	case BLKPG:
		return sizeof(struct blkpg_ioctl_arg);
	case BLKTRACESETUP:
		return sizeof(struct blk_user_trace_setup);
	}
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

static size_t block_deref_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return req == BLKPG ? sizeof(struct blkpg_partition) : 0;
}

_Static_assert(offsetof(struct blkpg_ioctl_arg, data) == IOCTL_DEREF_OFF, "BLKPG's data pointer");

const struct ioctl_family ioctl_block = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_block, .decode = block_decode, .arg_len = block_len,
	.deref_len = block_deref_len,
};

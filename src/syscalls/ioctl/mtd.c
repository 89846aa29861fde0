/*
 * MTD (memory technology device) requests (<mtd/mtd-abi.h>).  Their type
 * 'M' is the sound mixer's too: strace names most of them "MIXER_READ(17)
 * or ECCGETLAYOUT" (see mixer.c).
 */
#include <inttypes.h>
#include <mtd/mtd-abi.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ OTPGETREGIONCOUNT, IS_UINT_OUT }, { MEMGETREGIONCOUNT, IS_INT_OUT },
	{ MEMGETBADBLOCK, IS_U64_IN }, { MEMSETBADBLOCK, IS_U64_IN },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* [0x1, 0x2, ...], at most -s elements then "...". */
static void p_xarray(struct sc_call *c, const uint32_t *v, size_t n)
{
	size_t max = ioctl_strsize(c);
	out(c, "[");
	for (size_t i = 0; i < n; i++) {
		if (i == max) {
			out(c, ", ...");
			break;
		}
		out(c, "%s%#x", i ? ", " : "", v[i]);
	}
	out(c, "]");
}

static void p_info_user(struct sc_call *c, const struct mtd_info_user *m)
{
	out(c, "{type=");
	p_xval(c, &xlat_mtd_types, m->type, "MTD_???");
	out(c, ", flags=");
	p_flags(c, &xlat_mtd_flags, m->flags, "MTD_???");
	out(c, ", size=%#x, erasesize=%#x, writesize=%#x, oobsize=%#x, padding=%#llx}", m->size,
	    m->erasesize, m->writesize, m->oobsize, (unsigned long long)m->padding);
}

static void p_oobinfo(struct sc_call *c, const struct nand_oobinfo *n)
{
	out(c, "{useecc=");
	p_xval(c, &xlat_mtd_nandecc_modes, n->useecc, "MTD_NANDECC_???");
	out(c, ", eccbytes=%#x, oobfree=[", n->eccbytes);
	for (size_t i = 0; i < N(n->oobfree); i++)
		out(c, "%s[%#x, %#x]", i ? ", " : "", n->oobfree[i][0], n->oobfree[i][1]);
	out(c, "], eccpos=");
	p_xarray(c, n->eccpos, N(n->eccpos));
	out(c, "}");
}

static void p_ecclayout(struct sc_call *c, const struct nand_ecclayout_user *l)
{
	out(c, "{eccbytes=%#x, eccpos=", l->eccbytes);
	p_xarray(c, l->eccpos, N(l->eccpos));
	out(c, ", oobavail=%#x, oobfree=[", l->oobavail);
	for (size_t i = 0; i < N(l->oobfree); i++)
		out(c, "%s{offset=%#x, length=%#x}", i ? ", " : "", l->oobfree[i].offset,
		    l->oobfree[i].length);
	out(c, "]}");
}

union mtd_arg {
	struct erase_info_user e;
	struct erase_info_user64 e64;
	struct mtd_oob_buf oob;
	struct mtd_oob_buf64 oob64;
	struct mtd_write_req wr;
	struct otp_info otp;
	struct mtd_info_user info;
	struct nand_oobinfo oobinfo;
	struct nand_ecclayout_user layout;
	struct mtd_ecc_stats stats;
	struct region_info_user region;
	unsigned mode;
};

/* The struct of req, read at entry (what the kernel reads) or exit (what it wrote). */
static void p_struct(struct sc_call *c, unsigned req, uint64_t arg)
{
	union mtd_arg u;
	if (p_fetch(c, arg, &u, _IOC_SIZE(req)) < 0)
		return;
	switch (req) {
	case MEMERASE:
	case MEMLOCK:
	case MEMUNLOCK:
	case MEMISLOCKED:
		out(c, "{start=%#x, length=%#x}", u.e.start, u.e.length);
		break;
	case MEMERASE64:
		out(c, "{start=%#llx, length=%#llx}", (unsigned long long)u.e64.start,
		    (unsigned long long)u.e64.length);
		break;
	case MEMWRITEOOB:
	case MEMREADOOB:
		out(c, "{start=%#x, length=%#x, ptr=", u.oob.start, u.oob.length);
		p_addr(c, (uintptr_t)u.oob.ptr);
		out(c, "}");
		break;
	case MEMWRITEOOB64:
	case MEMREADOOB64:
		out(c, "{start=%#llx, length=%#x, usr_ptr=", (unsigned long long)u.oob64.start,
		    u.oob64.length);
		p_addr(c, u.oob64.usr_ptr);
		out(c, "}");
		break;
	case MEMWRITE:
		out(c, "{start=%#llx, len=%#llx, ooblen=%#llx, usr_data=", (unsigned long long)u.wr.start,
		    (unsigned long long)u.wr.len, (unsigned long long)u.wr.ooblen);
		p_addr(c, u.wr.usr_data);
		out(c, ", usr_oob=");
		p_addr(c, u.wr.usr_oob);
		out(c, ", mode=");
		p_xval(c, &xlat_mtd_ops_modes, u.wr.mode, "MTD_OPS_???");
		out(c, "}");
		break;
	case OTPLOCK:
	case OTPGETREGIONINFO:
		out(c, "{start=%#x, length=%#x, locked=%u}", u.otp.start, u.otp.length, u.otp.locked);
		break;
	case OTPSELECT:
		out(c, "[");
		p_xval(c, &xlat_mtd_otp_modes, u.mode, "MTD_OTP_???");
		out(c, "]");
		break;
	case MEMGETINFO:
		p_info_user(c, &u.info);
		break;
	case MEMGETOOBSEL:
		p_oobinfo(c, &u.oobinfo);
		break;
	case ECCGETLAYOUT:
		p_ecclayout(c, &u.layout);
		break;
	case ECCGETSTATS:
		out(c, "{corrected=%#x, failed=%#x, badblocks=%#x, bbtblocks=%#x}", u.stats.corrected,
		    u.stats.failed, u.stats.badblocks, u.stats.bbtblocks);
		break;
	}
}

static int p_region(struct sc_call *c, uint64_t arg)
{
	struct region_info_user r;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &r, sizeof(r)) < 0)
			return SC_DONE;
		out(c, "{regionindex=%#x", r.regionindex);
		return 0;
	}
	if (!sc_failed(c) && sc_mem_read(c, arg, &r, sizeof(r)) == 0)
		out(c, ", offset=%#x, erasesize=%#x, numblocks=%#x", r.offset, r.erasesize,
		    r.numblocks);
	out(c, "}");
	return 0;
}

static int mtd_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case MEMERASE: case MEMLOCK: case MEMUNLOCK: case MEMISLOCKED: case MEMERASE64:
	case MEMWRITEOOB: case MEMREADOOB: case MEMWRITEOOB64: case MEMREADOOB64:
	case MEMWRITE: case OTPLOCK: case OTPSELECT:
		return ioctl_setter_req(c, req, arg, p_struct);
	case OTPGETREGIONINFO: case MEMGETINFO: case MEMGETOOBSEL: case ECCGETLAYOUT:
	case ECCGETSTATS:
		return ioctl_getter_req(c, req, arg, p_struct);
	case MEMGETREGIONINFO:
		return p_region(c, arg);
	case MTDFILEMODE:
		p_sep(c);
		p_xval(c, &xlat_mtd_file_modes, arg, "MTD_FILE_MODE_???");
		return SC_DONE;
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t mtd_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	if (_IOC_TYPE(req) != 'M' || !xlat_str(&xlat_ioctl_mtd, req))
		return 0;
	return _IOC_SIZE(req) <= sizeof(union mtd_arg) ? _IOC_SIZE(req) : 0;
}

const struct ioctl_family ioctl_mtd = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_mtd, .decode = mtd_decode, .arg_len = mtd_len,
};

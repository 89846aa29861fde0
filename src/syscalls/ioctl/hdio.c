/* ATA disk requests (HDIO_*, <linux/hdreg.h>). */
#include <inttypes.h>
#include <linux/hdreg.h>
#include <sys/ioctl.h>

#include "ioctl.h"

/* The HDIO_DRIVE_CMD data block, sector_count sectors of this size. */
#define ATA_SECTOR 512

static const struct ioctl_shape_entry shapes[] = {
	{ HDIO_GET_32BIT, IS_ULONG_OUT }, { HDIO_GET_ACOUSTIC, IS_ULONG_OUT },
	{ HDIO_GET_ADDRESS, IS_ULONG_OUT }, { HDIO_GET_DMA, IS_ULONG_OUT },
	{ HDIO_GET_KEEPSETTINGS, IS_ULONG_OUT }, { HDIO_GET_MULTCOUNT, IS_ULONG_OUT },
	{ HDIO_GET_NOWERR, IS_ULONG_OUT }, { HDIO_GET_UNMASKINTR, IS_ULONG_OUT },
	{ HDIO_GET_WCACHE, IS_ULONG_OUT },
	{ HDIO_SET_32BIT, IS_ULONG }, { HDIO_SET_ACOUSTIC, IS_ULONG }, { HDIO_SET_ADDRESS, IS_ULONG },
	{ HDIO_SET_DMA, IS_ULONG }, { HDIO_SET_KEEPSETTINGS, IS_ULONG },
	{ HDIO_SET_MULTCOUNT, IS_ULONG }, { HDIO_SET_NOWERR, IS_ULONG },
	{ HDIO_SET_PIO_MODE, IS_ULONG }, { HDIO_SET_UNMASKINTR, IS_ULONG },
	{ HDIO_SET_WCACHE, IS_ULONG }, { HDIO_UNREGISTER_HWIF, IS_ULONG },
};

static void p_geometry(struct sc_call *c, uint64_t arg)
{
	struct hd_geometry g;
	if (p_fetch(c, arg, &g, sizeof(g)) == 0)
		out(c, "{heads=%u, sectors=%u, cylinders=%u, start=%lu}", g.heads, g.sectors,
		    g.cylinders, g.start);
}

/* "\x80\x81..." up to -s bytes of the data block, or its address when not all held. */
static void p_drive_data(struct sc_call *c, uint64_t addr, size_t len)
{
	size_t max = ioctl_strsize(c);
	size_t n = len < max ? len : max;
	const unsigned char *p;
	if (sc_mem_peek(c, addr, n, &p) < (long)n) {
		p_addr(c, addr);
		return;
	}
	out(c, "\"");
	for (size_t i = 0; i < n; i++)
		out(c, "\\x%02x", p[i]);
	out(c, "\"%s", len > n ? "..." : "");
}

static int p_drive_cmd(struct sc_call *c, uint64_t arg)
{
	struct hd_drive_cmd_hdr h;
	if (c->entering) {
		p_sep(c);
		if (p_fetch(c, arg, &h, sizeof(h)) < 0)
			return SC_DONE;
		out(c, "{command=");
		p_xval(c, &xlat_ata_cmds, h.command, "ATA_CMD_???");
		out(c, ", sector_number=%u, feature=%u, sector_count=%u", h.sector_number, h.feature,
		    h.sector_count);
		return 0;
	}
	/* The kernel writes status, error and nsector over the first three bytes. */
	if (!sc_failed(c) && sc_mem_read(c, arg, &h, sizeof(h)) == 0) {
		out(c, "} => {status=%#x, error=%u, nsector=%u", h.command, h.sector_number,
		    h.feature);
		if (h.sector_count) {
			out(c, ", buf=");
			p_drive_data(c, arg + sizeof(h), (size_t)h.sector_count * ATA_SECTOR);
		}
	}
	out(c, "}");
	return 0;
}

static void p_three_ints(struct sc_call *c, uint64_t arg)
{
	unsigned v[3];
	if (p_fetch(c, arg, v, sizeof(v)) == 0)
		out(c, "[%#x, %#x, %#x]", v[0], v[1], v[2]);
}

/* HDIO_GET_IDENTITY's 512 bytes (142 for the obsolete one), quoted up to -s. */
static void p_identity(struct sc_call *c, uint64_t arg, size_t len)
{
	const unsigned char *p;
	size_t max = ioctl_strsize(c);
	size_t n = len < max ? len : max;
	if (!arg || sc_mem_peek(c, arg, n, &p) < (long)n) {
		p_addr(c, arg);
		return;
	}
	p_quoted(c, p, n, len > n);
}

static void p_written_ulong(struct sc_call *c, uint64_t arg, const struct xlat *x,
			    const char *dflt, bool flags)
{
	unsigned long v;
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	out(c, "[");
	if (flags)
		p_flags(c, x, v, dflt);
	else
		p_xval(c, x, v, dflt);
	out(c, "]");
}

/* Requests whose argument the kernel writes: decoded at exit, the address on failure. */
static int hdio_exit(struct sc_call *c, unsigned req, uint64_t arg)
{
	p_sep(c);
	if (sc_failed(c)) {
		p_addr(c, arg);
		return 0;
	}
	switch (req) {
	case HDIO_GETGEO:
		p_geometry(c, arg);
		break;
	case HDIO_GET_IDENTITY:
		p_identity(c, arg, 512);
		break;
	case HDIO_OBSOLETE_IDENTITY:
		p_identity(c, arg, 142);
		break;
	case HDIO_GET_NICE:
		p_written_ulong(c, arg, &xlat_hdio_ide_nice, "IDE_NICE_???", true);
		break;
	case HDIO_GET_BUSSTATE:
		p_written_ulong(c, arg, &xlat_hdio_busstates, "BUSSTATE_???", false);
		break;
	}
	return 0;
}

static int hdio_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case HDIO_GETGEO:
	case HDIO_GET_IDENTITY:
	case HDIO_OBSOLETE_IDENTITY:
	case HDIO_GET_NICE:
	case HDIO_GET_BUSSTATE:
		return c->entering ? 0 : hdio_exit(c, req, arg);
	case HDIO_DRIVE_CMD:
		return p_drive_cmd(c, arg);
	case HDIO_DRIVE_RESET:
	case HDIO_SCAN_HWIF:
		return ioctl_setter(c, arg, p_three_ints);
	case HDIO_SET_NICE:
		p_sep(c);
		p_flags(c, &xlat_hdio_ide_nice, (unsigned long)arg, "IDE_NICE_???");
		return SC_DONE;
	case HDIO_SET_BUSSTATE:
		p_sep(c);
		p_xval(c, &xlat_hdio_busstates, (unsigned long)arg, "BUSSTATE_???");
		return SC_DONE;
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t hdio_len(const struct sc_call *c, unsigned req)
{
	size_t strsize = ioctl_strsize(c);
	switch (req) {
	case HDIO_GETGEO:
		return sizeof(struct hd_geometry);
	case HDIO_GET_IDENTITY:
	case HDIO_OBSOLETE_IDENTITY:
		return strsize;
	case HDIO_GET_NICE:
	case HDIO_GET_BUSSTATE:
		return sizeof(unsigned long);
	case HDIO_DRIVE_CMD:
		return sizeof(struct hd_drive_cmd_hdr) + strsize;	/* and the start of its data */
	case HDIO_DRIVE_RESET:
	case HDIO_SCAN_HWIF:
		return 3 * sizeof(int);
	}
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_hdio = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_hdio, .decode = hdio_decode, .arg_len = hdio_len,
};

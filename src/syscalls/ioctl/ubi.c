/* UBI (unsorted block images) requests (<mtd/ubi-user.h>). */
#include <inttypes.h>
#include <mtd/ubi-user.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ UBI_IOCVOLCRBLK, IS_NONE }, { UBI_IOCVOLRMBLK, IS_NONE },
	{ UBI_IOCDET, IS_INT_IN }, { UBI_IOCEBER, IS_INT_IN }, { UBI_IOCEBISMAP, IS_INT_IN },
	{ UBI_IOCEBUNMAP, IS_INT_IN }, { UBI_IOCRMVOL, IS_INT_IN }, { UBI_IOCRPEB, IS_INT_IN },
	{ UBI_IOCSPEB, IS_INT_IN },
	{ UBI_IOCVOLUP, IS_S64_IN },
};

/* A volume name: up to its NUL, at most name_len bytes (clamped to the array). */
static void p_name(struct sc_call *c, const char *name, size_t size, int name_len)
{
	int len = name_len < 0 ? 0 : name_len > (int)size - 1 ? (int)size - 1 : name_len;
	ioctl_p_chars(c, name, (size_t)len + 1);
}

static void p_attach(struct sc_call *c, const struct ubi_attach_req *a)
{
	out(c, "{ubi_num=%d, mtd_num=%d, vid_hdr_offset=%d, max_beb_per1024=%hd}", a->ubi_num,
	    a->mtd_num, a->vid_hdr_offset, a->max_beb_per1024);
}

static void p_mkvol(struct sc_call *c, const struct ubi_mkvol_req *m)
{
	out(c, "{vol_id=%d, alignment=%d, bytes=%lld, vol_type=", m->vol_id, m->alignment,
	    (long long)m->bytes);
	p_xval(c, &xlat_ubi_volume_types, (unsigned)m->vol_type, "UBI_???_VOLUME");
	out(c, ", flags=");
	p_flags(c, &xlat_ubi_volume_flags, m->flags, "UBI_VOL_???");
	out(c, ", name_len=%hd, name=", m->name_len);
	p_name(c, m->name, sizeof(m->name), m->name_len);
	out(c, "}");
}

static void p_rnvol(struct sc_call *c, const struct ubi_rnvol_req *r)
{
	int n = r->count < 0 ? 0 : r->count > UBI_MAX_RNVOL ? UBI_MAX_RNVOL : r->count;
	out(c, "{count=%d, ents=[", r->count);
	for (int i = 0; i < n; i++) {
		out(c, "%s{vol_id=%d, name_len=%hd, name=", i ? ", " : "", r->ents[i].vol_id,
		    r->ents[i].name_len);
		p_name(c, r->ents[i].name, sizeof(r->ents[i].name), r->ents[i].name_len);
		out(c, "}");
	}
	out(c, "]}");
}

/* Requests whose struct the kernel reads; ATT and MKVOL write back the number they chose. */
static int p_struct(struct sc_call *c, unsigned req, uint64_t arg)
{
	union {
		struct ubi_attach_req att;
		struct ubi_mkvol_req mkvol;
		struct ubi_rnvol_req rnvol;
		struct ubi_rsvol_req rsvol;
		struct ubi_leb_change_req leb;
		struct ubi_map_req map;
		struct ubi_set_vol_prop_req prop;
	} u;
	size_t size;
	switch (req) {
	case UBI_IOCATT: size = sizeof(u.att); break;
	case UBI_IOCMKVOL: size = sizeof(u.mkvol); break;
	case UBI_IOCRNVOL: size = sizeof(u.rnvol); break;
	case UBI_IOCRSVOL: size = sizeof(u.rsvol); break;
	case UBI_IOCEBCH: size = sizeof(u.leb); break;
	case UBI_IOCEBMAP: size = sizeof(u.map); break;
	default: size = sizeof(u.prop); break;
	}
	p_sep(c);
	if (p_fetch(c, arg, &u, size) < 0)
		return SC_DONE;
	switch (req) {
	case UBI_IOCATT:
		p_attach(c, &u.att);
		return 0;
	case UBI_IOCMKVOL:
		p_mkvol(c, &u.mkvol);
		return 0;
	case UBI_IOCRNVOL:
		p_rnvol(c, &u.rnvol);
		break;
	case UBI_IOCRSVOL:
		out(c, "{bytes=%lld, vol_id=%d}", (long long)u.rsvol.bytes, u.rsvol.vol_id);
		break;
	case UBI_IOCEBCH:
		out(c, "{lnum=%d, bytes=%d, dtype=", u.leb.lnum, u.leb.bytes);
		p_xval(c, &xlat_ubi_data_types, u.leb.dtype, "UBI_???");
		out(c, "}");
		break;
	case UBI_IOCEBMAP:
		out(c, "{lnum=%d, dtype=", u.map.lnum);
		p_xval(c, &xlat_ubi_data_types, u.map.dtype, "UBI_???");
		out(c, "}");
		break;
	default:
		out(c, "{property=");
		p_xval(c, &xlat_ubi_volume_props, u.prop.property, "UBI_VOL_PROP_???");
		out(c, ", value=%#llx}", (unsigned long long)u.prop.value);
		break;
	}
	return SC_DONE;
}

static int ubi_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case UBI_IOCATT:
	case UBI_IOCMKVOL:
		if (c->entering)
			return p_struct(c, req, arg);
		int num;
		if (!sc_failed(c) && sc_mem_read(c, arg, &num, sizeof(num)) == 0)
			out(c, " => [%d]", num);
		return 0;
	case UBI_IOCRNVOL:
	case UBI_IOCRSVOL:
	case UBI_IOCEBCH:
	case UBI_IOCEBMAP:
	case UBI_IOCSETVOLPROP:
		return p_struct(c, req, arg);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t ubi_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	switch (req) {
	case UBI_IOCATT: return sizeof(struct ubi_attach_req);
	case UBI_IOCMKVOL: return sizeof(struct ubi_mkvol_req);
	case UBI_IOCRNVOL: return sizeof(struct ubi_rnvol_req);
	case UBI_IOCRSVOL: return sizeof(struct ubi_rsvol_req);
	case UBI_IOCEBCH: return sizeof(struct ubi_leb_change_req);
	case UBI_IOCEBMAP: return sizeof(struct ubi_map_req);
	case UBI_IOCSETVOLPROP: return sizeof(struct ubi_set_vol_prop_req);
	}
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_ubi = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_ubi, .decode = ubi_decode, .arg_len = ubi_len,
};

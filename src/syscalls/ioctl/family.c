/* The ioctl families tracekit decodes, in one table (see ioctl.h). */
#include <inttypes.h>
#include <linux/ioctl.h>
#include <string.h>

#include "family.h"

/* The owners of a type byte first (each is asked before the rest), then the others in order. */
const struct ioctl_family *const ioctl_families[] = {
	&ioctl_evdev,
	&ioctl_gpio,
	&ioctl_seccomp,
	&ioctl_tty,
	&ioctl_ptp,
	&ioctl_rtc,
	&ioctl_uffdio,
	&ioctl_kvm,
	&ioctl_sock,
	&ioctl_v4l2,
	&ioctl_block,
	&ioctl_fs,
	&ioctl_hdio,
	&ioctl_counter,
	&ioctl_dm,
	&ioctl_named,
	&ioctl_inotify,
	&ioctl_lirc,
	&ioctl_mixer,
	&ioctl_mtd,
	&ioctl_loop,
	&ioctl_nbd,
	&ioctl_nsfs,
	&ioctl_random,
	&ioctl_scsi,
	&ioctl_ubi,
	&ioctl_watchdog,
	&ioctl_kd,
	&ioctl_tee,
	&ioctl_sg_io,
	&ioctl_perf,
	&ioctl_btrfs,
	&ioctl_hid,
};

const size_t ioctl_n_families = sizeof(ioctl_families) / sizeof(ioctl_families[0]);

const struct ioctl_family *ioctl_family_of(unsigned req)
{
	for (size_t i = 0; i < ioctl_n_families; i++)
		if (ioctl_families[i]->type == _IOC_TYPE(req))
			return ioctl_families[i];
	return NULL;
}

bool ioctl_family_name(struct sc_call *c, unsigned req, bool in_comment)
{
	const struct ioctl_family *f = ioctl_family_of(req);
	if (!f)
		return false;
	const char *name = f->names ? xlat_str(f->names, req) : NULL;
	if (name) {
		/* Another driver's request with the same number: "PHN_NOT_OH or RTC_UIE_OFF". */
		const char *alias = xlat_str(&xlat_ioctl_aliases, req);
		out(c, "%s%s%s", alias ? alias : "", alias ? " or " : "", name);
		return true;
	}
	return f->name && f->name(c, req, in_comment);
}

void ioctl_p_name_xval(struct sc_call *c, const struct xlat *x, uint64_t v, const char *dflt,
		       bool in_comment)
{
	const char *s = xlat_str(x, v);
	if (s)
		out(c, "%s", s);
	else if (in_comment || !dflt)
		out(c, "%#" PRIx64, v);
	else
		out(c, "%#" PRIx64 " /* %s */", v, dflt);
}

void ioctl_p_cstring(struct sc_call *c, const char *buf, size_t size)
{
	/* strace's quoted cstring: the whole field, not -s; with no NUL, the last byte yields to "...". */
	size_t n = strnlen(buf, size);
	if (n == size && size)
		n = size - 1;
	p_quoted(c, (const unsigned char *)buf, n, n < strnlen(buf, size));
}

void ioctl_p_u32_array(struct sc_call *c, const uint32_t *a, size_t n, bool hex)
{
	size_t max = ioctl_strsize(c);
	out(c, "[");
	for (size_t i = 0; i < n; i++) {
		if (i && !c->fmt->verbose && i >= max) {
			out(c, ", ...");
			break;
		}
		out(c, hex && a[i] ? "%s%#x" : "%s%u", i ? ", " : "", a[i]);
	}
	out(c, "]");
}

bool ioctl_readable(struct sc_call *c, uint64_t addr, size_t len)
{
	const unsigned char *p;
	return addr && sc_mem_peek(c, addr, len, &p) >= (long)len;
}

bool ioctl_p_array(struct sc_call *c, uint64_t addr, uint64_t n, size_t size,
		   void (*fn)(struct sc_call *c, const void *elem, uint64_t addr))
{
	const unsigned char *p;
	if (!n) {
		out(c, "[]");
		return false;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t at = addr + i * size;
		if (i && (i >= ioctl_strsize(c) || p_line_full(c))) {
			out(c, ", ...");
			break;
		}
		if (!addr || sc_mem_peek(c, at, size, &p) < (long)size) {
			if (i)
				out(c, ", ... /* %#" PRIx64 " */]", at);
			else if (addr)
				out(c, "%#" PRIx64, addr);
			else
				out(c, "NULL");
			return false;
		}
		out(c, i ? ", " : "[");
		fn(c, p, at);
	}
	out(c, "]");
	return true;
}

int ioctl_walk_read(struct sc_walk *w, uint64_t addr, void *buf, size_t len)
{
	const unsigned char *p;
	if (!addr || sc_walk_grab(w, addr, len, &p) < len)
		return -1;
	memcpy(buf, p, len);
	return 0;
}

void ioctl_keep_array(struct sc_walk *w, const struct sc_call *c, uint64_t addr, uint64_t n,
		      size_t size)
{
	const unsigned char *p;
	/* One past the readable end must not lose the elements before it. */
	for (uint64_t i = 0; i < n && i <= ioctl_strsize(c) && i < IOCTL_WALK_MAX; i++)
		if (sc_walk_grab(w, addr + i * size, size, &p) < size)
			break;
}

/*
 * Device mapper requests (<linux/dm-ioctl.h>): struct dm_ioctl, the fields
 * each request uses, and (with -v) the payload after it: target specs,
 * a target message, a string.  The payloads the kernel writes (DM_TABLE_DEPS,
 * DM_LIST_DEVICES, DM_LIST_VERSIONS) print as "..." even with -v.
 */
#include <linux/dm-ioctl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "ioctl.h"

#define DM_HDR offsetof(struct dm_ioctl, data)

static bool verbose(const struct sc_call *c)
{
	return c->fmt && c->fmt->verbose;
}

static bool has_data_start(unsigned req)
{
	switch (req) {
	case DM_VERSION: case DM_REMOVE_ALL: case DM_DEV_CREATE: case DM_DEV_REMOVE:
	case DM_DEV_SUSPEND: case DM_DEV_STATUS: case DM_TABLE_CLEAR: case DM_DEV_ARM_POLL:
		return false;
	}
	return true;
}

static void p_device(struct sc_call *c, unsigned req, const struct dm_ioctl *d)
{
	if (req == DM_REMOVE_ALL || req == DM_LIST_DEVICES || req == DM_LIST_VERSIONS)
		return;
	if (d->dev) {
		out(c, ", dev=");
		p_dev(c, d->dev);
	}
	if (d->name[0]) {
		out(c, ", name=");
		ioctl_p_chars(c, d->name, sizeof(d->name));
	}
	if (d->uuid[0]) {
		out(c, ", uuid=");
		ioctl_p_chars(c, d->uuid, sizeof(d->uuid));
	}
}

static void p_values(struct sc_call *c, unsigned req, const struct dm_ioctl *d)
{
	if (c->entering) {
		if (req == DM_TABLE_LOAD)
			out(c, ", target_count=%u", d->target_count);
		else if ((req == DM_DEV_SUSPEND && !(d->flags & DM_SUSPEND_FLAG)) ||
			 req == DM_DEV_RENAME || req == DM_DEV_REMOVE || req == DM_DEV_WAIT)
			out(c, ", event_nr=%u", d->event_nr);
		return;
	}
	if (sc_failed(c))
		return;
	switch (req) {
	case DM_DEV_CREATE: case DM_DEV_RENAME: case DM_DEV_SUSPEND: case DM_DEV_STATUS:
	case DM_DEV_WAIT: case DM_TABLE_LOAD: case DM_TABLE_CLEAR: case DM_TABLE_DEPS:
	case DM_TABLE_STATUS: case DM_TARGET_MSG:
		out(c, ", target_count=%u, open_count=%d, event_nr=%u", d->target_count,
		    d->open_count, d->event_nr);
	}
}

/* {version=[4, 1, 2], ...}: false when the version or size forbid reading further. */
static bool p_header(struct sc_call *c, unsigned req, const struct dm_ioctl *d)
{
	out(c, "{version=[%u, %u, %u]", d->version[0], d->version[1], d->version[2]);
	bool ok = false;
	if (d->version[0] != DM_VERSION_MAJOR) {
		out(c, " /* unsupported device mapper ABI version */");
	} else {
		out(c, ", data_size=%u", d->data_size);
		if (d->data_size < DM_HDR) {
			out(c, " /* data_size too small */");
		} else {
			if (has_data_start(req))
				out(c, ", data_start=%u", d->data_start);
			p_device(c, req, d);
			p_values(c, req, d);
			out(c, ", flags=");
			p_flags(c, &xlat_dm_flags, d->flags, "DM_???");
			ok = true;
		}
	}
	out(c, "}");
	return ok;
}

/* A NUL-terminated string of at most len bytes at addr (-s applies). */
static void p_string(struct sc_call *c, uint64_t addr, uint32_t len)
{
	if (!len)
		out(c, "\"\"");
	else
		p_str_max(c, addr, len);
}

static void p_target_specs(struct sc_call *c, uint64_t arg, const struct dm_ioctl *d)
{
	uint32_t off = d->data_start, end = 0;
	size_t max = ioctl_strsize(c);
	for (uint32_t i = 0; i < d->target_count; i++) {
		out(c, ", ");
		if (i && off <= end)
			goto misplaced;
		end = off + sizeof(struct dm_target_spec);
		if (end <= off || end > d->data_size)
			goto misplaced;
		if (i >= max) {
			out(c, "...");
			return;
		}
		struct dm_target_spec s;
		if (p_fetch(c, arg + off, &s, sizeof(s)) < 0)
			return;
		out(c, "{sector_start=%llu, length=%llu, ", (unsigned long long)s.sector_start,
		    (unsigned long long)s.length);
		if (!c->entering)
			out(c, "status=%d, ", s.status);
		out(c, "target_type=");
		ioctl_p_chars(c, s.target_type, sizeof(s.target_type));
		out(c, ", string=");
		p_string(c, arg + end, d->data_size - end);
		out(c, "}");
		off = c->entering ? off + s.next : d->data_start + s.next;
	}
	return;
misplaced:
	out(c, "??? /* misplaced struct dm_target_spec */");
}

static void p_target_msg(struct sc_call *c, uint64_t arg, const struct dm_ioctl *d)
{
	uint32_t off = d->data_start, end = off + offsetof(struct dm_target_msg, message);
	if (end <= off || end > d->data_size) {
		out(c, "??? /* misplaced struct dm_target_msg */");
		return;
	}
	struct dm_target_msg m;
	if (p_fetch(c, arg + off, &m, sizeof(m)) < 0)
		return;
	out(c, "{sector=%llu, message=", (unsigned long long)m.sector);
	p_string(c, arg + end, d->data_size - end);
	out(c, "}");
}

static void p_data_string(struct sc_call *c, uint64_t arg, const struct dm_ioctl *d)
{
	if (d->data_start > d->data_size) {
		out(c, "??? /* misplaced string */");
		return;
	}
	out(c, "{string=");
	p_string(c, arg + d->data_start, d->data_size - d->data_start);
	out(c, "}");
}

/* What follows the header: ", ..." without -v. */
static void p_payload(struct sc_call *c, unsigned req, uint64_t arg, const struct dm_ioctl *d)
{
	bool in = c->entering, out_ok = !c->entering && !sc_failed(c);
	switch (req) {
	case DM_TABLE_LOAD:
		if (in && d->target_count && !verbose(c))
			out(c, ", ...");
		else if (in)
			p_target_specs(c, arg, d);
		return;
	case DM_DEV_WAIT:
	case DM_TABLE_STATUS:
		if (out_ok && d->target_count && !verbose(c))
			out(c, ", ...");
		else if (out_ok)
			p_target_specs(c, arg, d);
		return;
	case DM_TARGET_MSG:
		/* the message the kernel reads; the answer it writes with DM_DATA_OUT_FLAG */
		if (in && d->data_start == d->data_size)
			return;
		if (!in && !(out_ok && (d->flags & DM_DATA_OUT_FLAG)))
			return;
		out(c, ", ");
		if (!verbose(c))
			out(c, "...");
		else if (in)
			p_target_msg(c, arg, d);
		else
			p_data_string(c, arg, d);
		return;
	case DM_DEV_RENAME:
	case DM_DEV_SET_GEOMETRY:
		if (!in)
			return;
		out(c, ", ");
		if (verbose(c))
			p_data_string(c, arg, d);
		else
			out(c, "...");
		return;
	case DM_TABLE_DEPS:
	case DM_LIST_DEVICES:
	case DM_LIST_VERSIONS:
		if (out_ok && d->data_start != d->data_size)
			out(c, ", ...");
		return;
	}
}

static bool known(unsigned req)
{
	return _IOC_TYPE(req) == DM_IOCTL && xlat_str(&xlat_ioctl_dm, req);
}

static int dm_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (!known(req))
		return IOCTL_UNDECODED;
	struct dm_ioctl d;
	bool held = sc_mem_read(c, arg, &d, DM_HDR) == 0 &&
		    d.data_size >= offsetof(struct dm_ioctl, data_size);
	if (c->entering) {
		p_sep(c);
		if (!held) {
			/* as strace: an unreadable header is an undecoded argument */
			out(c, "%#llx", (unsigned long long)arg);
			return SC_DONE;
		}
		c->priv = malloc(DM_HDR);
		if (c->priv)
			memcpy(c->priv, &d, DM_HDR);
		out(c, "[");
	} else {
		const struct dm_ioctl *e = c->priv;
		bool changed = !held || !e || memcmp(e->version, d.version, sizeof(d.version)) ||
			       e->data_size != d.data_size || e->data_start != d.data_start ||
			       e->flags != d.flags;
		if (!held || (sc_failed(c) && !changed))
			return 0;
		out(c, " => [");
	}
	if (p_header(c, req, &d))
		p_payload(c, req, arg, &d);
	out(c, "]");
	return 0;
}

static size_t dm_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return known(req) ? IOCTL_MEM_CAP : 0;
}

const struct ioctl_family ioctl_dm = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_dm, .decode = dm_decode, .arg_len = dm_len,
};

/* The ioctl families tracekit decodes, looked up by the request's type byte. */
#include <inttypes.h>
#include <linux/ioctl.h>

#include "family.h"

static const struct ioctl_family *const families[] = {
	&ioctl_evdev,
};

const struct ioctl_family *ioctl_family_of(unsigned req)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i]->type == _IOC_TYPE(req))
			return families[i];
	return NULL;
}

bool ioctl_family_name(struct sc_call *c, unsigned req, bool in_comment)
{
	const struct ioctl_family *f = ioctl_family_of(req);
	if (!f)
		return false;
	const char *name = f->names ? xlat_str(f->names, req) : NULL;
	if (name) {
		out(c, "%s", name);
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

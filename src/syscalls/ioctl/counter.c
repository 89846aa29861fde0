/* Counter character device requests (<linux/counter.h>). */
#include <linux/counter.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ COUNTER_ENABLE_EVENTS_IOCTL, IS_NONE }, { COUNTER_DISABLE_EVENTS_IOCTL, IS_NONE },
};

static void p_watch(struct sc_call *c, uint64_t arg)
{
	struct counter_watch w;
	if (p_fetch(c, arg, &w, sizeof(w)) < 0)
		return;
	out(c, "{component={type=");
	p_xval(c, &xlat_counter_component_types, w.component.type, "COUNTER_COMPONENT_???");
	out(c, ", scope=");
	p_xval(c, &xlat_counter_scopes, w.component.scope, "COUNTER_SCOPE_???");
	out(c, ", parent=%u, id=%u}, event=", w.component.parent, w.component.id);
	p_xval(c, &xlat_counter_events, w.event, "COUNTER_EVENT_???");
	out(c, ", channel=%u}", w.channel);
}

static int counter_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req == COUNTER_ADD_WATCH_IOCTL) {
		return ioctl_setter(c, arg, p_watch);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t counter_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	return req == COUNTER_ADD_WATCH_IOCTL ? sizeof(struct counter_watch) : 0;
}

const struct ioctl_family ioctl_counter = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_counter, .decode = counter_decode, .arg_len = counter_len,
};

/*
 * GPIO character device (linux/gpio.h) ioctls, v1 and v2 ABI, as strace
 * prints them: what the kernel reads at entry, " => " and what it wrote at
 * exit (line info, the new line descriptor).  Reserved padding prints only
 * when a caller filled it.
 */
#include <inttypes.h>
#include <linux/gpio.h>

#include "family.h"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void p_chip_info(struct sc_call *c, uint64_t arg)
{
	struct gpiochip_info i;
	if (p_fetch(c, arg, &i, sizeof(i)) < 0)
		return;
	out(c, "{name=");
	ioctl_p_cstring(c, i.name, sizeof(i.name));
	out(c, ", label=");
	ioctl_p_cstring(c, i.label, sizeof(i.label));
	out(c, ", lines=%u}", i.lines);
}

/* v1 line info: the offset asked for at entry, the rest at exit. */
static void p_line_info(struct sc_call *c, uint64_t arg)
{
	struct gpioline_info i;
	if (c->entering) {
		if (p_fetch(c, arg, &i, sizeof(i)) == 0)
			out(c, "{line_offset=%u}", i.line_offset);
		return;
	}
	out(c, IOCTL_CHANGED);
	if (p_fetch(c, arg, &i, sizeof(i)) < 0)
		return;
	out(c, "{flags=");
	p_flags(c, &xlat_gpio_line_flags, i.flags, "GPIOLINE_FLAG_???");
	out(c, ", name=");
	ioctl_p_cstring(c, i.name, sizeof(i.name));
	out(c, ", consumer=");
	ioctl_p_cstring(c, i.consumer, sizeof(i.consumer));
	out(c, "}");
}

static void p_handle_request(struct sc_call *c, uint64_t arg)
{
	struct gpiohandle_request r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	if (!c->entering) {
		out(c, IOCTL_CHANGED "{fd=");
		p_fd(c, (uint64_t)(int64_t)r.fd);
		out(c, "}");
		return;
	}
	size_t n = r.lines < GPIOHANDLES_MAX ? r.lines : GPIOHANDLES_MAX;
	out(c, "{lines=%u, lineoffsets=", r.lines);
	ioctl_p_u32_array(c, r.lineoffsets, n, false);
	out(c, ", flags=");
	p_flags(c, &xlat_gpio_handle_flags, r.flags, "GPIOHANDLE_REQUEST_???");
	out(c, ", default_values=");
	uint32_t vals[GPIOHANDLES_MAX];
	for (size_t i = 0; i < n; i++)
		vals[i] = r.default_values[i];
	ioctl_p_u32_array(c, vals, n, false);
	out(c, ", consumer_label=");
	ioctl_p_cstring(c, r.consumer_label, sizeof(r.consumer_label));
	out(c, "}");
}

static void p_event_request(struct sc_call *c, uint64_t arg)
{
	struct gpioevent_request r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	if (!c->entering) {
		out(c, IOCTL_CHANGED "{fd=");
		p_fd(c, (uint64_t)(int64_t)r.fd);
		out(c, "}");
		return;
	}
	out(c, "{lineoffset=%u, handleflags=", r.lineoffset);
	p_flags(c, &xlat_gpio_handle_flags, r.handleflags, "GPIOHANDLE_REQUEST_???");
	out(c, ", eventflags=");
	p_flags(c, &xlat_gpio_event_flags, r.eventflags, "GPIOEVENT_REQUEST_???");
	out(c, ", consumer_label=");
	ioctl_p_cstring(c, r.consumer_label, sizeof(r.consumer_label));
	out(c, "}");
}

static void p_u8_values(struct sc_call *c, const uint8_t *v, size_t n)
{
	uint32_t vals[GPIOHANDLES_MAX];
	for (size_t i = 0; i < n; i++)
		vals[i] = v[i];
	ioctl_p_u32_array(c, vals, n, false);
}

static void p_handle_data(struct sc_call *c, uint64_t arg)
{
	struct gpiohandle_data d;
	if (p_fetch(c, arg, &d, sizeof(d)) < 0)
		return;
	out(c, "{values=");
	p_u8_values(c, d.values, ARRAY_LEN(d.values));
	out(c, "}");
}

static void p_handle_config(struct sc_call *c, uint64_t arg)
{
	struct gpiohandle_config h;
	if (p_fetch(c, arg, &h, sizeof(h)) < 0)
		return;
	out(c, "{flags=");
	p_flags(c, &xlat_gpio_handle_flags, h.flags, "GPIOHANDLE_REQUEST_???");
	out(c, ", default_values=");
	p_u8_values(c, h.default_values, ARRAY_LEN(h.default_values));
	out(c, "}");
}

/* An attribute whose id is unknown or whose padding is used prints raw. */
static void p_attr_raw(struct sc_call *c, const struct gpio_v2_line_attribute *a)
{
	out(c, "id=%u", a->id);
	if (a->padding)
		out(c, ", padding=%#x", a->padding);
	out(c, ", data=%#" PRIx64, (uint64_t)a->values);
}

static void p_attr(struct sc_call *c, const struct gpio_v2_line_attribute *a, bool as_field)
{
	bool raw = a->padding || a->id < GPIO_V2_LINE_ATTR_ID_FLAGS ||
		   a->id > GPIO_V2_LINE_ATTR_ID_DEBOUNCE;
	if (raw) {
		out(c, as_field ? "attr={" : "");
		p_attr_raw(c, a);
		out(c, as_field ? "}" : "");
		return;
	}
	switch (a->id) {
	case GPIO_V2_LINE_ATTR_ID_FLAGS:
		out(c, "flags=");
		p_flags(c, &xlat_gpio_v2_line_flags, a->flags, "GPIO_V2_LINE_FLAG_???");
		break;
	case GPIO_V2_LINE_ATTR_ID_OUTPUT_VALUES:
		out(c, "values=%#" PRIx64, (uint64_t)a->values);
		break;
	default:
		out(c, "debounce_period_us=%u", a->debounce_period_us);
		break;
	}
}

static void p_padding(struct sc_call *c, const uint32_t *pad, size_t n)
{
	if (ioctl_all_zero(pad, n * sizeof(*pad)))
		return;
	out(c, ", padding=");
	ioctl_p_u32_array(c, pad, n, true);
}

static void p_line_config(struct sc_call *c, const struct gpio_v2_line_config *lc)
{
	out(c, "{flags=");
	p_flags(c, &xlat_gpio_v2_line_flags, lc->flags, "GPIO_V2_LINE_FLAG_???");
	out(c, ", num_attrs=%u", lc->num_attrs);
	p_padding(c, lc->padding, ARRAY_LEN(lc->padding));
	if (lc->num_attrs) {
		size_t n = lc->num_attrs < GPIO_V2_LINE_NUM_ATTRS_MAX ? lc->num_attrs :
									 GPIO_V2_LINE_NUM_ATTRS_MAX;
		out(c, ", attrs=[");
		for (size_t i = 0; i < n; i++) {
			out(c, i ? ", {" : "{");
			p_attr(c, &lc->attrs[i].attr, true);
			out(c, ", mask=%#" PRIx64 "}", (uint64_t)lc->attrs[i].mask);
		}
		out(c, "]");
	}
	out(c, "}");
}

static void p_v2_line_info(struct sc_call *c, uint64_t arg)
{
	struct gpio_v2_line_info li;
	if (c->entering) {
		if (p_fetch(c, arg, &li, sizeof(li)) == 0)
			out(c, "{offset=%u}", li.offset);
		return;
	}
	out(c, IOCTL_CHANGED);
	if (p_fetch(c, arg, &li, sizeof(li)) < 0)
		return;
	out(c, "{name=");
	ioctl_p_cstring(c, li.name, sizeof(li.name));
	out(c, ", consumer=");
	ioctl_p_cstring(c, li.consumer, sizeof(li.consumer));
	out(c, ", flags=");
	p_flags(c, &xlat_gpio_v2_line_flags, li.flags, "GPIO_V2_LINE_FLAG_???");
	out(c, ", num_attrs=%u", li.num_attrs);
	if (li.num_attrs) {
		size_t n = li.num_attrs < GPIO_V2_LINE_NUM_ATTRS_MAX ? li.num_attrs :
									 GPIO_V2_LINE_NUM_ATTRS_MAX;
		out(c, ", attrs=[");
		for (size_t i = 0; i < n; i++) {
			out(c, i ? ", {" : "{");
			p_attr(c, &li.attrs[i], false);
			out(c, "}");
		}
		out(c, "]");
	}
	p_padding(c, li.padding, ARRAY_LEN(li.padding));
	out(c, "}");
}

static void p_v2_line_request(struct sc_call *c, uint64_t arg)
{
	struct gpio_v2_line_request r;
	if (p_fetch(c, arg, &r, sizeof(r)) < 0)
		return;
	if (!c->entering) {
		out(c, IOCTL_CHANGED "{fd=");
		p_fd(c, (uint64_t)(int64_t)r.fd);
		out(c, "}");
		return;
	}
	out(c, "{num_lines=%u, offsets=", r.num_lines);
	ioctl_p_u32_array(c, r.offsets, r.num_lines < GPIO_V2_LINES_MAX ? r.num_lines :
									GPIO_V2_LINES_MAX, false);
	out(c, ", consumer=");
	ioctl_p_cstring(c, r.consumer, sizeof(r.consumer));
	out(c, ", config=");
	p_line_config(c, &r.config);
	if (r.event_buffer_size)
		out(c, ", event_buffer_size=%u", r.event_buffer_size);
	p_padding(c, r.padding, ARRAY_LEN(r.padding));
	out(c, "}");
}

static void p_v2_get_values(struct sc_call *c, uint64_t arg)
{
	struct gpio_v2_line_values v;
	if (!c->entering)
		out(c, IOCTL_CHANGED);
	if (p_fetch(c, arg, &v, sizeof(v)) < 0)
		return;
	if (c->entering)
		out(c, "{mask=%#" PRIx64 "}", (uint64_t)v.mask);
	else
		out(c, "{bits=%#" PRIx64 "}", (uint64_t)v.bits);
}

static void p_v2_set_values(struct sc_call *c, uint64_t arg)
{
	struct gpio_v2_line_values v;
	if (p_fetch(c, arg, &v, sizeof(v)) == 0)
		out(c, "{bits=%#" PRIx64 ", mask=%#" PRIx64 "}", (uint64_t)v.bits,
		    (uint64_t)v.mask);
}

static void p_v2_set_config(struct sc_call *c, uint64_t arg)
{
	struct gpio_v2_line_config lc;
	if (p_fetch(c, arg, &lc, sizeof(lc)) == 0)
		p_line_config(c, &lc);
}

/* How a request's argument is shown: when, and by what. */
enum gpio_when {
	AT_ENTRY,	/* read by the kernel only */
	AT_EXIT,	/* written by the kernel only: the address when the call failed */
	BOTH,		/* what it reads, then (on success) " => " what it wrote */
};

static const struct {
	unsigned req;
	enum gpio_when when;
	void (*print)(struct sc_call *c, uint64_t arg);
	size_t size;
} gpio_requests[] = {
	{ GPIO_GET_CHIPINFO_IOCTL, AT_EXIT, p_chip_info, sizeof(struct gpiochip_info) },
	{ GPIO_GET_LINEINFO_IOCTL, BOTH, p_line_info, sizeof(struct gpioline_info) },
	{ GPIO_GET_LINEINFO_WATCH_IOCTL, BOTH, p_line_info, sizeof(struct gpioline_info) },
	{ GPIO_GET_LINEHANDLE_IOCTL, BOTH, p_handle_request, sizeof(struct gpiohandle_request) },
	{ GPIO_GET_LINEEVENT_IOCTL, BOTH, p_event_request, sizeof(struct gpioevent_request) },
	{ GPIOHANDLE_GET_LINE_VALUES_IOCTL, AT_EXIT, p_handle_data, sizeof(struct gpiohandle_data) },
	{ GPIOHANDLE_SET_LINE_VALUES_IOCTL, AT_ENTRY, p_handle_data, sizeof(struct gpiohandle_data) },
	{ GPIOHANDLE_SET_CONFIG_IOCTL, AT_ENTRY, p_handle_config, sizeof(struct gpiohandle_config) },
	{ GPIO_V2_GET_LINEINFO_IOCTL, BOTH, p_v2_line_info, sizeof(struct gpio_v2_line_info) },
	{ GPIO_V2_GET_LINEINFO_WATCH_IOCTL, BOTH, p_v2_line_info, sizeof(struct gpio_v2_line_info) },
	{ GPIO_V2_GET_LINE_IOCTL, BOTH, p_v2_line_request, sizeof(struct gpio_v2_line_request) },
	{ GPIO_V2_LINE_SET_CONFIG_IOCTL, AT_ENTRY, p_v2_set_config, sizeof(struct gpio_v2_line_config) },
	{ GPIO_V2_LINE_GET_VALUES_IOCTL, BOTH, p_v2_get_values, sizeof(struct gpio_v2_line_values) },
	{ GPIO_V2_LINE_SET_VALUES_IOCTL, AT_ENTRY, p_v2_set_values, sizeof(struct gpio_v2_line_values) },
};

static int find(unsigned req)
{
	for (size_t i = 0; i < ARRAY_LEN(gpio_requests); i++)
		if (gpio_requests[i].req == req)
			return (int)i;
	return -1;
}

/* GPIO_GET_LINEINFO_UNWATCH_IOCTL's argument: the offset alone. */
static void p_unwatch(struct sc_call *c, uint64_t arg)
{
	uint32_t off;
	if (p_fetch(c, arg, &off, sizeof(off)) == 0)
		out(c, "{offset=%u}", off);
}

static int gpio_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req == GPIO_GET_LINEINFO_UNWATCH_IOCTL) {
		return ioctl_setter(c, arg, p_unwatch);
	}
	int i = find(req);
	if (i < 0)
		return IOCTL_UNDECODED;
	enum gpio_when when = gpio_requests[i].when;
	if (c->entering) {
		if (when == AT_EXIT)
			return 0;
		p_sep(c);
		gpio_requests[i].print(c, arg);
		return when == AT_ENTRY ? SC_DONE : 0;
	}
	if (when == AT_EXIT) {
		p_sep(c);
		if (sc_failed(c))
			p_addr(c, arg);
		else
			gpio_requests[i].print(c, arg);
	} else if (!sc_failed(c) && ioctl_readable(c, arg, gpio_requests[i].size)) {
		/* Only when the entry printed the struct: an address there ends the line. */
		gpio_requests[i].print(c, arg);
	}
	return 0;
}

static size_t gpio_arg_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	if (req == GPIO_GET_LINEINFO_UNWATCH_IOCTL)
		return sizeof(uint32_t);
	int i = find(req);
	return i < 0 ? 0 : gpio_requests[i].size;
}

const struct ioctl_family ioctl_gpio = {
	.type = GPIO_GET_CHIPINFO_IOCTL >> _IOC_TYPESHIFT & _IOC_TYPEMASK,
	.names = &xlat_gpio_ioctls,
	.decode = gpio_decode,
	.arg_len = gpio_arg_len,
};

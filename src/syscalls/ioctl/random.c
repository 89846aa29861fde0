/* /dev/random requests (<linux/random.h>). */
#include <linux/random.h>
#include <sys/ioctl.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ RNDZAPENTCNT, IS_NONE }, { RNDCLEARPOOL, IS_NONE }, { RNDRESEEDCRNG, IS_NONE },
	{ RNDGETENTCNT, IS_INT_OUT }, { RNDADDTOENTCNT, IS_INT_IN },
};

/* {entropy_count=3, buf_size=8, buf="12345678"} */
static void p_pool(struct sc_call *c, uint64_t arg)
{
	struct rand_pool_info p;
	if (p_fetch(c, arg, &p, sizeof(p)) < 0)
		return;
	out(c, "{entropy_count=%d, buf_size=%d, buf=", p.entropy_count, p.buf_size);
	p_buf(c, arg + sizeof(p), p.buf_size > 0 ? p.buf_size : 0);
	out(c, "}");
}

static int random_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	if (req == RNDADDENTROPY) {
		return ioctl_setter(c, arg, p_pool);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t random_len(const struct sc_call *c, unsigned req)
{
	/* the header and the start of its buffer, up to -s */
	if (req == RNDADDENTROPY)
		return sizeof(struct rand_pool_info) + ioctl_strsize(c) + 1;
	return ioctl_shape_len(IOCTL_SHAPES(shapes), req);
}

const struct ioctl_family ioctl_random = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_random, .decode = random_decode, .arg_len = random_len,
};

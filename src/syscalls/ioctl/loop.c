/*
 * Loop device requests (<linux/loop.h>).  Without -v strace leaves out the
 * device numbers and lo_init, and the encryption fields of an unencrypted
 * device.
 */
#include <inttypes.h>
#include <linux/loop.h>

#include "ioctl.h"

static const struct ioctl_shape_entry shapes[] = {
	{ LOOP_CLR_FD, IS_NONE }, { LOOP_SET_CAPACITY, IS_NONE }, { LOOP_CTL_GET_FREE, IS_NONE },
	{ LOOP_SET_FD, IS_FD }, { LOOP_CHANGE_FD, IS_FD },
	{ LOOP_CTL_ADD, IS_INT }, { LOOP_CTL_REMOVE, IS_INT },
	{ LOOP_SET_DIRECT_IO, IS_ULONG }, { LOOP_SET_BLOCK_SIZE, IS_ULONG },
};

static bool verbose(const struct sc_call *c)
{
	return c->fmt && c->fmt->verbose;
}

/* The key: lo_encrypt_key_size bytes of it, at most its size. */
static void p_key(struct sc_call *c, const unsigned char *key, unsigned size)
{
	out(c, ", lo_encrypt_key=");
	p_quoted(c, key, size < LO_KEY_SIZE ? size : LO_KEY_SIZE, false);
}

static void p_encrypt_type(struct sc_call *c, unsigned type, unsigned key_size)
{
	out(c, ", lo_encrypt_type=");
	p_xval(c, &xlat_loop_crypt_types, type, "LO_CRYPT_???");
	out(c, ", lo_encrypt_key_size=%u", key_size);
}

static void p_info(struct sc_call *c, uint64_t arg)
{
	struct loop_info i;
	if (p_fetch(c, arg, &i, sizeof(i)) < 0)
		return;
	bool crypt = verbose(c) || i.lo_encrypt_type != LO_CRYPT_NONE;
	out(c, "{lo_number=%d", i.lo_number);
	if (verbose(c)) {
		out(c, ", lo_device=");
		p_dev(c, i.lo_device);
		out(c, ", lo_inode=%lu, lo_rdevice=", i.lo_inode);
		p_dev(c, i.lo_rdevice);
	}
	out(c, ", lo_offset=%#x", i.lo_offset);
	if (crypt)
		p_encrypt_type(c, (unsigned)i.lo_encrypt_type, (unsigned)i.lo_encrypt_key_size);
	out(c, ", lo_flags=");
	p_flags(c, &xlat_loop_flags, (unsigned)i.lo_flags, "LO_FLAGS_???");
	out(c, ", lo_name=");
	ioctl_p_chars(c, i.lo_name, sizeof(i.lo_name));
	if (crypt)
		p_key(c, i.lo_encrypt_key, (unsigned)i.lo_encrypt_key_size);
	if (verbose(c))
		out(c, ", lo_init=[%#lx, %#lx], reserved=[%#hhx, %#hhx, %#hhx, %#hhx]}",
		    i.lo_init[0], i.lo_init[1], i.reserved[0], i.reserved[1], i.reserved[2],
		    i.reserved[3]);
	else
		out(c, ", ...}");
}

static void p_info64(struct sc_call *c, const struct loop_info64 *i)
{
	bool crypt = verbose(c) || i->lo_encrypt_type != LO_CRYPT_NONE;
	out(c, "{");
	if (verbose(c)) {
		out(c, "lo_device=");
		p_dev(c, i->lo_device);
		out(c, ", lo_inode=%llu, lo_rdevice=", (unsigned long long)i->lo_inode);
		p_dev(c, i->lo_rdevice);
		out(c, ", lo_offset=%#llx, lo_sizelimit=%llu, ", (unsigned long long)i->lo_offset,
		    (unsigned long long)i->lo_sizelimit);
	} else {
		out(c, "lo_offset=%#llx, ", (unsigned long long)i->lo_offset);
	}
	out(c, "lo_number=%u", i->lo_number);
	if (crypt)
		p_encrypt_type(c, i->lo_encrypt_type, i->lo_encrypt_key_size);
	out(c, ", lo_flags=");
	p_flags(c, &xlat_loop_flags, i->lo_flags, "LO_FLAGS_???");
	out(c, ", lo_file_name=");
	ioctl_p_chars(c, (const char *)i->lo_file_name, sizeof(i->lo_file_name));
	if (crypt) {
		out(c, ", lo_crypt_name=");
		ioctl_p_chars(c, (const char *)i->lo_crypt_name, sizeof(i->lo_crypt_name));
		p_key(c, i->lo_encrypt_key, i->lo_encrypt_key_size);
	}
	if (verbose(c))
		out(c, ", lo_init=[%#llx, %#llx]}", (unsigned long long)i->lo_init[0],
		    (unsigned long long)i->lo_init[1]);
	else
		out(c, ", ...}");
}

static void p_config(struct sc_call *c, uint64_t arg)
{
	struct loop_config cf;
	if (p_fetch(c, arg, &cf, sizeof(cf)) < 0)
		return;
	out(c, "{fd=");
	p_fd(c, (uint64_t)(int)cf.fd);
	out(c, ", block_size=%u, info=", cf.block_size);
	p_info64(c, &cf.info);
	bool reserved = false;
	for (size_t k = 0; k < sizeof(cf.__reserved) / sizeof(cf.__reserved[0]); k++)
		reserved |= cf.__reserved[k] != 0;
	if (reserved) {
		out(c, ", __reserved=[");
		for (size_t k = 0; k < sizeof(cf.__reserved) / sizeof(cf.__reserved[0]); k++)
			out(c, "%s%#llx", k ? ", " : "", (unsigned long long)cf.__reserved[k]);
		out(c, "]");
	}
	out(c, "}");
}

static void p_info64_at(struct sc_call *c, uint64_t arg)
{
	struct loop_info64 i;
	if (p_fetch(c, arg, &i, sizeof(i)) == 0)
		p_info64(c, &i);
}

static int loop_decode(struct sc_call *c, unsigned req, uint64_t arg)
{
	switch (req) {
	case LOOP_GET_STATUS:
		return ioctl_getter(c, arg, p_info);
	case LOOP_GET_STATUS64:
		return ioctl_getter(c, arg, p_info64_at);
	case LOOP_SET_STATUS:
		return ioctl_setter(c, arg, p_info);
	case LOOP_SET_STATUS64:
		return ioctl_setter(c, arg, p_info64_at);
	case LOOP_CONFIGURE:
		return ioctl_setter(c, arg, p_config);
	}
	return ioctl_shape_decode(c, IOCTL_SHAPES(shapes), req, arg);
}

static size_t loop_len(const struct sc_call *c, unsigned req)
{
	(void)c;
	switch (req) {
	case LOOP_GET_STATUS:
	case LOOP_SET_STATUS:
		return sizeof(struct loop_info);
	case LOOP_GET_STATUS64:
	case LOOP_SET_STATUS64:
		return sizeof(struct loop_info64);
	case LOOP_CONFIGURE:
		return sizeof(struct loop_config);
	}
	return 0;
}

const struct ioctl_family ioctl_loop = {
	.type = IOCTL_ANY_TYPE,
	.names = &xlat_ioctl_loop, .decode = loop_decode, .arg_len = loop_len,
};

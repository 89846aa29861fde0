/*
 * Landlock: rulesets (a struct of a size the caller says), rules added to
 * them, and restricting the caller.  A ruleset is a new descriptor unless
 * the caller only asks for the ABI version.
 */
#include <inttypes.h>
#include <string.h>

#include "decoder.h"

#define RULESET_ATTR_FS_LEN 8	/* handled_access_fs: what strace 6.1 decodes */
#define LANDLOCK_CREATE_RULESET_VERSION_ 1u
#define LANDLOCK_RULE_PATH_BENEATH_ 1u

static void p_access_fs(struct sc_call *c, uint64_t v)
{
	p_flags(c, &xlat_landlock_access_fs, v, "LANDLOCK_ACCESS_FS_???");
}

SC_DECODER(landlock_create_ruleset, MEM_BYTES_IN(0, RULESET_ATTR_FS_LEN))
{
	uint64_t size = c->args[1];
	unsigned flags = (unsigned)c->args[2];
	uint64_t fs;
	if (size < RULESET_ATTR_FS_LEN) {
		p_addr(c, c->args[0]);
	} else if (p_fetch(c, c->args[0], &fs, sizeof(fs)) == 0) {
		out(c, "{handled_access_fs=");
		p_access_fs(c, fs);
		out(c, "%s}", size > RULESET_ATTR_FS_LEN ? ", ..." : "");
	}
	out(c, ", %" PRIu64 ", ", size);
	p_flags(c, &xlat_landlock_create_flags, flags, "LANDLOCK_CREATE_RULESET_???");
	if (!(flags & LANDLOCK_CREATE_RULESET_VERSION_))
		c->rv = SC_RV_FD;
	return SC_DONE;
}

/* struct landlock_path_beneath_attr is packed: a u64 and an s32. */
SC_DECODER(landlock_add_rule, MEM_BYTES_IN(2, 12))
{
	unsigned type = (unsigned)c->args[1];
	unsigned char attr[12];
	p_fd(c, c->args[0]);
	p_sep(c);
	p_xval(c, &xlat_landlock_rule_types, type, "LANDLOCK_RULE_???");
	p_sep(c);
	if (type != LANDLOCK_RULE_PATH_BENEATH_) {
		p_addr(c, c->args[2]);
	} else if (p_fetch(c, c->args[2], attr, sizeof(attr)) == 0) {
		uint64_t allowed;
		int32_t parent;
		memcpy(&allowed, attr, sizeof(allowed));
		memcpy(&parent, attr + 8, sizeof(parent));
		out(c, "{allowed_access=");
		p_access_fs(c, allowed);
		out(c, ", parent_fd=");
		p_fd(c, (uint64_t)(int64_t)parent);
		out(c, "}");
	}
	out(c, ", %#x", (unsigned)c->args[3]);
	return SC_DONE;
}

SC_DECODER(landlock_restrict_self)
{
	p_fd(c, c->args[0]);
	out(c, ", %#x", (unsigned)c->args[1]);
	return SC_DONE;
}

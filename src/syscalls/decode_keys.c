/*
 * The kernel key retention service: add_key and request_key.  keyctl's
 * commands are not decoded yet.
 */
#include <stdint.h>

#include "decoder.h"

/* KEY_SPEC_SESSION_KEYRING, or the serial number in decimal. */
static void p_keyring(struct sc_call *c, uint64_t id)
{
	const char *s = xlat_str(&xlat_key_spec, (uint64_t)(int64_t)(int32_t)id);
	if (s)
		out(c, "%s", s);
	else
		out(c, "%d", (int32_t)id);
}

SC_DECODER(add_key, MEM_STR_IN(0), MEM_STR_IN(1), MEM_BUF_IN(2, 3))
{
	p_str(c, c->args[0]);
	p_sep(c);
	p_str(c, c->args[1]);
	p_sep(c);
	p_buf(c, c->args[2], (int64_t)c->args[3]);
	out(c, ", %llu, ", (unsigned long long)c->args[3]);
	p_keyring(c, c->args[4]);
	return SC_DONE;
}

SC_DECODER(request_key, MEM_STR_IN(0), MEM_STR_IN(1), MEM_STR_IN(2))
{
	p_str(c, c->args[0]);
	p_sep(c);
	p_str(c, c->args[1]);
	p_sep(c);
	p_str(c, c->args[2]);
	p_sep(c);
	p_keyring(c, c->args[3]);
	return SC_DONE;
}

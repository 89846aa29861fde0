/*
 * Running decoders and formatting return values the way strace prints them.
 * Calls with no decoder print their raw arguments in hex, as strace does.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "print_pid.h"

void sc_call_reset(struct sc_call *c)
{
	c->ent = NULL;
	c->ret = 0;
	c->entering = true;
	c->has_ret = false;
	c->rv = SC_RV_DEC;
	c->rv_extra[0] = '\0';
	c->done_at_entry = false;
	free(c->priv);
	c->priv = NULL;
	sc_mem_reset(&c->mem);
}

static void raw_args(struct sc_call *c, int n)
{
	for (int i = 0; i < n; i++) {
		if (i)
			p_sep(c);
		if (c->args[i])
			sb_printf(c->out, "%#" PRIx64, c->args[i]);
		else
			sb_addc(c->out, '0');
	}
}

void sc_decode_entry(struct sc_call *c)
{
	c->ent = sc_by_nr(c->nr);
	c->entering = true;
	if (c->ent)
		sb_printf(c->out, "%s(", c->ent->name);
	else
		sb_printf(c->out, "syscall_%#lx(", (unsigned long)c->nr);

	if (!c->ent || !c->ent->dec) {
		raw_args(c, c->ent ? c->ent->nargs : 6);
		c->done_at_entry = true;
		return;
	}
	c->done_at_entry = c->ent->dec->decode(c) == SC_DONE;
}

void sc_decode_entry_raw(struct sc_call *c)
{
	c->ent = sc_by_nr(c->nr);
	c->entering = true;
	if (c->ent)
		sb_printf(c->out, "%s(", c->ent->name);
	else
		sb_printf(c->out, "syscall_%#lx(", (unsigned long)c->nr);
	raw_args(c, c->ent ? c->ent->nargs : 6);
	c->done_at_entry = true;
	c->rv = SC_RV_RAW;
}

void sc_decode_exit(struct sc_call *c)
{
	c->entering = false;
	c->has_ret = true;
	if (!c->done_at_entry && c->ent && c->ent->dec)
		c->ent->dec->decode(c);
	sb_addc(c->out, ')');
}

/* Kernel-internal restart codes: a tracer sees them when a signal interrupts a call. */
static const struct {
	int err;
	const char *desc;
} restart_desc[] = {
	{ 512, "To be restarted if SA_RESTART is set" },
	{ 513, "To be restarted" },
	{ 514, "To be restarted if no handler" },
	{ 516, "Interrupted by signal" },
};

const char *sc_errdesc(int err)
{
	for (size_t i = 0; i < sizeof(restart_desc) / sizeof(restart_desc[0]); i++)
		if (restart_desc[i].err == err)
			return restart_desc[i].desc;
	return strerror(err);
}

void sc_format_took(struct strbuf *sb, uint64_t ns, int width)
{
	unsigned long long sec = ns / 1000000000, frac = ns % 1000000000;
	if (!width) {
		sb_printf(sb, " <%llu>", sec);
		return;
	}
	for (int i = width; i < 9; i++)
		frac /= 10;	/* truncated, as strace does */
	sb_printf(sb, " <%llu.%0*llu>", sec, width, frac);
}

void sc_format_ret(const struct sc_call *c, struct strbuf *sb, bool injected)
{
	if (c->rv == SC_RV_NONE || !c->has_ret) {
		sb_add(sb, " = ?");
		return;
	}
	if (sc_failed(c) && c->rv != SC_RV_UDEC_NF) {
		int err = (int)-c->ret;
		const char *name = sc_errname(err);
		bool restart = err >= 512 && err <= 516;
		sb_add(sb, restart ? " = ? " : " = -1 ");
		if (name)
			sb_add(sb, name);
		else
			sb_printf(sb, "E??? %d", err);
		sb_printf(sb, " (%s)", sc_errdesc(err));
		if (injected)
			sb_add(sb, " (INJECTED)");
		return;
	}
	switch (c->rv) {
	case SC_RV_HEX:
		sb_printf(sb, " = %#" PRIx64, (uint64_t)c->ret);
		break;
	case SC_RV_OCT:
		sb_printf(sb, " = %#03" PRIo64, (uint64_t)c->ret);
		break;
	case SC_RV_UDEC:
	case SC_RV_UDEC_NF:
		sb_printf(sb, " = %" PRIu64, (uint64_t)c->ret);
		break;
	case SC_RV_RAW:
		sb_printf(sb, c->ret ? " = %#" PRIx64 : " = 0", (uint64_t)c->ret);
		break;
	case SC_RV_FD: {
		struct sc_call tmp = *c;
		tmp.out = sb;
		sb_add(sb, " = ");
		/* No descriptor is that big (an injected value): the number, as strace. */
		if (c->ret > INT32_MAX)
			sb_printf(sb, "%" PRId64, c->ret);
		else
			p_fd(&tmp, (uint64_t)c->ret);
		break;
	}
	case SC_RV_TID:
	case SC_RV_TGID:
	case SC_RV_PGID:
	case SC_RV_SID: {
		struct sc_call tmp = *c;
		tmp.out = sb;
		sb_add(sb, " = ");
		p_pid(&tmp, (int)c->ret, (enum sc_pid_type)(c->rv - SC_RV_TID));
		break;
	}
	default:
		sb_printf(sb, " = %" PRId64, c->ret);
		break;
	}
	if (c->rv_extra[0])
		sb_printf(sb, " %s", c->rv_extra);
	if (injected)
		sb_add(sb, " (INJECTED)");
}

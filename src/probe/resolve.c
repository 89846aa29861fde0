/*
 * pd_resolve: a user probe's place and symbolic fetches through its ELF file.
 * PATH:SYMBOL+OFFS becomes a link-time vaddr and a file offset (the
 * instruction boundary checked), PATH:OFFSET a vaddr, PATH:%prov:name the
 * USDT note's place, semaphore and arguments; @SYM and @+OFFS fetches become
 * link-time vaddrs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "probe/cresolve.h"
#include "probe/elfsym.h"
#include "probe/probe_def.h"
#include "probe/usdt.h"
#include "util/die.h"
#include "util/strbuf.h"

static int resolve_fetch(struct es_file *f, struct probe_def *def, struct pd_fetch *x, char *err,
			 size_t errlen)
{
	for (; x; x = x->child) {
		if (x->op == PD_F_SYM && !x->resolved) {
			const struct es_sym *s = es_lookup(f, x->sym, err, errlen);
			if (!s)
				return -1;
			x->addr = s->value + (uint64_t)x->offs;
			x->resolved = true;
		} else if (x->op == PD_F_FILEOFF) {
			/* The kernel's meaning: the probed file's mapping base + OFFS. */
			x->addr = def->vaddr - def->file_offset + (uint64_t)x->offs;
			x->resolved = true;
		}
	}
	return 0;
}

/* The USDT note's arguments as our fetch args, when the spec gave none. */
static int usdt_args(struct probe_def *def, const struct es_usdt *u, char *err, size_t errlen)
{
	struct strbuf sb = STRBUF_INIT;
	struct probe_def tmp;
	struct pd_error perr;
	sb_add(&sb, "p /usdt:0 ");
	if (usdt_args_to_fetchargs(u->args, &sb, err, errlen) < 0)
		goto bad;
	if (pd_parse(sb_str(&sb), &tmp, &perr) < 0) {
		es_fail(err, errlen, "USDT %s:%s arguments '%s': %s", u->provider, u->name, u->args,
		     perr.msg);
		goto bad;
	}
	def->args = tmp.args;
	def->nargs = tmp.nargs;
	tmp.args = NULL;
	tmp.nargs = 0;
	pd_free(&tmp);
	sb_free(&sb);
	return 0;
bad:
	sb_free(&sb);
	return -1;
}

static int resolve_usdt(struct es_file *f, struct probe_def *def, char *err, size_t errlen)
{
	const struct es_usdt *u = NULL;
	for (size_t i = 0; i < es_nusdt(f) && !u; i++)
		if (!strcmp(es_usdt(f, i)->provider, def->usdt_provider) &&
		    !strcmp(es_usdt(f, i)->name, def->usdt_name))
			u = es_usdt(f, i);
	if (!u)
		return es_fail(err, errlen, "no USDT probe %s:%s in %s (%zu USDT probes; see tracekit "
			    "probe list --symbols %s)", def->usdt_provider, def->usdt_name, def->path,
			    es_nusdt(f), def->path);
	def->vaddr = def->func_vaddr = u->pc;
	if (es_vaddr_to_offset(f, u->pc, &def->file_offset) < 0)
		return es_fail(err, errlen, "USDT %s:%s's address 0x%" PRIx64 " is outside %s's segments",
			    u->provider, u->name, u->pc, def->path);
	if (u->semaphore && es_vaddr_to_offset(f, u->semaphore, &def->ref_ctr_offset) < 0)
		return es_fail(err, errlen, "USDT %s:%s's semaphore 0x%" PRIx64 " is outside %s's segments",
			    u->provider, u->name, u->semaphore, def->path);
	if (def->nargs == 0)
		return usdt_args(def, u, err, errlen);
	return 0;
}

static int resolve_place(struct es_file *f, struct probe_def *def, char *err, size_t errlen)
{
	if (def->usdt_provider)
		return resolve_usdt(f, def, err, errlen);
	if (def->has_address) {
		def->file_offset = def->address;
		if (es_offset_to_vaddr(f, def->address, &def->vaddr) < 0)
			return es_fail(err, errlen, "offset 0x%" PRIx64 " is outside %s's loaded segments",
				    def->address, def->path);
		const struct es_sym *s = es_sym_at(f, def->vaddr);
		def->func_vaddr = s ? s->value : def->vaddr;
		return s ? es_check_boundary(f, s, def->vaddr, err, errlen) : 0;
	}
	const struct es_sym *s = es_lookup(f, def->symbol, err, errlen);
	if (!s)
		return -1;
	if (!s->func)
		return es_fail(err, errlen, "'%s' in %s is data, not a function: a probe goes on code",
			    def->symbol, def->path);
	def->func_vaddr = s->value;
	def->vaddr = s->value + (uint64_t)def->offset;
	if (es_check_boundary(f, s, def->vaddr, err, errlen) < 0)
		return -1;
	if (es_vaddr_to_offset(f, def->vaddr, &def->file_offset) < 0)
		return es_fail(err, errlen, "%s+0x%" PRIx64 " is outside %s's loaded segments",
			    def->symbol, (uint64_t)def->offset, def->path);
	return 0;
}

int pd_resolve(struct probe_def *def, char *err, size_t errlen)
{
	if (def->resolved)
		return 0;
	if (def->target != PD_USER) {
		if (pd_needs_cresolve(def) && pd_btf_resolve(def, err, errlen) < 0)
			return -1;
		def->resolved = true;
		return 0;
	}
	struct es_file *f = es_open(def->path, err, errlen);
	if (!f)
		return -1;
	/* FILE:LINE has no symbol to look up: DWARF finds the place */
	int rc = def->src_file ? 0 : resolve_place(f, def, err, errlen);
	if (rc == 0 && pd_needs_cresolve(def))
		rc = pd_dwarf_resolve(def, f, err, errlen);
	for (size_t i = 0; rc == 0 && i < def->nargs; i++)
		rc = resolve_fetch(f, def, def->args[i].fetch, err, errlen);
	es_close(f);
	if (rc == 0)
		def->resolved = true;
	return rc;
}

/*
 * NUMA memory policy: mbind, set_mempolicy, get_mempolicy, migrate_pages,
 * move_pages, set_mempolicy_home_node.  Node masks print as arrays of words.
 */
#include <inttypes.h>
#include <string.h>

#include "print_pid.h"
#include "decoder.h"
#include "print_net.h"

#define MPOL_FLAGS_MASK_ (0x8000u | 0x4000u | 0x2000u)
#define WORD_BITS_ 64

/* Words of a node mask of maxnode bits, as the kernel reads them (maxnode - 1 bits). */
static uint64_t nodemask_words(uint64_t maxnode)
{
	return maxnode ? (maxnode + WORD_BITS_ - 2) / WORD_BITS_ : 0;
}

static size_t nodemask_len(uint64_t maxnode)
{
	uint64_t n = nodemask_words(maxnode);
	return n > 4096 ? 4096 * 8 : (size_t)n * 8;
}

static size_t mbind_mask_len(const struct sc_call *c) { return nodemask_len(c->args[4]); }
static size_t set_mempolicy_mask_len(const struct sc_call *c) { return nodemask_len(c->args[2]); }
static size_t migrate_mask_len(const struct sc_call *c) { return nodemask_len(c->args[1]); }

static bool p_node_word(struct sc_call *c, const void *elem, size_t size, void *data)
{
	(void)size;
	(void)data;
	uint64_t v;
	memcpy(&v, elem, sizeof(v));
	out(c, "%#016" PRIx64, v);
	return true;
}

static void p_nodemask(struct sc_call *c, uint64_t addr, uint64_t maxnode)
{
	uint64_t n = nodemask_words(maxnode);
	if (n < maxnode / WORD_BITS_ || (maxnode && !n)) {
		p_addr(c, addr);
		return;
	}
	pn_array(c, addr, n, sizeof(uint64_t), p_node_word, NULL);
}

/* MPOL_BIND|MPOL_F_STATIC_NODES: a mode and its flags. */
static void p_mpol_mode_abbrev(struct sc_call *c, uint64_t arg)
{
	uint64_t flags = arg & MPOL_FLAGS_MASK_;
	uint64_t mode = arg & ~(uint64_t)MPOL_FLAGS_MASK_;
	const char *name = xlat_str(&xlat_mpol_modes, mode);
	if (!flags) {
		p_xval(c, &xlat_mpol_modes, mode, "MPOL_???");
	} else if (!name) {
		p_flags(c, &xlat_mpol_mode_flags, arg, "MPOL_???");
	} else if (xlat_style == XLAT_STYLE_ABBREV) {
		out(c, "%s|", name);
		p_flags(c, &xlat_mpol_mode_flags, flags, NULL);
	} else {
		/* -X raw and verbose: one number, verbose naming mode and flags together */
		out(c, "%#" PRIx64, arg);
		if (xlat_style == XLAT_STYLE_VERBOSE) {
			struct strbuf names = STRBUF_INIT;
			xlat_style = XLAT_STYLE_ABBREV;
			sb_flags(&names, &xlat_mpol_mode_flags, flags, NULL);
			xlat_style = XLAT_STYLE_VERBOSE;
			out(c, " /* %s|%s */", name, sb_str(&names));
			sb_free(&names);
		}
	}
}

/* Only a known mode with flags is one number under -X raw and verbose. */
static void p_mpol_mode(struct sc_call *c, uint64_t arg)
{
	uint64_t mode = arg & ~(uint64_t)MPOL_FLAGS_MASK_;
	if ((arg & MPOL_FLAGS_MASK_) && xlat_str(&xlat_mpol_modes, mode))
		p_compound(c, arg, p_mpol_mode_abbrev);
	else
		p_mpol_mode_abbrev(c, arg);
}

SC_DECODER(mbind, MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY, mbind_mask_len))
{
	p_addr(c, c->args[0]);
	out(c, ", %" PRIu64 ", ", c->args[1]);
	p_mpol_mode(c, c->args[2]);
	p_sep(c);
	p_nodemask(c, c->args[3], c->args[4]);
	out(c, ", %" PRIu64 ", ", c->args[4]);
	p_flags(c, &xlat_mbind_flags, (unsigned)c->args[5], "MPOL_???");
	return SC_DONE;
}

SC_DECODER(set_mempolicy, MEM_FN(1, SC_MEM_BUF, SC_AT_ENTRY, set_mempolicy_mask_len))
{
	p_mpol_mode(c, (unsigned)c->args[0]);
	p_sep(c);
	p_nodemask(c, c->args[1], c->args[2]);
	out(c, ", %" PRIu64, c->args[2]);
	return SC_DONE;
}

SC_DECODER(get_mempolicy, MEM_BYTES_OUT(0, sizeof(int)),
	   MEM_FN(1, SC_MEM_BUF, SC_AT_EXIT, set_mempolicy_mask_len))
{
	if (c->entering)
		return 0;
	int pol;
	if (sc_failed(c) || !c->args[0]) {
		p_addr(c, c->args[0]);
	} else if (p_fetch(c, c->args[0], &pol, sizeof(pol)) == 0) {
		out(c, "[");
		p_xval(c, &xlat_mpol_modes, (unsigned)pol, "MPOL_???");
		out(c, "]");
	}
	p_sep(c);
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else
		p_nodemask(c, c->args[1], c->args[2]);
	out(c, ", %" PRIu64 ", ", c->args[2]);
	p_addr(c, c->args[3]);
	p_sep(c);
	p_flags(c, &xlat_get_mempolicy_flags, c->args[4], "MPOL_???");
	return 0;
}

SC_DECODER(set_mempolicy_home_node)
{
	p_addr(c, c->args[0]);
	out(c, ", %" PRIu64 ", %" PRIu64 ", %#" PRIx64, c->args[1], c->args[2], c->args[3]);
	return SC_DONE;
}

SC_DECODER(migrate_pages, MEM_FN(2, SC_MEM_BUF, SC_AT_ENTRY, migrate_mask_len),
	   MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY, migrate_mask_len))
{
	p_pid(c, (int)c->args[0], SC_PT_TGID);
	out(c, ", %" PRIu64 ", ", c->args[1]);
	p_nodemask(c, c->args[2], c->args[1]);
	p_sep(c);
	p_nodemask(c, c->args[3], c->args[1]);
	return SC_DONE;
}

/* ---- move_pages: arrays of count pages, nodes and statuses ----------------- */

static size_t count_longs(const struct sc_call *c)
{
	return c->args[1] > 8192 ? 8192 * 8 : (size_t)c->args[1] * 8;
}

static size_t count_ints(const struct sc_call *c)
{
	return c->args[1] > 8192 ? 8192 * 4 : (size_t)c->args[1] * 4;
}

static bool p_page(struct sc_call *c, const void *elem, size_t size, void *data)
{
	(void)size;
	(void)data;
	uint64_t v;
	memcpy(&v, elem, sizeof(v));
	p_addr(c, v);
	return true;
}

static bool p_node(struct sc_call *c, const void *elem, size_t size, void *data)
{
	(void)size;
	(void)data;
	int v;
	memcpy(&v, elem, sizeof(v));
	out(c, "%d", v);
	return true;
}

/* A page's status: its node, or -ENOENT. */
static bool p_page_status(struct sc_call *c, const void *elem, size_t size, void *data)
{
	(void)size;
	(void)data;
	int v;
	memcpy(&v, elem, sizeof(v));
	const char *name = v < 0 && v > -4096 ? sc_errname(-v) : NULL;
	if (name && xlat_style == XLAT_STYLE_ABBREV)
		out(c, "-%s", name);
	else if (name && xlat_style == XLAT_STYLE_VERBOSE)
		out(c, "%d /* -%s */", v, name);
	else
		out(c, "%d", v);
	return true;
}

SC_DECODER(move_pages, MEM_FN(2, SC_MEM_BUF, SC_AT_ENTRY, count_longs),
	   MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY, count_ints),
	   MEM_FN(4, SC_MEM_BUF, SC_AT_EXIT, count_ints))
{
	uint64_t n = c->args[1];
	if (c->entering) {
		p_pid(c, (int)c->args[0], SC_PT_TGID);
		out(c, ", %" PRIu64 ", ", n);
		pn_array(c, c->args[2], n, sizeof(uint64_t), p_page, NULL);
		p_sep(c);
		pn_array(c, c->args[3], n, sizeof(int), p_node, NULL);
		p_sep(c);
		return 0;
	}
	/* as strace does: no pages show as [] even when the call failed */
	if (sc_failed(c) && n)
		p_addr(c, c->args[4]);
	else
		pn_array(c, c->args[4], n, sizeof(int), p_page_status, NULL);
	p_sep(c);
	p_flags(c, &xlat_move_pages_flags, (unsigned)c->args[5], "MPOL_???");
	return 0;
}

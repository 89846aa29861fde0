/*
 * The kernel key retention service: add_key, request_key and keyctl's
 * commands, each with the arguments it takes.
 */
#include <inttypes.h>
#include <linux/keyctl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "decoder.h"

/* KEY_SPEC_SESSION_KEYRING, or the serial number in decimal. */
static void p_keyring(struct sc_call *c, uint64_t id)
{
	sb_xlat_d(c->out, &xlat_key_spec, (int32_t)id, NULL);
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

/* ---- keyctl ---------------------------------------------------------------- */

/* How each argument after the command prints. */
enum k_arg {
	K_END = 0,
	K_ID,		/* key serial: KEY_SPEC_* or decimal */
	K_INT,		/* %d */
	K_UINT,		/* %u */
	K_ULONG,	/* %lu */
	K_UID,		/* -1 or %u */
	K_STR,		/* a string */
	K_BUF,		/* a buffer, its length the next argument */
	K_OUTBUF,	/* at exit: a buffer of min(length, ret), its length the next argument */
	K_OUTSTR,	/* K_OUTBUF holding a string: up to its NUL */
	K_IOV,		/* an iovec array the kernel reads, its count the next argument */
	K_PERM,		/* KEY_POS_VIEW|... */
	K_REQKEY,	/* KEY_REQKEY_DEFL_* */
	K_ERRNO,	/* an errno by name */
	K_MOVE,		/* KEYCTL_MOVE_* flags */
	K_HEX,		/* 64-bit hex */
	K_ADDR,		/* an address */
	K_SPECIAL,	/* the command's own function */
};

struct k_cmd {
	unsigned cmd;
	unsigned char args[4];
};

static const struct k_cmd k_cmds[] = {
	{ KEYCTL_GET_KEYRING_ID, { K_ID, K_INT } },
	{ KEYCTL_JOIN_SESSION_KEYRING, { K_STR } },
	{ KEYCTL_UPDATE, { K_ID, K_BUF, K_ULONG } },
	{ KEYCTL_REVOKE, { K_ID } },
	{ KEYCTL_CHOWN, { K_ID, K_UID, K_UID } },
	{ KEYCTL_SETPERM, { K_ID, K_PERM } },
	{ KEYCTL_DESCRIBE, { K_ID, K_OUTSTR, K_ULONG } },
	{ KEYCTL_CLEAR, { K_ID } },
	{ KEYCTL_LINK, { K_ID, K_ID } },
	{ KEYCTL_UNLINK, { K_ID, K_ID } },
	{ KEYCTL_SEARCH, { K_ID, K_STR, K_STR, K_ID } },
	{ KEYCTL_READ, { K_ID, K_OUTBUF, K_ULONG } },
	{ KEYCTL_INSTANTIATE, { K_ID, K_BUF, K_ULONG, K_ID } },
	{ KEYCTL_NEGATE, { K_ID, K_UINT, K_ID } },
	{ KEYCTL_SET_REQKEY_KEYRING, { K_REQKEY } },
	{ KEYCTL_SET_TIMEOUT, { K_ID, K_UINT } },
	{ KEYCTL_ASSUME_AUTHORITY, { K_ID } },
	{ KEYCTL_GET_SECURITY, { K_ID, K_OUTSTR, K_ULONG } },
	{ KEYCTL_SESSION_TO_PARENT, { K_END } },
	{ KEYCTL_REJECT, { K_ID, K_UINT, K_ERRNO, K_ID } },
	{ KEYCTL_INSTANTIATE_IOV, { K_ID, K_IOV, K_ULONG, K_ID } },
	{ KEYCTL_INVALIDATE, { K_ID } },
	{ KEYCTL_GET_PERSISTENT, { K_UID, K_ID } },
	{ KEYCTL_DH_COMPUTE, { K_SPECIAL } },
	{ KEYCTL_PKEY_QUERY, { K_ID, K_HEX, K_STR, K_ADDR } },
	{ KEYCTL_PKEY_ENCRYPT, { K_SPECIAL } },
	{ KEYCTL_PKEY_DECRYPT, { K_SPECIAL } },
	{ KEYCTL_PKEY_SIGN, { K_SPECIAL } },
	{ KEYCTL_PKEY_VERIFY, { K_SPECIAL } },
	{ KEYCTL_RESTRICT_KEYRING, { K_ID, K_STR, K_STR } },
	{ KEYCTL_MOVE, { K_ID, K_ID, K_ID, K_MOVE } },
	{ KEYCTL_CAPABILITIES, { K_SPECIAL } },
};

static const struct k_cmd *k_cmd(unsigned cmd)
{
	for (size_t i = 0; i < sizeof(k_cmds) / sizeof(k_cmds[0]); i++)
		if (k_cmds[i].cmd == cmd)
			return &k_cmds[i];
	return NULL;
}

static bool k_is_pkey_op(unsigned cmd)
{
	return cmd == KEYCTL_PKEY_ENCRYPT || cmd == KEYCTL_PKEY_DECRYPT ||
	       cmd == KEYCTL_PKEY_SIGN || cmd == KEYCTL_PKEY_VERIFY;
}

/* What argument i (1..4) of the call points at, for the memory specs. */
static size_t k_len(const struct sc_call *c, unsigned i)
{
	unsigned cmd = (unsigned)c->args[0];
	size_t str = (c->fmt ? c->fmt->strsize : 32) + 1;
	const struct k_cmd *k = k_cmd(cmd);
	if (!k)
		return 0;
	if (cmd == KEYCTL_DH_COMPUTE)
		return i == 1 ? sizeof(struct keyctl_dh_params) :
		       i == 4 ? sizeof(struct keyctl_kdf_params) : i == 2 ? str : 0;
	if (k_is_pkey_op(cmd))
		return i == 1 ? sizeof(struct keyctl_pkey_params) : str;
	if (cmd == KEYCTL_CAPABILITIES)
		return i == 1 ? (size_t)(c->args[2] < 256 ? c->args[2] : 256) : 0;
	switch (k->args[i - 1]) {
	case K_STR:
	case K_BUF:
	case K_OUTBUF:
	case K_OUTSTR:
		return str;
	}
	return 0;
}

static size_t k_len1(const struct sc_call *c) { return k_len(c, 1); }
static size_t k_len2(const struct sc_call *c) { return k_len(c, 2); }
static size_t k_len3(const struct sc_call *c) { return k_len(c, 3); }
static size_t k_len4(const struct sc_call *c) { return k_len(c, 4); }

static size_t k_iov_count(const struct sc_call *c)
{
	return (unsigned)c->args[0] == KEYCTL_INSTANTIATE_IOV ? (size_t)c->args[3] : 0;
}

static void p_uid(struct sc_call *c, uint64_t v)
{
	out(c, (uint32_t)v == UINT32_MAX ? "-1" : "%u", (uint32_t)v);
}

/* __spare=[...] when any word is set */
static void p_spare(struct sc_call *c, const uint32_t *v, size_t n)
{
	size_t i;
	for (i = 0; i < n && !v[i]; i++)
		;
	if (i == n)
		return;
	out(c, ", __spare=[");
	for (i = 0; i < n; i++)
		out(c, v[i] ? "%s%#x" : "%s%u", i ? ", " : "", v[i]);
	out(c, "]");
}

static void p_dh_compute(struct sc_call *c)
{
	struct keyctl_dh_params d;
	struct keyctl_kdf_params k;
	if (p_fetch(c, c->args[1], &d, sizeof(d)) == 0) {
		out(c, "{private=");
		p_keyring(c, (uint64_t)(int64_t)d.private);
		out(c, ", prime=");
		p_keyring(c, (uint64_t)(int64_t)d.prime);
		out(c, ", base=");
		p_keyring(c, (uint64_t)(int64_t)d.base);
		out(c, "}");
	}
	p_sep(c);
	if (sc_failed(c))
		p_addr(c, c->args[2]);
	else
		p_buf(c, c->args[2], c->ret < (int64_t)c->args[3] ? c->ret : (int64_t)c->args[3]);
	out(c, ", %" PRIu64 ", ", c->args[3]);
	if (p_fetch(c, c->args[4], &k, sizeof(k)) < 0)
		return;
	out(c, "{hashname=");
	p_str(c, (uint64_t)(uintptr_t)k.hashname);
	out(c, ", otherinfo=");
	if (k.otherinfolen)
		p_buf(c, (uint64_t)(uintptr_t)k.otherinfo, k.otherinfolen);
	else
		p_addr(c, (uint64_t)(uintptr_t)k.otherinfo);
	out(c, ", otherinfolen=%u", k.otherinfolen);
	p_spare(c, k.__spare, sizeof(k.__spare) / sizeof(k.__spare[0]));
	out(c, "}");
}

static void p_pkey_op(struct sc_call *c, unsigned cmd)
{
	struct keyctl_pkey_params p;
	bool verify = cmd == KEYCTL_PKEY_VERIFY;
	bool held = p_fetch(c, c->args[1], &p, sizeof(p)) == 0;
	if (held) {
		out(c, "{key_id=");
		p_keyring(c, (uint64_t)(int64_t)p.key_id);
		out(c, ", in_len=%u, %s=%u", p.in_len, verify ? "in2_len" : "out_len", p.out_len);
		p_spare(c, p.__spare, sizeof(p.__spare) / sizeof(p.__spare[0]));
		out(c, "}");
	}
	p_sep(c);
	p_str(c, c->args[2]);
	p_sep(c);
	if (held)
		p_buf(c, c->args[3], p.in_len);
	else
		p_addr(c, c->args[3]);
	p_sep(c);
	if (held && verify)
		p_buf(c, c->args[4], p.in2_len);
	else
		p_addr(c, c->args[4]);
}

static void p_capabilities(struct sc_call *c)
{
	const unsigned char *b;
	uint64_t n = (uint64_t)c->ret < c->args[2] ? (uint64_t)c->ret : c->args[2];
	if (sc_failed(c) || !c->args[1] || sc_mem_peek(c, c->args[1], n, &b) < (long)n) {
		p_addr(c, c->args[1]);
	} else {
		out(c, "[");
		for (uint64_t i = 0; i < n; i++) {
			if (i)
				out(c, ", ");
			if (i == 0)
				p_flags(c, &xlat_keyctl_caps0, b[i], "KEYCTL_CAPS0_???");
			else if (i == 1)
				p_flags(c, &xlat_keyctl_caps1, b[i], "KEYCTL_CAPS1_???");
			else
				out(c, "%#x", b[i]);
		}
		out(c, "]");
	}
	out(c, ", %" PRIu64, c->args[2]);
}

/* n bytes the kernel wrote at addr; a string ends at its NUL. */
static void p_outbuf(struct sc_call *c, uint64_t addr, uint64_t n, bool str)
{
	const unsigned char *p;
	long held = addr && str ? sc_mem_peek(c, addr, n, &p) : -1;
	const unsigned char *nul = held > 0 ? memchr(p, 0, (size_t)held) : NULL;
	if (nul)
		n = (uint64_t)(nul - p);
	p_buf(c, addr, n > INT64_MAX ? INT64_MAX : (int64_t)n);
}

/* Argument i (1..4) as kind says; the buffers take their length from argument i + 1. */
static void k_arg(struct sc_call *c, unsigned kind, unsigned i)
{
	uint64_t v = c->args[i];
	const char *e;
	switch (kind) {
	case K_ID: p_keyring(c, v); break;
	case K_INT: out(c, "%d", (int)v); break;
	case K_UINT: out(c, "%u", (unsigned)v); break;
	case K_ULONG: out(c, "%" PRIu64, v); break;
	case K_UID: p_uid(c, v); break;
	case K_STR: p_str(c, v); break;
	case K_BUF: p_buf(c, v, (int64_t)c->args[i + 1]); break;
	case K_OUTBUF:
	case K_OUTSTR:
		if (sc_failed(c))
			p_addr(c, v);
		else
			p_outbuf(c, v, (uint64_t)c->ret < c->args[i + 1] ? (uint64_t)c->ret
									 : c->args[i + 1],
				 kind == K_OUTSTR);
		break;
	case K_IOV: p_iov(c, v, c->args[i + 1], -1); break;
	case K_PERM: p_flags(c, &xlat_key_perms, (unsigned)v, "KEY_???"); break;
	case K_REQKEY: sb_xlat_d(c->out, &xlat_keyctl_reqkey_defl, (int)v, "KEY_REQKEY_DEFL_???"); break;
	case K_ERRNO:
		e = sc_errname((int)(unsigned)v);
		if (e && xlat_style == XLAT_STYLE_ABBREV)
			out(c, "%s", e);
		else if (e && xlat_style == XLAT_STYLE_VERBOSE)
			out(c, "%u /* %s */", (unsigned)v, e);
		else
			out(c, "%u", (unsigned)v);
		break;
	case K_MOVE: p_flags(c, &xlat_keyctl_move_flags, (unsigned)v, "KEYCTL_MOVE_???"); break;
	case K_HEX: p_hex(c, v); break;
	case K_ADDR: p_addr(c, v); break;
	}
}

static bool k_at_exit(const struct k_cmd *k)
{
	for (int i = 0; i < 4; i++)
		if (k->args[i] == K_OUTBUF || k->args[i] == K_OUTSTR)
			return true;
	return k->cmd == KEYCTL_DH_COMPUTE || k->cmd == KEYCTL_CAPABILITIES;
}

SC_DECODER(keyctl, MEM_FN(1, SC_MEM_BUF, SC_AT_ENTRY | SC_AT_EXIT, k_len1),
	   MEM_FN(2, SC_MEM_BUF, SC_AT_ENTRY | SC_AT_EXIT, k_len2),
	   MEM_FN(2, SC_MEM_IOVEC, SC_AT_ENTRY, k_iov_count),
	   MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY, k_len3),
	   MEM_FN(4, SC_MEM_BUF, SC_AT_ENTRY, k_len4),
	   MEM_DEREF_IN(4, offsetof(struct keyctl_kdf_params, hashname), 256),
	   MEM_DEREF_IN(4, offsetof(struct keyctl_kdf_params, otherinfo), 256))
{
	unsigned cmd = (unsigned)c->args[0];
	const struct k_cmd *k = k_cmd(cmd);
	if (c->entering) {
		p_xval(c, &xlat_keyctl_cmds, cmd, "KEYCTL_???");
		if (!k) {
			for (int i = 1; i <= 4; i++)
				out(c, ", %#" PRIx64, c->args[i]);
			return SC_DONE;
		}
		if (k_at_exit(k))
			return 0;	/* everything at exit, as the output buffer needs it */
	}
	if (k->args[0] == K_SPECIAL) {
		p_sep(c);
		if (cmd == KEYCTL_DH_COMPUTE)
			p_dh_compute(c);
		else if (cmd == KEYCTL_CAPABILITIES)
			p_capabilities(c);
		else
			p_pkey_op(c, cmd);
		return c->entering ? SC_DONE : 0;
	}
	for (unsigned i = 0; i < 4 && k->args[i] != K_END; i++) {
		p_sep(c);
		k_arg(c, k->args[i], i + 1);
	}
	return c->entering ? SC_DONE : 0;
}

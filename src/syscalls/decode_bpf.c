/*
 * bpf: the command by name, then its union bpf_attr.  Only the fields that
 * fit in the size the caller passed print, as strace does, and nonzero bytes
 * past the fields known print as "..." (-v: in hex).  BPF_PROG_LOAD has its
 * own printer; the commands whose attr prints only at entry come from a
 * table (bpf_cmd_descs); the rest print their attr's address (see
 * docs/syscalls.md).
 */
#include <inttypes.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "decoder.h"
#include "print_ebpf.h"
#include "print_net.h"
#include "print_pid.h"
#include "print_time.h"
#include "xlat.h"

#define BPF_ATTR_CAP 4096u	/* bytes of the attr copied at most */

/* Field f of attr a is inside the size the caller gave. */
#define HAS(a, size, f) (offsetof(union bpf_attr, f) + sizeof((a)->f) <= (size))

static void p_u64ptr(struct sc_call *c, const char *name, uint64_t v)
{
	out(c, ", %s=", name);
	p_addr(c, v);
}

/* KERNEL_VERSION(5, 10, 0) */
static void sb_kver(struct strbuf *sb, uint64_t v, const void *unused)
{
	(void)unused;
	sb_printf(sb, "KERNEL_VERSION(%u, %u, %u)", (unsigned)(v >> 16) & 0xffff,
		  (unsigned)(v >> 8) & 0xff, (unsigned)v & 0xff);
}

/*
 * A char array field of n bytes (n cut to what the caller passed): up to its
 * NUL; without one, n - 1 bytes and "...", as strace shows a cut C string.
 */
static void p_cstr_field(struct sc_call *c, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	if (len < n)
		p_quoted(c, (const unsigned char *)s, len, false);
	else
		p_quoted(c, (const unsigned char *)s, n ? n - 1 : 0, true);
}

static void p_prog_load(struct sc_call *c, const union bpf_attr *a, uint64_t size)
{
	out(c, "{prog_type=");
	p_xval(c, &xlat_bpf_prog_types, a->prog_type, "BPF_PROG_TYPE_???");
	out(c, ", insn_cnt=%u", a->insn_cnt);
	out(c, ", insns=");
	pn_ebpf_insns(c, a->insns, a->insn_cnt);
	out(c, ", license=");
	p_str(c, a->license);
	if (!HAS(a, size, log_buf))
		goto done;
	out(c, ", log_level=%u, log_size=%u", a->log_level, a->log_size);
	out(c, ", log_buf=");
	p_str_max(c, a->log_buf, a->log_size);
	if (!HAS(a, size, kern_version))
		goto done;
	out(c, ", kern_version=");
	sb_xparts(c->out, a->kern_version, sb_kver, NULL);
	if (!HAS(a, size, prog_flags))
		goto done;
	out(c, ", prog_flags=");
	p_flags(c, &xlat_bpf_prog_flags, a->prog_flags, "BPF_F_???");
	if (!HAS(a, size, prog_name))
		goto done;
	out(c, ", prog_name=");
	size_t name_len = size - offsetof(union bpf_attr, prog_name);
	p_cstr_field(c, a->prog_name, name_len < sizeof(a->prog_name) ? name_len : sizeof(a->prog_name));
	if (!HAS(a, size, prog_ifindex))
		goto done;
	out(c, ", prog_ifindex=");
	pn_ifindex(c, a->prog_ifindex);
	if (!HAS(a, size, expected_attach_type))
		goto done;
	out(c, ", expected_attach_type=");
	p_xval(c, &xlat_bpf_attach_types, a->expected_attach_type, "BPF_???");
	if (!HAS(a, size, line_info_cnt))
		goto done;
	out(c, ", prog_btf_fd=");
	p_fd(c, a->prog_btf_fd);
	out(c, ", func_info_rec_size=%u", a->func_info_rec_size);
	p_u64ptr(c, "func_info", a->func_info);
	out(c, ", func_info_cnt=%u, line_info_rec_size=%u", a->func_info_cnt, a->line_info_rec_size);
	p_u64ptr(c, "line_info", a->line_info);
	out(c, ", line_info_cnt=%u", a->line_info_cnt);
	if (!HAS(a, size, attach_btf_id))
		goto done;
	out(c, ", attach_btf_id=%u", a->attach_btf_id);
	if (!HAS(a, size, attach_prog_fd))
		goto done;
	out(c, ", attach_prog_fd=");
	p_fd(c, a->attach_prog_fd);
	if (!HAS(a, size, fd_array))
		goto done;
	p_u64ptr(c, "fd_array", a->fd_array);
done:
	return;
}

/* ---- the other commands: one table row per attr field ------------------ */

enum bpf_fkind {
	BF_U32, BF_U64, BF_X32, BF_X64, BF_FD, BF_ADDR, BF_XVAL, BF_FLAGS,
	BF_IFINDEX, BF_NAME, BF_PATH, BF_STR, BF_BTF, BF_NUMA, BF_OLD_PROG,
	BF_TGID, BF_TASK_BUF, BF_PROG_IDS, BF_PROG_CNT, BF_DEV, BF_OBJ_INFO,
	/* struct bpf_prog_info: values the kernel rewrites print "entry => exit" */
	BF_CHG32, BF_CHGADDR, BF_TAG, BF_XLATED, BF_MAP_IDS, BF_BOOTTIME, BF_ID, BF_BIT0,
};

struct bpf_field {
	const char *name;
	unsigned short off, size;
	unsigned char kind;
	bool since;		/* a later kernel's field: printed only when size reaches it */
	const struct xlat *x;
	const char *dflt;
};

/*
 * A command's attr: fields f print at entry; for the commands the kernel
 * writes back into, fields fx print at exit after " => N" when the entry's
 * field changed (changed: its offset + 1, 0 for none).  A batch command
 * prints all at entry and only " => {batch={count=N}}" at exit.
 */
struct bpf_cmd_desc {
	const char *wrap;	/* the attr's fields sit in "wrap={...}" */
	unsigned short attr_size;	/* the part decoded; bytes past it must be zero */
	const struct bpf_field *f;
	size_t n;
	const struct bpf_field *fx;
	size_t nx;
	unsigned short changed;
	bool batch;
};

#define F_(m, k, s, x_, d)	{ #m, offsetof(union bpf_attr, m), sizeof(((union bpf_attr *)0)->m), (k), (s), (x_), (d) }
#define F(m, k)		F_(m, k, false, NULL, NULL)
#define FS(m, k)	F_(m, k, true, NULL, NULL)
#define FX(m, k, x, d)	F_(m, k, false, &(x), d)
#define FXS(m, k, x, d)	F_(m, k, true, &(x), d)
/* A member of a named sub-struct (test.retval) prints under its own name. */
#define FN_(n_, m, k, s, x_, d)	{ n_, offsetof(union bpf_attr, m), sizeof(((union bpf_attr *)0)->m), (k), (s), (x_), (d) }

static const struct bpf_field f_map_create[] = {
	FX(map_type, BF_XVAL, xlat_bpf_map_types, "BPF_MAP_TYPE_???"),
	F(key_size, BF_U32), F(value_size, BF_U32), F(max_entries, BF_U32),
	FXS(map_flags, BF_FLAGS, xlat_bpf_map_flags, "BPF_F_???"),
	FS(inner_map_fd, BF_FD),
	FXS(numa_node, BF_NUMA, xlat_bpf_numa_node, NULL),
	FS(map_name, BF_NAME),
	FS(map_ifindex, BF_IFINDEX),
	FS(btf_fd, BF_FD), F(btf_key_type_id, BF_U32), F(btf_value_type_id, BF_U32),
	FS(btf_vmlinux_value_type_id, BF_U32),
	FS(map_extra, BF_U64),
};

static const struct bpf_field f_map_lookup[] = {
	F(map_fd, BF_FD), F(key, BF_ADDR), F(value, BF_ADDR),
	FXS(flags, BF_FLAGS, xlat_bpf_map_lookup_flags, "BPF_???"),
};

static const struct bpf_field f_map_update[] = {
	F(map_fd, BF_FD), F(key, BF_ADDR), F(value, BF_ADDR),
	FX(flags, BF_XVAL, xlat_bpf_map_update_flags, "BPF_???"),
};

static const struct bpf_field f_map_delete[] = { F(map_fd, BF_FD), F(key, BF_ADDR) };

static const struct bpf_field f_map_next_key[] = {
	F(map_fd, BF_FD), F(key, BF_ADDR), F(next_key, BF_ADDR),
};

static const struct bpf_field f_map_freeze[] = { F(map_fd, BF_FD) };

static const struct bpf_field f_obj_pin[] = {
	F(pathname, BF_PATH), F(bpf_fd, BF_FD),
	FXS(file_flags, BF_FLAGS, xlat_bpf_file_mode_flags, "BPF_F_???"),
};

static const struct bpf_field f_prog_attach[] = {
	F(target_fd, BF_FD), F(attach_bpf_fd, BF_FD),
	FX(attach_type, BF_XVAL, xlat_bpf_attach_types, "BPF_???"),
	FX(attach_flags, BF_FLAGS, xlat_bpf_attach_flags, "BPF_F_???"),
	FS(replace_bpf_fd, BF_FD),
};

static const struct bpf_field f_prog_detach[] = {
	F(target_fd, BF_FD),
	FX(attach_type, BF_XVAL, xlat_bpf_attach_types, "BPF_???"),
};

static const struct bpf_field f_prog_test_run[] = {
	FN_("prog_fd", test.prog_fd, BF_FD, false, NULL, NULL),
	FN_("retval", test.retval, BF_U32, false, NULL, NULL),
	FN_("data_size_in", test.data_size_in, BF_U32, false, NULL, NULL),
	FN_("data_size_out", test.data_size_out, BF_U32, false, NULL, NULL),
	FN_("data_in", test.data_in, BF_ADDR, false, NULL, NULL),
	FN_("data_out", test.data_out, BF_ADDR, false, NULL, NULL),
	FN_("repeat", test.repeat, BF_U32, false, NULL, NULL),
	FN_("duration", test.duration, BF_U32, false, NULL, NULL),
	FN_("ctx_size_in", test.ctx_size_in, BF_U32, true, NULL, NULL),
	FN_("ctx_size_out", test.ctx_size_out, BF_U32, false, NULL, NULL),
	FN_("ctx_in", test.ctx_in, BF_ADDR, false, NULL, NULL),
	FN_("ctx_out", test.ctx_out, BF_ADDR, false, NULL, NULL),
	FN_("flags", test.flags, BF_FLAGS, true, &xlat_bpf_test_run_flags, "BPF_F_???"),
	FN_("cpu", test.cpu, BF_U32, false, NULL, NULL),
	FN_("batch_size", test.batch_size, BF_U32, true, NULL, NULL),
};

#define F_GET_FD_BY_ID(idname)							\
	{ FN_(idname, start_id, BF_U32, false, NULL, NULL), F(next_id, BF_U32),	\
	  FXS(open_flags, BF_FLAGS, xlat_bpf_file_mode_flags, "BPF_F_???") }
static const struct bpf_field f_prog_get_fd[] = F_GET_FD_BY_ID("prog_id");
static const struct bpf_field f_map_get_fd[] = F_GET_FD_BY_ID("map_id");
static const struct bpf_field f_btf_get_fd[] = { FN_("btf_id", start_id, BF_U32, false, NULL, NULL) };
static const struct bpf_field f_link_get_fd[] = { FN_("link_id", start_id, BF_U32, false, NULL, NULL) };

static const struct bpf_field f_raw_tp_open[] = {
	FN_("name", raw_tracepoint.name, BF_STR, false, NULL, NULL),
	FN_("prog_fd", raw_tracepoint.prog_fd, BF_FD, false, NULL, NULL),
};

static const struct bpf_field f_btf_load[] = {
	F(btf, BF_BTF), F(btf_log_buf, BF_ADDR), F(btf_size, BF_U32),
	F(btf_log_size, BF_U32), F(btf_log_level, BF_U32),
};

static const struct bpf_field f_link_update[] = {
	FN_("link_fd", link_update.link_fd, BF_FD, false, NULL, NULL),
	FN_("new_prog_fd", link_update.new_prog_fd, BF_FD, false, NULL, NULL),
	FN_("flags", link_update.flags, BF_FLAGS, false, &xlat_bpf_attach_flags, "BPF_F_???"),
	FN_("old_prog_fd", link_update.old_prog_fd, BF_OLD_PROG, false, NULL, NULL),
};

#define NEXT_ID_FIELDS	{ F(start_id, BF_U32), F(next_id, BF_U32) }
static const struct bpf_field f_next_id[] = NEXT_ID_FIELDS;
static const struct bpf_field fx_next_id[] = {
	FXS(open_flags, BF_FLAGS, xlat_bpf_file_mode_flags, "BPF_F_???"),
};

static const struct bpf_field f_info_by_fd[] = {
	FN_("bpf_fd", info.bpf_fd, BF_FD, false, NULL, NULL),
	FN_("info_len", info.info_len, BF_U32, false, NULL, NULL),
};
static const struct bpf_field fx_info_by_fd[] = {
	FN_("info", info.info, BF_OBJ_INFO, false, NULL, NULL),
};

static const struct bpf_field f_prog_query[] = {
	FN_("target_fd", query.target_fd, BF_FD, false, NULL, NULL),
	FN_("attach_type", query.attach_type, BF_XVAL, false, &xlat_bpf_attach_types, "BPF_???"),
	FN_("query_flags", query.query_flags, BF_FLAGS, false, &xlat_bpf_query_flags, "BPF_F_QUERY_???"),
	FN_("attach_flags", query.attach_flags, BF_FLAGS, false, &xlat_bpf_attach_flags, "BPF_F_???"),
};
static const struct bpf_field fx_prog_query[] = {
	FN_("prog_ids", query.prog_ids, BF_PROG_IDS, false, NULL, NULL),
	FN_("prog_cnt", query.prog_cnt, BF_PROG_CNT, false, NULL, NULL),
};

static const struct bpf_field f_task_fd_query[] = {
	FN_("pid", task_fd_query.pid, BF_TGID, false, NULL, NULL),
	FN_("fd", task_fd_query.fd, BF_FD, false, NULL, NULL),
	FN_("flags", task_fd_query.flags, BF_U32, false, NULL, NULL),
	FN_("buf_len", task_fd_query.buf_len, BF_U32, false, NULL, NULL),
};
static const struct bpf_field fx_task_fd_query[] = {
	FN_("buf", task_fd_query.buf, BF_TASK_BUF, false, NULL, NULL),
	FN_("prog_id", task_fd_query.prog_id, BF_U32, false, NULL, NULL),
	FN_("fd_type", task_fd_query.fd_type, BF_XVAL, false, &xlat_bpf_task_fd_types, "BPF_FD_TYPE_???"),
	FN_("probe_offset", task_fd_query.probe_offset, BF_X64, false, NULL, NULL),
	FN_("probe_addr", task_fd_query.probe_addr, BF_X64, false, NULL, NULL),
};

#define BATCH_F(m, k)	FN_(#m, batch.m, k, false, NULL, NULL)
#define BATCH_TAIL	BATCH_F(count, BF_U32), BATCH_F(map_fd, BF_FD),			\
	FN_("elem_flags", batch.elem_flags, BF_FLAGS, false, &xlat_bpf_batch_elem_flags, "BPF_???"), \
	BATCH_F(flags, BF_X64)
static const struct bpf_field f_lookup_batch[] = {
	BATCH_F(in_batch, BF_ADDR), BATCH_F(out_batch, BF_ADDR),
	BATCH_F(keys, BF_ADDR), BATCH_F(values, BF_ADDR), BATCH_TAIL,
};
static const struct bpf_field f_update_batch[] = {
	BATCH_F(keys, BF_ADDR), BATCH_F(values, BF_ADDR), BATCH_TAIL,
};
static const struct bpf_field f_delete_batch[] = { BATCH_F(keys, BF_ADDR), BATCH_TAIL };

#define CMD(w, sz, t)	{ (w), (sz), (t), sizeof(t) / sizeof((t)[0]), NULL, 0, 0, false }
#define CMDX(w, sz, t, tx, ch)	{ (w), (sz), (t), sizeof(t) / sizeof((t)[0]),	\
				  (tx), sizeof(tx) / sizeof((tx)[0]), (ch) + 1, false }
#define CMDB(sz, t)	{ "batch", (sz), (t), sizeof(t) / sizeof((t)[0]), NULL, 0, 0, true }
static const struct bpf_cmd_desc bpf_cmd_descs[] = {
	[BPF_MAP_CREATE] = CMD(NULL, 72, f_map_create),
	[BPF_MAP_LOOKUP_ELEM] = CMD(NULL, 32, f_map_lookup),
	[BPF_MAP_LOOKUP_AND_DELETE_ELEM] = CMD(NULL, 32, f_map_lookup),
	[BPF_MAP_UPDATE_ELEM] = CMD(NULL, 32, f_map_update),
	[BPF_MAP_DELETE_ELEM] = CMD(NULL, 16, f_map_delete),
	[BPF_MAP_GET_NEXT_KEY] = CMD(NULL, 24, f_map_next_key),
	[BPF_MAP_FREEZE] = CMD(NULL, 4, f_map_freeze),
	[BPF_OBJ_PIN] = CMD(NULL, 16, f_obj_pin),
	[BPF_OBJ_GET] = CMD(NULL, 16, f_obj_pin),
	[BPF_PROG_ATTACH] = CMD(NULL, 20, f_prog_attach),
	[BPF_PROG_DETACH] = CMD(NULL, 12, f_prog_detach),
	[BPF_PROG_TEST_RUN] = CMD("test", 76, f_prog_test_run),
	[BPF_PROG_GET_FD_BY_ID] = CMD(NULL, 12, f_prog_get_fd),
	[BPF_MAP_GET_FD_BY_ID] = CMD(NULL, 12, f_map_get_fd),
	[BPF_BTF_GET_FD_BY_ID] = CMD(NULL, 4, f_btf_get_fd),
	[BPF_LINK_GET_FD_BY_ID] = CMD(NULL, 4, f_link_get_fd),
	[BPF_RAW_TRACEPOINT_OPEN] = CMD("raw_tracepoint", 12, f_raw_tp_open),
	[BPF_BTF_LOAD] = CMD(NULL, 28, f_btf_load),
	[BPF_LINK_UPDATE] = CMD("link_update", 16, f_link_update),
	[BPF_PROG_GET_NEXT_ID] = CMDX(NULL, 12, f_next_id, fx_next_id, offsetof(union bpf_attr, next_id)),
	[BPF_MAP_GET_NEXT_ID] = CMDX(NULL, 12, f_next_id, fx_next_id, offsetof(union bpf_attr, next_id)),
	[BPF_BTF_GET_NEXT_ID] = CMDX(NULL, 12, f_next_id, fx_next_id, offsetof(union bpf_attr, next_id)),
	[BPF_LINK_GET_NEXT_ID] = CMDX(NULL, 12, f_next_id, fx_next_id, offsetof(union bpf_attr, next_id)),
	[BPF_OBJ_GET_INFO_BY_FD] = CMDX("info", 16, f_info_by_fd, fx_info_by_fd,
					offsetof(union bpf_attr, info.info_len)),
	[BPF_PROG_QUERY] = CMDX("query", 28, f_prog_query, fx_prog_query, -1),
	[BPF_TASK_FD_QUERY] = CMDX("task_fd_query", 48, f_task_fd_query, fx_task_fd_query,
				   offsetof(union bpf_attr, task_fd_query.buf_len)),
	[BPF_MAP_LOOKUP_BATCH] = CMDB(56, f_lookup_batch),
	[BPF_MAP_LOOKUP_AND_DELETE_BATCH] = CMDB(56, f_lookup_batch),
	[BPF_MAP_UPDATE_BATCH] = CMDB(56, f_update_batch),
	[BPF_MAP_DELETE_BATCH] = CMDB(56, f_delete_batch),
};

static uint64_t field_val(const unsigned char *raw, const struct bpf_field *f)
{
	uint32_t v32;
	uint64_t v64;
	if (f->size == 8) {
		memcpy(&v64, raw + f->off, 8);
		return v64;
	}
	memcpy(&v32, raw + f->off, 4);
	return v32;
}

static size_t bpf_strsize(const struct sc_call *c)
{
	return c->fmt ? c->fmt->strsize : 32;
}

/*
 * An array of cnt elements of esize bytes at addr, each printed by elem:
 * "[]", "[a, b, ...]" past -s elements (not with -v), "... /\* addr *\/"
 * where it stops being readable, or the address when nothing is.
 */
static void p_array(struct sc_call *c, uint64_t addr, uint64_t cnt, size_t esize,
		    void (*elem)(struct sc_call *c, const unsigned char *p))
{
	size_t max = c->fmt && !c->fmt->verbose ? bpf_strsize(c) : (size_t)-1;
	unsigned char v[8];
	if (addr && !cnt) {
		out(c, "[]");
		return;
	}
	if (!addr || sc_mem_read(c, addr, v, esize) < 0) {
		p_addr(c, addr);
		return;
	}
	out(c, "[");
	for (uint64_t i = 0; i < cnt; i++) {
		if (i)
			out(c, ", ");
		if (i >= max) {
			out(c, "...");
			break;
		}
		if (sc_mem_read(c, addr + esize * i, v, esize) < 0) {
			out(c, "... /* ");
			p_addr(c, addr + esize * i);
			out(c, " */");
			break;
		}
		elem(c, v);
	}
	out(c, "]");
}

static void el_u32(struct sc_call *c, const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, 4);
	out(c, "%u", v);
}

static void el_x64(struct sc_call *c, const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	out(c, "%#" PRIx64, v);
}

static void el_str(struct sc_call *c, const unsigned char *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	p_str(c, v);
}

static void el_iter_map(struct sc_call *c, const unsigned char *p)
{
	int32_t fd;
	memcpy(&fd, p, 4);
	out(c, "{map={map_fd=");
	p_fd(c, (uint64_t)(int64_t)fd);
	out(c, "}}");
}

/* prog_ids: the ids the kernel wrote, prog_cnt of them; the address on error. */
static void p_prog_ids(struct sc_call *c, uint64_t addr, uint32_t cnt)
{
	if (sc_failed(c) && addr && cnt)
		p_addr(c, addr);
	else
		p_array(c, addr, cnt, 4, el_u32);
}

/* ---- BPF_OBJ_GET_INFO_BY_FD's info, by the kind of object (-v) ---------- */

enum bpf_obj_kind { BPF_OBJ_UNKNOWN, BPF_OBJ_MAP, BPF_OBJ_PROG };

/* What the attr's saved copy carries past the attr: the kind of bpf_fd, its info at entry. */
struct bpf_saved {
	_Alignas(8) unsigned char raw[BPF_ATTR_CAP];
	_Alignas(8) unsigned char info[sizeof(struct bpf_prog_info)];
	unsigned char obj_kind;
};

#define FM_(m, k, s, x_, d)	{ #m, offsetof(struct bpf_map_info, m),			\
				  sizeof(((struct bpf_map_info *)0)->m), (k), (s), (x_), (d) }
static const struct bpf_field f_map_info[] = {
	FM_(type, BF_XVAL, false, &xlat_bpf_map_types, "BPF_MAP_TYPE_???"),
	FM_(id, BF_U32, false, NULL, NULL), FM_(key_size, BF_U32, false, NULL, NULL),
	FM_(value_size, BF_U32, false, NULL, NULL), FM_(max_entries, BF_U32, false, NULL, NULL),
	FM_(map_flags, BF_FLAGS, false, &xlat_bpf_map_flags, "BPF_F_???"),
	FM_(name, BF_NAME, true, NULL, NULL),
	FM_(ifindex, BF_IFINDEX, true, NULL, NULL),
	FM_(btf_vmlinux_value_type_id, BF_U32, false, NULL, NULL),
	FM_(netns_dev, BF_DEV, false, NULL, NULL), FM_(netns_ino, BF_U64, false, NULL, NULL),
	FM_(btf_id, BF_U32, true, NULL, NULL), FM_(btf_key_type_id, BF_U32, false, NULL, NULL),
	FM_(btf_value_type_id, BF_U32, false, NULL, NULL),
};
#define MAP_INFO_KNOWN	(offsetof(struct bpf_map_info, btf_value_type_id) + 8)	/* with the pad */

#define FP_(m, k, s)	{ #m, offsetof(struct bpf_prog_info, m),			\
			  sizeof(((struct bpf_prog_info *)0)->m), (k), (s), NULL, NULL }
/* gpl_compatible is a bit field: the u32 after ifindex. */
#define GPL_OFF		(offsetof(struct bpf_prog_info, ifindex) + 4)
static const struct bpf_field f_prog_info[] = {
	{ "type", offsetof(struct bpf_prog_info, type), 4, BF_XVAL, false,
	  &xlat_bpf_prog_types, "BPF_PROG_TYPE_???" },
	FP_(id, BF_U32, false), FP_(tag, BF_TAG, false),
	FP_(jited_prog_len, BF_CHG32, false), FP_(jited_prog_insns, BF_ADDR, false),
	FP_(xlated_prog_len, BF_CHG32, false), FP_(xlated_prog_insns, BF_XLATED, false),
	FP_(load_time, BF_BOOTTIME, true), FP_(created_by_uid, BF_ID, false),
	FP_(nr_map_ids, BF_CHG32, false), FP_(map_ids, BF_MAP_IDS, false),
	FP_(name, BF_NAME, false),
	FP_(ifindex, BF_IFINDEX, true), { "gpl_compatible", GPL_OFF, 4, BF_BIT0, false, NULL, NULL },
	FP_(netns_dev, BF_DEV, false), FP_(netns_ino, BF_U64, false),
	FP_(nr_jited_ksyms, BF_CHG32, true), FP_(nr_jited_func_lens, BF_CHG32, false),
	FP_(jited_ksyms, BF_CHGADDR, false), FP_(jited_func_lens, BF_CHGADDR, false),
	FP_(btf_id, BF_U32, true), FP_(func_info_rec_size, BF_CHG32, false),
	FP_(func_info, BF_ADDR, false), FP_(nr_func_info, BF_CHG32, false),
	FP_(nr_line_info, BF_CHG32, false), FP_(line_info, BF_ADDR, false),
	FP_(jited_line_info, BF_CHGADDR, false), FP_(nr_jited_line_info, BF_CHG32, false),
	FP_(line_info_rec_size, BF_CHG32, false), FP_(jited_line_info_rec_size, BF_CHG32, false),
	FP_(nr_prog_tags, BF_CHG32, false), FP_(prog_tags, BF_ADDR, false),
	FP_(run_time_ns, BF_U64, true), FP_(run_cnt, BF_U64, false),
	FP_(recursion_misses, BF_U64, true),
	FP_(verified_insns, BF_U32, true),
};
#define PROG_INFO_KNOWN	(offsetof(struct bpf_prog_info, verified_insns) + 4)

static void p_fields(struct sc_call *c, const struct bpf_field *f, size_t n,
		     const unsigned char *raw, const unsigned char *ent, size_t len, bool first);
static void p_extra(struct sc_call *c, const unsigned char *raw, size_t size, size_t known);

/* The object bpf_fd names, from its path (anon_inode:bpf-map), at entry. */
static unsigned char bpf_obj_kind(struct sc_call *c, int fd)
{
	char path[64], link[64];
	ssize_t n;
	if (c->fmt && c->fmt->fd_path) {
		n = c->fmt->fd_path(c->fmt->fd_ctx, sc_pid_proc(c->tid), fd, path, sizeof(path) - 1);
	} else {
		/* Without -y nobody keeps fd paths: ask /proc, as strace does. */
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)sc_pid_proc(c->tid), fd);
		n = readlink(link, path, sizeof(path) - 1);
	}
	if (n < 0)
		return BPF_OBJ_UNKNOWN;
	path[n] = '\0';
	if (strcmp(path, "anon_inode:bpf-prog") == 0)
		return BPF_OBJ_PROG;
	return strcmp(path, "anon_inode:bpf-map") == 0 ? BPF_OBJ_MAP : BPF_OBJ_UNKNOWN;
}

/* info at exit: the struct the kernel filled (size: info_len then), or its address. */
static void p_obj_info(struct sc_call *c, uint64_t addr, uint32_t size)
{
	static _Alignas(8) unsigned char buf[BPF_ATTR_CAP];
	const struct bpf_saved *sv = c->priv;
	if (!c->fmt || !c->fmt->verbose || !sv || sv->obj_kind == BPF_OBJ_UNKNOWN || !size ||
	    size > sizeof(buf) || sc_mem_read(c, addr, buf, size) < 0) {
		p_addr(c, addr);
		return;
	}
	memset(buf + size, 0, sizeof(buf) - size);
	bool map = sv->obj_kind == BPF_OBJ_MAP;
	size_t known = map ? MAP_INFO_KNOWN : PROG_INFO_KNOWN;
	size_t len = size < known ? size : known;
	out(c, "{");
	if (map)
		p_fields(c, f_map_info, sizeof(f_map_info) / sizeof(f_map_info[0]), buf, buf, len, true);
	else
		p_fields(c, f_prog_info, sizeof(f_prog_info) / sizeof(f_prog_info[0]), buf, sv->info,
			 len, true);
	if (len > (map ? offsetof(struct bpf_map_info, btf_id) :
			 offsetof(struct bpf_prog_info, verified_insns)))
		p_extra(c, buf, size, known);
	out(c, "}");
}

/* load_time: nanoseconds since boot, the wall time as a comment (to the second). */
static void p_boottime(struct sc_call *c, uint64_t ns)
{
	struct timespec boot, real;
	char buf[80];
	out(c, "%" PRIu64, ns);
	if (xlat_style == XLAT_STYLE_RAW || clock_gettime(CLOCK_BOOTTIME, &boot) ||
	    clock_gettime(CLOCK_REALTIME, &real))
		return;
	/* Wall clock at boot plus load_time, in nanoseconds, then whole seconds. */
	int64_t off = ((int64_t)real.tv_sec - boot.tv_sec) * 1000000000 + real.tv_nsec - boot.tv_nsec;
	sc_time_comment(buf, sizeof(buf), (off + (int64_t)ns) / 1000000000);
	if (buf[0]) {
		buf[strlen(buf) - 1] = '\0';	/* "(T)" -> " /\* T *\/" */
		out(c, " /* %s */", buf + 1);
	}
}

static void p_tag(struct sc_call *c, const unsigned char *t, size_t n)
{
	out(c, "\"");
	for (size_t i = 0; i < n; i++)
		out(c, "\\x%02x", t[i]);
	out(c, "\"");
}

/* ent: the attr as it was at entry (at exit: for the values it had then). */
static void p_field(struct sc_call *c, const unsigned char *raw, const unsigned char *ent,
		    size_t len, const struct bpf_field *f)
{
	uint64_t v = field_val(raw, f);
	const union bpf_attr *a = (const void *)raw, *e = (const void *)ent;
	out(c, "%s=", f->name);
	switch (f->kind) {
	case BF_U32: case BF_U64: out(c, "%" PRIu64, v); break;
	case BF_X32: case BF_X64: out(c, "%#" PRIx64, v); break;
	case BF_FD: case BF_OLD_PROG: p_fd(c, (uint64_t)(int64_t)(int32_t)v); break;
	case BF_TGID: p_pid(c, (int)v, SC_PT_TGID); break;
	case BF_ADDR: p_addr(c, v); break;
	case BF_DEV: p_dev(c, v); break;
	case BF_CHG32:
		if (field_val(ent, f) != v)
			out(c, "%" PRIu64 " => ", field_val(ent, f));
		out(c, "%" PRIu64, v);
		break;
	case BF_CHGADDR:
		if (field_val(ent, f) != v) {
			p_addr(c, field_val(ent, f));
			out(c, " => ");
		}
		p_addr(c, v);
		break;
	case BF_TAG: p_tag(c, raw + f->off, f->size); break;
	case BF_XLATED: {
		const struct bpf_prog_info *pi = (const void *)raw, *pe = (const void *)ent;
		uint32_t n = pi->xlated_prog_len < pe->xlated_prog_len ? pi->xlated_prog_len :
			     pe->xlated_prog_len;
		pn_ebpf_insns(c, v, n / EBPF_INSN_SIZE);
		break;
	}
	case BF_MAP_IDS: {
		const struct bpf_prog_info *pi = (const void *)raw, *pe = (const void *)ent;
		p_array(c, v, pi->nr_map_ids < pe->nr_map_ids ? pi->nr_map_ids : pe->nr_map_ids,
			4, el_u32);
		break;
	}
	case BF_BOOTTIME: p_boottime(c, v); break;
	case BF_ID: out(c, "%d", (int)(uint32_t)v); break;
	case BF_BIT0: out(c, "%u", (unsigned)(v & 1)); break;
	case BF_OBJ_INFO: p_obj_info(c, v, a->info.info_len); break;
	case BF_XVAL: p_xval(c, f->x, v, f->dflt); break;
	case BF_FLAGS: p_flags(c, f->x, v, f->dflt); break;
	case BF_IFINDEX: pn_ifindex(c, (unsigned)v); break;
	case BF_PATH: p_path(c, v); break;
	case BF_STR: p_str_max(c, v, 128); break;
	case BF_BTF: p_buf(c, v, (int64_t)field_val(raw, &f_btf_load[2])); break;
	case BF_TASK_BUF: {
		uint32_t n = a->task_fd_query.buf_len < e->task_fd_query.buf_len ?
			     a->task_fd_query.buf_len : e->task_fd_query.buf_len;
		p_str_max(c, v, n);
		break;
	}
	case BF_PROG_IDS: p_prog_ids(c, v, a->query.prog_cnt); break;
	case BF_PROG_CNT:
		if (e->query.prog_cnt != a->query.prog_cnt)
			out(c, "%u => ", e->query.prog_cnt);
		out(c, "%u", a->query.prog_cnt);
		break;
	case BF_NUMA: {
		const char *s = xlat_str(f->x, v);
		if (!s || xlat_style == XLAT_STYLE_RAW)
			out(c, "%" PRIu64, v);
		else
			out(c, "%" PRIu64 " /* %s */", v, s);
		break;
	}
	case BF_NAME:
		p_cstr_field(c, (const char *)raw + f->off,
			     len - f->off < f->size ? len - f->off : f->size);
		break;
	}
}

/* Fields hidden by the value of another: numa_node, old_prog_fd. */
static bool field_shown(const union bpf_attr *a, const struct bpf_field *f)
{
	if (f->kind == BF_NUMA)
		return a->map_flags & BPF_F_NUMA_NODE;
	if (f->kind == BF_OLD_PROG)
		return a->link_update.flags & BPF_F_REPLACE;
	return true;
}

/* Nonzero bytes past what the command knows: "..." (-v: the bytes in hex). */
static void p_extra(struct sc_call *c, const unsigned char *raw, size_t size, size_t known)
{
	size_t i = known;
	while (i < size && !raw[i])
		i++;
	if (i >= size)
		return;
	if (!c->fmt || !c->fmt->verbose) {
		out(c, ", ...");
		return;
	}
	out(c, ", extra_data=\"");
	for (i = known; i < size; i++)
		out(c, "\\x%02x", raw[i]);
	out(c, "\" /* bytes %zu..%zu */", known, size - 1);
}

/* Fields f[0..n) as far as len reaches; first: no ", " before the first. */
static void p_fields(struct sc_call *c, const struct bpf_field *f, size_t n,
		     const unsigned char *raw, const unsigned char *ent, size_t len, bool first)
{
	const union bpf_attr *a = (const void *)raw;
	for (size_t i = 0; i < n; i++) {
		if (f[i].since && len <= f[i].off)
			break;
		if (!field_shown(a, &f[i]))
			continue;
		if (!first)
			p_sep(c);
		first = false;
		p_field(c, raw, ent, len, &f[i]);
	}
}

static void p_attr_end(struct sc_call *c, const struct bpf_cmd_desc *d,
		       const unsigned char *raw, size_t size)
{
	if (d->wrap)
		out(c, "}");
	p_extra(c, raw, size, d->attr_size);
	out(c, "}");
}

/* At entry: returns true when all of the attr has printed. */
static bool p_attr_entry(struct sc_call *c, const struct bpf_cmd_desc *d,
			 const unsigned char *raw, size_t size)
{
	size_t len = size < d->attr_size ? size : d->attr_size;
	out(c, "{");
	if (d->wrap)
		out(c, "%s={", d->wrap);
	p_fields(c, d->f, d->n, raw, raw, len, true);
	if (d->fx && !d->batch)
		return false;
	p_attr_end(c, d, raw, size);
	return !d->batch;
}

static void p_attr_exit(struct sc_call *c, const struct bpf_cmd_desc *d,
			const unsigned char *raw, const unsigned char *ent, size_t size)
{
	size_t len = size < d->attr_size ? size : d->attr_size;
	const union bpf_attr *a = (const void *)raw, *e = (const void *)ent;
	if (d->batch) {
		if (a->batch.count != e->batch.count)
			out(c, " => {batch={count=%u}}", a->batch.count);
		return;
	}
	if (d->changed) {
		uint32_t now, then;
		memcpy(&now, raw + d->changed - 1, 4);
		memcpy(&then, ent + d->changed - 1, 4);
		if (now != then)
			out(c, " => %u", now);
	}
	p_fields(c, d->fx, d->nx, raw, ent, len, false);
	p_attr_end(c, d, raw, size);
}

/* ---- BPF_LINK_CREATE: what follows flags depends on attach_type --------- */

static const struct bpf_field f_link_create[] = {
	FN_("prog_fd", link_create.prog_fd, BF_FD, false, NULL, NULL),
	FN_("target_fd", link_create.target_fd, BF_FD, false, NULL, NULL),
	FN_("attach_type", link_create.attach_type, BF_XVAL, false, &xlat_bpf_attach_types, "BPF_???"),
	FN_("flags", link_create.flags, BF_X32, false, NULL, NULL),
};

#define LC_END(m)	(offsetof(union bpf_attr, link_create.m) + sizeof(((union bpf_attr *)0)->link_create.m))

/* Prints the fields of link_create past flags; returns the attr size known. */
static size_t p_link_create_tail(struct sc_call *c, const union bpf_attr *a)
{
	const typeof(a->link_create) *l = &a->link_create;
	switch (l->attach_type) {
	case 0:
		if (l->target_btf_id)
			out(c, ", target_btf_id=%u", l->target_btf_id);
		return LC_END(target_btf_id);
	case BPF_TRACE_ITER:
		out(c, ", iter_info=");
		p_array(c, l->iter_info, l->iter_info_len, 4, el_iter_map);
		out(c, ", iter_info_len=%u", l->iter_info_len);
		return LC_END(iter_info_len);
	case BPF_PERF_EVENT:
		out(c, ", perf_event={bpf_cookie=%#" PRIx64 "}", (uint64_t)l->perf_event.bpf_cookie);
		return LC_END(perf_event.bpf_cookie);
	case BPF_TRACE_KPROBE_MULTI:
		out(c, ", kprobe_multi={flags=");
		p_flags(c, &xlat_bpf_kprobe_multi_flags, l->kprobe_multi.flags, "BPF_F_???");
		out(c, ", cnt=%u, syms=", l->kprobe_multi.cnt);
		p_array(c, l->kprobe_multi.syms, l->kprobe_multi.cnt, 8, el_str);
		out(c, ", addrs=");
		p_array(c, l->kprobe_multi.addrs, l->kprobe_multi.cnt, 8, el_x64);
		out(c, ", cookies=");
		p_array(c, l->kprobe_multi.cookies, l->kprobe_multi.cnt, 8, el_x64);
		out(c, "}");
		return LC_END(kprobe_multi.cookies);
	}
	return LC_END(flags);
}

static void p_link_create(struct sc_call *c, const unsigned char *raw, size_t size)
{
	size_t known = LC_END(kprobe_multi.cookies);	/* all of it, below flags */
	out(c, "{link_create={");
	p_fields(c, f_link_create, 4, raw, raw, size, true);
	if (size > offsetof(union bpf_attr, link_create.target_btf_id))
		known = p_link_create_tail(c, (const void *)raw);
	out(c, "}");
	p_extra(c, raw, size, known);
	out(c, "}");
}

/* BPF_PROG_LOAD's instructions, printed with -v. */
static void walk_insns(struct sc_walk *w, const struct sc_call *c)
{
	const unsigned char *p;
	union bpf_attr a;
	size_t n = offsetof(union bpf_attr, insns) + sizeof(a.insns);
	if (c->args[2] < n || sc_walk_grab(w, c->args[1], n, &p) < n)
		return;
	memcpy(&a, p, n);
	if (a.insns)
		sc_walk_grab(w, a.insns, EBPF_INSN_SIZE * (a.insn_cnt < EBPF_MAX_INSNS ?
							 a.insn_cnt : EBPF_MAX_INSNS), &p);
}

/* A program's instructions and map ids the kernel wrote, for -v. */
static void bpf_walk_info(struct sc_walk *w, const struct sc_call *c)
{
	const unsigned char *p;
	union bpf_attr a;
	struct bpf_prog_info pi;
	size_t n = offsetof(union bpf_attr, info.info) + sizeof(a.info.info);
	if ((unsigned)c->args[0] != BPF_OBJ_GET_INFO_BY_FD || !c->fmt || !c->fmt->verbose ||
	    c->args[2] < n || sc_walk_grab(w, c->args[1], n, &p) < n)
		return;
	memcpy(&a, p, n);
	size_t m = a.info.info_len < sizeof(pi) ? a.info.info_len : sizeof(pi);
	memset(&pi, 0, sizeof(pi));
	if (!a.info.info || !m || sc_walk_grab(w, a.info.info, m, &p) < m)
		return;
	memcpy(&pi, p, m);
	if (pi.xlated_prog_insns && pi.xlated_prog_len)
		sc_walk_grab(w, pi.xlated_prog_insns, pi.xlated_prog_len < EBPF_MAX_INSNS * EBPF_INSN_SIZE ?
			     pi.xlated_prog_len : EBPF_MAX_INSNS * EBPF_INSN_SIZE, &p);
	if (pi.map_ids && pi.nr_map_ids)
		sc_walk_grab(w, pi.map_ids, 4 * (pi.nr_map_ids < 1024 ? pi.nr_map_ids : 1024), &p);
}

/* The arrays link_create points at, and kprobe_multi's symbol names. */
static void bpf_walk(struct sc_walk *w, const struct sc_call *c)
{
	const unsigned char *p;
	union bpf_attr a;
	size_t n = c->args[2] < LC_END(kprobe_multi.cookies) ? (size_t)c->args[2] : LC_END(kprobe_multi.cookies);
	size_t max = bpf_strsize(c);
	if ((unsigned)c->args[0] == BPF_PROG_LOAD && c->fmt && c->fmt->verbose) {
		walk_insns(w, c);
		return;
	}
	if ((unsigned)c->args[0] != BPF_LINK_CREATE || n <= LC_END(flags))
		return;
	memset(&a, 0, sizeof(a));
	if (sc_walk_grab(w, c->args[1], n, &p) < n)
		return;
	memcpy(&a, p, n);
	if (a.link_create.attach_type == BPF_TRACE_ITER && a.link_create.iter_info) {
		sc_walk_grab(w, a.link_create.iter_info, 4 * (a.link_create.iter_info_len < max ?
							       a.link_create.iter_info_len : max), &p);
	} else if (a.link_create.attach_type == BPF_TRACE_KPROBE_MULTI) {
		size_t cnt = a.link_create.kprobe_multi.cnt < max ? a.link_create.kprobe_multi.cnt : max;
		uint64_t syms[cnt ? cnt : 1];
		size_t got = a.link_create.kprobe_multi.syms ?
			     sc_walk_grab(w, a.link_create.kprobe_multi.syms, 8 * cnt, &p) / 8 : 0;
		if (got)
			memcpy(syms, p, got * 8);
		for (size_t i = 0; i < got; i++)
			if (syms[i])
				sc_walk_grab(w, syms[i], max + 1, &p);
		if (a.link_create.kprobe_multi.addrs)
			sc_walk_grab(w, a.link_create.kprobe_multi.addrs, 8 * cnt, &p);
		if (a.link_create.kprobe_multi.cookies)
			sc_walk_grab(w, a.link_create.kprobe_multi.cookies, 8 * cnt, &p);
	}
}

static size_t bpf_attr_len(const struct sc_call *c)
{
	return c->args[2] < BPF_ATTR_CAP ? (size_t)c->args[2] : BPF_ATTR_CAP;
}

/* Commands whose result is a new descriptor (-y prints it). */
static bool bpf_returns_fd(unsigned cmd)
{
	switch (cmd) {
	case BPF_MAP_CREATE: case BPF_PROG_LOAD: case BPF_OBJ_GET: case BPF_PROG_GET_FD_BY_ID:
	case BPF_MAP_GET_FD_BY_ID: case BPF_RAW_TRACEPOINT_OPEN: case BPF_BTF_LOAD:
	case BPF_BTF_GET_FD_BY_ID: case BPF_LINK_CREATE: case BPF_LINK_GET_FD_BY_ID:
	case BPF_ITER_CREATE:
		return true;
	}
	return false;
}

static const struct bpf_cmd_desc *bpf_desc(unsigned cmd)
{
	if (cmd >= sizeof(bpf_cmd_descs) / sizeof(bpf_cmd_descs[0]) || !bpf_cmd_descs[cmd].f)
		return NULL;
	return &bpf_cmd_descs[cmd];
}

/* The attr again at exit, for the commands the kernel writes back into. */
static size_t bpf_exit_len(const struct sc_call *c)
{
	const struct bpf_cmd_desc *d = bpf_desc((unsigned)c->args[0]);
	return d && d->fx ? bpf_attr_len(c) : 0;
}

/* A program's info at entry: the counts the kernel rewrites print "entry => exit". */
static void save_entry_info(struct sc_call *c, struct bpf_saved *sv, const union bpf_attr *a)
{
	size_t n = a->info.info_len < sizeof(sv->info) ? a->info.info_len : sizeof(sv->info);
	memset(sv->info, 0, sizeof(sv->info));
	if (sv->obj_kind == BPF_OBJ_PROG && sc_mem_read(c, a->info.info, sv->info, n) < 0)
		memset(sv->info, 0, sizeof(sv->info));
}

/* BPF_OBJ_GET_INFO_BY_FD's info struct, read at entry and exit for -v. */
static size_t bpf_info_len(const struct sc_call *c)
{
	return (unsigned)c->args[0] == BPF_OBJ_GET_INFO_BY_FD && c->fmt && c->fmt->verbose ?
	       BPF_ATTR_CAP : 0;
}

/* At exit: what the kernel wrote back (c->priv holds the attr at entry). */
static int bpf_exit(struct sc_call *c, unsigned char *raw)
{
	const struct bpf_cmd_desc *d = bpf_desc((unsigned)c->args[0]);
	size_t size = (unsigned)c->args[2];
	const unsigned char *ent = c->priv;
	if (d && ent && sc_mem_read(c, c->args[1], raw, size) == 0) {
		memset(raw + size, 0, BPF_ATTR_CAP - size);
		p_attr_exit(c, d, raw, ent, size);
	} else if (d && !d->batch) {
		p_attr_end(c, d, ent ? ent : raw, 0);
	}
	out(c, ", %zu", size);
	return 0;
}

SC_DECODER(bpf, { .arg = 1, .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .len_src = SC_LEN_FN,
		  .len_fn = bpf_attr_len, .size = BPF_ATTR_CAP },
	   { .arg = 1, .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_FN,
	     .len_fn = bpf_exit_len, .size = BPF_ATTR_CAP },
	   MEM_DEREF_IN(1, 0, 4096),	/* pathname, raw_tracepoint.name, btf */
	   MEM_DEREF_IN(1, offsetof(union bpf_attr, license), 256),
	   MEM_DEREF_IN(1, offsetof(union bpf_attr, log_buf), 256),
	   { .arg = 1, .off = offsetof(union bpf_attr, task_fd_query.buf),
	     .kind = SC_MEM_DEREF, .when = SC_AT_EXIT, .size = 256 },	/* and query.prog_ids */
	   { .arg = 1, .off = offsetof(union bpf_attr, info.info), .kind = SC_MEM_DEREF,
	     .when = SC_AT_ENTRY | SC_AT_EXIT, .len_src = SC_LEN_FN, .len_fn = bpf_info_len,
	     .size = BPF_ATTR_CAP },
	   /* The walks start from the attr, args[2] bytes of it (bpf_attr_len): --kernel follows no more. */
	   { .arg = 1, .kind = SC_MEM_WALK, .when = SC_AT_EXIT, .len_src = SC_LEN_ARG, .len_arg = 2,
	     .size = BPF_ATTR_CAP, .walk_fn = bpf_walk_info },
	   { .arg = 1, .kind = SC_MEM_WALK, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = 2,
	     .size = BPF_ATTR_CAP, .walk_fn = bpf_walk })
{
	unsigned cmd = (unsigned)c->args[0];
	uint64_t addr = c->args[1], size = (unsigned)c->args[2];
	static _Alignas(8) unsigned char raw[BPF_ATTR_CAP];
	const struct bpf_cmd_desc *d = bpf_desc(cmd);
	if (!c->entering)
		return bpf_exit(c, raw);
	p_xval(c, &xlat_bpf_cmds, cmd, "BPF_???");
	p_sep(c);
	/* Not decoded, empty, or bigger than a page: the address, as strace. */
	if (!size || size > BPF_ATTR_CAP || (!d && cmd != BPF_PROG_LOAD && cmd != BPF_LINK_CREATE) ||
	    sc_mem_read(c, addr, raw, (size_t)size) < 0) {
		p_addr(c, addr);
	} else if (cmd == BPF_LINK_CREATE) {
		memset(raw + size, 0, sizeof(raw) - size);
		p_link_create(c, raw, (size_t)size);
	} else if (cmd == BPF_PROG_LOAD) {
		union bpf_attr a;
		memset(&a, 0, sizeof(a));
		memcpy(&a, raw, size < sizeof(a) ? (size_t)size : sizeof(a));
		p_prog_load(c, &a, size);
		p_extra(c, raw, (size_t)size, 128);
		out(c, "}");
	} else {
		memset(raw + size, 0, sizeof(raw) - size);
		if (!p_attr_entry(c, d, raw, (size_t)size)) {
			struct bpf_saved *sv = malloc(sizeof(*sv));
			if (sv) {
				memcpy(sv->raw, raw, sizeof(raw));
				sv->obj_kind = cmd == BPF_OBJ_GET_INFO_BY_FD ?
					       bpf_obj_kind(c, (int)((union bpf_attr *)raw)->info.bpf_fd) :
					       BPF_OBJ_UNKNOWN;
				save_entry_info(c, sv, (const union bpf_attr *)raw);
			}
			c->priv = sv;
			return 0;
		}
		if (d->batch) {
			c->priv = malloc(sizeof(raw));
			if (c->priv)
				memcpy(c->priv, raw, sizeof(raw));
			return 0;
		}
	}
	out(c, ", %u", (unsigned)size);
	if (bpf_returns_fd(cmd))
		c->rv = SC_RV_FD;
	return SC_DONE;
}

/*
 * Unit tests of probes written in C: the expression parser (forms, errors,
 * perf probe's argument names) and the translation of kernel probes through
 * this machine's BTF (/sys/kernel/btf/vmlinux) to the kprobe_events line --
 * no kprobes needed, nothing written.  The offsets expected are looked up
 * here in the BTF with libbpf, by a walk of its own, so a layout change of
 * the running kernel does not break the test, and a wrong offset does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "probe/cexpr.h"
#include "probe/cresolve.h"
#include "probe/kernel.h"
#include "tk_test.h"
#include "util/strbuf.h"

/* ---- the parser ---- */

static const char *parse(const char *s)
{
	static char out[256];
	struct cx_expr e;
	char msg[160];
	int pos;
	if (cx_parse(s, strlen(s), &e, &pos, msg, sizeof(msg)) < 0) {
		snprintf(out, sizeof(out), "%d: %s", pos, msg);
		return out;
	}
	cx_default_name(&e, out, sizeof(out));
	size_t n = strlen(out);
	snprintf(out + n, sizeof(out) - n, " %zu", e.nsteps);
	cx_free(&e);
	return out;
}

static void test_parser(void)
{
	CHECK_STR(parse("file->f_path.dentry->d_name.name"), "name 4");
	CHECK_STR(parse("count"), "count 0");
	CHECK_STR(parse("argv[1]"), "argv_1 1");
	CHECK_STR(parse("r->codes[2][0x3]"), "codes_2_3 3");
	CHECK_STR(parse("$current->comm"), "comm 1");
	CHECK_STR(parse("$retval"), " 0");
	CHECK_STR(parse("$retval->len"), "len 1");
	CHECK_STR(parse("a->"), "3: expected member name here");
	CHECK_STR(parse("a."), "2: expected member name here");
	CHECK_STR(parse("a[1"), "3: missing ']' after the index");
	CHECK_STR(parse("a[x]"), "2: expected an index (a number) after '['");
	CHECK_STR(parse("a[99999999999]"), "2: bad index '99999999999' (a number from 0 to 1048576)");
	CHECK_STR(parse("a+1"), "1: unexpected '+' (members are ->name or .name, indexes [N])");
	CHECK_STR(parse("$current"), "8: $current is a pointer to the task: name a member, "
				     "$current->comm");
	CHECK_STR(parse("$foo"), "0: unknown variable (C expressions take $retval and $current)");
	CHECK(cx_starts("file", 4) && cx_starts("$current->pid", 13));
	CHECK(!cx_starts("%di", 3) && !cx_starts("$arg1", 5) && !cx_starts("+0(%di)", 7) &&
	      !cx_starts("$currently", 10));
}

/* ---- BTF ---- */

static struct btf *btf;

/* The bit offset of member name in struct sname, through anonymous members (this test's own walk). */
static long bits_in(__u32 id, const char *name, unsigned *bitsize)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	while (t && (btf_is_typedef(t) || btf_is_mod(t)))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_composite(t))
		return -1;
	for (__u16 i = 0; i < btf_vlen(t); i++) {
		const struct btf_member *m = btf_members(t) + i;
		const char *n = btf__name_by_offset(btf, m->name_off);
		long sub;
		if (n && !strcmp(n, name)) {
			if (bitsize)
				*bitsize = btf_member_bitfield_size(t, i);
			return (long)btf_member_bit_offset(t, i);
		}
		if ((!n || !*n) && (sub = bits_in(m->type, name, bitsize)) >= 0)
			return (long)btf_member_bit_offset(t, i) + sub;
	}
	return -1;
}

static long off_in(const char *sname, const char *member)
{
	__s32 id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);
	long b = id < 0 ? -1 : bits_in((__u32)id, member, NULL);
	return b < 0 ? -1 : b / 8;
}

static const char *line_of(const char *spec)
{
	static char out[2048];
	char err[1024];
	struct strbuf line = STRBUF_INIT, notes = STRBUF_INIT;
	if (pk_spec_line(spec, &line, &notes, err, sizeof(err)) < 0)
		snprintf(out, sizeof(out), "error: %s", err);
	else
		snprintf(out, sizeof(out), "%s%s%s", sb_str(&notes), notes.len ? "|" : "",
			 sb_str(&line));
	sb_free(&line);
	sb_free(&notes);
	return out;
}

static void test_btf_members(void)
{
	char want[512];
	long f_path = off_in("file", "f_path"), dentry = off_in("path", "dentry");
	long d_name = off_in("dentry", "d_name"), name = off_in("qstr", "name");
	CHECK(f_path > 0 && dentry >= 0 && d_name > 0 && name >= 0);
	/* perf probe's own example */
	snprintf(want, sizeof(want), "p:kprobes/vfs_read vfs_read name=+0(+%ld(+%ld(%%di))):string "
		 "count=%%dx:u64", d_name + name, f_path + dentry);
	CHECK_STR(line_of("vfs_read file->f_path.dentry->d_name.name:string count"), want);
	/* the default type of a char * is a string; names as given; the raw grammar beside */
	snprintf(want, sizeof(want), "p:grp/rd vfs_read n=+0(+%ld(+%ld(%%di))):string pos=%%cx:x64 "
		 "raw=+0(%%si):x8", d_name + name, f_path + dentry);
	CHECK_STR(line_of("p:grp/rd vfs_read n=file->f_path.dentry->d_name.name pos=%cx "
			  "raw=+0(%si):x8"), want);
	/* an unsigned typedef (fmode_t), a signed one (loff_t) */
	snprintf(want, sizeof(want), "p:kprobes/vfs_read vfs_read f_mode=+%ld(%%di):u32 "
		 "f_pos=+%ld(%%di):s64", off_in("file", "f_mode"), off_in("file", "f_pos"));
	CHECK_STR(line_of("vfs_read file->f_mode file->f_pos"), want);
	/* the return value typed from the prototype: pid_t */
	CHECK_STR(line_of("kernel_clone%return $retval"),
		  "r:kprobes/kernel_clone__return kernel_clone arg1=$retval:s32");
	CHECK_STR(line_of("kernel_clone%return pid=$retval:u64"),
		  "r:kprobes/kernel_clone__return kernel_clone pid=$retval:u64");
	/* a char array member is read in place: +OFFS(base):string */
	long s_id = off_in("super_block", "s_id"), i_sb = off_in("inode", "i_sb");
	long f_inode = off_in("file", "f_inode");
	snprintf(want, sizeof(want), "p:kprobes/vfs_read vfs_read s_id=+%ld(+%ld(+%ld(%%di))):string",
		 s_id, i_sb, f_inode);
	CHECK_STR(line_of("vfs_read file->f_inode->i_sb->s_id"), want);
}

static void test_btf_bitfield_and_array(void)
{
	char want[512];
	unsigned w = 0;
	__s32 ts = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT);
	long bit = bits_in((__u32)ts, "sched_reset_on_fork", &w);
	CHECK(bit > 0 && w == 1);
	/* an unsigned int bitfield: its aligned 32-bit container */
	snprintf(want, sizeof(want), "p:kprobes/wake_up_process wake_up_process "
		 "sched_reset_on_fork=+%ld(%%di):b1@%ld/32", bit / 32 * 4, bit % 32);
	CHECK_STR(line_of("wake_up_process p->sched_reset_on_fork"), want);
	/* char comm[16]: a string; an element of it: s8 or u8 by char's sign in BTF */
	long comm = off_in("task_struct", "comm");
	snprintf(want, sizeof(want), "p:kprobes/wake_up_process wake_up_process comm=+%ld(%%di):string",
		 comm);
	CHECK_STR(line_of("wake_up_process p->comm"), want);
	snprintf(want, sizeof(want), "p:kprobes/wake_up_process wake_up_process c=+%ld(%%di):x8",
		 comm + 3);
	CHECK_STR(line_of("wake_up_process c=p->comm[3]:x8"), want);
}

static void test_btf_current_and_messages(void)
{
	CHECK_STR(line_of("kernel_clone $current->pid $current->comm"),
		  "pid: no fetch arg (kprobe fetch args cannot reach current): it is the event's own "
		  "pid (probe trace prints it; a recording has it as the event's pid)\n"
		  "|p:kprobes/kernel_clone kernel_clone comm=$comm:string");
	const char *s = line_of("kernel_clone $current->tgid");
	CHECK(strstr(s, "error: '$current->tgid': $current->tgid: kprobe fetch args cannot reach the "
		       "running task") == s);
	s = line_of("vfs_read file->f_paht.dentry");
	CHECK(strstr(s, "error: 'file->f_paht.dentry': struct file has no member f_paht; did you "
		       "mean f_path") == s);
	s = line_of("vfs_read fiel");
	CHECK(strstr(s, "error: 'fiel': vfs_read has no parameter fiel; did you mean file") == s);
	s = line_of("vfs_raed file");
	CHECK(strstr(s, "error: no function 'vfs_raed' in the kernel's BTF (did you mean vfs_read") == s);
	s = line_of("vfs_read file.f_pos");
	CHECK(strstr(s, "error: 'file.f_pos': file is struct file *, a pointer: use file->f_pos") == s);
	s = line_of("vfs_read file->f_path");
	CHECK(strstr(s, "error: 'file->f_path': file->f_path is struct path: name one of its") == s);
	s = line_of("vfs_read%return file->f_pos");
	CHECK(strstr(s, "error: 'file->f_pos': file: parameters are gone at return") == s);
	s = line_of("vfs_read+4 file->f_pos");
	CHECK(strstr(s, "only at the function's entry, not at vfs_read+4") != NULL);
	s = line_of("vfs_read $retval");
	CHECK(strstr(s, "error: 'vfs_read $retval': column 10: $retval is only for return probes") == s);
}

int main(void)
{
	static const struct tk_case parser_cases[] = { TK_CASE(test_parser) };
	static const struct tk_case btf_cases[] = {
		TK_CASE(test_btf_members), TK_CASE(test_btf_bitfield_and_array),
		TK_CASE(test_btf_current_and_messages),
	};
	int rc = tk_run(parser_cases, 1);
	btf = btf__parse(pd_btf_vmlinux_path(), NULL);
	if (!btf) {
		fprintf(stderr, "%s: %s; the BTF cases need it\n", pd_btf_vmlinux_path(),
			getenv("CI") ? "missing (CI=true: a failure)" : "missing: skipped");
		return getenv("CI") && !strcmp(getenv("CI"), "true") ? 1 : rc;
	}
	rc |= tk_run(btf_cases, sizeof(btf_cases) / sizeof(btf_cases[0]));
	btf__free(btf);
	return rc;
}

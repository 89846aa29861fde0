/*
 * --kernel's user-space half without the kernel: the copy plan made from the
 * decoders' memory specs, and records (in the BPF program's format) turned
 * into strace's lines by the shared decoders.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "syscalls/kernel_events.h"
#include "syscalls/kernel_plan.h"
#include "syscalls/session.h"
#include "tk_test.h"

static struct km_plan plans[KM_NR_MAX];

static void build(const char *expr, unsigned strsize, bool verbose, bool summary_only, bool paths)
{
	struct sc_filter *f = sc_filter_new();
	char err[256];
	if (expr)
		CHECK(sc_filter_parse(f, expr, err, sizeof(err)) == 0);
	struct sc_fmt fmt = { .strsize = strsize, .verbose = verbose };
	km_plan_build(plans, f, &fmt, summary_only, paths);
	sc_filter_free(f);
}

static void test_paths_are_strings_read_at_entry_with_room_to_tell_a_cut(void)
{
	build(NULL, 32, false, false, false);
	const struct km_plan *p = &plans[SYS_openat];
	CHECK(p->traced);
	CHECK_INT(p->ncopy, 1);
	CHECK_INT(p->c[0].op, KM_OP_STR);
	CHECK_INT(p->c[0].arg, 1);
	CHECK_INT(p->c[0].when, 1);
	CHECK_INT(p->c[0].cap, 4096 + 2);
}

static void test_buffers_follow_their_length_up_to_the_string_limit(void)
{
	build(NULL, 100, false, false, false);
	const struct km_copy *w = &plans[SYS_write].c[0], *r = &plans[SYS_read].c[0];
	CHECK_INT(w->op, KM_OP_BUF);
	CHECK_INT(w->when, 1);
	CHECK_INT(w->len_src, KM_LEN_ARG);
	CHECK_INT(w->len_arg, 2);
	CHECK_INT(w->cap, 100);
	CHECK_INT(r->when, 2);
	CHECK_INT(r->len_src, KM_LEN_RET);
	CHECK_INT(r->cap, 100);
}

static void test_envp_strings_only_with_verbose(void)
{
	build(NULL, 32, false, false, false);
	CHECK_INT(plans[SYS_execve].ncopy, 3);
	CHECK_INT(plans[SYS_execve].c[1].op, KM_OP_STRV);
	CHECK_INT(plans[SYS_execve].c[1].cap, 34);
	CHECK_INT(plans[SYS_execve].c[2].cap, 0);
	build(NULL, 32, true, false, false);
	CHECK_INT(plans[SYS_execve].c[2].cap, 34);
}

static void test_trace_filter_marks_numbers_for_the_kernel(void)
{
	build("trace=getppid", 32, false, false, false);
	CHECK(plans[SYS_getppid].traced);
	CHECK(!plans[SYS_read].traced);
	CHECK_INT(plans[SYS_read].ncopy, 0);
	/* Calls that make descriptors come anyway (not printed): later calls' -y and netlink need them. */
	CHECK(plans[SYS_openat].traced);
	CHECK(plans[SYS_socket].traced);
	CHECK(plans[SYS_close].traced);
}

static void test_pointers_followed_in_code_get_a_deep_copy(void)
{
	build(NULL, 32, false, false, false);
	/* ioctl: one deep copy of its argument, no guessed DEREFs beside it */
	CHECK_INT(plans[SYS_ioctl].ncopy, 1);
	CHECK_INT(plans[SYS_ioctl].c[0].op, KM_OP_DEEP);
	CHECK_INT(plans[SYS_ioctl].c[0].arg, 2);
	CHECK(plans[SYS_ioctl].c[0].cap >= 4368);	/* UBI_IOCRNVOL's struct */
	CHECK(plans[SYS_ioctl].c[0].cap1 >= 33);	/* -s and its NUL */
	/* io_submit: the pointer array, each iocb, what aio_buf points at */
	CHECK_INT(plans[SYS_io_submit].c[0].op, KM_OP_DEEP);
	CHECK_INT(plans[SYS_io_submit].c[0].len_src, KM_LEN_ARG);
	CHECK_INT(plans[SYS_io_submit].c[0].cap1, 64);
	/* prctl's guessed pointers stay plain copies: no walk there */
	for (int i = 0; i < plans[SYS_prctl].ncopy; i++)
		CHECK(plans[SYS_prctl].c[i].op != KM_OP_DEEP);
}

static void test_dumps_copy_buffers_whole(void)
{
	build(NULL, 32, false, false, false);
	CHECK_INT(plans[SYS_write].c[0].cap, 32);
	build("write=1", 32, false, false, false);
	CHECK_INT(plans[SYS_write].c[0].cap, KM_REG_CAP);
}

static void test_summary_copies_nothing_unless_paths_are_matched(void)
{
	build(NULL, 32, false, true, false);
	CHECK(plans[SYS_openat].traced);
	CHECK_INT(plans[SYS_openat].ncopy, 0);
	build(NULL, 32, false, true, true);
	CHECK_INT(plans[SYS_openat].ncopy, 1);
}

static void test_calls_that_only_read_their_memory_are_one_record(void)
{
	build(NULL, 32, false, false, false);
	CHECK(plans[SYS_getppid].one);		/* nothing to copy */
	CHECK(plans[SYS_write].one);		/* its buffer is input */
	CHECK(plans[SYS_openat].one);
	CHECK(plans[SYS_read].one);		/* exit copies only */
	CHECK(plans[SYS_nanosleep].one);	/* req read, rem written: two arguments */
	CHECK(!plans[SYS_poll].one);		/* the array is read and written */
	CHECK(!plans[SYS_select].one);
	CHECK(!plans[SYS_accept].one);		/* its address length too */
	CHECK(!plans[SYS_execve].one);		/* its memory is gone at exit */
	CHECK(!plans[SYS_exit_group].one);	/* never returns */
	CHECK(!plans[SYS_clone].one);		/* the child runs before it returns */
	CHECK(!plans[SYS_rt_sigreturn].one);
	build("trace=getppid", 32, false, false, false);
	CHECK(!plans[SYS_write].one);		/* not traced: no record at all */
}

/* ---- records -> lines ---------------------------------------------------- */

struct rec {
	struct km_hdr h;
	unsigned char data[512];
};

static void add_region(struct rec *r, uint64_t addr, const void *bytes, uint32_t len, int when, bool fault)
{
	struct km_region *reg = (struct km_region *)(r->data + r->h.size);
	*reg = (struct km_region){ .addr = addr, .len = fault ? 0 : len, .when = (uint8_t)when, .fault = fault };
	if (!fault)
		memcpy(reg + 1, bytes, len);
	r->h.size += sizeof(*reg) + ((reg->len + 7) & ~7u);
	r->h.nregions++;
	r->h.faults |= fault;
}

static struct rec record(uint32_t type, int nr, uint64_t ts)
{
	struct rec r;
	memset(&r, 0, sizeof(r));
	r.h = (struct km_hdr){ .ts = ts, .type = type, .tid = 4242, .tgid = 4242, .nr = nr };
	return r;
}

/* Run records through a printer writing to a file; returns the file's text (static). */
static const char *print_records(struct rec *recs, int n)
{
	static char text[4096];
	char path[] = "/tmp/tk-kernel-unit-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	struct sc_options o = { .fmt = { .strsize = 32 }, .outfile = path, .acolumn = 40 };
	o.filter = sc_filter_new();
	char err[256];
	struct km_printer *p = km_printer_new(&o, err, sizeof(err));
	CHECK(p != NULL);
	km_printer_task(p, 4242, 4242, false);
	for (int i = 0; i < n; i++)
		km_printer_record(p, &recs[i].h);
	km_printer_free(p);
	sc_filter_free(o.filter);
	FILE *f = fopen(path, "r");
	size_t got = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
	text[got] = '\0';
	if (f)
		fclose(f);
	unlink(path);
	return text;
}

static const char passwd[] = "/etc/passwd";

static struct rec openat_enter(bool fault)
{
	struct rec r = record(KM_ENTER, SYS_openat, 1000);
	r.h.args[0] = (uint64_t)-100;
	r.h.args[1] = 0x7000;
	r.h.args[2] = O_RDONLY;
	add_region(&r, 0x7000, passwd, sizeof(passwd), 1, fault);
	return r;
}

static void test_a_call_from_its_two_records(void)
{
	struct rec r[3] = { openat_enter(false), record(KM_EXIT, SYS_openat, 2000), record(KM_GONE, 0, 3000) };
	r[1].h.ret = 3;
	CHECK_STR(print_records(r, 3), "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = 3\n+++ exited with 0 +++\n");
}

static void test_an_entry_that_faulted_is_decoded_from_its_copy_at_exit(void)
{
	struct rec r[2] = { openat_enter(true), record(KM_EXIT, SYS_openat, 2000) };
	r[1].h.ret = -2;
	add_region(&r[1], 0x7000, passwd, sizeof(passwd), 1, false);
	CHECK_STR(print_records(r, 2),
		  "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = -1 ENOENT (No such file or directory)\n");
}

static void test_memory_the_kernel_could_not_read_prints_as_the_address(void)
{
	struct rec r[2] = { openat_enter(true), record(KM_EXIT, SYS_openat, 2000) };
	r[1].h.ret = 3;
	CHECK_STR(print_records(r, 2), "openat(AT_FDCWD, 0x7000, O_RDONLY)      = 3\n");
}

static void test_a_buffer_is_read_across_adjacent_regions(void)
{
	struct rec r[2] = { record(KM_ENTER, SYS_write, 1000), record(KM_EXIT, SYS_write, 2000) };
	r[0].h.args[0] = 1;
	r[0].h.args[1] = 0x9000;
	r[0].h.args[2] = 11;
	add_region(&r[0], 0x9000, "hello", 5, 1, false);
	add_region(&r[0], 0x9005, " world", 6, 1, false);
	r[1].h.ret = 11;
	CHECK_STR(print_records(r, 2), "write(1, \"hello world\", 11)             = 11\n");
}

static void test_a_call_from_one_record(void)
{
	struct rec r[2] = { openat_enter(false), record(KM_GONE, 0, 3000) };
	r[0].h.type = KM_CALL;
	r[0].h.exit_ts = 2000;
	r[0].h.ret = 3;
	CHECK_STR(print_records(r, 2), "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY) = 3\n+++ exited with 0 +++\n");
}

/*
 * Split around another thread's record: its halves print as two records' would (the pid
 * prefix from the second thread on, as strace's).
 */
static void test_a_one_record_call_in_two_halves(void)
{
	struct rec r[4] = { openat_enter(false), record(KM_CALL, SYS_getppid, 1500), openat_enter(false),
			    record(KM_GONE, 0, 3000) };
	r[0].h.type = KM_CALL_ENTRY;
	r[1].h.tid = r[1].h.tgid = 4343;
	r[1].h.exit_ts = 1600;
	r[1].h.ret = 4242;
	r[2].h.type = KM_CALL_EXIT;
	r[2].h.ts = 2000;
	r[2].h.ret = 3;
	CHECK_STR(print_records(r, 4),
		  "openat(AT_FDCWD, \"/etc/passwd\", O_RDONLY <unfinished ...>\n"
		  "[pid  4343] getppid()                   = 4242\n"
		  "[pid  4242] <... openat resumed>)       = 3\n"
		  "[pid  4242] +++ exited with 0 +++\n");
}

static void test_killed_and_exited_lines_from_the_exit_code(void)
{
	struct rec r[1] = { record(KM_GONE, 0, 1000) };
	r[0].h.ret = 11 | 0x80;	/* SIGSEGV, core dumped */
	CHECK_STR(print_records(r, 1), "+++ killed by SIGSEGV (core dumped) +++\n");
	r[0].h.ret = 3 << 8;
	CHECK_STR(print_records(r, 1), "+++ exited with 3 +++\n");
}

TK_MAIN(TK_CASE(test_paths_are_strings_read_at_entry_with_room_to_tell_a_cut),
	TK_CASE(test_buffers_follow_their_length_up_to_the_string_limit),
	TK_CASE(test_envp_strings_only_with_verbose),
	TK_CASE(test_trace_filter_marks_numbers_for_the_kernel),
	TK_CASE(test_pointers_followed_in_code_get_a_deep_copy),
	TK_CASE(test_dumps_copy_buffers_whole),
	TK_CASE(test_summary_copies_nothing_unless_paths_are_matched),
	TK_CASE(test_calls_that_only_read_their_memory_are_one_record),
	TK_CASE(test_a_call_from_one_record),
	TK_CASE(test_a_one_record_call_in_two_halves),
	TK_CASE(test_a_call_from_its_two_records),
	TK_CASE(test_an_entry_that_faulted_is_decoded_from_its_copy_at_exit),
	TK_CASE(test_memory_the_kernel_could_not_read_prints_as_the_address),
	TK_CASE(test_a_buffer_is_read_across_adjacent_regions),
	TK_CASE(test_killed_and_exited_lines_from_the_exit_code))

/*
 * Report kinds the syzkaller development set lacks, written as the kernel
 * prints them (the headers and trace layouts of mm/kfence/report.c,
 * kernel/kcsan/report.c, mm/kmsan/report.c, kernel/watchdog.c, and the
 * 6.12+ "Oops: invalid opcode" after "kernel BUG at"): title, guilty frame,
 * task and verdict.
 */
#include <string.h>

#include "oops/oops.h"
#include "tk_test.h"

static void parse(const char *text, struct oops_lines *ls, struct oops_reports *rs)
{
	memset(ls, 0, sizeof(*ls));
	oops_lines_from_text(ls, text, strlen(text));
	oops_parse(rs, ls);
}

static void done(struct oops_lines *ls, struct oops_reports *rs)
{
	oops_reports_free(rs);
	oops_lines_free(ls);
}

/* 6.12+ prints "Oops: invalid opcode" after "kernel BUG at": one report, with pid and cpu. */
static void test_bug_with_612_oops_line(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("[   51.012345] ------------[ cut here ]------------\n"
	      "[   51.012346] kernel BUG at mm/huge_memory.c:2345!\n"
	      "[   51.012347] Oops: invalid opcode: 0000 [#1] PREEMPT SMP KASAN NOPTI\n"
	      "[   51.012348] CPU: 3 UID: 0 PID: 812 Comm: repro Not tainted 6.12.0-rc1 #1\n"
	      "[   51.012349] RIP: 0010:split_huge_pmd_locked+0x1b5/0x1c0\n"
	      "[   51.012350] Call Trace:\n"
	      "[   51.012351]  <TASK>\n"
	      "[   51.012352]  ? die+0x36/0x90\n"
	      "[   51.012353]  __split_huge_pmd+0x1d2/0x2b0\n"
	      "[   51.012354]  madvise_vma_behavior+0x4a1/0xb50\n"
	      "[   51.012355]  do_madvise+0x1f3/0x330\n"
	      "[   51.012356]  </TASK>\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n) {
		const struct oops_report *r = &rs.v[0];
		CHECK_STR(r->title, "kernel BUG in split_huge_pmd_locked");
		CHECK_STR(r->guilty, "split_huge_pmd_locked");
		CHECK_INT(r->pid, 812);
		CHECK_INT(r->cpu, 3);
		CHECK_STR(r->oops_line, "Oops: invalid opcode: 0000 [#1] PREEMPT SMP KASAN NOPTI");
		CHECK_STR(r->verdict, "oops");
	}
	done(&ls, &rs);
}

static void test_kcsan_data_race(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("==================================================================\n"
	      "BUG: KCSAN: data-race in test_kernel_read / test_kernel_write\n"
	      "\n"
	      "write to 0xffffffffc009a628 of 8 bytes by task 487 on cpu 0:\n"
	      " test_kernel_write+0x1d/0x30\n"
	      " access_thread+0x89/0xd0\n"
	      " kthread+0x23e/0x260\n"
	      "\n"
	      "read to 0xffffffffc009a628 of 8 bytes by task 488 on cpu 6:\n"
	      " test_kernel_read+0x10/0x20\n"
	      " access_thread+0x89/0xd0\n"
	      "\n"
	      "CPU: 6 PID: 488 Comm: access_thread Not tainted 5.12.0-rc2+ #1\n"
	      "==================================================================\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n) {
		CHECK_STR(rs.v[0].title, "KCSAN: data-race in test_kernel_read / test_kernel_write");
		CHECK_STR(rs.v[0].guilty, "test_kernel_read");
		CHECK_STR(rs.v[0].verdict, "report");
	}
	done(&ls, &rs);
}

static void test_kfence_use_after_free(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("==================================================================\n"
	      "BUG: KFENCE: use-after-free read in test_use_after_free_read+0xb3/0x143\n"
	      "\n"
	      "Use-after-free read at 0xffffffffb673dfe0 (in kfence-#24):\n"
	      " test_use_after_free_read+0xb3/0x143\n"
	      " kunit_try_run_case+0x51/0x85\n"
	      " kthread+0x137/0x160\n"
	      "\n"
	      "CPU: 4 PID: 109 Comm: kunit_try_catch Tainted: G        W         5.8.0-rc6+ #7\n"
	      "==================================================================\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n) {
		CHECK_STR(rs.v[0].title, "KFENCE: use-after-free read in test_use_after_free_read");
		CHECK_STR(rs.v[0].guilty, "test_use_after_free_read");
		CHECK_INT(rs.v[0].pid, 109);
	}
	done(&ls, &rs);
}

/* KMSAN: the frame is the first of the report's own trace not skipped as a helper. */
static void test_kmsan_uninit_value(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("=====================================================\n"
	      "BUG: KMSAN: uninit-value in test_uninit_stack_var+0xc1/0x190\n"
	      " test_uninit_stack_var+0xc1/0x190\n"
	      " kunit_run_case_internal+0x1d9/0x280\n"
	      " kthread+0x3c3/0x500\n"
	      "\n"
	      "Uninit was created at:\n"
	      " __kmalloc+0x3a9/0x7d0\n"
	      " test_uninit_stack_var+0x7c/0x190\n"
	      "\n"
	      "CPU: 0 PID: 6731 Comm: kunit_try_catch Tainted: G    B   N 6.0.0-rc3 #1\n"
	      "=====================================================\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n) {
		CHECK_STR(rs.v[0].title, "KMSAN: uninit-value in test_uninit_stack_var");
		CHECK_STR(rs.v[0].guilty, "test_uninit_stack_var");
	}
	done(&ls, &rs);
}

/* kmemleak: the allocation's backtrace, allocator frames skipped. */
static void test_memory_leak(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("BUG: memory leak\n"
	      "unreferenced object 0xffff88810a5c4e00 (size 256):\n"
	      "  comm \"repro\", pid 4101, jiffies 4294952210\n"
	      "  backtrace (crc 3f3a9b5c):\n"
	      "    [<ffffffff8156a0c6>] kmemleak_alloc+0x46/0x80\n"
	      "    [<ffffffff814b8a5f>] __kmalloc_cache_noprof+0x2bf/0x340\n"
	      "    [<ffffffff83a1b0e2>] nfc_llcp_build_gb+0x62/0x1e0\n"
	      "    [<ffffffff83a0f3b9>] nfc_genl_dev_up+0x59/0x90\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n) {
		CHECK_STR(rs.v[0].title, "memory leak in nfc_llcp_build_gb");
		CHECK_STR(rs.v[0].guilty, "nfc_llcp_build_gb");
		CHECK_STR(oops_kind_info(rs.v[0].kind)->name, "memory-leak");
	}
	done(&ls, &rs);
}

/* A WARNING that panic_on_warn turns into a panic: the WARNING's verdict is panic. */
static void test_warning_then_panic(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("[   10.000001] WARNING: CPU: 1 PID: 77 at net/core/dev.c:10 dev_close+0x1/0x2\n"
	      "[   10.000002] Modules linked in:\n"
	      "[   10.000003] RIP: 0010:dev_close+0x1/0x2\n"
	      "[   10.000004] Call Trace:\n"
	      "[   10.000005]  unregister_one+0x10/0x20\n"
	      "[   10.000006] Kernel panic - not syncing: panic_on_warn set ...\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n) {
		CHECK_STR(rs.v[0].title, "WARNING in dev_close");
		CHECK_STR(rs.v[0].verdict, "panic");
	}
	done(&ls, &rs);
}

/* A mail's subject "BUG:foo" is no report; a suppressed header ("ODEBUG:") neither. */
static void test_not_reports(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("Subject: [bug report] \"BUG:sleeping_function_called\"\n"
	      "ODEBUG: Out of memory. ODEBUG disabled\n"
	      "WARNING: /etc/ssh/moduli does not exist, using fixed modulus\n", &ls, &rs);
	CHECK_INT(rs.n, 0);
	done(&ls, &rs);
}

/* Rust's panic!(): the message names it, the first frame below panic machinery is guilty. */
static void test_rust_panic(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("[    1.000001] rust_kernel: panicked at samples/rust/rust_minimal.rs:30:9:\n"
	      "[    1.000002] attempt to divide by zero\n"
	      "[    1.000003] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.8.0 #1\n"
	      "[    1.000004] Call Trace:\n"
	      "[    1.000005]  <TASK>\n"
	      "[    1.000006]  dump_stack_lvl+0x1/0x2\n"
	      "[    1.000007]  panic+0x1/0x2\n"
	      "[    1.000008]  rust_minimal_init+0x1/0x2\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n) {
		CHECK_STR(rs.v[0].title, "attempt to divide by zero in rust_minimal_init");
		CHECK_STR(rs.v[0].guilty, "rust_minimal_init");
	}
	done(&ls, &rs);
}

/* A RIP: line cut short (the fuzz target's find): no read past its end, no fault location. */
static void test_rip_line_cut_short(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("BUG: kernel NULL pointer dereference, address: 0000000000000014\nRIP: 0", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n)
		CHECK(!rs.v[0].has_where);
	done(&ls, &rs);
}

/* A module init function's oops: its frame is a bare "? 0xffffffffc0..." (init memory freed),
 * and the trace goes on past it (seen in the kernel lab, Debian's 6.1). */
static void test_bare_unreliable_address_frame(void)
{
	struct oops_lines ls;
	struct oops_reports rs;
	parse("BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	      "Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
	      "CPU: 0 PID: 121 Comm: insmod Tainted: G           OE      6.1.0-57-amd64 #1  Debian 6.1.192-3\n"
	      "RIP: 0010:my_oops_init+0x1c/0x1000 [oops]\n"
	      "Code: Unable to access opcode bytes at 0xffffffffc05eeff2.\n"
	      "Call Trace:\n"
	      " <TASK>\n"
	      " ? 0xffffffffc05ef000\n"
	      " do_one_initcall+0x59/0x220\n"
	      " do_init_module+0x4a/0x1f0\n"
	      " </TASK>\n", &ls, &rs);
	CHECK_INT(rs.n, 1);
	if (rs.n && rs.v[0].nstacks) {
		const struct oops_stack *st = &rs.v[0].stacks[0];
		CHECK_INT(st->nframes, 3);
		if (st->nframes == 3) {
			CHECK(!st->frames[0].reliable && st->frames[0].sym.addr == 0xffffffffc05ef000ull);
			CHECK_STR(st->frames[1].sym.function, "do_one_initcall");
		}
		CHECK(!rs.v[0].has_code);
	} else {
		CHECK(rs.n && rs.v[0].nstacks);
	}
	done(&ls, &rs);
}

TK_MAIN(TK_CASE(test_bug_with_612_oops_line), TK_CASE(test_kcsan_data_race),
	TK_CASE(test_kfence_use_after_free), TK_CASE(test_kmsan_uninit_value),
	TK_CASE(test_memory_leak), TK_CASE(test_warning_then_panic), TK_CASE(test_not_reports),
	TK_CASE(test_rust_panic), TK_CASE(test_rip_line_cut_short),
	TK_CASE(test_bare_unreliable_address_frame))

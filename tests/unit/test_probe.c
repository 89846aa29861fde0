/*
 * Unit tests of the probe grammar (every form, every error with its column),
 * the translation to uprobe_events text, the fetch-arg evaluator on a fake
 * memory, and ELF resolution on the bundled probed program (argv[1]).
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "probe/elfsym.h"
#include "probe/hitline.h"
#include "probe/kexplain.h"
#include "probe/probe_def.h"
#include "probe/translate.h"
#include "tk_test.h"
#include "util/strbuf.h"

static const char *probed_path;

/* ---- grammar: accepted forms, shown through the translation of a fake-resolved def ---- */

static void resolve_fake(struct probe_def *d)
{
	d->resolved = true;
	d->vaddr = 0x1130;
	d->file_offset = 0x1130;
	for (size_t i = 0; i < d->nargs; i++)
		for (struct pd_fetch *f = d->args[i].fetch; f; f = f->child)
			if (f->op == PD_F_SYM) {
				f->addr = 0x4010 + (uint64_t)f->offs;
				f->resolved = true;
			}
}

/* The translation of spec (parsed, with a fake resolution), or the error "COL: MSG". */
static const char *xlate(const char *spec)
{
	static char out[1024];
	struct probe_def d;
	struct pd_error e;
	struct strbuf sb = STRBUF_INIT;
	char err[256];
	if (pd_parse(spec, &d, &e) < 0) {
		snprintf(out, sizeof(out), "%d: %s", e.col, e.msg);
		return out;
	}
	resolve_fake(&d);
	if (pd_translate(&d, d.group, d.event, &sb, err, sizeof(err)) < 0)
		snprintf(out, sizeof(out), "translate: %s", err);
	else
		snprintf(out, sizeof(out), "%s", sb_str(&sb));
	sb_free(&sb);
	pd_free(&d);
	return out;
}

static void test_forms_translate(void)
{
	static const struct { const char *spec, *want; } t[] = {
		{ "p /bin/x:main", "p:uprobes/main /bin/x:0x1130" },
		{ "p:g/e /bin/x:main+4", "p:g/e /bin/x:0x1130" },
		{ "p:e /bin/x:0x1130", "p:uprobes/e /bin/x:0x1130" },
		{ "p:g/ /bin/x:main", "p:g/main /bin/x:0x1130" },
		{ "r /bin/x:main", "r:uprobes/main__return /bin/x:0x1130" },
		{ "r:g/e /bin/x:main v=$retval:s32", "r:g/e /bin/x:0x1130 v=$retval:s32" },
		{ "p:g/e /bin/x:main %di", "p:g/e /bin/x:0x1130 arg1=%di:x64" },
		{ "p:g/e /bin/x:main a=%r15:u8 b=%ip:x16 c=%flags:s64",
		  "p:g/e /bin/x:0x1130 a=%r15:u8 b=%ip:x16 c=%flags:s64" },
		{ "p:g/e /bin/x:main s=%di:string", "p:g/e /bin/x:0x1130 s=+0(%di):string" },
		{ "p:g/e /bin/x:main s=%di:ustring", "p:g/e /bin/x:0x1130 s=+0(%di):ustring" },
		{ "p:g/e /bin/x:main s=+8(%di):string", "p:g/e /bin/x:0x1130 s=+8(%di):string" },
		{ "p:g/e /bin/x:main a=$arg1 b=$arg6:u32 c=$arg7:s64 d=$arg9",
		  "p:g/e /bin/x:0x1130 a=%di:x64 b=%r9:u32 c=+8(%sp):s64 d=+24(%sp):x64" },
		{ "p:g/e /bin/x:main a=$stack b=$stack3:u64 c=$comm",
		  "p:g/e /bin/x:0x1130 a=$stack:x64 b=$stack3:u64 c=$comm:string" },
		{ "p:g/e /bin/x:main a=@0x601040:u32 b=@+0x2000:u8", "p:g/e /bin/x:0x1130 a=@0x601040:u32 b=@+0x2000:u8" },
		{ "p:g/e /bin/x:main a=@counter:s64 b=@banner+2:string c=@banner-1:char",
		  "p:g/e /bin/x:0x1130 a=@+0x4010:s64 b=@+0x4012:string c=@+0x400f:char" },
		{ "p:g/e /bin/x:main a=-8(+16(%sp)):u64 b=+u4(%di):u32",
		  "p:g/e /bin/x:0x1130 a=-8(+16(%sp)):u64 b=+4(%di):u32" },
		{ "p:g/e /bin/x:main a=\\42:u8 b=\\-1:s8", "p:g/e /bin/x:0x1130 a=\\0x2a:u8 b=\\0xffffffffffffffff:s8" },
		{ "p:g/e /bin/x:main f=+4(%di):b4@4/32 v=+16(%di):s16[4] c=+8(%di):char[3]",
		  "p:g/e /bin/x:0x1130 f=+4(%di):b4@4/32 v=+16(%di):s16[4] c=+8(%di):char[3]" },
		{ "p:g/e /bin/x:main a=%ip:symbol", "p:g/e /bin/x:0x1130 a=%ip:x64" },
		{ "p:g/e vfs_read a=%ip:symbol b=+u0(%si):u8", "p:g/e vfs_read a=%ip:symbol b=+u0(%si):u8" },
		{ "p:g/e ext4:ext4_file_open+16", "p:g/e ext4:ext4_file_open+16" },
		{ "p:g/e 0xffffffff81000000", "p:g/e 0xffffffff81000000" },
		{ "r64:g/e vfs_read $retval", "r64:g/e vfs_read arg1=$retval:x64" },
		{ "p:g/e vfs_read%return r=$retval:s64", "r:g/e vfs_read r=$retval:s64" },
		{ "p /bin/x:main%return", "r:uprobes/main__return /bin/x:0x1130" },
		{ "  p:g/e   /bin/x:main   a=%ax  ", "p:g/e /bin/x:0x1130 a=%ax:x64" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_STR(xlate(t[i].spec), t[i].want);
}

static void test_errors_have_columns(void)
{
	static const struct { const char *spec, *want; } t[] = {
		{ "", "1: empty probe definition (p:GROUP/EVENT PATH:SYMBOL ARGS...)" },
		{ "x /bin/x:main", "1: a probe starts with 'p' (entry) or 'r' (return), not 'x'" },
		{ "p5 /bin/x:main", "2: MAXACTIVE is for return probes only (r5)" },
		{ "r0 f", "2: MAXACTIVE must be a number from 1 to 4096" },
		{ "pq /bin/x:main", "2: expected ':' or a space after 'p', got 'q'" },
		{ "p:9g/e /bin/x:main", "3: group name must start with a letter or '_'" },
		{ "p:g/e-1 /bin/x:main", "6: bad character '-' in event name (letters, digits, '_')" },
		{ "p:g/e", "6: missing probe place (PATH:SYMBOL[+OFFS], PATH:OFFSET, or SYMBOL)" },
		{ "p /bin/x:", "10: missing symbol or offset after PATH:" },
		{ "p /bin/x:main+zz", "15: bad offset 'zz' after '+' (a number such as 0x10)" },
		{ "p /bin/x:0x12g", "10: bad offset '0x12g' (a number such as 0x1139)" },
		{ "r /bin/x:main+4", "15: a return probe goes on a function's entry (+0), not +4" },
		{ "p vfs_read+4%return", "12: a return probe goes on a function's entry (+0), not +4" },
		{ "p /bin/x", "3: '/bin/x' looks like a path: a user probe is PATH:SYMBOL or PATH:OFFSET" },
		{ "p /bin/x:%prov", "10: a USDT place is PATH:%PROVIDER:NAME" },
		{ "p /bin/x:main a=%rax", "17: unknown register '%rax' (did you mean %ax?)" },
		{ "p /bin/x:main a=%di:u9", "21: unknown type 'u9' (u8..u64, s8..s64, x8..x64, char, string, "
					   "ustring, symbol, b<W>@<O>/<S>, TYPE[N])" },
		{ "p /bin/x:main a=$retval", "17: $retval is only for return probes (r:)" },
		{ "r /bin/x:main a=$arg1", "17: $arg1 is gone at return: fetch it with an entry probe" },
		{ "p /bin/x:main a=$arg0", "21: bad argument number '0' ($argN, N from 1)" },
		{ "p /bin/x:main a=$stackx", "23: bad stack index 'x' ($stackN, N from 0 to 1024)" },
		{ "p /bin/x:main a=$foo", "17: unknown variable '$foo' ($retval, $comm, $stack, $stackN, $argN)" },
		{ "p /bin/x:main a=+8%di", "17: missing '(' in a dereference (+OFFS(FETCHARG))" },
		{ "p /bin/x:main a=+8(%di", "23: missing ')' closing the dereference at column 19" },
		{ "p /bin/x:main a=+q(%di)", "18: bad offset 'q' in a dereference (+OFFS(FETCHARG))" },
		{ "p /bin/x:main a=+0($comm)", "20: $comm cannot be dereferenced" },
		{ "p /bin/x:main a=@", "18: missing address after '@' (@ADDR, @SYMBOL, @+OFFSET)" },
		{ "p /bin/x:main a=@sym+x", "22: bad offset 'x' after the symbol" },
		{ "p /bin/x:main a=#1", "17: unknown fetch argument '#1' (%REG, @ADDR, @SYM, $stackN, $stack, "
				       "$retval, $comm, $argN, +|-[u]OFFS(FETCHARG), \\IMM)" },
		{ "p /bin/x:main a=%di:b9@0/12", "26: bitfield container must be 8, 16, 32 or 64 bits, not 12" },
		{ "p /bin/x:main a=%di:b9@0/8", "22: bitfield of 9 bits at bit 0 does not fit in 8 bits" },
		{ "p /bin/x:main a=%di:bx", "21: unknown type 'bx' (u8..u64, s8..s64, x8..x64, char, string, "
					   "ustring, symbol, b<W>@<O>/<S>, TYPE[N])" },
		{ "p /bin/x:main a=+0(%di):u8[65]", "28: array size must be 1 to 64" },
		{ "p /bin/x:main a=+0(%di):u8[2", "29: missing ']' closing the array size" },
		{ "p /bin/x:main a=%di:u8[2]", "17: an array needs a memory fetch (+OFFS(...), @ADDR, @SYM)" },
		{ "p /bin/x:main a=$comm:u32", "23: $comm is a string: use :string or no type" },
		{ "p /bin/x:main a=%di a=%si", "21: argument name 'a' used twice" },
		{ "p /bin/x:main =%di", "15: empty argument name before '='" },
		{ "p /bin/x:main a=%di:", "21: missing type after ':' (u8..u64, s8..s64, x8..x64, char, "
					 "string, ustring, symbol, b<W>@<O>/<S>, TYPE[N])" },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		CHECK_STR(xlate(t[i].spec), t[i].want);
}

/* Two C args whose default names meet: the second takes a suffix; names given stay checked. */
static void test_c_args_default_names_unique(void)
{
	struct probe_def d;
	struct pd_error e;
	CHECK_INT(pd_parse("./app:handle r->path r->next->path r->next->next->path", &d, &e), 0);
	CHECK_INT(d.nargs, 3);
	CHECK_STR(d.args[0].name, "path");
	CHECK_STR(d.args[1].name, "path_1");
	CHECK_STR(d.args[2].name, "path_2");
	pd_free(&d);
	CHECK_INT(pd_parse("./app:handle p=r->path p=r->next->path", &d, &e), -1);
	CHECK(strstr(e.msg, "argument name 'p' used twice") != NULL);
}

static void test_parsed_fields(void)
{
	struct probe_def d;
	struct pd_error e;
	CHECK_INT(pd_parse("r16:grp/ev mod:func ret=$retval:u32", &d, &e), 0);
	CHECK_INT(d.kind, PD_RETURN);
	CHECK_INT(d.target, PD_KERNEL);
	CHECK_INT(d.maxactive, 16);
	CHECK_STR(d.group, "grp");
	CHECK_STR(d.event, "ev");
	CHECK_STR(d.module, "mod");
	CHECK_STR(d.symbol, "func");
	CHECK_INT(d.nargs, 1);
	CHECK_INT(d.args[0].col, 21);
	pd_free(&d);
	CHECK_INT(pd_parse("p ./app:%prov:name", &d, &e), 0);
	CHECK_STR(d.path, "./app");
	CHECK_STR(d.usdt_provider, "prov");
	CHECK_STR(d.usdt_name, "name");
	pd_free(&d);
	CHECK_INT(pd_parse("p ./app:ns::Parser::parse(char*)+8", &d, &e), 0);
	CHECK_STR(d.symbol, "ns::Parser::parse(char*)");
	CHECK_INT(d.offset, 8);
	pd_free(&d);
}

/* ---- the evaluator on a fake memory ---- */

static uint8_t mem[256];
#define MEM_BASE 0x1000u

static int fake_read(void *opaque, uint64_t addr, void *buf, size_t len)
{
	(void)opaque;
	if (addr < MEM_BASE || len > sizeof(mem) || addr - MEM_BASE > sizeof(mem) - len)
		return -1;
	memcpy(buf, mem + (addr - MEM_BASE), len);
	return 0;
}

static int fake_sym(void *opaque, uint64_t addr, struct strbuf *out)
{
	(void)opaque;
	if (addr < 0x5000 || addr >= 0x5040)
		return -1;
	sb_printf(out, "func+0x%x/0x40", (unsigned)(addr - 0x5000));
	return 0;
}

static const char *eval(const char *spec, bool ret)
{
	static char out[1024];
	struct probe_def d;
	struct pd_error e;
	if (pd_parse(spec, &d, &e) < 0) {
		snprintf(out, sizeof(out), "%d: %s", e.col, e.msg);
		return out;
	}
	resolve_fake(&d);
	/* @sym resolves to 0x4010 (resolve_fake); with the bias it is read at 0x1010 */
	struct user_regs_struct regs = { 0 };
	regs.rdi = MEM_BASE;
	regs.rsi = (uint64_t)-5;
	regs.rsp = MEM_BASE + 0x80;
	regs.rip = 0x5004;
	regs.r8 = 0x5010;
	struct pd_ctx ctx = { .regs = &regs, .is_return = ret, .retval = 77, .func = 0x5000,
			      .ret_ip = 0x5123, .comm = "myapp", .load_bias = (uint64_t)-0x3000,
			      .read = fake_read, .symbolize = fake_sym };
	struct strbuf sb = STRBUF_INIT;
	pd_format_head(&d, &ctx, &sb);
	pd_format_args(&d, &ctx, &sb);
	snprintf(out, sizeof(out), "%s", sb_str(&sb));
	sb_free(&sb);
	pd_free(&d);
	return out;
}

static void test_evaluator(void)
{
	memset(mem, 0, sizeof(mem));
	memcpy(mem, "hello", 6);			/* 0x1000 */
	uint64_t p = MEM_BASE + 0x20;
	memcpy(mem + 8, &p, 8);				/* 0x1008: pointer to 0x1020 */
	memcpy(mem + 0x20, "\xa5\xff\x01\x02", 4);	/* 0x1020 */
	memcpy(mem + 0x10, "banner", 7);		/* 0x1010: @sym (0x4010 - 0x3000) */
	uint64_t w = 0x1122334455667788ull;
	memcpy(mem + 0x88, &w, 8);			/* $stack1 */
	uint64_t a7 = 7;
	memcpy(mem + 0x88, &a7, 8);			/* $arg7 == $stack1 at entry */
	memcpy(mem + 0xfc, "ab", 3);			/* ends 1 byte before the end of memory */

	CHECK_STR(eval("p /x:f s=+0(%di):string u=%si:u32 i=%si:s32 x=%si:x8 c=+1(%di):char", false),
		  "(0x5004) s=\"hello\" u=4294967291 i=-5 x=0xfb c='e'");
	CHECK_STR(eval("p /x:f s=%di:string p=+0(+8(%di)):u8 b=+0(+8(%di)):b4@4/8 a=+0(+8(%di)):u8[4]", false),
		  "(0x5004) s=\"hello\" p=165 b=10 a={165,255,1,2}");
	CHECK_STR(eval("p /x:f c=$comm a7=$arg7:u64 s1=$stack1:u64 sp=$stack im=\\9:s8", false),
		  "(0x5004) c=\"myapp\" a7=7 s1=7 sp=0x1080 im=9");
	CHECK_STR(eval("p /x:f g=@sym:string h=@sym+1:char m=@0x1000:string", false),
		  "(0x5004) g=\"banner\" h='a' m=\"hello\"");
	CHECK_STR(eval("p /x:f y=%ip:symbol z=%r8:symbol n=%di:symbol", false),
		  "(0x5004) y=func+0x4/0x40 z=func+0x10/0x40 n=0x1000");
	CHECK_STR(eval("p /x:f f=+0(%si):u64 s=+0(%si):string t=+0x100(%di):u8[2] e=+0xfc(%di):string", false),
		  "(0x5004) f=0 s=(fault) t={0,0} e=\"ab\"");
	CHECK_STR(eval("r /x:f r=$retval:s16", true), "(0x5123 <- 0x5000) r=77");
	CHECK_STR(eval("p /x:f neg=-8(+0x88(%di)):u8", false), "(0x5004) neg=0");
}

/* ---- ELF resolution on the bundled probed program ---- */

static void test_elf_resolution(void)
{
	char err[512], spec[1024];
	struct probe_def d;
	struct pd_error e;
	if (!probed_path) {
		fprintf(stderr, "no probed path given: ELF tests not run\n");
		tk_failures++;
		return;
	}
	struct es_file *f = es_open(probed_path, err, sizeof(err));
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK(es_is_dyn(f));
	const struct es_sym *s = es_lookup(f, "parse_line", err, sizeof(err));
	CHECK(s && s->func && s->size > 0);
	CHECK(es_lookup(f, "parse_lin", err, sizeof(err)) == NULL);
	CHECK(strstr(err, "(did you mean parse_line?)") != NULL);
	CHECK_INT(es_nusdt(f), 1);
	CHECK_STR(es_usdt(f, 0)->provider, "probed");
	CHECK(es_usdt(f, 0)->semaphore != 0);
	uint64_t off, back;
	CHECK_INT(es_vaddr_to_offset(f, s->value, &off), 0);
	CHECK_INT(es_offset_to_vaddr(f, off, &back), 0);
	CHECK(back == s->value);
	struct strbuf sb = STRBUF_INIT;
	CHECK_INT(es_symbolize(f, s->value + 1, &sb), 0);
	snprintf(spec, sizeof(spec), "parse_line+0x1/0x%llx", (unsigned long long)s->size);
	CHECK_STR(sb_str(&sb), spec);
	sb_free(&sb);
	es_close(f);

	snprintf(spec, sizeof(spec), "p %s:%%probed:tick", probed_path);
	CHECK_INT(pd_parse(spec, &d, &e), 0);
	CHECK_INT(pd_resolve(&d, err, sizeof(err)), 0);
	CHECK_INT(d.nargs, 2);
	CHECK(d.ref_ctr_offset != 0);
	CHECK(d.nargs == 2 && d.args[0].type.kind == PD_T_S && d.args[0].type.size == 4);
	pd_free(&d);

	snprintf(spec, sizeof(spec), "p %s:sum8 b=@probed_banner:string", probed_path);
	CHECK_INT(pd_parse(spec, &d, &e), 0);
	CHECK_INT(pd_resolve(&d, err, sizeof(err)), 0);
	CHECK(d.args[0].fetch->resolved && d.args[0].fetch->addr > d.vaddr);
	pd_free(&d);

	snprintf(spec, sizeof(spec), "p %s:probed_counter", probed_path);
	CHECK_INT(pd_parse(spec, &d, &e), 0);
	CHECK_INT(pd_resolve(&d, err, sizeof(err)), -1);
	CHECK(strstr(err, "is data, not a function") != NULL);
	pd_free(&d);
}

/* The kernel's "<...>-TID" (no name in saved_cmdlines yet) gets the name, in the same columns. */
static void test_unknown_comm_named(void)
{
	const char *line = "           <...>-4242    [001] d..1.   12.345678: parse: (0x5555)";
	struct strbuf sb = STRBUF_INIT;
	CHECK_INT(ph_unknown_comm_tid(line), 4242);
	CHECK_INT(ph_unknown_comm_tid("          probed-4242    [001] d..1.   1.0: parse: (0x1)"), 0);
	ph_set_comm(line, "probed", &sb);
	CHECK_STR(sb_str(&sb), "          probed-4242    [001] d..1.   12.345678: parse: (0x5555)");
	CHECK_INT(ph_line_pid(sb_str(&sb)), 4242);
	sb_reset(&sb);
	ph_set_comm(line, "a-name-of-15chr", &sb);
	CHECK_STR(sb_str(&sb), " a-name-of-15chr-4242    [001] d..1.   12.345678: parse: (0x5555)");
	sb_free(&sb);
}

/* A kernel probe's refusal explained from the running kernel's /proc/kallsyms (no kprobes needed). */
static void test_kernel_refusal_explained(void)
{
	struct probe_def d;
	struct pd_error e;
	struct strbuf why = STRBUF_INIT;
	if (access("/proc/kallsyms", R_OK) < 0) {
		fprintf(stderr, "no /proc/kallsyms here: kernel refusals not checked\n");
		return;
	}
	CHECK_INT(pd_parse("p do_sys_openat3", &d, &e), 0);
	pk_explain_kernel(&d, &why);
	CHECK(strstr(sb_str(&why), ": this kernel has no function do_sys_openat3 (did you mean "
			 "do_sys_openat2") == sb_str(&why));
	pd_free(&d);
	sb_reset(&why);
	CHECK_INT(pd_parse("p ext4:do_sys_openat2", &d, &e), 0);	/* not in that module */
	pk_explain_kernel(&d, &why);
	CHECK(strstr(sb_str(&why), ": this kernel has no function ext4:do_sys_openat2") != NULL);
	pd_free(&d);
	sb_reset(&why);
	CHECK_INT(pd_parse("p do_sys_openat2", &d, &e), 0);	/* there: at most the blacklist */
	pk_explain_kernel(&d, &why);
	CHECK(!strstr(sb_str(&why), "no function") && !strstr(sb_str(&why), "is data"));
	pd_free(&d);
	sb_free(&why);
}

int main(int argc, char **argv)
{
	probed_path = argc > 1 ? argv[1] : NULL;
	static const struct tk_case cases[] = {
		TK_CASE(test_forms_translate), TK_CASE(test_errors_have_columns),
		TK_CASE(test_parsed_fields), TK_CASE(test_c_args_default_names_unique),
		TK_CASE(test_evaluator), TK_CASE(test_elf_resolution),
		TK_CASE(test_unknown_comm_named),
		TK_CASE(test_kernel_refusal_explained),
	};
	return tk_run(cases, sizeof(cases) / sizeof(cases[0]));
}

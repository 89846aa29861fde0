/* -e expressions: what each form selects, and what each mistake says. */
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>

#include "syscalls/filter.h"
#include "tk_test.h"

static char err[512];

/* A filter after the given -e arguments; a parse error fails the test. */
static struct sc_filter *filter_of(const char *e1, const char *e2)
{
	struct sc_filter *f = sc_filter_new();

	if (e1 && sc_filter_parse(f, e1, err, sizeof(err)) != 0)
		fprintf(stderr, "%s: -e %s: %s\n", tk_current, e1, err), tk_failures++;
	if (e2 && sc_filter_parse(f, e2, err, sizeof(err)) != 0)
		fprintf(stderr, "%s: -e %s: %s\n", tk_current, e2, err), tk_failures++;
	return f;
}

/* The message for a rejected expression, or "(accepted)". */
static const char *error_of(const char *expr)
{
	struct sc_filter *f = sc_filter_new();
	int rc = sc_filter_parse(f, expr, err, sizeof(err));

	sc_filter_free(f);
	return rc == 0 ? "(accepted)" : err;
}

static void test_no_expression_traces_every_syscall_even_unknown_numbers(void)
{
	struct sc_filter *f = sc_filter_new();

	CHECK(sc_filter_traced(f, SYS_read));
	CHECK(sc_filter_traced(f, 1000));
	CHECK(sc_filter_traces_all(f));
	sc_filter_free(f);
}

static void test_trace_list_selects_only_named_syscalls(void)
{
	struct sc_filter *f = filter_of("trace=open,close", NULL);

	CHECK(sc_filter_traced(f, SYS_open));
	CHECK(sc_filter_traced(f, SYS_close));
	CHECK(!sc_filter_traced(f, SYS_read));
	/* a number no syscall has is shown whatever trace= says, as strace shows syscall_0x3e8() */
	CHECK(sc_filter_traced(f, 1000));
	CHECK(!sc_filter_traces_all(f));
	sc_filter_free(f);
}

static void test_bare_list_means_trace(void)
{
	struct sc_filter *f = filter_of("openat", NULL);

	CHECK(sc_filter_traced(f, SYS_openat));
	CHECK(!sc_filter_traced(f, SYS_open));
	sc_filter_free(f);
}

static void test_short_qualifier_t_is_trace(void)
{
	struct sc_filter *f = filter_of("t=close", NULL);

	CHECK(sc_filter_traced(f, SYS_close));
	CHECK(!sc_filter_traced(f, SYS_open));
	sc_filter_free(f);
}

static void test_bang_negates_whole_list_and_twice_cancels(void)
{
	struct sc_filter *f = filter_of("trace=!open,close", NULL);
	struct sc_filter *g = filter_of("trace=!!open", NULL);

	CHECK(!sc_filter_traced(f, SYS_open));
	CHECK(!sc_filter_traced(f, SYS_close));
	CHECK(sc_filter_traced(f, SYS_read));
	CHECK(sc_filter_traced(f, 1000));
	CHECK(sc_filter_traced(g, SYS_open));
	CHECK(!sc_filter_traced(g, SYS_read));
	sc_filter_free(f);
	sc_filter_free(g);
}

static void test_all_and_none(void)
{
	struct sc_filter *f = filter_of("trace=none", NULL);
	struct sc_filter *g = filter_of("trace=!none", NULL);

	CHECK(!sc_filter_traced(f, SYS_read));
	CHECK(sc_filter_traced(g, SYS_read));
	CHECK(sc_filter_traces_all(g));
	sc_filter_free(f);
	sc_filter_free(g);
}

static void test_later_trace_replaces_earlier(void)
{
	struct sc_filter *f = filter_of("trace=open", "trace=close");

	CHECK(!sc_filter_traced(f, SYS_open));
	CHECK(sc_filter_traced(f, SYS_close));
	sc_filter_free(f);
}

static void test_file_class_has_path_syscalls_only(void)
{
	struct sc_filter *f = filter_of("trace=%file", NULL);

	CHECK(sc_filter_traced(f, SYS_openat));
	CHECK(sc_filter_traced(f, SYS_execve));
	CHECK(sc_filter_traced(f, SYS_stat));
	CHECK(!sc_filter_traced(f, SYS_read));
	CHECK(!sc_filter_traced(f, SYS_fstat));
	sc_filter_free(f);
}

static void test_class_without_percent_and_in_any_case(void)
{
	struct sc_filter *f = filter_of("trace=network", NULL);
	struct sc_filter *g = filter_of("trace=%NET", NULL);

	CHECK(sc_filter_traced(f, SYS_socket));
	CHECK(!sc_filter_traced(f, SYS_read));
	CHECK(sc_filter_traced(g, SYS_connect));
	sc_filter_free(f);
	sc_filter_free(g);
}

static void test_creds_has_no_spelling_without_percent(void)
{
	CHECK_STR(error_of("trace=%creds"), "(accepted)");
	CHECK(strstr(error_of("trace=creds"), "invalid system call 'creds'") != NULL);
}

static void test_double_percent_stat_is_every_stat_variant(void)
{
	struct sc_filter *f = filter_of("trace=%%stat", NULL);

	CHECK(sc_filter_traced(f, SYS_stat));
	CHECK(sc_filter_traced(f, SYS_lstat));
	CHECK(sc_filter_traced(f, SYS_fstat));
	CHECK(sc_filter_traced(f, SYS_newfstatat));
	CHECK(sc_filter_traced(f, SYS_statx));
	CHECK(!sc_filter_traced(f, SYS_statfs));
	sc_filter_free(f);
}

static void test_double_percent_statfs_includes_ustat(void)
{
	struct sc_filter *f = filter_of("trace=%%statfs", NULL);

	CHECK(sc_filter_traced(f, SYS_statfs));
	CHECK(sc_filter_traced(f, SYS_fstatfs));
	CHECK(sc_filter_traced(f, SYS_ustat));
	CHECK(!sc_filter_traced(f, SYS_stat));
	sc_filter_free(f);
}

static void test_regex_matches_names_anywhere_unless_anchored(void)
{
	struct sc_filter *f = filter_of("trace=/^open", NULL);
	struct sc_filter *g = filter_of("trace=/stat$", NULL);

	CHECK(sc_filter_traced(f, SYS_open));
	CHECK(sc_filter_traced(f, SYS_openat));
	CHECK(sc_filter_traced(f, SYS_open_by_handle_at));
	CHECK(!sc_filter_traced(f, SYS_mq_open));
	CHECK(sc_filter_traced(g, SYS_fstat));
	CHECK(!sc_filter_traced(g, SYS_newfstatat));
	CHECK(!sc_filter_traced(g, SYS_statfs));
	sc_filter_free(f);
	sc_filter_free(g);
}

static void test_numbers_name_syscalls(void)
{
	struct sc_filter *f = filter_of("trace=0,3", NULL);

	CHECK(sc_filter_traced(f, SYS_read));
	CHECK(sc_filter_traced(f, SYS_close));
	CHECK(!sc_filter_traced(f, SYS_write));
	sc_filter_free(f);
}

static void test_question_mark_tolerates_unknown_names(void)
{
	struct sc_filter *f = filter_of("trace=?nosuchcall,?/^zzz,close", NULL);

	CHECK(sc_filter_traced(f, SYS_close));
	CHECK(!sc_filter_traced(f, SYS_open));
	sc_filter_free(f);
}

static void test_personality_64_is_ours_and_others_are_refused(void)
{
	struct sc_filter *f = filter_of("trace=open@64,?close@32", NULL);

	CHECK(sc_filter_traced(f, SYS_open));
	CHECK(!sc_filter_traced(f, SYS_close));
	CHECK_STR(error_of("trace=open@32"), "system call 'open@32' of another personality in "
		  "-e trace=open@32 (tracekit traces x86_64 (@64) system calls only)");
	CHECK_STR(error_of("trace=open@99"), "unknown personality '99' in 'open@99' in "
		  "-e trace=open@99 (personalities are @64, @32 and @x32)");
	sc_filter_free(f);
}

static void test_misspelt_syscall_names_the_input_and_a_guess(void)
{
	CHECK_STR(error_of("trace=opn"), "invalid system call 'opn' in -e trace=opn "
		  "(did you mean 'open'? names are as in man 2 syscalls)");
	CHECK_STR(error_of("xyzzyplugh"), "invalid system call 'xyzzyplugh' in -e xyzzyplugh "
		  "(names are as in man 2 syscalls; a leading '?' ignores unknown names)");
}

static void test_unknown_class_lists_the_classes(void)
{
	CHECK_STR(error_of("trace=%files"), "unknown class '%files' in -e trace=%files "
		  "(classes: %file %desc %process %network %signal %ipc %memory %creds %clock "
		  "%stat %lstat %fstat %%stat %statfs %fstatfs %%statfs %pure)");
}

static void test_bad_lists_are_refused(void)
{
	CHECK_STR(error_of("trace="), "empty system call list in -e trace= "
		  "(name syscalls or %classes, or say 'none')");
	CHECK(strncmp(error_of("trace=/^(open"), "invalid regular expression '^(open': ", 37) == 0);
	CHECK(strstr(err, " in -e trace=/^(open (a POSIX extended regular expression after '/')"));
	CHECK(strstr(error_of("trace=99999"), "invalid system call number '99999'") != NULL);
	CHECK(strstr(error_of("trace=/^zzz"), "no system call matches '^zzz'") != NULL);
	CHECK(strstr(error_of("trace=open,none"), "invalid system call 'none'") != NULL);
}

static void test_unknown_qualifier_is_an_error_not_a_list(void)
{
	CHECK_STR(error_of("tarce=open"), "unknown qualifier 'tarce' in -e tarce=open "
		  "(qualifiers: trace abbrev verbose raw signal status read write inject fault)");
	CHECK_STR(error_of("quiet=attach"), "strace's qualifier 'quiet' is not supported in "
		  "-e quiet=attach (tracekit does not implement it yet)");
}

static void test_failed_parse_leaves_filter_unchanged(void)
{
	struct sc_filter *f = filter_of("trace=open", NULL);

	CHECK(sc_filter_parse(f, "trace=close,nosuchcall", err, sizeof(err)) == -1);
	CHECK(sc_filter_traced(f, SYS_open));
	CHECK(!sc_filter_traced(f, SYS_close));
	CHECK(sc_filter_parse(f, "inject=close:error=ENOENT:when=0", err, sizeof(err)) == -1);
	CHECK(!sc_filter_injects(f, SYS_close));
	sc_filter_free(f);
}

static void test_abbrev_verbose_raw_sets_and_their_defaults(void)
{
	struct sc_filter *f = sc_filter_new();

	CHECK(sc_filter_in(f, SC_QUAL_ABBREV, SYS_read));
	CHECK(sc_filter_in(f, SC_QUAL_VERBOSE, SYS_read));
	CHECK(!sc_filter_in(f, SC_QUAL_RAW, SYS_read));
	CHECK(sc_filter_parse(f, "raw=read", err, sizeof(err)) == 0);
	CHECK(sc_filter_parse(f, "v=none", err, sizeof(err)) == 0);
	CHECK(sc_filter_in(f, SC_QUAL_RAW, SYS_read));
	CHECK(!sc_filter_in(f, SC_QUAL_RAW, SYS_write));
	CHECK(!sc_filter_in(f, SC_QUAL_VERBOSE, SYS_read));
	CHECK(sc_filter_traced(f, SYS_write));
	sc_filter_free(f);
}

static void test_signal_list_takes_names_with_or_without_sig_and_numbers(void)
{
	struct sc_filter *f = filter_of("signal=SIGINT,term,9", NULL);
	struct sc_filter *g = filter_of("signals=!SIGCHLD", NULL);
	struct sc_filter *d = sc_filter_new();

	CHECK(sc_filter_signal(f, SIGINT));
	CHECK(sc_filter_signal(f, SIGTERM));
	CHECK(sc_filter_signal(f, SIGKILL));
	CHECK(!sc_filter_signal(f, SIGCHLD));
	CHECK(!sc_filter_signal(g, SIGCHLD));
	CHECK(sc_filter_signal(g, SIGSEGV));
	CHECK(sc_filter_signal(d, SIGCHLD));
	CHECK_STR(error_of("signal=SIGFOO"), "invalid signal 'SIGFOO' in -e signal=SIGFOO "
		  "(a name such as SIGINT or INT, or a number)");
	sc_filter_free(f);
	sc_filter_free(g);
	sc_filter_free(d);
}

static void test_status_selects_by_outcome(void)
{
	struct sc_filter *f = filter_of("status=failed,unfinished", NULL);
	struct sc_filter *d = sc_filter_new();

	CHECK(sc_filter_status(f, -ENOENT, true));
	CHECK(!sc_filter_status(f, 3, true));
	CHECK(sc_filter_status(f, 0, false));
	/* a large "negative" value such as an mmap address is a success */
	CHECK(!sc_filter_status(f, -4096, true));
	CHECK(!sc_filter_status_kind(f, SC_STATUS_DETACHED));
	CHECK(!sc_filter_status_all(f));
	CHECK(sc_filter_status_all(d));
	CHECK_STR(error_of("status=ok"), "invalid status 'ok' in -e status=ok "
		  "(statuses: successful failed unfinished unavailable detached)");
	sc_filter_free(f);
	sc_filter_free(d);
}

static void test_read_and_write_name_descriptors_to_dump(void)
{
	struct sc_filter *f = filter_of("read=3,5", "w=1");

	CHECK(sc_filter_dump_fd(f, false, 3));
	CHECK(!sc_filter_dump_fd(f, false, 4));
	CHECK(sc_filter_dump_fd(f, true, 1));
	CHECK(!sc_filter_dump_fd(f, true, 3));
	sc_filter_free(f);
}

static void test_inject_error_applies_to_every_call_by_default(void)
{
	struct sc_filter *f = filter_of("inject=openat:error=ENOENT", NULL);

	for (int i = 0; i < 3; i++) {
		const struct sc_inject *in = sc_filter_inject(f, SYS_openat);

		CHECK(in && in->error == ENOENT && !in->has_retval && in->syscall == -1);
	}
	CHECK(sc_filter_inject(f, SYS_open) == NULL);
	sc_filter_free(f);
}

static void test_inject_accepts_error_numbers_retval_signal_and_delays(void)
{
	struct sc_filter *f = filter_of("inject=read:error=13",
					"inject=write:retval=0x10:signal=USR1");
	struct sc_filter *g = filter_of("inject=close:delay_enter=2ms:delay_exit=1.5", NULL);
	const struct sc_inject *in;

	in = sc_filter_inject(f, SYS_read);
	CHECK(in && in->error == 13);
	in = sc_filter_inject(f, SYS_write);
	CHECK(in && in->has_retval && in->retval == 16 && in->signal == SIGUSR1 && !in->error);
	in = sc_filter_inject(g, SYS_close);
	CHECK(in && in->delay_enter_us == 2000 && in->delay_exit_us == 2);
	sc_filter_free(f);
	sc_filter_free(g);
}

static void test_delay_rounds_up_to_a_microsecond(void)
{
	struct sc_filter *f = filter_of("inject=close:delay_enter=10ns:delay_exit=1s", NULL);
	const struct sc_inject *in = sc_filter_inject(f, SYS_close);

	CHECK(in && in->delay_enter_us == 1 && in->delay_exit_us == 1000000);
	sc_filter_free(f);
}

/* Which of invocations 1..n the rule picks, as a string of 0 and 1. */
static const char *picks(const char *expr, int n)
{
	static char s[32];
	struct sc_filter *f = filter_of(expr, NULL);

	for (int i = 0; i < n; i++)
		s[i] = sc_filter_inject(f, SYS_chdir) ? '1' : '0';
	s[n] = '\0';
	sc_filter_free(f);
	return s;
}

static void test_when_first_picks_that_invocation_only(void)
{
	CHECK_STR(picks("inject=chdir:error=EIO:when=3", 8), "00100000");
}

static void test_when_first_plus_picks_it_and_all_after(void)
{
	CHECK_STR(picks("inject=chdir:error=EIO:when=3+", 8), "00111111");
}

static void test_when_first_plus_step(void)
{
	CHECK_STR(picks("inject=chdir:error=EIO:when=2+3", 10), "0100100100");
}

static void test_when_range_is_inclusive(void)
{
	CHECK_STR(picks("inject=chdir:error=EIO:when=2..4", 8), "01110000");
	CHECK_STR(picks("inject=chdir:error=EIO:when=2..4+", 8), "01110000");
}

static void test_when_range_with_step(void)
{
	CHECK_STR(picks("inject=chdir:error=EIO:when=2..7+2", 10), "0101010000");
}

static void test_last_when_wins(void)
{
	CHECK_STR(picks("inject=chdir:when=1:error=EIO:when=2", 4), "0100");
}

static void test_invalid_when_is_refused(void)
{
	static const char *const bad[] = {
		"when=0", "when=3..2", "when=1..65535", "when=5+0", "when=1.2", "when=x",
		"when=65536", "when=2..",
	};
	char expr[64];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(expr, sizeof(expr), "inject=chdir:error=EIO:%s", bad[i]);
		CHECK(strstr(error_of(expr), "invalid when=") != NULL);
	}
	CHECK_STR(error_of("inject=chdir:error=EIO:when=1..65534+65535"), "(accepted)");
}

static void test_fault_defaults_to_enosys_and_takes_only_error_syscall_when(void)
{
	struct sc_filter *f = filter_of("fault=chdir:when=2", NULL);
	const struct sc_inject *in;

	CHECK(sc_filter_inject(f, SYS_chdir) == NULL);
	in = sc_filter_inject(f, SYS_chdir);
	CHECK(in && in->error == ENOSYS);
	CHECK_STR(error_of("fault=chdir:retval=0"), "unknown fault option 'retval=0' in "
		  "-e fault=chdir:retval=0 (fault= takes error=, syscall= and when=; inject= "
		  "takes more)");
	sc_filter_free(f);
}

static void test_inject_needs_an_action(void)
{
	CHECK_STR(error_of("inject=chdir:when=2"), "nothing to inject in -e inject=chdir:when=2 "
		  "(add :error=, :retval=, :signal=, :delay_enter= or :delay_exit=)");
	CHECK_STR(error_of("inject=:error=EIO"),
		  "no system calls to inject in -e inject=:error=EIO "
		  "(write SET:OPTION..., e.g. openat:error=ENOENT)");
}

static void test_i386_only_names_are_valid_and_select_nothing(void)
{
	struct sc_filter *f = filter_of("trace=mmap2,getuid32", NULL);

	CHECK(!sc_filter_traced(f, SYS_mmap));
	CHECK(!sc_filter_traced(f, SYS_getuid));
	sc_filter_free(f);
	CHECK(strstr(error_of("trace=mmap3"), "invalid system call 'mmap3'") != NULL);
}

static void test_error_and_retval_exclude_each_other(void)
{
	CHECK(strstr(error_of("inject=chdir:error=EIO:retval=1"), "second error= or retval="));
	CHECK(strstr(error_of("inject=chdir:signal=INT:signal=TERM"), "second signal=") != NULL);
	CHECK(strstr(error_of("inject=chdir:error=0"), "invalid error '0'") != NULL);
	CHECK(strstr(error_of("inject=chdir:error=4096"), "invalid error '4096'") != NULL);
	CHECK(strcmp(error_of("inject=chdir:poke_enter=@arg1=00"), "(accepted)") == 0);
	CHECK(strstr(error_of("inject=chdir:poke_enter=@arg1=0"), "invalid poke_enter") != NULL);
	CHECK(strstr(error_of("inject=chdir:poke_exit=@arg8=00"), "invalid poke_exit") != NULL);
	CHECK(strstr(error_of("inject=chdir:poke_enter=@arg1=00:poke_enter=@arg2=00"),
		     "invalid poke_enter") != NULL);
	CHECK(strstr(error_of("inject=chdir:delay_enter=-1"), "invalid delay") != NULL);
	/* one argument poked twice in one list: strace refuses it */
	CHECK(strstr(error_of("inject=chdir:poke_enter=@arg1=00,@arg1=00"), "invalid poke_enter") != NULL);
	CHECK(strcmp(error_of("inject=chdir:poke_enter=@arg1=00,@arg2=00"), "(accepted)") == 0);
}

static void test_injected_syscall_must_be_pure(void)
{
	struct sc_filter *f = filter_of("inject=chdir:error=EPERM:syscall=getpid", NULL);
	const struct sc_inject *in = sc_filter_inject(f, SYS_chdir);

	CHECK(in && in->syscall == SYS_getpid);
	CHECK_STR(error_of("inject=chdir:error=EPERM:syscall=unlink"), "syscall 'unlink' cannot be "
		  "injected in -e inject=chdir:error=EPERM:syscall=unlink "
		  "(only %pure syscalls such as getpid, which change nothing)");
	sc_filter_free(f);
}

static void test_inject_counts_each_syscall_on_its_own(void)
{
	struct sc_filter *f = filter_of("inject=open,close:error=EIO:when=2", NULL);

	CHECK(sc_filter_inject(f, SYS_open) == NULL);
	CHECK(sc_filter_inject(f, SYS_close) == NULL);
	CHECK(sc_filter_inject(f, SYS_open) != NULL);
	CHECK(sc_filter_inject(f, SYS_close) != NULL);
	sc_filter_free(f);
}

static void test_inject_counts_per_tracee_when_given_counts(void)
{
	struct sc_filter *f = filter_of("inject=chdir:error=EIO:when=2", NULL);
	struct sc_inject_counts *a = sc_inject_counts_new(), *b = sc_inject_counts_new();

	CHECK(sc_filter_inject_counted(f, a, SYS_chdir) == NULL);
	CHECK(sc_filter_inject_counted(f, b, SYS_chdir) == NULL);
	CHECK(sc_filter_inject_counted(f, a, SYS_chdir) != NULL);
	CHECK(sc_filter_inject_counted(f, b, SYS_chdir) != NULL);
	sc_inject_counts_free(a);
	sc_inject_counts_free(b);
	sc_filter_free(f);
}

static void test_later_inject_overrides_earlier_for_its_syscalls(void)
{
	struct sc_filter *f = filter_of("inject=open,close:error=EIO", "inject=close:error=EPERM");

	CHECK(sc_filter_inject(f, SYS_open)->error == EIO);
	CHECK(sc_filter_inject(f, SYS_close)->error == EPERM);
	sc_filter_free(f);
}

static void test_inject_takes_classes_and_negation(void)
{
	struct sc_filter *f = filter_of("inject=!%file:error=EIO", NULL);

	CHECK(sc_filter_injects(f, SYS_read));
	CHECK(!sc_filter_injects(f, SYS_openat));
	sc_filter_free(f);
}

static void test_traced_list_has_traced_and_injected_syscalls_in_order(void)
{
	struct sc_filter *f = filter_of("trace=close,open", "inject=read:error=EIO");
	int nrs[2];

	CHECK_INT(sc_filter_traced_list(f, nrs, 2), 3);
	CHECK_INT(nrs[0], SYS_read);
	CHECK_INT(nrs[1], SYS_open);
	sc_filter_free(f);
}

TK_MAIN(TK_CASE(test_no_expression_traces_every_syscall_even_unknown_numbers),
	TK_CASE(test_trace_list_selects_only_named_syscalls),
	TK_CASE(test_bare_list_means_trace),
	TK_CASE(test_short_qualifier_t_is_trace),
	TK_CASE(test_bang_negates_whole_list_and_twice_cancels),
	TK_CASE(test_all_and_none),
	TK_CASE(test_later_trace_replaces_earlier),
	TK_CASE(test_file_class_has_path_syscalls_only),
	TK_CASE(test_class_without_percent_and_in_any_case),
	TK_CASE(test_creds_has_no_spelling_without_percent),
	TK_CASE(test_double_percent_stat_is_every_stat_variant),
	TK_CASE(test_double_percent_statfs_includes_ustat),
	TK_CASE(test_regex_matches_names_anywhere_unless_anchored),
	TK_CASE(test_numbers_name_syscalls),
	TK_CASE(test_question_mark_tolerates_unknown_names),
	TK_CASE(test_personality_64_is_ours_and_others_are_refused),
	TK_CASE(test_misspelt_syscall_names_the_input_and_a_guess),
	TK_CASE(test_unknown_class_lists_the_classes),
	TK_CASE(test_bad_lists_are_refused),
	TK_CASE(test_unknown_qualifier_is_an_error_not_a_list),
	TK_CASE(test_failed_parse_leaves_filter_unchanged),
	TK_CASE(test_abbrev_verbose_raw_sets_and_their_defaults),
	TK_CASE(test_signal_list_takes_names_with_or_without_sig_and_numbers),
	TK_CASE(test_status_selects_by_outcome),
	TK_CASE(test_read_and_write_name_descriptors_to_dump),
	TK_CASE(test_inject_error_applies_to_every_call_by_default),
	TK_CASE(test_inject_accepts_error_numbers_retval_signal_and_delays),
	TK_CASE(test_delay_rounds_up_to_a_microsecond),
	TK_CASE(test_when_first_picks_that_invocation_only),
	TK_CASE(test_when_first_plus_picks_it_and_all_after),
	TK_CASE(test_when_first_plus_step),
	TK_CASE(test_when_range_is_inclusive),
	TK_CASE(test_when_range_with_step),
	TK_CASE(test_last_when_wins),
	TK_CASE(test_invalid_when_is_refused),
	TK_CASE(test_fault_defaults_to_enosys_and_takes_only_error_syscall_when),
	TK_CASE(test_inject_needs_an_action),
	TK_CASE(test_error_and_retval_exclude_each_other),
	TK_CASE(test_i386_only_names_are_valid_and_select_nothing),
	TK_CASE(test_injected_syscall_must_be_pure),
	TK_CASE(test_inject_counts_each_syscall_on_its_own),
	TK_CASE(test_inject_counts_per_tracee_when_given_counts),
	TK_CASE(test_later_inject_overrides_earlier_for_its_syscalls),
	TK_CASE(test_inject_takes_classes_and_negation),
	TK_CASE(test_traced_list_has_traced_and_injected_syscalls_in_order))

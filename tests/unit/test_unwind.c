/*
 * -k stack traces: a child of the test, stopped by us at a write(2) it makes
 * from known functions, is unwound; the frames must name those functions in
 * call order, in strace -k's line format, and match strace itself on echo.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/ptrace.h>

#include "tk_test.h"
#include "tracee/unwind.h"
#include "util/strbuf.h"

#define PROBE_FD 987	/* a write to this descriptor is the one we stop at */

__attribute__((noinline)) int tk_probe_write(void)
{
	long r = write(PROBE_FD, "x", 1);
	return r < 0 ? -errno : (int)r;	/* use the result: no tail call */
}

/* A C++ name for a C function: its frame must read tk::mangled(int), demangled as strace -k. */
int tk_probe_mangled(int k) __asm__("_ZN2tk7mangledEi");
__attribute__((noinline)) int tk_probe_mangled(int k)
{
	int r = tk_probe_write();
	return r + k - 1;
}

__attribute__((noinline)) int tk_probe_caller(void)
{
	int r = tk_probe_mangled(1);
	return r + 1;
}

static void child_run(void)
{
	ptrace(PTRACE_TRACEME, 0, 0, 0);
	raise(SIGSTOP);
	_exit(tk_probe_caller() == -EBADF + 1 ? 0 : 1);
}

/* Resume pid until it enters write(fd, ...); false if it ended first. */
static bool run_to_write(pid_t pid, int fd)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return false;
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL);
	for (;;) {
		if (ptrace(PTRACE_SYSCALL, pid, 0, 0) < 0)
			return false;
		if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			return false;
		if (WSTOPSIG(status) != (SIGTRAP | 0x80))
			continue;
		struct ptrace_syscall_info si;
		if (ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(si), &si) <= 0)
			return false;
		if (si.op == PTRACE_SYSCALL_INFO_ENTRY && si.entry.nr == SYS_write &&
		    (int)si.entry.args[0] == fd)
			return true;
	}
}

static void child_finish(pid_t pid)
{
	int status;

	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

/* The stack of a fresh child stopped in tk_probe_write's write. */
static int unwind_probe(struct tr_unwinder *u, struct strbuf *out, pid_t *pidp)
{
	pid_t pid = fork();

	if (pid == 0)
		child_run();
	if (!run_to_write(pid, PROBE_FD)) {
		child_finish(pid);
		return -2;
	}
	int n = tr_unwind(u, pid, pid, out);
	if (pidp)
		*pidp = pid;
	else
		child_finish(pid);
	return n;
}

/* Index of the first line at or after from containing needle, or -1. */
static int line_with(const char *text, const char *needle, int from)
{
	int line = 0;

	for (const char *p = text; *p; line++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		if (line >= from && memmem(p, len, needle, strlen(needle)))
			return line;
		p += len + (nl ? 1 : 0);
	}
	return -1;
}

static void test_frames_name_write_then_callers_then_main(void)
{
	struct tr_unwinder *u = tr_unwind_new();
	struct strbuf sb = STRBUF_INIT;
	int n = unwind_probe(u, &sb, NULL);

	CHECK(n >= 4);
	int w = line_with(sb_str(&sb), "libc.so.6(", 0);
	int p = line_with(sb_str(&sb), "(tk_probe_write+0x", 0);
	int k = line_with(sb_str(&sb), "(tk::mangled(int)+0x", 0);
	int c = line_with(sb_str(&sb), "(tk_probe_caller+0x", 0);
	int m = line_with(sb_str(&sb), "(main+0x", 0);
	CHECK_INT(w, 0);
	CHECK(line_with(sb_str(&sb), "write+0x", 0) == 0);
	CHECK(p > w);
	CHECK(k > p);
	CHECK(c > k);
	CHECK(m > c);
	if (tk_failures)
		fprintf(stderr, "%s", sb_str(&sb));
	sb_free(&sb);
	tr_unwind_free(u);
}

/* Where fn sits in its file: the offset strace prints in brackets. */
static uint64_t file_offset_of(const void *fn, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[4096 + 128];
	uint64_t at = (uintptr_t)fn, got = 0;

	while (f && fgets(line, sizeof(line), f)) {
		uint64_t start, end, off;
		int path_at = 0;
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64 " %*s %*s %n",
			   &start, &end, &off, &path_at) < 3 || at < start || at >= end)
			continue;
		got = at - start + off;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, len, "%s", line + path_at);
		break;
	}
	if (f)
		fclose(f);
	return got;
}

static void test_frame_line_is_file_symbol_offset_and_file_offset(void)
{
	struct tr_unwinder *u = tr_unwind_new();
	struct strbuf sb = STRBUF_INIT;
	char path[4096], want[4200];

	unwind_probe(u, &sb, NULL);
	uint64_t base = file_offset_of((const void *)tk_probe_write, path, sizeof(path));
	int p = line_with(sb_str(&sb), "(tk_probe_write+0x", 0);
	CHECK(p > 0);

	/* " > FILE(tk_probe_write+0xOFF) [0xBASE+OFF]": OFF is the return address's. */
	const char *line = sb_str(&sb);
	for (int i = 0; i < p; i++)
		line = strchr(line, '\n') + 1;
	unsigned long long off = 0;
	const char *plus = strstr(line, "+0x");
	CHECK(plus && sscanf(plus, "+0x%llx", &off) == 1);
	snprintf(want, sizeof(want), " > %s(tk_probe_write+0x%llx) [0x%llx]",
		 path, off, (unsigned long long)(base + off));
	CHECK(strncmp(line, want, strlen(want)) == 0 && line[strlen(want)] == '\n');
	if (tk_failures)
		fprintf(stderr, "got:  %.*s\nwant: %s\n", (int)strcspn(line, "\n"), line, want);
	sb_free(&sb);
	tr_unwind_free(u);
}

static void test_second_walk_of_same_stop_prints_the_same(void)
{
	struct tr_unwinder *u = tr_unwind_new();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	pid_t pid;

	int na = unwind_probe(u, &a, &pid);
	int nb = tr_unwind(u, pid, pid, &b);
	CHECK(na > 0);
	CHECK_INT(nb, na);
	CHECK_STR(sb_str(&b), sb_str(&a));
	child_finish(pid);
	sb_free(&a);
	sb_free(&b);
	tr_unwind_free(u);
}

static void test_walk_after_invalidate_prints_the_same(void)
{
	struct tr_unwinder *u = tr_unwind_new();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	pid_t pid;

	int na = unwind_probe(u, &a, &pid);
	tr_unwind_invalidate(u, pid);
	int nb = tr_unwind(u, pid, pid, &b);
	CHECK(na > 0);
	CHECK_INT(nb, na);
	CHECK_STR(sb_str(&b), sb_str(&a));
	child_finish(pid);
	sb_free(&a);
	sb_free(&b);
	tr_unwind_free(u);
}

static void test_gone_process_unwinds_to_error_and_nothing_printed(void)
{
	struct tr_unwinder *u = tr_unwind_new();
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	pid_t pid;

	unwind_probe(u, &a, &pid);
	child_finish(pid);
	tr_unwind_invalidate(u, pid);
	CHECK_INT(tr_unwind(u, pid, pid, &b), -1);
	CHECK_STR(sb_str(&b), "");
	sb_free(&a);
	sb_free(&b);
	tr_unwind_free(u);
}

/* strace -k's frames for echo's write, from its -o file. */
static bool strace_frames(const char *strace, struct strbuf *out)
{
	char cmd[512], line[4096];
	char tmp[] = "/tmp/tk-unwind-XXXXXX";
	int fd = mkstemp(tmp);

	if (fd < 0)
		return false;
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s -k -e trace=write -o %s /bin/echo hi >/dev/null 2>&1",
		 strace, tmp);
	bool ok = system(cmd) == 0;
	FILE *f = fopen(tmp, "r");
	while (ok && f && fgets(line, sizeof(line), f))
		if (!strncmp(line, " > ", 3))
			sb_add(out, line);
	if (f)
		fclose(f);
	unlink(tmp);
	return ok && out->len;
}

static void test_echo_stack_matches_strace_k(void)
{
	const char *strace = "/usr/bin/strace";
	struct strbuf ours = STRBUF_INIT, theirs = STRBUF_INIT;

	if (access(strace, X_OK) != 0 || !strace_frames(strace, &theirs)) {
		printf("%s: skipped (no working strace -k here)\n", tk_current);
		sb_free(&theirs);
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		if (!freopen("/dev/null", "w", stdout))
			_exit(126);
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		execl("/bin/echo", "echo", "hi", (char *)NULL);
		_exit(127);
	}
	struct tr_unwinder *u = tr_unwind_new();
	CHECK(run_to_write(pid, 1));
	CHECK(tr_unwind(u, pid, pid, &ours) > 0);
	CHECK_STR(sb_str(&ours), sb_str(&theirs));
	child_finish(pid);
	tr_unwind_free(u);
	sb_free(&ours);
	sb_free(&theirs);
}

TK_MAIN(TK_CASE(test_frames_name_write_then_callers_then_main),
	TK_CASE(test_frame_line_is_file_symbol_offset_and_file_offset),
	TK_CASE(test_second_walk_of_same_stop_prints_the_same),
	TK_CASE(test_walk_after_invalidate_prints_the_same),
	TK_CASE(test_gone_process_unwinds_to_error_and_nothing_printed),
	TK_CASE(test_echo_stack_matches_strace_k))

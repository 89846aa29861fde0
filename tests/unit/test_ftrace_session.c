/*
 * ftrace sessions against the running kernel: the instance's name and
 * removal, events, filters, pids, options, clock, buffer size, and reset
 * after a SIGKILL.  Every instance made here is named tracekit-<our pid or a
 * child's>-..., and main() checks that none is left and that the top-level
 * set_event is as it was.  Needs root; elsewhere it skips (exit 77) saying
 * why, except under CI=true.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "ftrace/events.h"
#include "ftrace/registry.h"
#include "ftrace/session.h"
#include "tk_test.h"

#define CHECK_PREFIX(got, want) CHECK(strncmp((got), (want), strlen(want)) == 0)

static char root[256];

static struct ft_session *new_session(void)
{
	char err[512] = "";
	struct ft_session *s = ft_session_new(err, sizeof(err));
	if (!s)
		fprintf(stderr, "%s: ft_session_new: %s\n", tk_current, err);
	return s;
}

/* A file of the instance, trailing newline dropped; "" if unreadable. */
static const char *inst_file(struct ft_session *s, const char *rel)
{
	static char buf[4096];
	size_t len;
	char *text = ft_read_file(s, rel, &len);
	snprintf(buf, sizeof(buf), "%.*s", text ? (int)len : 0, text ? text : "");
	buf[strcspn(buf, "\n")] = '\0';
	free(text);
	return buf;
}

static bool path_exists(const char *fmt, const char *arg)
{
	char path[512];
	struct stat st;
	snprintf(path, sizeof(path), fmt, arg);
	return stat(path, &st) == 0;
}

static bool instance_exists(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/instances/%s", root, name);
	return path_exists("%s", path);
}

static char *top_set_event(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/set_event", root);
	FILE *f = fopen(path, "re");
	if (!f)
		return strdup("(unreadable)");
	char *text = calloc(1, 1 << 16);
	size_t n = fread(text, 1, (1 << 16) - 1, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static void test_instance_named_after_pid_and_removed(void)
{
	char want[64];
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	char name[64];
	snprintf(name, sizeof(name), "%s", ft_instance_name(s));
	snprintf(want, sizeof(want), "tracekit-%d-", (int)getpid());
	CHECK(strncmp(name, want, strlen(want)) == 0);
	CHECK(instance_exists(name));
	CHECK(path_exists(FT_REGISTRY_DIR "/%s", name));
	CHECK_STR(ft_tracefs_dir(s), root);
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/instances/%s", root, name);
	CHECK_STR(ft_instance_dir(s), dir);
	CHECK(ft_cpu_count(s) >= 1);
	CHECK_INT(ft_cpu_count(s), sysconf(_SC_NPROCESSORS_CONF));
	ft_session_destroy(s);
	CHECK(!instance_exists(name));
	CHECK(!path_exists(FT_REGISTRY_DIR "/%s", name));
}

static void test_two_sessions_have_two_instances(void)
{
	struct ft_session *a = new_session(), *b = new_session();
	CHECK(a && b);
	if (a && b)
		CHECK(strcmp(ft_instance_name(a), ft_instance_name(b)) != 0);
	ft_session_destroy(a);
	ft_session_destroy(b);
	ft_session_destroy(NULL);
}

static void test_events_enabled_in_instance_not_at_top(void)
{
	char err[512] = "";
	char *top_before = top_set_event();
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_enable_events(s, "sched:sched_switch", err, sizeof(err)), 0);
	CHECK_INT(ft_enable_events(s, "sched:sched_wak*", err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "events/sched/sched_switch/enable"), "1");
	CHECK_STR(inst_file(s, "events/sched/sched_waking/enable"), "1");
	CHECK_STR(inst_file(s, "events/sched/sched_process_exit/enable"), "0");
	char *set = ft_read_file(s, "set_event", NULL);
	CHECK(set && strstr(set, "sched:sched_switch\n"));
	CHECK(set && strstr(set, "sched:sched_wakeup\n"));
	free(set);

	char **list;
	int n = ft_enabled_events(s, &list);
	CHECK(n >= 3);
	if (n >= 3) {
		CHECK_STR(list[0], "sched:sched_switch");
		for (int i = 1; i < n; i++)
			CHECK(strncmp(list[i], "sched:sched_wak", 15) == 0);
	}
	ft_free_list(list, n);

	char *top_after = top_set_event();
	CHECK_STR(top_after, top_before);
	free(top_before);
	free(top_after);
	ft_session_destroy(s);
}

static void test_enabling_twice_lists_once(void)
{
	char err[512] = "", **list;
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_enable_events(s, "sched:sched_switch", err, sizeof(err)), 0);
	CHECK_INT(ft_enable_events(s, "sched_switch", err, sizeof(err)), 0);
	int n = ft_enabled_events(s, &list);
	CHECK_INT(n, 1);
	ft_free_list(list, n);
	ft_session_destroy(s);
}

static void test_unknown_event_names_closest(void)
{
	char err[512] = "";
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_enable_events(s, "sched:sched_swich", err, sizeof(err)), -1);
	CHECK_PREFIX(err, "event 'sched:sched_swich' not found (did you mean sched:sched_switch");
	CHECK_INT(ft_enable_events(s, "", err, sizeof(err)), -1);
	CHECK(strstr(err, "empty event name") != NULL);
	ft_session_destroy(s);
}

static void test_bad_filter_carries_error_log_text(void)
{
	char err[512] = "";
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_enable_events(s, "sched:sched_switch", err, sizeof(err)), 0);
	CHECK_INT(ft_set_filter(s, "sched:sched_switch", "no_such_field == 1", err, sizeof(err)),
		  -1);
	CHECK_STR(err, "bad filter 'no_such_field == 1' for sched:sched_switch: "
		       "Field not found (at '== 1')");
	CHECK_INT(ft_set_filter(s, "sched:sched_switch", "next_pid ==", err, sizeof(err)), -1);
	CHECK_PREFIX(err, "bad filter 'next_pid ==' for sched:sched_switch: ");
	CHECK(strlen(err) > 50 && !strchr(err, '\n'));
	ft_session_destroy(s);
}

static void test_good_filter_is_set(void)
{
	char err[512] = "";
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_set_filter(s, "sched:sched_switch", "next_pid == 1", err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "events/sched/sched_switch/filter"), "next_pid == 1");
	CHECK_INT(ft_set_filter(s, "sched:sched_wakeup*", "pid > 1", err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "events/sched/sched_wakeup/filter"), "pid > 1");
	CHECK_STR(inst_file(s, "events/sched/sched_wakeup_new/filter"), "pid > 1");
	CHECK_STR(inst_file(s, "events/sched/sched_waking/filter"), "none");
	/* sched_wake_idle_without_ipi has no pid: the error names it. */
	CHECK_INT(ft_set_filter(s, "sched:sched_wak*", "pid > 1", err, sizeof(err)), -1);
	CHECK(strstr(err, "for sched:sched_wake_idle_without_ipi: Field not found") != NULL);
	ft_session_destroy(s);
}

static void test_pids_and_follow(void)
{
	char err[512] = "";
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	pid_t pids[] = { getpid(), 1 };
	CHECK_INT(ft_set_pids(s, pids, 2, true, err, sizeof(err)), 0);
	char *text = ft_read_file(s, "set_event_pid", NULL);
	char mine[32];
	snprintf(mine, sizeof(mine), "%d\n", (int)getpid());
	CHECK(text && strstr(text, mine));
	CHECK(text && (strncmp(text, "1\n", 2) == 0 || strstr(text, "\n1\n")));
	free(text);
	CHECK_STR(inst_file(s, "options/event-fork"), "1");
	CHECK_INT(ft_set_pids(s, pids, 1, false, err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "options/event-fork"), "0");
	mine[strcspn(mine, "\n")] = '\0';
	CHECK_STR(inst_file(s, "set_event_pid"), mine);
	ft_session_destroy(s);
}

static void test_options_on_and_off(void)
{
	char err[512] = "";
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_set_option(s, "record-tgid", true, err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "options/record-tgid"), "1");
	CHECK_INT(ft_set_option(s, "record-tgid", false, err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "options/record-tgid"), "0");
	CHECK_INT(ft_set_option(s, "no-such-option", true, err, sizeof(err)), -1);
	CHECK_STR(err, "unknown tracefs option 'no-such-option'");
	/* Optional: either it works, or the error names the file it could not write. */
	if (ft_set_option(s, "userstacktrace", true, err, sizeof(err)) == 0)
		CHECK_STR(inst_file(s, "options/userstacktrace"), "1");
	else
		CHECK(strstr(err, "options/userstacktrace") != NULL);
	ft_session_destroy(s);
}

static void test_clock_mono_and_unknown_clock(void)
{
	char err[512] = "";
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_set_clock(s, "mono", err, sizeof(err)), 0);
	CHECK(strstr(inst_file(s, "trace_clock"), "[mono]") != NULL);
	CHECK_INT(ft_set_clock(s, "sundial", err, sizeof(err)), -1);
	CHECK_PREFIX(err, "clock 'sundial' not available (available: local global ");
	CHECK(strstr(err, " mono ") != NULL && !strchr(err, '['));
	CHECK_INT(ft_set_clock(s, "mon", err, sizeof(err)), -1);
	ft_session_destroy(s);
}

static void test_buffer_size_and_tracing_on(void)
{
	char err[512] = "";
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	CHECK_INT(ft_set_buffer_kb(s, 2048, err, sizeof(err)), 0);
	/* The kernel rounds up to whole sub-buffers. */
	long kb = strtol(inst_file(s, "buffer_size_kb"), NULL, 10);
	CHECK(kb >= 2048 && kb < 2048 + 64);
	CHECK_INT(ft_set_buffer_kb(s, 0, err, sizeof(err)), -1);
	CHECK_INT(ft_tracing_on(s, false, err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "tracing_on"), "0");
	CHECK_INT(ft_tracing_on(s, true, err, sizeof(err)), 0);
	CHECK_STR(inst_file(s, "tracing_on"), "1");
	ft_session_destroy(s);
}

static void test_refused_write_names_file_and_value(void)
{
	char err[512] = "", want[600];
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	/* A huge per-CPU buffer the kernel cannot allocate. */
	int ret = ft_set_buffer_kb(s, 4000000000u, err, sizeof(err));
	CHECK_INT(ret, -1);
	snprintf(want, sizeof(want), "tracefs refused writing '4000000000' to %s/buffer_size_kb: ",
		 ft_instance_dir(s));
	CHECK(strncmp(err, want, strlen(want)) == 0);
	ft_session_destroy(s);
}

static void test_reading_files_and_tep(void)
{
	size_t len = 0;
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	char *stats = ft_read_file(s, "per_cpu/cpu0/stats", &len);
	CHECK(stats && len > 0 && strncmp(stats, "entries:", 8) == 0);
	free(stats);
	char *page = ft_read_top_file(s, "events/header_page", &len);
	CHECK(page && strstr(page, "field: u64 timestamp;"));
	free(page);
	CHECK(ft_read_file(s, "no/such/file", &len) == NULL);
	CHECK_INT(len, 0);
	struct tep_handle *tep = ft_tep(s);
	CHECK(tep && tep_find_event_by_name(tep, "sched", "sched_switch"));
	CHECK(ft_tep(s) == tep);
	ft_session_destroy(s);
}

static void test_destroy_leaves_nothing(void)
{
	char err[512] = "";
	char *top_before = top_set_event();
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	char name[64];
	snprintf(name, sizeof(name), "%s", ft_instance_name(s));
	pid_t me = getpid();
	CHECK_INT(ft_set_pids(s, &me, 1, true, err, sizeof(err)), 0);
	CHECK_INT(ft_enable_events(s, "sched", err, sizeof(err)), 0);
	CHECK_INT(ft_set_filter(s, "sched:sched_switch", "prev_pid != 0", err, sizeof(err)), 0);
	CHECK_INT(ft_tracing_on(s, true, err, sizeof(err)), 0);
	usleep(10000);
	ft_session_destroy(s);
	CHECK(!instance_exists(name));
	CHECK(!path_exists(FT_REGISTRY_DIR "/%s", name));
	char *top_after = top_set_event();
	CHECK_STR(top_after, top_before);
	free(top_before);
	free(top_after);
}

/* A child that makes a session, reports its name and waits to be killed. */
static pid_t spawn_session_owner(char *name, size_t len)
{
	int fd[2];
	if (pipe(fd) < 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		char err[512];
		close(fd[0]);
		struct ft_session *s = ft_session_new(err, sizeof(err));
		if (s)
			ft_enable_events(s, "sched:sched_switch", err, sizeof(err));
		dprintf(fd[1], "%s\n", s ? ft_instance_name(s) : "");
		close(fd[1]);
		for (;;)
			pause();
	}
	close(fd[1]);
	ssize_t n = read(fd[0], name, len - 1);
	close(fd[0]);
	name[n > 0 ? n : 0] = '\0';
	name[strcspn(name, "\n")] = '\0';
	return pid;
}

struct seen {
	int removed, kept, failed;
	char why[256];
};

static void note(enum ft_reset_action act, const char *name, const char *why, void *arg)
{
	struct seen *seen = arg;
	(void)name;
	if (act == FT_RESET_REMOVED)
		seen->removed++;
	else if (act == FT_RESET_KEPT)
		seen->kept++;
	else
		seen->failed++;
	snprintf(seen->why, sizeof(seen->why), "%s", why);
}

static void test_reset_removes_instance_of_killed_owner(void)
{
	char name[128], prefix[64], err[512] = "", want[128];
	pid_t pid = spawn_session_owner(name, sizeof(name));
	CHECK(pid > 0);
	CHECK(name[0] != '\0');
	if (pid <= 0 || !name[0])
		return;
	CHECK(instance_exists(name));
	snprintf(prefix, sizeof(prefix), "tracekit-%d-", (int)pid);

	struct seen seen = { 0 };
	CHECK_INT(ft_reset_prefix(prefix, false, note, &seen, err, sizeof(err)), 0);
	CHECK_INT(seen.kept, 1);
	CHECK(instance_exists(name));

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	CHECK(instance_exists(name));
	memset(&seen, 0, sizeof(seen));
	CHECK_INT(ft_reset_prefix(prefix, false, note, &seen, err, sizeof(err)), 1);
	CHECK_INT(seen.removed, 1);
	snprintf(want, sizeof(want), "owner pid %d is gone", (int)pid);
	CHECK_STR(seen.why, want);
	CHECK(!instance_exists(name));
	CHECK(!path_exists(FT_REGISTRY_DIR "/%s", name));
}

static void test_reset_keeps_live_owner_unless_forced(void)
{
	char prefix[64], err[512] = "", name[64];
	struct ft_session *s = new_session();
	if (!s) {
		CHECK(s != NULL);
		return;
	}
	snprintf(name, sizeof(name), "%s", ft_instance_name(s));
	snprintf(prefix, sizeof(prefix), "tracekit-%d-", (int)getpid());
	struct seen seen = { 0 };
	CHECK_INT(ft_reset_prefix(prefix, false, note, &seen, err, sizeof(err)), 0);
	CHECK_INT(seen.kept, 1);
	CHECK(instance_exists(name));
	memset(&seen, 0, sizeof(seen));
	CHECK_INT(ft_reset_prefix(prefix, true, note, &seen, err, sizeof(err)), 1);
	CHECK_INT(seen.removed, 1);
	CHECK(!instance_exists(name));
	/* The session outlived its instance: destroying it must still be safe. */
	ft_session_destroy(s);
	CHECK(!path_exists(FT_REGISTRY_DIR "/%s", name));
}

static void test_reset_drops_registry_entry_without_instance(void)
{
	char name[64], prefix[64], err[512] = "";
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	snprintf(name, sizeof(name), "tracekit-%d-7", (int)pid);
	snprintf(prefix, sizeof(prefix), "tracekit-%d-", (int)pid);
	char path[256];
	snprintf(path, sizeof(path), FT_REGISTRY_DIR "/%s", name);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	fprintf(f, "pid %d\nstart 1\n", (int)pid);
	fclose(f);
	CHECK_INT(ft_reset_prefix(prefix, false, NULL, NULL, err, sizeof(err)), 0);
	CHECK(!path_exists("%s", path));
}

static void test_reset_refuses_foreign_prefix(void)
{
	char err[512] = "";
	CHECK_INT(ft_reset_prefix("other-", true, NULL, NULL, err, sizeof(err)), -1);
	CHECK_STR(err, "reset prefix 'other-' is not a tracekit instance name");
}

static const struct tk_case cases[] = {
	TK_CASE(test_instance_named_after_pid_and_removed),
	TK_CASE(test_two_sessions_have_two_instances),
	TK_CASE(test_events_enabled_in_instance_not_at_top),
	TK_CASE(test_enabling_twice_lists_once),
	TK_CASE(test_unknown_event_names_closest),
	TK_CASE(test_bad_filter_carries_error_log_text),
	TK_CASE(test_good_filter_is_set),
	TK_CASE(test_pids_and_follow),
	TK_CASE(test_options_on_and_off),
	TK_CASE(test_clock_mono_and_unknown_clock),
	TK_CASE(test_buffer_size_and_tracing_on),
	TK_CASE(test_refused_write_names_file_and_value),
	TK_CASE(test_reading_files_and_tep),
	TK_CASE(test_destroy_leaves_nothing),
	TK_CASE(test_reset_removes_instance_of_killed_owner),
	TK_CASE(test_reset_keeps_live_owner_unless_forced),
	TK_CASE(test_reset_drops_registry_entry_without_instance),
	TK_CASE(test_reset_refuses_foreign_prefix),
};

/* Instances named after this process left behind; removed (and counted) so a failure cleans up. */
static int leftovers(void)
{
	char prefix[64], err[512];
	snprintf(prefix, sizeof(prefix), "tracekit-%d-", (int)getpid());
	return ft_reset_prefix(prefix, true, NULL, NULL, err, sizeof(err));
}

int main(void)
{
	char err[512] = "";
	const char *ci = getenv("CI");
	bool in_ci = ci && !strcmp(ci, "true");
	const char *dir = ft_tracefs_root(err, sizeof(err));
	if (!dir) {
		fprintf(stderr, "%s: %s\n", in_ci ? "FAIL" : "skip", err);
		return in_ci ? 1 : 77;
	}
	snprintf(root, sizeof(root), "%s", dir);
	char *top_before = top_set_event();
	int ret = tk_run(cases, sizeof(cases) / sizeof(cases[0]));
	int left = leftovers();
	if (left != 0) {
		fprintf(stderr, "left behind: %d tracekit-%d-* instance(s)\n", left, (int)getpid());
		ret = 1;
	}
	char *top_after = top_set_event();
	if (strcmp(top_before, top_after) != 0) {
		fprintf(stderr, "top-level set_event changed:\n%s---\n%s", top_before, top_after);
		ret = 1;
	}
	free(top_before);
	free(top_after);
	return ret;
}

/*
 * The syscall table against its sources of truth: the running kernel's
 * tracefs syscall events for argument counts, strace for classes.
 */
#include <dirent.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "syscalls/table.h"
#include "tk_test.h"

#define EVENTS "/sys/kernel/tracing/events/syscalls"

/*
 * Where the table deliberately differs from the kernel's declaration:
 * preadv and pwritev take the offset in one register on x86_64, the
 * kernel's pos_h argument is ignored, and strace prints four arguments.
 */
static const struct { const char *name; int kernel_nargs, nargs; } nargs_exceptions[] = {
	{ "preadv", 5, 4 }, { "pwritev", 5, 4 },
};

/* Kernel event names (SYSCALL_DEFINE names) that differ from the syscall's. */
static const struct { const char *event, *name; } event_aliases[] = {
	{ "newstat", "stat" }, { "newfstat", "fstat" }, { "newlstat", "lstat" },
	{ "newuname", "uname" }, { "sendfile64", "sendfile" }, { "umount", "umount2" },
};

static bool in_ci(void)
{
	const char *ci = getenv("CI");

	return ci && strcmp(ci, "true") == 0;
}

/* The syscall events directory, mounting tracefs when nothing is there yet. */
static DIR *open_events(void)
{
	DIR *d = opendir(EVENTS);

	if (!d) {
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
		d = opendir(EVENTS);
	}
	return d;
}

/* Arguments in a sys_enter format: the fields after __syscall_nr; -1 if unreadable. */
static int event_nargs(const char *event)
{
	char path[512], line[512];
	int n = -1;
	FILE *f;

	snprintf(path, sizeof(path), EVENTS "/%s/format", event);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "__syscall_nr;"))
			n = 0;
		else if (n >= 0 && strstr(line, "field:"))
			n++;
	}
	fclose(f);
	return n;
}

static const char *table_name(const char *event)
{
	for (size_t i = 0; i < sizeof(event_aliases) / sizeof(event_aliases[0]); i++)
		if (strcmp(event_aliases[i].event, event) == 0)
			return event_aliases[i].name;
	return event;
}

static int expected_nargs(const struct sc_entry *e, int kernel_nargs)
{
	for (size_t i = 0; i < sizeof(nargs_exceptions) / sizeof(nargs_exceptions[0]); i++)
		if (strcmp(nargs_exceptions[i].name, e->name) == 0 &&
		    nargs_exceptions[i].kernel_nargs == kernel_nargs)
			return nargs_exceptions[i].nargs;
	return kernel_nargs;
}

/* Calls fn for each sys_enter event; false (after saying why) when tracefs is unreadable. */
static bool each_event(void (*fn)(const char *syscall, int kernel_nargs))
{
	DIR *d = open_events();
	struct dirent *de;
	int seen = 0;

	if (!d) {
		if (in_ci()) {
			CHECK(!"tracefs syscall events are readable (CI=true)");
			return false;
		}
		printf("SKIP %s: cannot read " EVENTS " (not root, or no tracefs)\n", tk_current);
		return false;
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, "sys_enter_", 10) != 0)
			continue;
		fn(table_name(de->d_name + 10), event_nargs(de->d_name));
		seen++;
	}
	closedir(d);
	CHECK(seen > 0);
	return true;
}

static void check_nargs(const char *name, int kernel_nargs)
{
	const struct sc_entry *e = sc_by_name(name);

	if (!e || kernel_nargs < 0)
		return;
	if (e->nargs != expected_nargs(e, kernel_nargs)) {
		fprintf(stderr, "%s: %s: table says %d arguments, the kernel %d\n",
			tk_current, name, e->nargs, kernel_nargs);
		tk_failures++;
	}
}

static void check_present(const char *name, int kernel_nargs)
{
	(void)kernel_nargs;
	if (!sc_by_name(name)) {
		fprintf(stderr, "%s: the kernel has syscall %s, the table does not\n",
			tk_current, name);
		tk_failures++;
	}
}

static void test_argument_counts_match_the_kernels_syscall_events(void)
{
	each_event(check_nargs);
}

static void test_every_kernel_syscall_is_in_the_table(void)
{
	each_event(check_present);
}

static void test_no_syscall_has_more_than_six_arguments(void)
{
	for (int nr = 0; nr < sc_table_len; nr++)
		if (sc_by_nr(nr))
			CHECK(sc_by_nr(nr)->nargs <= 6);
}

static void test_names_are_unique_and_numbers_match_slots(void)
{
	for (int a = 0; a < sc_table_len; a++) {
		const struct sc_entry *e = sc_by_nr(a);

		if (!e)
			continue;
		CHECK_INT(e->nr, a);
		CHECK(sc_by_name(e->name) == e);
	}
}

static void test_well_known_numbers_and_names_agree_with_the_headers(void)
{
	CHECK_STR(sc_by_nr(SYS_read)->name, "read");
	CHECK_STR(sc_by_nr(SYS_openat)->name, "openat");
	CHECK_STR(sc_by_nr(SYS_execve)->name, "execve");
	CHECK_STR(sc_by_nr(SYS_clone3)->name, "clone3");
	CHECK(sc_by_nr(-1) == NULL);
	CHECK(sc_by_nr(SC_NR_MAX) == NULL);
}

static unsigned classes_of(const char *name)
{
	const struct sc_entry *e = sc_by_name(name);

	return e ? e->classes : ~0u;
}

static void test_classes_of_well_known_syscalls_are_stracess(void)
{
	CHECK_INT(classes_of("openat"), SC_FILE | SC_DESC);
	CHECK_INT(classes_of("read"), SC_DESC);
	CHECK_INT(classes_of("stat"), SC_FILE | SC_STAT);
	CHECK_INT(classes_of("lstat"), SC_FILE | SC_LSTAT);
	CHECK_INT(classes_of("fstat"), SC_DESC | SC_FSTAT);
	CHECK_INT(classes_of("newfstatat"), SC_FILE | SC_DESC | SC_FSTAT);
	CHECK_INT(classes_of("statfs"), SC_FILE | SC_STATFS);
	CHECK_INT(classes_of("fstatfs"), SC_DESC | SC_FSTATFS);
	CHECK_INT(classes_of("mmap"), SC_DESC | SC_MEMORY);
	CHECK_INT(classes_of("execve"), SC_FILE | SC_PROCESS);
	CHECK_INT(classes_of("kill"), SC_SIGNAL | SC_PROCESS);
	CHECK_INT(classes_of("socket"), SC_NETWORK);
	CHECK_INT(classes_of("shmget"), SC_IPC);
	CHECK_INT(classes_of("setuid"), SC_CREDS);
	CHECK_INT(classes_of("clock_gettime"), SC_CLOCK);
	CHECK_INT(classes_of("getpid"), SC_PURE);
	CHECK_INT(classes_of("futex"), 0);
}

static void test_class_names_resolve_with_or_without_percent(void)
{
	CHECK_INT(sc_class_by_name("%file"), SC_FILE);
	CHECK_INT(sc_class_by_name("desc"), SC_DESC);
	CHECK_INT(sc_class_by_name("%net"), SC_NETWORK);
	CHECK_INT(sc_class_by_name("%files"), 0);
}

TK_MAIN(TK_CASE(test_argument_counts_match_the_kernels_syscall_events),
	TK_CASE(test_every_kernel_syscall_is_in_the_table),
	TK_CASE(test_no_syscall_has_more_than_six_arguments),
	TK_CASE(test_names_are_unique_and_numbers_match_slots),
	TK_CASE(test_well_known_numbers_and_names_agree_with_the_headers),
	TK_CASE(test_classes_of_well_known_syscalls_are_stracess),
	TK_CASE(test_class_names_resolve_with_or_without_percent))

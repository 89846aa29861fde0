/*
 * The reset registry (see registry.h) and ft_reset(): what tracekit left in
 * tracefs after a run that could not clean up, found and removed.
 *
 * Order matters for crash safety: a session writes its registry file before
 * it makes the instance and removes it after the instance is gone, so an
 * instance never exists without a way to find its owner.  A registry file
 * without an instance (killed between the two steps) is simply dropped.
 */
#include "ftrace/registry.h"
#include "ftrace/session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

const char *ft_tracefs_root(char *err, size_t errlen)
{
	const char *dir = tracefs_tracing_dir();

	if (dir && access(dir, R_OK | W_OK | X_OK) == 0)
		return dir;
	if (geteuid() != 0 || (dir && errno == EACCES)) {
		snprintf(err, errlen, "tracefs needs root (run as root or with sudo)");
		return NULL;
	}
	if (dir) {
		snprintf(err, errlen, "tracefs at %s is not usable: %s", dir, strerror(errno));
		return NULL;
	}
	snprintf(err, errlen, "tracefs is not mounted and cannot be mounted at /sys/kernel/tracing "
		 "(mount -t tracefs nodev /sys/kernel/tracing)");
	return NULL;
}

/* Field 22 of /proc/PID/stat: the start time in clock ticks since boot; 0 if pid is gone. */
int ft_write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t len = strlen(value), off = 0;
	while (off < len) {
		ssize_t n = write(fd, value + off, len - off);
		if (n <= 0) {
			int e = n ? errno : EIO;
			close(fd);
			errno = e;
			return -1;
		}
		off += (size_t)n;
	}
	return close(fd);
}

unsigned long long ftr_start_time(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* comm may hold spaces and parentheses: fields resume after the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	p++;
	for (int field = 2; field < 21 && p; field++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

static int mkdir_p(const char *dir)
{
	char path[256];
	snprintf(path, sizeof(path), "%s", dir);
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

static void registry_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", FT_REGISTRY_DIR, name);
}

static int write_entry(const char *name, const char *const *outputs, int n);

int ftr_register(const char *name)
{
	return write_entry(name, NULL, 0);
}

int ftr_note_output(const char *name, const char *output)
{
	return write_entry(name, &output, output ? 1 : 0);
}

int ftr_note_outputs(const char *name, const char *const *outputs, int n)
{
	return write_entry(name, outputs, n);
}

static int write_entry(const char *name, const char *const *outputs, int n)
{
	char path[512], tmp[520];
	if (mkdir_p(FT_REGISTRY_DIR) < 0)
		return -1;
	registry_path(path, sizeof(path), name);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "we");
	if (!f)
		return -1;
	pid_t pid = getpid();
	fprintf(f, "pid %d\nstart %llu\n", (int)pid, ftr_start_time(pid));
	for (int i = 0; i < n; i++)
		fprintf(f, "output %s\n", outputs[i]);
	/* Renamed into place whole, so a reader never sees half a file. */
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		errno = e;
		return -1;
	}
	return 0;
}

void ftr_unregister(const char *name)
{
	char path[512];
	registry_path(path, sizeof(path), name);
	unlink(path);
}

/* The pid in "tracekit-<pid>-<n>", or 0. */
static pid_t pid_in_name(const char *name)
{
	int pid = 0;
	if (sscanf(name, FT_INSTANCE_PREFIX "%d-", &pid) != 1 || pid <= 0)
		return 0;
	return pid;
}

pid_t ftr_owner(const char *name, bool *alive)
{
	char path[512];
	int pid = 0;
	unsigned long long start = 0;

	*alive = false;
	registry_path(path, sizeof(path), name);
	FILE *f = fopen(path, "re");
	if (f) {
		if (fscanf(f, "pid %d start %llu", &pid, &start) != 2)
			pid = 0;
		fclose(f);
	}
	if (pid > 0) {
		*alive = start != 0 && ftr_start_time(pid) == start;
		return pid;
	}
	/*
	 * No registry file (made by a test, or /run was not writable): the pid in
	 * the name is all there is; a live process with that pid keeps it.
	 */
	pid = pid_in_name(name);
	*alive = pid > 0 && kill(pid, 0) == 0;
	return pid;
}

static void report(ft_reset_fn fn, void *arg, enum ft_reset_action act, const char *name,
		   const char *why)
{
	if (fn)
		fn(act, name, why, arg);
}

static int remove_instance(const char *name, char *why, size_t whylen)
{
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);
	if (!inst) {
		snprintf(why, whylen, "cannot open it: %s", strerror(errno));
		return -1;
	}
	/* Tracing off first, so a half-removed instance no longer records. */
	tracefs_instance_file_write(inst, "tracing_on", "0");
	int ret = tracefs_instance_destroy(inst);
	int e = errno;
	tracefs_instance_free(inst);
	if (ret < 0) {
		snprintf(why, whylen, "rmdir refused: %s", strerror(e));
		return -1;
	}
	ftr_unregister(name);
	return 0;
}

/* The outputs a registry entry notes: a recording's, and each of its guests' files. */
struct noted {
	char path[FTR_MAX_OUTPUTS][4096];
	int n;
};

/* The "output" lines of name's registry file into o; how many. */
static int noted_outputs(const char *name, struct noted *o)
{
	char path[512], line[4200];
	registry_path(path, sizeof(path), name);
	o->n = 0;
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	while (o->n < FTR_MAX_OUTPUTS && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "output ", 7) != 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		size_t n = strlen(line + 7);
		if (n >= sizeof(o->path[0]))
			continue;	/* longer than any path record writes: not ours */
		memcpy(o->path[o->n++], line + 7, n + 1);
	}
	fclose(f);
	return o->n;
}

static void remove_noted(const struct noted *o, ft_reset_fn fn, void *arg)
{
	for (int i = 0; i < o->n; i++)
		ftr_remove_outputs(o->path[i], fn, arg);
}

/*
 * A killed recording's OUTPUT.cpu0, .cpu1 ...: raw ring-buffer pages with no
 * formats beside them, which nothing can read, so they go with the instance.
 */
void ftr_remove_outputs(const char *output, ft_reset_fn fn, void *arg)
{
	char path[4300], what[4400], why[64];
	int n = 0;
	/* The trace file being written when the run was killed (record/output.h). */
	snprintf(path, sizeof(path), "%s.part", output);
	if (unlink(path) == 0)
		report(fn, arg, FT_RESET_FILES, path, "unfinished trace file of the killed recording");
	/* record --recover's note beside kept per-CPU files (record/recover.h). */
	snprintf(path, sizeof(path), "%s.recover", output);
	unlink(path);
	for (int cpu = 0; cpu < 4096; cpu++) {
		snprintf(path, sizeof(path), "%s.cpu%d", output, cpu);
		if (unlink(path) < 0)
			break;
		n++;
	}
	if (!n)
		return;
	snprintf(what, sizeof(what), "%s.cpu0..%d", output, n - 1);
	snprintf(why, sizeof(why), "raw per-CPU data of the killed recording");
	report(fn, arg, FT_RESET_FILES, what, why);
}

static int reset_one(const char *name, bool force, ft_reset_fn fn, void *arg)
{
	struct noted *outputs;
	char why[160], fail[200];
	bool alive;
	pid_t owner = ftr_owner(name, &alive);

	if (alive && !force) {
		snprintf(why, sizeof(why), "owner pid %d still runs", (int)owner);
		report(fn, arg, FT_RESET_KEPT, name, why);
		return 0;
	}
	if (alive)
		snprintf(why, sizeof(why), "forced, owner pid %d still runs", (int)owner);
	else if (owner)
		snprintf(why, sizeof(why), "owner pid %d is gone", (int)owner);
	else
		snprintf(why, sizeof(why), "no owner known");
	outputs = malloc(sizeof(*outputs));
	if (outputs)
		noted_outputs(name, outputs);
	if (remove_instance(name, fail, sizeof(fail)) < 0) {
		report(fn, arg, FT_RESET_FAILED, name, fail);
		free(outputs);
		return 0;
	}
	report(fn, arg, FT_RESET_REMOVED, name, why);
	if (outputs)
		remove_noted(outputs, fn, arg);
	free(outputs);
	return 1;
}

/*
 * Registry files whose instance is gone: killed between register and mkdir,
 * or a recording that could not write its trace and kept its per-CPU files
 * (noted as "<instance>-kept").
 */
static void drop_stale_entries(const char *prefix, ft_reset_fn fn, void *arg)
{
	DIR *d = opendir(FT_REGISTRY_DIR);
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d));) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		bool alive;
		struct noted *outputs;
		ftr_owner(de->d_name, &alive);
		if (alive || tracefs_instance_exists(de->d_name))
			continue;
		/* A recording that could not write its trace noted its kept files here. */
		outputs = malloc(sizeof(*outputs));
		if (outputs && noted_outputs(de->d_name, outputs))
			remove_noted(outputs, fn, arg);
		free(outputs);
		ftr_unregister(de->d_name);
	}
	closedir(d);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int ft_reset_prefix(const char *prefix, bool force, ft_reset_fn fn, void *arg,
		    char *err, size_t errlen)
{
	char dir[512];
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return -1;
	if (strncmp(prefix, FT_INSTANCE_PREFIX, strlen(FT_INSTANCE_PREFIX)) != 0) {
		snprintf(err, errlen, "reset prefix '%s' is not a tracekit instance name", prefix);
		return -1;
	}

	snprintf(dir, sizeof(dir), "%s/instances", root);
	DIR *d = opendir(dir);
	if (!d) {
		snprintf(err, errlen, "cannot read %s: %s", dir, strerror(errno));
		return -1;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	for (struct dirent *de; (de = readdir(d));) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			char **grown = realloc(names, cap * sizeof(*names));
			if (!grown)
				break;
			names = grown;
		}
		names[n] = strdup(de->d_name);
		if (names[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);

	int removed = 0;
	for (size_t i = 0; i < n; i++) {
		removed += reset_one(names[i], force, fn, arg);
		free(names[i]);
	}
	free(names);
	drop_stale_entries(prefix, fn, arg);
	/*
	 * Hook: uprobe events tracekit registers will be named tracekit_* in
	 * uprobe_events; once probes exist, remove those of dead owners here too.
	 */
	return removed;
}

int ft_reset(bool force, char *err, size_t errlen)
{
	return ft_reset_prefix(FT_INSTANCE_PREFIX, force, NULL, NULL, err, errlen);
}

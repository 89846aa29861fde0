/*
 * The top level borrowed and given back (see toplevel.h).
 *
 * The state file is rewritten whole (renamed into place) before every
 * change it records, so after a SIGKILL it always holds at least every value
 * that was changed.  Values are stored as they must be written back: the
 * kernel's display forms ("#### all functions enabled ####", "no pid",
 * "[local] global ...", "none") are turned into what clears or selects them.
 */
#include "ftrace/toplevel.h"
#include "ftrace/registry.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/die.h"
#include "util/strbuf.h"

struct ftt_saved {
	char *rel;
	char *value;
};

struct ftt_state {
	char *root;
	char *purpose;
	char *output;	/* record's output: its OUTPUT.cpuN staging files, or NULL */
	struct ftt_saved *saved;
	int nsaved;
};

/* rel is under the tracefs root, or absolute (/proc/sys/kernel/stack_tracer_enabled). */
static void path_of(char *path, size_t len, const char *root, const char *rel)
{
	if (rel[0] == '/')
		snprintf(path, len, "%s", rel);
	else
		snprintf(path, len, "%s/%s", root, rel);
}

static char *read_rel(const char *root, const char *rel)
{
	char path[4096];
	path_of(path, sizeof(path), root, rel);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	for (ssize_t n; (n = read(fd, buf, sizeof(buf))) > 0;)
		sb_addn(&sb, buf, (size_t)n);
	close(fd);
	char *text = xstrdup(sb_str(&sb));
	sb_free(&sb);
	return text;
}

/* Truncate and write: "" clears list files (filters, pid lists). */
static int write_rel(const char *root, const char *rel, const char *value)
{
	char path[4096];
	path_of(path, sizeof(path), root, rel);
	return ft_write_file(path, value);
}

/* What to write to rel to get back the state its text shows. */
static char *restorable(const char *rel, char *text)
{
	const char *base = strrchr(rel, '/');
	base = base ? base + 1 : rel;
	if (!strncmp(text, "####", 4) || !strncmp(text, "no pid", 6))
		return xstrdup("");
	if (!strcmp(base, "filter") && !strncmp(text, "none", 4))
		return xstrdup("0");
	if (!strcmp(base, "trace_clock")) {
		char *open = strchr(text, '['), *close = open ? strchr(open, ']') : NULL;
		if (open && close)
			return xstrndup(open + 1, (size_t)(close - open - 1));
	}
	if (!strcmp(base, "buffer_size_kb")) {
		char *exp = strstr(text, "expanded: ");
		if (exp)
			return xstrndup(exp + 10, strspn(exp + 10, "0123456789"));
	}
	if (!strcmp(base, "enable"))
		return xstrndup(text, strspn(text, "01"));
	/* Lists (one function per line): one write of names separated by spaces. */
	char *v = xstrdup(text);
	for (char *p = v; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	size_t n = strlen(v);
	while (n && v[n - 1] == ' ')
		v[--n] = '\0';
	return v;
}

static int write_state(const struct ftt_state *t)
{
	char tmp[256];
	snprintf(tmp, sizeof(tmp), "%s.tmp", FTT_STATE_FILE);
	FILE *f = fopen(tmp, "we");
	if (!f)
		return -1;
	pid_t pid = getpid();
	fprintf(f, "pid %d\nstart %llu\npurpose %s\n", (int)pid, ftr_start_time(pid), t->purpose);
	if (t->output)
		fprintf(f, "output %s\n", t->output);
	for (int i = 0; i < t->nsaved; i++)
		fprintf(f, "save %s\t%s\n", t->saved[i].rel, t->saved[i].value);
	if (fclose(f) != 0 || rename(tmp, FTT_STATE_FILE) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

static void add_saved(struct ftt_state *t, const char *rel, const char *value)
{
	t->saved = xrealloc(t->saved, sizeof(*t->saved) * (size_t)(t->nsaved + 1));
	t->saved[t->nsaved].rel = xstrdup(rel);
	t->saved[t->nsaved].value = xstrdup(value);
	t->nsaved++;
}

/* A state file read back: its owner and saved values (not claimed by us). */
static struct ftt_state *load_state(const char *root, pid_t *pid, bool *alive)
{
	FILE *f = fopen(FTT_STATE_FILE, "re");
	if (!f)
		return NULL;
	struct ftt_state *t = xcalloc(1, sizeof(*t));
	t->root = xstrdup(root);
	t->purpose = xstrdup("");
	unsigned long long start = 0;
	int p = 0;
	char *line = NULL;
	size_t cap = 0;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "pid %d", &p) == 1 || sscanf(line, "start %llu", &start) == 1)
			continue;
		if (!strncmp(line, "purpose ", 8)) {
			free(t->purpose);
			t->purpose = xstrdup(line + 8);
		}
		if (!strncmp(line, "output ", 7)) {
			free(t->output);
			t->output = xstrdup(line + 7);
		}
		char *tab = strchr(line, '\t');
		if (strncmp(line, "save ", 5) || !tab)
			continue;
		*tab = '\0';
		add_saved(t, line + 5, tab + 1);
	}
	free(line);
	fclose(f);
	*pid = p;
	*alive = p > 0 && start && ftr_start_time(p) == start;
	return t;
}

static void free_state(struct ftt_state *t)
{
	for (int i = 0; i < t->nsaved; i++) {
		free(t->saved[i].rel);
		free(t->saved[i].value);
	}
	free(t->saved);
	free(t->purpose);
	free(t->output);
	free(t->root);
	free(t);
}

/* Every saved value written back, newest first; the names of those restored into what. */
static void restore_all(struct ftt_state *t, struct strbuf *what)
{
	for (int i = t->nsaved - 1; i >= 0; i--) {
		if (write_rel(t->root, t->saved[i].rel, t->saved[i].value) < 0)
			warnmsg("could not restore %s/%s to '%s': %s", t->root, t->saved[i].rel,
				t->saved[i].value, strerror(errno));
		if (what)
			sb_printf(what, "%s%s", what->len ? ", " : "", t->saved[i].rel);
	}
}

int ftt_save(struct ftt_state *t, const char *rel, char *err, size_t errlen)
{
	for (int i = 0; i < t->nsaved; i++)
		if (!strcmp(t->saved[i].rel, rel))
			return 0;
	char *text = read_rel(t->root, rel);
	if (!text) {
		snprintf(err, errlen, "cannot read %s/%s: %s", t->root, rel, strerror(errno));
		return -1;
	}
	char *value = restorable(rel, text);
	add_saved(t, rel, value);
	free(value);
	free(text);
	if (write_state(t) < 0) {
		snprintf(err, errlen, "cannot note the top level's settings in %s: %s (reset could "
			 "not undo a killed run)", FTT_STATE_FILE, strerror(errno));
		t->nsaved--;
		free(t->saved[t->nsaved].rel);
		free(t->saved[t->nsaved].value);
		return -1;
	}
	return 0;
}

static int claim_file(char *err, size_t errlen)
{
	mkdir("/run/tracekit", 0700);
	int fd = open(FTT_STATE_FILE, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EEXIST)
		snprintf(err, errlen, "cannot create %s: %s", FTT_STATE_FILE, strerror(errno));
	return -1;
}

/* A leftover state file: refused while its owner lives, else restored and removed. */
static int settle_previous(const char *root, char *err, size_t errlen)
{
	pid_t pid;
	bool alive;
	struct ftt_state *old = load_state(root, &pid, &alive);
	if (!old)
		return 0;
	if (alive && pid != getpid()) {
		snprintf(err, errlen, "the top-level tracing buffer is in use by tracekit pid %d (%s); "
			 "wait for it to end", (int)pid, old->purpose);
		free_state(old);
		return -1;
	}
	restore_all(old, NULL);
	if (old->output)
		ftr_remove_outputs(old->output, NULL, NULL);
	free_state(old);
	unlink(FTT_STATE_FILE);
	return 0;
}

struct ftt_state *ftt_claim(const char *root, const char *purpose, bool buffer, char *err,
			    size_t errlen)
{
	if (claim_file(err, errlen) < 0) {
		if (errno != EEXIST || settle_previous(root, err, errlen) < 0)
			return NULL;
		if (claim_file(err, errlen) < 0) {
			if (errno == EEXIST)
				snprintf(err, errlen, "the top-level tracing buffer was claimed by "
					 "another tracekit just now; try again");
			return NULL;
		}
	}
	struct ftt_state *t = xcalloc(1, sizeof(*t));
	t->root = xstrdup(root);
	t->purpose = xstrdup(purpose);
	char *tracer = buffer ? read_rel(root, "current_tracer") : NULL;
	if (tracer && strncmp(tracer, "nop", 3)) {
		tracer[strcspn(tracer, "\n")] = '\0';
		snprintf(err, errlen, "the top level already runs the '%s' tracer (someone else's; "
			 "echo nop > %s/current_tracer frees it)", tracer, root);
		free(tracer);
		free_state(t);
		unlink(FTT_STATE_FILE);
		return NULL;
	}
	free(tracer);
	if (write_state(t) < 0 || (buffer && (ftt_save(t, "tracing_on", err, errlen) < 0 ||
	    write_rel(root, "tracing_on", "0") < 0 || write_rel(root, "trace", "") < 0))) {
		if (!*err)
			snprintf(err, errlen, "cannot prepare the top level at %s: %s", root,
				 strerror(errno));
		ftt_release(t);
		return NULL;
	}
	return t;
}

int ftt_note_output(struct ftt_state *t, const char *output)
{
	free(t->output);
	t->output = xstrdup(output);
	return write_state(t);
}

int ftt_write(struct ftt_state *t, const char *rel, const char *value, char *err, size_t errlen)
{
	if (ftt_save(t, rel, err, errlen) < 0)
		return -1;
	if (write_rel(t->root, rel, value) == 0)
		return 0;
	char path[4096];
	path_of(path, sizeof(path), t->root, rel);
	snprintf(err, errlen, "cannot write '%s' to %s: %s", value, path, strerror(errno));
	return -1;
}

void ftt_release(struct ftt_state *t)
{
	if (!t)
		return;
	restore_all(t, NULL);
	unlink(FTT_STATE_FILE);
	free_state(t);
}

int ftt_reset(bool force, pid_t *owner, bool *alive, char *what, size_t whatlen,
	      char *output, size_t outlen, char *err, size_t errlen)
{
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return -1;
	*output = '\0';
	struct ftt_state *t = load_state(root, owner, alive);
	if (!t)
		return 0;
	if (*alive && !force) {
		free_state(t);
		return 0;
	}
	struct strbuf sb = STRBUF_INIT;
	restore_all(t, &sb);
	snprintf(what, whatlen, "%s", sb_str(&sb));
	sb_free(&sb);
	unlink(FTT_STATE_FILE);
	snprintf(output, outlen, "%s", t->output ? t->output : "");
	free_state(t);
	return 1;
}

/*
 * The kernel backend (see kernel.h): probe_defs written to uprobe_events
 * through libtracefs's dynamic events, removed by group, listed, and the
 * registry that tells tracekit's probes from everyone else's.
 *
 * A USDT probe with a semaphore needs the "(ref_ctr_offset)" suffix, which
 * libtracefs 1.6's tracefs_uprobe_alloc() has no parameter for: that one
 * line is appended to uprobe_events directly.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "ftrace/registry.h"
#include "probe/kernel.h"
#include "probe/kexplain.h"
#include "probe/translate.h"
#include "util/die.h"
#include "util/strbuf.h"

static unsigned run_groups;

int pk_supported(const struct probe_def *def, char *err, size_t errlen)
{
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return -1;
	char path[512];
	bool user = def->target == PD_USER;
	snprintf(path, sizeof(path), "%s/%s", root, user ? "uprobe_events" : "kprobe_events");
	if (access(path, W_OK) == 0)
		return 0;
	if (user)
		snprintf(err, errlen, "this kernel has no uprobe_events (CONFIG_UPROBE_EVENTS is off): "
			 "use tracekit probe trace --ptrace");
	else
		snprintf(err, errlen, "kernel probes need kprobe_events, which this kernel does not have "
			 "(CONFIG_KPROBES is off): probe user code with PATH:SYMBOL (uprobes), or record "
			 "the kernel's tracepoints (tracekit list)");
	return -1;
}

/* Why the kernel refused line: error_log's last entry, else errno. */
static void kernel_refusal(const char *line, int e, char *err, size_t errlen)
{
	char *log = tracefs_error_last(NULL);
	char why[512];
	if (log && *log)
		ft_error_log_line(log, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", strerror(e));
	free(log);
	snprintf(err, errlen, "the kernel refused '%s': %s", line, why);
}

static int append_line(const char *file, const char *line, char *err, size_t errlen)
{
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return -1;
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", root, file);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	ssize_t w = write(fd, line, strlen(line));
	int e = errno;
	close(fd);
	if (w < 0) {
		kernel_refusal(line, e, err, errlen);
		return -1;
	}
	return 0;
}

/*
 * A refusal of the place itself (not of an arg): say why, from kallsyms and
 * the kprobe blacklist, after the kernel's words.
 */
static void explain_place(const struct probe_def *def, char *err, size_t errlen)
{
	static const char *const place_refusals[] = {
		"Failed to register probe event", "Invalid probed address or symbol",
	};
	bool place = false;
	for (size_t i = 0; i < sizeof(place_refusals) / sizeof(place_refusals[0]); i++)
		place |= strstr(err, place_refusals[i]) != NULL;
	if (!place)
		return;
	struct strbuf sb = STRBUF_INIT;
	sb_add(&sb, err);
	pk_explain_kernel(def, &sb);
	snprintf(err, errlen, "%s", sb_str(&sb));
	sb_free(&sb);
}

static int create_def(const struct probe_def *def, const char *group, const char *event,
		      char *err, size_t errlen)
{
	struct strbuf line = STRBUF_INIT, args = STRBUF_INIT;
	int rc = -1;
	if (pd_translate(def, group, event, &line, err, errlen) < 0)
		goto out;
	tracefs_error_clear(NULL);
	if (def->target == PD_KERNEL || def->ref_ctr_offset) {
		rc = append_line(def->target == PD_USER ? "uprobe_events" : "kprobe_events",
				 sb_str(&line), err, errlen);
		if (rc < 0 && def->target == PD_KERNEL)
			explain_place(def, err, errlen);
		goto out;
	}
	pd_translate_args(def, &args);
	const char *a = args.len ? sb_str(&args) + 1 : NULL;	/* without the leading space */
	struct tracefs_dynevent *ev =
		def->kind == PD_RETURN
			? tracefs_uretprobe_alloc(group, event, def->path, def->file_offset, a)
			: tracefs_uprobe_alloc(group, event, def->path, def->file_offset, a);
	if (!ev) {
		snprintf(err, errlen, "cannot make probe '%s': %s", sb_str(&line), strerror(errno));
		goto out;
	}
	if (tracefs_dynevent_create(ev) < 0)
		kernel_refusal(sb_str(&line), errno, err, errlen);
	else
		rc = 0;
	tracefs_dynevent_free(ev);
out:
	sb_free(&line);
	sb_free(&args);
	return rc;
}

int pk_create_spec(const char *spec, const char *group, char *out_group, size_t glen,
		   char *out_event, size_t elen, char *err, size_t errlen)
{
	struct probe_def def;
	struct pd_error perr;
	char ev[64];
	if (pd_parse(spec, &def, &perr) < 0) {
		pd_error_line(spec, &perr, err, errlen);
		return -1;
	}
	int rc = -1;
	if (pk_supported(&def, err, errlen) < 0 || pd_resolve(&def, err, errlen) < 0)
		goto out;
	if (!group)
		group = def.group ? def.group : pd_default_group(&def);
	if (def.event)
		snprintf(ev, sizeof(ev), "%s", def.event);
	else
		pd_event_name(&def, ev, sizeof(ev));
	rc = create_def(&def, group, ev, err, errlen);
	if (rc == 0) {
		snprintf(out_group, glen, "%s", group);
		snprintf(out_event, elen, "%s", ev);
	}
out:
	pd_free(&def);
	return rc;
}

int pk_spec_line(const char *spec, struct strbuf *line, struct strbuf *notes, char *err,
		 size_t errlen)
{
	struct probe_def def;
	struct pd_error perr;
	if (pd_parse(spec, &def, &perr) < 0) {
		pd_error_line(spec, &perr, err, errlen);
		return -1;
	}
	int rc = -1;
	if (pd_resolve(&def, err, errlen) < 0 ||
	    pd_translate(&def, def.group, def.event, line, err, errlen) < 0)
		goto out;
	if (def.note)
		sb_printf(notes, "%s\n", def.note);
	for (size_t i = 0; i < def.nargs; i++)
		if (def.args[i].from_event_pid)
			sb_printf(notes, "%s: no fetch arg (kprobe fetch args cannot reach current): it is the "
				  "event's own pid (probe trace prints it; a recording has it as the "
				  "event's pid)\n", def.args[i].name);
	rc = 0;
out:
	pd_free(&def);
	return rc;
}

static bool is_probe(struct tracefs_dynevent *ev)
{
	char *sys = NULL, *name = NULL;
	enum tracefs_dynevent_type t = tracefs_dynevent_info(ev, &sys, &name, NULL, NULL, NULL);
	free(sys);
	free(name);
	return t == TRACEFS_DYNEVENT_UPROBE || t == TRACEFS_DYNEVENT_URETPROBE ||
	       t == TRACEFS_DYNEVENT_KPROBE || t == TRACEFS_DYNEVENT_KRETPROBE;
}

int pk_remove(const char *group, const char *event, char *err, size_t errlen)
{
	unsigned types = TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE |
			 TRACEFS_DYNEVENT_KPROBE | TRACEFS_DYNEVENT_KRETPROBE;
	struct tracefs_dynevent **all = tracefs_dynevent_get_all(types, group);
	int found = 0, rc = 0;
	for (size_t i = 0; all && all[i]; i++) {
		char *name = NULL;
		tracefs_dynevent_info(all[i], NULL, &name, NULL, NULL, NULL);
		bool match = !event || (name && !strcmp(name, event));
		free(name);
		if (!match || !is_probe(all[i]))
			continue;
		found++;
		/* libtracefs lists an event once per file it reads: the second removal finds it gone. */
		if (tracefs_dynevent_destroy(all[i], false) < 0 && errno != ENOENT && rc == 0) {
			snprintf(err, errlen, "cannot remove %s/%s: %s (is it enabled in a tracing "
				 "instance still recording?)", group, event ? event : "*", strerror(errno));
			rc = -1;
		}
	}
	tracefs_dynevent_list_free(all);
	if (!found && rc == 0) {
		snprintf(err, errlen, "no probe %s%s%s", group, event ? "/" : "", event ? event : "");
		errno = ENOENT;
		return -1;
	}
	return rc;
}

int pk_run_group_new(char *group, size_t len, char *err, size_t errlen)
{
	snprintf(group, len, PK_RUN_GROUP_PREFIX "%d_%u", (int)getpid(), run_groups++);
	/* Noted before anything is made: a SIGKILL after this leaves a group reset can find. */
	if (ftr_register(group) < 0) {
		snprintf(err, errlen, "cannot note probe group %s in " FT_REGISTRY_DIR ": %s", group,
			 strerror(errno));
		return -1;
	}
	return 0;
}

void pk_run_group_end(const char *group)
{
	char err[256];
	pk_remove(group, NULL, err, sizeof(err));
	ftr_unregister(group);
}

/* ---- the registry of persistent probes: one file GROUP.EVENT holding the spec ---- */

static void reg_path(char *buf, size_t len, const char *group, const char *event)
{
	snprintf(buf, len, PK_REGISTRY_DIR "/%s.%s", group, event);
}

int pk_registry_add(const char *group, const char *event, const char *spec)
{
	char path[512];
	mkdir("/run/tracekit", 0700);
	if (mkdir(PK_REGISTRY_DIR, 0700) < 0 && errno != EEXIST)
		return -1;
	reg_path(path, sizeof(path), group, event);
	FILE *f = fopen(path, "we");
	if (!f)
		return -1;
	fprintf(f, "%s\n", spec);
	return fclose(f);
}

bool pk_registry_has(const char *group, const char *event)
{
	char path[512];
	reg_path(path, sizeof(path), group, event);
	return access(path, F_OK) == 0;
}

void pk_registry_del(const char *group, const char *event)
{
	char path[512];
	reg_path(path, sizeof(path), group, event);
	unlink(path);
}

static char *registry_spec(const char *group, const char *event)
{
	char path[512], buf[4096];
	reg_path(path, sizeof(path), group, event);
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *r = fgets(buf, sizeof(buf), f) ? xstrdup(buf) : NULL;
	fclose(f);
	if (r)
		r[strcspn(r, "\n")] = '\0';
	return r;
}

/* ---- listing ---- */

static void add_listed(struct pk_probe **out, size_t *n, char *line, bool kernel)
{
	/* "p:GROUP/EVENT PLACE ARGS" */
	char *sp = strchr(line, ' '), *colon = strchr(line, ':');
	if (!sp || !colon || colon > sp)
		return;
	char *slash = memchr(colon, '/', (size_t)(sp - colon));
	if (!slash)
		return;
	*out = xrealloc(*out, (*n + 1) * sizeof(**out));
	struct pk_probe *p = &(*out)[(*n)++];
	memset(p, 0, sizeof(*p));
	p->group = xstrndup(colon + 1, (size_t)(slash - colon - 1));
	p->event = xstrndup(slash + 1, (size_t)(sp - slash - 1));
	p->definition = xstrdup(line);
	p->spec = registry_spec(p->group, p->event);
	p->persistent = p->spec != NULL;
	p->run = !strncmp(p->group, PK_RUN_GROUP_PREFIX, strlen(PK_RUN_GROUP_PREFIX));
	p->kernel = kernel;
}

static void list_file(const char *root, const char *file, struct pk_probe **out, size_t *n)
{
	char path[512], line[8192];
	snprintf(path, sizeof(path), "%s/%s", root, file);
	FILE *f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		add_listed(out, n, line, !strcmp(file, "kprobe_events"));
	}
	fclose(f);
}

int pk_list(struct pk_probe **out, size_t *n, char *err, size_t errlen)
{
	const char *root = ft_tracefs_root(err, errlen);
	*out = NULL;
	*n = 0;
	if (!root)
		return -1;
	list_file(root, "uprobe_events", out, n);
	list_file(root, "kprobe_events", out, n);
	return 0;
}

void pk_list_free(struct pk_probe *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(list[i].group);
		free(list[i].event);
		free(list[i].definition);
		free(list[i].spec);
	}
	free(list);
}

/* ---- reset ---- */

static void tell(pk_reset_fn fn, void *arg, enum pk_reset_action act, const char *what,
		 const char *why)
{
	if (fn)
		fn(act, what, why, arg);
}

/* Notes of dead runs whose group has no probe left at all (killed before making one). */
static void forget_empty_groups(const struct pk_probe *list, size_t n)
{
	DIR *d = opendir(FT_REGISTRY_DIR);
	if (!d)
		return;
	for (struct dirent *de; (de = readdir(d));) {
		if (strncmp(de->d_name, PK_RUN_GROUP_PREFIX, strlen(PK_RUN_GROUP_PREFIX)) != 0)
			continue;
		bool alive, used = false;
		ftr_owner(de->d_name, &alive);
		for (size_t i = 0; i < n && !used; i++)
			used = !strcmp(list[i].group, de->d_name);
		if (!alive && !used)
			ftr_unregister(de->d_name);
	}
	closedir(d);
}

int pk_reset(bool all, pk_reset_fn fn, void *arg, char *err, size_t errlen)
{
	struct pk_probe *list;
	size_t n;
	int removed = 0;
	if (pk_list(&list, &n, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		struct pk_probe *p = &list[i];
		char what[160], why[200], fail[300];
		snprintf(what, sizeof(what), "%s/%s", p->group, p->event);
		if (p->run) {
			bool alive;
			pid_t owner = ftr_owner(p->group, &alive);
			if (alive) {
				/* Never under a live run: reset --all asks it to stop first. */
				snprintf(why, sizeof(why), "owner pid %d still runs", (int)owner);
				tell(fn, arg, PK_RESET_KEPT, what, why);
				continue;
			}
			snprintf(why, sizeof(why), "owner pid %d is gone", (int)owner);
		} else if (p->persistent) {
			/* Made on purpose: not a leftover, so only reset --all takes it. */
			snprintf(why, sizeof(why), "made by tracekit probe add");
			if (!all) {
				tell(fn, arg, PK_RESET_KEPT, what, why);
				continue;
			}
		} else {
			continue;	/* not tracekit's */
		}
		if (pk_remove(p->group, p->event, fail, sizeof(fail)) < 0) {
			tell(fn, arg, PK_RESET_FAILED, what, fail);
			continue;
		}
		if (p->persistent)
			pk_registry_del(p->group, p->event);
		removed++;
		tell(fn, arg, PK_RESET_REMOVED, what, why);
	}
	/* Run groups noted but never made, or emptied: forget their notes. */
	for (size_t i = 0; i < n; i++)
		if (list[i].run) {
			bool alive;
			ftr_owner(list[i].group, &alive);
			if (!alive)
				ftr_unregister(list[i].group);
		}
	forget_empty_groups(list, n);
	pk_list_free(list, n);
	return removed;
}

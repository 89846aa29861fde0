/*
 * The function tracers on a session (see functions.h).
 *
 * Where they run is found by asking: the instance's current_tracer is
 * written; a kernel whose instances cannot run the tracer (6.1 answers
 * function_graph with EIO) sends us to the top level, a kernel that refuses
 * the tracer everywhere (EPERM) ends the run with the reason.
 */
#include "ftrace/functions.h"
#include "ftrace/registry.h"
#include "ftrace/session.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/die.h"
#include "util/editdist.h"
#include "util/strbuf.h"

static void refusal(const char *tracer, const char *what, int e, char *err, size_t errlen);

/* The kernel option each tracer needs, for "this kernel has no ..." */
static const struct {
	const char *tracer, *config;
} tracer_configs[] = {
	{ "function", "CONFIG_FUNCTION_TRACER" },
	{ "function_graph", "CONFIG_FUNCTION_GRAPH_TRACER" },
};

static const char *tracer_config(const char *tracer)
{
	for (size_t i = 0; i < sizeof(tracer_configs) / sizeof(tracer_configs[0]); i++)
		if (!strcmp(tracer_configs[i].tracer, tracer))
			return tracer_configs[i].config;
	return NULL;
}

static char *slurp(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		sb_addn(&sb, buf, (size_t)n);
	int e = errno;
	close(fd);
	char *text = n < 0 ? NULL : xstrdup(sb_str(&sb));
	sb_free(&sb);
	errno = e;
	return text;
}

static bool word_in(const char *word, const char *text)
{
	size_t n = strlen(word);
	for (const char *p = text; (p = strstr(p, word)); p += n)
		if ((p == text || p[-1] == ' ' || p[-1] == '\n') &&
		    (p[n] == ' ' || p[n] == '\n' || p[n] == '\0'))
			return true;
	return false;
}

void ft_tracer_refusal(const char *tracer, const char *dir, int e, char *err, size_t errlen)
{
	char what[4200];
	snprintf(what, sizeof(what), "writing it to %s/current_tracer", dir);
	refusal(tracer, what, e, err, errlen);
}

static void refusal(const char *tracer, const char *what, int e, char *err, size_t errlen)
{
	char *lock = slurp("/sys/kernel/security/lockdown");
	char *mode = lock ? strchr(lock, '[') : NULL;
	if (mode && strncmp(mode, "[none]", 6)) {
		mode[strcspn(mode, "]") + 1] = '\0';
		snprintf(err, errlen, "the kernel refuses the %s tracer: lockdown is %s "
			 "(/sys/kernel/security/lockdown)", tracer, mode);
	} else {
		snprintf(err, errlen, "the kernel refuses the %s tracer (%s: %s)", tracer, what,
			 strerror(e));
	}
	free(lock);
}

/* The tracer exists in this kernel (available_tracers), else err names its option. */
static int tracer_available(const char *root, const char *tracer, char *err, size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/available_tracers", root);
	char *have = slurp(path);
	if (!have) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	int ret = 0;
	const char *config = tracer_config(tracer);
	if (!word_in(tracer, have)) {
		have[strcspn(have, "\n")] = '\0';
		if (config)
			snprintf(err, errlen, "this kernel has no %s tracer (it needs %s; "
				 "available_tracers: %s)", tracer, config, have);
		else
			snprintf(err, errlen, "unknown tracer '%s' (available_tracers: %s)",
				 tracer, have);
		ret = -1;
	}
	free(have);
	if (ret < 0)
		errno = config ? ENODEV : EINVAL;
	return ret;
}

/* Write tracer to DIR/current_tracer; the errno of a refusal, 0 when taken. */
static int try_tracer(const char *dir, const char *tracer)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/current_tracer", dir);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int e = write(fd, tracer, strlen(tracer)) < 0 ? errno : 0;
	close(fd);
	return e;
}

static int tracer_nop(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/current_tracer", dir);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, "nop", 3);
	close(fd);
	return n == 3 ? 0 : -1;
}

struct ft_session *ft_function_session(const char *tracer, char *err, size_t errlen)
{
	const char *root = ft_tracefs_root(err, errlen);
	if (!root || tracer_available(root, tracer, err, errlen) < 0)
		return NULL;
	/* A kernel that refuses function tracing refuses its list of functions too (EPERM). */
	char path[4096];
	snprintf(path, sizeof(path), "%s/available_filter_functions", root);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 && (errno == EPERM || errno == EACCES)) {
		char what[4200];
		snprintf(what, sizeof(what), "reading %s", path);
		refusal(tracer, what, errno, err, errlen);
		return NULL;
	}
	if (fd >= 0)
		close(fd);
	struct ft_session *s = ft_session_new(err, errlen);
	if (!s)
		return NULL;
	/*
	 * Instances have run the function tracer since 4.x; trying it would patch
	 * every function twice (seconds under qemu), and setup reports a refusal.
	 */
	if (!strcmp(tracer, "function"))
		return s;
	int e = try_tracer(ft_instance_dir(s), tracer);
	tracer_nop(ft_instance_dir(s));
	if (!e)
		return s;
	if (e == EPERM || e == EACCES) {
		ft_tracer_refusal(tracer, ft_instance_dir(s), e, err, errlen);
		ft_session_destroy(s);
		return NULL;
	}
	/* Instances of this kernel cannot run it (EIO on 6.1 for function_graph): the top level. */
	ft_session_destroy(s);
	char purpose[96];
	snprintf(purpose, sizeof(purpose), "record -p %s", tracer);
	return ft_session_new_top(purpose, err, errlen);
}

/* ---- available_filter_functions, read once ---- */

static char *avail_text;
static char **avail;	/* "name" or "name [module]" */
static size_t navail;

static void free_avail(void)
{
	free(avail);
	free(avail_text);
}

static int load_avail(char *err, size_t errlen)
{
	if (avail)
		return 0;
	const char *root = ft_tracefs_root(err, errlen);
	if (!root)
		return -1;
	char path[4096];
	snprintf(path, sizeof(path), "%s/available_filter_functions", root);
	avail_text = slurp(path);
	if (!avail_text) {
		snprintf(err, errlen, "cannot read %s: %s (the function tracer needs "
			 "CONFIG_DYNAMIC_FTRACE for filters)", path, strerror(errno));
		return -1;
	}
	size_t cap = 0;
	for (char *line = avail_text, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (navail == cap) {
			cap = cap ? cap * 2 : 65536;
			avail = xrealloc(avail, cap * sizeof(*avail));
		}
		avail[navail++] = line;
	}
	if (!avail)
		avail = xmalloc(sizeof(*avail));
	atexit(free_avail);
	return 0;
}

/* Split "name [module]" into name length and module (NULL when built in). */
static size_t entry_name(const char *entry, const char **mod, size_t *modlen)
{
	size_t n = strcspn(entry, " ");
	const char *m = strchr(entry + n, '[');
	*mod = m ? m + 1 : NULL;
	*modlen = m ? strcspn(m + 1, "]") : 0;
	return n;
}

int ft_function_check(const char *pattern, const char *opt, char *err, size_t errlen)
{
	if (pattern[0] == '!')
		return 0;	/* a removal matches what it matches */
	if (load_avail(err, errlen) < 0)
		return -1;
	char name[512];
	const char *mod = NULL;
	const char *m = strstr(pattern, ":mod:");
	snprintf(name, sizeof(name), "%.*s", m ? (int)(m - pattern) : (int)strlen(pattern), pattern);
	if (!name[0])
		snprintf(name, sizeof(name), "*");
	if (m)
		mod = m + 5;
	struct closest c;
	closest_init(&c, strlen(name) / 3 + 2);
	for (size_t i = 0; i < navail; i++) {
		const char *emod;
		size_t elen, n = entry_name(avail[i], &emod, &elen);
		char ename[512];
		snprintf(ename, sizeof(ename), "%.*s", (int)n, avail[i]);
		bool mod_ok = !mod || (emod && strlen(mod) == elen && !strncmp(mod, emod, elen));
		if (mod_ok && fnmatch(name, ename, 0) == 0) {
			closest_free(&c);
			return 0;
		}
		if (mod_ok)
			closest_offer(&c, name, strlen(name), ename);
	}
	char near[512];
	closest_join(&c, near, sizeof(near));
	closest_free(&c);
	if (near[0])
		snprintf(err, errlen, "%s '%s' matches no traceable function (did you mean %s?)",
			 opt, pattern, near);
	else
		snprintf(err, errlen, "%s '%s' matches no traceable function%s%s (the kernel "
			 "lists them in available_filter_functions)", opt, pattern,
			 mod ? " in module " : "", mod ? mod : "");
	return -1;
}

/* Patterns checked, then written in one go (the kernel splits at spaces). */
static int write_patterns(struct ft_session *s, const char *rel, const char *opt,
			  const char **pats, int n, char *err, size_t errlen)
{
	if (!n)
		return 0;
	struct strbuf sb = STRBUF_INIT;
	int ret = 0;
	for (int i = 0; i < n && ret == 0; i++) {
		ret = ft_function_check(pats[i], opt, err, errlen);
		sb_printf(&sb, "%s%s", i ? " " : "", pats[i]);
	}
	if (ret == 0)
		ret = ft_write(s, rel, sb_str(&sb), err, errlen);
	sb_free(&sb);
	return ret;
}

/* -O NAME or -O noNAME: options/NAME, which this kernel must have. */
static int set_func_option(struct ft_session *s, const char *opt, char *err, size_t errlen)
{
	bool on = strncmp(opt, "no", 2) != 0;
	const char *name = on ? opt : opt + 2;
	char rel[256], path[4400];
	snprintf(rel, sizeof(rel), "options/%s", name);
	snprintf(path, sizeof(path), "%s/%s", ft_instance_dir(s), rel);
	if (!*name || strchr(name, '/') || access(path, F_OK) < 0) {
		snprintf(err, errlen, "-O %s: this kernel has no tracer option '%s' (%s/options "
			 "lists them; noNAME turns NAME off)", opt, name, ft_tracefs_dir(s));
		return -1;
	}
	return ft_write(s, rel, on ? "1" : "0", err, errlen);
}

static int set_pids(struct ft_session *s, const pid_t *pids, int n, bool follow,
		    char *err, size_t errlen)
{
	if (!n)
		return 0;
	if (ft_write(s, "options/function-fork", follow ? "1" : "0", err, errlen) < 0)
		return -1;
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < n; i++)
		sb_printf(&sb, "%s%d", i ? " " : "", (int)pids[i]);
	int ret = ft_write(s, "set_ftrace_pid", sb_str(&sb), err, errlen);
	sb_free(&sb);
	return ret;
}

int ft_function_setup(struct ft_session *s, const struct ft_func_options *fo,
		      const pid_t *pids, int npids, bool follow, char *err, size_t errlen)
{
	if (!fo->tracer)
		return 0;
	/* Off until the recorder runs: the tracer starts the moment it is set. */
	if (ft_tracing_on(s, false, err, errlen) < 0)
		return -1;
	if (write_patterns(s, "set_ftrace_filter", "-l", fo->filters, fo->nfilters, err, errlen) ||
	    write_patterns(s, "set_ftrace_notrace", "-n", fo->notrace, fo->nnotrace, err, errlen) ||
	    write_patterns(s, "set_graph_function", "-g", fo->graph, fo->ngraph, err, errlen))
		return -1;
	if (fo->max_graph_depth) {
		char v[16];
		snprintf(v, sizeof(v), "%d", fo->max_graph_depth);
		if (ft_write(s, "max_graph_depth", v, err, errlen) < 0)
			return -1;
	}
	for (int i = 0; i < fo->nopts; i++)
		if (set_func_option(s, fo->opts[i], err, errlen) < 0)
			return -1;
	if (set_pids(s, pids, npids, follow, err, errlen) < 0)
		return -1;
	if (ft_write(s, "current_tracer", fo->tracer, err, errlen) < 0) {
		ft_tracer_refusal(fo->tracer, ft_instance_dir(s), errno, err, errlen);
		return -1;
	}
	return 0;
}

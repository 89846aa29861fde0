/*
 * Gathering a trace file's metadata: the ring-buffer page and event headers,
 * the format of every enabled event (and ftrace's own, which readers expect),
 * kallsyms and printk formats for symbolic output, and the pid -> comm/tgid
 * tables the kernel saved while recording.
 */
#include "meta.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "util/die.h"

/* Keep text alive until rec_meta_free. */
static struct tf_text keep(struct rec_meta *rm, char *data, size_t len)
{
	rm->texts = xrealloc(rm->texts, sizeof(char *) * (size_t)(rm->ntexts + 1));
	rm->texts[rm->ntexts++] = data;
	return (struct tf_text){ data ? data : "", data ? len : 0 };
}

static struct tf_text top(struct rec_meta *rm, struct ft_session *s, const char *rel)
{
	size_t len = 0;
	char *t = ft_read_top_file(s, rel, &len);
	return keep(rm, t, len);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	for (size_t r; (r = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += r;
		if (n == cap)
			buf = xrealloc(buf, cap *= 2);
	}
	fclose(f);
	*len = n;
	return buf;
}

static void add_format(struct rec_meta *rm, struct ft_session *s, const char *system,
		       const char *event)
{
	char rel[512];
	snprintf(rel, sizeof(rel), "events/%s/%s/format", system, event);
	struct tf_text t = top(rm, s, rel);
	if (!t.len)
		return;
	rm->formats = xrealloc(rm->formats, sizeof(*rm->formats) * (size_t)(rm->m.nformats + 1));
	rm->formats[rm->m.nformats].system = xstrdup(system);
	rm->formats[rm->m.nformats].text = t;
	rm->m.nformats++;
}

/* ftrace's internal events (function, print, ...): trace-cmd files carry them all. */
static void add_ftrace_formats(struct rec_meta *rm, struct ft_session *s)
{
	char dir[4200];
	snprintf(dir, sizeof(dir), "%s/events/ftrace", ft_tracefs_dir(s));
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.' && e->d_type == DT_DIR)
			add_format(rm, s, "ftrace", e->d_name);
	closedir(d);
}

int rec_meta_gather(struct ft_session *s, struct rec_meta *rm, char *err, size_t errlen)
{
	memset(rm, 0, sizeof(*rm));
	struct tf_meta *m = &rm->m;
	m->page_size = (unsigned)sysconf(_SC_PAGESIZE);
	m->cpus = ft_cpu_count(s);
	m->header_page = top(rm, s, "events/header_page");
	m->header_event = top(rm, s, "events/header_event");
	if (!m->header_page.len) {
		snprintf(err, errlen, "cannot read %s/events/header_page", ft_tracefs_dir(s));
		return -1;
	}
	add_ftrace_formats(rm, s);
	char **events = NULL;
	int n = ft_enabled_events(s, &events);
	for (int i = 0; i < n; i++) {
		char *colon = strchr(events[i], ':');
		if (!colon)
			continue;
		*colon = '\0';
		add_format(rm, s, events[i], colon + 1);
		*colon = ':';
	}
	ft_free_list(events, n);
	m->formats = rm->formats;

	size_t len = 0;
	char *ks = slurp("/proc/kallsyms", &len);
	m->kallsyms = keep(rm, ks, len);
	m->printk_formats = top(rm, s, "printk_formats");
	m->cmdlines = top(rm, s, "saved_cmdlines");
	m->tgids = top(rm, s, "saved_tgids");

	struct utsname u;
	if (uname(&u) == 0)
		snprintf(rm->uname, sizeof(rm->uname), "%s %s %s %s", u.sysname, u.release, u.version,
			 u.machine);
	m->uname = rm->uname;
	return 0;
}

void rec_meta_free(struct rec_meta *rm)
{
	for (int i = 0; i < rm->m.nformats; i++)
		free((char *)rm->formats[i].system);
	free(rm->formats);
	for (int i = 0; i < rm->ntexts; i++)
		free(rm->texts[i]);
	free(rm->texts);
	memset(rm, 0, sizeof(*rm));
}

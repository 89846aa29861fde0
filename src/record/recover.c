/*
 * record --recover (see recover.h).  The note is a few "key value" lines,
 * read back here only:
 *
 *	boot 5f0c...          events are decoded with this boot's formats
 *	clock mono
 *	version 7
 *	page_size 4096
 *	cpus 2
 *	event sched:sched_switch
 *	note command=./prog
 */
#include "recover.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ftrace/session.h"
#include "output.h"
#include "recorder.h"
#include "tracefile/writer.h"
#include "util/die.h"

struct kept {
	char boot[64];
	char clock[64];
	int version;
	unsigned page_size;
	int cpus;
	char **events;
	int nevents;
	const char **notes;
	int nnotes;
};

static void boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	buf[0] = '\0';
	if (f && fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

static void note_path(const char *output, char *buf, size_t len)
{
	snprintf(buf, len, "%s.recover", output);
}

void rec_recover_note(struct ft_session *s, const char *const *notes, int nnotes,
		      const char *clock, int version, const char *output)
{
	char path[4200], boot[64];
	char **events = NULL;
	int n = ft_enabled_events(s, &events);

	note_path(output, path, sizeof(path));
	FILE *f = fopen(path, "we");
	if (f) {
		boot_id(boot, sizeof(boot));
		fprintf(f, "boot %s\nclock %s\nversion %d\npage_size %ld\ncpus %d\n", boot, clock,
			version, sysconf(_SC_PAGESIZE), ft_cpu_count(s));
		for (int i = 0; i < n; i++)
			fprintf(f, "event %s\n", events[i]);
		for (int i = 0; i < nnotes; i++)
			if (!strchr(notes[i], '\n'))
				fprintf(f, "note %s\n", notes[i]);
		if (fclose(f) != 0)
			unlink(path);	/* a half note is no note */
	}
	ft_free_list(events, n);
}

void rec_recover_forget(const char *output)
{
	char path[4200];
	note_path(output, path, sizeof(path));
	unlink(path);
}

static void kept_free(struct kept *k)
{
	ft_free_list(k->events, k->nevents);
	for (int i = 0; i < k->nnotes; i++)
		free((char *)k->notes[i]);
	free(k->notes);
}

static void add(char ***list, int *n, const char *s)
{
	*list = xrealloc(*list, sizeof(char *) * (size_t)(*n + 2));
	(*list)[(*n)++] = xstrdup(s);
	(*list)[*n] = NULL;
}

static int read_note(const char *output, struct kept *k)
{
	char path[4200], line[8192];
	note_path(output, path, sizeof(path));
	FILE *f = fopen(path, "re");
	if (!f) {
		errmsg("%s has no kept recording to assemble (%s: %s; it is written when record "
		       "cannot write its trace)", output, path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *val = strchr(line, ' ');
		if (!val)
			continue;
		*val++ = '\0';
		if (!strcmp(line, "boot"))
			snprintf(k->boot, sizeof(k->boot), "%s", val);
		else if (!strcmp(line, "clock"))
			snprintf(k->clock, sizeof(k->clock), "%s", val);
		else if (!strcmp(line, "version"))
			k->version = atoi(val);
		else if (!strcmp(line, "page_size"))
			k->page_size = (unsigned)strtoul(val, NULL, 10);
		else if (!strcmp(line, "cpus"))
			k->cpus = atoi(val);
		else if (!strcmp(line, "event"))
			add(&k->events, &k->nevents, val);
		else if (!strcmp(line, "note"))
			add((char ***)&k->notes, &k->nnotes, val);
	}
	fclose(f);
	if ((k->version != 6 && k->version != 7) || k->cpus <= 0 || k->cpus > 4096 ||
	    k->page_size != (unsigned)sysconf(_SC_PAGESIZE) || !k->nevents) {
		errmsg("%s is not a note record wrote (remove it and %s.cpuN)", path, output);
		return -1;
	}
	return 0;
}

/* The kept per-CPU files, whole pages only (a full disk can cut the last one short). */
static struct tf_cpu_data *kept_data(const char *output, const struct kept *k, char (*paths)[4200],
				     uint64_t *bytes)
{
	struct tf_cpu_data *data = xcalloc((size_t)k->cpus, sizeof(*data));
	for (int i = 0; i < k->cpus; i++) {
		struct stat st;
		snprintf(paths[i], sizeof(paths[i]), "%s.cpu%d", output, i);
		data[i].cpu = i;
		if (stat(paths[i], &st) < 0)
			continue;
		data[i].path = paths[i];
		data[i].size = (uint64_t)st.st_size - (uint64_t)st.st_size % k->page_size;
		*bytes += data[i].size;
	}
	return data;
}

static int assemble(const char *output, const struct kept *k)
{
	char err[1024] = "", (*paths)[4200] = xcalloc((size_t)k->cpus, sizeof(*paths));
	uint64_t bytes = 0, events = 0, missed = 0;
	int rc = 1;
	struct tf_cpu_data *data = kept_data(output, k, paths, &bytes);
	struct ft_session *s = ft_session_new(err, sizeof(err));

	if (!s || ft_set_clock(s, k->clock, err, sizeof(err)) < 0)
		goto out;
	for (int i = 0; i < k->nevents; i++) {
		if (ft_enable_events(s, k->events[i], err, sizeof(err)) < 0) {
			snprintf(err, sizeof(err), "event %s is gone (a --probe of that recording?): "
				 "its format is needed to read the kept data", k->events[i]);
			goto out;
		}
	}
	if (rec_write_file(s, k->notes, k->nnotes, k->clock, k->version, data, k->cpus, NULL, NULL,
			   0, output, err, sizeof(err)) < 0)
		goto out;
	for (int i = 0; i < k->cpus; i++)
		events += rec_count_events(data[i].path, data[i].size, k->page_size, &missed);
	fprintf(stderr, "tracekit: record: %s: %llu events recovered from %s.cpu0..%d, %llu lost "
		"while recording, %llu KB\n", output, (unsigned long long)events, output, k->cpus - 1,
		(unsigned long long)missed, (unsigned long long)(bytes / 1024));
	for (int i = 0; i < k->cpus; i++)
		unlink(paths[i]);
	note_path(output, paths[0], sizeof(paths[0]));
	unlink(paths[0]);
	rc = 0;
out:
	if (rc)
		errmsg("%s (the kept files are still there)", err);
	ft_session_destroy(s);
	free(data);
	free(paths);
	return rc;
}

int rec_recover(const char *output)
{
	struct kept k = { .version = 0 };
	char boot[64];
	int rc = 1;

	if (read_note(output, &k) < 0)
		goto out;
	boot_id(boot, sizeof(boot));
	if (strcmp(boot, k.boot) != 0) {
		errmsg("the kept data of %s was recorded before the last boot: this kernel's event "
		       "formats may not match it, so it cannot be assembled", output);
		goto out;
	}
	rc = assemble(output, &k);
out:
	kept_free(&k);
	return rc;
}

/*
 * Listing events (see events.h): available_events read once per call, glob
 * matching, "did you mean" suggestions, and one event's fields parsed from
 * its format file with libtraceevent.
 *
 * A glob with a ':' matches "system:event" whole; without one it matches a
 * system name or an event name, so "-e sched" means the sched system and
 * "-e sched_switch" the event, as with trace-cmd.
 */
#include "ftrace/events.h"
#include "ftrace/registry.h"
#include "ftrace/session.h"
#include "util/die.h"
#include "util/editdist.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <tracefs.h>

static bool glob_matches(const char *glob, const char *full)
{
	if (!glob)
		return true;
	if (strchr(glob, ':'))
		return fnmatch(glob, full, 0) == 0;
	const char *colon = strchr(full, ':');
	if (!colon)
		return false;
	char sys[128];
	snprintf(sys, sizeof(sys), "%.*s", (int)(colon - full), full);
	return fnmatch(glob, sys, 0) == 0 || fnmatch(glob, colon + 1, 0) == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* available_events as a sorted list of lines. */
static int read_all(char ***list, char *err, size_t errlen)
{
	if (!ft_tracefs_root(err, errlen))
		return -1;
	int size = 0;
	char *text = tracefs_instance_file_read(NULL, "available_events", &size);
	if (!text) {
		snprintf(err, errlen, "cannot read tracefs available_events: %s", strerror(errno));
		return -1;
	}
	int n = 0, cap = 0;
	char **out = NULL;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strchr(line, ':'))
			continue;
		if (n + 1 >= cap) {
			cap = cap ? 2 * cap : 1024;
			char **grown = realloc(out, (size_t)cap * sizeof(*out));
			if (!grown)
				goto oom;
			out = grown;
		}
		if (!(out[n] = strdup(line)))
			goto oom;
		n++;
	}
	free(text);
	if (!out && !(out = calloc(1, sizeof(*out))))
		goto oom;
	qsort(out, (size_t)n, sizeof(*out), cmp_str);
	out[n] = NULL;
	*list = out;
	return n;
oom:
	free(text);
	ft_free_list(out, n);
	snprintf(err, errlen, "out of memory");
	return -1;
}

int ft_list_events(const char *glob, char ***list, char *err, size_t errlen)
{
	char **all;
	int n = read_all(&all, err, errlen);
	if (n < 0)
		return -1;
	int kept = 0;
	for (int i = 0; i < n; i++) {
		if (glob_matches(glob, all[i]))
			all[kept++] = all[i];
		else
			free(all[i]);
	}
	all[kept] = NULL;
	*list = all;
	return kept;
}

/* Optimal string alignment distance (util/editdist): "schde" is one swap from "sched". */
static int edit_distance(const char *a, const char *b)
{
	size_t d = edit_distance_n(a, strlen(a), b, strlen(b));
	return d > (1 << 20) ? 1 << 20 : (int)d;
}

static const char *event_part(const char *name)
{
	const char *colon = strchr(name, ':');
	return colon ? colon + 1 : name;
}

/* How far name is from candidate: over "system:event", or over the event part alone. */
static int score(const char *name, const char *candidate)
{
	int full = edit_distance(name, candidate);
	int ev = edit_distance(event_part(name), event_part(candidate));
	return full < ev ? full : ev;
}

struct scored {
	int score;
	const char *name;
};

static int cmp_scored(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;
	if (x->score != y->score)
		return x->score < y->score ? -1 : 1;
	return strcmp(x->name, y->name);
}

int ft_closest_events(const char *name, char **out, int max)
{
	char err[256];
	char **all;
	int n = read_all(&all, err, sizeof(err));
	if (n < 0 || max <= 0)
		return n < 0 ? -1 : 0;
	struct scored *sc = malloc((size_t)(n ? n : 1) * sizeof(*sc));
	if (!sc) {
		ft_free_list(all, n);
		return -1;
	}
	/* Farther than a third of the name is no longer a misspelling. */
	int limit = (int)strlen(event_part(name)) / 3;
	if (limit < 2)
		limit = 2;
	for (int i = 0; i < n; i++)
		sc[i] = (struct scored){ score(name, all[i]), all[i] };
	qsort(sc, (size_t)n, sizeof(*sc), cmp_scored);
	int found = 0;
	for (int i = 0; i < n && found < max && sc[i].score <= limit; i++) {
		out[found] = strdup(sc[i].name);
		if (out[found])
			found++;
	}
	free(sc);
	ft_free_list(all, n);
	return found;
}

void ft_event_not_found(const char *name, char *err, size_t errlen)
{
	char *close[3];
	int n = ft_closest_events(name, close, 3);
	int len = snprintf(err, errlen, "event '%s' not found", name);
	for (int i = 0; i < n; i++) {
		const char *sep = i == 0 ? " (did you mean " : i == n - 1 ? " or " : ", ";
		if (len >= 0 && (size_t)len < errlen)
			len += snprintf(err + len, errlen - (size_t)len, "%s%s", sep, close[i]);
		free(close[i]);
	}
	if (len >= 0 && (size_t)len < errlen)
		snprintf(err + len, errlen - (size_t)len, "%s",
			 n > 0 ? "?)" : " (see 'tracekit list')");
}

/* ---- one event's fields ---- */

/* "system:event" for spec, also when spec is a bare event name that is unique. */
static int resolve_event(const char *spec, char *sys, size_t syslen, char *ev, size_t evlen,
			 char *err, size_t errlen)
{
	char **list;
	int n = ft_list_events(NULL, &list, err, errlen);
	if (n < 0)
		return -1;
	const char *hit = NULL;
	int hits = 0;
	for (int i = 0; i < n; i++) {
		bool same = strchr(spec, ':') ? strcmp(list[i], spec) == 0
					      : strcmp(event_part(list[i]), spec) == 0;
		if (same) {
			hit = hit ? hit : list[i];
			hits++;
		}
	}
	int ret = -1;
	if (hits == 1) {
		const char *colon = strchr(hit, ':');
		snprintf(sys, syslen, "%.*s", (int)(colon - hit), hit);
		snprintf(ev, evlen, "%s", colon + 1);
		ret = 0;
	} else if (hits > 1) {
		snprintf(err, errlen, "event name '%s' is in several systems (write SYSTEM:%s)",
			 spec, spec);
	} else {
		ft_event_not_found(spec, err, errlen);
	}
	ft_free_list(list, n);
	return ret;
}

/* "char[16]" for an array whose type libtraceevent keeps without its length. */
static char *field_type(const struct tep_format_field *f)
{
	char *type;
	if ((f->flags & TEP_FIELD_IS_ARRAY) && !strchr(f->type, '[') && f->arraylen) {
		if (asprintf(&type, "%s[%u]", f->type, f->arraylen) < 0)
			return NULL;
		return type;
	}
	return strdup(f->type);
}

static int add_fields(struct tep_format_field **src, bool common, struct ft_field *out, int n)
{
	for (int i = 0; src && src[i]; i++) {
		struct ft_field *f = &out[n];
		f->type = field_type(src[i]);
		f->name = strdup(src[i]->name);
		f->offset = src[i]->offset;
		f->size = src[i]->size;
		f->is_signed = src[i]->flags & TEP_FIELD_IS_SIGNED;
		f->common = common;
		n++;
		if (!f->type || !f->name)
			return -1;
	}
	return n;
}

static int count_fields(struct tep_format_field **f)
{
	int n = 0;
	while (f && f[n])
		n++;
	return n;
}

static int parse_fields(const char *text, size_t size, const char *sys,
			struct ft_field **fields, char *err, size_t errlen)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *event = NULL;
	struct tep_format_field **common = NULL, **own = NULL;
	int n = -1;

	if (!tep || tep_parse_format(tep, &event, text, size, sys) != 0 || !event) {
		snprintf(err, errlen, "cannot parse the format of a %s event", sys);
		goto out;
	}
	common = tep_event_common_fields(event);
	own = tep_event_fields(event);
	int total = count_fields(common) + count_fields(own);
	*fields = calloc((size_t)total + 1, sizeof(**fields));
	if (!*fields)
		goto oom;
	n = add_fields(common, true, *fields, 0);
	if (n >= 0)
		n = add_fields(own, false, *fields, n);
	if (n < 0) {
		ft_free_fields(*fields, total);
		*fields = NULL;
		goto oom;
	}
	goto out;
oom:
	snprintf(err, errlen, "out of memory");
	n = -1;
out:
	free(common);
	free(own);
	if (tep)
		tep_free(tep);
	return n;
}

int ft_event_fields(const char *event, struct ft_field **fields, char *err, size_t errlen)
{
	char sys[128], ev[128];
	*fields = NULL;
	if (resolve_event(event, sys, sizeof(sys), ev, sizeof(ev), err, errlen) < 0)
		return -1;
	int size = 0;
	char *text = tracefs_event_file_read(NULL, sys, ev, "format", &size);
	if (!text) {
		snprintf(err, errlen, "cannot read the format of %s:%s: %s", sys, ev,
			 strerror(errno));
		return -1;
	}
	int n = parse_fields(text, (size_t)size, sys, fields, err, errlen);
	free(text);
	return n;
}

char *ft_event_print_fmt(const char *event)
{
	char sys[128], ev[128], err[256];
	if (resolve_event(event, sys, sizeof(sys), ev, sizeof(ev), err, sizeof(err)) < 0)
		return NULL;
	char *text = tracefs_event_file_read(NULL, sys, ev, "format", NULL);
	char *fmt = text ? strstr(text, "\nprint fmt: ") : NULL;
	char *r = NULL;
	if (fmt) {
		fmt += strlen("\nprint fmt: ");
		r = xstrndup(fmt, strcspn(fmt, "\n"));
	}
	free(text);
	return r;
}

void ft_free_fields(struct ft_field *fields, int n)
{
	if (!fields)
		return;
	for (int i = 0; i < n; i++) {
		free(fields[i].type);
		free(fields[i].name);
	}
	free(fields);
}

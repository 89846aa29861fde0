/*
 * tracekit list: the tracepoints of the running kernel ("system:event", one a
 * line, sorted), one event's fields with --format, or the syscall table with
 * --syscalls.  The listing itself is src/ftrace/events.c.
 */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ftrace/events.h"
#include "ftrace/session.h"
#include "syscalls/json.h"
#include "syscalls/table.h"
#include "util/die.h"
#include "util/strbuf.h"
#include "ust/binary.h"
#include "ust/format.h"

void help_list(FILE *f)
{
	fputs("usage: tracekit list [-e GLOB]... [--json]\n"
	      "       tracekit list --format EVENT|SYSTEM|GLOB [--json]\n"
	      "       tracekit list --syscalls [-e GLOB]... [--json]\n"
	      "       tracekit list --binary FILE [-e GLOB]... [--format EVENT] [--json]\n"
	      "\n"
	      "List the kernel's tracepoints as SYSTEM:EVENT, one per line, sorted.\n"
	      "\n"
	      "  -e, --events=GLOB   only matching events: 'sched:*', 'sched:sched_wak*',\n"
	      "                      a system ('sched') or an event name ('sched_switch');\n"
	      "                      may be repeated\n"
	      "  -f, --format=EVENT  the fields of EVENT: type, name, offset, size, signed;\n"
	      "                      then its print fmt; a system or glob ('sched') shows\n"
	      "                      each of its events\n"
	      "      --syscalls      the syscall names tracekit knows instead of tracepoints\n"
	      "      --binary FILE   the user tracepoints built into FILE (TRACE_EVENT with\n"
	      "                      <tracekit/tracepoint.h>); --format prints one's format file\n"
	      "      --json          one JSON object per line (per event, field or syscall)\n"
	      "\n"
	      "Needs root (tracefs).  Exit status 1 when nothing matches.  See docs/list.md.\n", f);
}

enum { OPT_JSON = 256, OPT_SYSCALLS, OPT_BINARY };

static const struct option longopts[] = {
	{ "events", required_argument, NULL, 'e' },
	{ "format", required_argument, NULL, 'f' },
	{ "syscalls", no_argument, NULL, OPT_SYSCALLS },
	{ "binary", required_argument, NULL, OPT_BINARY },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct list_opts {
	const char **globs;
	int nglobs;
	const char *format;
	bool syscalls;
	bool json;
	const char *binary;
};

static int parse(struct list_opts *o, int argc, char **argv)
{
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:e:f:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!*optarg) {
				errmsg("-e needs a glob, e.g. -e 'sched:*'");
				return -1;
			}
			o->globs = xrealloc(o->globs, sizeof(*o->globs) * (size_t)(o->nglobs + 1));
			o->globs[o->nglobs++] = optarg;
			break;
		case 'f': o->format = optarg; break;
		case OPT_SYSCALLS: o->syscalls = true; break;
		case OPT_BINARY: o->binary = optarg; break;
		case OPT_JSON: o->json = true; break;
		case 'h': help_list(stdout); exit(0);
		case ':':
		default:
			cli_getopt_error("list", c, argv);
			return -1;
		}
	}
	if (optind < argc) {
		errmsg("unexpected argument '%s' (events are chosen with -e GLOB)", argv[optind]);
		return -1;
	}
	if (o->binary && o->syscalls) {
		errmsg("--binary lists a program's tracepoints: it does not mix with --syscalls");
		return -1;
	}
	if (o->format && (o->nglobs || o->syscalls)) {
		errmsg("--format EVENT shows one event: it does not mix with -e or --syscalls");
		return -1;
	}
	return 0;
}

/* The line for one event, text or JSON. */
static void print_event(const char *full, bool json)
{
	if (!json) {
		puts(full);
		return;
	}
	struct strbuf sb = STRBUF_INIT;
	const char *colon = strchr(full, ':');
	char *sys = strndup(full, (size_t)(colon - full));
	sb_add(&sb, "{\"system\":");
	json_str(&sb, sys ? sys : "");
	sb_add(&sb, ",\"event\":");
	json_str(&sb, colon + 1);
	sb_add(&sb, "}");
	puts(sb_str(&sb));
	free(sys);
	sb_free(&sb);
}

/* Events matching any -e glob, each once, sorted: the union of per-glob lists. */
static int list_events(const struct list_opts *o)
{
	char err[512], **all;
	int n = ft_list_events(NULL, &all, err, sizeof(err));
	if (n < 0) {
		errmsg("%s", err);
		return 1;
	}
	bool *keep = xcalloc((size_t)n + 1, sizeof(*keep));
	int shown = 0, status = 0;
	for (int i = 0; i < n; i++)
		keep[i] = o->nglobs == 0;
	for (int g = 0; g < o->nglobs; g++) {
		char **sub;
		int m = ft_list_events(o->globs[g], &sub, err, sizeof(err));
		if (m <= 0) {
			if (m == 0)
				ft_event_not_found(o->globs[g], err, sizeof(err));
			errmsg("%s", err);
			status = 1;
		}
		/* Both lists are sorted: walk them together. */
		for (int i = 0, j = 0; i < n && j < m;) {
			int c = strcmp(all[i], sub[j]);
			if (c == 0)
				keep[i] = true;
			i += c <= 0;
			j += c >= 0;
		}
		if (m >= 0)
			ft_free_list(sub, m);
	}
	for (int i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		print_event(all[i], o->json);
		shown++;
	}
	free(keep);
	ft_free_list(all, n);
	return status ? status : shown ? 0 : 1;
}

static void print_fields_json(const char *event, const struct ft_field *f, int n)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < n; i++) {
		sb_reset(&sb);
		sb_add(&sb, "{\"event\":");
		json_str(&sb, event);
		sb_add(&sb, ",\"type\":");
		json_str(&sb, f[i].type);
		sb_add(&sb, ",\"name\":");
		json_str(&sb, f[i].name);
		sb_printf(&sb, ",\"offset\":%d,\"size\":%d,\"signed\":%s,\"common\":%s}",
			  f[i].offset, f[i].size, f[i].is_signed ? "true" : "false",
			  f[i].common ? "true" : "false");
		puts(sb_str(&sb));
	}
	sb_free(&sb);
}

static void print_fields_table(const struct ft_field *f, int n)
{
	int wtype = (int)strlen("type"), wname = (int)strlen("name");
	for (int i = 0; i < n; i++) {
		int t = (int)strlen(f[i].type), m = (int)strlen(f[i].name);
		wtype = t > wtype ? t : wtype;
		wname = m > wname ? m : wname;
	}
	printf("%-*s  %-*s  %6s  %4s  %s\n", wtype, "type", wname, "name", "offset", "size",
	       "signed");
	for (int i = 0; i < n; i++)
		printf("%-*s  %-*s  %6d  %4d  %s\n", wtype, f[i].type, wname, f[i].name,
		       f[i].offset, f[i].size, f[i].is_signed ? "yes" : "no");
}

/* "system:event" for a bare event name ft_event_fields accepted (it is unique). */
static const char *full_name(const char *event)
{
	static char full[256];
	char err[512], **list;
	snprintf(full, sizeof(full), "%s", event);
	if (strchr(event, ':'))
		return full;
	int n = ft_list_events(event, &list, err, sizeof(err));
	for (int i = 0; i < n; i++) {
		const char *colon = strchr(list[i], ':');
		if (colon && strcmp(colon + 1, event) == 0)
			snprintf(full, sizeof(full), "%s", list[i]);
	}
	if (n >= 0)
		ft_free_list(list, n);
	return full;
}

/* One event's fields; with title, its name above them and a blank line before the next. */
static int show_one_format(const char *event, bool json, bool title, bool first)
{
	char err[512];
	struct ft_field *f;
	int n = ft_event_fields(event, &f, err, sizeof(err));
	if (n < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (json) {
		print_fields_json(full_name(event), f, n);
	} else {
		if (title)
			printf("%s%s\n", first ? "" : "\n", event);
		print_fields_table(f, n);
		/* how the event prints: a module's own TP_printk, for instance */
		char *fmt = ft_event_print_fmt(event);
		if (fmt)
			printf("\nprint fmt: %s\n", fmt);
		free(fmt);
	}
	ft_free_fields(f, n);
	return 0;
}

/* --format EVENT, or every event of a system or glob ('sched', 'sched:sched_wak*'). */
static int show_format(const struct list_opts *o)
{
	char err[512], **list;
	int n = ft_list_events(o->format, &list, err, sizeof(err));
	if (n < 0) {
		errmsg("%s", err);
		return 1;
	}
	int status = 0;
	if (n <= 1) {
		/* One event, or none: ft_event_fields names the closest ones. */
		status = show_one_format(o->format, o->json, false, true);
	} else {
		for (int i = 0; i < n; i++)
			status |= show_one_format(list[i], o->json, true, i == 0);
	}
	ft_free_list(list, n);
	return status;
}

static int cmp_entry_name(const void *a, const void *b)
{
	return strcmp((*(const struct sc_entry *const *)a)->name,
		      (*(const struct sc_entry *const *)b)->name);
}

static bool syscall_wanted(const struct list_opts *o, const char *name)
{
	if (!o->nglobs)
		return true;
	for (int g = 0; g < o->nglobs; g++)
		if (fnmatch(o->globs[g], name, 0) == 0)
			return true;
	return false;
}

/* The syscall table tracekit decodes (x86_64), sorted by name. */
static int list_syscalls(const struct list_opts *o)
{
	const struct sc_entry **v = xcalloc((size_t)sc_table_len + 1, sizeof(*v));
	int n = 0, shown = 0;
	for (int nr = 0; nr < sc_table_len; nr++)
		if (sc_table[nr].name)
			v[n++] = &sc_table[nr];
	qsort(v, (size_t)n, sizeof(*v), cmp_entry_name);
	for (int i = 0; i < n; i++) {
		if (!syscall_wanted(o, v[i]->name))
			continue;
		if (o->json)
			printf("{\"nr\":%d,\"name\":\"%s\",\"nargs\":%u}\n", v[i]->nr, v[i]->name,
			       v[i]->nargs);
		else
			puts(v[i]->name);
		shown++;
	}
	free(v);
	if (!shown)
		errmsg("no syscall matches the -e globs (see 'tracekit list --syscalls')");
	return shown ? 0 : 1;
}

/* -e's rule for user events too: with a ':' the whole name, without a system or an event. */
static bool binary_match(const struct list_opts *o, const struct tk_event_desc *ev,
			 const char *full)
{
	if (!o->nglobs)
		return true;
	for (int g = 0; g < o->nglobs; g++) {
		const char *gl = o->globs[g];

		if (strchr(gl, ':') ? !fnmatch(gl, full, 0) :
		    !fnmatch(gl, ev->system, 0) || !fnmatch(gl, ev->name, 0))
			return true;
	}
	return false;
}

static void print_binary_format(const struct ust_bin_event *e, const char *full, bool json)
{
	struct strbuf text = STRBUF_INIT, sb = STRBUF_INIT;

	ust_format_text(&e->ev, e->cls, 0, &text);
	if (!json) {
		fputs(sb_str(&text), stdout);
	} else {
		sb_add(&sb, "{\"event\":");
		json_str(&sb, full);
		sb_add(&sb, ",\"format\":");
		json_str(&sb, sb_str(&text));
		sb_add(&sb, "}");
		puts(sb_str(&sb));
	}
	sb_free(&text);
	sb_free(&sb);
}

/* --binary FILE: the descriptions define_trace.h left in the file (src/ust/binary.c). */
static int list_binary(const struct list_opts *o)
{
	char err[512], full[2 * TK_NAME_MAX + 2];
	struct ust_bin b;
	int shown = 0;

	if (ust_bin_read(o->binary, &b, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	if (b.skipped)
		warnmsg("%s: %d malformed tracepoint descriptions skipped", o->binary, b.skipped);
	for (int i = 0; i < b.nevents; i++) {
		const struct ust_bin_event *e = &b.events[i];

		snprintf(full, sizeof(full), "%s:%s", e->ev.system, e->ev.name);
		if (o->format ? strcmp(o->format, full) && strcmp(o->format, e->ev.name) :
		    !binary_match(o, &e->ev, full))
			continue;
		if (o->format)
			print_binary_format(e, full, o->json);
		else
			print_event(full, o->json);
		shown++;
	}
	if (!shown)
		errmsg("%s has no user tracepoints%s%s (TRACE_EVENT with <tracekit/tracepoint.h>, "
		       "in a file that defines CREATE_TRACE_POINTS)", o->binary,
		       o->format ? " named " : o->nglobs ? " matching the -e globs" : "",
		       o->format ? o->format : "");
	ust_bin_free(&b);
	return shown ? 0 : 1;
}

int cmd_list(int argc, char **argv)
{
	err_set_verb("list");
	struct list_opts o = { 0 };
	int status = 2;
	if (parse(&o, argc, argv) == 0) {
		if (o.binary)
			status = list_binary(&o);
		else if (o.format)
			status = show_format(&o);
		else if (o.syscalls)
			status = list_syscalls(&o);
		else
			status = list_events(&o);
	}
	free(o.globs);
	if (fflush(stdout) != 0 && status == 0) {
		errmsg("cannot write the list: %s", strerror(errno));
		status = 1;
	}
	return status;
}

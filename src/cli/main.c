/*
 * tracekit: one binary, verbs in the style of git and perf.  This file only
 * dispatches; each verb's options and usage live in cmd_<verb>.c.
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

#include "cli.h"
#include "config.h"
#include "util/editdist.h"

static const struct verb verbs[] = {
	{ "syscalls", "trace a command's system calls, strace-style", cmd_syscalls, help_syscalls },
	{ "record", "record kernel events into a trace.dat", cmd_record, help_record },
	{ "report", "print a trace.dat as trace-cmd report does", cmd_report, help_report },
	{ "sched", "scheduling analysis: run, wait, wakeup latency, parallelism", cmd_sched,
	  help_sched },
	{ "calls", "function_graph: per-function calls, total/self time, call tree", cmd_calls,
	  help_calls },
	{ "stack", "the deepest kernel stack while a command runs", cmd_stack, help_stack },
	{ "latency", "a latency tracer's worst case (irqsoff, wakeup, hwlat, osnoise...)",
	  cmd_latency, help_latency },
	{ "view", "write a trace.dat as an HTML timeline page", cmd_view, help_view },
	{ "list", "list kernel tracepoints and their fields", cmd_list, help_list },
	{ "reset", "remove what a killed tracekit run left (--all: all tracekit made)", cmd_reset,
	  help_reset },
	{ "export", "write a trace.dat as Chrome JSON or Perfetto protobuf", cmd_export,
	  help_export },
	{ "probe", "dynamic probes: add, del, list, trace (uprobes, or --ptrace)", cmd_probe, help_probe },
	{ "oops", "decode a kernel oops, panic, BUG or WARNING from a log", cmd_oops, help_oops },
	{ "listen", "receive recordings streamed by record -N (trace-cmd's protocol)", cmd_listen,
	  help_listen },
	{ "agent", "record this machine for a host's record -A (trace-cmd's agent protocol)",
	  cmd_agent, help_agent },
	{ "help", "show help for a verb", NULL, NULL },
};

#define NVERBS (sizeof(verbs) / sizeof(verbs[0]))

static void usage(FILE *f)
{
	fputs("usage: tracekit [--version] [--help] VERB [ARGS]\n\n"
	      "Trace how a program and the Linux kernel interact.\n\nVerbs:\n", f);
	for (size_t i = 0; i < NVERBS; i++)
		fprintf(f, "  %-10s %s\n", verbs[i].name, verbs[i].summary);
	fputs("\n'tracekit help VERB' shows the options of a verb.\n", f);
}

static const struct verb *find_verb(const char *name)
{
	for (size_t i = 0; i < NVERBS; i++)
		if (strcmp(verbs[i].name, name) == 0)
			return &verbs[i];
	return NULL;
}

/* "tracekit: [help: ]unknown verb 'recrod' (did you mean record? see 'tracekit --help')" */
static void unknown_verb(const char *prefix, const char *name)
{
	struct closest c;
	char near[128];
	closest_init(&c, strlen(name) < 6 ? 1 : 2);	/* a typo, not any verb */
	for (size_t i = 0; i < NVERBS; i++)
		closest_offer(&c, name, strlen(name), verbs[i].name);
	closest_join(&c, near, sizeof(near));
	closest_free(&c);
	fprintf(stderr, "tracekit: %sunknown verb '%s' (%s%s%ssee 'tracekit --help')\n", prefix, name,
		*near ? "did you mean " : "", near, *near ? "? " : "");
}

static int help(const char *name)
{
	/* `tracekit help --help`: help about help is the usage. */
	if (!name || !strcmp(name, "--help") || !strcmp(name, "-h")) {
		usage(stdout);
		return 0;
	}
	const struct verb *v = find_verb(name);
	if (!v) {
		unknown_verb("help: ", name);
		return 2;
	}
	help_open_man(name);
	if (!v->help) {
		usage(stdout);
		return 0;
	}
	v->help(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	/* Run with no argv[0] (execve with an empty argv): the path it was run by names it. */
	static char *by_path[2];
	if (argc < 1 || !argv[0] || !argv[0][0]) {
		by_path[0] = (char *)getauxval(AT_EXECFN);
		if (!by_path[0])
			by_path[0] = "tracekit";
		argc = 1;
		argv = by_path;
	}
	/* Installed (linked) under strace's name, tracekit is `tracekit syscalls`. */
	const char *base = strrchr(argv[0], '/');
	if (strcmp(base ? base + 1 : argv[0], "strace") == 0)
		return cmd_syscalls_as_strace(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	const char *arg = argv[1];
	if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
		return help(NULL);
	if (!strcmp(arg, "--version") || !strcmp(arg, "-V")) {
		printf("tracekit %s\n", TRACEKIT_VERSION);
		return 0;
	}
	if (!strcmp(arg, "help"))
		return help(argc > 2 ? argv[2] : NULL);
	if (arg[0] == '-') {
		fprintf(stderr, "tracekit: unknown option '%s' (see 'tracekit --help')\n", arg);
		return 2;
	}
	const struct verb *v = find_verb(arg);
	if (!v) {
		unknown_verb("", arg);
		return 2;
	}
	return v->run(argc - 1, argv + 1);
}

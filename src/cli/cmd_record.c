/*
 * tracekit record: trace-cmd record's options, parsed into struct
 * rec_options.  The recording itself is src/record/record.c.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "net/addr.h"
#include "record/guest.h"
#include "record/record.h"
#include "util/die.h"

void help_record(FILE *f)
{
	fputs("usage: tracekit record [options] [COMMAND [ARGS...]]\n"
	      "\n"
	      "Record kernel events into a trace.dat file that tracekit report, trace-cmd report and\n"
	      "KernelShark read.  With COMMAND: the whole system while it runs (-F: only it and its\n"
	      "children).  With -P: those processes.  With neither: the whole system until Ctrl-C.\n"
	      "\n"
	      "  -e EVENT           an event (sched:sched_switch), a system (sched) or a glob\n"
	      "                     (syscalls:sys_enter_*); repeatable.  Default: the scheduling set.\n"
	      "                     A program's own tracepoints too: -e 'myapp:*' (docs/tracepoints.md)\n"
	      "  -f FILTER          the kernel's filter syntax, for the -e before it ('prev_pid == 1')\n"
	      "  -o FILE            output file (default trace.dat)\n"
	      "  -F                 only COMMAND and its descendants\n"
	      "  -P PID             a running process, its threads and children; repeatable\n"
	      "  -b KB              ring buffer size per CPU (user tracepoints: per thread)\n"
	      "      --user-wait MS a thread whose user-event buffer is full waits up to MS ms\n"
	      "                     for room before it drops (default 1000 with COMMAND, 0 with -P)\n"
	      "  -C CLOCK           trace clock (default mono, so user-space events line up)\n"
	      "  -T                 a kernel stack trace with each event\n"
	      "      --user-stack   a user stack trace with each event\n"
	      "      --duration S   stop after S seconds\n"
	      "      --max-size MB  stop when the data reaches MB megabytes\n"
	      "      --file-version N  6 or 7 (default 7)\n"
	      "      --probe SPEC   a dynamic probe for this recording only ('p ./app:func x=%di');\n"
	      "                     repeatable; without -e only the probes are recorded (docs/probes.md)\n"
	      "  -p TRACER          function or function_graph: kernel functions (docs/functions.md)\n"
	      "  -l FUNC            trace only FUNC (globs, FUNC:mod:MODULE); repeatable\n"
	      "  -n FUNC            do not trace FUNC; repeatable\n"
	      "  -g FUNC            function_graph: only FUNC and what it calls; repeatable\n"
	      "      --max-graph-depth N  function_graph: N levels deep at most\n"
	      "  -O OPTION          a tracer option (func_stack_trace, funcgraph-proc, noOPTION)\n"
	      "  -q                 no per-CPU summary, no live line (shown on a terminal)\n"
	      "  -N HOST:PORT       stream to a listener (trace-cmd listen, tracekit listen)\n"
	      "                     instead of a file; over UDP as trace-cmd, unless -t\n"
	      "  -t                 with -N: TCP, so nothing is lost on the way (docs/net.md)\n"
	      "  -A HOST[:PORT]     an agent (tracekit agent, trace-cmd agent) records a guest too;\n"
	      "                     the options after -A (up to the next -A) are the guest's;\n"
	      "                     its file is trace-NAME.dat, on the host's clock by ptp\n"
	      "                     time sync; one -A per guest, up to 16 (TCP only: @CID, a\n"
	      "                     vsock guest, is not supported)\n"
	      "      --name NAME    after -A: the guest's name (default: HOST)\n"
	      "      --guest-pid PID  after -A: the process running the guest (qemu): its vCPU\n"
	      "                     threads go into the host file's GUEST option\n"
	      "      --tsync-interval MS  with -A (before or after it, for every guest): a\n"
	      "                     time-sync sample every MS ms besides the first and the last\n"
	      "      --recover FILE assemble FILE from the per-CPU files a recording kept when it\n"
	      "                     could not write it (a full disk), once there is room\n"
	      "\n"
	      "At the end it prints, per CPU, the events recorded and the events lost.\n"
	      "See docs/record.md.\n", f);
}

enum { OPT_USER_STACK = 256, OPT_DURATION, OPT_MAX_SIZE, OPT_FILE_VERSION, OPT_PROBE,
	OPT_RECOVER, OPT_MAX_GRAPH_DEPTH, OPT_USER_WAIT, OPT_TSYNC_INTERVAL, OPT_NAME };

static const struct option longopts[] = {
	{ "user-stack", no_argument, NULL, OPT_USER_STACK },
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "max-size", required_argument, NULL, OPT_MAX_SIZE },
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "probe", required_argument, NULL, OPT_PROBE },
	{ "recover", required_argument, NULL, OPT_RECOVER },
	{ "max-graph-depth", required_argument, NULL, OPT_MAX_GRAPH_DEPTH },
	{ "user-wait", required_argument, NULL, OPT_USER_WAIT },
	{ "tsync-interval", required_argument, NULL, OPT_TSYNC_INTERVAL },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "guest-pid", required_argument, NULL, OPT_NAME },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A value in [min, max]; whole numbers only when whole.  The bounds print as written. */
static int number(const char *opt, const char *s, double min, double max, bool whole, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(*v) || *v < min || *v > max ||
	    (whole && *v != (double)(long long)*v)) {
		errmsg("invalid value '%s' for %s (a %snumber from %.15g to %.15g)", s, opt,
		       whole ? "whole " : "", min, max);
		return -1;
	}
	return 0;
}

/* -l, -n, -g, -O: one more string in a list. */
static void add_str(const char ***list, int *n, const char *s)
{
	*list = xrealloc(*list, sizeof(**list) * (size_t)(*n + 1));
	(*list)[(*n)++] = s;
}

static int parse(struct rec_options *o, int argc, char **argv);

#define RECORD_SHORTOPTS "e:f:o:FP:b:C:cTqhp:l:n:g:O:N:t"

/* Whether the option token tok (short or long) takes the next token as its value. */
static bool takes_value(const char *tok)
{
	if (tok[1] == '-') {
		for (const struct option *l = longopts; l->name; l++)
			if (!strcmp(tok + 2, l->name))
				return l->has_arg == required_argument;
		return false;
	}
	/* -e sched, but not -esched; flags may cluster (-Fq) until one takes a value */
	for (const char *c = tok + 1; *c; c++) {
		const char *at = strchr(RECORD_SHORTOPTS, *c);
		if (at && at[1] == ':')
			return !c[1];
	}
	return false;
}

/* Guests one recording takes (trace-cmd has no limit; each is a connection and a thread per CPU). */
#define MAX_GUESTS 16

/*
 * trace-cmd's form: the options after -A HOST:PORT are that guest's (--name
 * its name), up to the next -A or the COMMAND; what stays is the host's.  The
 * guest's options go to its agent as they were written.
 */
static int split_guest(struct rec_options *o, int *argc, char **argv)
{
	int i = 1, out = 1, n = *argc;
	char **host = xcalloc((size_t)n + 1, sizeof(char *));
	struct rec_guest_arg *g = NULL;		/* the guest being read */

	host[0] = argv[0];
	for (; i < n; i++) {
		const char *t = argv[i];
		if (!strcmp(t, "--") || t[0] != '-' || !t[1])
			break;
		if (!strncmp(t, "-A", 2)) {
			const char *addr = t[2] ? t + 2 : i + 1 < n ? argv[++i] : NULL;
			if (!addr || addr[0] == '-' || !addr[0]) {
				errmsg("-A needs HOST:PORT (the agent's address)");
				goto fail;
			}
			if (o->nguests == MAX_GUESTS) {
				errmsg("-A %s: %d guests at most in one recording", addr, MAX_GUESTS);
				goto fail;
			}
			o->guests = xrealloc(o->guests, sizeof(*o->guests) * (size_t)(o->nguests + 1));
			g = &o->guests[o->nguests++];
			*g = (struct rec_guest_arg){ .agent = addr };
			g->argv = xcalloc((size_t)n, sizeof(char *));
			continue;
		}
		if (g && (!strcmp(t, "--name") || !strncmp(t, "--name=", 7)) && g->name) {
			errmsg("--name given twice for -A %s (one name a guest)", g->agent);
			goto fail;
		}
		if (g && !strcmp(t, "--name") && i + 1 < n) {
			g->name = argv[++i];
			continue;
		}
		if (g && !strncmp(t, "--name=", 7)) {
			g->name = t + 7;
			continue;
		}
		if (g && !strcmp(t, "--guest-pid") && i + 1 < n) {
			char *end;
			long v;
			if (g->pid) {
				errmsg("--guest-pid %s: given twice for -A %s (one qemu runs a guest)",
				       argv[i + 1], g->agent);
				goto fail;
			}
			v = strtol(argv[++i], &end, 10);
			if (!*argv[i] || *end || v <= 0 || v > INT_MAX) {
				errmsg("--guest-pid %s: the pid of the process running the guest",
				       argv[i]);
				goto fail;
			}
			g->pid = (int)v;
			continue;
		}
		if (g && (!strcmp(t, "--tsync-interval") || !strncmp(t, "--tsync-interval=", 17))) {
			host[out++] = argv[i];		/* the host's, for every guest */
			if (!t[16] && i + 1 < n)
				host[out++] = argv[++i];
			continue;
		}
		if (g) {
			g->argv[g->argc++] = argv[i];
			if (takes_value(t) && i + 1 < n)
				g->argv[g->argc++] = argv[++i];
			continue;
		}
		host[out++] = argv[i];
		if (takes_value(t) && i + 1 < n)
			host[out++] = argv[++i];
	}
	for (; i < n; i++)
		host[out++] = argv[i];
	memcpy(argv, host, sizeof(char *) * (size_t)out);
	argv[out] = NULL;
	*argc = out;
	free(host);
	return 0;
fail:
	free(host);
	return -1;
}

void cli_record_options_free(struct rec_options *o)
{
	free(o->events);
	free(o->probes);
	free(o->pids);
	free(o->func.filters);
	free(o->func.notrace);
	free(o->func.graph);
	free(o->func.opts);
	for (int i = 0; i < o->nguests; i++)
		free(o->guests[i].argv);
	free(o->guests);
}

/*
 * A guest's options through record's own parser, as its agent will take them: a typo is
 * said here in one line, not by the agent on its machine while the host sees its
 * connection close.
 */
static int check_guest_options(const struct rec_guest_arg *g)
{
	char **argv = xcalloc((size_t)g->argc + 2, sizeof(char *));
	struct rec_options go = { .user_wait_ms = -1 };
	char verb[300];
	int rc;

	argv[0] = "record";
	memcpy(argv + 1, g->argv, sizeof(char *) * (size_t)g->argc);
	snprintf(verb, sizeof(verb), "record: the guest options after -A %.200s", g->agent);
	err_set_verb(verb);
	rc = parse(&go, g->argc + 1, argv);
	if (rc == 0 && (go.output || go.net || go.recover)) {
		errmsg("-o, -N and --recover are the host's: give them before the first -A");
		rc = -1;
	}
	err_set_verb("record");
	cli_record_options_free(&go);
	free(argv);
	return rc;
}

/* Guest i's address, options, pid and name: each guest its own file (trace-NAME.dat). */
static int check_guest(const struct rec_options *o, int i)
{
	const struct rec_guest_arg *g = &o->guests[i];
	char name[128], other[128];

	if (g->agent[0] == '@') {
		errmsg("-A %s: a vsock guest (@CID) is not supported (this tracekit speaks the "
		       "agent protocol over TCP only: -A HOST:PORT with 'tracekit agent' or "
		       "'trace-cmd agent -N' in the guest)", g->agent);
		return -1;
	}
	if (strchr(g->agent, '@')) {
		errmsg("-A %s: NAME@CID is a vsock guest, not supported here (-A HOST:PORT "
		       "--name NAME over TCP)", g->agent);
		return -1;
	}
	if (g->pid && kill(g->pid, 0) < 0 && errno == ESRCH) {
		errmsg("--guest-pid %d: no such process (the guest's qemu)", g->pid);
		return -1;
	}
	if (check_guest_options(g) < 0)
		return -1;
	if (g->name && (!g->name[0] || g->name[0] == '-' || g->name[0] == '.' ||
			strchr(g->name, '/'))) {
		errmsg("--name '%s': a guest's name is in its file's name (trace-NAME.dat): give "
		       "one that is not empty and has no '/' nor a leading '-' or '.'", g->name);
		return -1;
	}
	rec_guest_name(g->agent, g->name, name, sizeof(name));
	for (int j = 0; j < i; j++) {
		rec_guest_name(o->guests[j].agent, o->guests[j].name, other, sizeof(other));
		if (!strcmp(name, other)) {
			errmsg("-A %s: a second guest named '%s' (each guest's file is named after "
			       "it: give each -A its own --name)", g->agent, name);
			return -1;
		}
	}
	return 0;
}

int cli_record_parse(struct rec_options *o, int argc, char **argv)
{
	return parse(o, argc, argv);
}

static int parse(struct rec_options *o, int argc, char **argv)
{
	int c;
	double v;
	optind = 1;
	opterr = 0;
	if (split_guest(o, &argc, argv) < 0)
		return -1;
	while ((c = getopt_long(argc, argv, "+:" RECORD_SHORTOPTS, longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			o->events = xrealloc(o->events, sizeof(*o->events) * (size_t)(o->nevents + 1));
			o->events[o->nevents++] = (struct rec_event){ optarg, NULL };
			break;
		case 'f':
			if (!o->nevents) {
				errmsg("-f '%s' needs an -e before it: the filter applies to that event", optarg);
				return -1;
			}
			o->events[o->nevents - 1].filter = optarg;
			break;
		case 'o': o->output = optarg; break;
		case 'F': o->follow_command = true; break;
		case OPT_PROBE:
			o->probes = xrealloc(o->probes, sizeof(*o->probes) * (size_t)(o->nprobes + 1));
			o->probes[o->nprobes++] = optarg;
			break;
		case 'c': break;	/* trace-cmd's "children too": -F always follows children */
		case 'P':
			if (number("-P", optarg, 1, INT_MAX, true, &v) < 0)
				return -1;
			o->pids = xrealloc(o->pids, sizeof(pid_t) * (size_t)(o->npids + 1));
			o->pids[o->npids++] = (pid_t)v;
			break;
		case 'b':
			if (number("-b", optarg, 4, 4 * 1024 * 1024, true, &v) < 0)
				return -1;
			o->buffer_kb = (unsigned)v;
			break;
		case 'C': o->clock = optarg; break;
		case 'T': o->kernel_stack = true; break;
		case 'q': o->quiet = true; break;
		case 'N': o->net = optarg; break;
		case 't': o->net_tcp = true; break;
		case 'p': o->func.tracer = optarg; break;
		case 'l': add_str(&o->func.filters, &o->func.nfilters, optarg); break;
		case 'n': add_str(&o->func.notrace, &o->func.nnotrace, optarg); break;
		case 'g': add_str(&o->func.graph, &o->func.ngraph, optarg); break;
		case 'O': add_str(&o->func.opts, &o->func.nopts, optarg); break;
		case OPT_MAX_GRAPH_DEPTH:
			if (number("--max-graph-depth", optarg, 1, 1000, true, &v) < 0)
				return -1;
			o->func.max_graph_depth = (int)v;
			break;
		case OPT_USER_STACK: o->user_stack = true; break;
		case OPT_USER_WAIT:
			if (number("--user-wait", optarg, 0, 3600000, true, &v) < 0)
				return -1;
			o->user_wait_ms = (int)v;
			break;
		case OPT_RECOVER: o->recover = optarg; break;
		case OPT_TSYNC_INTERVAL:
			if (number("--tsync-interval", optarg, 1, 3600000, true, &v) < 0)
				return -1;
			o->tsync_interval_ms = (int)v;
			break;
		case OPT_NAME:
			errmsg("--name and --guest-pid are a guest's: they go after -A HOST:PORT");
			return -1;
		case OPT_DURATION:
			if (cli_seconds("--duration", optarg, &o->duration) < 0)
				return -1;
			if (o->duration < 0.001 || o->duration > 1e9) {
				errmsg("--duration '%s': from 0.001 to 1000000000 seconds", optarg);
				return -1;
			}
			break;
		case OPT_MAX_SIZE:
			if (number("--max-size", optarg, 1, 1e9, false, &v) < 0)
				return -1;
			o->max_bytes = (uint64_t)(v * 1024 * 1024);
			break;
		case OPT_FILE_VERSION:
			if (number("--file-version", optarg, 6, 7, true, &v) < 0)
				return -1;
			o->file_version = (int)v;
			break;
		case 'h': help_record(stdout); exit(0);
		case ':':
		default:
			cli_getopt_error("record", c, argv);
			return -1;
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	if (o->recover && (o->argv || o->npids || o->nevents)) {
		errmsg("--recover FILE takes no COMMAND, -P or -e: it assembles what a recording kept");
		return -1;
	}
	/* As trace-cmd: -g (or a depth) implies function_graph, -l/-n function. */
	if (!o->func.tracer && (o->func.ngraph || o->func.max_graph_depth))
		o->func.tracer = "function_graph";
	if (!o->func.tracer && (o->func.nfilters || o->func.nnotrace))
		o->func.tracer = "function";
	if ((o->func.ngraph || o->func.max_graph_depth) && strcmp(o->func.tracer, "function_graph")) {
		errmsg("-g and --max-graph-depth need -p function_graph, not -p %s", o->func.tracer);
		return -1;
	}
	if (!o->func.tracer && o->func.nopts) {
		errmsg("-O sets a function tracer's option: give -p function or -p function_graph");
		return -1;
	}
	if (o->follow_command && !o->argv) {
		errmsg("-F needs a COMMAND: it keeps only that command and its children");
		return -1;
	}
	if (o->net_tcp && !o->net) {
		errmsg("-t chooses TCP for -N HOST:PORT: give -N too");
		return -1;
	}
	if (o->net) {
		char host[256], err[300];
		unsigned port;
		if (net_split_hostport(o->net, host, sizeof(host), &port, err, sizeof(err)) < 0) {
			errmsg("-N %s", err);
			return -1;
		}
	}
	if (o->net && (o->output || o->recover)) {
		errmsg("-N streams to a listener, which writes the file: -o and --recover do not go "
		       "with it");
		return -1;
	}
	if (o->argv && o->npids) {
		errmsg("give a COMMAND or -P PID, not both");
		return -1;
	}
	if (o->nguests && (o->net || o->recover)) {
		errmsg("-A records a guest beside a local file: -N and --recover do not go with it");
		return -1;
	}
	for (int i = 0; i < o->nguests; i++)
		if (check_guest(o, i) < 0)
			return -1;
	if (o->tsync_interval_ms && !o->nguests) {
		errmsg("--tsync-interval is for a guest's time sync: give -A HOST:PORT too");
		return -1;
	}
	return cli_probe_specs_parse(o->probes, o->nprobes);
}

int cmd_record(int argc, char **argv)
{
	err_set_verb("record");
	struct rec_options o = { .user_wait_ms = -1 };
	int status = 2;
	if (parse(&o, argc, argv) == 0)
		status = rec_run(&o);
	cli_record_options_free(&o);
	return status;
}

/*
 * tracekit syscalls: strace's options, parsed into struct sc_options.  The
 * tracing itself is src/syscalls/ptrace_mode.c.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "syscalls/filter.h"
#include "syscalls/session.h"
#include "syscalls/table.h"
#include "util/die.h"

void help_syscalls(FILE *f)
{
	fputs("usage: tracekit syscalls [options] COMMAND [ARGS...]\n"
	      "       tracekit syscalls [options] -p PID[,PID...]\n"
	      "\n"
	      "Trace the system calls of a command or of running processes, printed as strace\n"
	      "prints them.  Options are strace's:\n"
	      "\n"
	      "  -f, --follow-forks       trace child processes and threads too\n"
	      "  -ff, --output-separately with -o FILE: one file per process, FILE.PID\n"
	      "  -o, --output=FILE        write the trace to FILE, not stderr\n"
	      "  -p, --attach=PID[,PID]   attach to running processes (Ctrl-C detaches, they run on)\n"
	      "  -e EXPR                  trace=SET, signal=SET, status=SET, inject=..., fault=...\n"
	      "                           SET: names, %class (%file %desc %process %network %signal\n"
	      "                           %ipc %memory %creds %clock %stat ...), /regex, !negation\n"
	      "  -P, --trace-path=PATH    only calls that touch PATH\n"
	      "  -z, --successful-only    only calls that succeeded;  -Z, --failed-only: that failed\n"
	      "  -c, --summary-only       a table of counts, times and errors instead of the trace\n"
	      "  -C, --summary            the trace and the table\n"
	      "  -w, --summary-wall-clock the table sums wall-clock time of each call\n"
	      "  -S, --summary-sort-by=K  sort the table by time, calls, errors, name, nothing\n"
	      "  -T, --syscall-times      time spent in each call\n"
	      "  -t, -tt, -ttt            wall-clock time of day, with microseconds, as epoch\n"
	      "  -r, --relative-timestamps time since the previous line\n"
	      "  -s, --string-limit=N     print at most N bytes of strings (default 32)\n"
	      "  -v, --no-abbrev          print structures and arrays whole\n"
	      "  -x, -xx                  non-ASCII strings in hex; all strings in hex\n"
	      "  -y, -yy                  descriptor paths; and socket and device details\n"
	      "  -k, --stack-trace        the user stack of each call\n"
	      "  -q, -qq                  no attach/detach messages; no exit lines either\n"
	      "      --seccomp-bpf        stop only on traced calls (needs -f; not with -p)\n"
	      "      --json               one JSON object per call, signal and exit\n"
	      "      --kernel[=bpf|ftrace] from the kernel (BPF; else ftrace): the program never stops\n"
	      "      --buffer-size=KB     --kernel's ring buffer (default 16384)\n"
	      "\n"
	      "The exit status is the command's, or 128+N if signal N killed it.\n"
	      "See docs/syscalls.md.\n", f);
}

enum { OPT_SECCOMP = 256, OPT_JSON, OPT_FF, OPT_KERNEL, OPT_BUFSIZE };

static const struct option longopts[] = {
	{ "follow-forks", no_argument, NULL, 'f' },
	{ "output-separately", no_argument, NULL, OPT_FF },
	{ "output", required_argument, NULL, 'o' },
	{ "attach", required_argument, NULL, 'p' },
	{ "trace-path", required_argument, NULL, 'P' },
	{ "successful-only", no_argument, NULL, 'z' },
	{ "failed-only", no_argument, NULL, 'Z' },
	{ "summary-only", no_argument, NULL, 'c' },
	{ "summary", no_argument, NULL, 'C' },
	{ "summary-wall-clock", no_argument, NULL, 'w' },
	{ "summary-sort-by", required_argument, NULL, 'S' },
	{ "syscall-times", no_argument, NULL, 'T' },
	{ "relative-timestamps", no_argument, NULL, 'r' },
	{ "string-limit", required_argument, NULL, 's' },
	{ "no-abbrev", no_argument, NULL, 'v' },
	{ "stack-trace", no_argument, NULL, 'k' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "seccomp-bpf", no_argument, NULL, OPT_SECCOMP },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "kernel", optional_argument, NULL, OPT_KERNEL },
	{ "buffer-size", required_argument, NULL, OPT_BUFSIZE },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A whole non-negative decimal number, or -1. */
static long parse_num(const char *s, long max)
{
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	return v;
}

static int add_pids(struct sc_options *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		long pid = parse_num(tok, INT_MAX);
		if (pid <= 0) {
			errmsg("invalid process id '%s' in -p %s (a positive number, e.g. -p 1234)", tok, list);
			free(copy);
			return -1;
		}
		o->pids = xrealloc(o->pids, sizeof(pid_t) * (size_t)(o->npids + 1));
		o->pids[o->npids++] = (pid_t)pid;
	}
	free(copy);
	if (!o->npids) {
		errmsg("-p needs a process id, e.g. -p 1234");
		return -1;
	}
	return 0;
}

static int add_expr(struct sc_options *o, const char *expr)
{
	char err[512];
	if (sc_filter_parse(o->filter, expr, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return -1;
	}
	return 0;
}

static int parse(struct sc_options *o, int argc, char **argv)
{
	int fcount = 0, c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:fo:p:e:P:zZcCwS:Ttrs:vxykqh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f': fcount++; break;
		case OPT_FF: fcount = 2; break;
		case 'o': o->outfile = optarg; break;
		case 'p': if (add_pids(o, optarg) < 0) return -1; break;
		case 'e': if (add_expr(o, optarg) < 0) return -1; break;
		case 'P':
			o->paths = xrealloc(o->paths, sizeof(char *) * (size_t)(o->npaths + 1));
			o->paths[o->npaths++] = optarg;
			break;
		case 'z': if (add_expr(o, "status=successful") < 0) return -1; break;
		case 'Z': if (add_expr(o, "status=failed") < 0) return -1; break;
		case 'c': o->summary = 1; break;
		case 'C': o->summary = 2; break;
		case 'w': o->wall = true; break;
		case 'S': o->sort = optarg; break;
		case 'T': o->show_time = true; break;
		case 't': if (o->tstamp < SC_TS_EPOCH) o->tstamp++; break;
		case 'r': o->relative = true; break;
		case 's': {
			long n = parse_num(optarg, INT_MAX);
			if (n < 0) {
				errmsg("invalid string limit '%s' in -s (a number of bytes, e.g. -s 256)", optarg);
				return -1;
			}
			o->fmt.strsize = (unsigned)n;
			break;
		}
		case 'v': o->fmt.verbose = true; break;
		case 'x': if (o->fmt.xflag < 2) o->fmt.xflag++; break;
		case 'y': if (o->fmt.yflag < 2) o->fmt.yflag++; break;
		case 'k': o->stack = true; break;
		case 'q': o->quiet++; break;
		case OPT_SECCOMP: o->seccomp = true; break;
		case OPT_JSON: o->json = true; break;
		case OPT_KERNEL:
			o->kernel = true;
			if (optarg && strcmp(optarg, "bpf") && strcmp(optarg, "ftrace")) {
				errmsg("invalid --kernel=%s (bpf or ftrace)", optarg);
				return -1;
			}
			o->ksource = !optarg ? SC_KS_AUTO : optarg[0] == 'b' ? SC_KS_BPF : SC_KS_FTRACE;
			break;
		case OPT_BUFSIZE: {
			long kb = parse_num(optarg, 1 << 22);
			if (kb < 4) {
				errmsg("invalid --buffer-size '%s' (KiB, at least 4, e.g. --buffer-size=65536)", optarg);
				return -1;
			}
			o->buffer_kb = (unsigned)kb;
			break;
		}
		case 'h': help_syscalls(stdout); exit(0);
		case '?':
		default:
			if (optopt && optopt < 256)
				errmsg("unknown option '-%c' (see 'tracekit help syscalls')", optopt);
			else
				errmsg("unknown option '%s' (see 'tracekit help syscalls')", argv[optind - 1]);
			return -1;
		case ':':
			errmsg("option '%s' needs a value (see 'tracekit help syscalls')", argv[optind - 1]);
			return -1;
		}
	}
	o->follow = fcount > 0;
	o->ff = fcount > 1;
	if (optind < argc)
		o->argv = argv + optind;
	return 0;
}

/* What only a tracer that stops the program can do. */
static bool kernel_unsupported(const struct sc_options *o)
{
	bool injects = false;
	for (long nr = 0; nr < SC_NR_MAX && !injects; nr++)
		injects = sc_filter_injects(o->filter, nr);
	const char *what = o->seccomp ? "--seccomp-bpf" : o->stack ? "-k" :
			   injects ? "-e inject=/fault=" : NULL;
	if (what)
		errmsg("%s needs the ptrace mode: drop --kernel or %s", what, what);
	return what != NULL;
}

static int check(struct sc_options *o)
{
	if (!o->argv && !o->npids) {
		errmsg("nothing to trace: give a COMMAND or -p PID (see 'tracekit help syscalls')");
		return -1;
	}
	if (o->argv && o->npids) {
		errmsg("give a COMMAND or -p PID, not both");
		return -1;
	}
	if (o->seccomp && o->npids) {
		errmsg("--seccomp-bpf cannot be used with -p: a filter can only be installed before exec");
		return -1;
	}
	if (o->seccomp && !o->follow) {
		/* strace's rule: a filter is inherited by children, so their calls must be traced too. */
		errmsg("--seccomp-bpf needs -f: the filter stays in every child the command starts");
		return -1;
	}
	if (o->ff && !o->outfile) {
		o->ff = false;	/* strace: -ff without -o is -f */
	}
	if (o->kernel && kernel_unsupported(o))
		return -1;
	if (o->json && o->summary == 1) {
		errmsg("--json prints calls; use it without -c");
		return -1;
	}
	return 0;
}

int cmd_syscalls(int argc, char **argv)
{
	err_set_verb("syscalls");
	struct sc_options o = { .fmt = { .strsize = 32 } };
	o.filter = sc_filter_new();
	int status = 2;
	if (parse(&o, argc, argv) == 0 && check(&o) == 0)
		status = o.kernel ? sc_run_kernel(&o) : sc_run_ptrace(&o);
	sc_filter_free(o.filter);
	free(o.pids);
	free(o.paths);
	return status;
}

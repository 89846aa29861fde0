/*
 * tracekit syscalls: strace's options, parsed into struct sc_options.  The
 * tracing itself is src/syscalls/ptrace_mode.c.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "config.h"
#include "syscalls/decoder.h"
#include "syscalls/filter.h"
#include "syscalls/opts.h"
#include "syscalls/xlat.h"
#include "syscalls/session.h"
#include "syscalls/summary.h"
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
	      "  -e EXPR                  trace=SET, signal=SET, status=SET, inject=..., fault=...,\n"
	      "                           raw=SET, abbrev=SET, read=FDS, write=FDS, quiet=LIST\n"
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
	      "  -a, --columns=N          align ' = ret' at column N (default 40)\n"
	      "  -A, --output-append-mode -o appends\n"
	      "  -b, --detach-on=execve   let go of processes when they exec\n"
	      "  -D, --daemonize          the command keeps our pid; a grandchild traces it\n"
	      "  -E, --env=VAR[=VAL]      set (or remove) VAR in the command's environment\n"
	      "  -i, --instruction-pointer  print where each call was made\n"
	      "  -I, --interruptible=N    1 anywhere, 2 waiting, 3 never, 4 never_tstp\n"
	      "  -n, --syscall-number     print each call's number\n"
	      "  -O, --summary-syscall-overhead=T  taken off each call's time in -c\n"
	      "  -u, --user=USER          run the command as USER\n"
	      "  -U, --summary-columns=LIST  the -c table's columns (name,calls,max-time,...)\n"
	      "  -V, --version            tracekit's version\n"
	      "  -X, --const-print-style=raw|abbrev|verbose  constants as numbers, names, both\n"
	      "  -Y, --decode-pids=comm   command names after pids\n"
	      "      --timestamps=FMT,PREC  -t with format none|time|unix, precision s|ms|us|ns\n"
	      "      --quiet=LIST         attach, personality, exit, thread-execve, path-resolution\n"
	      "      --decode-fds=LIST    path, socket, dev, pidfd (-y, -yy)\n"
	      "      --strings-in-hex=W   none, non-ascii, all (-x, -xx)\n"
	      "      --tips[=id:N,FORMAT] a tip at the end\n"
	      "      --seccomp-bpf        stop only on traced calls (needs -f; not with -p)\n"
	      "      --json               one JSON object per call, signal and exit\n"
	      "      --kernel[=bpf|ftrace] from the kernel (BPF; else ftrace): the program never stops\n"
	      "      --buffer-size=KB     --kernel's ring buffer (default 16384)\n"
	      "\n"
	      "The exit status is the command's; if signal N killed it, tracekit dies of N too.\n"
	      "See docs/syscalls.md.\n", f);
}

enum {
	OPT_SECCOMP = 256, OPT_JSON, OPT_FOLLOW, OPT_FF, OPT_DAEMONIZE, OPT_TS, OPT_HEX_STR,
	OPT_PIDNS, OPT_TIPS, OPT_SECONTEXT, OPT_QUIET, OPT_DECODE_FD, OPT_DECODE_PID,
	OPT_KVM, OPT_QUAL, OPT_KERNEL, OPT_BUFSIZE,	/* --trace= ... --inject=: -e QUAL= by its long name */
};

/*
 * strace's long options, exactly: getopt_long accepts an unambiguous prefix
 * of any of them, so the table must hold strace's names and no others that
 * a strace prefix could reach (--trace= is trace=, never --trace-path=).
 */
static const struct option longopts[] = {
	{ "columns", required_argument, NULL, 'a' },
	{ "output-append-mode", no_argument, NULL, 'A' },
	{ "detach-on", required_argument, NULL, 'b' },
	{ "summary-only", no_argument, NULL, 'c' },
	{ "summary", no_argument, NULL, 'C' },
	{ "debug", no_argument, NULL, 'd' },
	{ "daemonize", optional_argument, NULL, OPT_DAEMONIZE },
	{ "daemonised", optional_argument, NULL, OPT_DAEMONIZE },
	{ "daemonized", optional_argument, NULL, OPT_DAEMONIZE },
	{ "env", required_argument, NULL, 'E' },
	{ "follow-forks", no_argument, NULL, OPT_FOLLOW },
	{ "output-separately", no_argument, NULL, OPT_FF },
	{ "help", no_argument, NULL, 'h' },
	{ "instruction-pointer", no_argument, NULL, 'i' },
	{ "interruptible", required_argument, NULL, 'I' },
	{ "stack-traces", no_argument, NULL, 'k' },
	{ "syscall-number", no_argument, NULL, 'n' },
	{ "output", required_argument, NULL, 'o' },
	{ "summary-syscall-overhead", required_argument, NULL, 'O' },
	{ "attach", required_argument, NULL, 'p' },
	{ "trace-path", required_argument, NULL, 'P' },
	{ "relative-timestamps", optional_argument, NULL, 'r' },
	{ "string-limit", required_argument, NULL, 's' },
	{ "summary-sort-by", required_argument, NULL, 'S' },
	{ "absolute-timestamps", optional_argument, NULL, OPT_TS },
	{ "timestamps", optional_argument, NULL, OPT_TS },
	{ "syscall-times", optional_argument, NULL, 'T' },
	{ "user", required_argument, NULL, 'u' },
	{ "summary-columns", required_argument, NULL, 'U' },
	{ "no-abbrev", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "summary-wall-clock", no_argument, NULL, 'w' },
	{ "strings-in-hex", optional_argument, NULL, OPT_HEX_STR },
	{ "const-print-style", required_argument, NULL, 'X' },
	{ "pidns-translation", no_argument, NULL, OPT_PIDNS },
	{ "successful-only", no_argument, NULL, 'z' },
	{ "failed-only", no_argument, NULL, 'Z' },
	{ "failing-only", no_argument, NULL, 'Z' },
	{ "seccomp-bpf", no_argument, NULL, OPT_SECCOMP },
	{ "tips", optional_argument, NULL, OPT_TIPS },
	{ "trace", required_argument, NULL, OPT_QUAL },
	{ "abbrev", required_argument, NULL, OPT_QUAL },
	{ "verbose", required_argument, NULL, OPT_QUAL },
	{ "raw", required_argument, NULL, OPT_QUAL },
	{ "signals", required_argument, NULL, OPT_QUAL },
	{ "status", required_argument, NULL, OPT_QUAL },
	{ "read", required_argument, NULL, OPT_QUAL },
	{ "write", required_argument, NULL, OPT_QUAL },
	{ "fault", required_argument, NULL, OPT_QUAL },
	{ "inject", required_argument, NULL, OPT_QUAL },
	{ "kvm", required_argument, NULL, OPT_KVM },
	{ "quiet", optional_argument, NULL, OPT_QUIET },
	{ "silent", optional_argument, NULL, OPT_QUIET },
	{ "silence", optional_argument, NULL, OPT_QUIET },
	{ "decode-fds", optional_argument, NULL, OPT_DECODE_FD },
	{ "decode-pids", required_argument, NULL, OPT_DECODE_PID },
	{ "secontext", optional_argument, NULL, OPT_SECONTEXT },
	/* tracekit's own */
	{ "json", no_argument, NULL, OPT_JSON },
	{ "kernel", optional_argument, NULL, OPT_KERNEL },
	{ "buffer-size", required_argument, NULL, OPT_BUFSIZE },
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

/* -P PATH: the path as given and, like strace, where it resolves to (a relative name).
 * Each is a copy of our own, freed with the options. */
static void add_trace_path(struct sc_options *o, const char *path)
{
	char *real = realpath(path, NULL);
	o->paths = xrealloc(o->paths, sizeof(char *) * (size_t)(o->npaths + 2));
	o->paths[o->npaths++] = xstrdup(path);
	if (real && strcmp(real, path))
		o->paths[o->npaths++] = real;
	else
		free(real);
}

static int add_pids(struct sc_options *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
		long pid = parse_num(tok, INT_MAX);
		if (pid <= 0) {
			errmsg("Invalid process id: '%s'", tok);
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

/* Set when run under strace's name: errors then read as strace's. */
static const char *as_strace;

/* A usage error: one line, and strace's hint line when we stand in for it. */
__attribute__((format(printf, 1, 2))) static int usage_err(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	errmsg("%s", line);
	if (as_strace)
		fprintf(stderr, "Try '%s -h' for more information.\n", as_strace);
	return -1;
}

/* strace's wording for a value an option refuses. */
static int bad_arg(int c, const struct option *lopt, const char *arg)
{
	if (lopt)
		return usage_err("invalid --%s argument: '%s'", lopt->name, arg ? arg : "");
	return usage_err("invalid -%c argument: '%s'", c, arg ? arg : "");
}

/* What several options add up to; resolved once all are read, as strace does. */
struct parse_state {
	int f_short, t_short, q_short, y_short;
	bool F_short;		/* -F: strace's old "follow vforks", now -f */
	bool follow_long, ff_long, ts_long, quiet_long, decode_fd_long;
	int x_long;		/* --strings-in-hex, -1: not given */
	unsigned decode_fds;
};

static int set_tokens(const char *what, const char *list, const struct sc_opt_token *tab,
		      unsigned all, unsigned *set)
{
	const char *bad = NULL;
	if (sc_opt_tokens(list, tab, all, set, &bad) < 0) {
		errmsg("invalid %s '%s'", what, bad);
		return -1;
	}
	return 0;
}

static bool qual_is(const char *expr, size_t len, const char *const *names)
{
	for (; *names; names++)
		if (strlen(*names) == len && strncmp(*names, expr, len) == 0)
			return true;
	return false;
}

/* -e kvm=vcpu / --kvm=vcpu: the one value strace takes. */
static int set_kvm(struct sc_options *o, const char *val)
{
	if (strcmp(val, "vcpu")) {
		errmsg("invalid -e kvm= argument: '%s'", val);
		return -1;
	}
	o->kvm_vcpu = true;
	return 0;
}

static int add_expr(struct sc_options *o, struct parse_state *ps, const char *expr)
{
	static const char *const quiet[] = { "quiet", "silent", "silence", "q", NULL };
	static const char *const dfd[] = { "decode-fd", "decode-fds", NULL };
	static const char *const dpid[] = { "decode-pid", "decode-pids", NULL };
	size_t len = strcspn(expr, "=");
	const char *val = expr + len + (expr[len] ? 1 : 0);
	if (expr[len] && len == 3 && !strncmp(expr, "kvm", 3))
		return set_kvm(o, val);
	if (expr[len] && qual_is(expr, len, quiet)) {
		ps->quiet_long = true;
		return set_tokens("quiet", val, sc_quiet_tokens, ~0u, &o->quiet_set);
	}
	if (expr[len] && qual_is(expr, len, dfd)) {
		ps->decode_fd_long = true;
		return set_tokens("decode-fds", val, sc_decode_fd_tokens, 0xf, &ps->decode_fds);
	}
	if (expr[len] && qual_is(expr, len, dpid))
		return set_tokens("decode-pids", val, sc_decode_pid_tokens, 0x3, &o->decode_pids);
	char err[512];
	int rc = sc_filter_parse(o->filter, expr, err, sizeof(err));
	if (rc == -2)
		return usage_err("%s", err);
	if (rc < 0) {
		errmsg("%s", err);
		return -1;
	}
	return 0;
}

static int add_env(struct sc_options *o, const char *change)
{
	o->env = xrealloc(o->env, sizeof(char *) * (size_t)(o->nenv + 1));
	o->env[o->nenv++] = (char *)change;
	return 0;
}

static int parse_version(void)
{
	printf("tracekit syscalls -- version %s\n"
	       "strace's options and output, traced by tracekit (see docs/syscalls.md).\n",
	       TRACEKIT_VERSION);
	return 0;
}

/* One option; 1 when the run is over (help, version), -1 on error. */
static int parse_one(struct sc_options *o, struct parse_state *ps, int c, const struct option *lopt,
		     char **argv)
{
	long n;
	switch (c) {
	case 'a':
		if ((n = parse_num(optarg, INT_MAX)) < 0)
			return bad_arg(c, lopt, optarg);
		o->acolumn = (int)n;
		return 0;
	case 'A': o->append = true; return 0;
	case 'b':
		if (strcmp(optarg, "execve") != 0) {
			errmsg("Syscall '%s' for -b isn't supported", optarg);
			return -1;
		}
		o->detach_on_execve = true;
		return 0;
	case 'c':
		if (o->summary == 2)
			return usage_err("-c/--summary-only and -C/--summary are mutually exclusive");
		o->summary = 1;
		return 0;
	case 'C':
		if (o->summary == 1)
			return usage_err("-c/--summary-only and -C/--summary are mutually exclusive");
		o->summary = 2;
		return 0;
	case 'd': o->debug = true; return 0;
	case 'D': o->daemonize++; return 0;
	case OPT_DAEMONIZE: {
		static const char *const kinds[] = { "grandchild", "pgroup", "pgrp", "session" };
		static const int vals[] = { 1, 2, 2, 3 };
		int v = optarg ? 0 : 1;
		for (size_t i = 0; optarg && i < sizeof(vals) / sizeof(vals[0]); i++)
			if (strcasecmp(optarg, kinds[i]) == 0)
				v = vals[i];
		if (!v)
			return bad_arg(c, lopt, optarg);
		if (o->daemonize_long && o->daemonize_long != v)
			return bad_arg(c, lopt, optarg);
		o->daemonize_long = v;
		return 0;
	}
	case 'e': return add_expr(o, ps, optarg);
	case 'E': return add_env(o, optarg);
	case 'f': ps->f_short++; return 0;
	case OPT_FOLLOW: ps->follow_long = true; return 0;
	case OPT_FF: ps->ff_long = true; return 0;
	case 'F': ps->F_short = true; return 0;
	case 'h': help_syscalls(stdout); return 1;
	case 'i': o->iflag = true; return 0;
	case 'I':
		if ((o->intr = sc_opt_interruptible(optarg)) < 0)
			return bad_arg(c, lopt, optarg);
		return 0;
	case 'k': o->stack = true; return 0;
	case 'n': o->nflag = true; return 0;
	case 'o': o->outfile = optarg; return 0;
	case 'O':
		if ((o->overhead_ns = sc_opt_overhead(optarg)) < 0)
			return bad_arg(c, lopt, optarg);
		return 0;
	case 'p': return add_pids(o, optarg);
	case 'P':
		add_trace_path(o, optarg);
		return 0;
	case 'q': ps->q_short++; return 0;
	case 'r':
		o->relative = true;
		o->rel_width = 6;
		if (sc_opt_timescale(optarg, &o->rel_width) < 0)
			return bad_arg(c, lopt, optarg);
		return 0;
	case 's':
		if ((n = parse_num(optarg, INT_MAX / 4)) < 0)
			return bad_arg(c, lopt, optarg);
		o->fmt.strsize = (unsigned)n;
		return 0;
	case 'S': {
		/* checked now, as strace does, whether or not -c comes */
		char err[256];
		struct sc_summary *probe = sc_summary_new();
		int bad = sc_summary_set_sort(probe, optarg, err, sizeof(err)) < 0;
		sc_summary_free(probe);
		if (bad)
			return as_strace ? usage_err("invalid sortby: '%s'", optarg) : usage_err("%s", err);
		o->sort = optarg;
		return 0;
	}
	case 't': ps->t_short++; return 0;
	case OPT_TS:
		ps->ts_long = true;
		if (sc_opt_timestamps(optarg ? optarg : "format:time", &o->ts) < 0)
			return bad_arg(c, lopt, optarg);
		return 0;
	case 'T':
		o->show_time = true;
		o->time_width = 6;
		if (sc_opt_timescale(optarg, &o->time_width) < 0)
			return bad_arg(c, lopt, optarg);
		return 0;
	case 'u': o->user = optarg; return 0;
	case 'U': {
		/* checked now, as strace does, whether or not -c comes */
		char err[256];
		struct sc_summary *probe = sc_summary_new();
		int bad = sc_summary_set_columns(probe, optarg, err, sizeof(err)) < 0;
		sc_summary_free(probe);
		if (bad)
			return usage_err("%s", err);
		o->columns = optarg;
		return 0;
	}
	case 'v': o->fmt.verbose = true; return 0;
	case 'V': o->version++; return 0;
	case 'w': o->wall = true; return 0;
	case 'x': if (o->fmt.xflag < 2) o->fmt.xflag++; return 0;
	case OPT_HEX_STR:
		if ((ps->x_long = sc_opt_strings_in_hex(optarg)) < 0)
			return bad_arg(c, lopt, optarg);
		return 0;
	case 'X':
		if (strcmp(optarg, "raw") == 0)
			xlat_style = XLAT_STYLE_RAW;
		else if (strcmp(optarg, "abbrev") == 0)
			xlat_style = XLAT_STYLE_ABBREV;
		else if (strcmp(optarg, "verbose") == 0)
			xlat_style = XLAT_STYLE_VERBOSE;
		else
			return bad_arg(c, lopt, optarg);
		return 0;
	case 'y': ps->y_short++; return 0;
	case 'Y': o->decode_pids |= SC_DPID_COMM; return 0;
	case OPT_PIDNS: o->decode_pids |= SC_DPID_PIDNS; return 0;
	case 'z': o->zflags++; return add_expr(o, ps, "status=successful");
	case 'Z': o->zflags++; return add_expr(o, ps, "status=failed");
	case OPT_SECCOMP: o->seccomp = true; return 0;
	case OPT_TIPS:
		if (sc_tips_parse(&o->tips, optarg) < 0)
			return bad_arg(c, lopt, optarg);
		return 0;
	case OPT_QUAL: {
		char expr[4096];
		snprintf(expr, sizeof(expr), "%s=%s", lopt->name, optarg);
		return add_expr(o, ps, expr);
	}
	case OPT_QUIET:
		ps->quiet_long = true;
		return set_tokens("quiet", optarg ? optarg : "attach,personality", sc_quiet_tokens,
				  ~0u, &o->quiet_set);
	case OPT_DECODE_FD:
		ps->decode_fd_long = true;
		return set_tokens("decode-fds", optarg ? optarg : "path", sc_decode_fd_tokens, 0xf,
				  &ps->decode_fds);
	case OPT_DECODE_PID:
		return set_tokens("decode-pids", optarg, sc_decode_pid_tokens, 0x3, &o->decode_pids);
	case OPT_KVM: return set_kvm(o, optarg);
	case OPT_SECONTEXT:
		/* run as strace: the words of a strace built without SELinux support */
		if (as_strace && c == OPT_SECONTEXT)
			errmsg("SELinux context printing (--secontext option) is not supported by "
			       "this build of strace");
		else
			errmsg("--%s is not supported by tracekit (see docs/syscalls.md)", lopt->name);
		return -1;
	case OPT_JSON: o->json = true; return 0;
	case OPT_KERNEL:
		o->kernel = true;
		if (optarg && strcmp(optarg, "bpf") && strcmp(optarg, "ftrace")) {
			errmsg("invalid --kernel=%s (bpf or ftrace)", optarg);
			return -1;
		}
		o->ksource = !optarg ? SC_KS_AUTO : optarg[0] == 'b' ? SC_KS_BPF : SC_KS_FTRACE;
		return 0;
	case OPT_BUFSIZE: {
		long kb = parse_num(optarg, 1 << 22);
		if (kb < 4) {
			errmsg("invalid --buffer-size '%s' (KiB, at least 4, e.g. --buffer-size=65536)",
			       optarg);
			return -1;
		}
		o->buffer_kb = (unsigned)kb;
		return 0;
	}
	case ':':
		if (lopt)
			return usage_err("option '--%s' requires an argument", lopt->name);
		return usage_err("option requires an argument -- '%c'", optopt);
	default: {
		/* strace's words; as tracekit, where to look as every verb says it */
		const char *see = as_strace ? "" : " (see 'tracekit help syscalls')";
		if (optopt && optopt < 256)
			return usage_err("invalid option -- '%c'%s", optopt, see);
		return usage_err("unrecognized option '%s'%s", argv[optind - 1], see);
	}
	}
}

/* strace's note for each -P path that resolves elsewhere: Requested path "///" resolved into "/" */
static void say_path_resolutions(const struct sc_options *o)
{
	for (int i = 0; i < o->npaths; i++) {
		char *real = realpath(o->paths[i], NULL);
		if (real && strcmp(real, o->paths[i])) {
			struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
			struct sc_call ca = { .out = &a }, cb = { .out = &b };
			p_quoted(&ca, (const unsigned char *)o->paths[i], strlen(o->paths[i]), false);
			p_quoted(&cb, (const unsigned char *)real, strlen(real), false);
			errmsg("Requested path %s resolved into %s", sb_str(&a), sb_str(&b));
			sb_free(&a);
			sb_free(&b);
		}
		free(real);
	}
}

/* The option counts into settings, with strace's rules for the mixes it refuses. */
static int resolve(struct sc_options *o, struct parse_state *ps)
{
	if (ps->f_short && ps->follow_long) {
		errmsg("-f and --follow-forks cannot be provided simultaneously");
		return -1;
	}
	if (ps->f_short > 1 && ps->ff_long) {
		errmsg("-ff and --output-separately cannot be provided simultaneously");
		return -1;
	}
	o->follow = ps->f_short > 0 || ps->follow_long;
	o->ff = ps->f_short > 1 || ps->ff_long;
	o->out_sep_alone = ps->ff_long && !o->follow;
	if (ps->F_short && o->follow) {
		errmsg("deprecated option -F ignored");
	} else if (ps->F_short) {
		errmsg("option -F is deprecated, please use -f/--follow-forks instead");
		o->follow = true;
	}
	if (ps->t_short) {
		if (ps->ts_long) {
			errmsg("-t and --absolute-timestamps cannot be provided simultaneously");
			return -1;
		}
		o->ts.format = ps->t_short >= 3 ? "%s" : "%T";
		o->ts.width = ps->t_short >= 2 ? 6 : 0;
	}
	if (ps->x_long >= 0) {
		if (o->fmt.xflag) {
			errmsg("-x and --strings-in-hex cannot be provided simultaneously");
			return -1;
		}
		o->fmt.xflag = ps->x_long;
	}
	if (ps->y_short) {
		if (ps->decode_fd_long) {
			errmsg("-y and --decode-fds cannot be provided simultaneously");
			return -1;
		}
		ps->decode_fds = ps->y_short > 1 ? 0xf : SC_DFD_PATH;
	}
	o->fmt.yflag = ps->decode_fds & (SC_DFD_SOCKET | SC_DFD_DEV) ? 2 : ps->decode_fds ? 1 : 0;
	o->fmt.decode_pids = o->decode_pids;
	o->fmt.decode_fds = ps->decode_fds;
	if (o->daemonize_long) {
		if (o->daemonize) {
			errmsg("-D and --daemonize cannot be provided simultaneously");
			return -1;
		}
		o->daemonize = o->daemonize_long;
	}
	/* as strace: after the command is known, before -q counts (only quiet= silences it) */
	if ((o->argv || o->npids) && !(o->quiet_set & SC_QUIET_PATH_RESOLUTION))
		say_path_resolutions(o);
	/* strace: -o with a command is quiet about attaching unless told otherwise. */
	if (o->outfile && o->argv && !ps->q_short && !ps->quiet_long)
		ps->q_short = 1;
	if (ps->q_short) {
		if (ps->quiet_long) {
			errmsg("-q and -e quiet/--quiet cannot be provided simultaneously");
			return -1;
		}
		o->quiet_set = ps->q_short == 1 ? SC_QUIET_ATTACH | SC_QUIET_PERSONALITY :
			       ps->q_short == 2 ? SC_QUIET_ATTACH | SC_QUIET_PERSONALITY | SC_QUIET_EXIT :
			       ~0u;
	}
	o->quiet = ps->q_short;
	return 0;
}

static int parse(struct sc_options *o, int argc, char **argv)
{
	struct parse_state ps = { .x_long = -1 };
	int c, idx = -1, rc;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:a:Ab:cCdDe:E:fFhiI:kno:O:p:P:qrs:S:tTu:U:vVwxX:yYzZ",
				longopts, &idx)) != -1) {
		const struct option *lopt = idx >= 0 ? &longopts[idx] : NULL;
		idx = -1;
		if ((rc = parse_one(o, &ps, c, lopt, argv)) != 0)
			return rc;
	}
	if (o->version) {
		parse_version();
		return 1;
	}
	if (optind < argc)
		o->argv = argv + optind;
	return resolve(o, &ps);
}

/* What only a tracer that stops the program can do. */
static bool kernel_unsupported(const struct sc_options *o)
{
	bool injects = false;
	for (long nr = 0; nr < SC_NR_MAX && !injects; nr++)
		injects = sc_filter_injects(o->filter, nr);
	const char *what = o->seccomp ? "--seccomp-bpf" : o->stack ? "-k" :
			   injects ? "-e inject=/fault=" : NULL;
	const char *why = o->seccomp ? "its filter makes the program stop for a tracer, and --kernel has none" :
			  o->stack ? "unwinding a stack needs the program stopped at each call" :
			  "changing a call's result needs the program stopped (the kernel's BPF error "
			  "injection is not built into the kernels it runs on)";
	if (what)
		errmsg("%s needs the ptrace mode: %s; drop --kernel or %s", what, why, what);
	return what != NULL;
}

/* strace's notes for options that change nothing in this mix (the run goes on). */
static void note_moot_options(const struct sc_options *o)
{
	static const char only_c[] = "has no effect with -c/--summary-only";
	if (o->sort && !o->summary)
		errmsg("-S/--summary-sort-by has no effect without (-c/--summary-only or -C/--summary)");
	if (o->summary == 1) {
		if (o->iflag)
			errmsg("-i/--instruction-pointer %s", only_c);
		if (o->stack)
			errmsg("-k/--stack-traces %s", only_c);
		if (o->nflag)
			errmsg("-n/--syscall-number %s", only_c);
		if (o->relative)
			errmsg("-r/--relative-timestamps %s", only_c);
		if (o->ts.format)
			errmsg("-t/--absolute-timestamps %s", only_c);
		if (o->show_time)
			errmsg("-T/--syscall-times %s", only_c);
		if (o->fmt.decode_fds)
			errmsg("-y/--decode-fds %s", only_c);
	}
	if (!o->outfile && o->out_sep_alone)
		errmsg("--output-separately has no effect without -o/--output");
	if (!o->outfile && o->append)
		errmsg("-A/--output-append-mode has no effect without -o/--output");
	if (o->zflags > 1)
		errmsg("Only the last of -z/--successful-only/-Z/--failed-only options will take "
		       "effect. See status qualifier for more complex filters.");
}

static int check(struct sc_options *o)
{
	if (!o->argv && !o->npids) {
		if (as_strace)
			return usage_err("must have PROG [ARGS] or -p PID");
		errmsg("nothing to trace: give a COMMAND or -p PID (see 'tracekit help syscalls')");
		return -1;
	}
	if (!o->argv && o->daemonize)
		return usage_err("PROG [ARGS] must be specified with -D/--daemonize");
	if (o->daemonize > 3)
		return usage_err("Too many -D's (%d), maximum supported -D count is 3", o->daemonize);
	/* strace's rules and words: each makes --seccomp-bpf a no-op, with a note. */
	if (o->seccomp && o->detach_on_execve) {
		errmsg("--seccomp-bpf is not enabled because it is not compatible with -b");
		o->seccomp = false;
	}
	if (o->seccomp && o->npids) {
		errmsg("--seccomp-bpf is not enabled for processes attached with -p");
		o->seccomp = false;
	}
	if (o->seccomp && !o->follow) {
		/* a filter is inherited by children, so their calls must be traced too */
		errmsg("--seccomp-bpf cannot be used without -f/--follow-forks, disabling");
		o->seccomp = false;
	}
	if (o->outfile && (o->outfile[0] == '|' || o->outfile[0] == '!') && o->ff)
		return usage_err("piping the output and -ff/--output-separately are mutually exclusive");
	if (o->ff && o->summary)
		return usage_err("(-c/--summary-only or -C/--summary) and -ff/--output-separately are "
				 "mutually exclusive");
	if (o->ff && !o->outfile) {
		o->ff = false;	/* strace: -ff without -o is -f */
	}
	if (o->kernel && kernel_unsupported(o))
		return -1;
	if (o->json && o->summary == 1) {
		errmsg("--json prints calls; use it without -c");
		return -1;
	}
	if (o->wall && !o->summary)
		return usage_err("-w/--summary-wall-clock must be given with (-c/--summary-only or -C/--summary)");
	if (o->columns && !o->summary)
		return usage_err("-U/--summary-columns must be given with (-c/--summary-only or -C/--summary)");
	note_moot_options(o);
	if (o->user && !getpwnam(o->user)) {
		errmsg("Cannot find user '%s'", o->user);
		return -1;
	}
	return 0;
}

static int run(struct sc_options *o, int argc, char **argv)
{
	err_set_verb("syscalls");
	o->fmt.strsize = 32;
	o->acolumn = 40;
	if (!o->progname)
		o->progname = "tracekit";
	o->overhead_ns = -1;
	o->filter = sc_filter_new();
	int status = 2;
	int rc = parse(o, argc, argv);
	if (rc == 1)
		status = 0;
	else if (rc == 0 && check(o) == 0)
		status = o->kernel ? sc_run_kernel(o) : sc_run_ptrace(o);
	sc_filter_free(o->filter);
	free(o->pids);
	for (int i = 0; i < o->npaths; i++)
		free((char *)o->paths[i]);
	free(o->paths);
	free(o->env);
	return status;
}

int cmd_syscalls_as_strace(int argc, char **argv)
{
	as_strace = argv[0];
	err_set_prefix(argv[0]);
	sc_filter_strace_wording = true;
	struct sc_options o = { .progname = argv[0], .as_strace = true };
	return run(&o, argc, argv);
}

int cmd_syscalls(int argc, char **argv)
{
	struct sc_options o = { 0 };
	return run(&o, argc, argv);
}

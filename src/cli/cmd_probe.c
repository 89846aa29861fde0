/*
 * tracekit probe: dynamic probes in the kernel's kprobe_events/uprobe_events
 * grammar.  Sub-verbs add, del, list, trace; the engines are src/probe/
 * (grammar, ELF resolution, translation, the kernel backend, live tracing).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "probe/elfsym.h"
#include "probe/kernel.h"
#include "probe/live.h"
#include "probe/probe_def.h"
#include "util/die.h"
#include "util/json.h"
#include "util/strbuf.h"

void help_probe(FILE *f)
{
	fputs("usage: tracekit probe add [--json] [-n] [-v] SPEC...\n"
	      "       tracekit probe del GROUP/EVENT|GROUP...\n"
	      "       tracekit probe list [--json]\n"
	      "       tracekit probe list --symbols PATH [--json]\n"
	      "       tracekit probe trace [--ptrace] [--json] SPEC... -- COMMAND [ARGS...]\n"
	      "       tracekit probe trace --ptrace [--json] -p PID SPEC...\n"
	      "\n"
	      "Dynamic probes on any instruction of a program or library (uprobes), in the\n"
	      "kernel's probe grammar:\n"
	      "\n"
	      "  p[:[GROUP/]EVENT] PATH:SYMBOL[+OFFS] [ARGS]      entry (or any instruction)\n"
	      "  r[:[GROUP/]EVENT] PATH:SYMBOL [ARGS]             return\n"
	      "  p[:[GROUP/]EVENT] PATH:OFFSET | PATH:%PROVIDER:NAME (USDT) [ARGS]\n"
	      "  ARGS: [NAME=]FETCH[:TYPE]; FETCH: %REG @ADDR @SYM[+-N] $stackN $stack $retval\n"
	      "        $comm $argN +|-OFFS(FETCH) \\IMM; TYPE: u8..u64 s8..s64 x8..x64 char\n"
	      "        string ustring symbol b<W>@<O>/<S> TYPE[N]\n"
	      "\n"
	      "or in C, as perf probe takes them (types from BTF for the kernel, DWARF for\n"
	      "programs):\n"
	      "\n"
	      "  FUNC[%return] [ARGS]                    kernel: vfs_read file->f_pos count\n"
	      "  PATH:FUNC[%return] | PATH:FUNC:N | PATH:FILE:LINE [ARGS]\n"
	      "  ARGS: [NAME=]EXPR[:TYPE]; EXPR: VAR, VAR->MEMBER, VAR.MEMBER, VAR[N] chained,\n"
	      "        $retval, $current->comm, $current->pid (kernel); both kinds may mix\n"
	      "\n"
	      "  add      make persistent probes; record them with tracekit record -e GROUP\n"
	      "  del      remove probes tracekit added (a whole GROUP, or GROUP/EVENT)\n"
	      "  list     every probe event on the system; tracekit's are marked\n"
	      "           --symbols PATH: the functions and USDT probes of a file\n"
	      "  trace    run COMMAND with the probes, print each hit live (the kernel's\n"
	      "           trace line), remove the probes at the end\n"
	      "\n"
	      "  --json     one JSON object per line\n"
	      "  -n, --dry-run  with add: make nothing (with -v: show what would be written)\n"
	      "  -v, --verbose  with add: print each definition line written to\n"
	      "             kprobe_events/uprobe_events (C expressions translated)\n"
	      "  --ptrace   trace with tracekit's breakpoint engine: no root, no tracefs\n"
	      "             (user probes; not USDT); the same lines as uprobes print\n"
	      "  -p PID     with --ptrace: attach to a running process; Ctrl-C detaches,\n"
	      "             every byte put back, the process runs on\n"
	      "\n"
	      "The path needs a '/' (./myapp).  Kernel probes (SYMBOL without a path) need\n"
	      "kprobe_events.  Without --ptrace, needs root (tracefs).  See docs/probes.md.\n", f);
}

static int usage_error(const char *msg, const char *arg)
{
	errmsg("%s%s%s (see 'tracekit help probe')", msg, arg ? " " : "", arg ? arg : "");
	return 2;
}

/* Each definition parses: one that does not is a usage error (2), found before any probe is made. */
int cli_probe_specs_parse(char *const *specs, int n)
{
	for (int i = 0; i < n; i++) {
		struct probe_def def;
		struct pd_error perr;
		char line[512];
		if (pd_parse(specs[i], &def, &perr) < 0) {
			pd_error_line(specs[i], &perr, line, sizeof(line));
			errmsg("%s", line);
			return -1;
		}
		pd_free(&def);
	}
	return 0;
}

/* Options shared by the sub-verbs; each checks the ones it takes. */
struct popts {
	bool json, ptrace, dry_run, verbose;
	const char *symbols;
	int pid;		/* -p */
	int first;		/* first operand */
};

enum { OPT_JSON = 256, OPT_PTRACE, OPT_SYMBOLS };

static const struct option longopts[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "ptrace", no_argument, NULL, OPT_PTRACE },
	{ "symbols", required_argument, NULL, OPT_SYMBOLS },
	{ "pid", required_argument, NULL, 'p' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Options up to the first operand (SPECs start with p/r, never '-'), or up to "--". */
static int parse(struct popts *po, int argc, char **argv)
{
	int c;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hp:nv", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: po->json = true; break;
		case OPT_PTRACE: po->ptrace = true; break;
		case OPT_SYMBOLS: po->symbols = optarg; break;
		case 'p':
			po->pid = atoi(optarg);
			if (po->pid <= 0 || strspn(optarg, "0123456789") != strlen(optarg))
				return usage_error("-p needs a process id, not", optarg);
			break;
		case 'n': po->dry_run = true; break;
		case 'v': po->verbose = true; break;
		case 'h': help_probe(stdout); exit(0);
		case ':':
		default:
			cli_getopt_error("probe", c, argv);
			return 2;
		}
	}
	po->first = optind;
	return 0;
}

static int do_add(const struct popts *po, int argc, char **argv)
{
	char err[1024], g[64], e[64];
	if (po->first >= argc)
		return usage_error("probe add needs a probe definition, e.g. 'p ./myapp:main'", NULL);
	if (cli_probe_specs_parse(argv + po->first, argc - po->first) < 0)
		return 2;
	for (int i = po->first; po->dry_run || po->verbose ? i < argc : 0; i++) {
		struct strbuf line = STRBUF_INIT, notes = STRBUF_INIT;
		int rc = pk_spec_line(argv[i], &line, &notes, err, sizeof(err));
		if (rc == 0 && po->verbose) {
			/* notes first, as "# ..." lines: the definition line stays copyable */
			for (const char *n = sb_str(&notes), *e; *n; n = e + 1) {
				e = strchr(n, '\n');
				printf("# %.*s\n", (int)(e - n), n);
			}
			printf("%s\n", sb_str(&line));
		}
		sb_free(&line);
		sb_free(&notes);
		if (rc < 0) {
			errmsg("%s", err);
			return 1;
		}
	}
	if (po->dry_run)
		return 0;
	for (int i = po->first; i < argc; i++) {
		if (pk_create_spec(argv[i], NULL, g, sizeof(g), e, sizeof(e), err, sizeof(err)) < 0) {
			errmsg("%s", err);
			return 1;
		}
		if (pk_registry_add(g, e, argv[i]) < 0)
			warnmsg("%s/%s made, but cannot be noted in " PK_REGISTRY_DIR
				": probe del will not know it", g, e);
		if (po->json) {
			printf("{\"group\":");
			json_fputs(stdout, g);
			printf(",\"event\":");
			json_fputs(stdout, e);
			printf(",\"spec\":");
			json_fputs(stdout, argv[i]);
			printf("}\n");
		} else {
			printf("added probe %s/%s\n", g, e);
		}
	}
	if (!po->json)
		printf("record it with: tracekit record -e %s:%s -- COMMAND\n", g, e);
	return 0;
}

static int do_del(const struct popts *po, int argc, char **argv)
{
	char err[512];
	int rc = 0;
	if (po->first >= argc)
		return usage_error("probe del needs GROUP/EVENT or GROUP", NULL);
	for (int i = po->first; i < argc; i++) {
		char *arg = xstrdup(argv[i]);
		char *slash = strchr(arg, '/');
		const char *event = NULL;
		if (slash) {
			*slash = '\0';
			event = slash + 1;
		}
		struct pk_probe *list;
		size_t n, removed = 0, foreign = 0;
		const char *foreign_file = "uprobe_events";
		if (pk_list(&list, &n, err, sizeof(err)) < 0) {
			errmsg("%s", err);
			free(arg);
			return 1;
		}
		for (size_t j = 0; j < n; j++) {
			struct pk_probe *p = &list[j];
			if (strcmp(p->group, arg) || (event && strcmp(p->event, event)))
				continue;
			if (!p->persistent) {
				foreign++;
				foreign_file = p->kernel ? "kprobe_events" : "uprobe_events";
				continue;
			}
			if (pk_remove(p->group, p->event, err, sizeof(err)) < 0) {
				errmsg("%s", err);
				rc = 1;
				continue;
			}
			pk_registry_del(p->group, p->event);
			printf("removed probe %s/%s\n", p->group, p->event);
			removed++;
		}
		pk_list_free(list, n);
		if (!removed && foreign) {
			errmsg("%s was not made by tracekit probe add: left alone (remove it with "
			       "echo '-:%s' >> /sys/kernel/tracing/%s)", argv[i], argv[i], foreign_file);
			rc = 1;
		} else if (!removed && rc == 0) {
			errmsg("no probe %s (see tracekit probe list)", argv[i]);
			rc = 1;
		}
		free(arg);
	}
	return rc;
}

static int do_list(const struct popts *po)
{
	char err[512];
	struct pk_probe *list;
	size_t n;
	if (pk_list(&list, &n, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		const struct pk_probe *p = &list[i];
		const char *owner = p->persistent ? "tracekit" : p->run ? "tracekit-run" : "other";
		if (po->json) {
			printf("{\"group\":");
			json_fputs(stdout, p->group);
			printf(",\"event\":");
			json_fputs(stdout, p->event);
			printf(",\"definition\":");
			json_fputs(stdout, p->definition);
			printf(",\"owner\":\"%s\"", owner);
			if (p->spec) {
				printf(",\"spec\":");
				json_fputs(stdout, p->spec);
			}
			printf("}\n");
		} else {
			printf("%s/%s  %s", p->group, p->event, p->definition);
			if (p->persistent)
				printf("  [tracekit: %s]", p->spec);
			else if (p->run)
				printf("  [tracekit run]");
			putchar('\n');
		}
	}
	if (!n && !po->json)
		puts("no probe events");
	pk_list_free(list, n);
	return 0;
}

static int do_symbols(const struct popts *po)
{
	char err[512];
	struct es_file *f = es_open(po->symbols, err, sizeof(err));
	if (!f) {
		errmsg("%s", err);
		return 1;
	}
	for (size_t i = 0; i < es_nsyms(f); i++) {
		const struct es_sym *s = es_sym(f, i);
		if (!s->func)
			continue;
		const char *name = s->demangled ? s->demangled : s->name;
		if (po->json) {
			printf("{\"kind\":\"function\",\"address\":\"0x%" PRIx64 "\",\"size\":%" PRIu64
			       ",\"name\":", s->value, s->size);
			json_fputs(stdout, name);
			printf("}\n");
		} else {
			printf("0x%016" PRIx64 " %6" PRIu64 " %s\n", s->value, s->size, name);
		}
	}
	for (size_t i = 0; i < es_nusdt(f); i++) {
		const struct es_usdt *u = es_usdt(f, i);
		if (po->json) {
			printf("{\"kind\":\"usdt\",\"address\":\"0x%" PRIx64 "\",\"provider\":", u->pc);
			json_fputs(stdout, u->provider);
			printf(",\"name\":");
			json_fputs(stdout, u->name);
			printf(",\"args\":");
			json_fputs(stdout, u->args);
			printf(",\"semaphore\":\"0x%" PRIx64 "\"}\n", u->semaphore);
		} else {
			printf("0x%016" PRIx64 " usdt   %%%s:%s  %s%s\n", u->pc, u->provider, u->name,
			       u->args, u->semaphore ? "  (semaphore)" : "");
		}
	}
	if (!po->json && es_debug_path(f))
		fprintf(stderr, "tracekit: probe: symbols from %s\n", es_debug_path(f));
	es_close(f);
	return 0;
}

static int do_trace(const struct popts *po, int argc, char **argv)
{
	int dash = -1;
	for (int i = po->first; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dash = i;
			break;
		}
	if (po->pid && !po->ptrace)
		return usage_error("-p PID needs --ptrace (the kernel backend runs a COMMAND)", NULL);
	if (po->pid && dash >= 0)
		return usage_error("probe trace takes -p PID or -- COMMAND, not both", NULL);
	if (!po->pid && (dash < 0 || dash + 1 >= argc))
		return usage_error("probe trace needs SPEC... -- COMMAND", NULL);
	int nspecs = (po->pid ? argc : dash) - po->first;
	if (nspecs <= 0)
		return usage_error("probe trace needs at least one probe definition", NULL);
	if (cli_probe_specs_parse(&argv[po->first], nspecs) < 0)
		return 2;
	struct pl_options o = { .specs = &argv[po->first], .nspecs = nspecs,
				.argv = po->pid ? NULL : &argv[dash + 1], .pid = po->pid,
				.json = po->json };
	return po->ptrace ? pl_run_ptrace(&o) : pl_run(&o);
}

int cmd_probe(int argc, char **argv)
{
	err_set_verb("probe");
	if (argc < 2)
		return usage_error("probe needs a sub-command: add, del, list or trace", NULL);
	const char *sub = argv[1];
	if (!strcmp(sub, "--help") || !strcmp(sub, "-h")) {
		help_probe(stdout);
		return 0;
	}
	struct popts po = { 0 };
	if (parse(&po, argc - 1, argv + 1) != 0)
		return 2;
	po.first += 1;		/* back to argv's numbering */
	bool wrong = ((po.ptrace || po.pid) && strcmp(sub, "trace")) ||
		     (po.symbols && strcmp(sub, "list"));
	if (wrong)
		return usage_error(po.symbols ? "--symbols is for probe list"
				   : po.ptrace ? "--ptrace is for probe trace" : "-p is for probe trace",
				   NULL);
	if ((po.dry_run || po.verbose) && strcmp(sub, "add"))
		return usage_error(po.dry_run ? "-n is for probe add" : "-v is for probe add", NULL);
	if (!strcmp(sub, "add"))
		return do_add(&po, argc, argv);
	if (!strcmp(sub, "del"))
		return do_del(&po, argc, argv);
	if (!strcmp(sub, "list")) {
		if (po.first < argc)
			return usage_error("unexpected argument", argv[po.first]);
		return po.symbols ? do_symbols(&po) : do_list(&po);
	}
	if (!strcmp(sub, "trace"))
		return do_trace(&po, argc, argv);
	return usage_error("unknown probe sub-command", sub);
}

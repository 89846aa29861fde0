/*
 * tracekit oops: decode kernel oopses, panics, BUGs and WARNINGs from a log.
 * Options and input only; the work is in src/oops/.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "oops/oops.h"
#include "util/die.h"

/* Bigger than any kernel log buffer (CONFIG_LOG_BUF_SHIFT is at most 25: 32 MiB). */
#define MAX_INPUT (64u << 20)

void help_oops(FILE *f)
{
	fputs("usage: tracekit oops [options] [FILE]\n"
	      "\n"
	      "Decode the kernel reports in a log (oops, panic, BUG, WARNING, KASAN, lockups,\n"
	      "RCU stalls, hung tasks, might_sleep splats): kind, faulting function, guilty\n"
	      "frame, task, taint, faulting address, verdict, call trace and Code: listing.\n"
	      "FILE is a saved log or a paste (default: standard input, e.g. dmesg | tracekit oops).\n"
	      "\n"
	      "  --dmesg            read the running kernel's log (/dev/kmsg), without waiting\n"
	      "  --pstore[=DIR]     read the crash log pstore kept (default /sys/fs/pstore)\n"
	      "  --vmlinux FILE     the kernel ELF with debug info: file:line, inlined frames\n"
	      "  --modules DIR      where the modules' .ko files are (searched recursively)\n"
	      "  --system-map FILE  System.map: symbol addresses only, when there is no DWARF\n"
	      "  --kallsyms FILE    a saved /proc/kallsyms (with module names)\n"
	      "  --debug-dir DIR    root of separate debug info (default /usr/lib/debug)\n"
	      "  --no-auto          do not look for symbols in the standard places\n"
	      "  --json             a JSON list, one object per report (see docs/oops.md)\n"
	      "  -h, --help         this text\n"
	      "\n"
	      "Without --vmlinux, symbols are looked for when the log's kernel is the running\n"
	      "one: /proc/kallsyms, /usr/lib/debug/boot/vmlinux-VERSION, the build id under\n"
	      "/usr/lib/debug/.build-id, and debuginfod when DEBUGINFOD_URLS is set.\n"
	      "Exit status: 0 when a report was decoded, 1 when the input holds none.\n", f);
}

enum { O_DMESG = 256, O_PSTORE, O_VMLINUX, O_MODULES, O_SYSMAP, O_KALLSYMS, O_DEBUGDIR,
       O_NOAUTO, O_JSON };

static const struct option longopts[] = {
	{ "dmesg", no_argument, NULL, O_DMESG },
	{ "pstore", optional_argument, NULL, O_PSTORE },
	{ "vmlinux", required_argument, NULL, O_VMLINUX },
	{ "modules", required_argument, NULL, O_MODULES },
	{ "system-map", required_argument, NULL, O_SYSMAP },
	{ "kallsyms", required_argument, NULL, O_KALLSYMS },
	{ "debug-dir", required_argument, NULL, O_DEBUGDIR },
	{ "no-auto", no_argument, NULL, O_NOAUTO },
	{ "json", no_argument, NULL, O_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct oops_args {
	const char *file;
	bool dmesg, json;
	const char *pstore;
	struct oops_symopts sym;
};

static int need_file(const char *opt, const char *path, bool dir)
{
	if (access(path, R_OK) == 0)
		return 0;
	errmsg("%s '%s': %s (give the path of %s)", opt, path, strerror(errno),
	       dir ? "a directory" : "a readable file");
	return -1;
}

static int parse_args(int argc, char **argv, struct oops_args *a)
{
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case O_DMESG: a->dmesg = true; break;
		case O_PSTORE: a->pstore = optarg ? optarg : "/sys/fs/pstore"; break;
		case O_VMLINUX: a->sym.vmlinux = optarg; break;
		case O_MODULES: a->sym.modules_dir = optarg; break;
		case O_SYSMAP: a->sym.system_map = optarg; break;
		case O_KALLSYMS: a->sym.kallsyms = optarg; break;
		case O_DEBUGDIR: a->sym.debug_dir = optarg; break;
		case O_NOAUTO: a->sym.auto_find = false; break;
		case O_JSON: a->json = true; break;
		case 'h': help_oops(stdout); return 1;
		case ':':
		default:
			cli_getopt_error("oops", c, argv);
			return -1;
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc) {
		errmsg("unexpected argument '%s' (one log file at a time)", argv[optind]);
		return -1;
	}
	if ((a->file != NULL) + a->dmesg + (a->pstore != NULL) > 1) {
		errmsg("give one input: FILE, --dmesg or --pstore");
		return -1;
	}
	if (!a->file && !a->dmesg && !a->pstore && isatty(STDIN_FILENO)) {
		errmsg("no input: give a FILE, pipe a log in (dmesg | tracekit oops), or use --dmesg");
		return -1;
	}
	return 0;
}

/* The files the options name: a missing one is a runtime error (1), as a bad one is. */
static int check_files(const struct oops_args *a)
{
	const struct oops_symopts *s = &a->sym;
	if ((s->vmlinux && need_file("--vmlinux", s->vmlinux, false) < 0) ||
	    (s->modules_dir && need_file("--modules", s->modules_dir, true) < 0) ||
	    (s->system_map && need_file("--system-map", s->system_map, false) < 0) ||
	    (s->kallsyms && need_file("--kallsyms", s->kallsyms, false) < 0) ||
	    (s->debug_dir && need_file("--debug-dir", s->debug_dir, true) < 0))
		return -1;
	return 0;
}

static int read_stream(FILE *f, const char *name, struct strbuf *out)
{
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (out->len + n > MAX_INPUT) {
			errmsg("%s: more than %u MiB: not a kernel log (save the part with the report)",
			       name, MAX_INPUT >> 20);
			return -1;
		}
		sb_addn(out, buf, n);
	}
	if (ferror(f)) {
		errmsg("%s: %s", name, strerror(errno));
		return -1;
	}
	return 0;
}

static int read_input(const struct oops_args *a, struct strbuf *text, const char **name)
{
	char err[4200];
	if (a->dmesg) {
		*name = "/dev/kmsg";
		if (oops_read_kmsg("/dev/kmsg", text, err, sizeof(err)) < 0) {
			errmsg("%s", err);
			return -1;
		}
		return 0;
	}
	if (a->pstore) {
		*name = a->pstore;
		if (oops_read_pstore(a->pstore, text, err, sizeof(err)) < 0) {
			errmsg("%s", err);
			return -1;
		}
		return 0;
	}
	if (!a->file || !strcmp(a->file, "-")) {
		*name = "standard input";
		return read_stream(stdin, *name, text);
	}
	*name = a->file;
	FILE *f = fopen(a->file, "rb");
	if (!f) {
		errmsg("%s: %s", a->file, strerror(errno));
		return -1;
	}
	int rc = read_stream(f, a->file, text);
	fclose(f);
	return rc;
}

int cmd_oops(int argc, char **argv)
{
	struct oops_args a = { .sym = { .auto_find = true } };
	err_set_verb("oops");
	int rc = parse_args(argc, argv, &a);
	if (rc)
		return rc < 0 ? 2 : 0;

	if (check_files(&a) < 0)
		return 1;
	struct strbuf text = STRBUF_INIT;
	const char *name;
	if (read_input(&a, &text, &name) < 0) {
		sb_free(&text);
		return 1;
	}
	struct oops_lines lines;
	oops_lines_from_text(&lines, sb_str(&text), text.len);
	sb_free(&text);
	struct oops_reports reports;
	oops_parse(&reports, &lines);
	oops_lines_free(&lines);
	if (!reports.n) {
		errmsg("%s: no kernel report found (no oops, BUG, WARNING, panic, KASAN, lockup, "
		       "stall or hung-task lines; paste the whole report, from its first line)", name);
		oops_reports_free(&reports);
		return 1;
	}
	char err[1024];
	a.sym.quiet = a.json;
	if (oops_symbolize(&reports, &a.sym, err, sizeof(err)) < 0) {
		errmsg("%s", err);
		oops_reports_free(&reports);
		return 1;
	}
	if (a.json)
		oops_print_json(&reports, stdout);
	else
		oops_print_text(&reports, stdout);
	oops_reports_free(&reports);
	if (fflush(stdout) != 0) {
		errmsg("write error: %s", strerror(errno));
		return 1;
	}
	return 0;
}

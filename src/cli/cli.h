/* The verbs of the tracekit command line: one cmd_<verb>.c each. */
#ifndef TRACEKIT_CLI_H
#define TRACEKIT_CLI_H

#include <stdbool.h>
#include <stdio.h>

struct verb {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);	/* argv[0] is the verb */
	void (*help)(FILE *f);
};

int cmd_syscalls(int argc, char **argv);
/* tracekit run as "strace": `tracekit syscalls` speaking as argv[0]. */
int cmd_syscalls_as_strace(int argc, char **argv);
void help_syscalls(FILE *f);
int cmd_record(int argc, char **argv);
void help_record(FILE *f);
int cmd_report(int argc, char **argv);
void help_report(FILE *f);
int cmd_list(int argc, char **argv);
void help_list(FILE *f);
int cmd_reset(int argc, char **argv);
void help_reset(FILE *f);
int cmd_view(int argc, char **argv);
void help_view(FILE *f);
int cmd_export(int argc, char **argv);
void help_export(FILE *f);
int cmd_sched(int argc, char **argv);
void help_sched(FILE *f);
int cmd_calls(int argc, char **argv);
void help_calls(FILE *f);
int cmd_stack(int argc, char **argv);
void help_stack(FILE *f);
int cmd_latency(int argc, char **argv);
void help_latency(FILE *f);
int cmd_probe(int argc, char **argv);
void help_probe(FILE *f);

/*
 * The trace file as trace-cmd takes it: -i FILE, or one FILE after the options.
 * Returns 0, or -1 after one error line (two files, or more than one argument).
 */
int cli_input_file(int argc, char **argv, int first, const char **input, bool have_i);

/*
 * Several trace files read as one (a host's and its guests' recordings, merged on one
 * clock): -i FILE repeated, as trace-cmd report takes them, or FILE... after the options.
 */
#define CLI_MAX_INPUTS 16
struct cli_inputs {
	const char *v[CLI_MAX_INPUTS];
	int n;
};
/* One -i; -1 after one error line when there are too many. */
int cli_input_add(struct cli_inputs *in, const char *arg);
/* The files after the options (none when -i gave some); none at all: trace.dat. */
int cli_input_files(int argc, char **argv, int first, struct cli_inputs *in);
int cmd_oops(int argc, char **argv);
void help_oops(FILE *f);
int cmd_listen(int argc, char **argv);
void help_listen(FILE *f);
int cmd_agent(int argc, char **argv);
void help_agent(FILE *f);
/* record's options (argv[0] is the verb); -1 after one error line. */
struct rec_options;
int cli_record_parse(struct rec_options *o, int argc, char **argv);
/* What cli_record_parse allocated in o. */
void cli_record_options_free(struct rec_options *o);

/* Probe definitions (SPECs) of probe add/trace and record --probe: -1 after one line if one does not parse. */
int cli_probe_specs_parse(char *const *specs, int n);

/* The -F filters of the verbs that read a trace file (report, sched, view, export). */
#define CLI_MAX_FILTERS 64
struct cli_filters {
	const char *v[CLI_MAX_FILTERS];
	int n;
};

/* Adds one -F; -1 after one error line when there are too many. */
int cli_filter_add(struct cli_filters *f, const char *arg);

/*
 * -B NAME (repeatable) and --top: which buffers of a file with instance buffers
 * (trace-cmd record -B NAME) the verbs that read a trace file read; none: all.
 */
#define CLI_MAX_BUFFERS 64
struct cli_buffers {
	const char *v[CLI_MAX_BUFFERS];
	int n;
	bool top;
};
int cli_buffer_add(struct cli_buffers *b, const char *arg);
/* Tells the trace reader (tf_reader_choose_buffers). */
void cli_buffers_apply(const struct cli_buffers *b);
#define CLI_OPT_TOP 0x150	/* getopt's code for --top */

/* --from/--to style values: a non-negative number of seconds; one error line otherwise. */
int cli_seconds(const char *opt, const char *arg, double *out);

/* A whole number from min to max (ports, counts); one error line otherwise. */
int cli_number(const char *opt, const char *arg, long min, long max, long *out);

/* stack and latency: [--duration S] [--json] [-- COMMAND [ARGS...]] over a command or a while. */
struct cli_measure_opts {
	double duration;	/* --duration S; 0: until the command ends or Ctrl-C */
	bool json;
	char **argv;		/* the first argument after the options, NULL if none */
};

/* 0; 1 after --help (printed by help); -1 after one error line. */
int cli_measure_opts(int argc, char **argv, struct cli_measure_opts *o, const char *verb,
		     void (*help)(FILE *));

/*
 * After getopt_long (opterr 0, optstring starting "[+]:") returned ':' (an
 * option's value is missing) or '?' (an unknown option): one error line naming
 * the option and 'tracekit help VERB'.  Every verb but syscalls (strace's words).
 */
void cli_getopt_error(const char *verb, int c, char **argv);

/* On a terminal, replaces tracekit with man tracekit-VERB when that page is installed. */
void help_open_man(const char *verb);

#endif

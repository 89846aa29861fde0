/* Option values more than one verb takes, parsed one way with one error message. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "tracefile/reader.h"
#include "util/die.h"

void cli_getopt_error(const char *verb, int c, char **argv)
{
	const char *opt = argv[optind - 1];

	const char *eq = !strncmp(opt, "--", 2) ? strchr(opt, '=') : NULL;

	if (c == ':')
		errmsg("option '%s' needs a value (see 'tracekit help %s')", opt, verb);
	else if (eq && optopt)	/* a known long option given a value it does not take */
		errmsg("option '%.*s' takes no value (see 'tracekit help %s')", (int)(eq - opt), opt,
		       verb);
	else if (optopt > 0 && optopt < 256)	/* a short one, perhaps inside -abc */
		errmsg("unknown option '-%c' (see 'tracekit help %s')", optopt, verb);
	else
		errmsg("unknown option '%s' (see 'tracekit help %s')", opt, verb);
}

int cli_seconds(const char *opt, const char *arg, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(arg, &end);
	if (errno || end == arg || *end || !isfinite(*out) || *out < 0) {
		errmsg("%s '%s': not a number of seconds (e.g. 10.5)", opt, arg);
		return -1;
	}
	return 0;
}

int cli_number(const char *opt, const char *arg, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || !*arg || *end || v < min || v > max) {
		errmsg("%s %s: expected a number from %ld to %ld", opt, arg, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int cli_input_file(int argc, char **argv, int first, const char **input, bool have_i)
{
	if (first >= argc)
		return 0;
	if (have_i) {
		errmsg("two trace files: -i %s and '%s' (give one)", *input, argv[first]);
		return -1;
	}
	if (first + 1 < argc) {
		errmsg("unexpected argument '%s' (one trace file: -i FILE or FILE)", argv[first + 1]);
		return -1;
	}
	*input = argv[first];
	return 0;
}

int cli_input_add(struct cli_inputs *in, const char *arg)
{
	if (in->n == CLI_MAX_INPUTS) {
		errmsg("-i: at most %d trace files", CLI_MAX_INPUTS);
		return -1;
	}
	in->v[in->n++] = arg;
	return 0;
}

int cli_input_files(int argc, char **argv, int first, struct cli_inputs *in)
{
	if (first < argc && in->n) {
		errmsg("trace files given both ways: -i %s and '%s' (use -i for each)", in->v[0],
		       argv[first]);
		return -1;
	}
	for (int i = first; i < argc; i++)
		if (cli_input_add(in, argv[i]) < 0)
			return -1;
	if (!in->n)
		in->v[in->n++] = "trace.dat";
	/* one recording twice would be merged with itself: every event twice */
	for (int i = 1; i < in->n; i++) {
		struct stat a, b;
		if (stat(in->v[i], &a) < 0)
			continue;	/* said when it is opened */
		for (int j = 0; j < i; j++)
			if (stat(in->v[j], &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
				errmsg("-i %s and -i %s: the same file twice (give each trace file "
				       "once)", in->v[j], in->v[i]);
				return -1;
			}
	}
	return 0;
}

int cli_buffer_add(struct cli_buffers *b, const char *arg)
{
	if (b->n == CLI_MAX_BUFFERS) {
		errmsg("-B: at most %d buffers", CLI_MAX_BUFFERS);
		return -1;
	}
	if (!*arg) {
		errmsg("-B '': a buffer name (--top for the top-level buffer)");
		return -1;
	}
	b->v[b->n++] = arg;
	return 0;
}

void cli_buffers_apply(const struct cli_buffers *b)
{
	tf_reader_choose_buffers(b->v, b->n, b->top);
}

int cli_filter_add(struct cli_filters *f, const char *arg)
{
	if (f->n == CLI_MAX_FILTERS) {
		errmsg("-F: at most %d filters", CLI_MAX_FILTERS);
		return -1;
	}
	f->v[f->n++] = arg;
	return 0;
}

enum { OPT_DURATION = 256, OPT_JSON };

static const struct option measure_longopts[] = {
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cli_measure_opts(int argc, char **argv, struct cli_measure_opts *o, const char *verb,
		     void (*help)(FILE *))
{
	int c;
	char *end;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", measure_longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DURATION:
			errno = 0;
			o->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || o->duration < 0.001 || o->duration > 1e9) {
				errmsg("invalid value '%s' for --duration (seconds, from 0.001)", optarg);
				return -1;
			}
			break;
		case OPT_JSON: o->json = true; break;
		case 'h': help(stdout); return 1;
		case ':':
		default:
			cli_getopt_error(verb, c, argv);
			return -1;
		}
	}
	if (optind < argc)
		o->argv = argv + optind;
	return 0;
}

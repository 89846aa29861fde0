/* Option values more than one verb takes, parsed one way with one error message. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "cli.h"
#include "tracefile/reader.h"
#include "util/die.h"

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

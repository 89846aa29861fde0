/* ex_run: the two passes over the trace and the output file; see export.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "export/writers.h"
#include "tracefile/merge.h"
#include "tracefile/reader.h"
#include "util/outfile.h"

struct source {
	const char *input;
	const char *const *filters;
	int nfilters;
};

/* The reader of a pass, filtered; NULL and err, *rc the verdict, on failure. */
static struct tf_reader *open_source(const struct source *src, int *rc, char *err, size_t errlen)
{
	struct tf_reader *r = tf_reader_open(src->input, err, errlen);

	*rc = -1;
	if (r && tf_reader_set_filters(r, src->filters, src->nfilters, err, errlen) < 0) {
		tf_reader_close(r);
		*rc = -2;
		return NULL;
	}
	return r;
}

static int write_all(const struct source *src, enum ex_format f, const struct ex_scan *s,
		     FILE *out, char *err, size_t errlen)
{
	int rc;
	struct tf_reader *r = open_source(src, &rc, err, errlen);

	if (!r)
		return rc;
	rc = f == EX_CHROME ? ex_write_chrome(r, s, out, err, errlen) :
		       ex_write_perfetto(r, s, out, err, errlen);
	tf_reader_close(r);
	return rc;
}

int ex_run(const char *input, const char *const *filters, int n, enum ex_format f,
	   const char *output, char *err, size_t errlen)
{
	const struct source src = { input, filters, n };
	struct ex_scan s;
	struct outfile out;
	int rc;
	struct tf_reader *r = open_source(&src, &rc, err, errlen);

	if (!r)
		return rc;
	rc = ex_scan(r, &s, err, errlen);
	tf_reader_close(r);
	if (rc < 0)
		goto out;
	/* Written aside and renamed: a full disk keeps the previous export whole. */
	rc = -1;
	if (outfile_open(&out, output, f == EX_CHROME ? "w" : "wb", err, errlen) < 0)
		goto out;
	/* Exports are mostly output: write in big blocks. */
	setvbuf(out.f, NULL, _IOFBF, 1 << 16);
	rc = write_all(&src, f, &s, out.f, err, errlen);
	if (rc < 0)
		outfile_abort(&out);
	else
		rc = outfile_commit(&out, err, errlen);
out:
	ex_scan_free(&s);
	return rc;
}

/*
 * One machine's first pass, filtered as the merged pass will be: a file the filters do not
 * fit gives none of its events (its CPUs still named).  0, or -1 and err.
 */
static int scan_machine(const char *input, const char *const *filters, int n, struct ex_scan *s,
			char *err, size_t errlen)
{
	char why[512];
	struct tf_reader *r = tf_reader_open(input, err, errlen);
	int rc;

	if (!r)
		return -1;
	if (tf_reader_set_filters(r, filters, n, why, sizeof(why)) < 0)
		tf_reader_select_cpus(r, (const bool[1]){ false }, 1);
	rc = ex_scan(r, s, err, errlen);
	tf_reader_close(r);
	return rc;
}

int ex_run_files(const char *const *inputs, int ninputs, const char *const *filters, int n,
		 enum ex_format f, const char *output, char *err, size_t errlen)
{
	struct ex_scan s[TF_MAX_MACHINES];
	struct tf_merge *m = NULL;
	struct outfile out;
	int rc = -1, scanned = 0;

	if (ninputs == 1)
		return ex_run(inputs[0], filters, n, f, output, err, errlen);
	memset(s, 0, sizeof(s));
	m = tf_merge_open(inputs, ninputs, err, errlen);
	if (!m)
		return -1;
	if (tf_merge_set_filters(m, filters, n, err, errlen) < 0) {
		rc = -2;
		goto out;
	}
	for (; scanned < ninputs; scanned++)
		if (scan_machine(inputs[scanned], filters, n, &s[scanned], err, errlen) < 0)
			goto out;
	if (outfile_open(&out, output, f == EX_CHROME ? "w" : "wb", err, errlen) < 0)
		goto out;
	setvbuf(out.f, NULL, _IOFBF, 1 << 16);
	rc = f == EX_CHROME ? ex_write_chrome_merged(m, s, out.f, err, errlen) :
			      ex_write_perfetto_merged(m, s, out.f, err, errlen);
	if (rc < 0)
		outfile_abort(&out);
	else
		rc = outfile_commit(&out, err, errlen);
out:
	for (int i = 0; i < scanned; i++)
		ex_scan_free(&s[i]);
	tf_merge_close(m);
	return rc;
}

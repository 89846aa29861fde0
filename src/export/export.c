/* ex_run: the two passes over the trace and the output file; see export.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "export/export.h"
#include "export/writers.h"
#include "tracefile/reader.h"

static int write_all(const char *input, enum ex_format f, const struct ex_scan *s, FILE *out,
		     char *err, size_t errlen)
{
	struct tf_reader *r = tf_reader_open(input, err, errlen);

	if (!r)
		return -1;
	int rc = f == EX_CHROME ? ex_write_chrome(r, s, out, err, errlen) :
				  ex_write_perfetto(r, s, out, err, errlen);
	tf_reader_close(r);
	return rc;
}

int ex_run(const char *input, enum ex_format f, const char *output, char *err, size_t errlen)
{
	struct ex_scan s;
	struct tf_reader *r = tf_reader_open(input, err, errlen);
	FILE *out = NULL;
	int rc = -1;

	if (!r)
		return -1;
	rc = ex_scan(r, &s, err, errlen);
	tf_reader_close(r);
	if (rc < 0)
		goto out;
	rc = -1;
	out = fopen(output, f == EX_CHROME ? "w" : "wb");
	if (!out) {
		snprintf(err, errlen, "cannot create '%s': %s", output, strerror(errno));
		goto out;
	}
	/* Exports are mostly output: write in big blocks. */
	setvbuf(out, NULL, _IOFBF, 1 << 16);
	rc = write_all(input, f, &s, out, err, errlen);
	if (fflush(out) != 0 || ferror(out)) {
		if (rc == 0)
			snprintf(err, errlen, "write error on '%s': %s", output, strerror(errno));
		rc = -1;
	}
	if (fclose(out) != 0 && rc == 0) {
		snprintf(err, errlen, "write error on '%s': %s", output, strerror(errno));
		rc = -1;
	}
out:
	ex_scan_free(&s);
	return rc;
}

/* Fuzz the oops parser and printers: any text gives reports (or none) and never crashes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "oops/oops.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oops_lines lines;
	struct oops_reports reports;
	oops_lines_from_text(&lines, (const char *)data, size);
	oops_parse(&reports, &lines);
	oops_lines_free(&lines);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f) {
		oops_print_text(&reports, f);
		oops_print_json(&reports, f);
		fclose(f);
	}
	free(buf);
	oops_reports_free(&reports);
	return 0;
}

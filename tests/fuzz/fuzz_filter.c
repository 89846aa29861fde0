/* Fuzz the -e expression parser: any text gets a filter or one error line. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "syscalls/filter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *expr = malloc(size + 1);
	if (!expr)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	struct sc_filter *f = sc_filter_new();
	char err[512];
	if (sc_filter_parse(f, expr, err, sizeof(err)) < 0) {
		if (!memchr(err, '\0', sizeof(err)) || strchr(err, '\n'))
			abort();	/* the error must be one line */
	} else {
		for (long nr = 0; nr < 512; nr++)
			(void)sc_filter_traced(f, nr);
		(void)sc_filter_inject(f, 1);
	}
	sc_filter_free(f);
	free(expr);
	return 0;
}

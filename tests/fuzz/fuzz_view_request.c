/*
 * Fuzz the request parser of `tracekit view --serve` (src/export/view_http.c):
 * any bytes get a request or an HTTP status, never a read past the input, and a
 * request only ever names the two pages with a whole token and small numbers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/view_http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vw_request rq;

	if (size > VW_HTTP_MAX_REQUEST)
		return 0;
	/* An exact-size copy: ASan sees any read past the request. */
	char *buf = malloc(size ? size : 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	int status = vw_http_parse(buf, size, &rq);
	if (status) {
		if (status != 400 && status != 404 && status != 405 && status != 414)
			abort();
	} else {
		if (rq.kind != VW_REQ_OVERVIEW && rq.kind != VW_REQ_WINDOW)
			abort();
		if (rq.ka < 0 || rq.kb < 0 || rq.ka > 999999999 || rq.kb > 999999999)
			abort();
		size_t tl = strnlen(rq.token, sizeof(rq.token));
		if ((tl != 0 && tl != VW_TOKEN_LEN) || strspn(rq.token, "0123456789abcdef") != tl)
			abort();
	}
	free(buf);
	return 0;
}

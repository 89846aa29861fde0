/* Fuzz the reading of tracefs error_log text: any text gives one line that fits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *log = malloc(size + 1);
	if (!log)
		return 0;
	memcpy(log, data, size);
	log[size] = '\0';
	char out[256];
	memset(out, 'x', sizeof(out));
	ft_error_log_line(log, out, sizeof(out));
	if (!memchr(out, '\0', sizeof(out)) || strchr(out, '\n'))
		abort();	/* one line, terminated within the buffer */
	free(log);
	return 0;
}

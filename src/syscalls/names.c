/* Signal and errno names, over the generated tables (xlat/signals.in, errnos.in). */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "decoder.h"

const char *sc_signame(int sig)
{
	return xlat_str(&xlat_signals, (uint64_t)sig);
}

int sc_sig_by_name(const char *name)
{
	char full[32];

	if (isdigit((unsigned char)*name)) {
		char *end;
		long n = strtol(name, &end, 10);
		return (*end || n <= 0 || n >= SIGRTMAX + 1) ? -1 : (int)n;
	}
	if (strncasecmp(name, "SIG", 3) != 0) {
		snprintf(full, sizeof(full), "SIG%s", name);
		name = full;
	}
	for (size_t i = 0; i < xlat_signals.n; i++)
		if (strcasecmp(xlat_signals.e[i].str, name) == 0)
			return (int)xlat_signals.e[i].val;
	return -1;
}

const char *sc_errname(int err)
{
	return xlat_str(&xlat_errnos, (uint64_t)err);
}

int sc_err_by_name(const char *name)
{
	if (isdigit((unsigned char)*name)) {
		char *end;
		long n = strtol(name, &end, 10);
		return (*end || n <= 0 || n >= 4096) ? -1 : (int)n;
	}
	for (size_t i = 0; i < xlat_errnos.n; i++)
		if (strcasecmp(xlat_errnos.e[i].str, name) == 0)
			return (int)xlat_errnos.e[i].val;
	return -1;
}

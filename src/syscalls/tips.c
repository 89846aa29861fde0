/* --tips; see tips.h. */
#include "tips.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "util/die.h"

static const char *const tips[] = {
	"-e trace=%file traces every call that takes a file name; %desc, %network, "
	"%process, %memory and %signal are the other classes.",
	"-f follows children and threads; -ff -o FILE writes one FILE.PID per process.",
	"-y prints the path behind each descriptor, -yy also sockets' addresses and devices.",
	"-c counts calls, errors and time per syscall instead of printing them; -C does both.",
	"-e inject=openat:error=ENOENT:when=2 makes the second openat fail, to test error paths.",
	"-k prints the user stack of each call: where in the program it was made.",
	"-P PATH shows only the calls that touch PATH, by name or by descriptor.",
	"-e read=3 and -e write=1 dump, in hex, the data moved through those descriptors.",
	"-T shows the time spent in each call, -r the time since the previous line.",
	"--seccomp-bpf -f stops the program only on the calls traced: much less overhead.",
	"--json prints one JSON object per call, for scripts.",
	"-z shows only the calls that succeeded, -Z only those that failed.",
};

#define NTIPS ((int)(sizeof(tips) / sizeof(tips[0])))

/* A decimal number that fits an int, or -1. */
static int uint_of(const char *s)
{
	if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 10)
		return -1;
	long long v = atoll(s);
	return v > INT_MAX ? -1 : (int)v;
}

static int token(struct sc_tips *t, const char *tok)
{
	static const char *const fmts[] = { "none", "compact", "full" };
	bool may_id = true, may_fmt = true;
	if (strncasecmp(tok, "id:", 3) == 0) {
		tok += 3;
		may_fmt = false;
	} else if (strncasecmp(tok, "format:", 7) == 0) {
		tok += 7;
		may_id = false;
	}
	if (may_id && strcasecmp(tok, "random") == 0) {
		t->id = -1;
		return 0;
	}
	if (may_id && uint_of(tok) >= 0) {
		t->id = uint_of(tok);
		return 0;
	}
	for (int i = 0; may_fmt && i < 3; i++)
		if (strcasecmp(tok, fmts[i]) == 0) {
			t->fmt = (enum sc_tips_fmt)i;
			return 0;
		}
	return -1;
}

int sc_tips_parse(struct sc_tips *t, const char *arg)
{
	struct sc_tips next = *t;
	if (next.fmt == SC_TIPS_NONE) {
		/* the first --tips: a random tip unless an id follows */
		next.fmt = SC_TIPS_COMPACT;
		next.id = -1;
	}
	char *copy = xstrdup(arg ? arg : ""), *save = NULL;
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		if (token(&next, tok) < 0) {
			free(copy);
			return -1;
		}
	free(copy);
	*t = next;
	return 0;
}

void sc_tips_print(const struct sc_tips *t, FILE *f)
{
	if (t->fmt == SC_TIPS_NONE)
		return;
	int id = t->id >= 0 ? t->id % NTIPS : (int)((unsigned)time(NULL) ^ (unsigned)getpid()) % NTIPS;
	if (t->fmt == SC_TIPS_COMPACT) {
		fprintf(f, "\n  Tip: %s\n", tips[id]);
		return;
	}
	fprintf(f, "\n  ---- tracekit tip #%d ----\n  %s\n  (more: --tips=id:N, N from 0 to %d)\n", id,
		tips[id], NTIPS - 1);
}

/*
 * --tips[=[[id:]ID|random][,[format:]none|compact|full]]: a tip about
 * tracing printed when the trace ends, as strace's --tips does (the tips
 * are tracekit's own).
 */
#ifndef TRACEKIT_SYSCALLS_TIPS_H
#define TRACEKIT_SYSCALLS_TIPS_H

#include <stdio.h>

enum sc_tips_fmt { SC_TIPS_NONE, SC_TIPS_COMPACT, SC_TIPS_FULL };

struct sc_tips {
	enum sc_tips_fmt fmt;	/* SC_TIPS_NONE: --tips not given */
	int id;			/* -1: random */
};

/* One --tips argument (NULL: none given) on top of what earlier ones said; -1 if invalid. */
int sc_tips_parse(struct sc_tips *t, const char *arg);
void sc_tips_print(const struct sc_tips *t, FILE *f);

#endif

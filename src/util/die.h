/*
 * Errors the tracekit way: one line on stderr, "tracekit: VERB: what went
 * wrong (how to fix it)".  err_verb() sets the VERB part once per run.
 */
#ifndef TRACEKIT_UTIL_DIE_H
#define TRACEKIT_UTIL_DIE_H

#include <stddef.h>

void err_set_verb(const char *verb);
/* Replace "tracekit: VERB" by this (tracekit run under strace's name says argv[0]). */
void err_set_prefix(const char *prefix);
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((noreturn)) void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif

/*
 * --seccomp-bpf: a filter that stops the tracee (SECCOMP_RET_TRACE) only on
 * the syscalls being traced and lets every other one run untouched, so a
 * filtered trace costs almost nothing.  Built with libseccomp.
 */
#ifndef TRACEKIT_TRACEE_SECCOMP_H
#define TRACEKIT_TRACEE_SECCOMP_H

#include <stddef.h>

struct tr_filter;

/* A filter tracing nrs[0..n); NULL and a message in err on failure. */
struct tr_filter *tr_seccomp_build(const int *nrs, int n, char *err, size_t errlen);
/* Load it into the calling process (the child, before execve): 0 or an errno. */
int tr_seccomp_install(struct tr_filter *f);
void tr_seccomp_free(struct tr_filter *f);

#endif

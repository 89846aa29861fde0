/* The --seccomp-bpf filter, with libseccomp; see seccomp.h. */
#include "seccomp.h"

#include <errno.h>
#include <seccomp.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct tr_filter {
	scmp_filter_ctx ctx;
};

struct tr_filter *tr_seccomp_build(const int *nrs, int n, char *err, size_t errlen)
{
	/* Calls of another ABI (int 0x80, x32) stop too: a tracer must see them. */
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		snprintf(err, errlen, "--seccomp-bpf: cannot create a seccomp filter");
		return NULL;
	}
	seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRACE(0));
	/*
	 * no_new_privs would strip setuid programs of their privileges; root may load
	 * a filter without it, anybody else needs it.
	 */
	seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, geteuid() != 0);
	for (int i = 0; i < n; i++) {
		int rc = seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), nrs[i], 0);
		if (rc < 0 && rc != -EACCES) {
			snprintf(err, errlen, "--seccomp-bpf: cannot filter syscall %d: %s", nrs[i], strerror(-rc));
			seccomp_release(ctx);
			return NULL;
		}
	}
	struct tr_filter *f = malloc(sizeof(*f));
	if (!f) {
		seccomp_release(ctx);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	f->ctx = ctx;
	return f;
}

int tr_seccomp_install(struct tr_filter *f)
{
	int rc = seccomp_load(f->ctx);
	return rc < 0 ? -rc : 0;
}

void tr_seccomp_free(struct tr_filter *f)
{
	if (!f)
		return;
	seccomp_release(f->ctx);
	free(f);
}

/* I/O priorities as strace prints them, shared by ioprio_get/set and aio's iocbs. */
#ifndef TRACEKIT_SYSCALLS_IOPRIO_H
#define TRACEKIT_SYSCALLS_IOPRIO_H

#include <stdint.h>

#include "util/strbuf.h"

/* IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4); an sb_parts_fn (arg unused). */
void sb_ioprio(struct strbuf *sb, uint64_t v, const void *unused);

#endif

/*
 * USDT (sys/sdt.h) probes: a note's argument specs ("-4@%eax 8@-16(%rbp)")
 * in the probe grammar's terms ("arg1=%ax:s32 arg2=-16(%bp):u64").
 */
#ifndef TRACEKIT_PROBE_USDT_H
#define TRACEKIT_PROBE_USDT_H

#include <stddef.h>

struct strbuf;

/* 0, or -1 with "USDT argument 2 '8@%xmm0': ..." in err. */
int usdt_args_to_fetchargs(const char *args, struct strbuf *out, char *err, size_t errlen);

#endif

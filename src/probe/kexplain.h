/*
 * More words for the kernel's refusal of a kernel probe (see kexplain.c):
 * a name the kernel lacks (with the closest ones), a data symbol, a function
 * on the kprobe blacklist.
 */
#ifndef TRACEKIT_PROBE_KEXPLAIN_H
#define TRACEKIT_PROBE_KEXPLAIN_H

#include "probe/probe_def.h"

struct strbuf;

/* Appends ": <why>" to why when the place explains the refusal; nothing otherwise. */
void pk_explain_kernel(const struct probe_def *def, struct strbuf *why);

#endif

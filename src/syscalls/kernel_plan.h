/*
 * The kernel mode's copy plan, made from the decoders' memory specs (see
 * kernel_plan.c and bpf/kmode.h).
 */
#ifndef TRACEKIT_SYSCALLS_KERNEL_PLAN_H
#define TRACEKIT_SYSCALLS_KERNEL_PLAN_H

#include <stdbool.h>

#include "bpf/kmode.h"
#include "decoder.h"
#include "filter.h"

/*
 * plans: KM_NR_MAX entries; untraced numbers (-e trace=) are marked so the kernel drops them.
 * summary_only (-c) copies nothing unless paths (-P) must be matched.
 */
void km_plan_build(struct km_plan *plans, const struct sc_filter *f, const struct sc_fmt *fmt,
		   bool summary_only, bool paths);

#endif

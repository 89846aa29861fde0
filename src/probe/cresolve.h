/*
 * cresolve: C expressions of probe args (cexpr.h) made into fetch args --
 * through the running kernel's BTF for kernel probes, through a program's
 * DWARF for user probes (which may also move the probe: past the prologue,
 * or to FUNC:N / FILE:LINE).  Called by pd_resolve().
 */
#ifndef TRACEKIT_PROBE_CRESOLVE_H
#define TRACEKIT_PROBE_CRESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe_def.h"

/* Whether def needs BTF/DWARF: a C arg, or a line place. */
bool pd_needs_cresolve(const struct probe_def *def);

/*
 * Kernel probe: each C arg through BTF (/sys/kernel/btf/vmlinux, or the
 * module's /sys/kernel/btf/MOD).  0, or -1 with one line in err.
 */
int pd_btf_resolve(struct probe_def *def, char *err, size_t errlen);

/*
 * User probe: the place (FUNC:N, FILE:LINE, a function's entry past its
 * prologue when C args are asked) and each C arg through the DWARF of
 * def->path or its separate debug file.  def->vaddr/file_offset are set
 * here for line places.  0, or -1 with one line in err.
 */
struct es_file;
int pd_dwarf_resolve(struct probe_def *def, struct es_file *ef, char *err, size_t errlen);

/* The BTF file used for the kernel; TRACEKIT_BTF overrides it (tests). */
const char *pd_btf_vmlinux_path(void);

#endif

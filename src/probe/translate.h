/*
 * translate: a parsed (and, for user probes, resolved) probe_def as one line
 * of this kernel's uprobe_events/kprobe_events syntax.  The kernel refuses
 * some forms our grammar takes, so they are rewritten to what it does take:
 *
 *   $argN            -> the x86_64 ABI register (%di, %si, %dx, %cx, %r8, %r9),
 *                       then +8(%sp), +16(%sp)... at entry
 *   @SYM[+-OFFS]     -> @+X, X the offset uprobes add to the probed file's base
 *   %REG:string      -> +0(%REG):string (a string is read at the value)
 *   +uOFFS(...)      -> +OFFS(...) on user probes (all their memory is user memory)
 *   :symbol          -> :x64 on user probes; tracekit names the address when it prints
 */
#ifndef TRACEKIT_PROBE_TRANSLATE_H
#define TRACEKIT_PROBE_TRANSLATE_H

#include <stddef.h>

#include "probe/probe_def.h"

struct strbuf;

/*
 * The definition line for uprobe_events (user) or kprobe_events (kernel),
 * with group and event as given (or the defaults, pd_event_name()).  0, or
 * -1 with the reason in err (an unresolved user probe).
 */
int pd_translate(const struct probe_def *def, const char *group, const char *event,
		 struct strbuf *out, char *err, size_t errlen);

/* Only the fetch args of that line (" name=fetch:type" each). */
void pd_translate_args(const struct probe_def *def, struct strbuf *out);

/*
 * The event name used when the spec gives none: the function's name
 * ("parse_line", "parse_line_16" at +16, "parse_line__return"), the USDT
 * probe's name, or the kernel's own "p_<file>_0x<offset>" for an address.
 */
void pd_event_name(const struct probe_def *def, char *out, size_t outlen);

#endif

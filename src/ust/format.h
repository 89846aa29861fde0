/*
 * User tracepoint descriptions (struct tk_class_desc / tk_event_desc, from a
 * program's session files or its ELF section "tracekit_events") turned into
 * the kernel's format-file text, which libtraceevent, trace-cmd and our
 * reader parse like any kernel event's.
 */
#ifndef TRACEKIT_UST_FORMAT_H
#define TRACEKIT_UST_FORMAT_H

#include <stdbool.h>
#include <stddef.h>

#include "tracekit/tracepoint.h"
#include "util/strbuf.h"

/* Names end inside their arrays, fields lie inside the record: false with a reason. */
bool ust_desc_valid(const struct tk_event_desc *ev, const struct tk_class_desc *cls, char *why,
		    size_t len);
/* "name: ...\nID: id\nformat:\n...print fmt: ...\n" */
void ust_format_text(const struct tk_event_desc *ev, const struct tk_class_desc *cls, unsigned id,
		     struct strbuf *out);

#endif

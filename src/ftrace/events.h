/*
 * Listing events: every tracepoint as "system:event", and one event's
 * fields.  Read from tracefs (available_events, events/SYS/EV/format) via
 * libtracefs/libtraceevent; no instance needed.
 */
#ifndef TRACEKIT_FTRACE_EVENTS_H
#define TRACEKIT_FTRACE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>

/* All events, "system:event", sorted; matching glob (NULL: all). Returns count or -1. */
int ft_list_events(const char *glob, char ***list, char *err, size_t errlen);
/* The closest event names to a misspelt one, for "did you mean" (up to max). */
int ft_closest_events(const char *name, char **out, int max);

#endif

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
int ft_closest_events(const char *name, char **out, int max);	/* free each out[i] */
/* "event 'X' not found (did you mean A, B or C?)" in err. */
void ft_event_not_found(const char *name, char *err, size_t errlen);

/* One field of an event's record, as its format file describes it. */
struct ft_field {
	char *type;		/* "pid_t", "char[16]", "__data_loc char[]" */
	char *name;
	int offset;
	int size;
	bool is_signed;
	bool common;		/* a common_* field every event starts with */
};

/* The fields of "system:event" (or a unique "event"), common ones first. Returns count or -1. */
int ft_event_fields(const char *event, struct ft_field **fields, char *err, size_t errlen);
void ft_free_fields(struct ft_field *fields, int n);
/* The event's print fmt line (what follows "print fmt: "), malloc'd; NULL when unreadable. */
char *ft_event_print_fmt(const char *event);

#endif

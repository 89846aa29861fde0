/*
 * Reading a record's string fields the way every consumer needs them: a
 * char[] field or a __data_loc one (relative or not), bounds-checked against
 * the record, since a file's format and data may disagree.
 */
#ifndef TRACEKIT_TRACEFILE_FIELDS_H
#define TRACEKIT_TRACEFILE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

struct tep_event;
struct tep_format_field;
struct tep_handle;
struct tep_record;

/* The field's bytes up to its first NUL: *s and *len; false when it does not fit the record. */
bool tf_field_string(const struct tep_format_field *f, const struct tep_record *rec,
		     const char **s, int *len);

/* The same, copied NUL-terminated into buf (cut to n - 1 bytes); "" and false when absent. */
bool tf_field_copy(const struct tep_format_field *f, const struct tep_record *rec, char *buf,
		   size_t n);

/* Element i of a numeric field (i = 0 for a scalar), as an unsigned number; 0 when it does not fit. */
unsigned long long tf_field_num(const struct tep_format_field *f, const struct tep_record *rec, int i);

/*
 * Probe events' array fields (kprobe/uprobe `v=...:s16[4]`): kernels since 6.x write
 * them as `s16 v[];` with the whole size, which libtraceevent reads as an array of
 * no elements, so REC->v[1] printed 0.  Each such field of a numeric element type
 * gets its element size and count back from its type and size.
 */
void tf_fix_probe_arrays(struct tep_handle *tep);

/* A syscall event of the trace: raw_syscalls:sys_enter/sys_exit or syscalls:sys_enter_NAME/sys_exit_NAME. */
struct tf_syscall_event {
	int kind;			/* 1 entry, 2 exit (0 in a map: not a syscall event) */
	bool raw;			/* raw_syscalls (the number is a field, args an array) */
	struct tep_format_field *nr;	/* id, or __syscall_nr */
	struct tep_format_field *args;	/* raw's args[], else the first argument field */
	struct tep_format_field *ret;	/* an exit's return value */
	long fixed_nr;			/* syscalls:sys_*_NAME: NAME's number (a map's nr_of), or -1 */
};

/* Fills se when ev is a syscall event with an id a table can index (0..65535); else false. */
bool tf_syscall_event(struct tep_event *ev, struct tf_syscall_event *se);

/* A trace's syscall events by event id: what report --syscalls and sched look up per record. */
struct tf_syscall_map {
	struct tf_syscall_event *by_id;	/* n entries; kind 0: not a syscall event */
	int n;				/* the highest syscall event's id + 1; 0: none */
};

/*
 * Every syscall event of tep into m.  nr_of, when given, names the number of
 * syscalls:sys_*_NAME's NAME (-1: unknown) for fixed_nr: the syscall table is
 * the caller's, not the trace file's.
 */
void tf_syscall_map_build(struct tf_syscall_map *m, struct tep_handle *tep,
			  long (*nr_of)(const char *name));
/* The event with this id, or NULL when it is not a syscall event. */
const struct tf_syscall_event *tf_syscall_map_get(const struct tf_syscall_map *m, int id);
void tf_syscall_map_free(struct tf_syscall_map *m);

#endif

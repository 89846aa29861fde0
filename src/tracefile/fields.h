/*
 * Reading a record's string fields the way every consumer needs them: a
 * char[] field or a __data_loc one (relative or not), bounds-checked against
 * the record, since a file's format and data may disagree.
 */
#ifndef TRACEKIT_TRACEFILE_FIELDS_H
#define TRACEKIT_TRACEFILE_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

struct tep_format_field;
struct tep_record;

/* The field's bytes up to its first NUL: *s and *len; false when it does not fit the record. */
bool tf_field_string(const struct tep_format_field *f, const struct tep_record *rec,
		     const char **s, int *len);

/* The same, copied NUL-terminated into buf (cut to n - 1 bytes); "" and false when absent. */
bool tf_field_copy(const struct tep_format_field *f, const struct tep_record *rec, char *buf,
		   size_t n);

/* Element i of a numeric field (i = 0 for a scalar), as an unsigned number; 0 when it does not fit. */
unsigned long long tf_field_num(const struct tep_format_field *f, const struct tep_record *rec, int i);

#endif

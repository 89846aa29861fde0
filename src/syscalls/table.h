/*
 * The syscall table: one entry per x86_64 syscall number, generated at build
 * time from syscalls.tbl (number, name, argument count, classes, decoder).
 */
#ifndef TRACEKIT_SYSCALLS_TABLE_H
#define TRACEKIT_SYSCALLS_TABLE_H

#include <stdbool.h>

struct sc_decoder;

/* strace's syscall classes, used by -e trace=%CLASS. */
enum sc_class {
	SC_FILE = 1u << 0,	/* takes a file name */
	SC_DESC = 1u << 1,	/* takes or returns a file descriptor */
	SC_PROCESS = 1u << 2,	/* process lifecycle */
	SC_NETWORK = 1u << 3,
	SC_SIGNAL = 1u << 4,
	SC_IPC = 1u << 5,
	SC_MEMORY = 1u << 6,
	SC_CREDS = 1u << 7,
	SC_CLOCK = 1u << 8,
	SC_STAT = 1u << 9,	/* stat variants: %stat %lstat %fstat %%stat */
	SC_LSTAT = 1u << 10,
	SC_FSTAT = 1u << 11,
	SC_STATFS = 1u << 12,	/* %statfs %fstatfs %%statfs */
	SC_FSTATFS = 1u << 13,
	SC_PURE = 1u << 14,	/* no arguments, always succeeds */
};

struct sc_entry {
	int nr;
	const char *name;	/* NULL for a hole in the numbering */
	unsigned char nargs;
	unsigned classes;
	const struct sc_decoder *dec;	/* NULL: raw arguments */
};

#define SC_NR_MAX 1024

extern const struct sc_entry sc_table[];
extern const int sc_table_len;	/* highest number + 1 */

/* The entry for a syscall number, or NULL when the number is unknown. */
const struct sc_entry *sc_by_nr(long nr);
/* The entry for a syscall name, or NULL. */
const struct sc_entry *sc_by_name(const char *name);
/* Class bit for a class name such as "%file" or "file"; 0 if unknown. */
unsigned sc_class_by_name(const char *name);

#endif

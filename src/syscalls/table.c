/* Lookups over the generated syscall table (table_gen.c, from syscalls.tbl). */
#include <string.h>
#include <strings.h>

#include "table.h"

static const char *const class_names[] = {
	"file", "desc", "process", "network", "signal", "ipc", "memory", "creds",
	"clock", "stat", "lstat", "fstat", "statfs", "fstatfs", "pure",
};

const struct sc_entry *sc_by_nr(long nr)
{
	if (nr < 0 || nr >= sc_table_len || !sc_table[nr].name)
		return NULL;
	return &sc_table[nr];
}

const struct sc_entry *sc_by_name(const char *name)
{
	for (int i = 0; i < sc_table_len; i++)
		if (sc_table[i].name && strcmp(sc_table[i].name, name) == 0)
			return &sc_table[i];
	return NULL;
}

unsigned sc_class_by_name(const char *name)
{
	while (*name == '%')
		name++;
	/* strace's aliases for the two-percent classes */
	if (strcmp(name, "net") == 0)
		return SC_NETWORK;
	for (size_t i = 0; i < sizeof(class_names) / sizeof(class_names[0]); i++)
		if (strcasecmp(class_names[i], name) == 0)
			return 1u << i;
	return 0;
}

/*
 * dwtype: cwalk.h's type questions answered from DWARF.  The backend
 * pointer is the Dwarf *; a handle is a DIE's offset (0: void).
 */
#ifndef TRACEKIT_PROBE_DWTYPE_H
#define TRACEKIT_PROBE_DWTYPE_H

#include <stdbool.h>
#include <stdint.h>

#include <elfutils/libdw.h>

#include "probe/cwalk.h"

int dwt_type(void *dw, uint64_t off, struct cw_type *out);
int dwt_member(void *dw, const struct cw_type *st, const char *name, struct cw_member *out,
	       struct closest *c);
/* The DIE's DW_AT_type (through DW_AT_abstract_origin/specification); false for none (void). */
bool dwt_type_of(Dwarf_Die *die, Dwarf_Die *out);

#endif

/*
 * DWARF types for the C-expression walk (cwalk.h's questions): a DIE peeled
 * of typedefs and qualifiers, described; a member found by name through
 * anonymous structs and unions, with its bit offset (DW_AT_data_bit_offset,
 * DW_AT_data_member_location, and the DWARF 2/3 DW_AT_bit_offset of
 * bitfields).  Handles are DIE offsets in .debug_info.
 */
#include <dwarf.h>
#include <stdio.h>
#include <string.h>

#include "probe/dwtype.h"

static int die_at(void *be, uint64_t off, Dwarf_Die *out)
{
	return dwarf_offdie(be, off, out) ? 0 : -1;
}

bool dwt_type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

static void dw_type_name(Dwarf_Die *t, char *out, size_t outlen, int depth)
{
	Dwarf_Die in;
	const char *n = dwarf_diename(t);
	char inner[64];
	switch (dwarf_tag(t)) {
	case DW_TAG_structure_type:
		snprintf(out, outlen, "struct %s", n ? n : "(anonymous)");
		return;
	case DW_TAG_union_type:
		snprintf(out, outlen, "union %s", n ? n : "(anonymous)");
		return;
	case DW_TAG_enumeration_type:
		snprintf(out, outlen, "enum %s", n ? n : "(anonymous)");
		return;
	case DW_TAG_pointer_type:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
		if (depth > 4) {
			snprintf(out, outlen, "...");
			return;
		}
		if (dwt_type_of(t, &in))
			dw_type_name(&in, inner, sizeof(inner), depth + 1);
		else
			snprintf(inner, sizeof(inner), "void");
		snprintf(out, outlen, dwarf_tag(t) == DW_TAG_pointer_type ? "%s *" : "%s", inner);
		return;
	case DW_TAG_array_type:
		if (dwt_type_of(t, &in))
			dw_type_name(&in, inner, sizeof(inner), depth + 1);
		else
			snprintf(inner, sizeof(inner), "?");
		snprintf(out, outlen, "%s[]", inner);
		return;
	default:
		snprintf(out, outlen, "%s", n ? n : "(anonymous)");
	}
}

static uint64_t array_count(Dwarf_Die *arr, int *dims)
{
	Dwarf_Die sub;
	uint64_t n = 0;
	*dims = 0;
	if (dwarf_child(arr, &sub) != 0)
		return 0;
	do {
		if (dwarf_tag(&sub) != DW_TAG_subrange_type)
			continue;
		Dwarf_Attribute a;
		Dwarf_Word v;
		if (++*dims > 1)
			continue;
		if (dwarf_attr(&sub, DW_AT_count, &a) && dwarf_formudata(&a, &v) == 0)
			n = v;
		else if (dwarf_attr(&sub, DW_AT_upper_bound, &a) && dwarf_formudata(&a, &v) == 0)
			n = v + 1;
	} while (dwarf_siblingof(&sub, &sub) == 0);
	return n;
}

int dwt_type(void *be, uint64_t off, struct cw_type *out)
{
	Dwarf_Die raw, t, in;
	memset(out, 0, sizeof(*out));
	if (off == 0) {
		out->kind = CW_VOID;
		snprintf(out->name, sizeof(out->name), "void");
		return 0;
	}
	if (die_at(be, off, &raw) < 0)
		return -1;
	dw_type_name(&raw, out->name, sizeof(out->name), 0);
	if (dwarf_peel_type(&raw, &t) != 0)
		return -1;
	out->id = dwarf_dieoffset(&t);
	int sz = dwarf_bytesize(&t);
	out->size = sz > 0 ? (unsigned)sz : 0;
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	switch (dwarf_tag(&t)) {
	case DW_TAG_base_type:
		if (dwarf_attr(&t, DW_AT_encoding, &a))
			dwarf_formudata(&a, &enc);
		out->kind = enc == DW_ATE_float ? CW_FLOAT : CW_INT;
		out->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		out->is_char = out->size == 1 && (enc == DW_ATE_signed_char ||
						  enc == DW_ATE_unsigned_char);
		return 0;
	case DW_TAG_enumeration_type:
		out->kind = CW_ENUM;
		if (dwt_type_of(&t, &in) && dwarf_peel_type(&in, &in) == 0 &&
		    dwarf_attr(&in, DW_AT_encoding, &a) && dwarf_formudata(&a, &enc) == 0)
			out->is_signed = enc == DW_ATE_signed;
		return 0;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		out->kind = CW_PTR;
		out->size = 8;
		if (dwt_type_of(&t, &in)) {
			out->target = dwarf_dieoffset(&in);
			Dwarf_Die p;
			out->target_void = dwarf_peel_type(&in, &p) != 0 ||
					   dwarf_tag(&p) == DW_TAG_unspecified_type;
		} else {
			out->target_void = true;
		}
		return 0;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		out->kind = CW_STRUCT;
		return 0;
	case DW_TAG_array_type: {
		int dims;
		Dwarf_Word total;
		out->kind = CW_ARRAY;
		out->nelems = array_count(&t, &dims);
		if (dims > 1)
			return snprintf(out->name, sizeof(out->name), "a %d-dimensional array", dims),
			       out->kind = CW_OTHER, 0;
		if (dwt_type_of(&t, &in))
			out->target = dwarf_dieoffset(&in);
		if (dwarf_aggregate_size(&t, &total) == 0)
			out->size = (unsigned)total;
		return 0;
	}
	default:
		out->kind = CW_OTHER;
		return 0;
	}
}

/* The bit offset of member m from the start of its struct. */
static int member_bits(Dwarf_Die *m, uint64_t *bits, unsigned *width)
{
	Dwarf_Attribute a;
	Dwarf_Word v = 0;
	*width = 0;
	if (dwarf_attr(m, DW_AT_bit_size, &a) && dwarf_formudata(&a, &v) == 0)
		*width = (unsigned)v;
	if (dwarf_attr(m, DW_AT_data_bit_offset, &a) && dwarf_formudata(&a, &v) == 0) {
		*bits = v;
		return 0;
	}
	Dwarf_Word byte = 0;
	if (dwarf_attr(m, DW_AT_data_member_location, &a) && dwarf_formudata(&a, &byte) != 0) {
		Dwarf_Op *ops;
		size_t n;
		if (dwarf_getlocation(&a, &ops, &n) != 0 || n != 1 || ops[0].atom != DW_OP_plus_uconst)
			return -1;
		byte = ops[0].number;
	}
	*bits = byte * 8;
	if (*width && dwarf_attr(m, DW_AT_bit_offset, &a) && dwarf_formudata(&a, &v) == 0) {
		/* DWARF 2/3 style, counted from the storage unit's most significant bit */
		int unit = dwarf_bytesize(m);
		if (unit <= 0) {
			Dwarf_Die t;
			unit = dwt_type_of(m, &t) && dwarf_peel_type(&t, &t) == 0 ? dwarf_bytesize(&t) : 4;
		}
		*bits += (uint64_t)unit * 8 - v - *width;
	}
	return 0;
}

static int find_member(Dwarf_Die *st, const char *name, uint64_t base, struct cw_member *out,
		       struct closest *c, int depth)
{
	Dwarf_Die m, t;
	if (depth > 8 || dwarf_child(st, &m) != 0)
		return -1;
	do {
		if (dwarf_tag(&m) != DW_TAG_member)
			continue;
		uint64_t bits;
		unsigned width;
		if (member_bits(&m, &bits, &width) < 0)
			continue;
		const char *n = dwarf_diename(&m);
		if (!n) {
			if (dwt_type_of(&m, &t) && dwarf_peel_type(&t, &t) == 0 &&
			    find_member(&t, name, base + bits, out, c, depth + 1) == 0)
				return 0;
			continue;
		}
		if (!strcmp(n, name)) {
			out->type = dwt_type_of(&m, &t) ? dwarf_dieoffset(&t) : 0;
			out->bit_offset = base + bits;
			out->bit_size = width;
			return 0;
		}
		closest_offer(c, name, strlen(name), n);
	} while (dwarf_siblingof(&m, &m) == 0);
	return -1;
}

int dwt_member(void *be, const struct cw_type *st, const char *name, struct cw_member *out,
		     struct closest *c)
{
	Dwarf_Die s;
	if (die_at(be, st->id, &s) < 0)
		return -1;
	return find_member(&s, name, 0, out, c, 0);
}

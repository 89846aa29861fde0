/*
 * Format files for user tracepoints, in the kernel's syntax
 * (events/<system>/<event>/format): the four common fields, a blank line,
 * the event's fields, and "print fmt:" with TP_printk's text, where
 * __entry already reads REC.
 */
#include "format.h"

#include <stdio.h>
#include <string.h>

static bool ended(const char *s, size_t cap)
{
	return memchr(s, '\0', cap) != NULL;
}

bool ust_desc_valid(const struct tk_event_desc *ev, const struct tk_class_desc *cls, char *why,
		    size_t len)
{
	if (ev->magic != TK_EVENT_MAGIC || cls->magic != TK_CLASS_MAGIC)
		return snprintf(why, len, "not a tracekit event description"), false;
	if (ev->version != TK_DESC_VERSION || cls->version != TK_DESC_VERSION)
		return snprintf(why, len, "description version %u (this tracekit reads %u)",
				ev->version, TK_DESC_VERSION), false;
	if (!ended(ev->system, TK_NAME_MAX) || !ended(ev->name, TK_NAME_MAX) ||
	    !ended(ev->class_name, TK_NAME_MAX) || !ended(cls->system, TK_NAME_MAX) ||
	    !ended(cls->name, TK_NAME_MAX) || !ended(cls->print_fmt, TK_PRINT_MAX))
		return snprintf(why, len, "a name or print format is not terminated"), false;
	if (cls->nfields > TK_FIELDS_MAX || cls->entry_size > 0xffff ||
	    cls->entry_size < sizeof(struct tk_entry_header))
		return snprintf(why, len, "%u fields in a %u-byte record", cls->nfields,
				cls->entry_size), false;
	for (unsigned i = 0; i < cls->nfields; i++) {
		const struct tk_field_desc *f = &cls->fields[i];

		if (!ended(f->type, TK_TYPE_MAX) || !ended(f->name, TK_NAME_MAX) || !f->elem_size ||
		    (uint32_t)f->offset + f->size > cls->entry_size || f->kind > TK_FIELD_DYNAMIC)
			return snprintf(why, len, "field %u is malformed", i), false;
	}
	return true;
}

static void field_line(struct strbuf *out, const char *decl, unsigned off, unsigned size,
		       unsigned is_signed)
{
	sb_printf(out, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%u;\n", decl, off, size, is_signed);
}

void ust_format_text(const struct tk_event_desc *ev, const struct tk_class_desc *cls, unsigned id,
		     struct strbuf *out)
{
	char decl[TK_TYPE_MAX + TK_NAME_MAX + 32];

	sb_printf(out, "name: %s\nID: %u\nformat:\n", ev->name, id);
	field_line(out, "unsigned short common_type", 0, 2, 0);
	field_line(out, "unsigned char common_flags", 2, 1, 0);
	field_line(out, "unsigned char common_preempt_count", 3, 1, 0);
	field_line(out, "int common_pid", 4, 4, 1);
	sb_addc(out, '\n');
	for (unsigned i = 0; i < cls->nfields; i++) {
		const struct tk_field_desc *f = &cls->fields[i];

		if (f->kind == TK_FIELD_ARRAY)
			snprintf(decl, sizeof(decl), "%s %s[%u]", f->type, f->name,
				 (unsigned)(f->size / f->elem_size));
		else if (f->kind == TK_FIELD_DYNAMIC)
			snprintf(decl, sizeof(decl), "__data_loc %s[] %s", f->type, f->name);
		else
			snprintf(decl, sizeof(decl), "%s %s", f->type, f->name);
		field_line(out, decl, f->offset, f->size, f->is_signed);
	}
	sb_printf(out, "\nprint fmt: %s\n", cls->print_fmt);
}

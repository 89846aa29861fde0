/* String fields of a record; see fields.h. */
#include "tracefile/fields.h"

#include <stdint.h>
#include <string.h>
#include <traceevent/event-parse.h>

bool tf_field_string(const struct tep_format_field *f, const struct tep_record *rec,
		     const char **s, int *len)
{
	if (!f || !rec || f->offset < 0)
		return false;
	int off = f->offset, n = f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;
		if (f->size != 4 || f->offset + 4 > rec->size)
			return false;
		memcpy(&loc, (const char *)rec->data + f->offset, 4);
		off = (int)(loc & 0xffff);
		n = (int)(loc >> 16);
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->offset + f->size;
	}
	if (off < 0 || n < 0 || off + n > rec->size)
		return false;
	*s = (const char *)rec->data + off;
	*len = (int)strnlen(*s, (size_t)n);
	return true;
}

bool tf_field_copy(const struct tep_format_field *f, const struct tep_record *rec, char *buf,
		   size_t n)
{
	const char *s;
	int len;

	if (!n)
		return false;
	buf[0] = '\0';
	if (!tf_field_string(f, rec, &s, &len))
		return false;
	size_t k = (size_t)len < n - 1 ? (size_t)len : n - 1;
	memcpy(buf, s, k);
	buf[k] = '\0';
	return true;
}

unsigned long long tf_field_num(const struct tep_format_field *f, const struct tep_record *rec, int i)
{
	if (!f)
		return 0;
	int sz = (f->flags & TEP_FIELD_IS_ARRAY) ? (int)f->elementsize : (int)f->size;
	long off = (long)f->offset + (long)i * sz;
	if (sz <= 0 || sz > 8 || i < 0 || off + sz > rec->size)
		return 0;
	return tep_read_number(f->event->tep, (char *)rec->data + off, sz);
}

bool tf_syscall_event(struct tep_event *ev, struct tf_syscall_event *se)
{
	bool raw = !strcmp(ev->system, "raw_syscalls"), one = !strcmp(ev->system, "syscalls");
	bool enter = !strncmp(ev->name, "sys_enter", 9), exit = !strncmp(ev->name, "sys_exit", 8);
	if (!(raw || one) || !(enter || exit) || ev->id < 0 || ev->id > 65535)
		return false;
	se->kind = enter ? 1 : 2;
	se->raw = raw;
	se->nr = tep_find_field(ev, raw ? "id" : "__syscall_nr");
	/* The first argument: raw's args[0], else the field after __syscall_nr. */
	se->args = raw ? tep_find_field(ev, "args") : se->nr ? se->nr->next : NULL;
	return true;
}

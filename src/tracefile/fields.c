/* String fields of a record; see fields.h. */
#include "tracefile/fields.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "util/die.h"

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
	se->ret = tep_find_field(ev, "ret");
	se->fixed_nr = -1;
	return true;
}

void tf_syscall_map_build(struct tf_syscall_map *m, struct tep_handle *tep,
			  long (*nr_of)(const char *name))
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);

	m->by_id = NULL;
	m->n = 0;
	for (int i = 0; all && all[i]; i++) {
		struct tep_event *ev = all[i];
		struct tf_syscall_event se;
		if (!tf_syscall_event(ev, &se))
			continue;
		if (ev->id >= m->n) {
			int n = ev->id + 1;
			m->by_id = xrealloc(m->by_id, (size_t)n * sizeof(*m->by_id));
			memset(m->by_id + m->n, 0, (size_t)(n - m->n) * sizeof(*m->by_id));
			m->n = n;
		}
		if (!se.raw && nr_of)	/* past "sys_enter_" or "sys_exit_" */
			se.fixed_nr = nr_of(ev->name + (se.kind == 1 ? 10 : 9));
		m->by_id[ev->id] = se;
	}
	/* the list belongs to tep */
}

const struct tf_syscall_event *tf_syscall_map_get(const struct tf_syscall_map *m, int id)
{
	if (id < 0 || id >= m->n || !m->by_id[id].kind)
		return NULL;
	return &m->by_id[id];
}

void tf_syscall_map_free(struct tf_syscall_map *m)
{
	free(m->by_id);
	m->by_id = NULL;
	m->n = 0;
}

/* The element bytes of a probe fetch type's array (u8[]..u64[], s8[].., x8[]..), or 0. */
static int probe_type_size(const char *type)
{
	char *end;
	long bits;

	if (!type || (type[0] != 'u' && type[0] != 's' && type[0] != 'x'))
		return 0;
	bits = strtol(type + 1, &end, 10);
	if (*end != '[' || (bits != 8 && bits != 16 && bits != 32 && bits != 64))
		return 0;
	return (int)(bits / 8);
}

void tf_fix_probe_arrays(struct tep_handle *tep)
{
	struct tep_event **all = tep_list_events(tep, TEP_EVENT_SORT_ID);

	for (int i = 0; all && all[i]; i++) {
		for (struct tep_format_field *f = all[i]->format.fields; f; f = f->next) {
			int es = probe_type_size(f->type);
			if (!(f->flags & TEP_FIELD_IS_ARRAY) || (f->flags & TEP_FIELD_IS_DYNAMIC) ||
			    f->arraylen || es <= 0 || f->size <= 0 || f->size % es)
				continue;
			f->elementsize = es;
			f->arraylen = f->size / es;
		}
	}
}

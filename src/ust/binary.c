/*
 * Reading "tracekit_events": the linker concatenates every object's
 * descriptions (each aligned to 8 bytes), so the section is walked in 8-byte
 * steps looking for the two magics; whatever else is there (padding, a
 * foreign object) is stepped over.  Every description is checked before use.
 */
#include "binary.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format.h"
#include "util/die.h"

static const struct tk_class_desc *find_class(const struct ust_bin *b, const char *system,
					      const char *name)
{
	for (int i = 0; i < b->nclasses; i++) {
		if (!strcmp(b->classes[i].system, system) && !strcmp(b->classes[i].name, name))
			return &b->classes[i];
	}
	return NULL;
}

static int cmp_event(const void *x, const void *y)
{
	const struct ust_bin_event *a = x, *b = y;
	int c = strcmp(a->ev.system, b->ev.system);

	return c ? c : strcmp(a->ev.name, b->ev.name);
}

static void add_class(struct ust_bin *b, const unsigned char *p)
{
	struct tk_class_desc *c;

	b->classes = xrealloc(b->classes, sizeof(*b->classes) * (size_t)(b->nclasses + 1));
	c = &b->classes[b->nclasses++];
	memcpy(c, p, sizeof(*c));
	c->system[TK_NAME_MAX - 1] = c->name[TK_NAME_MAX - 1] = '\0';
}

static void add_event(struct ust_bin *b, const unsigned char *p)
{
	b->events = xrealloc(b->events, sizeof(*b->events) * (size_t)(b->nevents + 1));
	memcpy(&b->events[b->nevents].ev, p, sizeof(struct tk_event_desc));
	b->events[b->nevents++].cls = NULL;
}

/* Pair each event with its class (after all classes are in: classes no longer move). */
static void link_events(struct ust_bin *b)
{
	char why[128];
	int k = 0;

	for (int i = 0; i < b->nevents; i++) {
		struct ust_bin_event *e = &b->events[i];

		e->ev.system[TK_NAME_MAX - 1] = e->ev.class_name[TK_NAME_MAX - 1] = '\0';
		e->cls = find_class(b, e->ev.system, e->ev.class_name);
		if (!e->cls || !ust_desc_valid(&e->ev, e->cls, why, sizeof(why))) {
			b->skipped++;
			continue;
		}
		b->events[k++] = *e;
	}
	b->nevents = k;
	if (b->nevents > 1)
		qsort(b->events, (size_t)b->nevents, sizeof(*b->events), cmp_event);
	/* The same header compiled into two objects gives the same event twice. */
	k = 0;
	for (int i = 0; i < b->nevents; i++) {
		if (k && !cmp_event(&b->events[k - 1], &b->events[i]))
			continue;
		b->events[k++] = b->events[i];
	}
	b->nevents = k;
}

void ust_bin_parse(const void *data, size_t len, struct ust_bin *b)
{
	const unsigned char *p = data;
	size_t off = 0;

	memset(b, 0, sizeof(*b));
	while (off + 4 <= len) {
		uint32_t magic;

		memcpy(&magic, p + off, 4);
		if (magic == TK_CLASS_MAGIC && len - off >= sizeof(struct tk_class_desc)) {
			add_class(b, p + off);
			off += sizeof(struct tk_class_desc);
		} else if (magic == TK_EVENT_MAGIC && len - off >= sizeof(struct tk_event_desc)) {
			add_event(b, p + off);
			off += sizeof(struct tk_event_desc);
		} else {
			off += 8;
		}
	}
	link_events(b);
}

static Elf_Scn *find_section(Elf *elf, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want) && sh.sh_type == SHT_PROGBITS)
			return scn;
	}
	return NULL;
}

int ust_bin_read(const char *path, struct ust_bin *b, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -1;
	Elf *elf = NULL;
	Elf_Scn *scn;
	Elf_Data *d;

	memset(b, 0, sizeof(*b));
	if (fd < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		snprintf(err, errlen, "%s is not an ELF file (give the program or library that "
			 "has the tracepoints)", path);
		goto out;
	}
	scn = find_section(elf, "tracekit_events");
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (d && d->d_buf)
		ust_bin_parse(d->d_buf, d->d_size, b);
	ret = 0;
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

void ust_bin_free(struct ust_bin *b)
{
	free(b->classes);
	free(b->events);
	memset(b, 0, sizeof(*b));
}

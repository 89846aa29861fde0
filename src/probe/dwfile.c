/*
 * A program's DWARF for C-expression probes: its own .debug_info, or its
 * separate debug file, looked for where gdb and perf look -- by build-id
 * under /usr/lib/debug/.build-id/, then by .gnu_debuglink beside it, in its
 * .debug/ and under /usr/lib/debug -- every place tried named when none has
 * it.  Its call frame info too (.debug_frame, .eh_frame), for the CFA.
 */
#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/dwfile.h"
#include "probe/elfsym.h"
#include "util/die.h"
#include "util/strbuf.h"

#define DEBUG_DIR "/usr/lib/debug"

void dwf_close(struct dwf *d)
{
	if (d->cfi_eh)
		dwarf_cfi_end(d->cfi_eh);
	if (d->dw)
		dwarf_end(d->dw);
	if (d->delf)
		elf_end(d->delf);
	if (d->elf)
		elf_end(d->elf);
	if (d->dfd >= 0)
		close(d->dfd);
	if (d->fd >= 0)
		close(d->fd);
	free(d->dpath);
}

static bool has_debug_info(Elf *elf)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
		GElf_Shdr sh;
		const char *name;
		if (gelf_getshdr(scn, &sh) && sh.sh_type != SHT_NOBITS &&
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) && !strcmp(name, ".debug_info"))
			return true;
	}
	return false;
}

/* Try one candidate debug file; tried lists where we looked. */
static bool try_debug(struct dwf *d, const char *path, struct strbuf *tried)
{
	sb_printf(tried, "%s%s", tried->len ? ", " : "", path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || !has_debug_info(elf)) {
		if (elf)
			elf_end(elf);
		close(fd);
		return false;
	}
	d->dfd = fd;
	d->delf = elf;
	d->dpath = xstrdup(path);
	return true;
}

/* The separate debug file: by build-id, then by .gnu_debuglink, where gdb and perf look. */
static bool find_debug_file(struct dwf *d, const char *path, struct strbuf *tried)
{
	const void *id;
	ssize_t n = dwelf_elf_gnu_build_id(d->elf, &id);
	char buf[1024];
	if (n > 1 && n <= 64) {
		char hex[129];
		for (ssize_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", ((const unsigned char *)id)[i]);
		snprintf(buf, sizeof(buf), DEBUG_DIR "/.build-id/%.2s/%s.debug", hex, hex + 2);
		if (try_debug(d, buf, tried))
			return true;
	}
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(d->elf, &crc);
	if (!link)
		return false;
	char *copy = xstrdup(path);
	char *dir = dirname(copy);
	char real[4096];
	if (realpath(dir, real))
		dir = real;
	const char *fmts[] = { "%s/%s", "%s/.debug/%s", DEBUG_DIR "%s/%s" };
	bool ok = false;
	for (size_t i = 0; i < 3 && !ok; i++) {
		snprintf(buf, sizeof(buf), fmts[i], dir, link);
		ok = try_debug(d, buf, tried);
	}
	free(copy);
	return ok;
}

int dwf_open(struct dwf *d, const char *path, char *err, size_t errlen)
{
	memset(d, 0, sizeof(*d));
	d->fd = d->dfd = -1;
	elf_version(EV_CURRENT);
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0)
		return es_fail(err, errlen, "cannot open %s: %s", path, strerror(errno));
	d->elf = elf_begin(d->fd, ELF_C_READ_MMAP, NULL);
	if (!d->elf || elf_kind(d->elf) != ELF_K_ELF)
		return es_fail(err, errlen, "%s is not an ELF file", path);
	Elf *src = d->elf;
	if (!has_debug_info(d->elf)) {
		struct strbuf tried = STRBUF_INIT;
		if (!find_debug_file(d, path, &tried)) {
			es_fail(err, errlen, "%s has no debug info (no .debug_info; its separate debug "
				"file was looked for %s%s): C expressions need it -- build with -g, or "
				"install its -dbgsym package", path, tried.len ? "at " : "nowhere: it "
				"has neither a build-id nor a .gnu_debuglink", sb_str(&tried));
			sb_free(&tried);
			return -1;
		}
		sb_free(&tried);
		src = d->delf;
	}
	d->dw = dwarf_begin_elf(src, DWARF_C_READ, NULL);
	if (!d->dw)
		return es_fail(err, errlen, "cannot read the DWARF of %s: %s",
			       d->dpath ? d->dpath : path, dwarf_errmsg(-1));
	d->cfi_dbg = dwarf_getcfi(d->dw);
	d->cfi_eh = dwarf_getcfi_elf(d->elf);
	return 0;
}

/*
 * dwfile: a program's DWARF, from the file or its separate debug file
 * (build-id, .gnu_debuglink), and its call frame info.
 */
#ifndef TRACEKIT_PROBE_DWFILE_H
#define TRACEKIT_PROBE_DWFILE_H

#include <stddef.h>

#include <elfutils/libdw.h>

struct dwf {
	int fd, dfd;
	Elf *elf, *delf;	/* the file, and its separate debug file (or NULL) */
	Dwarf *dw;
	Dwarf_CFI *cfi_eh, *cfi_dbg;	/* .eh_frame (the file's), .debug_frame */
	char *dpath;		/* the separate debug file's path, or NULL */
};

/*
 * 0, or -1 with one line in err: "PATH has no debug info (no .debug_info;
 * its separate debug file was looked for at A, B, C): ...".
 */
int dwf_open(struct dwf *d, const char *path, char *err, size_t errlen);
void dwf_close(struct dwf *d);

#endif

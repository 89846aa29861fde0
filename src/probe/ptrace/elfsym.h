/*
 * elfsym: the little ELF knowledge the ptrace engine needs — SYMBOL+OFFS to
 * a file offset (what /proc/PID/maps maps), and the function around a file
 * offset (to check that a probe sits on an instruction boundary).  Answered
 * by the grammar side's resolver (src/probe/elfsym.h), so both backends find
 * the same symbols, build-id debug files included.
 */
#ifndef TRACEKIT_PROBE_PTRACE_ELFSYM_H
#define TRACEKIT_PROBE_PTRACE_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

struct elfsym_loc {
	uint64_t file_off;	/* where the probe is */
	uint64_t func_off;	/* the function's first byte (file offset) */
	uint64_t func_size;	/* 0: unknown */
	char name[128];
};

/* SYMBOL+off in the ELF file at path; 0, or -1 with err. */
int elfsym_resolve(const char *path, const char *symbol, uint64_t off, struct elfsym_loc *loc,
		   char *err, size_t errlen);
/* The function holding file offset fo; 0, or -1 when no sized function symbol covers it. */
int elfsym_containing(const char *path, uint64_t fo, struct elfsym_loc *loc);

#endif

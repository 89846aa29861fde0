/*
 * Printers shared by the file decoders: struct stat, the time comments
 * strace puts after timestamps, and paths with their directory fd.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_STAT_H
#define TRACEKIT_SYSCALLS_PRINT_STAT_H

#include "decoder.h"

/* Abbreviated without -v ("st_mode=..., st_size=..., ..."), whole with -v. */
void p_struct_stat(struct sc_call *c, uint64_t addr);
/* At exit: the struct when the call succeeded, its address otherwise. */
void p_stat_or_addr(struct sc_call *c, uint64_t addr);
/* " /\* 2024-01-02T03:04:05.000000006+0000 *\/": digits 9 for ns, 6 for us. */
void p_time_comment(struct sc_call *c, int64_t sec, uint64_t frac, int digits);
/* dirfd, "path": the head of every *at call. */
void p_dirfd_path(struct sc_call *c, uint64_t dirfd, uint64_t path);
/* [42] for an int, or a signed / unsigned 64-bit value, at addr; NULL or the address if not held. */
void p_int_ptr(struct sc_call *c, uint64_t addr);
void p_s64_ptr(struct sc_call *c, uint64_t addr);
void p_u64_ptr(struct sc_call *c, uint64_t addr);
/* n bytes as a quoted string in \\x hex whatever -x says (strace's QUOTE_FORCE_HEX). */
void p_hex_bytes(struct sc_call *c, const unsigned char *s, size_t n, bool ellipsis);
/* Whether -v is on. */
bool sc_verbose(const struct sc_call *c);

#endif

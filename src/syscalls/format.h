/*
 * One call, decoded: "name(args) = ret".  The engines feed a struct sc_call
 * at entry and at exit; the printer decides what surrounds the text (pid
 * prefix, timestamps, <unfinished ...> and resumed halves).
 */
#ifndef TRACEKIT_SYSCALLS_FORMAT_H
#define TRACEKIT_SYSCALLS_FORMAT_H

#include "decoder.h"

/* Start a call: clear what the last one left.  c->out, c->fmt and the snapshot are kept. */
void sc_call_reset(struct sc_call *c);
/* At entry: "name(" and the arguments the kernel reads.  Memory is fetched already. */
void sc_decode_entry(struct sc_call *c);
/* At exit: the remaining arguments and ")".  c->ret is set, exit memory fetched. */
/* -e raw=: "name(0x1, 0x2" with no decoding, the return value in hex. */
void sc_decode_entry_raw(struct sc_call *c);
void sc_decode_exit(struct sc_call *c);
/* " = 3", " = -1 ENOENT (No such file or directory)", " = ?" ... into sb. */
void sc_format_ret(const struct sc_call *c, struct strbuf *sb, bool injected);
/* -T: " <1.000079>", the time a call took with --syscall-times' WIDTH decimals (0-9). */
void sc_format_took(struct strbuf *sb, uint64_t ns, int width);
/* The text after "= -1 ENOENT " for an errno: "(No such file or directory)". */
const char *sc_errdesc(int err);

#endif

/*
 * Helpers both ioctl layers share (ioctl.h's groups, family.h's families):
 * when an argument prints, at entry or at exit; reserved fields.
 */
#ifndef TRACEKIT_SYSCALLS_IOCTL_COMMON_H
#define TRACEKIT_SYSCALLS_IOCTL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syscalls/decoder.h"

typedef void ioctl_printer(struct sc_call *c, uint64_t arg);
typedef void ioctl_req_printer(struct sc_call *c, unsigned req, uint64_t arg);

/*
 * A request whose argument the kernel writes: nothing at entry, ", VALUE"
 * at exit (", ADDRESS" when the call failed).  Returns 0.
 */
int ioctl_getter(struct sc_call *c, uint64_t arg, ioctl_printer *print);
int ioctl_getter_req(struct sc_call *c, unsigned req, uint64_t arg, ioctl_req_printer *print);
/* A request whose argument the kernel only reads: ", VALUE" at entry.  Returns SC_DONE. */
int ioctl_setter(struct sc_call *c, uint64_t arg, ioctl_printer *print);
int ioctl_setter_req(struct sc_call *c, unsigned req, uint64_t arg, ioctl_req_printer *print);

/* -s: string bytes and array elements printed at most (strace's 32 without options). */
size_t ioctl_strsize(const struct sc_call *c);
/* True when all n bytes are zero (reserved fields print only when used). */
bool ioctl_all_zero(const void *p, size_t n);

#endif

/*
 * Helpers of the ioctl families (ioctl.h's struct ioctl_family), mostly for
 * the character-device ones that own a type byte (evdev, v4l2, ...): naming
 * their requests, printing arrays and strings, walking pointers.
 */
#ifndef TRACEKIT_SYSCALLS_IOCTL_FAMILY_H
#define TRACEKIT_SYSCALLS_IOCTL_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ioctl.h>

#include "ioctl.h"

/* The family that owns req's type byte, or NULL. */
const struct ioctl_family *ioctl_family_of(unsigned req);
/* Print req's name if its family knows it; false otherwise (nothing printed). */
bool ioctl_family_name(struct sc_call *c, unsigned req, bool in_comment);

/* A constant inside a request name: its name, else hex with "/\* dflt *\/" unless in_comment. */
void ioctl_p_name_xval(struct sc_call *c, const struct xlat *x, uint64_t v, const char *dflt,
		       bool in_comment);

/* A char array field holding a C string: quoted up to its NUL, "..." when it has none (not cut at -s). */
void ioctl_p_cstring(struct sc_call *c, const char *buf, size_t size);
/* [1, 2, 3] of n unsigned ints, in hex when hex; without -v at most -s of them, then "...". */
void ioctl_p_u32_array(struct sc_call *c, const uint32_t *a, size_t n, bool hex);
/*
 * [e0, e1, ...] of n elements of size at addr, each by fn (given its address
 * too): the address alone when the first is not held, ", ... /\* addr *\/"
 * where they stop, ", ..." past -s.  False when not all were printed, and for
 * an empty array (strace ends the struct there).
 */
bool ioctl_p_array(struct sc_call *c, uint64_t addr, uint64_t n, size_t size,
		   void (*fn)(struct sc_call *c, const void *elem, uint64_t addr));
/*
 * Elements a .walk copies at most, whatever -s says: a hostile count with
 * -s 100000 must not make one call copy megabytes (the rest print as "...").
 */
#define IOCTL_WALK_MAX 1024u
/* Bytes of strings behind walked elements copied at most per call. */
#define IOCTL_WALK_BYTES (256u * 1024)
/* For a family's .walk: len bytes at addr into buf (copied too); 0, or -1 when not all readable. */
int ioctl_walk_read(struct sc_walk *w, uint64_t addr, void *buf, size_t len);
/* For a family's .walk: copy the elements ioctl_p_array prints, each on its own. */
void ioctl_keep_array(struct sc_walk *w, const struct sc_call *c, uint64_t addr, uint64_t n,
		      size_t size);
/* True when len bytes at addr are in the snapshot. */
bool ioctl_readable(struct sc_call *c, uint64_t addr, size_t len);
/* " => ": what the kernel wrote, after what it read. */
#define IOCTL_CHANGED " => "

#endif

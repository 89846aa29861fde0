/*
 * One ioctl family (block, fs, evdev, v4l2, ...): the names of its requests
 * and how their arguments print.  decode_ioctl.c prints the descriptor and
 * the request, then asks the families of the one table (ioctl_families) in
 * turn: first the family that owns the request's _IOC_TYPE byte, if any, then
 * those that are asked about every request.  A family answers IOCTL_UNDECODED
 * for a request it does not decode; when none decodes it, the argument prints
 * in hex, as strace does.  The memory each request needs (arg_len, deref_len,
 * ptr_len, walk) sits beside its decoder, so both modes copy what it prints.
 */
#ifndef TRACEKIT_SYSCALLS_IOCTL_IOCTL_H
#define TRACEKIT_SYSCALLS_IOCTL_IOCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/ioctl.h>

#include "../decoder.h"
#include "common.h"

#define IOCTL_UNDECODED (-1)

/* The most bytes of an ioctl argument copied (UBI_IOCRNVOL's 4368, HDIO_GET_IDENTITY's 512, FIEMAP's extents). */
#define IOCTL_MEM_CAP 8192

/* A family's .type when it owns no type byte: it is asked about every request. */
#define IOCTL_ANY_TYPE 0x100u

struct ioctl_family {
	/*
	 * The _IOC_TYPE of the requests it owns (evdev's 'E'): it names them
	 * and is asked first; IOCTL_ANY_TYPE: asked about every request, in the
	 * table's order.
	 */
	unsigned type;
	const struct xlat *names;	/* its requests with a fixed number, or NULL */
	/*
	 * Optional, for an owner: requests whose number carries a parameter
	 * (EVIOCGBIT(ev, len)): print the name and return true.  in_comment: the
	 * name goes inside -X verbose's comment, where unknown parameters print bare.
	 */
	bool (*name)(struct sc_call *c, unsigned req, bool in_comment);
	/*
	 * Optional: a name computed from the number (MIXER_READ(13)), printed
	 * before the names of the tables; false when req has none.
	 */
	bool (*name_of)(unsigned req, char *buf, size_t size);
	/*
	 * Print ", ARG" (or nothing, for a request without one) like a
	 * decoder: at entry what the kernel reads, returning SC_DONE when
	 * nothing is left for the exit; IOCTL_UNDECODED for a request it
	 * leaves alone.
	 */
	int (*decode)(struct sc_call *c, unsigned req, uint64_t arg);
	/* Optional: bytes at the argument the request reads or writes (0: none). */
	size_t (*arg_len)(const struct sc_call *c, unsigned req);
	/*
	 * Optional: bytes the kernel reads behind the pointer IOCTL_DEREF_OFF
	 * bytes into the argument (BLKPG's data); 0 for none.
	 */
	size_t (*deref_len)(const struct sc_call *c, unsigned req);
	/*
	 * Optional: bytes behind the pointer off bytes into the argument
	 * (IOCTL_PTR_AT*: tee_ioctl_buf_data's buf_ptr, unimapdesc's entries,
	 * console_font_op's data), copied at entry and exit; 0 for none.
	 */
	size_t (*ptr_len)(const struct sc_call *c, unsigned req, unsigned off);
	/*
	 * Optional: copy what the argument leads to through sc_walk_grab(),
	 * at entry and exit (SG_IO's buffers and iovecs, V4L2's arrays).
	 */
	void (*walk)(struct sc_walk *w, const struct sc_call *c, unsigned req);
};

/* The one table of families (ioctl/family.c): the owners of a type byte first. */
extern const struct ioctl_family *const ioctl_families[];
extern const size_t ioctl_n_families;

/* Whether f is asked about req: it owns req's type, or owns none. */
static inline bool ioctl_family_asked(const struct ioctl_family *f, unsigned req)
{
	return f->type == IOCTL_ANY_TYPE || f->type == _IOC_TYPE(req);
}

/* Where the one followed pointer sits in the argument (struct blkpg_ioctl_arg's data). */
#define IOCTL_DEREF_OFF 16
#define IOCTL_DEREF_CAP 256	/* BLKPG's struct blkpg_partition (152) */
/* The other pointers followed: 0, 8 and 24 bytes into the argument. */
#define IOCTL_PTR_AT0 0
#define IOCTL_PTR_AT8 8
#define IOCTL_PTR_AT24 24
#define IOCTL_PTR_CAP 8192

extern const struct ioctl_family ioctl_block;
extern const struct ioctl_family ioctl_fs;
extern const struct ioctl_family ioctl_hdio;
extern const struct ioctl_family ioctl_counter;
extern const struct ioctl_family ioctl_dm;
extern const struct ioctl_family ioctl_named;
extern const struct ioctl_family ioctl_inotify;
extern const struct ioctl_family ioctl_kd;
extern const struct ioctl_family ioctl_tee;
extern const struct ioctl_family ioctl_sg_io;
extern const struct ioctl_family ioctl_perf;
extern const struct ioctl_family ioctl_lirc;
extern const struct ioctl_family ioctl_mixer;
extern const struct ioctl_family ioctl_mtd;
extern const struct ioctl_family ioctl_loop;
extern const struct ioctl_family ioctl_nbd;
extern const struct ioctl_family ioctl_nsfs;
extern const struct ioctl_family ioctl_random;
extern const struct ioctl_family ioctl_hid;
extern const struct ioctl_family ioctl_scsi;
extern const struct ioctl_family ioctl_ubi;
extern const struct ioctl_family ioctl_watchdog;
extern const struct ioctl_family ioctl_btrfs;
extern const struct ioctl_family ioctl_evdev;
extern const struct ioctl_family ioctl_gpio;
extern const struct ioctl_family ioctl_seccomp;
extern const struct ioctl_family ioctl_tty;
extern const struct ioctl_family ioctl_ptp;
extern const struct ioctl_family ioctl_rtc;
extern const struct ioctl_family ioctl_uffdio;
extern const struct ioctl_family ioctl_kvm;
extern const struct ioctl_family ioctl_sock;
extern const struct ioctl_family ioctl_v4l2;

/*
 * Requests whose argument has a simple shape, as a table: the family's
 * decode() and arg_len() look the request up there.
 */
enum ioctl_shape {
	IS_NONE = 1,	/* no argument at all (FIFREEZE) */
	IS_HEX,		/* known, but not decoded: hex */
	IS_PTR,		/* an address: NULL or 0x7ffd... */
	IS_INT,		/* the argument is an int (LOOP_SET_FD) */
	IS_UINT,	/* ... an unsigned int */
	IS_XINT,	/* ... an unsigned int in hex (SG_SET_TRANSFORM) */
	IS_ULONG,	/* ... an unsigned long (BLKRASET) */
	IS_FD,		/* ... a descriptor: -y shows its path (NBD_SET_SOCK) */
	IS_INT_IN,	/* [int] the kernel reads */
	IS_UINT_IN,
	IS_U64_IN,
	IS_S64_IN,
	IS_INT_OUT,	/* [int] the kernel writes */
	IS_UINT_OUT,
	IS_USHORT_OUT,
	IS_LONG_OUT,
	IS_ULONG_OUT,
	IS_U64_OUT,
	IS_U64_PAIR_IN,	/* [u64, u64] the kernel reads (BLKDISCARD) */
};

struct ioctl_shape_entry {
	unsigned req;
	unsigned char shape;
};

#define IOCTL_SHAPES(t) (t), sizeof(t) / sizeof((t)[0])

/* The shape of req in the table, or 0. */
int ioctl_shape_of(const struct ioctl_shape_entry *t, size_t n, unsigned req);
/* Decode req by its shape; IOCTL_UNDECODED when the table lacks it. */
int ioctl_shape_decode(struct sc_call *c, const struct ioctl_shape_entry *t, size_t n,
		       unsigned req, uint64_t arg);
size_t ioctl_shape_len(const struct ioctl_shape_entry *t, size_t n, unsigned req);

/* "AAA"..., a fixed-size char array that may lack its NUL (sda1's devname). */
void ioctl_p_chars(struct sc_call *c, const char *s, size_t n);

#endif

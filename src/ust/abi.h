/*
 * What a traced program and `tracekit record` share: the session directory
 * the recorder makes (named in the program's environment, or written into
 * its control file for -P), the per-thread ring buffers the program maps
 * from it, and the event descriptions the program appends to it.  Both sides
 * are built from this one header; TK_UBUF_VERSION changes with the layout.
 *
 *   SESSION/config          "clock tsc|mono", "buffer_kb N", "wait_ms N", "recorder PID",
 *                           "enable GLOB" lines
 *   SESSION/events-PID      struct tk_udesc records, one per tracepoint the
 *                           process registered (written before it is enabled)
 *   SESSION/buf-PID-TID-N   one thread's buffer: a header page, then the ring
 */
#ifndef TRACEKIT_UST_ABI_H
#define TRACEKIT_UST_ABI_H

#include <stdint.h>

#include "tracekit/tracepoint.h"

#define TK_UST_ENV "TRACEKIT_UST"		/* the session directory of a started program */
#define TK_UST_CTL_FMT "/dev/shm/tracekit-ctl-%d"	/* a running program's control file */
#define TK_UBUF_MAGIC 0x6675626bu
#define TK_UDESC_MAGIC 0x6373646bu
#define TK_UCTL_MAGIC 0x6c74636bu
#define TK_UBUF_VERSION 3
#define TK_UBUF_HDR 4096			/* the ring starts one page in */
#define TK_UREC_MAX 3968			/* an entry must fit one trace.dat page */

enum { TK_CLOCK_MONO = 0, TK_CLOCK_TSC = 1 };
enum { TK_UREC_EVENT = 0, TK_UREC_PAD = 1 };

/*
 * One thread's buffer.  Single producer (the thread), single consumer (the
 * recorder): head and tail only grow; a record never wraps (a pad record to
 * the end of the ring sends it to the start).  Records take multiples of 16
 * bytes, so the room left at the end always holds a pad record, and the
 * recorder can copy the committed bytes as they are.
 *
 * A full buffer: with the config's wait_ms (record -- COMMAND's default) the
 * thread waits for the recorder to make room, sleeping on tail_seq (waiting
 * set, the recorder bumps tail_seq and wakes it after moving the tail), for at
 * most wait_ms without progress; then, or when the recorder is gone or has
 * closed the buffer, it drops the new event and counts it in lost, and waits
 * no more until the recorder moves the tail again.  Without wait_ms it drops
 * at once: the program never waits.
 */
struct tk_ubuf_hdr {
	uint32_t magic;		/* stored last, with release: the rest is valid */
	uint32_t version;
	int32_t pid, tid;
	uint64_t size;		/* bytes of ring after the header page, a power of two */
	uint32_t clock;		/* TK_CLOCK_* */
	uint32_t exited;	/* the thread is gone: drain and forget */
	char comm[16];
	uint64_t lost;		/* dropped by the thread: full, too big, nested in a signal */
	uint32_t waiting;	/* the thread waits for room (a futex waiter on tail_seq) */
	uint32_t tail_seq;	/* the recorder's: bumped, and woken, when it moved tail */
	uint32_t closed;	/* the recorder drains no more: never wait */
	uint32_t pad32;
	uint64_t pad0[6];
	uint64_t head;		/* the thread's: bytes committed */
	uint64_t pad1[7];
	uint64_t tail;		/* the recorder's: bytes consumed */
};

/* A record in the ring; the entry (struct tk_entry_header first) follows. */
struct tk_urec {
	uint64_t ts;		/* TSC or CLOCK_MONOTONIC ns, as the header says */
	uint32_t len;		/* entry bytes; the record takes TK_UREC_SIZE(len) */
	uint16_t id;		/* the tracepoint's number in its process */
	uint16_t kind;		/* TK_UREC_* */
};

#define TK_UREC_SIZE(len) ((sizeof(struct tk_urec) + (uint64_t)(len) + 15) & ~(uint64_t)15)

/* One registered tracepoint, as appended to SESSION/events-PID. */
struct tk_udesc {
	uint32_t magic;		/* TK_UDESC_MAGIC */
	uint16_t id, pad;
	struct tk_event_desc ev;
	struct tk_class_desc cls;
};

/* A running program's control file (-P): the recorder writes session and bumps gen. */
struct tk_uctl {
	uint32_t magic;		/* TK_UCTL_MAGIC */
	uint32_t gen;		/* a futex: the listener thread waits on it */
	char session[512];	/* "" when no recorder is attached */
};

#endif

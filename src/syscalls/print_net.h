/*
 * Printers the socket, poll, epoll and IPC decoders share: socket
 * addresses, message headers and their control data, arrays of structs,
 * and a few memory-spec shorthands decoder.h lacks.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_NET_H
#define TRACEKIT_SYSCALLS_PRINT_NET_H

#include "decoder.h"

/*
 * A buffer whose length is argument n, capped at max bytes rather than at
 * -s: the decoders parse these (socket options, signal masks), so a small -s
 * must not cut them short.
 */
#define MEM_NBUF_IN(a, n, max) \
	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_ENTRY, .len_src = SC_LEN_ARG, .len_arg = (n), .size = (max) }
/* A buffer the kernel fills, its length in the int argument n points to (getsockopt). */
#define MEM_NBUF_OUT_PTR(a, n, max) \
	{ .arg = (a), .kind = SC_MEM_BUF, .when = SC_AT_EXIT, .len_src = SC_LEN_ARGPTR, .len_arg = (n), .size = (max) }
/* A socklen_t (or any int) the kernel reads at entry and rewrites at exit. */
#define MEM_INT_INOUT(a) MEM_BYTES_INOUT(a, sizeof(int))

/*
 * Print one array element held in elem; return false to stop the array
 * there (strace's print_array callbacks).
 */
typedef bool (*pn_elem_fn)(struct sc_call *c, const void *elem, size_t size, void *data);

/*
 * [e0, e1, ...] of n elements of size bytes at addr, as strace's
 * print_array: NULL, the address when the first element is not held,
 * "..." after -s elements unless -v.  Returns true when all were printed.
 */
bool pn_array(struct sc_call *c, uint64_t addr, uint64_t n, size_t size, pn_elem_fn fn,
	      void *data);

/* A sockaddr held in memory (not the tracee's): {sa_family=AF_INET, ...}. */
void pn_sockaddr_data(struct sc_call *c, const void *buf, int len);
/* IPv4 address as inet_addr("1.2.3.4"), IPv6 as inet_pton(AF_INET6, "::1", &name). */
/*
 * name=TEXT (TEXT from fmt) in -X abbrev; the field's n network-order bytes
 * in hex for -X raw, and those followed by a TEXT comment for -X verbose.
 */
void pn_net_field(struct sc_call *c, const char *name, const void *p, size_t n,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void pn_inet_addr(struct sc_call *c, int af, const void *addr, const char *name);
/* msghdr; user_namelen is msg_namelen as the caller set it (recvmsg), or NULL. */
void pn_msghdr(struct sc_call *c, uint64_t addr, int64_t data_len, const int *user_namelen);
/* An interface index: if_nametoindex("lo") when it names one here, else the number. */
void pn_ifindex(struct sc_call *c, unsigned idx);
/* SOCK_STREAM|SOCK_CLOEXEC */
void pn_sock_type(struct sc_call *c, uint64_t type);
/* A constant printed in decimal when unknown or raw: 2 /\* SOCK_TXREHASH_??? *\/. */
void pn_xval_dec(struct sc_call *c, const struct xlat *x, int64_t v, const char *dflt);
/* An int (socklen, option length) saved at entry for exit, in c->priv. */
void pn_save_int(struct sc_call *c, int v);
int pn_saved_int(const struct sc_call *c);
/* Print what fn prints into a string instead (for c->rv_extra). */
void pn_capture(struct sc_call *c, char *dst, size_t size,
		void (*fn)(struct sc_call *c, uint64_t addr), uint64_t addr);

#endif

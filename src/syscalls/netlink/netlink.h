/*
 * Netlink messages, as strace prints them: the nlmsghdr of each message
 * named by the socket's protocol, then its payload — the protocol's family
 * header (ifinfomsg, inet_diag_req_v2, ...) and the attributes after it.
 *
 * Each protocol is data: a message type table and flags per type
 * (protocols.c), and per message type a family-header printer plus the
 * attribute table that follows it (route.c, sock_diag.c).  An attribute
 * table names each NLA type and gives the printer of its value (nlattr.c),
 * so decoding a new message is mostly writing a table.
 */
#ifndef TRACEKIT_SYSCALLS_NETLINK_H
#define TRACEKIT_SYSCALLS_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "syscalls/decoder.h"

/*
 * The messages in len bytes at addr, sent on or received from a socket of
 * netlink protocol proto (NETLINK_ROUTE, ...; -1 when unknown).
 */
void nl_decode(struct sc_call *c, int proto, uint64_t addr, uint64_t len);

/* ---- attributes ------------------------------------------------------ */

/*
 * Print an attribute's value of len bytes at addr; false when it does not
 * fit the expected shape (the caller then prints the bytes in hex).
 */
typedef bool (*nla_fn)(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);

struct nla_policy {
	nla_fn fn;
	const void *arg;	/* the printer's table: an xlat, a nested nla_table... */
};

struct nla_table {
	const struct xlat *names;
	const char *dflt;		/* "IFLA_???" */
	const struct nla_policy *pol;	/* indexed by type; NULL: all values in hex */
	unsigned npol;
};

/* A constant table and its default, as an attribute printer's arg. */
struct nla_xlat {
	const struct xlat *x;
	const char *dflt;
};

/* The attributes in len bytes at addr: [{nla_len=8, nla_type=IFLA_MTU}, 1500], ... */
void nl_attrs(struct sc_call *c, uint64_t addr, unsigned len, const struct nla_table *t);

/* Value printers for tables. */
bool nla_u8(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_u16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_u32(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_u64(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_s8(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_s16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_s32(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_s64(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_x8(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_x16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_x32(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_x64(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_str(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);	/* NUL-terminated */
bool nla_strn(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);	/* len bytes */
bool nla_ifindex(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_be16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);	/* htons(80) */
bool nla_be64(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_flag(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);	/* no value */
bool nla_clock_t(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_meminfo(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
/* arg: struct nla_xlat; a u8/u16/u32 value (by len) as a constant, or as flags. */
bool nla_xval(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_xval8(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_xval16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_xval32(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_flags8(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_flags16(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_flags32(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
/* arg: struct nla_table; nested attributes. */
bool nla_nested(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);

/* ---- shared helpers -------------------------------------------------- */

/* Without -v, arrays stop after -s elements (strace's abbrev). */
static inline bool nl_abbrev_stop(const struct sc_call *c, unsigned i)
{
	return c->fmt && !c->fmt->verbose && i >= c->fmt->strsize;
}
/* len bytes at addr as "\x61\x62", the address when not held. */
void nl_hex(struct sc_call *c, uint64_t addr, uint64_t len);
/* Read exactly len bytes; false when not held. */
bool nl_read(struct sc_call *c, uint64_t addr, void *buf, size_t len);
/*
 * A fixed-size value of len bytes at addr into buf: 1 when read, 0 when not
 * held (its address printed), -1 when len is short of size (nothing
 * printed).  An nla_fn then returns got == 0 for got <= 0.
 */
int nla_read(struct sc_call *c, uint64_t addr, unsigned len, void *buf, size_t size);
/*
 * A walk over 4-byte aligned records (messages, attributes), i-th step:
 * nl_walk_head reads the header of size bytes at addr (len bytes left), or
 * returns false having printed why the walk stops (the short tail in hex,
 * the address, "..." past -s); nl_walk_next gives the next record's address
 * (0 after the last), opening the "[" before the first of several.
 */
bool nl_walk_head(struct sc_call *c, uint64_t addr, uint64_t len, void *hdr, size_t size,
		  unsigned i, bool array);
uint64_t nl_walk_next(struct sc_call *c, uint64_t addr, uint64_t len, uint32_t rec_len,
		      unsigned hdr_len, bool *array);
/*
 * A family header of hdr_size bytes at addr in len bytes of payload, then
 * its attributes: shorter payloads print what they hold, then "...".
 * print prints the fields of the header (buf holds hdr_size bytes).
 */
typedef void (*nl_hdr_fn)(struct sc_call *c, const void *buf);

/* The address family of the family header being decoded (family.c). */
uint8_t nl_family(void);
/* An address by the header's family: inet_addr("1.2.3.4") or inet_pton(AF_INET6, ...). */
bool nla_inet_addr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_in_addr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
bool nla_in6_addr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
/* A hardware address: 00:11:22:33:44:55 (its bytes too with -X raw/verbose). */
void nl_mac(struct sc_call *c, const unsigned char *a, size_t n);
bool nla_hwaddr(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
/* One field of a struct attribute value: where it is and how it prints. */
enum nla_field_kind { NF_U, NF_X, NF_S, NF_IFINDEX, NF_XVAL, NF_FLAGS };
struct nla_field {
	const char *name;
	unsigned short off, size;	/* size: 1, 2, 4 or 8 */
	unsigned char kind;		/* enum nla_field_kind */
	const struct xlat *x;		/* NF_XVAL, NF_FLAGS */
	const char *dflt;
};
/*
 * A struct value, arg a struct nla_struct: {name=value, ...}; a value
 * shorter than the struct prints in hex, the address when not held.
 */
struct nla_struct {
	unsigned size;
	const struct nla_field *f;
	unsigned n;
};
#define NLA_F(T, field, kind) { #field, offsetof(T, field), sizeof(((T *)0)->field), kind, NULL, NULL }
#define NLA_FX(T, field, kind, x, dflt) { #field, offsetof(T, field), sizeof(((T *)0)->field), kind, x, dflt }
#define NLA_STRUCT(T, ...) { sizeof(T), (const struct nla_field[]){ __VA_ARGS__ }, \
	sizeof((const struct nla_field[]){ __VA_ARGS__ }) / sizeof(struct nla_field) }
bool nla_struct(struct sc_call *c, uint64_t addr, unsigned len, const void *arg);
/* Print one field of a struct held in buf. */
void nl_field(struct sc_call *c, const void *buf, const struct nla_field *f);

/* ---- protocols ------------------------------------------------------- */

/* A payload decoder: true when it printed the payload. */
typedef bool (*nl_payload_fn)(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
			      unsigned len);

struct nl_proto_desc {
	const struct xlat *types;
	const char *dflt;
	/* Flags beyond NLM_F_REQUEST & co, by message type; NULL when none. */
	const struct xlat *(*flags_of)(uint16_t type);
	nl_payload_fn payload;
	/* nlmsg_type printer when it is not a plain table (netfilter). */
	void (*print_type)(struct sc_call *c, uint16_t type);
};

const struct nl_proto_desc *nl_proto_desc(int proto);

/* NETLINK_KOBJECT_UEVENT data: libudev's header and properties, or a string. */
void nl_kobject_uevent(struct sc_call *c, uint64_t addr, uint64_t len);

/* The attributes of AF_SMC and inet sock_diag replies (smc_diag.c, inet_diag.c). */
extern const struct nla_table nl_smc_diag_attrs, nl_inet_diag_attrs;

/* NETLINK_GENERIC nlmsg_type: the family's name, as the kernel reports it (genl.c). */
void nl_genl_type(struct sc_call *c, uint16_t type);

bool nl_route_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
		      unsigned len);
bool nl_sock_diag_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
			  unsigned len);
bool nl_netfilter_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
			  unsigned len);
bool nl_selinux_payload(struct sc_call *c, uint16_t type, uint16_t flags, uint64_t addr,
			unsigned len);

#endif

/*
 * trace-cmd's network messages (lib/trace-cmd/trace-msg.c in trace-cmd 3.1):
 * a 12-byte big-endian header {size, cmd, cmd_size}, then cmd_size bytes of
 * the command's fixed part, then the rest of size as data.  A message is at
 * most 8192 bytes.  Everything that arrives is hostile: every size is checked
 * before it is used, and the decoders below refuse what does not add up.
 */
#ifndef TRACEKIT_NET_MSG_H
#define TRACEKIT_NET_MSG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_MSG_MAX 8192
#define NET_MSG_HDR 12
#define NET_MSG_MAX_DATA (NET_MSG_MAX - NET_MSG_HDR)
/* The time-sync protocol's name field (TRACECMD_TSYNC_PNAME_LENGTH). */
#define NET_TSYNC_NAME_LEN 16
/* At most this many CPUs (ports) in TINIT, RINIT and TRACE_RESP: more is refused. */
#define NET_MAX_CPUS 1024

enum net_cmd {
	NET_CLOSE = 0,
	NET_TINIT = 1,
	NET_RINIT = 2,
	NET_SEND_DATA = 3,
	NET_FIN_DATA = 4,
	NET_NOT_SUPP = 5,
	NET_TRACE_REQ = 6,
	NET_TRACE_RESP = 7,
	NET_CLOSE_RESP = 8,
	NET_TIME_SYNC = 9,
	NET_TRACE_PROXY = 10,
	NET_CONT = 11,
	NET_NCMDS
};

/* TINIT's options: "tcp" or "vsock" as its data. */
#define NET_TINIT_TCP 0x1
#define NET_TINIT_VSOCK 0x2

/* TRACE_REQ/TRACE_RESP flags. */
#define NET_TRACE_USE_FIFOS 0x1

/* One received message; body and data point into buf. */
struct net_msg {
	uint32_t cmd;
	uint32_t size;		/* the whole message */
	const uint8_t *body;	/* the command's fixed part, zero-filled to its full length */
	uint32_t body_len;	/* what the peer sent of it (may be shorter: trace-cmd zero-fills) */
	const uint8_t *data;
	uint32_t data_len;
	uint8_t buf[NET_MSG_MAX + 64];
};

const char *net_cmd_name(uint32_t cmd);
/* The fixed part's length for cmd (0 for those without one). */
uint32_t net_cmd_body_len(uint32_t cmd);

/*
 * A whole message in bytes[0..len): 0, or -1 with err (a bad header, a size
 * that does not match len).  m->body/data point into m->buf.
 */
int net_msg_parse(const uint8_t *bytes, size_t len, struct net_msg *m, char *err, size_t errlen);
/* Check a 12-byte header: the message's total size, or -1 with err. */
int net_msg_check_header(const uint8_t hdr[NET_MSG_HDR], char *err, size_t errlen);

/*
 * Read one message from fd, waiting at most timeout_ms for each part (-1:
 * forever).  0; 1 when the peer closed before a header began; -1 with err.
 */
int net_msg_read(int fd, struct net_msg *m, int timeout_ms, char *err, size_t errlen);
/* Write one message: body (the command's fixed part, body_len bytes) then data. */
int net_msg_write(int fd, uint32_t cmd, const void *body, uint32_t body_len, const void *data,
		  uint32_t data_len);
/* SEND_DATA messages for len bytes, cut at the maximum size. */
int net_send_data(int fd, const void *buf, size_t len);
int net_send_cmd(int fd, uint32_t cmd);

/* ---- the messages' contents ---- */

struct net_tinit {
	uint32_t cpus;
	uint32_t page_size;
	unsigned flags;		/* NET_TINIT_TCP, NET_TINIT_VSOCK */
};
int net_tinit_decode(const struct net_msg *m, struct net_tinit *t, char *err, size_t errlen);
int net_send_tinit(int fd, uint32_t cpus, uint32_t page_size, bool tcp);

/* RINIT: one port per CPU, as decimal strings each NUL-terminated. */
int net_rinit_decode(const struct net_msg *m, unsigned *ports, uint32_t max, uint32_t *n,
		     char *err, size_t errlen);
int net_send_rinit(int fd, const unsigned *ports, uint32_t n);

/* TRACE_REQ: the agent's record arguments and the time-sync protocols offered. */
struct net_trace_req {
	uint32_t flags;
	uint64_t trace_id;
	int argc;
	char **argv;		/* argc strings in one allocation (argv[0] points into it) */
	char **protos;		/* NULL-terminated, likewise */
};
int net_trace_req_decode(const struct net_msg *m, struct net_trace_req *r, char *err,
			 size_t errlen);
void net_trace_req_free(struct net_trace_req *r);
int net_send_trace_req(int fd, uint64_t trace_id, int argc, char *const *argv,
		       const char *const *protos);

struct net_trace_resp {
	uint32_t flags;
	uint32_t cpus;
	uint32_t page_size;
	uint64_t trace_id;
	char tsync_proto[NET_TSYNC_NAME_LEN + 1];
	uint32_t tsync_port;
	unsigned ports[NET_MAX_CPUS];
};
int net_trace_resp_decode(const struct net_msg *m, struct net_trace_resp *r, char *err,
			  size_t errlen);
int net_send_trace_resp(int fd, const struct net_trace_resp *r);

/* TIME_SYNC: a protocol name, a message id and a payload. */
struct net_tsync {
	char proto[NET_TSYNC_NAME_LEN + 1];
	uint32_t id;
	const uint8_t *payload;
	uint32_t payload_len;
};
int net_tsync_decode(const struct net_msg *m, struct net_tsync *t, char *err, size_t errlen);
int net_send_tsync(int fd, const char *proto, uint32_t id, const void *payload, uint32_t len);

/* ---- the greeting before the messages ---- */

/* Listener: "tracecmd", the client's "-1V3", "V3", its magic, "OK".  -1 with err. */
int net_greet_client(int fd, int timeout_ms, char *err, size_t errlen);
/* Client: the same from the other side.  -1 with err. */
int net_greet_listener(int fd, int timeout_ms, char *err, size_t errlen);

/*
 * While *flag is set (a Ctrl-C handler sets it), every wait here ends at once with
 * "interrupted" (EINTR); NULL: none.  record sets it while it connects its guests.
 */
void net_set_interrupt(volatile sig_atomic_t *flag);

/* Read exactly len bytes within timeout_ms in all; 0, 1 at EOF before any, -1 with err. */
int net_read_full(int fd, void *buf, size_t len, int timeout_ms, char *err, size_t errlen);
/* Write all of buf; -1 and errno (ETIMEDOUT: the peer took nothing for NET_WRITE_STALL_MS). */
#define NET_WRITE_STALL_MS 60000
int net_write_full(int fd, const void *buf, size_t len);
/* CLOCK_MONOTONIC in milliseconds, for deadlines. */
long long net_now_ms(void);

#endif

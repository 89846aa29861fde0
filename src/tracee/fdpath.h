/*
 * fdpath: what a tracee's descriptor refers to, for `tracekit syscalls -y`
 * and `-yy`; the text strace prints between '<' and '>' after the number.
 *
 *	-y	/etc/passwd, pipe:[6789], socket:[12345], anon_inode:[eventfd]
 *	-yy	also TCP:[127.0.0.1:41234->127.0.0.1:8080], UDPv6:[[::]:53],
 *		UNIX-STREAM:[12345->12346], UNIX-STREAM:[12345,"/run/x.sock"],
 *		NETLINK:[ROUTE:4213], /dev/null<char 1:3>, /dev/sda<block 8:0>,
 *		pid:1234 (a pidfd)
 *
 * A deleted file's text ends in " (deleted)", as the kernel reports it;
 * strace prints that suffix outside the brackets: </tmp/x>(deleted).  A NUL
 * in the text ends the file name: what follows it is printed as is (the
 * <char 1:3> of a device), and a name that really ends in " (deleted)" is
 * followed by one.
 * Socket details come from NETLINK_SOCK_DIAG queries (inet_diag, unix_diag,
 * netlink_diag) by inode, as strace does; nothing is cached between calls,
 * since descriptors change under us.
 */
#ifndef TRACEKIT_TRACEE_FDPATH_H
#define TRACEKIT_TRACEE_FDPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct tr_fdpath;

/* What to tell of a descriptor: strace's --decode-fds kinds. */
enum { TR_FD_PATH = 1, TR_FD_SOCKET = 2, TR_FD_DEV = 4, TR_FD_PIDFD = 8, TR_FD_ALL = 0xf };

/* level 1: -y (TR_FD_PATH), 2: -yy (TR_FD_ALL). */
struct tr_fdpath *tr_fdpath_new(int level);
/* Only these kinds (--decode-fds=dev,socket): a kind-less fd gets no text. */
void tr_fdpath_set_kinds(struct tr_fdpath *p, unsigned kinds);
void tr_fdpath_free(struct tr_fdpath *p);
/*
 * The text for fd in thread tid (any thread: /proc/TID is used), in buf
 * (NUL-terminated, truncated to len - 1); its length, or -1 when fd is not
 * open or tid is gone.  fd AT_FDCWD gives the thread's working directory.
 * ctx is a struct tr_fdpath *; the signature is struct sc_fmt's fd_path.
 */
int tr_fd_path(void *ctx, pid_t tid, int fd, char *buf, size_t len);
/*
 * What the kernel said of a descriptor when a call ran (--kernel's BPF
 * program reads the task's table then), described as tr_fd_path describes
 * what /proc says now; the same return.
 */
/* A socket as the kernel held it: what a sock_diag query would return of it. */
struct tr_sock_facts {
	int family;
	uint16_t sport;		/* host order; 0: not bound (sock_diag would not list it) */
	uint16_t dport;		/* network order */
	const void *saddr, *daddr;
	uint64_t peer_ino;	/* unix */
	const char *unix_path;	/* unix: sun_path, unix_path_len bytes (0: not bound) */
	size_t unix_path_len;
	unsigned nl_proto;	/* netlink */
	uint32_t portid;	/* netlink: 0 not bound (not listed) */
};

struct tr_fd_facts {
	const char *target;	/* as /proc/PID/fd/N's link: a path (" (deleted)" when unlinked),
				   socket:[N], pipe:[N], anon_inode:[eventfd] ... */
	bool deleted;		/* target's " (deleted)" is the kernel's, not part of the name */
	mode_t mode;
	dev_t rdev;
	const char *sock_proto;	/* a socket's protocol (TCP, UNIX-STREAM ...), or NULL */
	int pid;		/* a pidfd's pid, or 0 */
	const struct tr_sock_facts *sock;	/* -yy's details of a socket, or NULL: ask sock_diag now */
};
int tr_fd_describe(void *ctx, int fd, const struct tr_fd_facts *f, char *buf, size_t len);
/*
 * The NETLINK_* protocol of fd in thread tid when it is a netlink socket the
 * kernel lists (bound), TR_NETLINK_UNLISTED for a netlink socket it does not
 * list yet (an unbound one: its messages decode with no protocol's names, as
 * strace's), else -1: it tells how to decode the messages.
 */
#define TR_NETLINK_UNLISTED 0x7fffffff
int tr_fd_netlink_proto(pid_t tid, int fd);

#endif

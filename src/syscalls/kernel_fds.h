/*
 * -y in kernel mode, for descriptors the BPF program did not look up while
 * the call ran (inside structures, another process's, kmode.h's struct
 * km_fdinfo): paths learnt from the trace itself.  Lines
 * are printed a little after the calls, often after the process is gone,
 * so /proc cannot say what a descriptor was; the calls that made it can
 * (open*, creat, dup*, fcntl F_DUPFD*, close, close_range; fork copies the
 * table, exec drops close-on-exec descriptors).  What the trace did not see
 * (descriptors inherited from before) falls back to /proc while the process
 * lives.
 */
#ifndef TRACEKIT_SYSCALLS_KERNEL_FDS_H
#define TRACEKIT_SYSCALLS_KERNEL_FDS_H

#include <stdbool.h>
#include <sys/types.h>

#include "decoder.h"

struct km_fds;

struct km_fds *km_fds_new(void);
void km_fds_free(struct km_fds *t);

/*
 * Whether km_fds_update learns from call nr: the kernel sends these calls
 * even when -e trace= does not show them (kernel_plan.c).
 */
bool km_fds_tracks(int nr);
/* After a finished call of process tgid: the descriptors it made or closed. */
void km_fds_update(struct km_fds *t, pid_t tgid, const struct sc_call *c);
/*
 * -y: fd, a new descriptor a call returned, is path (as the call's record
 * looked it up): later calls that name it in memory print it so, the process gone or not.
 */
void km_fds_learn(struct km_fds *t, pid_t tgid, int fd, const char *path);
/* What /proc shows of tgid's descriptors now (a held command, a process attached to). */
void km_fds_seed(struct km_fds *t, pid_t tgid);
void km_fds_fork(struct km_fds *t, pid_t parent, pid_t child);
void km_fds_exec(struct km_fds *t, pid_t tgid);
void km_fds_gone(struct km_fds *t, pid_t tgid);
/*
 * The netlink protocol of fd in tgid as socket() made it: -1 not netlink, -2
 * the trace did not see it made (ask /proc).  Not only for -y: netlink
 * messages decode by protocol, and the process is often gone by then.
 */
int km_fds_netlink(const struct km_fds *t, pid_t tgid, int fd);
/* The path of fd in tgid into buf; length or -1 when the trace did not see it made. */
int km_fds_path(const struct km_fds *t, pid_t tgid, int fd, char *buf, size_t len);

#endif

/*
 * -y/-yy descriptor texts, for descriptors this test opens in itself: the
 * expected strings are built from what fstat and getsockname say, and one
 * test runs a copy of this program under strace -yy and compares.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "tk_test.h"
#include "tracee/fdpath.h"

static char got[PATH_MAX + 256];

/* tr_fd_path's text for our own fd with kinds (0: level's), or "(error)"; its NUL shown as '|'. */
static const char *fdpath_kinds(int level, unsigned kinds, int fd)
{
	struct tr_fdpath *p = tr_fdpath_new(level);

	if (kinds)
		tr_fdpath_set_kinds(p, kinds);
	int n = tr_fd_path(p, getpid(), fd, got, sizeof(got));
	if (n < 0)
		snprintf(got, sizeof(got), "(error)");
	for (int i = 0; i < n; i++)
		if (!got[i])
			got[i] = '|';
	tr_fdpath_free(p);
	return got;
}

static const char *fdpath(int level, int fd)
{
	return fdpath_kinds(level, 0, fd);
}

static unsigned long inode_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static int tcp_listener(struct sockaddr_in *a)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	socklen_t len = sizeof(*a);

	*a = (struct sockaddr_in){ .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	if (bind(fd, (struct sockaddr *)a, sizeof(*a)) || listen(fd, 4) ||
	    getsockname(fd, (struct sockaddr *)a, &len))
		return -1;
	return fd;
}

static int tcp_client(const struct sockaddr_in *to, struct sockaddr_in *self)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	socklen_t len = sizeof(*self);

	if (connect(fd, (const struct sockaddr *)to, sizeof(*to)) ||
	    getsockname(fd, (struct sockaddr *)self, &len))
		return -1;
	return fd;
}

static void test_regular_file_is_its_path(void)
{
	char path[] = "/tmp/tk-fdpath-XXXXXX", real[PATH_MAX];
	int fd = mkstemp(path);

	CHECK(realpath(path, real) != NULL);
	CHECK_STR(fdpath(1, fd), real);
	CHECK_STR(fdpath(2, fd), real);
	unlink(path);
	close(fd);
}

static void test_deleted_file_ends_in_deleted_suffix(void)
{
	char path[] = "/tmp/tk-fdpath-XXXXXX", real[PATH_MAX], want[PATH_MAX + 16];
	int fd = mkstemp(path);

	CHECK(realpath(path, real) != NULL);
	unlink(path);
	snprintf(want, sizeof(want), "%s (deleted)", real);
	CHECK_STR(fdpath(1, fd), want);
	close(fd);
}

/* A live file whose name ends in " (deleted)": the name, then a NUL saying so. */
static void test_name_ending_in_deleted_is_not_deleted(void)
{
	char dir[] = "/tmp/tk-fdpath-XXXXXX", path[PATH_MAX], real[PATH_MAX], want[PATH_MAX + 16];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/f (deleted)", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	CHECK(fd >= 0 && realpath(path, real) != NULL);
	snprintf(want, sizeof(want), "%s|", real);
	CHECK_STR(fdpath(1, fd), want);
	unlink(path);
	rmdir(dir);
	close(fd);
}

static void test_pipe_is_pipe_and_inode(void)
{
	int p[2];
	char want[64];

	CHECK(pipe(p) == 0);
	snprintf(want, sizeof(want), "pipe:[%lu]", inode_of(p[0]));
	CHECK_STR(fdpath(1, p[0]), want);
	CHECK_STR(fdpath(2, p[1]), want);
	close(p[0]);
	close(p[1]);
}

static void test_socket_at_y_is_socket_and_inode(void)
{
	struct sockaddr_in a;
	int fd = tcp_listener(&a);
	char want[64];

	snprintf(want, sizeof(want), "socket:[%lu]", inode_of(fd));
	CHECK_STR(fdpath(1, fd), want);
	close(fd);
}

static void test_tcp_listener_at_yy_is_local_address(void)
{
	struct sockaddr_in a;
	int fd = tcp_listener(&a);
	char want[64];

	snprintf(want, sizeof(want), "TCP:[127.0.0.1:%u]", ntohs(a.sin_port));
	CHECK_STR(fdpath(2, fd), want);
	close(fd);
}

static void test_tcp_connection_at_yy_is_local_then_peer(void)
{
	struct sockaddr_in l, c;
	int lfd = tcp_listener(&l), cfd = tcp_client(&l, &c);
	int afd = accept(lfd, NULL, NULL);
	char want[128];

	snprintf(want, sizeof(want), "TCP:[127.0.0.1:%u->127.0.0.1:%u]",
		 ntohs(c.sin_port), ntohs(l.sin_port));
	CHECK_STR(fdpath(2, cfd), want);
	snprintf(want, sizeof(want), "TCP:[127.0.0.1:%u->127.0.0.1:%u]",
		 ntohs(l.sin_port), ntohs(c.sin_port));
	CHECK_STR(fdpath(2, afd), want);
	close(afd);
	close(cfd);
	close(lfd);
}

static void test_tcp6_listener_at_yy_brackets_the_address(void)
{
	int fd = socket(AF_INET6, SOCK_STREAM, 0);
	struct sockaddr_in6 a = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
	socklen_t len = sizeof(a);
	char want[64];

	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1) ||
	    getsockname(fd, (struct sockaddr *)&a, &len)) {
		printf("%s: skipped (no ::1)\n", tk_current);
		close(fd);
		return;
	}
	snprintf(want, sizeof(want), "TCPv6:[[::1]:%u]", ntohs(a.sin6_port));
	CHECK_STR(fdpath(2, fd), want);
	close(fd);
}

static void test_unbound_udp_at_yy_is_protocol_and_inode(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	char want[64];

	snprintf(want, sizeof(want), "UDP:[%lu]", inode_of(fd));
	CHECK_STR(fdpath(2, fd), want);
	close(fd);
}

static void test_connected_udp_at_yy_is_local_then_peer(void)
{
	int s = socket(AF_INET, SOCK_DGRAM, 0), c = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) }, b;
	socklen_t len = sizeof(a);
	char want[128];

	CHECK(bind(s, (struct sockaddr *)&a, sizeof(a)) == 0);
	CHECK(getsockname(s, (struct sockaddr *)&a, &len) == 0);
	CHECK(connect(c, (struct sockaddr *)&a, sizeof(a)) == 0);
	len = sizeof(b);
	CHECK(getsockname(c, (struct sockaddr *)&b, &len) == 0);
	snprintf(want, sizeof(want), "UDP:[127.0.0.1:%u->127.0.0.1:%u]",
		 ntohs(b.sin_port), ntohs(a.sin_port));
	CHECK_STR(fdpath(2, c), want);
	close(c);
	close(s);
}

static void test_unix_stream_pair_at_yy_is_inode_then_peer(void)
{
	int sv[2];
	char want[64];

	CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	snprintf(want, sizeof(want), "UNIX-STREAM:[%lu->%lu]", inode_of(sv[0]), inode_of(sv[1]));
	CHECK_STR(fdpath(2, sv[0]), want);
	close(sv[0]);
	close(sv[1]);
}

static void test_unix_datagram_pair_at_yy_is_plain_unix(void)
{
	int sv[2];
	char want[64];

	CHECK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0);
	snprintf(want, sizeof(want), "UNIX:[%lu->%lu]", inode_of(sv[1]), inode_of(sv[0]));
	CHECK_STR(fdpath(2, sv[1]), want);
	close(sv[0]);
	close(sv[1]);
}

static void test_unix_listener_at_yy_is_inode_and_quoted_path(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	char want[256];

	snprintf(a.sun_path, sizeof(a.sun_path), "/tmp/tk-fdpath-%d.sock", (int)getpid());
	unlink(a.sun_path);
	CHECK(bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0 && listen(fd, 1) == 0);
	snprintf(want, sizeof(want), "UNIX-STREAM:[%lu,\"%s\"]", inode_of(fd), a.sun_path);
	CHECK_STR(fdpath(2, fd), want);
	unlink(a.sun_path);
	close(fd);
}

static void test_abstract_unix_name_at_yy_starts_with_at(void)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	int n = snprintf(a.sun_path + 1, sizeof(a.sun_path) - 1, "tk-fdpath-%d", (int)getpid());
	char want[256];

	CHECK(bind(fd, (struct sockaddr *)&a, (socklen_t)(sizeof(sa_family_t) + 1 + n)) == 0);
	snprintf(want, sizeof(want), "UNIX-STREAM:[%lu,@\"%s\"]", inode_of(fd), a.sun_path + 1);
	CHECK_STR(fdpath(2, fd), want);
	close(fd);
}

static void test_netlink_at_yy_is_protocol_and_port(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(a);
	char want[64];

	CHECK(bind(fd, (struct sockaddr *)&a, sizeof(a)) == 0);
	CHECK(getsockname(fd, (struct sockaddr *)&a, &len) == 0);
	snprintf(want, sizeof(want), "NETLINK:[ROUTE:%u]", a.nl_pid);
	CHECK_STR(fdpath(2, fd), want);
	close(fd);
}

static void test_char_device_at_yy_adds_major_minor(void)
{
	int fd = open("/dev/null", O_RDONLY);

	CHECK_STR(fdpath(1, fd), "/dev/null");
	CHECK_STR(fdpath(2, fd), "/dev/null|<char 1:3>");
	close(fd);
}

/* --decode-fds=dev: devices only; --decode-fds=socket: not a device. */
static void test_decode_fds_kinds_limit_the_text(void)
{
	int fd = open("/dev/null", O_RDONLY);
	int reg = open("/proc/self/exe", O_RDONLY);

	CHECK_STR(fdpath_kinds(1, TR_FD_DEV, fd), "/dev/null|<char 1:3>");
	CHECK_STR(fdpath_kinds(1, TR_FD_DEV, reg), "(error)");
	CHECK_STR(fdpath_kinds(1, TR_FD_SOCKET, fd), "(error)");
	CHECK_STR(fdpath_kinds(1, TR_FD_DEV, AT_FDCWD), "(error)");
	close(reg);
	close(fd);
}

static void test_at_fdcwd_is_working_directory(void)
{
	char cwd[PATH_MAX];

	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_STR(fdpath(1, AT_FDCWD), cwd);
}

static void test_closed_descriptor_is_an_error(void)
{
	struct tr_fdpath *p = tr_fdpath_new(2);
	char buf[64];

	CHECK_INT(tr_fd_path(p, getpid(), 1000000, buf, sizeof(buf)), -1);
	CHECK_INT(tr_fd_path(p, getpid(), -5, buf, sizeof(buf)), -1);
	tr_fdpath_free(p);
}

static void test_long_text_is_truncated_to_the_buffer(void)
{
	struct tr_fdpath *p = tr_fdpath_new(2);
	int fd = open("/dev/null", O_RDONLY);
	char buf[8];

	CHECK_INT(tr_fd_path(p, getpid(), fd, buf, sizeof(buf)), 7);
	CHECK_STR(buf, "/dev/nu");
	close(fd);
	tr_fdpath_free(p);
}

/*
 * Under strace: the same program, started with TK_FDPATH_CHILD set, opens
 * one descriptor of each kind, fstat()s each (so strace prints it with
 * -yy) and writes "FD TEXT" lines of its own tr_fd_path to stdout.
 */
static void child_open_and_report(void)
{
	struct sockaddr_in l, c;
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	int fds[16], n = 0, sv[2], p[2];

	fds[n++] = open("/dev/null", O_RDONLY);
	if (pipe(p) == 0)
		fds[n++] = p[0];
	int lfd = tcp_listener(&l);
	fds[n++] = lfd;
	fds[n++] = tcp_client(&l, &c);
	fds[n++] = accept(lfd, NULL, NULL);
	fds[n++] = socket(AF_INET, SOCK_DGRAM, 0);
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0)
		fds[n++] = sv[0];
	snprintf(un.sun_path, sizeof(un.sun_path), "/tmp/tk-fdpath-c%d.sock", (int)getpid());
	fds[n] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (!bind(fds[n], (struct sockaddr *)&un, sizeof(un)) && !listen(fds[n], 1))
		n++;

	struct tr_fdpath *tp = tr_fdpath_new(2);
	for (int i = 0; i < n; i++) {
		struct stat st;
		char buf[512];
		fstat(fds[i], &st);
		int len = tr_fd_path(tp, getpid(), fds[i], buf, sizeof(buf));
		/* the NUL ending a device's name is not printed */
		if (len >= 0)
			printf("%d %s%s\n", fds[i], buf, (int)strlen(buf) < len ? buf + strlen(buf) + 1 : "");
	}
	tr_fdpath_free(tp);
	unlink(un.sun_path);
	fflush(stdout);
	_exit(0);
}

__attribute__((constructor)) static void maybe_child(void)
{
	if (getenv("TK_FDPATH_CHILD"))
		child_open_and_report();
}

/* strace's text for each fd (its last fstat wins: fds are reused). */
static void strace_texts(const char *log, char texts[][512], int nfd)
{
	FILE *f = fopen(log, "r");
	char line[1024];

	while (f && fgets(line, sizeof(line), f)) {
		const char *open = strchr(line, '(');
		int fd, at = 0;
		if (!open || sscanf(open, "(%d<%n", &fd, &at) != 1 || !at || fd < 0 || fd >= nfd)
			continue;
		const char *end = strstr(open, ">, \"\", ");
		if (!end)
			end = strstr(open, ">, {");
		if (end)
			snprintf(texts[fd], sizeof(texts[fd]), "%.*s", (int)(end - open - at), open + at);
	}
	if (f)
		fclose(f);
}

/* Each "FD TEXT" line of ours, against strace's text for FD. */
static void compare_lines(const char *ours, char texts[][512], int nfd)
{
	FILE *f = fopen(ours, "r");
	char line[1024];
	int lines = 0;

	while (f && fgets(line, sizeof(line), f)) {
		int fd, at = 0;
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%d %n", &fd, &at) != 1 || fd < 0 || fd >= nfd)
			continue;
		CHECK_STR(line + at, texts[fd]);
		lines++;
	}
	if (f)
		fclose(f);
	CHECK(lines >= 8);
}

static void test_yy_texts_match_strace_yy(void)
{
	const char *strace = "/usr/bin/strace";
	char log[] = "/tmp/tk-fdpath-log-XXXXXX", ours[] = "/tmp/tk-fdpath-out-XXXXXX";
	char cmd[PATH_MAX * 2 + 256], self[PATH_MAX];
	static char texts[64][512];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (access(strace, X_OK) != 0 || n < 0) {
		printf("%s: skipped (no strace here)\n", tk_current);
		return;
	}
	self[n] = '\0';
	close(mkstemp(log));
	close(mkstemp(ours));
	snprintf(cmd, sizeof(cmd),
		 "TK_FDPATH_CHILD=1 %s -yy -e trace=fstat,newfstatat -e signal=none -o %s %s >%s 2>/dev/null",
		 strace, log, self, ours);
	CHECK(system(cmd) == 0);
	strace_texts(log, texts, 64);
	compare_lines(ours, texts, 64);
	unlink(log);
	unlink(ours);
}

TK_MAIN(TK_CASE(test_regular_file_is_its_path),
	TK_CASE(test_deleted_file_ends_in_deleted_suffix),
	TK_CASE(test_decode_fds_kinds_limit_the_text),
	TK_CASE(test_name_ending_in_deleted_is_not_deleted),
	TK_CASE(test_pipe_is_pipe_and_inode),
	TK_CASE(test_socket_at_y_is_socket_and_inode),
	TK_CASE(test_tcp_listener_at_yy_is_local_address),
	TK_CASE(test_tcp_connection_at_yy_is_local_then_peer),
	TK_CASE(test_tcp6_listener_at_yy_brackets_the_address),
	TK_CASE(test_unbound_udp_at_yy_is_protocol_and_inode),
	TK_CASE(test_connected_udp_at_yy_is_local_then_peer),
	TK_CASE(test_unix_stream_pair_at_yy_is_inode_then_peer),
	TK_CASE(test_unix_datagram_pair_at_yy_is_plain_unix),
	TK_CASE(test_unix_listener_at_yy_is_inode_and_quoted_path),
	TK_CASE(test_abstract_unix_name_at_yy_starts_with_at),
	TK_CASE(test_netlink_at_yy_is_protocol_and_port),
	TK_CASE(test_char_device_at_yy_adds_major_minor),
	TK_CASE(test_at_fdcwd_is_working_directory),
	TK_CASE(test_closed_descriptor_is_an_error),
	TK_CASE(test_long_text_is_truncated_to_the_buffer),
	TK_CASE(test_yy_texts_match_strace_yy))

/* System V shared memory, semaphores and message queues; POSIX mqueues. */
#include <fcntl.h>
#include <mqueue.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>

#include "decode_harness.h"
#include "tk_test.h"

static void test_shmget_flags_and_mode(void)
{
	struct dh d;
	dh_init(&d, SYS_shmget, IPC_PRIVATE, 4096, IPC_CREAT | 0600, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = 0");
	dh_free(&d);
	dh_init(&d, SYS_shmget, 0x1234, 4096, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, -2), "shmget(0x1234, 4096, 000) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
}

static void test_shmat_returns_hex_and_shmdt(void)
{
	struct dh d;
	dh_init(&d, SYS_shmat, 0, 0, SHM_RDONLY, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0x7eff6722e000), "shmat(0, NULL, SHM_RDONLY) = 0x7eff6722e000");
	dh_free(&d);
	dh_init(&d, SYS_shmdt, 0x7eff6722e000, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "shmdt(0x7eff6722e000) = 0");
	dh_free(&d);
}

static void test_shmctl_stat_and_rmid(void)
{
	struct dh d;
	struct shmid_ds ds;
	memset(&ds, 0, sizeof(ds));
	ds.shm_perm.mode = 0600;
	ds.shm_segsz = 4096;
	ds.shm_cpid = ds.shm_lpid = 13042;
	ds.shm_nattch = 1;
	ds.shm_atime = ds.shm_ctime = 1796032898;
	dh_init(&d, SYS_shmctl, 0, IPC_STAT, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ds, sizeof(ds));
	CHECK_STR(dh_run(&d, 0), "shmctl(0, IPC_STAT, {shm_perm={uid=0, gid=0, mode=0600, key=0, cuid=0, "
		  "cgid=0}, shm_segsz=4096, shm_cpid=13042, shm_lpid=13042, shm_nattch=1, "
		  "shm_atime=1796032898, shm_dtime=0, shm_ctime=1796032898}) = 0");
	dh_free(&d);
	dh_init(&d, SYS_shmctl, 0, IPC_RMID, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "shmctl(0, IPC_RMID, NULL) = 0");
	dh_free(&d);
}

static void test_semget_semtimedop_semctl(void)
{
	struct dh d;
	dh_init(&d, SYS_semget, IPC_PRIVATE, 2, IPC_CREAT | IPC_EXCL | 0644, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "semget(IPC_PRIVATE, 2, IPC_CREAT|IPC_EXCL|0644) = 0");
	dh_free(&d);
	dh_init(&d, SYS_semget, 0x1234, 1, 0600, 0, 0, 0);
	CHECK_STR(dh_run(&d, -2), "semget(0x1234, 1, 0600) = -1 ENOENT (No such file or directory)");
	dh_free(&d);

	struct sembuf sb[2] = { { 0, 1, SEM_UNDO }, { 1, 0, IPC_NOWAIT } };
	struct timespec ts = { 0, 1000 };
	dh_init(&d, SYS_semtimedop, 0, 0x1000, 2, 0x2000, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, sb, sizeof(sb));
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &ts, sizeof(ts));
	CHECK_STR(dh_run(&d, 0), "semtimedop(0, [{sem_num=0, sem_op=1, sem_flg=SEM_UNDO}, {sem_num=1, "
		  "sem_op=0, sem_flg=IPC_NOWAIT}], 2, {tv_sec=0, tv_nsec=1000}) = 0");
	dh_free(&d);

	dh_init(&d, SYS_semctl, 0, 0, GETVAL, 0, 0, 0);
	CHECK_STR(dh_run(&d, 2), "semctl(0, 0, GETVAL, NULL) = 2");
	dh_free(&d);
	dh_init(&d, SYS_semctl, 99, 0, IPC_STAT, 0x1000, 0, 0);
	CHECK_STR(dh_run(&d, -22), "semctl(99, 0, IPC_STAT, 0x1000) = -1 EINVAL (Invalid argument)");
	dh_free(&d);
}

static void test_msgsnd_and_msgrcv(void)
{
	struct dh d;
	struct { long mtype; char mtext[16]; } m = { 1, "hello" };
	dh_init(&d, SYS_msgsnd, 0, 0x1000, 6, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &m, sizeof(long) + 6);
	CHECK_STR(dh_run(&d, 0), "msgsnd(0, {mtype=1, mtext=\"hello\\0\"}, 6, 0) = 0");
	dh_free(&d);
	dh_init(&d, SYS_msgrcv, 0, 0x1000, 16, 0, IPC_NOWAIT, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &m, sizeof(m));
	CHECK_STR(dh_run(&d, 6), "msgrcv(0, {mtype=1, mtext=\"hello\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"}, "
		  "16, 0, IPC_NOWAIT) = 6");
	dh_free(&d);
	dh_init(&d, SYS_msgrcv, 0, 0x1000, 16, 0, IPC_NOWAIT, 0);
	CHECK_STR(dh_run(&d, -42), "msgrcv(0, 0x1000, 16, 0, IPC_NOWAIT) = -1 ENOMSG (No message of "
		  "desired type)");
	dh_free(&d);
}

static void test_msgget_and_msgctl_stat(void)
{
	struct dh d;
	dh_init(&d, SYS_msgget, IPC_PRIVATE, IPC_CREAT | 0600, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "msgget(IPC_PRIVATE, IPC_CREAT|0600) = 0");
	dh_free(&d);
	struct msqid_ds ds;
	memset(&ds, 0, sizeof(ds));
	ds.msg_perm.mode = 0600;
	ds.msg_stime = ds.msg_rtime = ds.msg_ctime = 1796032898;
	ds.msg_qbytes = 16384;
	ds.msg_lspid = ds.msg_lrpid = 13042;
	dh_init(&d, SYS_msgctl, 0, IPC_STAT, 0x1000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, &ds, sizeof(ds));
	CHECK_STR(dh_run(&d, 0), "msgctl(0, IPC_STAT, {msg_perm={uid=0, gid=0, mode=0600, key=0, cuid=0, "
		  "cgid=0}, msg_stime=1796032898, msg_rtime=1796032898, msg_ctime=1796032898, "
		  "msg_qnum=0, msg_qbytes=16384, msg_lspid=13042, msg_lrpid=13042}) = 0");
	dh_free(&d);
}

static void test_mq_open_create_and_plain(void)
{
	struct dh d;
	struct mq_attr at = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	dh_init(&d, SYS_mq_open, 0x1000, O_RDWR | O_CREAT, 0600, 0x2000, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "tkq");
	dh_mem(&d, SC_AT_ENTRY, 0x2000, &at, sizeof(at));
	CHECK_STR(dh_run(&d, 3), "mq_open(\"tkq\", O_RDWR|O_CREAT, 0600, {mq_flags=0, mq_maxmsg=4, "
		  "mq_msgsize=64, mq_curmsgs=0}) = 3");
	dh_free(&d);
	dh_init(&d, SYS_mq_open, 0x1000, O_RDONLY, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "nonexist");
	CHECK_STR(dh_run(&d, -2), "mq_open(\"nonexist\", O_RDONLY) = -1 ENOENT (No such file or directory)");
	dh_free(&d);
}

static void test_mq_send_receive_getsetattr(void)
{
	struct dh d;
	dh_init(&d, SYS_mq_timedsend, 3, 0x1000, 3, 1, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, "msg", 3);
	CHECK_STR(dh_run(&d, 0), "mq_timedsend(3, \"msg\", 3, 1, NULL) = 0");
	dh_free(&d);

	unsigned prio = 1;
	dh_init(&d, SYS_mq_timedreceive, 3, 0x1000, 64, 0x2000, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x1000, "msg", 3);
	dh_mem(&d, SC_AT_EXIT, 0x2000, &prio, sizeof(prio));
	CHECK_STR(dh_run(&d, 3), "mq_timedreceive(3, \"msg\", 64, [1], NULL) = 3");
	dh_free(&d);

	struct mq_attr at = { .mq_maxmsg = 4, .mq_msgsize = 64 };
	dh_init(&d, SYS_mq_getsetattr, 3, 0, 0x2000, 0, 0, 0);
	dh_mem(&d, SC_AT_EXIT, 0x2000, &at, sizeof(at));
	CHECK_STR(dh_run(&d, 0), "mq_getsetattr(3, NULL, {mq_flags=0, mq_maxmsg=4, mq_msgsize=64, "
		  "mq_curmsgs=0}) = 0");
	dh_free(&d);
}

static void test_mq_notify_and_unlink(void)
{
	struct dh d;
	struct sigevent sev;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGUSR1;
	dh_init(&d, SYS_mq_notify, 3, 0x1000, 0, 0, 0, 0);
	dh_mem(&d, SC_AT_ENTRY, 0x1000, &sev, sizeof(sev));
	CHECK_STR(dh_run(&d, 0), "mq_notify(3, {sigev_signo=SIGUSR1, sigev_notify=SIGEV_SIGNAL}) = 0");
	dh_free(&d);
	dh_init(&d, SYS_mq_notify, 3, 0, 0, 0, 0, 0);
	CHECK_STR(dh_run(&d, 0), "mq_notify(3, NULL) = 0");
	dh_free(&d);
	dh_init(&d, SYS_mq_unlink, 0x1000, 0, 0, 0, 0, 0);
	dh_mem_str(&d, SC_AT_ENTRY, 0x1000, "tkq");
	CHECK_STR(dh_run(&d, 0), "mq_unlink(\"tkq\") = 0");
	dh_free(&d);
}

TK_MAIN(TK_CASE(test_shmget_flags_and_mode),
	TK_CASE(test_shmat_returns_hex_and_shmdt),
	TK_CASE(test_shmctl_stat_and_rmid),
	TK_CASE(test_semget_semtimedop_semctl),
	TK_CASE(test_msgsnd_and_msgrcv),
	TK_CASE(test_msgget_and_msgctl_stat),
	TK_CASE(test_mq_open_create_and_plain),
	TK_CASE(test_mq_send_receive_getsetattr),
	TK_CASE(test_mq_notify_and_unlink))

/*
 * System V IPC (shared memory, semaphores, message queues) and POSIX
 * message queues.  Keys print as IPC_PRIVATE or hex, creation flags as
 * IPC_* then the octal mode, control commands as names with their struct.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <mqueue.h>
#include <signal.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include "print_net.h"
#include "print_signal.h"

#define IPC_64_FLAG 0x100
#define SHM_HUGE_BITS (0x3fu << 26)

static void p_key(struct sc_call *c, uint64_t key)
{
	p_xval(c, &xlat_ipc_private, (unsigned)key, NULL);
}

/* strace's printflags with no default: nothing at all for 0. Returns whether it printed. */
static bool p_flags_nonzero(struct sc_call *c, const struct xlat *x, unsigned v)
{
	if (!v)
		return false;
	p_flags(c, x, v, NULL);
	return true;
}

/* IPC_CREAT|IPC_EXCL|0644 */
static void p_ipc_flags(struct sc_call *c, const struct xlat *x, unsigned flags)
{
	if (p_flags_nonzero(c, x, flags & ~0777u))
		out(c, "|");
	out(c, "%#03o", flags & 0777u);
}

/* uid and gid fields: -1 stays -1, the rest unsigned. */
static void p_id(struct sc_call *c, const char *name, unsigned id)
{
	out(c, id == (unsigned)-1 ? "%s=-1" : "%s=%u", name, id);
}

/* The command, with strace's IPC_64| prefix when the caller set it. */
static void p_ctl_cmd(struct sc_call *c, const struct xlat *x, unsigned cmd, const char *dflt)
{
	if (cmd & IPC_64_FLAG)
		out(c, "IPC_64|");
	p_xval(c, x, cmd & ~IPC_64_FLAG, dflt);
}

static void p_ipc_perm(struct sc_call *c, const struct ipc_perm *p, unsigned cmd)
{
	out(c, "{");
	p_id(c, "uid", p->uid);
	out(c, ", ");
	p_id(c, "gid", p->gid);
	out(c, ", mode=%#03o", p->mode);
	if (cmd != IPC_SET) {
		out(c, ", key=%u, ", (unsigned)p->__key);
		p_id(c, "cuid", p->cuid);
		out(c, ", ");
		p_id(c, "cgid", p->cgid);
	}
	out(c, "}");
}

/* ---- shared memory ------------------------------------------------------ */

SC_DECODER(shmget)
{
	unsigned flags = (unsigned)c->args[2] & ~0777u;
	unsigned huge = flags & SHM_HUGE_BITS;

	p_key(c, c->args[0]);
	out(c, ", %" PRIu64 ", ", c->args[1]);
	flags &= ~SHM_HUGE_BITS;
	if (flags || !huge)
		p_flags_nonzero(c, &xlat_shm_resource_flags, flags);
	if (huge) {
		/* The shift by name, by number under -X raw, both under -X verbose. */
		out(c, "%s%u<<", flags ? "|" : "", huge >> 26);
		out(c, xlat_style == XLAT_STYLE_ABBREV ? "SHM_HUGE_SHIFT" :
		       xlat_style == XLAT_STYLE_RAW ? "26" : "26 /* SHM_HUGE_SHIFT */");
	}
	if (flags || huge)
		out(c, "|");
	out(c, "%#03o", (unsigned)c->args[2] & 0777u);
	return SC_DONE;
}

SC_DECODER(shmat)
{
	out(c, "%d, ", (int)c->args[0]);
	p_addr(c, c->args[1]);
	p_sep(c);
	p_flags(c, &xlat_shm_flags, (unsigned)c->args[2], "SHM_???");
	c->rv = SC_RV_HEX;
	return SC_DONE;
}

SC_DECODER(shmdt)
{
	p_addr(c, c->args[0]);
	return SC_DONE;
}

static void p_shmid_ds(struct sc_call *c, uint64_t addr, unsigned cmd)
{
	struct shmid_ds ds;
	if (p_fetch(c, addr, &ds, sizeof(ds)) < 0)
		return;
	out(c, "{shm_perm=");
	p_ipc_perm(c, &ds.shm_perm, cmd);
	if (cmd != IPC_SET)
		out(c, ", shm_segsz=%zu, shm_cpid=%d, shm_lpid=%d, shm_nattch=%lu, shm_atime=%lld, "
		    "shm_dtime=%lld, shm_ctime=%lld", ds.shm_segsz, ds.shm_cpid, ds.shm_lpid,
		    (unsigned long)ds.shm_nattch, (long long)ds.shm_atime, (long long)ds.shm_dtime,
		    (long long)ds.shm_ctime);
	out(c, "}");
}

/*
 * The shared shape of shmctl, msgctl and semctl: IPC_SET prints its struct
 * at entry, the STAT commands at exit, everything else the address.
 */
struct ctl_desc {
	const struct xlat *cmds;
	const char *dflt;
	unsigned stat, stat_any;	/* SHM_STAT, SHM_STAT_ANY and kin */
	void (*print)(struct sc_call *c, uint64_t addr, unsigned cmd);
	unsigned info;		/* SHM_INFO and kin; IPC_INFO goes to .print_info too */
	void (*print_info)(struct sc_call *c, uint64_t addr, unsigned cmd);
};

static bool is_stat(const struct ctl_desc *d, unsigned cmd)
{
	return cmd == IPC_STAT || cmd == d->stat || cmd == d->stat_any;
}

static int decode_ctl(struct sc_call *c, const struct ctl_desc *d, uint64_t raw_cmd,
		      uint64_t addr)
{
	unsigned cmd = (unsigned)raw_cmd & ~IPC_64_FLAG;
	bool info = cmd == IPC_INFO || cmd == d->info;
	if (!c->entering) {
		if (sc_failed(c))
			p_addr(c, addr);
		else if (info)
			d->print_info(c, addr, cmd);
		else
			d->print(c, addr, cmd);
		return 0;
	}
	p_ctl_cmd(c, d->cmds, (unsigned)raw_cmd, d->dflt);
	p_sep(c);
	if (cmd == IPC_SET) {
		d->print(c, addr, cmd);
		return SC_DONE;
	}
	if (is_stat(d, cmd) || info)
		return 0;
	p_addr(c, addr);
	return SC_DONE;
}

/* IPC_INFO fills a struct shminfo, SHM_INFO a struct shm_info. */
static void p_shm_info(struct sc_call *c, uint64_t addr, unsigned cmd)
{
	union {
		struct shminfo i;
		struct shm_info s;
	} u;
	if (p_fetch(c, addr, &u, cmd == IPC_INFO ? sizeof(u.i) : sizeof(u.s)) < 0)
		return;
	if (cmd == IPC_INFO)
		out(c, "{shmmax=%lu, shmmin=%lu, shmmni=%lu, shmseg=%lu, shmall=%lu}", u.i.shmmax,
		    u.i.shmmin, u.i.shmmni, u.i.shmseg, u.i.shmall);
	else
		out(c, "{used_ids=%d, shm_tot=%lu, shm_rss=%lu, shm_swp=%lu, swap_attempts=%lu, "
		    "swap_successes=%lu}", u.s.used_ids, u.s.shm_tot, u.s.shm_rss, u.s.shm_swp,
		    u.s.swap_attempts, u.s.swap_successes);
}

static const struct ctl_desc shm_ctl = { &xlat_shmctl_cmds, "SHM_???", SHM_STAT, SHM_STAT_ANY,
					 p_shmid_ds, SHM_INFO, p_shm_info };

SC_DECODER(shmctl, MEM_STRUCT_IN(2, struct shmid_ds), MEM_STRUCT_OUT(2, struct shmid_ds))
{
	if (c->entering)
		out(c, "%d, ", (int)c->args[0]);
	return decode_ctl(c, &shm_ctl, c->args[1], c->args[2]);
}

/* ---- semaphores --------------------------------------------------------- */

SC_DECODER(semget)
{
	p_key(c, c->args[0]);
	out(c, ", %d, ", (int)c->args[1]);
	p_ipc_flags(c, &xlat_resource_flags, (unsigned)c->args[2]);
	return SC_DONE;
}

static bool p_sembuf(struct sc_call *c, const void *elem, size_t size, void *data)
{
	struct sembuf sb;
	(void)size;
	(void)data;
	memcpy(&sb, elem, sizeof(sb));
	out(c, "{sem_num=%u, sem_op=%d, sem_flg=", sb.sem_num, sb.sem_op);
	p_flags(c, &xlat_semop_flags, (unsigned short)sb.sem_flg, "SEM_???");
	out(c, "}");
	return true;
}

static void p_sops(struct sc_call *c)
{
	out(c, "%d, ", (int)c->args[0]);
	pn_array(c, c->args[1], (unsigned)c->args[2], sizeof(struct sembuf), p_sembuf, NULL);
	out(c, ", %u", (unsigned)c->args[2]);
}

SC_DECODER(semop, MEM_ARRAY_IN(1, struct sembuf, 2))
{
	p_sops(c);
	return SC_DONE;
}

SC_DECODER(semtimedop, MEM_ARRAY_IN(1, struct sembuf, 2), MEM_STRUCT_IN(3, struct timespec))
{
	p_sops(c);
	p_sep(c);
	p_timespec(c, c->args[3]);
	return SC_DONE;
}

static void p_semid_ds(struct sc_call *c, uint64_t addr, unsigned cmd)
{
	struct semid_ds ds;
	if (p_fetch(c, addr, &ds, sizeof(ds)) < 0)
		return;
	out(c, "{sem_perm=");
	p_ipc_perm(c, &ds.sem_perm, cmd);
	if (cmd != IPC_SET)
		out(c, ", sem_otime=%lld, sem_ctime=%lld, sem_nsems=%lu", (long long)ds.sem_otime,
		    (long long)ds.sem_ctime, (unsigned long)ds.sem_nsems);
	out(c, "}");
}

/* IPC_INFO and SEM_INFO both fill a struct seminfo. */
static void p_sem_info(struct sc_call *c, uint64_t addr, unsigned cmd)
{
	struct seminfo i;
	(void)cmd;
	if (p_fetch(c, addr, &i, sizeof(i)) < 0)
		return;
	out(c, "{semmap=%d, semmni=%d, semmns=%d, semmnu=%d, semmsl=%d, semopm=%d, semume=%d, "
	    "semusz=%d, semvmx=%d, semaem=%d}", i.semmap, i.semmni, i.semmns, i.semmnu, i.semmsl,
	    i.semopm, i.semume, i.semusz, i.semvmx, i.semaem);
}

static const struct ctl_desc sem_ctl = { &xlat_semctl_cmds, "SEM_???", SEM_STAT, SEM_STAT_ANY,
					 p_semid_ds, SEM_INFO, p_sem_info };

SC_DECODER(semctl, MEM_STRUCT_IN(3, struct semid_ds), MEM_STRUCT_OUT(3, struct semid_ds))
{
	if (c->entering)
		out(c, "%d, %d, ", (int)c->args[0], (int)c->args[1]);
	return decode_ctl(c, &sem_ctl, c->args[2], c->args[3]);
}

/* ---- message queues ------------------------------------------------------ */

SC_DECODER(msgget)
{
	p_key(c, c->args[0]);
	p_sep(c);
	p_ipc_flags(c, &xlat_resource_flags, (unsigned)c->args[1]);
	return SC_DONE;
}

/* mtype, then mtext: as much of it as -s shows. */
static size_t msgbuf_len(const struct sc_call *c)
{
	size_t strsize = c->fmt ? c->fmt->strsize : 32;
	return sizeof(long) + (c->args[2] < strsize ? (size_t)c->args[2] : strsize);
}

#define MEM_MSGBUF(when_) { .arg = 1, .kind = SC_MEM_BUF, .when = (when_), .len_src = SC_LEN_FN, \
			    .len_fn = msgbuf_len, .size = sizeof(long) + 1024 * 1024 }

static void p_msgbuf(struct sc_call *c, uint64_t addr, uint64_t count)
{
	long mtype;
	if (p_fetch(c, addr, &mtype, sizeof(mtype)) < 0)
		return;
	out(c, "{mtype=%ld, mtext=", mtype);
	p_buf(c, addr + sizeof(mtype), (int64_t)count);
	out(c, "}");
}

SC_DECODER(msgsnd, MEM_MSGBUF(SC_AT_ENTRY))
{
	out(c, "%d, ", (int)c->args[0]);
	p_msgbuf(c, c->args[1], c->args[2]);
	out(c, ", %" PRIu64 ", ", c->args[2]);
	p_flags(c, &xlat_ipc_msg_flags, (unsigned)c->args[3], "MSG_???");
	return SC_DONE;
}

SC_DECODER(msgrcv, MEM_MSGBUF(SC_AT_EXIT))
{
	if (c->entering) {
		out(c, "%d, ", (int)c->args[0]);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[1]);
	else
		p_msgbuf(c, c->args[1], c->args[2]);
	out(c, ", %" PRIu64 ", %" PRId64 ", ", c->args[2], (int64_t)c->args[3]);
	p_flags(c, &xlat_ipc_msg_flags, (unsigned)c->args[4], "MSG_???");
	return 0;
}

static void p_msqid_ds(struct sc_call *c, uint64_t addr, unsigned cmd)
{
	struct msqid_ds ds;
	if (p_fetch(c, addr, &ds, sizeof(ds)) < 0)
		return;
	out(c, "{msg_perm=");
	p_ipc_perm(c, &ds.msg_perm, cmd);
	if (cmd != IPC_SET)
		out(c, ", msg_stime=%lld, msg_rtime=%lld, msg_ctime=%lld, msg_qnum=%lu",
		    (long long)ds.msg_stime, (long long)ds.msg_rtime, (long long)ds.msg_ctime,
		    (unsigned long)ds.msg_qnum);
	out(c, ", msg_qbytes=%lu", (unsigned long)ds.msg_qbytes);
	if (cmd != IPC_SET)
		out(c, ", msg_lspid=%d, msg_lrpid=%d", ds.msg_lspid, ds.msg_lrpid);
	out(c, "}");
}

/* IPC_INFO and MSG_INFO both fill a struct msginfo. */
static void p_msg_info(struct sc_call *c, uint64_t addr, unsigned cmd)
{
	struct msginfo i;
	(void)cmd;
	if (p_fetch(c, addr, &i, sizeof(i)) < 0)
		return;
	out(c, "{msgpool=%d, msgmap=%d, msgmax=%d, msgmnb=%d, msgmni=%d, msgssz=%d, msgtql=%d, "
	    "msgseg=%u}", i.msgpool, i.msgmap, i.msgmax, i.msgmnb, i.msgmni, i.msgssz, i.msgtql,
	    (unsigned)i.msgseg);
}

static const struct ctl_desc msg_ctl = { &xlat_msgctl_cmds, "MSG_???", MSG_STAT, MSG_STAT_ANY,
					 p_msqid_ds, MSG_INFO, p_msg_info };

SC_DECODER(msgctl, MEM_STRUCT_IN(2, struct msqid_ds), MEM_STRUCT_OUT(2, struct msqid_ds))
{
	if (c->entering)
		out(c, "%d, ", (int)c->args[0]);
	return decode_ctl(c, &msg_ctl, c->args[1], c->args[2]);
}

/* ---- POSIX message queues ------------------------------------------------ */

/* mq_flags decoded (mq_getsetattr) or in hex (mq_open, where the kernel ignores it). */
static void p_mq_attr(struct sc_call *c, uint64_t addr, bool decode_flags)
{
	struct mq_attr a;
	if (p_fetch(c, addr, &a, sizeof(a)) < 0)
		return;
	out(c, "{mq_flags=");
	if (decode_flags)
		p_flags(c, &xlat_mq_attr_flags, (uint64_t)a.mq_flags, "O_???");
	else
		out(c, a.mq_flags ? "%#lx" : "%ld", (long)a.mq_flags);
	out(c, ", mq_maxmsg=%ld, mq_msgsize=%ld, mq_curmsgs=%ld}", (long)a.mq_maxmsg,
	    (long)a.mq_msgsize, (long)a.mq_curmsgs);
}

SC_DECODER(mq_open, MEM_PATH(0), MEM_STRUCT_IN(3, struct mq_attr))
{
	uint64_t flags = (unsigned)c->args[1];	/* an int */
	p_path(c, c->args[0]);
	p_sep(c);
	p_xval(c, &xlat_open_access_modes, flags & O_ACCMODE, NULL);
	if (flags & ~(uint64_t)O_ACCMODE) {
		out(c, "|");
		p_flags(c, &xlat_open_flags, flags & ~(uint64_t)O_ACCMODE, NULL);
	}
	if (flags & O_CREAT) {
		out(c, ", %#03o, ", (unsigned)c->args[2] & 0xffffu);	/* umode_t */
		p_mq_attr(c, c->args[3], false);
	}
	c->rv = SC_RV_FD;
	return SC_DONE;
}

SC_DECODER(mq_unlink, MEM_PATH(0))
{
	p_path(c, c->args[0]);
	return SC_DONE;
}

SC_DECODER(mq_timedsend, MEM_BUF_IN(1, 2), MEM_STRUCT_IN(4, struct timespec))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_buf(c, c->args[1], (int64_t)c->args[2]);
	out(c, ", %" PRIu64 ", %u, ", c->args[2], (unsigned)c->args[3]);
	p_timespec(c, c->args[4]);
	return SC_DONE;
}

SC_DECODER(mq_timedreceive, MEM_BUF_OUT_RET(1), MEM_BYTES_OUT(3, sizeof(unsigned)),
	   MEM_STRUCT_IN(4, struct timespec))
{
	unsigned prio;
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_buf_or_addr(c, c->args[1], c->ret);
	out(c, ", %" PRIu64 ", ", c->args[2]);
	if (sc_failed(c))
		p_addr(c, c->args[3]);
	else if (p_fetch(c, c->args[3], &prio, sizeof(prio)) == 0)
		out(c, "[%u]", prio);
	p_sep(c);
	/* The kernel read the timeout at entry, so it prints even on failure. */
	p_timespec(c, c->args[4]);
	return 0;
}

SC_DECODER(mq_notify, MEM_BYTES_IN(1, SC_SIGEVENT_SIZE))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_sigevent(c, c->args[1]);
	return SC_DONE;
}

SC_DECODER(mq_getsetattr, MEM_STRUCT_IN(1, struct mq_attr), MEM_STRUCT_OUT(2, struct mq_attr))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		p_mq_attr(c, c->args[1], true);
		p_sep(c);
		return 0;
	}
	if (sc_failed(c))
		p_addr(c, c->args[2]);
	else
		p_mq_attr(c, c->args[2], true);
	return 0;
}

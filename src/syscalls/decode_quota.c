/*
 * quotactl and quotactl_fd: the command as QCMD(Q_GETQUOTA, USRQUOTA), then
 * what that command takes: a quota id, a path, flags, or one of the quota
 * structs (generic or XFS), read at entry for the SET commands and at exit
 * for the GET ones.
 */
#include <inttypes.h>
#include <linux/dqblk_xfs.h>
#include <linux/quota.h>
#include <string.h>

#include "decoder.h"

#define QCMD_SHIFT 8	/* SUBCMDSHIFT */
#define QTYPE_MASK 0xffu	/* SUBCMDMASK */

/* What a command's id and addr arguments are. */
enum q_shape {
	QS_ID_ADDR,	/* unknown command: the id and the address */
	QS_NONE,	/* neither (Q_SYNC, Q_QUOTAOFF, Q_XQUOTASYNC) */
	QS_QUOTAON,	/* a format id and a path */
	QS_DQBLK,	/* id, struct if_dqblk */
	QS_NEXTDQBLK,	/* id, struct if_nextdqblk */
	QS_XDQ,		/* id, struct fs_disk_quota */
	QS_DQINFO,	/* struct if_dqinfo */
	QS_FMT,		/* [format] */
	QS_XSTAT,	/* struct fs_quota_stat */
	QS_XSTATV,	/* struct fs_quota_statv */
	QS_XFLAGS,	/* [FS_QUOTA_* flags] */
	QS_XTYPES,	/* [FS_*_QUOTA flags] */
};

struct q_cmd {
	unsigned cmd;
	unsigned char shape;
	bool out;	/* the kernel writes the struct: printed at exit */
	unsigned size;
};

static const struct q_cmd q_cmds[] = {
	{ Q_SYNC, QS_NONE, false, 0 },
	{ Q_QUOTAOFF, QS_NONE, false, 0 },
	{ Q_XQUOTASYNC, QS_NONE, false, 0 },
	{ Q_QUOTAON, QS_QUOTAON, false, 0 },
	{ Q_GETQUOTA, QS_DQBLK, true, sizeof(struct if_dqblk) },
	{ Q_SETQUOTA, QS_DQBLK, false, sizeof(struct if_dqblk) },
	{ Q_GETNEXTQUOTA, QS_NEXTDQBLK, true, sizeof(struct if_nextdqblk) },
	{ Q_XGETQUOTA, QS_XDQ, true, sizeof(struct fs_disk_quota) },
	{ Q_XGETNEXTQUOTA, QS_XDQ, true, sizeof(struct fs_disk_quota) },
	{ Q_XSETQLIM, QS_XDQ, false, sizeof(struct fs_disk_quota) },
	{ Q_GETINFO, QS_DQINFO, true, sizeof(struct if_dqinfo) },
	{ Q_SETINFO, QS_DQINFO, false, sizeof(struct if_dqinfo) },
	{ Q_GETFMT, QS_FMT, true, sizeof(uint32_t) },
	{ Q_XGETQSTAT, QS_XSTAT, true, sizeof(struct fs_quota_stat) },
	{ Q_XGETQSTATV, QS_XSTATV, true, sizeof(struct fs_quota_statv) },
	{ Q_XQUOTAON, QS_XFLAGS, false, sizeof(uint32_t) },
	{ Q_XQUOTAOFF, QS_XFLAGS, false, sizeof(uint32_t) },
	{ Q_XQUOTARM, QS_XTYPES, false, sizeof(uint32_t) },
};

static const struct q_cmd *q_cmd(unsigned qcmd)
{
	static const struct q_cmd unknown = { 0, QS_ID_ADDR, false, 0 };
	for (size_t i = 0; i < sizeof(q_cmds) / sizeof(q_cmds[0]); i++)
		if (q_cmds[i].cmd == qcmd >> QCMD_SHIFT)
			return &q_cmds[i];
	return &unknown;
}

/* The argument holding the command: quotactl's first, quotactl_fd's second. */
static unsigned q_cmd_arg(const struct sc_call *c)
{
	return c->ent && strcmp(c->ent->name, "quotactl_fd") == 0 ? 1 : 0;
}

static size_t q_len(const struct sc_call *c)
{
	return q_cmd((unsigned)c->args[q_cmd_arg(c)])->size;
}

/* QCMD(Q_GETQUOTA, USRQUOTA) */
static void sb_qcmd(struct strbuf *sb, uint64_t v, const void *unused)
{
	(void)unused;
	sb_add(sb, "QCMD(");
	sb_xlat(sb, &xlat_quota_cmds, v >> QCMD_SHIFT, "Q_???");
	sb_add(sb, ", ");
	sb_xlat(sb, &xlat_quota_types, v & QTYPE_MASK, "???QUOTA");
	sb_addc(sb, ')');
}

static void p_qid(struct sc_call *c, unsigned id)
{
	out(c, id == (unsigned)-1 ? ", -1" : ", %u", id);
}

static void p_u64(struct sc_call *c, const char *name, uint64_t v, bool first)
{
	out(c, "%s%s=%" PRIu64, first ? "" : ", ", name, v);
}

static void p_dqblk(struct sc_call *c, const struct if_nextdqblk *d, bool next)
{
	bool v = c->fmt && c->fmt->verbose;
	p_u64(c, "dqb_bhardlimit", d->dqb_bhardlimit, true);
	p_u64(c, "dqb_bsoftlimit", d->dqb_bsoftlimit, false);
	p_u64(c, "dqb_curspace", d->dqb_curspace, false);
	p_u64(c, "dqb_ihardlimit", d->dqb_ihardlimit, false);
	p_u64(c, "dqb_isoftlimit", d->dqb_isoftlimit, false);
	p_u64(c, "dqb_curinodes", d->dqb_curinodes, false);
	if (v) {
		p_u64(c, "dqb_btime", d->dqb_btime, false);
		p_u64(c, "dqb_itime", d->dqb_itime, false);
		out(c, ", dqb_valid=");
		p_flags(c, &xlat_quota_dqblk_valid, d->dqb_valid, "QIF_???");
	}
	if (next)
		out(c, ", dqb_id=%u", d->dqb_id);
	if (!v)
		out(c, ", ...");
}

static void p_dqinfo(struct sc_call *c, const struct if_dqinfo *d)
{
	p_u64(c, "dqi_bgrace", d->dqi_bgrace, true);
	p_u64(c, "dqi_igrace", d->dqi_igrace, false);
	out(c, ", dqi_flags=");
	p_flags(c, &xlat_quota_dqinfo_flags, d->dqi_flags, "DQF_???");
	out(c, ", dqi_valid=");
	p_flags(c, &xlat_quota_dqinfo_valid, d->dqi_valid, "IIF_???");
}

static void p_xdq(struct sc_call *c, const struct fs_disk_quota *d)
{
	out(c, "d_version=%d, d_flags=", d->d_version);
	p_flags(c, &xlat_quota_xfs_dqblk_flags, (uint8_t)d->d_flags, "FS_???_QUOTA");
	out(c, ", d_fieldmask=%#x, d_id=%u", d->d_fieldmask, d->d_id);
	p_u64(c, "d_blk_hardlimit", d->d_blk_hardlimit, false);
	p_u64(c, "d_blk_softlimit", d->d_blk_softlimit, false);
	p_u64(c, "d_ino_hardlimit", d->d_ino_hardlimit, false);
	p_u64(c, "d_ino_softlimit", d->d_ino_softlimit, false);
	p_u64(c, "d_bcount", d->d_bcount, false);
	p_u64(c, "d_icount", d->d_icount, false);
	if (!(c->fmt && c->fmt->verbose)) {
		out(c, ", ...");
		return;
	}
	out(c, ", d_itimer=%d, d_btimer=%d, d_iwarns=%u, d_bwarns=%u", d->d_itimer, d->d_btimer,
	    d->d_iwarns, d->d_bwarns);
	p_u64(c, "d_rtb_hardlimit", d->d_rtb_hardlimit, false);
	p_u64(c, "d_rtb_softlimit", d->d_rtb_softlimit, false);
	p_u64(c, "d_rtbcount", d->d_rtbcount, false);
	out(c, ", d_rtbtimer=%d, d_rtbwarns=%u", d->d_rtbtimer, d->d_rtbwarns);
}

static void p_qfs(struct sc_call *c, const char *name, uint64_t ino, uint64_t nblks, uint32_t next)
{
	out(c, ", %s={qfs_ino=%" PRIu64 ", qfs_nblks=%" PRIu64 ", qfs_nextents=%u}", name, ino,
	    nblks, next);
}

/* The limits both stat versions end with. */
#define P_QS_LIMITS(c, q)							\
	out(c, ", qs_btimelimit=%d, qs_itimelimit=%d, qs_rtbtimelimit=%d"	\
	    ", qs_bwarnlimit=%u, qs_iwarnlimit=%u", (q)->qs_btimelimit,	\
	    (q)->qs_itimelimit, (q)->qs_rtbtimelimit, (q)->qs_bwarnlimit,	\
	    (q)->qs_iwarnlimit)

static void p_xstat(struct sc_call *c, const struct fs_quota_stat *q)
{
	out(c, "qs_version=%d", q->qs_version);
	if (!(c->fmt && c->fmt->verbose)) {
		out(c, ", ...");
		return;
	}
	out(c, ", qs_flags=");
	p_flags(c, &xlat_quota_xfs_flags, q->qs_flags, "FS_QUOTA_???");
	p_qfs(c, "qs_uquota", q->qs_uquota.qfs_ino, q->qs_uquota.qfs_nblks, q->qs_uquota.qfs_nextents);
	p_qfs(c, "qs_gquota", q->qs_gquota.qfs_ino, q->qs_gquota.qfs_nblks, q->qs_gquota.qfs_nextents);
	out(c, ", qs_incoredqs=%u", q->qs_incoredqs);
	P_QS_LIMITS(c, q);
}

static void p_xstatv(struct sc_call *c, const struct fs_quota_statv *q)
{
	out(c, "qs_version=%d", q->qs_version);
	if (!(c->fmt && c->fmt->verbose)) {
		out(c, ", ...");
		return;
	}
	out(c, ", qs_flags=");
	p_flags(c, &xlat_quota_xfs_flags, q->qs_flags, "FS_QUOTA_???");
	out(c, ", qs_incoredqs=%u", q->qs_incoredqs);
	p_qfs(c, "qs_uquota", q->qs_uquota.qfs_ino, q->qs_uquota.qfs_nblks, q->qs_uquota.qfs_nextents);
	p_qfs(c, "qs_gquota", q->qs_gquota.qfs_ino, q->qs_gquota.qfs_nblks, q->qs_gquota.qfs_nextents);
	p_qfs(c, "qs_pquota", q->qs_pquota.qfs_ino, q->qs_pquota.qfs_nblks, q->qs_pquota.qfs_nextents);
	P_QS_LIMITS(c, q);
}

/* The struct (or [value]) at addr for shape s, or its address. */
static void p_qdata(struct sc_call *c, const struct q_cmd *q, uint64_t addr)
{
	union {
		struct if_nextdqblk dq;
		struct if_dqinfo di;
		struct fs_disk_quota xdq;
		struct fs_quota_stat xs;
		struct fs_quota_statv xsv;
		uint32_t u32;
	} u;
	if (q->out && sc_failed(c)) {
		p_addr(c, addr);
		return;
	}
	if (p_fetch(c, addr, &u, q->size) < 0)
		return;	/* it printed NULL or the address */
	bool brackets = q->shape == QS_FMT || q->shape == QS_XFLAGS || q->shape == QS_XTYPES;
	out(c, brackets ? "[" : "{");
	switch (q->shape) {
	case QS_DQBLK:
	case QS_NEXTDQBLK:
		p_dqblk(c, &u.dq, q->shape == QS_NEXTDQBLK);
		break;
	case QS_DQINFO:
		p_dqinfo(c, &u.di);
		break;
	case QS_XDQ:
		p_xdq(c, &u.xdq);
		break;
	case QS_XSTAT:
		p_xstat(c, &u.xs);
		break;
	case QS_XSTATV:
		p_xstatv(c, &u.xsv);
		break;
	case QS_FMT:
		p_xval(c, &xlat_quota_formats, u.u32, "QFMT_VFS_???");
		break;
	case QS_XFLAGS:
		p_flags(c, &xlat_quota_xfs_flags, u.u32, "FS_QUOTA_???");
		break;
	case QS_XTYPES:
		p_flags(c, &xlat_quota_xfs_dqblk_flags, u.u32, "FS_???_QUOTA");
		break;
	}
	out(c, brackets ? "]" : "}");
}

/* Everything after the special file (or descriptor): shared by both calls. */
static int q_rest(struct sc_call *c)
{
	const struct q_cmd *q = q_cmd((unsigned)c->args[q_cmd_arg(c)]);
	unsigned id = (unsigned)c->args[2];
	uint64_t addr = c->args[3];
	bool has_id = q->shape == QS_ID_ADDR || q->shape == QS_DQBLK ||
		      q->shape == QS_NEXTDQBLK || q->shape == QS_XDQ;
	if (!c->entering) {
		p_qdata(c, q, addr);
		return 0;
	}
	switch (q->shape) {
	case QS_NONE:
		return SC_DONE;
	case QS_QUOTAON:
		p_sep(c);
		p_xval(c, &xlat_quota_formats, id, "QFMT_VFS_???");
		p_sep(c);
		p_path(c, addr);
		return SC_DONE;
	case QS_ID_ADDR:
		p_qid(c, id);
		p_sep(c);
		p_addr(c, addr);
		return SC_DONE;
	default:
		break;
	}
	if (has_id)
		p_qid(c, id);
	p_sep(c);
	if (q->out)
		return 0;
	p_qdata(c, q, addr);
	return SC_DONE;
}

SC_DECODER(quotactl, MEM_PATH(1), MEM_PATH(3), MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY | SC_AT_EXIT, q_len))
{
	if (c->entering) {
		sb_xparts_how(c->out, (unsigned)c->args[0], SB_XP_UDEC, sb_qcmd, NULL);
		p_sep(c);
		p_path(c, c->args[1]);
	}
	return q_rest(c);
}

SC_DECODER(quotactl_fd, MEM_FN(3, SC_MEM_BUF, SC_AT_ENTRY | SC_AT_EXIT, q_len))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		sb_xparts_how(c->out, (unsigned)c->args[1], SB_XP_UDEC, sb_qcmd, NULL);
	}
	return q_rest(c);
}

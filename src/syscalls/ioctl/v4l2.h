/*
 * The V4L2 ioctl family's pieces (v4l2.c: requests and their entry;
 * v4l2_print.c: formats, fourcc codes, control ids; v4l2_answer.c: what a
 * successful call returned).
 */
#ifndef TRACEKIT_SYSCALLS_IOCTL_V4L2_H
#define TRACEKIT_SYSCALLS_IOCTL_V4L2_H

#include <linux/videodev2.h>

#include "family.h"

/* The structs of the requests printed by v4l2_simple_entry and v4l2_simple_exit. */
union v4l2_arg {
	struct v4l2_fmtdesc fmtdesc;
	struct v4l2_requestbuffers reqbufs;
	struct v4l2_buffer buf;
	struct v4l2_standard std;
	struct v4l2_input input;
	struct v4l2_control ctrl;
	struct v4l2_tuner tuner;
	struct v4l2_queryctrl qctrl;
	struct v4l2_query_ext_ctrl qectrl;
	struct v4l2_cropcap cropcap;
	struct v4l2_crop crop;
	struct v4l2_frmsizeenum frmsize;
	struct v4l2_frmivalenum frmival;
};


/* Bytes of req's struct read into a union v4l2_arg. */
size_t v4l2_arg_size(unsigned req);

/* A value with a name made here (CLASS+0x12): the -X style decides; dflt when name is NULL. */
void v4l2_p_named(struct sc_call *c, uint32_t v, const char *name, const char *dflt);
/* v4l2_fourcc('Y', 'U', 'Y', 'V') with the name from names as a comment; -X raw the number. */
void v4l2_p_fourcc(struct sc_call *c, uint32_t v, const struct xlat *names);
/* A control id; next: the V4L2_CTRL_FLAG_NEXT_* bits a query may OR in. */
void v4l2_p_cid(struct sc_call *c, uint32_t cid, bool next);
void v4l2_p_buf_type(struct sc_call *c, uint32_t type);
void v4l2_p_rect(struct sc_call *c, const struct v4l2_rect *r);
/* A user pointer: NULL or hex. */
void v4l2_p_ptr(struct sc_call *c, uint64_t p);
/* ", fmt.pix={...}" after prefix for the formats of f's type; false for others or unprinted clips. */
bool v4l2_p_format_fmt(struct sc_call *c, const char *prefix, const struct v4l2_format *f);
/* A tuner's fields after its index, prefix first. */
void v4l2_p_tuner_rest(struct sc_call *c, const char *prefix, const struct v4l2_tuner *t);

/* At exit: what a successful call of a v4l2_simple_entry request returned; "}" in all cases. */
int v4l2_simple_exit(struct sc_call *c, unsigned req, uint64_t arg);
/* At exit: QUERYCAP's struct v4l2_capability. */
void v4l2_p_capability(struct sc_call *c, uint64_t arg);
/* At exit: the buffers CREATE_BUFS made, after the return value. */
int v4l2_create_bufs_exit(struct sc_call *c, uint64_t arg);

#endif

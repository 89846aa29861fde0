/*
 * Socket addresses of the families Linux gained for virtual machines and
 * devices (vsock, Qualcomm IPC router, AF_XDP, MCTP), printed as strace
 * prints them.  Structures come from the kernel's uapi headers.
 */
#include <stdbool.h>
#include <sys/socket.h>
#include <linux/if_xdp.h>
#include <linux/mctp.h>
#include <linux/qrtr.h>
#include <linux/vm_sockets.h>

#include "print_net.h"
#include "print_sockaddr.h"

_Static_assert(sizeof(struct sockaddr_vm) == SA_VSOCK_LEN, "sockaddr_vm");
_Static_assert(sizeof(struct sockaddr_qrtr) == SA_QRTR_LEN, "sockaddr_qrtr");
_Static_assert(sizeof(struct sockaddr_xdp) == SA_XDP_LEN, "sockaddr_xdp");
_Static_assert(sizeof(struct sockaddr_mctp) == SA_MCTP_LEN, "sockaddr_mctp");

void sa_vsock(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_vm *vm = (const void *)buf;
	bool zero = true;
	(void)len;
	/* Reserved and padding fields show only when something is in them. */
	if (vm->svm_reserved1)
		out(c, "svm_reserved1=%#x, ", vm->svm_reserved1);
	out(c, "svm_cid=");
	p_xval(c, &xlat_vsock_cids, vm->svm_cid, NULL);
	out(c, ", svm_port=");
	p_xval(c, &xlat_vsock_ports, vm->svm_port, NULL);
	out(c, ", svm_flags=");
	p_flags(c, &xlat_vsock_flags, vm->svm_flags, "VMADDR_FLAG_???");
	for (size_t i = 0; i < sizeof(vm->svm_zero); i++)
		if (vm->svm_zero[i])
			zero = false;
	if (zero)
		return;
	out(c, ", svm_zero=\"");
	for (size_t i = 0; i < sizeof(vm->svm_zero); i++)
		out(c, "\\x%02x", vm->svm_zero[i]);
	out(c, "\"");
}

void sa_qrtr(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_qrtr *q = (const void *)buf;
	(void)len;
	out(c, "sq_node=");
	p_xval(c, &xlat_qrtr_nodes, q->sq_node, NULL);
	out(c, ", sq_port=");
	p_xval(c, &xlat_qrtr_ports, q->sq_port, NULL);
}

void sa_xdp(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_xdp *x = (const void *)buf;
	bool shared = x->sxdp_flags & XDP_SHARED_UMEM;
	(void)len;
	out(c, "sxdp_flags=");
	p_flags(c, &xlat_xdp_sockaddr_flags, x->sxdp_flags, "XDP_???");
	out(c, ", sxdp_ifindex=");
	pn_ifindex(c, x->sxdp_ifindex);
	out(c, ", sxdp_queue_id=%u", x->sxdp_queue_id);
	/* A descriptor only with XDP_SHARED_UMEM; otherwise a value, if any. */
	if (shared) {
		out(c, ", sxdp_shared_umem_fd=");
		p_fd(c, x->sxdp_shared_umem_fd);
	} else if (x->sxdp_shared_umem_fd) {
		out(c, ", sxdp_shared_umem_fd=%#x", x->sxdp_shared_umem_fd);
	}
}

void sa_mctp(struct sc_call *c, const unsigned char *buf, int len)
{
	const struct sockaddr_mctp *m = (const void *)buf;
	(void)len;
	if (m->__smctp_pad0)
		out(c, "__smctp_pad0=%#x, ", m->__smctp_pad0);
	out(c, "smctp_network=");
	p_xval(c, &xlat_mctp_nets, m->smctp_network, NULL);
	out(c, ", smctp_addr={s_addr=");
	p_xval(c, &xlat_mctp_addrs, m->smctp_addr.s_addr, NULL);
	out(c, "}, smctp_type=%#x, smctp_tag=%#x", m->smctp_type, m->smctp_tag);
	if (m->__smctp_pad1)
		out(c, ", __smctp_pad1=%#x", m->__smctp_pad1);
}

/*
 * Printers of the less common socket address families, one per family,
 * for print_net.c's family table.  Each gets the address zero-padded past
 * len (len is at least the family's *_LEN below) and prints the fields
 * after sa_family.
 */
#ifndef TRACEKIT_SYSCALLS_PRINT_SOCKADDR_H
#define TRACEKIT_SYSCALLS_PRINT_SOCKADDR_H

#include "decoder.h"

#define SA_IPX_LEN 16		/* sizeof(struct sockaddr_ipx) */
#define SA_AX25_LEN 16		/* sizeof(struct sockaddr_ax25) */
#define SA_X25_LEN 18		/* sizeof(struct sockaddr_x25) */
#define SA_BLUETOOTH_MIN_LEN 4	/* sockaddr_hci without hci_channel */
#define SA_VSOCK_LEN 16		/* sizeof(struct sockaddr_vm) */
#define SA_QRTR_LEN 12		/* sizeof(struct sockaddr_qrtr) */
#define SA_XDP_LEN 16		/* sizeof(struct sockaddr_xdp) */
#define SA_MCTP_LEN 12		/* sizeof(struct sockaddr_mctp) */
#define SA_RXRPC_LEN 36		/* sizeof(struct sockaddr_rxrpc) */
#define SA_IEEE802154_LEN 20	/* sizeof(struct sockaddr_ieee802154) */
#define SA_ALG_LEN 88		/* sizeof(struct sockaddr_alg) */
#define SA_ALG_MIN_LEN 25	/* sockaddr_alg_new and a byte of salg_name */
#define SA_NFC_LEN 16		/* sizeof(struct sockaddr_nfc) */
#define SIN6_MIN_LEN 24		/* sockaddr_in6 without sin6_scope_id */

void sa_ipx(struct sc_call *c, const unsigned char *buf, int len);
void sa_ax25(struct sc_call *c, const unsigned char *buf, int len);
void sa_x25(struct sc_call *c, const unsigned char *buf, int len);
void sa_bluetooth(struct sc_call *c, const unsigned char *buf, int len);
void sa_vsock(struct sc_call *c, const unsigned char *buf, int len);
void sa_qrtr(struct sc_call *c, const unsigned char *buf, int len);
void sa_xdp(struct sc_call *c, const unsigned char *buf, int len);
void sa_mctp(struct sc_call *c, const unsigned char *buf, int len);
void sa_rxrpc(struct sc_call *c, const unsigned char *buf, int len);
void sa_ieee802154(struct sc_call *c, const unsigned char *buf, int len);
void sa_alg(struct sc_call *c, const unsigned char *buf, int len);
void sa_nfc(struct sc_call *c, const unsigned char *buf, int len);

/* The fields after sa_family of an address of any family (buf zero-padded past len). */
void pn_sockaddr_family(struct sc_call *c, const unsigned char *buf, int len);

/* sa_data="...": the bytes after sa_family, for families without a printer. */
void pn_sockaddr_raw(struct sc_call *c, const unsigned char *buf, int len);

#endif

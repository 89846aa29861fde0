/*
 * Names that are not plain ASCII, for `probe list --symbols --json`: a function
 * whose symbol is UTF-8 and then bytes that are not ("café_" 0xff 0xc3 "x"), and
 * a USDT note whose argument text holds DEL, a control byte, UTF-8 and 0xff.
 */
#include "usdt_note.h"

int odd_name(int x) __asm__("caf\xc3\xa9_\xff\xc3x");

int odd_name(int x)
{
	return x + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	__asm__ __volatile__(TK_USDT_NOTE("odd", "caf\\303\\251", "0", "\\177\\001\\303\\251\\377"));
	return odd_name(argc) == 0;
}

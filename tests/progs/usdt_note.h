/*
 * A USDT probe point for the bundled programs, written as sys/sdt.h
 * describes its notes (the header itself is not installed on the build
 * machine): a nop at the probe, and a .note.stapsdt entry (type 3, owner
 * "stapsdt") holding the nop's address, the .stapsdt.base address, the
 * semaphore's address, then "provider", "name" and the argument specs
 * "SIZE@OPERAND" that gcc prints for each operand.
 */
#ifndef TRACEKIT_TEST_USDT_NOTE_H
#define TRACEKIT_TEST_USDT_NOTE_H

#define TK_USDT_BASE							\
	".ifndef _.stapsdt.base\n"					\
	".pushsection .stapsdt.base,\"aG\",\"progbits\",.stapsdt.base,comdat\n" \
	".weak _.stapsdt.base\n.hidden _.stapsdt.base\n"		\
	"_.stapsdt.base: .space 1\n.size _.stapsdt.base, 1\n"		\
	".popsection\n.endif\n"

#define TK_USDT_NOTE(prov, name, sem, args)				\
	"990: nop\n"							\
	".pushsection .note.stapsdt,\"?\",\"note\"\n"			\
	".balign 4\n"							\
	".4byte 992f-991f, 994f-993f, 3\n"				\
	"991: .asciz \"stapsdt\"\n"					\
	"992: .balign 4\n"						\
	"993: .8byte 990b\n"						\
	".8byte _.stapsdt.base\n"					\
	".8byte " sem "\n"						\
	".asciz \"" prov "\"\n"						\
	".asciz \"" name "\"\n"						\
	".asciz \"" args "\"\n"						\
	"994: .balign 4\n"						\
	".popsection\n" TK_USDT_BASE

/* Two arguments: a signed int and a pointer, as -4@OP 8@OP; sem is a symbol or "0". */
#define TK_USDT2(prov, name, sem, a1, a2)				\
	__asm__ __volatile__(TK_USDT_NOTE(#prov, #name, sem, "-4@%0 8@%1") \
			     :: "nor"((int)(a1)), "nor"((const void *)(a2)))

#endif

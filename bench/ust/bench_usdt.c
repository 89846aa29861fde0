/* A USDT probe (sys/sdt.h's note, from tests/progs/usdt_note.h): a nop, a uprobe when traced. */
#include "usdt_note.h"

#define FIRE(i)								\
	__asm__ __volatile__(TK_USDT_NOTE("bench", "request_done", "0",	\
					  "-4@%0 8@%1 8@%2")		\
			     :: "nor"((int)(i)), "nor"((const void *)"/index.html"), \
				"nor"((long)(i)))
#include "bench_main.h"

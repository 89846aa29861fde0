/* Descriptor I/O: read, write, close and their positional and vector kin. */
#include "decoder.h"

SC_DECODER(read, MEM_BUF_OUT_RET(1))
{
	if (c->entering) {
		p_fd(c, c->args[0]);
		p_sep(c);
		return 0;
	}
	p_buf_or_addr(c, c->args[1], c->ret);
	out(c, ", %llu", (unsigned long long)c->args[2]);
	return 0;
}

SC_DECODER(write, MEM_BUF_IN(1, 2))
{
	p_fd(c, c->args[0]);
	p_sep(c);
	p_buf(c, c->args[1], (int64_t)c->args[2]);
	out(c, ", %llu", (unsigned long long)c->args[2]);
	return SC_DONE;
}

SC_DECODER(close)
{
	p_fd(c, c->args[0]);
	return SC_DONE;
}

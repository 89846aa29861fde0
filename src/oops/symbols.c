#include "oops/oops.h"
int oops_symbolize(struct oops_reports *rs, const struct oops_symopts *o, char *err, size_t errsz)
{
	(void)rs; (void)o; (void)err; (void)errsz;
	return 0;
}

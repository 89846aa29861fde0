/* Output files written aside and renamed (see outfile.h). */
#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/die.h"

int outfile_open(struct outfile *o, const char *path, const char *mode, char *err, size_t errlen)
{
	struct stat st;

	*o = (struct outfile){ .path = path };
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		o->f = fopen(path, mode);
	} else {
		if (asprintf(&o->tmp, "%s.tmp%d", path, (int)getpid()) < 0)
			die(1, "out of memory");
		o->f = fopen(o->tmp, mode);
	}
	if (o->f)
		return 0;
	/* The user gave path: name it, not the temporary name beside it. */
	snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
	free(o->tmp);
	o->tmp = NULL;
	return -1;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
	bool bad = fflush(o->f) != 0 || ferror(o->f);
	int e = errno;

	if (fclose(o->f) != 0 && !bad) {
		bad = true;
		e = errno;
	}
	o->f = NULL;
	if (!bad && o->tmp && rename(o->tmp, o->path) != 0) {
		bad = true;
		e = errno;
	}
	if (bad) {
		snprintf(err, errlen, "cannot write %s: %s", o->path, strerror(e));
		if (o->tmp)
			unlink(o->tmp);
	}
	free(o->tmp);
	o->tmp = NULL;
	return bad ? -1 : 0;
}

void outfile_abort(struct outfile *o)
{
	if (o->f)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
}

/* record's output file: checked first, written aside, renamed (see output.h). */
#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void rec_part_path(const char *output, char *buf, size_t len)
{
	snprintf(buf, len, "%s.part", output);
}

int rec_check_output(const char *output, char *err, size_t errlen)
{
	char part[4200];
	struct stat st;

	if (stat(output, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "-o %s is a directory: give a file name (e.g. -o %s/trace.dat)",
			 output, output);
		return -1;
	}
	/* The same directory entry the staging files and the temporary file need. */
	rec_part_path(output, part, sizeof(part));
	int fd = open(part, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST)
		return 0;	/* left by a killed run; overwritten at the end */
	if (fd < 0) {
		snprintf(err, errlen, "cannot write %s: %s (-o takes a file in a writable directory)",
			 output, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(part);
	return 0;
}

int rec_commit_output(const char *output, char *err, size_t errlen)
{
	char part[4200];

	rec_part_path(output, part, sizeof(part));
	if (rename(part, output) == 0)
		return 0;
	snprintf(err, errlen, "cannot rename %s to %s: %s", part, output, strerror(errno));
	unlink(part);
	return -1;
}

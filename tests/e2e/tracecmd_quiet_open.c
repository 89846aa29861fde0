/*
 * tracecmd-quiet-open FILE...: open each trace file through libtracecmd's
 * public API, the way KernelShark and trace-cmd report do, read every record,
 * and fail if the library printed anything on stderr (a warning such as
 * "unknown option" is what a user of those tools sees).  Prints
 * "FILE: N records" for each file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

static int count_record(struct tracecmd_input *in, struct tep_record *rec, int cpu, void *arg)
{
	(void)in;
	(void)rec;
	(void)cpu;
	(*(long *)arg)++;
	return 0;
}

/* Open path and read every record (stderr goes to a temp file); -1 if it cannot be opened. */
static long read_all(const char *path)
{
	struct tracecmd_input *in = tracecmd_open(path, 0);
	long n = 0;

	if (!in)
		return -1;
	tracecmd_iterate_events(in, NULL, 0, count_record, &n);
	tracecmd_close(in);
	return n;
}

static int check(const char *path)
{
	char said[4096];
	FILE *capture = tmpfile();
	int saved = dup(STDERR_FILENO);

	if (!capture || saved < 0) {
		perror("tracecmd-quiet-open");
		return 1;
	}
	fflush(stderr);
	dup2(fileno(capture), STDERR_FILENO);
	long n = read_all(path);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(capture);
	size_t len = fread(said, 1, sizeof(said) - 1, capture);
	fclose(capture);
	said[len] = '\0';
	if (n < 0) {
		fprintf(stderr, "%s: libtracecmd cannot open it: %s\n", path, said);
		return 1;
	}
	if (len) {
		fprintf(stderr, "%s: libtracecmd printed on stderr:\n%s", path, said);
		return 1;
	}
	printf("%s: %ld records\n", path, n);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: tracecmd-quiet-open FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++)
		rc |= check(argv[i]);
	return rc;
}

/*
 * Without libFuzzer (gcc builds, `make check`): run a fuzz target over its
 * seed corpus and over a stream of pseudo-random inputs, so the targets are
 * exercised in every test run.  `make fuzz` runs the real coverage-guided
 * fuzzer with clang.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	uint8_t buf[65536];
	size_t n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0;
	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		if (!d) {
			files += run_file(argv[i]) == 0;
			continue;
		}
		for (struct dirent *e; (e = readdir(d));) {
			if (e->d_name[0] == '.')
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			files += run_file(path) == 0;
		}
		closedir(d);
	}
	/* A fixed-seed stream of random inputs: reproducible, and it reaches every decoder. */
	uint64_t x = 0x9e3779b97f4a7c15u;
	uint8_t buf[512];
	int rounds = 20000;
	for (int r = 0; r < rounds; r++) {
		size_t n = (size_t)(r % (int)sizeof(buf));
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = (uint8_t)x;
		}
		/* Text targets like printable bytes more. */
		if (r & 1)
			for (size_t i = 0; i < n; i++)
				buf[i] = (uint8_t)(" ,!%?/=:.0123456789abcdefghijklmnopqrstuvwxyz_\\|+"[buf[i] % 48]);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("%d corpus files, %d random inputs: no crash\n", files, rounds);
	return 0;
}

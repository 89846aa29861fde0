/*
 * Where the symbols of a kernel are when the user did not say: the places
 * distributions install debug kernels (/usr/lib/debug/boot/vmlinux-VERSION,
 * /usr/lib/debug/lib/modules/VERSION/vmlinux), build trees, the build-id
 * tree (/usr/lib/debug/.build-id/xx/rest.debug), and debuginfod servers
 * (DEBUGINFOD_URLS) through libdebuginfod, loaded only when configured.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "oops/symtab.h"
#include "util/die.h"

static bool readable(const char *p)
{
	struct stat st;
	return stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, R_OK) == 0;
}

char *oops_find_vmlinux(const char *release, const char *debug_dir)
{
	static const char *const forms[] = { "%s/boot/vmlinux-%s", "%s/lib/modules/%s/vmlinux",
		"%s/usr/lib/modules/%s/vmlinux" };
	static const char *const plain[] = { "/boot/vmlinux-%s", "/lib/modules/%s/build/vmlinux" };
	char p[4096];
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(p, sizeof(p), forms[i], debug_dir, release);
		if (readable(p))
			return xstrdup(p);
	}
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		snprintf(p, sizeof(p), plain[i], release);
		if (readable(p))
			return xstrdup(p);
	}
	return NULL;
}

/* Module names use '_' where file names may use '-' (and the reverse). */
static bool same_module(const char *file, const char *name)
{
	static const char *const exts[] = { ".ko", ".ko.debug", ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t n = strlen(name);
	for (size_t i = 0; i < n; i++) {
		char a = file[i] == '-' ? '_' : file[i], b = name[i] == '-' ? '_' : name[i];
		if (a != b)
			return false;
	}
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (!strcmp(file + n, exts[i]))
			return true;
	return false;
}

static char *search(const char *dir, const char *name, int depth)
{
	DIR *d = opendir(dir);
	if (!d)
		return NULL;
	char *found = NULL;
	for (struct dirent *e; !found && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char p[4096];
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(p, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth < 8)
			found = search(p, name, depth + 1);
		else if (S_ISREG(st.st_mode) && same_module(e->d_name, name))
			found = xstrdup(p);
	}
	closedir(d);
	return found;
}

char *oops_find_module(const char *dir, const char *name)
{
	return search(dir, name, 0);
}

/* libdebuginfod's entry points, resolved at run time: it is optional. */
typedef void *(*dbgd_begin_fn)(void);
typedef int (*dbgd_find_fn)(void *client, const unsigned char *id, int idlen, char **path);
typedef void (*dbgd_end_fn)(void *client);

static char *from_debuginfod(const char *build_id)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (!urls || !*urls)
		return NULL;
	void *lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return NULL;
	dbgd_begin_fn begin = (dbgd_begin_fn)dlsym(lib, "debuginfod_begin");
	dbgd_find_fn find = (dbgd_find_fn)dlsym(lib, "debuginfod_find_debuginfo");
	dbgd_end_fn end = (dbgd_end_fn)dlsym(lib, "debuginfod_end");
	char *path = NULL;
	void *client = begin && find && end ? begin() : NULL;
	if (client) {
		/* A hex build id is passed as text with length 0. */
		int fd = find(client, (const unsigned char *)build_id, 0, &path);
		if (fd >= 0)
			close(fd);
		else
			path = NULL;
		end(client);
	}
	dlclose(lib);
	if (!path)
		return NULL;
	char *p = xstrdup(path);
	free(path);
	return p;
}

char *oops_find_by_build_id(const char *build_id, const char *debug_dir)
{
	size_t n = strlen(build_id);
	if (n < 4 || strspn(build_id, "0123456789abcdef") != n)
		return NULL;
	static const char *const forms[] = { "%s/.build-id/%.2s/%s.debug", "%s/.build-id/%.2s/%s" };
	char p[4096];
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		snprintf(p, sizeof(p), forms[i], debug_dir, build_id, build_id + 2);
		if (readable(p))
			return xstrdup(p);
	}
	return from_debuginfod(build_id);
}

/* /sys/kernel/notes holds the kernel's ELF notes; NT_GNU_BUILD_ID (3) named "GNU". */
char *oops_running_build_id(void)
{
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	unsigned char buf[4096];
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	for (size_t off = 0; n > 0 && off + 12 <= (size_t)n;) {
		uint32_t namesz, descsz, type;
		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		size_t name_off = off + 12, desc_off = name_off + ((namesz + 3) & ~3u);
		if (desc_off + descsz > (size_t)n || descsz > 64)
			break;
		if (type == 3 && namesz == 4 && !memcmp(buf + name_off, "GNU", 4)) {
			char *hex = xmalloc(2 * descsz + 1);
			for (uint32_t i = 0; i < descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[desc_off + i]);
			return hex;
		}
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return NULL;
}

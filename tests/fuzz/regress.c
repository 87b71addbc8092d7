/*
 * regress - replay driver for the fuzz targets without libFuzzer: feeds every file
 * named on the command line, and every file inside every directory named (in name
 * order; dot files and README* skipped), to LLVMFuzzerTestOneInput() once. Linked with
 * one target into $(BUILD)/tests/fuzz/<target>-regress and run by `make fuzz-regress`
 * (part of `make check`) over tests/fuzz/corpus/<target> and tests/fuzz/crashers/<target>,
 * so it also runs under SANITIZE=address,undefined. Missing directories are skipped.
 * Exit status: 0, or 1 when an input cannot be read (a crash ends the process).
 */
#include <dirent.h>	/* scandir, alphasort */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>	/* fopen, fread, fprintf */
#include <stdlib.h>	/* malloc, realloc, free */
#include <string.h>	/* strncmp, strrchr */
#include <sys/stat.h>	/* stat */

#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static size_t nr_inputs;

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL, *nb;
	size_t len = 0, cap = 0, n;

	if (!f) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	do {
		if (len == cap) {
			cap = cap ? cap * 2 : 1 << 16;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return 1;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		fprintf(stderr, "%s: read error\n", path);
		free(buf);
		fclose(f);
		return 1;
	}
	fclose(f);
	/* an exact-size copy, as libFuzzer passes it: reads past the end are caught */
	nb = fuzz__dup(buf, len);
	free(buf);
	if (!nb)
		return 1;
	LLVMFuzzerTestOneInput(nb, len);
	free(nb);
	nr_inputs++;
	return 0;
}

static int skip_entry(const struct dirent *de)
{
	return de->d_name[0] != '.' && strncmp(de->d_name, "README", 6);
}

static int run_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	int n, err = 0;

	if (stat(path, &st) < 0)
		return 0;	/* no crashers saved yet: nothing to replay */
	if (!S_ISDIR(st.st_mode))
		return run_file(path);
	n = scandir(path, &names, skip_entry, alphasort);
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 1;
	}
	for (int i = 0; i < n; i++) {
		char sub[4096];

		snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
		err |= run_path(sub);
		free(names[i]);
	}
	free(names);
	return err;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	int err = 0;

	for (int i = 1; i < argc; i++)
		err |= run_path(argv[i]);
	printf("  %-24s %zu inputs replayed%s\n", name ? name + 1 : argv[0], nr_inputs,
	       err ? ", some unreadable" : "");
	return err;
}

// SPDX-License-Identifier: GPL-2.0
/* A boot's gather.FILE attachments as its gathered/ folder (gathered.h). */
#define _GNU_SOURCE
#include "gathered.h"
#include "boot.h"
#include "util.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const gathered_beside_log[] = {
	"gather.txt", "boot-id.txt", "udevd.log", "drivers.txt", "devices-deferred.txt",
	"systemd-analyze-time.txt", "systemd-analyze-blame.txt",
	"systemd-analyze-critical-chain.txt", "systemd-analyze-plot.svg", "uname-r.txt",
	"kernel-cmdline.txt", "dmi-product-name.txt", NULL,
};

bool gathered__is_file(const char *name)
{
	if (!strcmp(name, "kernel.log"))
		return true;
	for (int i = 0; gathered_beside_log[i]; i++)
		if (!strcmp(name, gathered_beside_log[i]))
			return true;
	return false;
}

/* One attachment as @dir/@name; 0 or -errno (said). */
static int gathered__write(const struct attachment *a, const char *dir, const char *name,
			   const char *who, const char *boot)
{
	size_t len = strlen(a->text);
	char *path = xasprintf("%s/%s", dir, name);
	int err;

	/*
	 * Cut by the collector: its end is missing.  A cut that fell just
	 * after a newline would read as a whole log; without that newline the
	 * kernel-log reader says "ends inside a line: its end is missing".
	 */
	if (a->truncated) {
		while (len && a->text[len - 1] == '\n')
			len--;
		fprintf(stderr, "%s: %s: %s/%s: cut at %d bytes by the collector: kept without "
			"its end\n", who, boot, GATHERED_DIR, name, MAX_ATTACHMENT_BYTES);
	}
	err = write_file_atomic(path, a->text, len);
	if (err)
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(-err));
	free(path);
	return err;
}

int gathered__save(const struct boot_data *b, const char *boot_dir, const char *who)
{
	const size_t np = strlen(GATHER_ATTACHMENT_PREFIX);
	const char *unknown = NULL;
	int n = 0, nr_unknown = 0, err = 0;
	char *dir = NULL;

	for (int i = 0; i < b->nr_attachments && !err; i++) {
		const struct attachment *a = &b->attachments[i];
		const char *name = a->name + np;

		if (strncmp(a->name, GATHER_ATTACHMENT_PREFIX, np))
			continue;
		/* Only names of the fixed list become files: nothing else of the guest's. */
		if (!gathered__is_file(name)) {
			if (!nr_unknown++)
				unknown = a->name;
			continue;
		}
		if (!dir) {
			dir = xasprintf("%s/%s", boot_dir, GATHERED_DIR);
			err = mkdir_p(dir);
			if (err) {
				fprintf(stderr, "%s: %s: %s\n", who, dir, strerror(-err));
				break;
			}
		}
		err = gathered__write(a, dir, name, who, boot_dir);
		n += !err;
	}
	if (nr_unknown)
		fprintf(stderr, "%s: %s: %d %s* attachment%s not kept: not a file of a gathered "
			"folder (first: %s)\n", who, boot_dir, nr_unknown, GATHER_ATTACHMENT_PREFIX,
			nr_unknown == 1 ? "" : "s", unknown);
	free(dir);
	return err ? err : n;
}

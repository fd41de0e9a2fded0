/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Gathered folders (docs/gather.md): the files bootprobe-gather makes, and
 * the folder a boot of the collector carries when its guest ran the script
 * too (bootprobe.gather=1: each file an attachment named gather.FILE), kept
 * as BOOT/gathered/ so that `bootprobe import BOOT/gathered` reads the same
 * boot from its logs alone: one boot id, two sources.
 */
#ifndef BOOTPROBE_GATHERED_H
#define BOOTPROBE_GATHERED_H

#include <stdbool.h>

struct boot_data;

/* gather.txt's first line: the folder format this bootprobe reads. */
#define GATHER_SCHEMA_LINE "bootprobe-gather 1"
/* The folder of a collector's boot that holds its gathered files. */
#define GATHERED_DIR "gathered"
/* The attachments that carry a gathered folder's files: gather.FILE. */
#define GATHER_ATTACHMENT_PREFIX "gather."

/* The gathered files import keeps beside the kernel log, as they are; NULL-ended. */
extern const char *const gathered_beside_log[];

/* Whether @name is a file of a gathered folder: kernel.log or one beside it. */
bool gathered__is_file(const char *name);

/*
 * @b's gather.FILE attachments as @boot_dir/gathered/FILE, for the names
 * gathered__is_file() knows only (any other is counted, named and left
 * out).  A file the collector cut at its size limit is kept cut and never
 * ends in a newline, so that import reads it as a log whose end is missing.
 * Problems go to stderr as "@who: BOOT: why".  The number of files written
 * (0: the boot carries none, and no folder is made), or -errno.
 */
int gathered__save(const struct boot_data *b, const char *boot_dir, const char *who);

#endif

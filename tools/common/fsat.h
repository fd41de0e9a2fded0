/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files beneath a folder, never through a link.  The path the user gives
 * (RUN, BOOT, --out DIR) is resolved once, links in it followed: the user
 * chose it.  Beneath it nothing is followed at any level, for reading or
 * writing: a results folder may come from another machine, and a link
 * planted in it (report -> /elsewhere, boots/x/console.log -> ~/.ssh/...)
 * is named and refused (ELOOP), never used.
 */
#ifndef BOOTPROBE_FSAT_H
#define BOOTPROBE_FSAT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * @rel beneath the folder open at @dirfd with @flags (and @mode when it
 * creates): openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) where the kernel
 * has it, else openat() one component at a time with O_NOFOLLOW.  No
 * component may be a link, "..", or absolute.  A descriptor, or -1 with
 * errno (ELOOP for a link, EXDEV for a way out).
 */
int open_beneath(int dirfd, const char *rel, int flags, mode_t mode);
/* The folder @path the user named (links followed), made first if @create. */
int dir_open_user(const char *path, bool create);
/* The folder @rel beneath @dirfd, no link followed, each level made if @create. */
int dir_open_beneath(int dirfd, const char *rel, bool create);
/* A whole regular file @rel beneath @dirfd, bounded as read_file() reads. */
char *read_file_beneath(int dirfd, const char *rel, size_t *len);
/*
 * @name in the folder open at @dirfd, written whole: into a new file of a
 * random name (O_CREAT | O_EXCL | O_NOFOLLOW: nothing planted is opened,
 * not a FIFO, not a hard link to evidence), synced, then renameat() into
 * place.  0 or -errno; the temporary file never stays.
 */
int write_file_at(int dirfd, const char *name, const void *data, size_t len);
/*
 * A new empty file beside @name in @dirfd, of a random name written to
 * @tmp (@len bytes), created as write_file_at() creates one; its
 * descriptor, or -errno.
 */
int tmp_file_at(int dirfd, const char *name, char *tmp, size_t len);
/*
 * The folder open at @dirfd locked for one writer: an open file
 * description lock (fcntl F_OFD_SETLK; F_SETLK where the kernel lacks it)
 * on @name, a regular file made there if missing.  Both kinds work on a
 * local file system and on NFSv4 (and NFSv3 through lockd).  The lock's
 * descriptor (close it to unlock), -EWOULDBLOCK when another process holds
 * it, or -errno.
 */
int dir_lock(int dirfd, const char *name);

#endif

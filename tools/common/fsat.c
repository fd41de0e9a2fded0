// SPDX-License-Identifier: GPL-2.0
/* Files beneath a folder, never through a link (fsat.h). */
#define _GNU_SOURCE
#include "fsat.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Whether @rel names something beneath a folder: relative, no "..". */
static bool rel_ok(const char *rel)
{
	const char *p = rel;

	if (!*rel || *rel == '/')
		return false;
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && !strncmp(p, "..", 2))
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

/* Once openat2() said ENOSYS (an old kernel, a seccomp filter), never again. */
static bool no_openat2;

static int open_beneath2(int dirfd, const char *rel, int flags, mode_t mode)
{
#ifdef SYS_openat2
	struct open_how how = {
		.flags = (unsigned)flags,
		.mode = flags & (O_CREAT | O_TMPFILE) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (no_openat2)
		return -2;
	fd = syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
	if (fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != E2BIG))
		return (int)fd;
	no_openat2 = true;
#endif
	return -2;
}

/*
 * openat() with O_NOFOLLOW of @name in @dirfd; a link is named as a link
 * (with O_DIRECTORY some kernels say ENOTDIR for it).
 */
static int openat_nofollow(int dirfd, const char *name, int flags, mode_t mode)
{
	struct stat st;
	int fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC, mode), err = errno;

	if (fd < 0 && err == ENOTDIR && !fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) &&
	    S_ISLNK(st.st_mode))
		err = ELOOP;
	errno = err;
	return fd;
}

/* One component at a time: each folder opened with O_NOFOLLOW. */
static int open_walk(int dirfd, const char *rel, int flags, mode_t mode)
{
	char buf[PATH_MAX], *comp, *slash;
	int fd = dirfd, next, err;

	if (strlen(rel) >= sizeof(buf)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(buf, rel);
	for (comp = buf; (slash = strchr(comp, '/')); comp = slash + 1) {
		*slash = '\0';
		if (!*comp || !strcmp(comp, "."))
			continue;
		next = openat_nofollow(fd, comp, O_RDONLY | O_DIRECTORY, 0);
		err = errno;
		if (fd != dirfd)
			close(fd);
		if (next < 0) {
			errno = err;
			return -1;
		}
		fd = next;
	}
	next = openat_nofollow(fd, *comp ? comp : ".", flags, mode);
	err = errno;
	if (fd != dirfd)
		close(fd);
	errno = err;
	return next;
}

int open_beneath(int dirfd, const char *rel, int flags, mode_t mode)
{
	int fd;

	if (!rel_ok(rel)) {
		errno = EXDEV;
		return -1;
	}
	fd = open_beneath2(dirfd, rel, flags | O_NOFOLLOW | O_CLOEXEC, mode);
	if (fd == -1 && errno == ENOTDIR) {
		struct stat st;

		/* A link where a folder was wanted: named as a link (only looked at). */
		if (!fstatat(dirfd, rel, &st, AT_SYMLINK_NOFOLLOW) && S_ISLNK(st.st_mode))
			errno = ELOOP;
		else
			errno = ENOTDIR;
	}
	if (fd != -2)
		return fd;
	return open_walk(dirfd, rel, flags, mode);
}

int dir_open_user(const char *path, bool create)
{
	int fd, err;

	if (create && (err = mkdir_p(path)))
		return err;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

int dir_open_beneath(int dirfd, const char *rel, bool create)
{
	char buf[PATH_MAX], *comp, *slash;
	int fd = dirfd, next;

	if (!create) {
		fd = open_beneath(dirfd, rel, O_RDONLY | O_DIRECTORY, 0);
		return fd < 0 ? -errno : fd;
	}
	if (!rel_ok(rel) || strlen(rel) >= sizeof(buf))
		return rel_ok(rel) ? -ENAMETOOLONG : -EXDEV;
	strcpy(buf, rel);
	/* mkdirat() never follows a link at its name: EEXIST, then ELOOP below. */
	for (comp = buf; comp; comp = slash ? slash + 1 : NULL) {
		slash = strchr(comp, '/');
		if (slash)
			*slash = '\0';
		if (!*comp)
			continue;
		if (mkdirat(fd, comp, 0755) && errno != EEXIST)
			next = -1;
		else
			next = open_beneath(fd, comp, O_RDONLY | O_DIRECTORY, 0);
		if (next < 0) {
			int err = errno;

			if (fd != dirfd)
				close(fd);
			return -err;
		}
		if (fd != dirfd)
			close(fd);
		fd = next;
	}
	return fd == dirfd ? -EINVAL : fd;
}

char *read_file_beneath(int dirfd, const char *rel, size_t *len)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	return read_file_fd(open_beneath(dirfd, rel, O_RDONLY | O_NONBLOCK, 0), len);
}

int tmp_file_at(int dirfd, const char *name, char *tmp, size_t len)
{
	const char *base = strrchr(name, '/');

	for (int tries = 0; tries < 16; tries++) {
		unsigned long long r = 0;
		int fd;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r ^= (unsigned long long)getpid() << 32 ^ (unsigned long long)tries;
		/* Beside @name: the rename stays in its folder. */
		if ((size_t)snprintf(tmp, len, "%.*s.%s.%016llx.tmp", base ? (int)(base - name + 1) : 0,
				     name, base ? base + 1 : name, r) >= len)
			return -ENAMETOOLONG;
		fd = open_beneath(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int write_file_at(int dirfd, const char *name, const void *data, size_t len)
{
	char tmp[PATH_MAX];
	const char *p = data;
	int fd = tmp_file_at(dirfd, name, tmp, sizeof(tmp)), err = 0;

	if (fd < 0)
		return fd;
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		p += n;
		len -= n;
	}
	if (!err && fsync(fd))
		err = -errno;
	if (close(fd) && !err)
		err = -errno;
	/* renameat() replaces what stands at @name (a link too), never writes through it. */
	if (!err && renameat(dirfd, tmp, dirfd, name))
		err = -errno;
	if (err)
		unlinkat(dirfd, tmp, 0);
	return err;
}

int dir_lock(int dirfd, const char *name)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	struct stat st;
	int fd = open_beneath(dirfd, name, O_RDWR | O_CREAT | O_NONBLOCK, 0644), err;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	err = fcntl(fd, F_OFD_SETLK, &fl);
	if (err && errno == EINVAL)
		err = fcntl(fd, F_SETLK, &fl);
	if (err) {
		err = errno == EACCES || errno == EAGAIN ? -EWOULDBLOCK : -errno;
		close(fd);
		return err;
	}
	return fd;
}

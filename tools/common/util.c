// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "util.h"
#include "fsat.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "bootprobe: out of memory (%zu bytes)\n", n);
		abort();
	}
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p) {
		fprintf(stderr, "bootprobe: out of memory (%zu x %zu bytes)\n", n, size);
		abort();
	}
	return p;
}

size_t ctl_scrub_n(char *s, size_t len, bool keep_lines)
{
	size_t changed = 0;

	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] < 0x20 && !(keep_lines && s[i] == '\n')) || s[i] == 0x7f) {
			s[i] = '?';
			changed++;
		}
	return changed;
}

char *ctl_scrub(char *s, bool keep_lines)
{
	ctl_scrub_n(s, strlen(s), keep_lines);
	return s;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p) {
		fprintf(stderr, "bootprobe: out of memory\n");
		abort();
	}
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0) {
		fprintf(stderr, "bootprobe: out of memory\n");
		abort();
	}
	va_end(ap);
	return p;
}

void strv__push(struct strv *s, const char *str)
{
	if (s->n + 2 > s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		if (!s->v)
			abort();
	}
	s->v[s->n++] = xstrdup(str);
	s->v[s->n] = NULL;
}

void strv__pushf(struct strv *s, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		abort();
	va_end(ap);
	strv__push(s, p);
	free(p);
}

bool strv__contains(const struct strv *s, const char *str)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], str))
			return true;
	return false;
}

void strv__free(struct strv *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

/* Append @arg to @buf, quoted for a POSIX shell only when it needs it. */
static void append_quoted(char **buf, size_t *len, size_t *cap, const char *arg)
{
	static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				   "0123456789-_./=:,+@%";
	bool plain = *arg != '\0' && strspn(arg, safe) == strlen(arg);
	size_t need = *len + strlen(arg) * 4 + 4;

	if (need > *cap) {
		*cap = need * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			abort();
	}
	if (plain) {
		*len += sprintf(*buf + *len, "%s", arg);
		return;
	}
	(*buf)[(*len)++] = '\'';
	for (const char *c = arg; *c; c++) {
		if (*c == '\'')
			*len += sprintf(*buf + *len, "'\\''");
		else
			(*buf)[(*len)++] = *c;
	}
	(*buf)[(*len)++] = '\'';
	(*buf)[*len] = '\0';
}

char *strv__join_quoted(const struct strv *s)
{
	size_t len = 0, cap = 64;
	char *buf = xmalloc(cap);

	buf[0] = '\0';
	for (size_t i = 0; i < s->n; i++) {
		append_quoted(&buf, &len, &cap, s->v[i]);
		if (i + 1 < s->n) {
			buf[len++] = ' ';
			buf[len] = '\0';
		}
	}
	return buf;
}

int mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	size_t len = strlen(path);

	if (len == 0 || len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, len + 1);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

char *read_file_fd_max(int fd, size_t *lenp, size_t max)
{
	size_t len = 0, cap;
	struct stat st;
	char *buf;
	ssize_t n;
	int saved;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		saved = errno;
		close(fd);
		errno = S_ISREG(st.st_mode) ? saved : EINVAL;
		return NULL;
	}
	if (max > READ_FILE_MAX)
		max = READ_FILE_MAX;
	/* Its size says how much to take at once: no buffer twice the file's size. */
	if ((uint64_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return NULL;
	}
	cap = (size_t)st.st_size + 4096;
	buf = xmalloc(cap);
	for (;;) {
		if (len + 1 >= cap) {
			/* It grew while read: at most @max, in steps of half again. */
			if (len > max) {
				free(buf);
				close(fd);
				errno = EFBIG;
				return NULL;
			}
			cap += cap / 2;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			saved = errno;
			free(buf);
			close(fd);
			errno = saved;
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	if (len > max) {
		free(buf);
		errno = EFBIG;
		return NULL;
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

char *read_file_fd(int fd, size_t *lenp)
{
	return read_file_fd_max(fd, lenp, READ_FILE_MAX);
}

char *read_file(const char *path, size_t *lenp)
{
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	return read_file_fd(open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), lenp);
}

char *read_file_at(int dirfd, const char *name, size_t *lenp)
{
	return read_file_at_max(dirfd, name, lenp, READ_FILE_MAX);
}

char *read_file_at_max(int dirfd, const char *name, size_t *lenp, size_t max)
{
	/* A link is refused (ELOOP), never followed. */
	return read_file_fd_max(openat(dirfd, name, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC),
				lenp, max);
}

const char *read_file_strerror(int err)
{
	if (err == EINVAL)
		return "not a regular file";
	if (err == EFBIG)
		return "larger than bootprobe reads (256 MiB)";
	if (err == ELOOP)
		return "a symbolic link (not followed)";
	if (err == EXDEV)
		return "a path out of the folder (refused)";
	return strerror(err);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path + (slash == path)), path) : NULL;
	int dfd = open(dir ? dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC), err;

	free(dir);
	if (dfd < 0)
		return -errno;
	/* A unique temporary name beside it: nothing planted there is opened. */
	err = write_file_at(dfd, slash ? slash + 1 : path, data, len);
	close(dfd);
	return err;
}

bool path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

FILE *out_file__open(struct out_file *o, const char *dir, const char *name)
{
	return out_file__open_at(o, -1, dir, name);
}

FILE *out_file__open_at(struct out_file *o, int dirfd, const char *dir, const char *name)
{
	o->dirfd = dirfd;
	o->name = xstrdup(name);
	o->path = xasprintf("%s/%s", dir, name);
	o->buf = NULL;
	o->len = 0;
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f) {
		fprintf(stderr, "bootprobe: out of memory\n");
		abort();
	}
	return o->f;
}

int write_file_or_say(const char *path, const void *data, size_t len, const char *who)
{
	int err = write_file_atomic(path, data, len);

	if (err)
		fprintf(stderr, "%s: %s: %s\n", who, path, strerror(-err));
	return err ? -1 : 0;
}

int out_file__commit(struct out_file *o, const char *who)
{
	int err = fclose(o->f) ? -1 : 0;

	if (err)
		fprintf(stderr, "%s: %s: %s\n", who, o->path, strerror(errno));
	else if (o->dirfd < 0)
		err = write_file_or_say(o->path, o->buf, o->len, who);
	else if ((err = write_file_at(o->dirfd, o->name, o->buf, o->len))) {
		fprintf(stderr, "%s: %s: %s\n", who, o->path, strerror(-err));
		err = -1;
	}
	free(o->buf);
	free(o->name);
	free(o->path);
	return err;
}

void file_name_of(const char *s, char *buf, size_t len)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++, n++) {
		bool keep = isalnum((unsigned char)*s) || strchr("._-", *s);

		buf[n] = keep && (n || *s != '.') ? *s : '_';
	}
	if (!n && len > 1)
		buf[n++] = '_';
	buf[n] = '\0';
}

char *sibling_path(const char *path, const char *name)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), *file;

	if (slash)
		*slash = '\0';
	file = xasprintf("%s/%s", slash ? dir : ".", name);
	free(dir);
	return file;
}

char *read_sibling_line(const char *path, const char *name)
{
	char *file = sibling_path(path, name), *text;

	text = read_file(file, NULL);
	free(file);
	if (text)
		text[strcspn(text, "\n")] = '\0';
	return text;
}

void now_run_stamp(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%Y%m%d-%H%M%S", &tm);
}

void now_iso8601(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

bool parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

bool parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	if (!s || !*s)
		return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v > 0) || v > 86400 * 7)
		return false;
	*out = v;
	return true;
}

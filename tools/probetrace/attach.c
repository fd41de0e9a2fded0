// SPDX-License-Identifier: GPL-2.0
/* Attachment records: a folder of small text files, one record per file. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <json-c/json.h>

#include "attach.h"
#include "output.h"
#include "record.h"

static bool attach_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > PT_ATTACH_MAX_NAME || name[0] == '.')
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '.' || *p == '_' || *p == '-'))
			return false;
	return true;
}

/* Up to PT_ATTACH_MAX_BYTES of a regular file; NULL with errno set. */
static char *read_capped(int dirfd, const char *name, size_t *len, bool *cut)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf;
	ssize_t r;
	size_t n = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	buf = malloc(PT_ATTACH_MAX_BYTES + 1);
	while (buf && n < PT_ATTACH_MAX_BYTES &&
	       (r = read(fd, buf + n, PT_ATTACH_MAX_BYTES - n)) > 0)
		n += r;
	*cut = buf && n == PT_ATTACH_MAX_BYTES && st.st_size > PT_ATTACH_MAX_BYTES;
	close(fd);
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void send_one(int dirfd, const char *name, struct output *out,
		     struct attach_stats *st)
{
	json_object *o;
	size_t len;
	bool cut;
	char *text = read_capped(dirfd, name, &len, &cut);

	if (!text) {
		st->skipped++;
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "type", json_object_new_string("attachment"));
	json_object_object_add(o, "name", json_object_new_string(name));
	json_object_object_add(o, "bytes", json_object_new_int64(len));
	json_object_object_add(o, "truncated", json_object_new_boolean(cut));
	json_object_object_add(o, "text", json_str_len(text, len));
	/* A record the output refuses (too large for a frame, a full disk) is
	 * counted as skipped, never counted as sent. */
	if (output__write(out, o) < 0) {
		st->skipped++;
	} else {
		st->sent++;
		st->truncated += cut;
	}
	json_object_put(o);
	free(text);
}

/* The names in @dirfd (but . and ..), sorted; -errno. */
static int list_names(int dirfd, char ***out, size_t *n)
{
	int fd = dup(dirfd);
	struct dirent *e;
	char **v = NULL, **nv;
	DIR *d;

	*n = 0;
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	/* The offset is shared with @dirfd: list it from the start. */
	rewinddir(d);
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		nv = realloc(v, (*n + 1) * sizeof(*v));
		if (!nv || !(nv[*n] = strdup(e->d_name))) {
			free(nv ? nv : v);
			closedir(d);
			return -ENOMEM;
		}
		v = nv;
		(*n)++;
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), by_name);
	*out = v;
	return 0;
}

int attach__send_dir(int dirfd, struct output *out, struct attach_stats *st)
{
	char **names = NULL;
	size_t n;
	int err = list_names(dirfd, &names, &n);

	if (err)
		return err;
	for (size_t i = 0; i < n; i++) {
		if (!attach_name_ok(names[i]) || st->sent >= PT_ATTACH_MAX_FILES)
			st->skipped++;
		else
			send_one(dirfd, names[i], out, st);
		free(names[i]);
	}
	free(names);
	return 0;
}

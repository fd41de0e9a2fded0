/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by bootprobe's host tools. */
#ifndef BOOTPROBE_UTIL_H
#define BOOTPROBE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growable NULL-terminated array of owned strings (argv-like). */
struct strv {
	char **v;
	size_t n;
	size_t cap;
};

void strv__push(struct strv *s, const char *str);
void strv__pushf(struct strv *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strv__free(struct strv *s);
/* Whether @s holds @str. */
bool strv__contains(const struct strv *s, const char *str);
/* Every element shell-quoted and joined by spaces; caller frees. */
char *strv__join_quoted(const struct strv *s);

/*
 * Append one zeroed element to the dynamic array @arr of @n elements: a
 * pointer to it, @n one more (aborts when memory runs out, like xmalloc()).
 * Its room doubles when @n reaches a power of two (array_room(n) elements),
 * so n pushes cost O(n) copying, not O(n^2): the array must be NULL at @n 0
 * or have grown by ARRAY_PUSH alone.
 */
#define ARRAY_PUSH(arr, n) \
	((((n) & ((n) - 1)) == 0 ? \
	  ((arr) = realloc((arr), ((n) ? 2 * (size_t)(n) : 1) * sizeof(*(arr)))) : (arr)), \
	 (arr) ? memset(&(arr)[(n)], 0, sizeof(*(arr))), &(arr)[(n)++] : (abort(), (arr)))

/* The elements an array of @n grown by ARRAY_PUSH has room for. */
static inline size_t array_room(size_t n)
{
	size_t r = 1;

	if (!n)
		return 0;
	while (r < n)
		r <<= 1;
	return r;
}

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* mkdir -p; 0 or -errno. */
int mkdir_p(const char *path);
/* The most read_file() reads: a boot's stream and console are a few MB. */
#define READ_FILE_MAX (256u << 20)
/*
 * A whole regular file into a NUL-terminated buffer; NULL with errno set:
 * EINVAL for anything but a regular file (a FIFO is not waited on), EFBIG
 * past READ_FILE_MAX.  @len gets the length (the text may hold NUL bytes).
 */
char *read_file(const char *path, size_t *len);
/* The same for @name in the folder open at @dirfd, never through a link (ELOOP). */
char *read_file_at(int dirfd, const char *name, size_t *len);
/* The same for the file open at @fd, which it closes (-1: NULL, errno kept). */
char *read_file_fd(int fd, size_t *len);
/* read_file_fd() and read_file_at() refusing (EFBIG) past @max bytes (at most READ_FILE_MAX). */
char *read_file_fd_max(int fd, size_t *len, size_t max);
char *read_file_at_max(int dirfd, const char *name, size_t *len, size_t max);
/* read_file()'s errno in words: "not a regular file", ... */
const char *read_file_strerror(int err);
/*
 * Write whole, so a reader never sees half a file: a new file of a random
 * name beside @path, then renamed into place (write_file_at()).
 */
int write_file_atomic(const char *path, const void *data, size_t len);
bool path_exists(const char *path);
/*
 * An output written whole or not at all: printed into memory, then put in
 * place by write_file_atomic() (a link planted at its name or its
 * temporary name is never followed).  A reader sees the old file or the new
 * one; a full disk leaves the old one and a message naming the file.
 */
struct out_file {
	FILE *f;
	int dirfd;		/* the folder it goes in, or -1: by its path */
	char *name, *path, *buf;
	size_t len;
};
/* Start DIR/NAME; returns the stream to print into. */
FILE *out_file__open(struct out_file *o, const char *dir, const char *name);
/*
 * Start NAME in the folder open at @dirfd (DIR its path, for messages),
 * written there by write_file_at(): a link is followed nowhere.
 */
FILE *out_file__open_at(struct out_file *o, int dirfd, const char *dir, const char *name);
/* Write it; 0, or -1 after "@who: PATH: why" on stderr.  Frees @o either way. */
int out_file__commit(struct out_file *o, const char *who);
/* write_file_atomic() that says "@who: PATH: why" on stderr when it fails. */
int write_file_or_say(const char *path, const void *data, size_t len, const char *who);
/*
 * A file name made from a name out of a guest or a results folder: bytes
 * other than [A-Za-z0-9._-] and a leading '.' become '_' (never a path,
 * never hidden, never "" or ".."); cut to fit @len.
 */
void file_name_of(const char *s, char *buf, size_t len);
/*
 * Text from a guest or a results folder made inert for a terminal, a table
 * row or a Markdown line: control bytes and DEL become '?' in place (a line
 * break too, unless @keep_lines).  Returns @s.  ctl_scrub_n() scrubs @len
 * bytes (NUL among them) and returns how many it changed.
 */
char *ctl_scrub(char *s, bool keep_lines);
size_t ctl_scrub_n(char *s, size_t len, bool keep_lines);
/* @name in the folder of @path (which need not exist); caller frees. */
char *sibling_path(const char *path, const char *name);
/* First line of the file NAME in the folder holding PATH, or NULL. */
char *read_sibling_line(const char *path, const char *name);

/* The local wall clock as a run id starts, e.g. 20261203-075208. */
void now_run_stamp(char *buf, size_t len);
/* ISO 8601 UTC of the wall clock, e.g. 2026-12-03T07:52:08Z. */
void now_iso8601(char *buf, size_t len);

/* Parse a whole decimal number in [min, max]; false on anything else. */
bool parse_long(const char *s, long min, long max, long *out);
/* Seconds with an optional fraction ("2.5"); false on anything else. */
bool parse_seconds(const char *s, double *out);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A hash index from keys (any bytes: a name, two names, a pid) to ints, so
 * that a look-up repeated per record costs O(1), not a scan.  The hash is
 * SipHash-2-4 under a key drawn once per process: a results folder cannot
 * choose names that collide.
 */
#ifndef BOOTPROBE_KEYMAP_H
#define BOOTPROBE_KEYMAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct keymap_slot;

struct keymap {
	struct keymap_slot *slots;
	size_t cap;		/* a power of two, or 0 */
	size_t n;
	size_t key_bytes;	/* the keys' copies */
};

/* The value under @key (@len bytes), or -1. */
int keymap__get(const struct keymap *m, const void *key, size_t len);
/*
 * @value under @key unless a value is there already: the value there
 * afterwards (@value when it was absent).
 */
int keymap__put(struct keymap *m, const void *key, size_t len, int value);
void keymap__free(struct keymap *m);
/* Bytes it holds beyond the struct (the memory budget counts them). */
size_t keymap__bytes(const struct keymap *m);

/* A string's key is its bytes and its NUL; two strings' are both, one after the other. */
static inline int keymap__get_str(const struct keymap *m, const char *s)
{
	return keymap__get(m, s, strlen(s) + 1);
}

static inline int keymap__put_str(struct keymap *m, const char *s, int value)
{
	return keymap__put(m, s, strlen(s) + 1, value);
}

/* @a and @b into @buf (of @cap bytes) as one key; its length (cut to fit). */
size_t keymap__pair(char *buf, size_t cap, const char *a, const char *b);

/* SipHash-2-4 of @len bytes under the process's key (exposed for tests). */
uint64_t keymap__hash(const void *key, size_t len);

#endif

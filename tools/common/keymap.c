// SPDX-License-Identifier: GPL-2.0
/* A hash index from byte keys to ints (keymap.h): open addressing, linear probing. */
#define _GNU_SOURCE
#include "keymap.h"
#include "util.h"

#include <stdbool.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

struct keymap_slot {
	uint64_t hash;
	char *key;		/* NULL: empty */
	size_t len;
	int value;
};

static uint64_t sip_k0, sip_k1;
static bool sip_seeded;	/* bootprobe reads with one thread */

/* The key, once: from getrandom(), else from the clock and pid (still not the input's). */
static void sip_seed(void)
{
	uint64_t k[2];

	if (getrandom(k, sizeof(k), GRND_NONBLOCK) != sizeof(k)) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		k[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
		k[1] = (uint64_t)ts.tv_sec * 0xc2b2ae3d27d4eb4full ^ (uint64_t)(uintptr_t)&ts;
	}
	sip_k0 = k[0];
	sip_k1 = k[1];
}

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))
#define SIPROUND							\
	do {								\
		v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32); \
		v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;			\
		v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;			\
		v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32); \
	} while (0)

uint64_t keymap__hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint64_t v0, v1, v2, v3, m, b = (uint64_t)len << 56;
	size_t i, whole = len & ~(size_t)7;

	if (!sip_seeded) {
		sip_seed();
		sip_seeded = true;
	}
	v0 = sip_k0 ^ 0x736f6d6570736575ull;
	v1 = sip_k1 ^ 0x646f72616e646f6dull;
	v2 = sip_k0 ^ 0x6c7967656e657261ull;
	v3 = sip_k1 ^ 0x7465646279746573ull;
	for (i = 0; i < whole; i += 8) {
		memcpy(&m, p + i, 8);	/* little-endian hosts only: a hash, not a format */
		v3 ^= m;
		SIPROUND;
		SIPROUND;
		v0 ^= m;
	}
	for (size_t k = 0; i + k < len; k++)
		b |= (uint64_t)p[i + k] << (8 * k);
	v3 ^= b;
	SIPROUND;
	SIPROUND;
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	SIPROUND;
	return v0 ^ v1 ^ v2 ^ v3;
}

/* The slot of @key, or the empty one where it would go. */
static struct keymap_slot *slot_of(const struct keymap *m, uint64_t h, const void *key,
				   size_t len)
{
	size_t mask = m->cap - 1;

	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct keymap_slot *s = &m->slots[i];

		if (!s->key || (s->hash == h && s->len == len && !memcmp(s->key, key, len)))
			return s;
	}
}

int keymap__get(const struct keymap *m, const void *key, size_t len)
{
	const struct keymap_slot *s;

	if (!m->n)
		return -1;
	s = slot_of(m, keymap__hash(key, len), key, len);
	return s->key ? s->value : -1;
}

/* Twice the slots, every key moved: at most half full, so a probe stays short. */
static void keymap__grow(struct keymap *m)
{
	struct keymap_slot *old = m->slots;
	size_t old_cap = m->cap;

	m->cap = old_cap ? old_cap * 2 : 16;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	for (size_t i = 0; i < old_cap; i++)
		if (old[i].key)
			*slot_of(m, old[i].hash, old[i].key, old[i].len) = old[i];
	free(old);
}

int keymap__put(struct keymap *m, const void *key, size_t len, int value)
{
	uint64_t h = keymap__hash(key, len);
	struct keymap_slot *s;

	if (2 * (m->n + 1) > m->cap)
		keymap__grow(m);
	s = slot_of(m, h, key, len);
	if (s->key)
		return s->value;
	s->key = xmalloc(len ? len : 1);
	memcpy(s->key, key, len);
	s->len = len;
	m->key_bytes += len ? len : 1;
	s->hash = h;
	s->value = value;
	m->n++;
	return value;
}

void keymap__free(struct keymap *m)
{
	for (size_t i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	memset(m, 0, sizeof(*m));
}

size_t keymap__bytes(const struct keymap *m)
{
	return m->cap * sizeof(*m->slots) + m->key_bytes;
}

size_t keymap__pair(char *buf, size_t cap, const char *a, const char *b)
{
	size_t la = strnlen(a, cap / 2 - 1), lb = strnlen(b, cap / 2 - 1);

	memcpy(buf, a, la);
	buf[la] = '\0';
	memcpy(buf + la + 1, b, lb);
	buf[la + 1 + lb] = '\0';
	return la + lb + 2;
}

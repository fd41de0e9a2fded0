// SPDX-License-Identifier: GPL-2.0
/* A boot's records indexed for repeated look-ups (bootindex.h). */
#define _GNU_SOURCE
#include "bootindex.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static int cmp_entry(const void *pa, const void *pb)
{
	const struct tindex_entry *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	return (a->rec > b->rec) - (a->rec < b->rec);
}

void tindex__build(struct tindex *x, int n, const void *ctx, tindex_key_fn key,
		   tindex_time_fn time)
{
	int *group = xcalloc(n + 1, sizeof(*group)), *fill;
	char buf[KEY_MAX];

	memset(x, 0, sizeof(*x));
	/* Each record's group, counted. */
	for (int i = 0; i < n; i++) {
		size_t len = key(ctx, i, buf, sizeof(buf));

		group[i] = len ? keymap__put(&x->groups, buf, len, x->nr_groups) : -1;
		if (group[i] == x->nr_groups)
			x->nr_groups++;
	}
	x->first = xcalloc(x->nr_groups + 2, sizeof(*x->first));
	for (int i = 0; i < n; i++)
		if (group[i] >= 0)
			x->first[group[i] + 2]++;
	for (int g = 0; g < x->nr_groups; g++)
		x->first[g + 2] += x->first[g + 1];
	x->n = x->first[x->nr_groups + 1];
	x->e = xcalloc(x->n + 1, sizeof(*x->e));
	/* Into their groups (first[g + 1] counts up to group g's end), then sorted. */
	fill = x->first + 1;
	for (int i = 0; i < n; i++)
		if (group[i] >= 0)
			x->e[fill[group[i]]++] = (struct tindex_entry){ time(ctx, i), i, i };
	for (int g = 0; g < x->nr_groups; g++) {
		int lo = x->first[g], hi = x->first[g + 1];

		qsort(x->e + lo, hi - lo, sizeof(*x->e), cmp_entry);
		for (int k = hi - 2; k >= lo; k--)
			if (x->e[k + 1].min_rec < x->e[k].min_rec)
				x->e[k].min_rec = x->e[k + 1].min_rec;
	}
	free(group);
}

void tindex__free(struct tindex *x)
{
	keymap__free(&x->groups);
	free(x->first);
	free(x->e);
	memset(x, 0, sizeof(*x));
}

/* Group @key's entries [*lo, *hi); false if it has none. */
static bool tindex__group(const struct tindex *x, const void *key, size_t len, int *lo, int *hi)
{
	int g = keymap__get(&x->groups, key, len);

	if (g < 0)
		return false;
	*lo = x->first[g];
	*hi = x->first[g + 1];
	return *hi > *lo;
}

/* The first entry of [lo, hi) with t >= ts (@after: t > ts); hi if none. */
static int lower_bound(const struct tindex *x, int lo, int hi, int64_t ts, bool after)
{
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (x->e[mid].t < ts || (after && x->e[mid].t == ts))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int tindex__first_from(const struct tindex *x, const void *key, size_t len, int64_t ts)
{
	int lo, hi, k;

	if (!tindex__group(x, key, len, &lo, &hi))
		return -1;
	k = lower_bound(x, lo, hi, ts, false);
	return k < hi ? x->e[k].min_rec : -1;
}

int tindex__earliest_from(const struct tindex *x, const void *key, size_t len, int64_t ts)
{
	int lo, hi, k;

	if (!tindex__group(x, key, len, &lo, &hi))
		return -1;
	k = lower_bound(x, lo, hi, ts, false);
	return k < hi ? x->e[k].rec : -1;
}

int tindex__latest_before(const struct tindex *x, const void *key, size_t len, int64_t ts,
			  bool inclusive)
{
	int lo, hi, k;

	if (!tindex__group(x, key, len, &lo, &hi))
		return -1;
	k = lower_bound(x, lo, hi, ts, inclusive) - 1;
	if (k < lo)
		return -1;
	/* The first of that time: entries of one time are in file order. */
	return x->e[lower_bound(x, lo, k, x->e[k].t, false)].rec;
}

int tindex__first(const struct tindex *x, const void *key, size_t len)
{
	int lo, hi;

	return tindex__group(x, key, len, &lo, &hi) ? x->e[lo].min_rec : -1;
}

size_t key_pid(char *buf, size_t cap, int pid)
{
	(void)cap;
	memcpy(buf, &pid, sizeof(pid));
	return sizeof(pid);
}

size_t key_pid_name(char *buf, size_t cap, int pid, const char *name)
{
	size_t n = strnlen(name, cap - sizeof(pid) - 1);

	memcpy(buf, &pid, sizeof(pid));
	memcpy(buf + sizeof(pid), name, n);
	buf[sizeof(pid) + n] = '\0';
	return sizeof(pid) + n + 1;
}

/* ---- the boot's indexes --------------------------------------------------------------- */

#define B ((const struct boot_data *)ctx)

static size_t k_probe_pid(const void *ctx, int i, char *buf, size_t cap)
{
	return key_pid(buf, cap, B->probes[i].pid);
}

static size_t k_probe_pid_dev(const void *ctx, int i, char *buf, size_t cap)
{
	return key_pid_name(buf, cap, B->probes[i].pid, B->probes[i].device);
}

static size_t k_probe_ok_pair(const void *ctx, int i, char *buf, size_t cap)
{
	const struct probe_span *p = &B->probes[i];

	return p->ret ? 0 : keymap__pair(buf, cap, p->driver, p->device);
}

static size_t k_probe_bound_dev(const void *ctx, int i, char *buf, size_t cap)
{
	const struct probe_span *p = &B->probes[i];

	return probe_span__failed(p) ? 0 : keymap__pair(buf, cap, p->device, "");
}

static int64_t t_probe_end(const void *ctx, int i)
{
	return B->probes[i].end_ns;
}

static size_t k_kwait_pid(const void *ctx, int i, char *buf, size_t cap)
{
	return key_pid(buf, cap, B->kwaits[i].pid);
}

static size_t k_kwait_failed_pid(const void *ctx, int i, char *buf, size_t cap)
{
	return B->kwaits[i].ret ? key_pid(buf, cap, B->kwaits[i].pid) : 0;
}

static int64_t t_kwait_end(const void *ctx, int i)
{
	return B->kwaits[i].end_ns;
}

static size_t k_modload_pid(const void *ctx, int i, char *buf, size_t cap)
{
	return key_pid(buf, cap, B->modloads[i].pid);
}

static size_t k_modload_ok_name(const void *ctx, int i, char *buf, size_t cap)
{
	const struct module_load *m = &B->modloads[i];

	return m->ret ? 0 : keymap__pair(buf, cap, m->name, "");
}

static int64_t t_modload_end(const void *ctx, int i)
{
	return B->modloads[i].end_ns;
}

static size_t k_kill_pid(const void *ctx, int i, char *buf, size_t cap)
{
	return key_pid(buf, cap, B->kills[i].target_pid);
}

static int64_t t_kill(const void *ctx, int i)
{
	return B->kills[i].ts_ns;
}

#undef B

static struct boot_index *boot_index__build(const struct boot_data *b)
{
	struct boot_index *x = xcalloc(1, sizeof(*x));

	tindex__build(&x->probe_pid, b->nr_probes, b, k_probe_pid, t_probe_end);
	tindex__build(&x->probe_pid_dev, b->nr_probes, b, k_probe_pid_dev, t_probe_end);
	tindex__build(&x->probe_ok_pair, b->nr_probes, b, k_probe_ok_pair, t_probe_end);
	tindex__build(&x->probe_bound_dev, b->nr_probes, b, k_probe_bound_dev, t_probe_end);
	tindex__build(&x->kwait_pid, b->nr_kwaits, b, k_kwait_pid, t_kwait_end);
	tindex__build(&x->kwait_failed_pid, b->nr_kwaits, b, k_kwait_failed_pid, t_kwait_end);
	tindex__build(&x->modload_pid, b->nr_modloads, b, k_modload_pid, t_modload_end);
	tindex__build(&x->modload_ok_name, b->nr_modloads, b, k_modload_ok_name, t_modload_end);
	tindex__build(&x->kill_pid, b->nr_kills, b, k_kill_pid, t_kill);
	for (int i = 0; i < b->nr_devices; i++)
		keymap__put_str(&x->device_first, b->devices[i].device, i);
	for (int i = 0; i < b->nr_udev_kills; i++)
		keymap__put(&x->udev_kill_first, &b->udev_kills[i].worker_pid,
			    sizeof(b->udev_kills[i].worker_pid), i);
	return x;
}

void boot_index__free(struct boot_index *x)
{
	if (!x)
		return;
	tindex__free(&x->probe_pid);
	tindex__free(&x->probe_pid_dev);
	tindex__free(&x->probe_ok_pair);
	tindex__free(&x->probe_bound_dev);
	tindex__free(&x->kwait_pid);
	tindex__free(&x->kwait_failed_pid);
	tindex__free(&x->modload_pid);
	tindex__free(&x->modload_ok_name);
	tindex__free(&x->kill_pid);
	keymap__free(&x->device_first);
	keymap__free(&x->udev_kill_first);
	free(x);
}

const struct boot_index *boot_data__index(const struct boot_data *b)
{
	/* A cache of what the records say: built once, where they are read. */
	struct boot_data *mut = (struct boot_data *)b;

	if (!mut->index)
		mut->index = boot_index__build(b);
	return mut->index;
}

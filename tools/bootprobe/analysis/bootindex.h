/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A loaded boot's records indexed for the look-ups explain, timeline and
 * the report repeat per record (the probe a kill hit, the module load
 * behind a probe, ...): each one O(log n) instead of a scan of the boot.
 */
#ifndef BOOTPROBE_BOOTINDEX_H
#define BOOTPROBE_BOOTINDEX_H

#include "boot.h"
#include "keymap.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Records of one kind grouped by a key, each group sorted by a time. */
struct tindex {
	struct keymap groups;		/* key -> group */
	int *first;			/* group g: entries first[g] .. first[g + 1] - 1 */
	struct tindex_entry {
		int64_t t;
		int rec;		/* the record's place in its array */
		int min_rec;		/* the first record (file order) from here to its group's end */
	} *e;
	int n, nr_groups;
};

/*
 * Record @i's key into @buf (at most @cap bytes): its length, 0 to leave the
 * record out; and its time.
 */
typedef size_t (*tindex_key_fn)(const void *ctx, int i, char *buf, size_t cap);
typedef int64_t (*tindex_time_fn)(const void *ctx, int i);

void tindex__build(struct tindex *x, int n, const void *ctx, tindex_key_fn key,
		   tindex_time_fn time);
void tindex__free(struct tindex *x);
/* The first record (file order) of group @key whose time is at least @ts; -1 if none. */
int tindex__first_from(const struct tindex *x, const void *key, size_t len, int64_t ts);
/* The record of the earliest time at least @ts (the first of equal ones); -1 if none. */
int tindex__earliest_from(const struct tindex *x, const void *key, size_t len, int64_t ts);
/*
 * The record of the latest time before @ts (@inclusive: at or before), the
 * first in file order of equal ones; -1 if none.
 */
int tindex__latest_before(const struct tindex *x, const void *key, size_t len, int64_t ts,
			  bool inclusive);
/* The group's first record in file order; -1 if the group is empty. */
int tindex__first(const struct tindex *x, const void *key, size_t len);

struct boot_index {
	struct tindex probe_pid;	/* probes by pid, by end */
	struct tindex probe_pid_dev;	/* probes by pid and device, by end */
	struct tindex probe_ok_pair;	/* probes that returned 0, by driver and device */
	struct tindex probe_bound_dev;	/* probes that did not fail (probe_span__failed()), by device */
	struct tindex kwait_pid;	/* kthread_create() waits by pid, by end */
	struct tindex kwait_failed_pid;	/* those that returned an error */
	struct tindex modload_pid;	/* module loads by pid, by end */
	struct tindex modload_ok_name;	/* module loads that returned 0, by name */
	struct tindex kill_pid;		/* SIGKILLs by target pid, by time */
	struct keymap device_first;	/* devices[] by device: the first */
	struct keymap udev_kill_first;	/* udev_kills[] by worker pid: the first */
};

/*
 * @b's index, built on first use and kept with it until its records change
 * (boot_data__parse_events() and __parse_console() drop it).
 */
const struct boot_index *boot_data__index(const struct boot_data *b);
void boot_index__free(struct boot_index *x);

/* Key helpers: a pid; a pid and a name. */
size_t key_pid(char *buf, size_t cap, int pid);
size_t key_pid_name(char *buf, size_t cap, int pid, const char *name);

#define KEY_MAX (2 * NAME_LEN + 16)

#endif

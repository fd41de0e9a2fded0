/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log's records (/dev/kmsg) and how far its printk clock
 * (local_clock(), the console's "[   1.234567]") is from CLOCK_BOOTTIME,
 * the clock of every record: not 0 (25-44 ms in our TCG guest, another
 * amount each boot), so it is measured, not assumed.
 */
#ifndef BOOTPROBE_KMSG_H
#define BOOTPROBE_KMSG_H

#include <stdbool.h>
#include <stdint.h>

/* "6,1234,5678901,-;message": the time (us) and the message; false if not a record. */
bool kmsg__parse(const char *rec, uint64_t *ts_us, const char **msg);

/* printk time - CLOCK_BOOTTIME: offset_ns +/- error_ns. */
struct kmsg_offset {
	int64_t offset_ns;
	int64_t error_ns;
	int samples;		/* lines whose printk time was read back */
};

/*
 * Write @n lines "@tag N" to /dev/kmsg, each between two CLOCK_BOOTTIME
 * readings, read their printk times back and keep the tightest bracket.
 * 0, or -errno naming no line read back (-ENOENT) or /dev/kmsg's error.
 */
int kmsg__offset(const char *tag, int n, struct kmsg_offset *o);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every number bootprobe reads as text from a guest or a results folder
 * (the console, the kernel command line, systemd-analyze's output), with
 * the range it must lie in: finite and within it where it is parsed, else
 * refused and named.  docs/security.md, "Numbers", is this table in words;
 * the JSON files' numbers are checked by their readers (jseconds(), the
 * event stream's field limits, docs/events.md).
 */
#ifndef BOOTPROBE_RANGES_H
#define BOOTPROBE_RANGES_H

#include <stdbool.h>

enum field_range {
	FR_KERNEL_STAMP,	/* console.log "[   12.345678]": s since kernel start */
	FR_CONSOLE_MARK,	/* console.log "bootprobe: ... at S": s since kernel start */
	FR_DEVICE_COUNT,	/* console.log "bootprobe: N of M expected devices|disks" */
	FR_EVENT_TIMEOUT,	/* udev.event_timeout= in a boot's kernel command line, s */
	FR_SD_TIMESPAN,		/* a systemd-analyze time ("1min 2.5s"), s */
	FR_COUNT
};

struct field_range_def {
	const char *name;	/* as messages and the docs name it */
	double min, max;
	const char *unit;
};

extern const struct field_range_def field_ranges[FR_COUNT];

/* Whether @v is finite and within @f's range. */
bool field_range__ok(enum field_range f, double v);

#endif

// SPDX-License-Identifier: GPL-2.0
/* The ranges of the numbers read from a guest's text (ranges.h). */
#include "ranges.h"

#include <math.h>

/* A boot is seconds to minutes; a stamp past 10^7 s (115 days) is no boot's. */
const struct field_range_def field_ranges[FR_COUNT] = {
	[FR_KERNEL_STAMP] = { "kernel stamp", 0, 1e7, "s" },
	[FR_CONSOLE_MARK] = { "console mark", 0, 1e7, "s" },
	[FR_DEVICE_COUNT] = { "device count", 0, 1e6, "" },
	[FR_EVENT_TIMEOUT] = { "udev.event_timeout", 0, 86400, "s" },
	[FR_SD_TIMESPAN] = { "systemd-analyze time", 0, 1e7, "s" },
};

bool field_range__ok(enum field_range f, double v)
{
	return isfinite(v) && v >= field_ranges[f].min && v <= field_ranges[f].max;
}

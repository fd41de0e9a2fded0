/* SPDX-License-Identifier: GPL-2.0 */
/* report.md's first tables: which probes made a boot slow (analysis/slowest.h's answers). */
#ifndef BOOTPROBE_SLOW_PROBES_H
#define BOOTPROBE_SLOW_PROBES_H

#include "doc.h"
#include "rundata.h"

/* Rows of the slowest probes: of a one-mode run, and of each mode of a larger one. */
#define SLOWEST_ROWS_ONE_MODE 10
#define SLOWEST_ROWS_PER_MODE 5
/* Probes shown before each milestone. */
#define BEFORE_ROWS 3

/*
 * Per mode, its typical boot's slowest probes (driver, device, bus, start,
 * duration, sync or async, what started it, and over the mode's boots the
 * median of the same probe), the probes that ended last before each of its
 * milestones, and the device units its critical chain waited on.
 */
void report__slow_probes(struct doc *d, struct run_data *r);

#endif

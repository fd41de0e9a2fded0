/* SPDX-License-Identifier: GPL-2.0 */
/* report.md's "Late" section: what ended after multi-user.target on systemd boots. */
#ifndef BOOTPROBE_LATE_H
#define BOOTPROBE_LATE_H

#include "doc.h"
#include "rundata.h"

/*
 * Per mode with systemd boots, how many probes, disks and interfaces ended
 * after multi-user.target per boot, and the latest LATE_SHOWN of them by
 * name (device, driver, end, how long after the target), the rest counted.
 * Nothing for a run without systemd boots.
 */
void report__late(struct doc *d, const struct run_data *r);

#endif

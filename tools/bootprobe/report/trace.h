/* SPDX-License-Identifier: GPL-2.0 */
/* A boot's Perfetto trace: report/traces/BOOT.json. */
#ifndef BOOTPROBE_TRACE_H
#define BOOTPROBE_TRACE_H

#include "boot.h"

/* Chrome trace-event JSON (opens in the Perfetto UI), written atomically; 0 or -errno. */
int boot__write_trace(const struct boot_data *b, const char *path);

struct run_data;
/*
 * DIR/traces/BOOT.json for every boot of @r, named from the boot's name
 * (never a path; two alike told apart); 0, or -errno after a message.
 */
int report_traces__write(const struct run_data *r, const char *dir);

#endif

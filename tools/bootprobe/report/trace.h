/* SPDX-License-Identifier: GPL-2.0 */
/* A boot's Perfetto trace: report/traces/BOOT.json. */
#ifndef BOOTPROBE_TRACE_H
#define BOOTPROBE_TRACE_H

#include "boot.h"

/*
 * Chrome trace-event JSON (opens in the Perfetto UI) as @name in the folder
 * open at @dirfd, written whole (write_file_at()); 0 or -errno.
 */
int boot__write_trace(const struct boot_data *b, int dirfd, const char *name);

struct run_data;
/*
 * traces/BOOT.json in the folder open at @outfd (@dir its path) for every
 * boot of @r, named from the boot's name (never a path; two alike told
 * apart), no link followed; 0, or -errno after a message.
 */
int report_traces__write(const struct run_data *r, int outfd, const char *dir);

#endif

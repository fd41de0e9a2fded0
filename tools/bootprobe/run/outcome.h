/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What became of one boot, decided from its console log and QEMU's exit.
 * The outcomes and their names are the results format's (resultfiles.h).
 */
#ifndef BOOTPROBE_OUTCOME_H
#define BOOTPROBE_OUTCOME_H

#include "resultfiles.h"

/* The marker tools/guest/init prints once everything is done. */
#define BOOT_COMPLETE_MARKER "bootprobe: BOOT-COMPLETE"
#define PANIC_MARKER "Kernel panic - not syncing"

enum outcome outcome__classify(const char *console, const struct qemu_exit *qe);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* What became of one boot, decided from its console log and QEMU's exit. */
#ifndef BOOTPROBE_OUTCOME_H
#define BOOTPROBE_OUTCOME_H

#include <stdbool.h>

enum outcome {
	OUTCOME_OK,		/* the guest's /init reported boot complete */
	OUTCOME_TIMEOUT,	/* killed at the hard timeout */
	OUTCOME_PANIC,		/* the kernel panicked */
	OUTCOME_QEMU_ERROR,	/* QEMU failed or ended without a finished boot */
	OUTCOME_INTERRUPTED,	/* the runner was stopped during this boot */
};

/* The marker tools/guest/init prints once everything is done. */
#define BOOT_COMPLETE_MARKER "bootprobe: BOOT-COMPLETE"
#define PANIC_MARKER "Kernel panic - not syncing"

struct qemu_exit {
	bool timed_out;		/* we killed it at the deadline */
	bool interrupted;	/* we killed it because the runner stops */
	bool exited;		/* exited on its own (else killed by a signal) */
	int status;		/* exit code, or the signal number */
};

const char *outcome__name(enum outcome o);
enum outcome outcome__classify(const char *console, const struct qemu_exit *qe);

#endif

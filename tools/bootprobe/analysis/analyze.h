/* SPDX-License-Identifier: GPL-2.0 */
/* Per-boot answers: metrics and readiness gaps (explain.h: kill diagnoses). */
#ifndef BOOTPROBE_ANALYZE_H
#define BOOTPROBE_ANALYZE_H

#include <stdio.h>

#include "boot.h"

struct json_object;

struct boot_metrics {
	double boot_s;		/* boot_data__boot_time() */
	double guest_s;		/* /init's BOOT-COMPLETE, the guest's own view */
	double wall_s;		/* QEMU start to exit, host */
	double probe_phase_s;	/* first user-space probe start to last end */
	double probe_sum_s;	/* sum of user-space probe durations */
	double probe_max_s;	/* longest single user-space probe */
	double first_probe_s;	/* start of the first user-space probe */
	double last_probe_end_s;	/* end of the last user-space probe */
	double readiness_gap_max_s;	/* max over devices (0 in sync mode) */
	int probes, failed_probes, kills, udev_kills;
	int probe_kills;	/* SIGKILLs from udevd, or to a task loading a module, probing
				 * or in kthread_create */
	int first_other_kill;	/* index in b->kills of the first other SIGKILL, -1 if none */
	int other_signals;	/* signals but SIGKILL that explain follows (udev.timeout_signal) */
	int devices, bound;	/* test devices /init listed, those with a driver */
	/* A systemd boot's probes, disks and interfaces after multi-user.target (0 on the lab's) */
	int late_probes, late_devnodes;
};

void boot__metrics(const struct boot_data *b, struct boot_metrics *m);

/*
 * Readiness gap of probe @p: from the return of the module load that
 * brought its driver to the end of the probe; 0 when the probe ended first
 * (synchronous), NAN when no module load is known.
 */
double probe_span__readiness_gap(const struct boot_data *b, const struct probe_span *p);

/*
 * Readiness of a disk or network interface: when it appeared, against the
 * return of the module load that brought the driver of the device it hangs
 * off (what a script that runs modprobe and then looks for the device
 * sees), else the end of that device's probe.
 */
struct devnode_gap {
	double gap_s;		/* appeared this long after the reference; 0 if before */
	const char *ref;	/* "modprobe return", "probe end" or NULL (no reference) */
};

/* The gap of @d (gap_s NAN when nothing is known to measure from). */
void devnode__gap(const struct boot_data *b, const struct devnode *d, struct devnode_gap *g);

/* A kernel error number as its name ("-EINTR"), else the number. */
const char *errno_name(int ret);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* Per-boot answers: metrics, kill diagnoses, drivers at risk, readiness gaps. */
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
	double readiness_gap_max_s;	/* max over devices (0 in sync mode) */
	int probes, failed_probes, kills, udev_kills;
	int devices, bound;	/* test devices /init listed, those with a driver */
};

void boot__metrics(const struct boot_data *b, struct boot_metrics *m);

/*
 * Readiness gap of probe @p: from the return of the module load that
 * brought its driver to the end of the probe; 0 when the probe ended first
 * (synchronous), NAN when no module load is known.
 */
double probe_span__readiness_gap(const struct boot_data *b, const struct probe_span *p);

/* `bootprobe explain`: the causal chains of one boot, as text or JSON. */
void boot__explain(const struct boot_data *b, FILE *out);
struct json_object *boot__explain_json(const struct boot_data *b);

/* Chrome trace-event JSON (opens in the Perfetto UI). */
int boot__write_trace(const struct boot_data *b, const char *path);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-driver answers across modes: whose probes got faster or slower than in
 * the baseline mode, and which devices were bound in one mode but not in
 * every boot of the other (async regressions).  Computed here once, for
 * report.md, drivers.csv and summary.json alike.
 */
#ifndef BOOTPROBE_DRIVERS_H
#define BOOTPROBE_DRIVERS_H

#include <stdbool.h>

#include "rundata.h"

struct json_object;

/* A verdict needs this many boots with the driver's probes in each mode. */
#define DRIVER_MIN_BOOTS 3

/* The rule behind the verdicts, in words (report.md and summary.json). */
extern const char driver_verdict_rule[];

enum driver_verdict {
	DV_SLOWER, DV_FASTER, DV_UNCLEAR, DV_FEW_BOOTS, DV_ONLY_BASE, DV_ONLY_MODE,
};

/* "slower", "faster", "no clear change", "too few boots", "only in baseline", ... */
const char *driver_verdict__name(enum driver_verdict v);

/* One driver: its per-boot probe total in the baseline @a against mode @b. */
struct driver_change {
	const char *driver;
	const struct driver_stats *a, *b;	/* NULL where the mode never probed it */
	struct comparison c;			/* of the per-boot totals, b − a */
	enum driver_verdict verdict;
};

/*
 * Every driver of @a or @b: those in both by |difference of medians|,
 * largest first, then those of one mode only by name; none when a mode has
 * no ok boot with an event stream.  *@n entries; free().
 */
struct driver_change *driver_changes(const struct mode_stats *a, const struct mode_stats *b,
				     int *n);

/* One driver + device bound in a boot of one mode but not in a boot of the other. */
struct device_change {
	const char *driver, *device;
	const struct device_outcome *a, *b;	/* NULL: never probed in that mode */
	int not_bound_a, not_bound_b;		/* boots it was not bound in */
	int worse;				/* +1 more often unbound in b, -1 in a, 0 equally */
	double excess;				/* unbound share of b's boots − that of a's */
	/*
	 * Its driver bound as many devices per boot in both modes: the name
	 * moved (virtio, USB and network names follow probe order), no device
	 * was lost.
	 */
	bool renamed;
};

/*
 * Those pairs, the ones not renamed first, then the most more often unbound
 * in @b (none as above); *@n entries; free().
 */
struct device_change *device_changes(const struct mode_stats *a, const struct mode_stats *b,
				     int *n);

/* "bound 3 of 5, failed 1 of 5 (error -4), missing 1 of 5" for @d of mode @m. */
char *device_outcome__describe(const struct mode_stats *m, const struct device_outcome *d);

/*
 * summary.json's "drivers": the rule, then per non-baseline mode its driver
 * changes and device changes against the baseline.
 */
struct json_object *drivers__json(struct run_data *r);

#endif

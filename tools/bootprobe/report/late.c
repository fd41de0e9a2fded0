// SPDX-License-Identifier: GPL-2.0
/*
 * Late probes: on a systemd boot the boot time ends at multi-user.target
 * (boot_data__boot_time()), and what ends after it is not part of it but
 * may be waited for by whatever starts there.  The numbers are
 * analysis/aggregate.c's (struct late_stats).
 */
#include "late.h"

#include <math.h>
#include <stdio.h>

/* Seconds, or "-" for none. */
static void secs(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "-");
}

/* A count per boot: its median, and its range when it varies. */
static void put_per_boot(struct doc *d, const struct summary *s)
{
	if (!s->n)
		doc__cellf(d, "-");
	else if (s->min == s->max)
		doc__cellf(d, "%g", s->median);
	else
		doc__cellf(d, "%g (%g – %g)", s->median, s->min, s->max);
}

static void put_counts(struct doc *d, const struct run_data *r)
{
	doc__table(d);
	doc__cellf(d, "mode");
	doc__cellf(d, "systemd boots");
	doc__cellf(d, "boots with a late one");
	doc__cellf(d, "late probes per boot");
	doc__cellf(d, "late disks and interfaces per boot");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		if (!m->systemd_boots)
			continue;
		doc__row(d);
		doc__cell_name(d, m->name);
		doc__cellf(d, "%d", m->systemd_boots);
		doc__cellf(d, "%d", m->late_boots);
		put_per_boot(d, &m->late_probes_s);
		put_per_boot(d, &m->late_devnodes_s);
	}
}

/* The latest LATE_SHOWN of each mode; how many were left out, in *@rest. */
static void put_latest(struct doc *d, const struct run_data *r, int *rest)
{
	char end[32], after[32], max[32];

	doc__table(d);
	doc__cellf(d, "mode");
	doc__cellf(d, "what");
	doc__cellf(d, "device");
	doc__cellf(d, "driver");
	doc__cellf(d, "late in boots");
	doc__cellf(d, "end, median (s)");
	doc__cellf(d, "after multi-user.target, median (s)");
	doc__cellf(d, "after it, at most (s)");
	*rest = 0;
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		for (int k = 0; k < m->nr_late && k < LATE_SHOWN; k++) {
			const struct late_stats *l = &m->late[k];

			secs(end, sizeof(end), l->end.median);
			secs(after, sizeof(after), l->after.median);
			secs(max, sizeof(max), l->after.max);
			doc__row(d);
			doc__cell_name(d, m->name);
			doc__cell_name(d, l->kind);
			doc__cell_name(d, l->device);
			doc__cell_name(d, *l->driver ? l->driver : "-");
			doc__cellf(d, "%d/%d", l->boots, m->systemd_boots);
			doc__cellf(d, "%s", end);
			doc__cellf(d, "%s", after);
			doc__cellf(d, "%s", max);
		}
		if (m->nr_late > LATE_SHOWN)
			*rest += m->nr_late - LATE_SHOWN;
	}
}

void report__late(struct doc *d, const struct run_data *r)
{
	int systemd = 0, late = 0, rest;

	for (int i = 0; i < r->nr_modes; i++) {
		systemd += r->modes[i].systemd_boots;
		late += r->modes[i].nr_late;
	}
	if (!systemd)
		return;
	doc__heading(d, 2);
	doc__text(d, "Late: after multi-user.target");
	doc__para(d);
	doc__text(d, "On a systemd boot the boot time ends at multi-user.target. A probe, disk or "
		  "network interface that ends after it is late: a unit or script that starts "
		  "there and expects the device may not find it yet (Tejun Heo's objection to "
		  "asynchronous probing). Probes a driver rejected (-ENODEV, -ENXIO) made no "
		  "device and are not counted.");
	put_counts(d, r);
	if (!late) {
		doc__para(d);
		doc__text(d, "Nothing ended after multi-user.target in these boots.");
		return;
	}
	doc__para(d);
	doc__text(d, "The latest of each mode, at most %d (each probed device by its driver, each "
		  "disk or interface by the driver whose probe made it; the boot's last end when "
		  "it was late more than once):", LATE_SHOWN);
	put_latest(d, r, &rest);
	if (rest) {
		doc__para(d);
		doc__text(d, "%d more late probe%s, disk%s or interface%s not shown "
			  "(summary.json's late_after_target counts them all).", rest,
			  rest == 1 ? "" : "s", rest == 1 ? "" : "s", rest == 1 ? "" : "s");
	}
}

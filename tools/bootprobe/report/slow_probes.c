// SPDX-License-Identifier: GPL-2.0
/*
 * The first question a trace of a boot answers: which probes made it slow.
 * Per mode, of its typical boot (the ok boot whose boot time is closest to
 * the mode's median, the one the probe timeline draws): the slowest probes,
 * the probes that ended last before each milestone, and the device units
 * systemd's critical chain waited on.  The numbers are analysis/slowest.c's.
 */
#include "slow_probes.h"
#include "analyze.h"
#include "slowest.h"
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Seconds, or "-" for none. */
static void secs(char *buf, size_t len, double v)
{
	if (isfinite(v))
		snprintf(buf, len, "%.3f", v);
	else
		snprintf(buf, len, "-");
}

static double start_s(const struct probe_span *p)
{
	return p->start_ns == UNKNOWN_NS ? NAN : p->start_ns / 1e9;
}

static double duration_s(const struct probe_span *p)
{
	return probe_span__timed(p) ? (p->end_ns - p->start_ns) / 1e9 : NAN;
}

/* "bound", "-ENODEV", "-EPROBE_DEFER": what the probe returned. */
static const char *probe_result(const struct probe_span *p)
{
	return p->ret ? errno_name(p->ret) : "bound";
}

/*
 * The median over the ok boots of @mode with a stream of the time @driver
 * spent probing @device in each (its timed probes summed), and in how many
 * boots into *@n.
 */
static double median_over_mode(const struct run_data *r, const char *mode, const char *driver,
			       const char *device, size_t *n)
{
	double *v = xcalloc(r->nr_boots + 1, sizeof(*v)), med;

	*n = 0;
	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];
		double sum = 0;
		bool seen = false;

		if (strcmp(b->mode, mode) || !boot_data__ok(b) || !b->has_events)
			continue;
		for (int k = 0; k < b->nr_probes; k++) {
			const struct probe_span *p = &b->probes[k];

			if (probe_span__timed(p) && !strcmp(p->driver, driver) &&
			    !strcmp(p->device, device)) {
				sum += duration_s(p);
				seen = true;
			}
		}
		if (seen)
			v[(*n)++] = sum;
	}
	med = *n ? stats_median(v, *n) : NAN;
	free(v);
	return med;
}

/* A table, its header's cells @titles ending with NULL. */
static void put_table(struct doc *d, const char *const *titles)
{
	doc__table(d);
	for (int k = 0; titles[k]; k++)
		doc__cellf(d, "%s", titles[k]);
}

static void put_label(struct doc *d, const char *label)
{
	doc__para(d);
	doc__bold(d, label);
}

/* The slowest probes of @b, at most @rows. */
static void put_slowest(struct doc *d, const struct run_data *r, const struct mode_stats *m,
			const struct boot_data *b, int rows)
{
	int n, *idx = boot__probes_by_duration(b, &n);
	bool over_mode = m->event_boots > 1;
	char cause[256], a[32], c[32], med[32];

	put_label(d, "Slowest probes");
	doc__text(d, ": %d of the %d probes with a known start and end, the longest first; "
		  "start and duration in seconds since kernel start.", n < rows ? n : rows, n);
	if (over_mode)
		doc__text(d, " The last column: the same driver and device over the mode's %d ok "
			  "boots with an event stream (median of its time per boot, in the boots "
			  "it was probed in).", m->event_boots);
	if (!n) {
		free(idx);
		return;
	}
	put_table(d, (const char *const[]){ "driver", "device", "bus", "start (s)", "duration (s)",
			"sync or async", "started by", "result", NULL });
	if (over_mode)
		doc__cellf(d, "median in %d boots (s)", m->event_boots);
	for (int i = 0; i < n && i < rows; i++) {
		const struct probe_span *p = &b->probes[idx[i]];

		secs(a, sizeof(a), start_s(p));
		secs(c, sizeof(c), duration_s(p));
		doc__row(d);
		doc__cell_name(d, p->driver);
		doc__cell_name(d, p->device);
		doc__cell_name(d, *p->bus ? p->bus : "-");
		doc__cellf(d, "%s", a);
		doc__cellf(d, "%s", c);
		doc__cellf(d, "%s", p->async ? "async" : "sync");
		doc__cell_name(d, probe_span__cause(b, p, cause, sizeof(cause)));
		doc__cellf(d, "%s", probe_result(p));
		if (over_mode) {
			size_t nb;
			double v = median_over_mode(r, m->name, p->driver, p->device, &nb);

			secs(med, sizeof(med), v);
			doc__cellf(d, "%s (%zu)", med, nb);
		}
	}
	free(idx);
}

/* A milestone's cell: its title, and for the root device its disk and the probe that made it. */
static void put_milestone_cell(struct doc *d, int k, const struct milestone_at *ms)
{
	doc__cellf(d, "%s", milestone_titles[k]);
	if (k != MS_ROOT)
		return;
	doc__text(d, " (");
	doc__name(d, ms->what);
	if (ms->made_by && *ms->made_by->bound_driver) {
		doc__text(d, ", made by the probe of ");
		doc__name(d, ms->made_by->bound_driver);
		doc__text(d, " ");
		doc__name(d, ms->made_by->bound_device);
	}
	doc__text(d, ")");
}

/* The probes that ended last before each milestone @b reached. */
static void put_before_milestones(struct doc *d, const struct boot_data *b)
{
	struct milestone_at ms[MS_COUNT];
	int order[MS_COUNT], nr = 0;
	char at[32], end[32], gap[32], dur[32];

	boot__milestones(b, ms);
	/* In the order this boot reached them. */
	for (int k = 0; k < MS_COUNT; k++) {
		int j = nr++;

		if (isnan(ms[k].s)) {
			nr--;
			continue;
		}
		while (j > 0 && ms[order[j - 1]].s > ms[k].s) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = k;
	}
	put_label(d, "The last probes before each milestone");
	if (!nr) {
		doc__text(d, ": this boot has none of them (root device, /init's hand-over, "
			  "udev's coldplug, multi-user.target).");
		return;
	}
	doc__text(d, ": the %d probes that ended last before it, the latest first (seconds "
		  "since kernel start; \"before by\": the milestone's time less the probe's "
		  "end).", BEFORE_ROWS);
	if (!isnan(ms[MS_HANDOVER].s) || !isnan(ms[MS_MULTI_USER].s)) {
		if (isnan(ms[MS_ROOT].s) && *ms[MS_ROOT].what) {
			doc__text(d, " The root device (root=");
			doc__name(d, ms[MS_ROOT].what);
			doc__text(d, ") was not seen registered.");
		} else if (isnan(ms[MS_ROOT].s)) {
			doc__text(d, " The root device is not known (no root=/dev/NAME).");
		}
	}
	put_table(d, (const char *const[]){ "milestone", "at (s)", "driver", "device", "ended (s)",
			"before by (s)", "duration (s)", NULL });
	for (int i = 0; i < nr; i++) {
		const struct milestone_at *m = &ms[order[i]];
		int idx[BEFORE_ROWS], n = boot__probes_before(b, m->s, idx, BEFORE_ROWS);

		secs(at, sizeof(at), m->s);
		if (!n) {
			doc__row(d);
			put_milestone_cell(d, order[i], m);
			doc__cellf(d, "%s", at);
			for (int k = 0; k < 5; k++)
				doc__cellf(d, "%s", k ? "-" : "no probe ended before it");
			continue;
		}
		for (int j = 0; j < n; j++) {
			const struct probe_span *p = &b->probes[idx[j]];

			secs(end, sizeof(end), p->end_ns / 1e9);
			secs(gap, sizeof(gap), m->s - p->end_ns / 1e9);
			secs(dur, sizeof(dur), duration_s(p));
			doc__row(d);
			/* The milestone in its first row only: the rows under it are its probes. */
			if (!j) {
				put_milestone_cell(d, order[i], m);
				doc__cellf(d, "%s", at);
			} else {
				doc__cell(d);
				doc__cell(d);
			}
			doc__cell_name(d, p->driver);
			doc__cell_name(d, p->device);
			doc__cellf(d, "%s", end);
			doc__cellf(d, "%s", gap);
			doc__cellf(d, "%s", dur);
		}
	}
}

/* The probe that made @c's device, else the last probe that ended before it was active. */
static void put_chain_probe(struct doc *d, const struct boot_data *b, const struct chain_device *c)
{
	const struct devnode *dn = c->made_by;
	char end[32];
	int idx;

	if (dn && *dn->bound_driver) {
		doc__cell_name(d, dn->bound_driver);
		doc__text(d, " ");
		doc__name(d, dn->bound_device);
		doc__text(d, " (made it)");
		return;
	}
	if (boot__probes_before(b, c->at_s, &idx, 1) != 1) {
		doc__cellf(d, "none known");
		return;
	}
	secs(end, sizeof(end), b->probes[idx].end_ns / 1e9);
	doc__cell_name(d, b->probes[idx].driver);
	doc__text(d, " ");
	doc__name(d, b->probes[idx].device);
	doc__text(d, " (no probe known to make it; the last to end before it, at %s s)", end);
}

/* The device units on @b's critical chain, if it sent one. */
static void put_chain(struct doc *d, const struct boot_data *b)
{
	struct chain_device c[CHAIN_DEVICES_MAX];
	int n = boot__chain_devices(b, c);
	char at[32], took[32];

	if (n < 0)
		return;
	put_label(d, "Device units on systemd's critical chain");
	if (!n) {
		doc__text(d, ": none; the chain (");
		doc__code(d, "systemd-analyze critical-chain");
		doc__text(d, ", in the boot folder) waited on no device.");
		return;
	}
	doc__text(d, ": what ");
	doc__code(d, "systemd-analyze critical-chain");
	doc__text(d, " shows the default target waited on, active at (seconds since kernel "
		  "start, placed by systemd-analyze time's kernel and initrd), and the probe "
		  "behind it.");
	put_table(d, (const char *const[]){ "unit", "active at (s)", "took (s)", "probe", NULL });
	for (int i = 0; i < n; i++) {
		secs(at, sizeof(at), c[i].at_s);
		secs(took, sizeof(took), c[i].took_s);
		doc__row(d);
		doc__cell_name(d, c[i].unit);
		doc__cellf(d, "%s", at);
		doc__cellf(d, "%s", took);
		put_chain_probe(d, b, &c[i]);
	}
}

void report__slow_probes(struct doc *d, struct run_data *r)
{
	int rows = r->nr_modes > 1 ? SLOWEST_ROWS_PER_MODE : SLOWEST_ROWS_ONE_MODE;

	doc__heading(d, 2);
	doc__text(d, "Which probes made the boot slow");
	doc__para(d);
	doc__text(d, "Per mode, its typical boot: the ok boot whose boot time is closest to the "
		  "mode's median (the one the probe timeline draws). Every probe of a boot: ");
	doc__code(d, "bootprobe timeline BOOT");
	doc__text(d, "; every driver's probe times per mode: drivers.csv.");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		const struct boot_data *b = run_data__typical_boot(r, m);

		doc__heading(d, 3);
		doc__name(d, m->name);
		if (!b || !b->has_events) {
			doc__para(d);
			doc__text(d, "No ok boot with an event stream: no probe to show.");
			continue;
		}
		doc__text(d, ": ");
		doc__name(d, b->name);
		put_slowest(d, r, m, b, rows);
		put_before_milestones(d, b);
		put_chain(d, b);
	}
}

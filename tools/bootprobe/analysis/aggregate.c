// SPDX-License-Identifier: GPL-2.0
/*
 * A run's boots per mode: the samples and counts every statistic is made
 * from (run_data__analyze()).
 */
#define _GNU_SOURCE
#include "rundata.h"
#include "drivers.h"
#include "jsonio.h"
#include "sdanalyze.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void push_value(double **arr, size_t *n, double v)
{
	if (isnan(v))
		return;
	*arr = realloc(*arr, (*n + 1) * sizeof(**arr));
	if (!*arr)
		abort();
	(*arr)[(*n)++] = v;
}

/*
 * Each look-up of a driver, a device, a devnode, an order or a mode goes
 * through a hash index (keymap.h): adding a boot costs O(its records), not
 * O(its records x the mode's drivers).
 */
static struct driver_stats *mode__driver(struct mode_stats *m, const char *driver)
{
	int i = keymap__put_str(&m->driver_index, driver, m->nr_drivers);
	struct driver_stats *d;

	if (i < m->nr_drivers)
		return &m->drivers[i];
	d = ARRAY_PUSH(m->drivers, m->nr_drivers);
	snprintf(d->driver, sizeof(d->driver), "%s", driver);
	return d;
}

static void count_string(struct strv *set, struct keymap *index, int **counts, const char *s)
{
	int i = keymap__put_str(index, s, (int)set->n);

	if ((size_t)i < set->n) {
		(*counts)[i]++;
		return;
	}
	strv__push(set, s);
	*counts = realloc(*counts, set->n * sizeof(**counts));
	if (!*counts)
		abort();
	(*counts)[set->n - 1] = 1;
}

static int cmp_probe_start(const void *a, const void *b)
{
	const struct probe_span *x = *(const struct probe_span *const *)a;
	const struct probe_span *y = *(const struct probe_span *const *)b;

	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* The order devices were probed in, and which driver each ended with. */
static void boot__orders(const struct boot_data *b, struct mode_stats *m)
{
	const struct probe_span **ps = xcalloc(b->nr_probes + 1, sizeof(*ps));
	char *order = NULL, *devs = NULL;
	size_t len = 0, dlen = 0;
	FILE *f = open_memstream(&order, &len), *g = open_memstream(&devs, &dlen);
	int n = 0;

	for (int i = 0; i < b->nr_probes; i++)
		if (probe_span__in_user_space(b, &b->probes[i]))
			ps[n++] = &b->probes[i];
	qsort(ps, n, sizeof(*ps), cmp_probe_start);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", ps[i]->device);
	for (int i = 0; i < b->nr_devices; i++)
		fprintf(g, "%s%s=%s", i ? " " : "", b->devices[i].device, b->devices[i].driver);
	fclose(f);
	fclose(g);
	if (n)
		count_string(&m->orders, &m->order_index, &m->order_count, order);
	if (b->nr_devices)
		count_string(&m->device_sets, &m->device_set_index, &m->device_set_count, devs);
	free(order);
	free(devs);
	free(ps);
}

/*
 * Ok boot @b's user-space probes into each driver's list, and each driver's
 * total of them into its per-boot list; the number of distinct drivers.
 */
static int mode__add_probes(struct mode_stats *m, const struct boot_data *b)
{
	int drivers = 0;

	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		double s = (p->end_ns - p->start_ns) / 1e9;
		struct driver_stats *d;

		if (!probe_span__in_user_space(b, p))
			continue;
		d = mode__driver(m, p->driver);
		push_value(&d->probe_s, &d->n, s);
		if (d->last_boot != m->ok) {
			d->last_boot = m->ok;
			push_value(&d->boot_s, &d->nr_boot_s, 0);
			drivers++;
		}
		d->boot_s[d->nr_boot_s - 1] += s;
	}
	return drivers;
}

static struct device_outcome *mode__device(struct mode_stats *m, const struct probe_span *p)
{
	char key[2 * NAME_LEN + 2];
	int i = keymap__put(&m->dev_end_index, key,
			    keymap__pair(key, sizeof(key), p->driver, p->device), m->nr_dev_ends);
	struct device_outcome *d;

	if (i < m->nr_dev_ends)
		return &m->dev_ends[i];
	d = ARRAY_PUSH(m->dev_ends, m->nr_dev_ends);
	snprintf(d->driver, sizeof(d->driver), "%s", p->driver);
	snprintf(d->device, sizeof(d->device), "%s", p->device);
	return d;
}

/*
 * How every driver + device pair of ok boot @b ended, over all its probe
 * spans (before user space too): bound if one returned 0, else failed if one
 * failed, else unbound (rejected or deferred only).
 */
static void mode__add_device_ends(struct mode_stats *m, const struct boot_data *b)
{
	int *seen = xcalloc(b->nr_probes + 1, sizeof(*seen)), nr_seen = 0;

	m->event_boots++;
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		struct device_outcome *d = mode__device(m, p);
		enum device_end end = !p->ret ? DEV_BOUND :
				      probe_span__failed(p) ? DEV_FAILED : DEV_UNBOUND;

		if (end == DEV_FAILED && !d->first_error)
			d->first_error = p->ret;
		if (d->last_boot != m->event_boots) {
			d->last_boot = m->event_boots;
			d->end = end;
			seen[nr_seen++] = (int)(d - m->dev_ends);
		} else if (end > d->end) {
			d->end = end;
		}
	}
	/* The pairs this boot probed, each once: not every pair the mode has seen. */
	for (int i = 0; i < nr_seen; i++) {
		struct device_outcome *d = &m->dev_ends[seen[i]];

		d->bound += d->end == DEV_BOUND;
		d->failed += d->end == DEV_FAILED;
		d->unbound += d->end == DEV_UNBOUND;
	}
	free(seen);
}

/*
 * What @b's collector lost or the reader refused: counted so that no
 * incomplete count looks whole.
 */
static void mode__add_losses(struct mode_stats *m, const struct boot_data *b)
{
	struct boot_losses l;

	boot_data__losses(b, &l);
	m->boots_lossy += l.incomplete != 0;
	m->boots_kills_incomplete += !!(l.incomplete & INC_KILLS);
	m->boots_probes_incomplete += !!(l.incomplete & INC_PROBES);
	m->boots_refused += l.refused > 0;
	m->records_refused += l.refused;
	/* Each boot's is at most INT64_MAX (boot.c saturates it); the sum saturates too. */
	m->events_lost = l.lost > INT64_MAX - m->events_lost ? INT64_MAX : m->events_lost + l.lost;
}

/* Ok boot @b's phases, if it reached systemd (image debian). */
static void mode__add_phases(struct mode_stats *m, const struct boot_data *b)
{
	struct boot_phases p;

	boot__phases(b, &p);
	if (!p.systemd && isnan(p.s[PS_BOOTPROBE][PH_TO_SYSTEMD]))
		return;
	m->phase_boots++;
	for (int i = 0; i < PS_COUNT; i++)
		for (int k = 0; k < PH_COUNT; k++)
			push_value(&m->phase[i][k], &m->nr_phase[i][k], p.s[i][k]);
}

/* Ok boot @b's stages, if it ran our /init. */
static void mode__add_stages(struct mode_stats *m, const struct boot_data *b)
{
	double s[ST_COUNT];

	if (!boot__stages(b, s))
		return;
	m->stage_boots++;
	for (int k = 0; k < ST_COUNT; k++)
		push_value(&m->stage[k], &m->nr_stage[k], s[k]);
}

static struct devnode_stats *mode__devnode(struct mode_stats *m, const struct devnode *d)
{
	char key[4 * NAME_LEN + 4];
	size_t len = keymap__pair(key, 2 * NAME_LEN + 2, d->name, d->kind);
	struct devnode_stats *s;
	int i;

	len += keymap__pair(key + len, 2 * NAME_LEN + 2, d->bound_driver, "") - 1;
	i = keymap__put(&m->devnode_index, key, len, m->nr_devnodes);
	if (i < m->nr_devnodes)
		return &m->devnodes[i];
	s = ARRAY_PUSH(m->devnodes, m->nr_devnodes);
	snprintf(s->name, sizeof(s->name), "%s", d->name);
	snprintf(s->kind, sizeof(s->kind), "%s", d->kind);
	snprintf(s->driver, sizeof(s->driver), "%s", d->bound_driver);
	if (!sd_device_unit(d->kind, d->name, s->unit, sizeof(s->unit)))
		*s->unit = '\0';
	return s;
}

/* Ok boot @b's disks and interfaces that registered, with their gaps. */
static void mode__add_devnodes(struct mode_stats *m, const struct boot_data *b)
{
	const char *blame = boot_data__attachment(b, SD_ANALYZE_BLAME);

	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];
		struct devnode_stats *s;
		struct devnode_gap g;

		if (d->ret)
			continue;
		s = mode__devnode(m, d);
		s->boots++;
		devnode__gap(b, d, &g);
		push_value(&s->gap_s, &s->n, g.gap_s);
		/* How long systemd's job for its .device unit waited (blame). */
		if (*s->unit && blame)
			push_value(&s->unit_s, &s->nr_unit, sd_blame__unit(blame, s->unit));
		if (g.ref)
			s->ref = g.ref;
	}
}

static struct late_stats *mode__late(struct mode_stats *m, const char *kind, const char *device,
				     const char *driver)
{
	char key[4 * NAME_LEN + 4];
	size_t len = keymap__pair(key, 2 * NAME_LEN + 2, kind, device);
	struct late_stats *l;
	int i;

	len += keymap__pair(key + len, 2 * NAME_LEN + 2, driver, "") - 1;
	i = keymap__put(&m->late_index, key, len, m->nr_late);
	if (i < m->nr_late)
		return &m->late[i];
	l = ARRAY_PUSH(m->late, m->nr_late);
	snprintf(l->kind, sizeof(l->kind), "%s", kind);
	snprintf(l->device, sizeof(l->device), "%s", device);
	snprintf(l->driver, sizeof(l->driver), "%s", driver);
	return l;
}

/* One late end (@end_s) of ok boot m->ok: a boot's last end of the same thing counts. */
static void late__add(struct mode_stats *m, struct late_stats *l, double end_s, double target_s)
{
	size_t n = l->n;

	if (l->last_boot == m->ok) {
		if (end_s > l->end_s[n - 1]) {
			l->end_s[n - 1] = end_s;
			l->after_s[n - 1] = end_s - target_s;
		}
		return;
	}
	l->last_boot = m->ok;
	l->boots++;
	push_value(&l->end_s, &n, end_s);
	push_value(&l->after_s, &l->n, end_s - target_s);
}

/*
 * Ok boot @b's definition of boot time, and on a systemd boot what ended
 * after multi-user.target: counted per boot, and each by name.
 */
static void mode__add_late(struct mode_stats *m, const struct boot_data *b,
			   const struct boot_metrics *bm)
{
	if (isnan(bm->boot_s))
		return;
	if (!boot_data__is_systemd(b)) {
		m->lab_boots++;
		return;
	}
	m->systemd_boots++;
	m->late_boots += bm->late_probes + bm->late_devnodes > 0;
	push_value(&m->late_probes, &m->nr_late_probes, bm->late_probes);
	push_value(&m->late_devnodes, &m->nr_late_devnodes, bm->late_devnodes);
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];

		if (probe_span__late(b, p))
			late__add(m, mode__late(m, "probe", p->device, p->driver), p->end_ns / 1e9,
				  b->multi_user_s);
	}
	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];

		if (devnode__late(b, d))
			late__add(m, mode__late(m, d->kind, d->name, d->bound_driver),
				  d->ts_ns / 1e9, b->multi_user_s);
	}
}

/* The latest after multi-user.target first (by the median), then by kind, device, driver. */
static int cmp_late(const void *a, const void *b)
{
	const struct late_stats *x = a, *y = b;
	int c;

	if (x->after.median != y->after.median)
		return x->after.median < y->after.median ? 1 : -1;
	c = strcmp(x->kind, y->kind);
	if (!c)
		c = strcmp(x->device, y->device);
	return c ? c : strcmp(x->driver, y->driver);
}

const char *mode_stats__boot_time_kind(const struct mode_stats *m)
{
	if (m->systemd_boots && m->lab_boots)
		return "mixed";
	return m->systemd_boots ? "systemd" : m->lab_boots ? "lab" : NULL;
}

const char *run_data__boot_time_words(const struct run_data *r, bool sentence)
{
	const char *const *w = sentence ? boot_time_sentence : boot_time_words;
	static char both[2][640];
	int systemd = 0, lab = 0;

	for (int i = 0; i < r->nr_modes; i++) {
		systemd += r->modes[i].systemd_boots;
		lab += r->modes[i].lab_boots;
	}
	if (!systemd || !lab)
		return w[systemd > 0];
	snprintf(both[sentence], sizeof(both[sentence]), sentence ?
		 "on a systemd boot %s; on a lab boot %s" : "systemd boots: %s; lab boots: %s",
		 w[1], w[0]);
	return both[sentence];
}

int device_outcome__missing(const struct mode_stats *m, const struct device_outcome *d)
{
	return m->event_boots - d->bound - d->failed - d->unbound;
}

static void mode__add_boot(struct mode_stats *m, const struct boot_data *b)
{
	struct boot_metrics bm;
	double v[M_COUNT];
	int drivers;

	m->boots++;
	boot__metrics(b, &bm);
	mode__add_losses(m, b);
	m->boots_with_kills += (b->has_events ? bm.probe_kills : bm.udev_kills) > 0;
	if (b->has_events && bm.first_other_kill >= 0) {
		const struct kill_event *k = &b->kills[bm.first_other_kill];

		m->boots_with_other_kills++;
		if (!m->other_kill)
			m->other_kill = xasprintf("%s, sent by %s", k->target_comm, k->sender_comm);
	}
	if (b->udev_ignored.n) {
		m->boots_udev_ignored++;
		if (!m->udev_ignored)
			m->udev_ignored = xstrdup(b->udev_ignored.v[0]);
	}
	if (!boot_data__ok(b))
		return;
	m->ok++;
	m->probes += bm.probes;
	m->failed_probes += bm.failed_probes;
	m->boots_with_failed += bm.failed_probes > 0;
	if (bm.devices > m->devices)
		m->devices = bm.devices;
	v[M_BOOT] = bm.boot_s;
	v[M_GUEST] = bm.guest_s;
	v[M_WALL] = bm.wall_s;
	v[M_PHASE] = bm.probe_phase_s;
	v[M_FIRST] = bm.first_probe_s;
	v[M_PROBE_MAX] = bm.probe_max_s;
	v[M_PROBE_SUM] = bm.probe_sum_s;
	v[M_GAP] = bm.readiness_gap_max_s;
	v[M_KILLS] = b->has_events ? bm.kills : bm.udev_kills;
	/* A boot read from its kernel log has its probes too (docs/gather.md). */
	v[M_FAILED] = b->has_events || b->from_log ? bm.failed_probes : NAN;
	v[M_BOUND] = bm.devices ? bm.bound : NAN;
	drivers = mode__add_probes(m, b);
	v[M_DRIVERS] = b->has_events || b->from_log ? drivers : NAN;
	if (b->has_events || b->from_log)
		mode__add_device_ends(m, b);
	if (b->has_events)
		mode__add_devnodes(m, b);
	mode__add_phases(m, b);
	mode__add_stages(m, b);
	mode__add_late(m, b, &bm);
	for (int i = 0; i < M_COUNT; i++)
		push_value(&m->values[i], &m->n[i], v[i]);
	if (bm.probes) {
		push_value(&m->eff_longest, &m->nr_eff_longest, bm.probe_phase_s / bm.probe_max_s);
		push_value(&m->eff_sum, &m->nr_eff_sum, bm.probe_phase_s / bm.probe_sum_s);
	}
	boot__orders(b, m);
}

void run_data__analyze(struct run_data *r)
{
	for (int i = 0; i < r->nr_boots; i++) {
		struct boot_data *b = r->boots[i];
		int k = keymap__put_str(&r->mode_index, b->mode, r->nr_modes);
		struct mode_stats *m;

		if (k == r->nr_modes) {
			m = ARRAY_PUSH(r->modes, r->nr_modes);
			m->name = xstrdup(b->mode);
		}
		m = &r->modes[k];
		mode__add_boot(m, b);
		for (size_t j = 0; j < b->warnings.n; j++)
			strv__push(&r->warnings, b->warnings.v[j]);
	}
	for (int i = 0; i < r->nr_modes; i++) {
		struct mode_stats *m = &r->modes[i];

		for (int k = 0; k < M_COUNT; k++)
			stats_summarize(m->values[k], m->n[k], &m->s[k]);
		for (int k = 0; k < m->nr_drivers; k++) {
			struct driver_stats *d = &m->drivers[k];

			stats_summarize(d->probe_s, d->n, &d->s);
			stats_summarize(d->boot_s, d->nr_boot_s, &d->per_boot);
		}
		for (int s = 0; s < PS_COUNT; s++)
			for (int k = 0; k < PH_COUNT; k++)
				stats_summarize(m->phase[s][k], m->nr_phase[s][k], &m->phase_s[s][k]);
		for (int k = 0; k < ST_COUNT; k++)
			stats_summarize(m->stage[k], m->nr_stage[k], &m->stage_s[k]);
		for (int k = 0; k < m->nr_devnodes; k++) {
			struct devnode_stats *d = &m->devnodes[k];

			stats_summarize(d->gap_s, d->n, &d->s);
			stats_summarize(d->unit_s, d->nr_unit, &d->unit_sum);
		}
		stats_summarize(m->late_probes, m->nr_late_probes, &m->late_probes_s);
		stats_summarize(m->late_devnodes, m->nr_late_devnodes, &m->late_devnodes_s);
		for (int k = 0; k < m->nr_late; k++) {
			struct late_stats *l = &m->late[k];

			stats_summarize(l->end_s, l->n, &l->end);
			stats_summarize(l->after_s, l->n, &l->after);
		}
		/* Sorted, late[] is no longer in its index's order. */
		if (m->nr_late)
			qsort(m->late, m->nr_late, sizeof(*m->late), cmp_late);
		keymap__free(&m->late_index);
		stats_summarize(m->eff_longest, m->nr_eff_longest, &m->eff_longest_s);
		stats_summarize(m->eff_sum, m->nr_eff_sum, &m->eff_sum_s);
	}
}

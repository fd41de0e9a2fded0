// SPDX-License-Identifier: GPL-2.0
/*
 * Per-driver answers across modes, from what rundata.c gathered per mode:
 * each driver's per-boot probe total (struct driver_stats.boot_s) and each
 * driver + device pair's ending per boot (struct device_outcome).
 */
#define _GNU_SOURCE
#include "drivers.h"
#include "jsonio.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char driver_verdict_rule[] =
	"a driver is faster or slower when the 95 % bootstrap CI of the difference of "
	"medians of its per-boot probe total excludes 0 and its Mann-Whitney p, "
	"Holm-adjusted over the drivers of that mode with at least 3 such boots in each "
	"mode, is below 0.05; otherwise no clear change";

static const char *const verdict_names[] = {
	[DV_SLOWER] = "slower",
	[DV_FASTER] = "faster",
	[DV_UNCLEAR] = "no clear change",
	[DV_FEW_BOOTS] = "too few boots",
	[DV_ONLY_BASE] = "only in baseline",
	[DV_ONLY_MODE] = "only in mode",
};

const char *driver_verdict__name(enum driver_verdict v)
{
	return verdict_names[v];
}

/* Through the mode's indexes (aggregate.c): O(1) per look-up. */
static const struct driver_stats *mode__find_driver(const struct mode_stats *m,
						    const char *driver)
{
	int i = keymap__get_str(&m->driver_index, driver);

	return i < 0 ? NULL : &m->drivers[i];
}

static void driver_change__compare(struct driver_change *d)
{
	/* An empty side gives NaNs, not zeros. */
	compare_samples(d->a ? d->a->boot_s : NULL, d->a ? d->a->nr_boot_s : 0,
			d->b ? d->b->boot_s : NULL, d->b ? d->b->nr_boot_s : 0, &d->c);
}

static bool driver_change__judged(const struct driver_change *d)
{
	return d->a && d->b && d->c.na >= DRIVER_MIN_BOOTS && d->c.nb >= DRIVER_MIN_BOOTS;
}

static void driver_change__judge(struct driver_change *d)
{
	struct comparison *c = &d->c;

	if (!d->b)
		d->verdict = DV_ONLY_BASE;
	else if (!d->a)
		d->verdict = DV_ONLY_MODE;
	else if (!driver_change__judged(d))
		d->verdict = DV_FEW_BOOTS;
	else if (comparison__significant(c))
		d->verdict = c->diff_lo > 0 ? DV_SLOWER : DV_FASTER;
	else
		d->verdict = DV_UNCLEAR;
}

/* The judged drivers of a mode are one family: Holm over them, then the verdicts. */
static void driver_changes__judge(struct driver_change *v, int n)
{
	struct comparison **fam = xcalloc(n + 1, sizeof(*fam));
	int k = 0;

	for (int i = 0; i < n; i++) {
		driver_change__compare(&v[i]);
		if (driver_change__judged(&v[i]))
			fam[k++] = &v[i].c;
	}
	comparisons__holm(fam, k);
	for (int i = 0; i < n; i++)
		driver_change__judge(&v[i]);
	free(fam);
}

/* Drivers of both modes by |difference| (NaN last), then one-mode ones; then by name. */
static int cmp_driver_change(const void *pa, const void *pb)
{
	const struct driver_change *x = pa, *y = pb;
	bool one_x = x->verdict >= DV_ONLY_BASE, one_y = y->verdict >= DV_ONLY_BASE;
	double dx = fabs(x->c.diff), dy = fabs(y->c.diff);

	if (one_x != one_y)
		return one_x - one_y;
	if (one_x && x->verdict != y->verdict)
		return (int)x->verdict - (int)y->verdict;
	if (!one_x && isnan(dx) != isnan(dy))
		return isnan(dx) - isnan(dy);
	if (!one_x && dx != dy)
		return dx < dy ? 1 : -1;
	return strcmp(x->driver, y->driver);
}

struct driver_change *driver_changes(const struct mode_stats *a, const struct mode_stats *b,
				     int *n)
{
	struct driver_change *v = xcalloc(a->nr_drivers + b->nr_drivers + 1, sizeof(*v));

	*n = 0;
	if (!a->event_boots || !b->event_boots)
		return v;
	for (int i = 0; i < a->nr_drivers; i++) {
		v[*n].driver = a->drivers[i].driver;
		v[*n].a = &a->drivers[i];
		v[(*n)++].b = mode__find_driver(b, a->drivers[i].driver);
	}
	for (int i = 0; i < b->nr_drivers; i++) {
		if (mode__find_driver(a, b->drivers[i].driver))
			continue;
		v[*n].driver = b->drivers[i].driver;
		v[(*n)++].b = &b->drivers[i];
	}
	driver_changes__judge(v, *n);
	qsort(v, *n, sizeof(*v), cmp_driver_change);
	return v;
}

static const struct device_outcome *mode__find_device(const struct mode_stats *m,
						      const char *driver, const char *device)
{
	char key[2 * NAME_LEN + 2];
	int i = keymap__get(&m->dev_end_index, key, keymap__pair(key, sizeof(key), driver, device));

	return i < 0 ? NULL : &m->dev_ends[i];
}

/* Devices each driver bound, summed over a mode's boots with an event stream. */
struct bound_totals {
	struct keymap index;	/* driver -> total[] */
	long *total;
	int n;
};

static void bound_totals__init(struct bound_totals *t, const struct mode_stats *m)
{
	memset(t, 0, sizeof(*t));
	for (int i = 0; i < m->nr_dev_ends; i++) {
		int k = keymap__put_str(&t->index, m->dev_ends[i].driver, t->n);

		if (k == t->n)
			*ARRAY_PUSH(t->total, t->n) = 0;
		t->total[k] += m->dev_ends[i].bound;
	}
}

static long bound_totals__get(const struct bound_totals *t, const char *driver)
{
	int k = keymap__get_str(&t->index, driver);

	return k < 0 ? 0 : t->total[k];
}

static void bound_totals__free(struct bound_totals *t)
{
	keymap__free(&t->index);
	free(t->total);
}

/* Fill @c for the pair; false if it was bound alike (or never) in both modes. */
static bool device_change__fill(struct device_change *c, const struct mode_stats *a,
				const struct mode_stats *b, const struct bound_totals *ta,
				const struct bound_totals *tb)
{
	int bound_a = c->a ? c->a->bound : 0, bound_b = c->b ? c->b->bound : 0;
	long rate_a, rate_b;

	c->not_bound_a = a->event_boots - bound_a;
	c->not_bound_b = b->event_boots - bound_b;
	if (!(bound_a && c->not_bound_b) && !(bound_b && c->not_bound_a))
		return false;
	/* Compare the rates not_bound / boots without dividing. */
	rate_a = (long)c->not_bound_a * b->event_boots;
	rate_b = (long)c->not_bound_b * a->event_boots;
	c->worse = (rate_b > rate_a) - (rate_b < rate_a);
	c->excess = (double)c->not_bound_b / b->event_boots - (double)c->not_bound_a / a->event_boots;
	/* As many bound per boot in both modes, compared without dividing. */
	c->renamed = bound_totals__get(ta, c->driver) * b->event_boots ==
		     bound_totals__get(tb, c->driver) * a->event_boots;
	return true;
}

/* More often unbound in b first, by how much more often; then by name. */
static int cmp_device_change(const void *pa, const void *pb)
{
	const struct device_change *x = pa, *y = pb;
	int r = strcmp(x->driver, y->driver);

	if (x->renamed != y->renamed)
		return x->renamed ? 1 : -1;
	if (x->excess != y->excess)
		return x->excess < y->excess ? 1 : -1;
	return r ? r : strcmp(x->device, y->device);
}

struct device_change *device_changes(const struct mode_stats *a, const struct mode_stats *b,
				     int *n)
{
	struct device_change *v = xcalloc(a->nr_dev_ends + b->nr_dev_ends + 1, sizeof(*v));
	const struct mode_stats *side[] = { a, b };
	struct bound_totals ta, tb;

	*n = 0;
	if (!a->event_boots || !b->event_boots)
		return v;
	bound_totals__init(&ta, a);
	bound_totals__init(&tb, b);
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < side[s]->nr_dev_ends; i++) {
			const struct device_outcome *d = &side[s]->dev_ends[i];
			struct device_change *c = &v[*n];

			/* A pair of both modes is taken from a's list only. */
			if (s == 1 && mode__find_device(a, d->driver, d->device))
				continue;
			c->driver = d->driver;
			c->device = d->device;
			c->a = s ? NULL : d;
			c->b = s ? d : mode__find_device(b, d->driver, d->device);
			if (device_change__fill(c, a, b, &ta, &tb))
				(*n)++;
			else
				memset(c, 0, sizeof(*c));
		}
	}
	bound_totals__free(&ta);
	bound_totals__free(&tb);
	qsort(v, *n, sizeof(*v), cmp_device_change);
	return v;
}

char *device_outcome__describe(const struct mode_stats *m, const struct device_outcome *d)
{
	int boots = m->event_boots, missing = d ? device_outcome__missing(m, d) : boots;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	const char *sep = "";

	if (d && d->bound) {
		fprintf(f, "bound %d of %d", d->bound, boots);
		sep = ", ";
	}
	if (d && d->failed) {
		fprintf(f, "%sfailed %d of %d (error %d)", sep, d->failed, boots, d->first_error);
		sep = ", ";
	}
	if (d && d->unbound) {
		fprintf(f, "%sonly rejected or deferred %d of %d", sep, d->unbound, boots);
		sep = ", ";
	}
	if (missing)
		fprintf(f, "%smissing %d of %d", sep, missing, boots);
	fclose(f);
	return text;
}

/* ---- summary.json ------------------------------------------------------------------ */

static json_object *driver_change__json(const struct driver_change *d)
{
	json_object *o = json_object_new_object();
	const struct comparison *c = &d->c;

	json_object_object_add(o, "driver", json_object_new_string(d->driver));
	json_object_object_add(o, "verdict", json_object_new_string(driver_verdict__name(d->verdict)));
	json_object_object_add(o, "baseline_boots", json_object_new_int(d->a ? (int)d->a->nr_boot_s : 0));
	json_object_object_add(o, "mode_boots", json_object_new_int(d->b ? (int)d->b->nr_boot_s : 0));
	json_object_object_add(o, "baseline_median_s", jnum(d->a ? d->a->per_boot.median : NAN));
	json_object_object_add(o, "mode_median_s", jnum(d->b ? d->b->per_boot.median : NAN));
	json_object_object_add(o, "median_diff_s", jnum(c->diff));
	json_object_object_add(o, "diff_ci95_lo_s", jnum(c->diff_lo));
	json_object_object_add(o, "diff_ci95_hi_s", jnum(c->diff_hi));
	json_object_object_add(o, "pct", jnum(c->pct));
	json_object_object_add(o, "mann_whitney_p", jnum(c->mw.p));
	comparison__json_power(o, c);
	return o;
}

static json_object *device_outcome__json(const struct mode_stats *m,
					 const struct device_outcome *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "boots", json_object_new_int(m->event_boots));
	json_object_object_add(o, "bound", json_object_new_int(d ? d->bound : 0));
	json_object_object_add(o, "failed", json_object_new_int(d ? d->failed : 0));
	json_object_object_add(o, "rejected_or_deferred", json_object_new_int(d ? d->unbound : 0));
	json_object_object_add(o, "missing",
			       json_object_new_int(d ? device_outcome__missing(m, d) : m->event_boots));
	if (d && d->failed)
		json_object_object_add(o, "first_error", json_object_new_int(d->first_error));
	return o;
}

static const char *const direction_names[] = { "better in mode", "as often", "worse in mode" };

static json_object *device_change__json(const struct device_change *c,
					const struct mode_stats *a, const struct mode_stats *b)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "driver", json_object_new_string(c->driver));
	json_object_object_add(o, "device", json_object_new_string(c->device));
	json_object_object_add(o, "direction", json_object_new_string(direction_names[c->worse + 1]));
	json_object_object_add(o, "baseline", device_outcome__json(a, c->a));
	json_object_object_add(o, "mode", device_outcome__json(b, c->b));
	if (c->renamed)
		json_object_object_add(o, "renamed", json_object_new_boolean(true));
	return o;
}

/* One non-baseline mode @b against the baseline @a. */
static json_object *mode_changes__json(const struct mode_stats *a, const struct mode_stats *b)
{
	json_object *o = json_object_new_object();
	json_object *drv = json_object_new_array(), *dev = json_object_new_array();
	struct driver_change *dc;
	struct device_change *vc;
	int n;

	json_object_object_add(o, "mode", json_object_new_string(b->name));
	json_object_object_add(o, "boots_with_events", json_object_new_int(b->event_boots));
	dc = driver_changes(a, b, &n);
	for (int i = 0; i < n; i++)
		json_object_array_add(drv, driver_change__json(&dc[i]));
	free(dc);
	json_object_object_add(o, "drivers", drv);
	vc = device_changes(a, b, &n);
	for (int i = 0; i < n; i++)
		json_object_array_add(dev, device_change__json(&vc[i], a, b));
	free(vc);
	json_object_object_add(o, "devices_bound_differently", dev);
	return o;
}

/* Per mode: distinct drivers probed per ok boot (median) and over all its ok boots. */
static json_object *distinct__json(const struct run_data *r)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "mode", json_object_new_string(m->name));
		json_object_object_add(o, "boots", json_object_new_int((int)m->n[M_DRIVERS]));
		json_object_object_add(o, "per_boot_median", jnum(m->s[M_DRIVERS].median));
		json_object_object_add(o, "union", json_object_new_int(m->nr_drivers));
		json_object_array_add(a, o);
	}
	return a;
}

json_object *drivers__json(struct run_data *r)
{
	json_object *o = json_object_new_object(), *modes = json_object_new_array();
	const struct mode_stats *base = run_data__baseline(r);

	json_object_object_add(o, "probe_time", json_object_new_string(
		"per driver and ok boot, the sum of its user-space probe spans' durations"));
	json_object_object_add(o, "verdict_rule", json_object_new_string(driver_verdict_rule));
	json_object_object_add(o, "baseline", base ? json_object_new_string(base->name) : NULL);
	json_object_object_add(o, "distinct_drivers", distinct__json(r));
	for (int i = 0; base && i < r->nr_modes; i++)
		if (&r->modes[i] != base)
			json_object_array_add(modes, mode_changes__json(base, &r->modes[i]));
	json_object_object_add(o, "modes", modes);
	return o;
}

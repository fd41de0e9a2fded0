// SPDX-License-Identifier: GPL-2.0
/* A run as JSON: summary.json, and the one writer of a comparison. */
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

json_object *summary__json(const struct summary *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "n", json_object_new_int((int)s->n));
	json_object_object_add(o, "median", jnum(s->median));
	json_object_object_add(o, "q1", jnum(s->q1));
	json_object_object_add(o, "q3", jnum(s->q3));
	json_object_object_add(o, "iqr", jnum(s->iqr));
	json_object_object_add(o, "min", jnum(s->min));
	json_object_object_add(o, "max", jnum(s->max));
	json_object_object_add(o, "ci95_lo", jnum(s->ci_lo));
	json_object_object_add(o, "ci95_hi", jnum(s->ci_hi));
	return o;
}

static json_object *strings_with_counts(const struct strv *v, const int *counts)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < v->n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "value", json_object_new_string(v->v[i]));
		json_object_object_add(o, "boots", json_object_new_int(counts[i]));
		json_object_array_add(a, o);
	}
	return a;
}

/* The phases beside systemd-analyze's, by source and phase name. */
static json_object *mode__phases_json(const struct mode_stats *m)
{
	static const char *const sources[PS_COUNT] = { "bootprobe", "systemd_analyze" };
	json_object *o = json_object_new_object();

	json_object_object_add(o, "boots", json_object_new_int(m->phase_boots));
	for (int i = 0; i < PS_COUNT; i++) {
		json_object *src = json_object_new_object();

		for (int k = 0; k < PH_COUNT; k++)
			if (m->phase_s[i][k].n)
				json_object_object_add(src, phase_names[k],
						       summary__json(&m->phase_s[i][k]));
		json_object_object_add(o, sources[i], src);
	}
	return o;
}

/* Where our /init's boots spend their time, by stage name. */
static json_object *mode__stages_json(const struct mode_stats *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "boots", json_object_new_int(m->stage_boots));
	for (int k = 0; k < ST_COUNT; k++)
		if (m->stage_s[k].n)
			json_object_object_add(o, stage_names[k], summary__json(&m->stage_s[k]));
	return o;
}

static json_object *mode__devnodes_json(const struct mode_stats *m)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < m->nr_devnodes; i++) {
		const struct devnode_stats *d = &m->devnodes[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(d->name));
		json_object_object_add(o, "kind", json_object_new_string(d->kind));
		json_object_object_add(o, "driver", json_object_new_string(d->driver));
		json_object_object_add(o, "boots", json_object_new_int(d->boots));
		json_object_object_add(o, "gap_from", d->ref ? json_object_new_string(d->ref) : NULL);
		json_object_object_add(o, "readiness_gap_s", summary__json(&d->s));
		if (d->nr_unit) {
			json_object_object_add(o, "systemd_unit", json_object_new_string(d->unit));
			json_object_object_add(o, "systemd_blame_s", summary__json(&d->unit_sum));
		}
		json_object_array_add(a, o);
	}
	return a;
}

/*
 * A mode's systemd boots: what ended after multi-user.target, per boot and
 * by name, the latest LATE_SHOWN (the rest counted).
 */
static json_object *mode__late_json(const struct mode_stats *m)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "boots", json_object_new_int(m->systemd_boots));
	json_object_object_add(o, "boots_with_late", json_object_new_int(m->late_boots));
	json_object_object_add(o, "probes_per_boot", summary__json(&m->late_probes_s));
	json_object_object_add(o, "devnodes_per_boot", summary__json(&m->late_devnodes_s));
	for (int i = 0; i < m->nr_late && i < LATE_SHOWN; i++) {
		const struct late_stats *l = &m->late[i];
		json_object *e = json_object_new_object();

		json_object_object_add(e, "kind", json_object_new_string(l->kind));
		json_object_object_add(e, "device", json_object_new_string(l->device));
		json_object_object_add(e, "driver", json_object_new_string(l->driver));
		json_object_object_add(e, "boots", json_object_new_int(l->boots));
		json_object_object_add(e, "end_s", summary__json(&l->end));
		json_object_object_add(e, "after_target_s", summary__json(&l->after));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "latest", a);
	json_object_object_add(o, "not_shown", json_object_new_int(m->nr_late > LATE_SHOWN ?
								   m->nr_late - LATE_SHOWN : 0));
	return o;
}

static json_object *mode__json(const struct mode_stats *m)
{
	const char *kind = mode_stats__boot_time_kind(m);
	json_object *o = json_object_new_object(), *met = json_object_new_object();
	json_object *drv = json_object_new_object();

	json_object_object_add(o, "boots", json_object_new_int(m->boots));
	json_object_object_add(o, "ok", json_object_new_int(m->ok));
	json_object_object_add(o, "kill_rate",
			       jnum(m->boots ? (double)m->boots_with_kills / m->boots : NAN));
	json_object_object_add(o, "failed_probe_rate",
			       jnum(m->probes ? (double)m->failed_probes / m->probes : NAN));
	for (int k = 0; k < M_COUNT; k++)
		json_object_object_add(met, metric_names[k], summary__json(&m->s[k]));
	json_object_object_add(o, "metrics", met);
	json_object_object_add(o, "boot_time_kind", kind ? json_object_new_string(kind) : NULL);
	for (int k = 0; k < m->nr_drivers; k++)
		json_object_object_add(drv, m->drivers[k].driver, summary__json(&m->drivers[k].s));
	json_object_object_add(o, "driver_probe_s", drv);
	json_object_object_add(o, "phase_over_longest_probe", summary__json(&m->eff_longest_s));
	json_object_object_add(o, "phase_over_sum_of_probes", summary__json(&m->eff_sum_s));
	json_object_object_add(o, "probe_orders", strings_with_counts(&m->orders, m->order_count));
	json_object_object_add(o, "device_sets", strings_with_counts(&m->device_sets, m->device_set_count));
	/* Only runs that have them: the lab's summaries stay as they were. */
	if (m->phase_boots)
		json_object_object_add(o, "phases", mode__phases_json(m));
	if (m->stage_boots)
		json_object_object_add(o, "stages", mode__stages_json(m));
	if (m->nr_devnodes)
		json_object_object_add(o, "devnodes", mode__devnodes_json(m));
	if (m->systemd_boots)
		json_object_object_add(o, "late_after_target", mode__late_json(m));
	return o;
}

/*
 * One row of the headline `bootprobe report` prints: the same counts and
 * summaries as report.md, so the two cannot disagree.
 */
static json_object *mode__headline_json(const struct mode_stats *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mode", json_object_new_string(m->name));
	json_object_object_add(o, "boots", json_object_new_int(m->boots));
	json_object_object_add(o, "ok", json_object_new_int(m->ok));
	json_object_object_add(o, "boot_s", summary__json(&m->s[M_BOOT]));
	json_object_object_add(o, "boots_with_kills", json_object_new_int(m->boots_with_kills));
	json_object_object_add(o, "boots_with_other_kills",
			       json_object_new_int(m->boots_with_other_kills));
	json_object_object_add(o, "boots_udev_ignored", json_object_new_int(m->boots_udev_ignored));
	json_object_object_add(o, "probes", json_object_new_int(m->probes));
	json_object_object_add(o, "failed_probes", json_object_new_int(m->failed_probes));
	json_object_object_add(o, "boots_with_failed_probes",
			       json_object_new_int(m->boots_with_failed));
	json_object_object_add(o, "devices", json_object_new_int(m->devices));
	json_object_object_add(o, "devices_bound", summary__json(&m->s[M_BOUND]));
	/* Only where something was lost: whole runs keep their summaries. */
	if (m->boots_lossy) {
		json_object_object_add(o, "boots_kills_incomplete",
				       json_object_new_int(m->boots_kills_incomplete));
		json_object_object_add(o, "boots_probes_incomplete",
				       json_object_new_int(m->boots_probes_incomplete));
		json_object_object_add(o, "events_lost", json_object_new_int64(m->events_lost));
		json_object_object_add(o, "boots_refused", json_object_new_int(m->boots_refused));
		json_object_object_add(o, "records_refused",
				       json_object_new_int(m->records_refused));
	}
	return o;
}

/* The power and multiplicity fields of @c, for summary.json and compare --json. */
void comparison__json_power(json_object *o, const struct comparison *c)
{
	json_object_object_add(o, "p_holm", jnum(c->p_holm));
	json_object_object_add(o, "holm_family", json_object_new_int(c->family));
	json_object_object_add(o, "robust_sd", jnum(c->sd));
	json_object_object_add(o, "mdd_alpha", jnum(c->alpha));
	json_object_object_add(o, "mdd_power", jnum(CMP_POWER));
	json_object_object_add(o, "mdd", jnum(c->mdd));
	json_object_object_add(o, "boots_needed", c->n_needed ?
			       json_object_new_int64((int64_t)c->n_needed) : NULL);
	json_object_object_add(o, "significant",
			       json_object_new_boolean(comparison__significant(c)));
}

void comparison__json(json_object *o, const struct comparison *c)
{
	json_object_object_add(o, "median_diff", jnum(c->diff));
	json_object_object_add(o, "diff_ci95_lo", jnum(c->diff_lo));
	json_object_object_add(o, "diff_ci95_hi", jnum(c->diff_hi));
	json_object_object_add(o, "pct", jnum(c->pct));
	json_object_object_add(o, "mann_whitney_u", jnum(c->mw.u));
	json_object_object_add(o, "p", jnum(c->mw.p));
	json_object_object_add(o, "p_exact", json_object_new_boolean(c->mw.exact));
	comparison__json_power(o, c);
}

/* Mode @b against the baseline @a on metric @k: a row of summary.json's comparisons. */
static json_object *mode_comparison__json(const struct mode_stats *a, const struct mode_stats *b,
					  enum metric k, const struct comparison *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "baseline", json_object_new_string(a->name));
	json_object_object_add(o, "mode", json_object_new_string(b->name));
	json_object_object_add(o, "metric", json_object_new_string(metric_names[k]));
	comparison__json(o, c);
	return o;
}

/* The boots left out, each with its mode, folder and why. */
static json_object *damaged__json(const struct run_data *r)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->nr_damaged; i++) {
		json_object *d = json_object_new_object();

		json_object_object_add(d, "boot", json_object_new_string(r->damaged[i].name));
		json_object_object_add(d, "mode", json_object_new_string(r->damaged[i].mode));
		json_object_object_add(d, "dir", json_object_new_string(r->damaged[i].dir));
		json_object_object_add(d, "why", json_object_new_string(r->damaged[i].why));
		/* The first refused record, as in incomplete_boots; null for a boot.json unread. */
		json_object_object_add(d, "first_refused", r->damaged[i].first ?
				       json_object_new_string(r->damaged[i].first) : NULL);
		json_object_array_add(a, d);
	}
	return a;
}

/* The parts of @mask by name (incomplete__name()). */
static json_object *incomplete__json(unsigned mask)
{
	json_object *a = json_object_new_array();

	for (unsigned i = 0; incomplete__name(i); i++)
		if (mask & (1u << i))
			json_object_array_add(a, json_object_new_string(incomplete__name(i)));
	return a;
}

/*
 * The boots kept with records refused: how many, the first, what they
 * made incomplete, and the words every output uses (boot_data__refusals()).
 */
static json_object *incomplete_boots__json(const struct run_data *r)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];
		char *why = boot_data__refusals(b);
		json_object *d;

		if (!why)
			continue;
		d = json_object_new_object();
		json_object_object_add(d, "boot", json_object_new_string(b->name));
		json_object_object_add(d, "mode", json_object_new_string(b->mode));
		json_object_object_add(d, "dir", json_object_new_string(b->dir));
		json_object_object_add(d, "records_refused", json_object_new_int(b->rejected));
		json_object_object_add(d, "first_refused", json_object_new_string(b->first_rejected));
		json_object_object_add(d, "incomplete", incomplete__json(b->refused_incomplete));
		json_object_object_add(d, "why", json_object_new_string(why));
		json_object_array_add(a, d);
		free(why);
	}
	return a;
}

json_object *run_data__summary_json(struct run_data *r)
{
	json_object *o = json_object_new_object(), *modes = json_object_new_object();
	json_object *cmp = json_object_new_array(), *warns = json_object_new_array();
	json_object *head = json_object_new_array();
	struct mode_stats *base = run_data__baseline(r);
	struct comparison *cs;

	json_object_object_add(o, "schema", json_object_new_int(1));
	json_object_object_add(o, "run", json_object_new_string(r->run_id));
	json_object_object_add(o, "boots", json_object_new_int(r->nr_boots));
	/* Boots left out of every statistic, and boots kept with records refused. */
	json_object_object_add(o, "damaged_boots", damaged__json(r));
	json_object_object_add(o, "incomplete_boots", incomplete_boots__json(r));
	json_object_object_add(o, "boot_time_definition",
			       json_object_new_string(run_data__boot_time_words(r, false)));
	/* Modes in run order (an array: "modes" is keyed by name). */
	for (int i = 0; i < r->nr_modes; i++)
		json_object_array_add(head, mode__headline_json(&r->modes[i]));
	json_object_object_add(o, "headline", head);
	for (int i = 0; i < r->nr_modes; i++)
		json_object_object_add(modes, r->modes[i].name, mode__json(&r->modes[i]));
	json_object_object_add(o, "modes", modes);
	cs = run_data__comparisons(r, base);
	for (int i = 0; cs && i < r->nr_modes; i++) {
		if (&r->modes[i] == base)
			continue;
		/* boot time and probe phase: cmp_metrics[0] and [1] */
		json_object_array_add(cmp, mode_comparison__json(base, &r->modes[i], M_BOOT,
								 &cs[i * NR_CMP]));
		json_object_array_add(cmp, mode_comparison__json(base, &r->modes[i], M_PHASE,
								 &cs[i * NR_CMP + 1]));
	}
	free(cs);
	json_object_object_add(o, "comparisons", cmp);
	json_object_object_add(o, "comparisons_note", json_object_new_string(comparisons_note));
	json_object_object_add(o, "drivers", drivers__json(r));
	for (size_t i = 0; i < r->warnings.n; i++)
		json_object_array_add(warns, json_object_new_string(r->warnings.v[i]));
	json_object_object_add(o, "warnings", warns);
	return o;
}

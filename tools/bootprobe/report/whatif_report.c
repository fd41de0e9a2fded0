// SPDX-License-Identifier: GPL-2.0
/* report.md's what-if section and report/whatif.csv (whatif_report.h). */
#include "whatif_report.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "whatif_run.h"

/* At most this many disks and interfaces per kernel and mode in the table. */
#define MAX_DEV_ROWS 24

static void put_heading(struct doc *d, int level, const char *title)
{
	doc__heading(d, level);
	doc__text(d, "%s", title);
}

static void put_titles(struct doc *d, const char *const *titles)
{
	doc__table(d);
	for (int k = 0; titles[k]; k++)
		doc__cellf(d, "%s", titles[k]);
}

static void cell_s(struct doc *d, double v)
{
	if (isfinite(v))
		doc__cellf(d, "%.3f", v);
	else
		doc__cellf(d, "–");
}

/*
 * The interval: the sleeping prediction's 95 % CI low end to the computing
 * one's high end (the boots' spread and the CPU time the records lack),
 * each widened by the calibration error @e (%, NAN: none known).
 */
static void cell_interval(struct doc *d, const struct whatif_pred *p, double e)
{
	double k = isfinite(e) ? e / 100 : 0;
	double lo = p->sleep.ci_lo * (1 - k), hi = p->compute.ci_hi * (1 + k);

	if (isfinite(lo) && isfinite(hi))
		doc__cellf(d, "%.3f – %.3f%s", lo, hi, isfinite(e) ? "" : " (model error unknown)");
	else
		doc__cellf(d, "–");
}

static void cell_measured(struct doc *d, const char *mode, const struct summary *s)
{
	doc__cell(d);
	doc__name(d, mode);
	if (s->n)
		doc__text(d, ": %.3f (%.3f – %.3f), %zu boot%s", s->median, s->ci_lo, s->ci_hi, s->n,
			  s->n == 1 ? "" : "s");
	else
		doc__text(d, ": not seen");
}

static void cell_error(struct doc *d, const struct whatif_pred *p, const struct summary *m)
{
	double e = whatif_error_pct(p->sleep.median, m->median);
	bool inside = m->median >= p->sleep.ci_lo && m->median <= p->compute.ci_hi;

	/* Rounded as printed, so that no "-0.0 %" is shown for a float's noise. */
	e = round(e * 10) / 10 + 0.0;
	if (isfinite(e))
		doc__cellf(d, "%+.1f %%%s", e, inside ? "" : " (outside the interval)");
	else
		doc__cellf(d, "–");
}

/* The first cells of a row: kernel, mode, what it was predicted from. */
static void row_head(struct doc *d, const struct whatif_row *row)
{
	doc__row(d);
	doc__cell_name(d, *row->kernel ? row->kernel : "—");
	doc__cellf(d, "%s", whatif_mode__name(row->mode));
	doc__cell(d);
	doc__name(d, row->sync_mode);
	doc__text(d, " (%d boot%s)", row->sync_boots, row->sync_boots == 1 ? "" : "s");
}

static const struct whatif_pred *row_pred(const struct whatif_row *row, enum whatif_metric m)
{
	return m == WI_BOOT ? &row->boot : &row->phase;
}

static const struct summary *meas_of(const struct whatif_measured *me, enum whatif_metric m)
{
	return m == WI_BOOT ? &me->boot : &me->phase;
}

/* One row per measured mode (judged), or one unjudged or withheld. */
static void put_metric_rows(struct doc *d, const struct whatif_row *row,
			    const struct whatif_cal *cal, enum whatif_metric m)
{
	const struct whatif_pred *p = row_pred(row, m);
	double e;
	char why[320];
	bool ok = whatif_cal__may_print(cal, row->kind, row->mode, m, &e, why, sizeof(why));

	for (int k = 0; k < row->nr_meas; k++) {
		row_head(d, row);
		cell_s(d, p->sync_median);
		cell_s(d, p->sleep.median);
		cell_interval(d, p, e);
		cell_measured(d, row->meas[k].mode, meas_of(&row->meas[k], m));
		cell_error(d, p, meas_of(&row->meas[k], m));
	}
	if (row->nr_meas)
		return;
	row_head(d, row);
	cell_s(d, p->sync_median);
	if (ok) {
		cell_s(d, p->sleep.median);
		cell_interval(d, p, e);
	} else {
		doc__cellf(d, "withheld");
		doc__cellf(d, "–");
	}
	doc__cellf(d, "not measured");
	doc__cellf(d, "%s", why);
}

static void put_metric(struct doc *d, const struct whatif_run *w, const struct whatif_cal *cal,
		       enum whatif_metric m, const char *title)
{
	put_heading(d, 3, title);
	put_titles(d, (const char *const[]){ "kernel", "mode", "predicted from", "sync, median (s)",
			"predicted, median (s)", "interval (s)", "measured, median (95 % CI) (s)",
			"error", NULL });
	for (int i = 0; i < w->nr; i++)
		if (w->rows[i].sync_boots)
			put_metric_rows(d, &w->rows[i], cal, m);
}

/* ---- disks and interfaces ---- */

static void put_dev_row(struct doc *d, const struct whatif_row *row, const struct whatif_dev *v,
			const struct whatif_measured *me, int k, double e)
{
	doc__row(d);
	doc__cell_name(d, *row->kernel ? row->kernel : "—");
	doc__cellf(d, "%s", whatif_mode__name(row->mode));
	doc__cell(d);
	doc__name(d, v->name);
	doc__text(d, " (%s, ", v->kind);
	doc__name(d, *v->driver ? v->driver : "no driver");
	doc__text(d, ")%s", v->from_probe ? "" : ", its probe not found: moved with nothing");
	cell_s(d, v->when.sync_median);
	cell_s(d, v->when.sleep.median);
	cell_interval(d, &v->when, e);
	if (me) {
		cell_measured(d, me->mode, &me->dev[k].measured);
		cell_error(d, &v->when, &me->dev[k].measured);
	} else {
		doc__cellf(d, "not measured");
		doc__cellf(d, "unjudged: calibration error up to %.1f %%", e);
	}
}

/* Whether the devices of @row are shown: judged, or calibrated well enough; else why not. */
static bool devs_shown(const struct whatif_row *row, const struct whatif_cal *cal, double *e,
		       char *why, size_t len)
{
	bool ok = whatif_cal__may_print(cal, row->kind, row->mode, WI_READY, e, why, len);

	return row->sync_boots && row->nr_dev && (row->nr_meas || ok);
}

static void put_devs_of(struct doc *d, const struct whatif_row *row, double e)
{
	for (int k = 0; k < row->nr_dev && k < MAX_DEV_ROWS; k++) {
		if (!row->nr_meas)
			put_dev_row(d, row, &row->dev[k], NULL, k, e);
		for (int m = 0; m < row->nr_meas; m++)
			put_dev_row(d, row, &row->dev[k], &row->meas[m], k, e);
	}
}

static void put_devs(struct doc *d, const struct whatif_run *w, const struct whatif_cal *cal)
{
	bool table = false;
	char why[320];
	double e;

	put_heading(d, 3, "Disks and interfaces: when each appears (s since kernel start)");
	for (int i = 0; i < w->nr; i++) {
		const struct whatif_row *row = &w->rows[i];

		if (!devs_shown(row, cal, &e, why, sizeof(why)))
			continue;
		if (!table)
			put_titles(d, (const char *const[]){ "kernel", "mode", "device",
					"sync, median", "predicted, median", "interval",
					"measured, median (95 % CI)", "error", NULL });
		table = true;
		put_devs_of(d, row, e);
	}
	for (int i = 0; i < w->nr; i++)
		if (devs_shown(&w->rows[i], cal, &e, why, sizeof(why)) &&
		    (w->rows[i].devs_left_out || w->rows[i].nr_dev > MAX_DEV_ROWS)) {
			doc__para(d);
			doc__text(d, "The first %d disks and interfaces to appear are shown, the "
				  "first %d predicted (whatif.csv has those measured); the others "
				  "are left out.", MAX_DEV_ROWS, WHATIF_MAX_DEVS);
			break;
		}
	for (int i = 0; i < w->nr; i++) {
		const struct whatif_row *row = &w->rows[i];

		if (!row->sync_boots || devs_shown(row, cal, &e, why, sizeof(why)))
			continue;
		doc__item(d, 0);
		doc__text(d, "%s", whatif_mode__name(row->mode));
		if (*row->kernel) {
			doc__text(d, " on ");
			doc__name(d, row->kernel);
		}
		doc__text(d, ": %s", row->nr_dev ? why : "no disk or interface appeared in the "
			  "sync boots");
	}
}

/* ---- what the reader must know to read the tables ---- */

static void put_model(struct doc *d, const struct whatif_run *w)
{
	doc__para(d);
	doc__text(d, "Predicted from each kernel's sync boots alone by the model of docs/whatif.md: "
		  "the probes one thread ran in a row for one module load, initcall or device "
		  "run side by side; the thread waits for them (driver_async_probe=* in a module "
		  "load or an initcall) or goes on (module.async_probe=1); what it saves moves its "
		  "later work, the initramfs's wait for udev and the root disk moves PID 1's exec "
		  "and all that follows, and a disk or interface on multi-user.target's critical "
		  "chain moves the target. The records hold no on-CPU time per probe: the "
		  "prediction assumes the probes sleep (what parallel probes can gain at most); "
		  "the interval runs from its 95 %% CI to that of the same model with the probes "
		  "computing on the guest's CPUs, widened by the calibration error. The boot time "
		  "is to multi-user.target on systemd boots, to the lab's end elsewhere. A "
		  "prediction no measured boot of the run judges is shown only beside the error "
		  "the calibration runs measured (results/whatif-calibration.csv), and withheld "
		  "when that error is over the limit (10 %% boot time, 20 %% probe phase and "
		  "readiness) or unknown.");
	for (int i = 0; i < w->nr; i++) {
		const struct whatif_row *row = &w->rows[i];

		if (row->mode != WI_DRIVER_ASYNC || !row->sync_boots)
			continue;
		doc__item(d, 0);
		doc__name(d, *row->kernel ? row->kernel : row->sync_mode);
		doc__text(d, ": %s boots; ", whatif_kind__name(row->kind));
		if (row->cpus)
			doc__text(d, "%d guest CPU%s%s", row->cpus, row->cpus == 1 ? "" : "s",
				  row->cpus_mixed ? " (the boots differ: each its own)" : "");
		else
			doc__text(d, "guest CPUs unknown (1 assumed for the bound)");
		doc__text(d, "; %d group%s of 2 or more probes that driver-async would run in "
			  "parallel", row->groups_parallel, row->groups_parallel == 1 ? "" : "s");
	}
}

static void put_notes(struct doc *d, const struct whatif_run *w)
{
	for (int i = 0; i < w->nr; i++)
		for (int k = 0; k < w->rows[i].nr_meas; k++) {
			const struct whatif_measured *me = &w->rows[i].meas[k];

			if (!me->differs)
				continue;
			doc__item(d, 0);
			doc__name(d, me->mode);
			doc__text(d, " also differs from ");
			doc__name(d, w->rows[i].sync_mode);
			doc__text(d, " in more than its probing (");
			doc__name(d, me->differs);
			doc__text(d, "): its error measures that too.");
		}
	for (size_t i = 0; i < w->skipped.n; i++) {
		doc__item(d, 0);
		doc__text(d, "Not predicted: ");
		doc__name(d, w->skipped.v[i]);
	}
}

static void cal_load(struct whatif_cal *cal)
{
	whatif_cal__parse(cal, whatif_cal__builtin(), "results/whatif-calibration.csv");
}

void report__whatif(struct doc *d, const struct run_data *r)
{
	struct whatif_run w;
	struct whatif_cal cal;
	bool any = false;

	whatif_run__build(&w, r);
	for (int i = 0; i < w.nr; i++)
		any |= w.rows[i].sync_boots > 0;
	put_heading(d, 2, "What if every probe were asynchronous?");
	if (!any) {
		doc__para(d);
		doc__text(d, "No prediction: the run has no sync boot with probe spans and a boot "
			  "time to predict from.");
		put_notes(d, &w);
		whatif_run__free(&w);
		return;
	}
	cal_load(&cal);
	put_model(d, &w);
	put_notes(d, &w);
	put_metric(d, &w, &cal, WI_BOOT, "Boot time");
	put_metric(d, &w, &cal, WI_PHASE, "Probe phase");
	put_devs(d, &w, &cal);
	whatif_cal__free(&cal);
	whatif_run__free(&w);
}

/* ---- whatif.csv: the judged predictions, the calibration table's rows ---- */

static void csv_rows(FILE *f, const struct run_data *r, const struct whatif_row *row,
		     const struct whatif_measured *me)
{
	struct whatif_cal_row c = { .kind = row->kind, .mode = row->mode,
				    .sync_boots = row->sync_boots };
	const struct summary *s;

	snprintf(c.run, sizeof(c.run), "%s", r->run_id);
	snprintf(c.kernel, sizeof(c.kernel), "%s", row->kernel);
	for (int m = WI_BOOT; m <= WI_PHASE; m++) {
		s = meas_of(me, m);
		c.metric = m;
		c.async_boots = (int)s->n;
		c.predicted_s = row_pred(row, m)->sleep.median;
		c.measured_s = s->median;
		c.measured_ci_lo_s = s->ci_lo;
		c.measured_ci_hi_s = s->ci_hi;
		c.error_pct = whatif_error_pct(c.predicted_s, c.measured_s);
		whatif_cal_row__print(&c, f);
	}
	c.metric = WI_READY;
	for (int k = 0; k < row->nr_dev; k++) {
		s = &me->dev[k].measured;
		if (!s->n)
			continue;
		snprintf(c.what, sizeof(c.what), "%s", row->dev[k].name);
		c.async_boots = (int)s->n;
		c.predicted_s = row->dev[k].when.sleep.median;
		c.measured_s = s->median;
		c.measured_ci_lo_s = s->ci_lo;
		c.measured_ci_hi_s = s->ci_hi;
		c.error_pct = whatif_error_pct(c.predicted_s, c.measured_s);
		whatif_cal_row__print(&c, f);
	}
}

int report__whatif_csv(const struct run_data *r, int dirfd, const char *dir, const char *who)
{
	struct whatif_run w;
	struct out_file o;
	FILE *f = out_file__open_at(&o, dirfd, dir, "whatif.csv");

	fprintf(f, "%s\n", whatif_cal_header);
	whatif_run__build(&w, r);
	for (int i = 0; i < w.nr; i++)
		for (int k = 0; k < w.rows[i].nr_meas; k++)
			if (w.rows[i].sync_boots)
				csv_rows(f, r, &w.rows[i], &w.rows[i].meas[k]);
	whatif_run__free(&w);
	return out_file__commit(&o, who);
}

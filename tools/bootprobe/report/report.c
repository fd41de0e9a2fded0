// SPDX-License-Identifier: GPL-2.0
/*
 * The report of a run, in RUN/report/ unless told otherwise:
 *   report.md, report.html (self-contained, inline SVG), summary.csv,
 *    drivers.csv, summary.json, charts/NAME.svg and .png, traces/BOOT.json
 *    (Perfetto);
 * and its headline, a table for the terminal.
 */
#define _GNU_SOURCE
#include "report.h"
#include "late.h"
#include "whatif_report.h"
#include "charts.h"
#include "slow_probes.h"
#include "doc.h"
#include "drivers.h"
#include "explain.h"
#include "fsat.h"
#include "jsonio.h"
#include "trace.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WHO "bootprobe report"

/* A number, or "-" for none: an infinite one is none either (no output prints inf). */
static void fmt(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v);
}

/* ---- CSV fields ------------------------------------------------------------------- */

/*
 * @s as one CSV field (RFC 4180): quoted when it holds a comma, a quote or a
 * line break, quotes doubled; a leading = + - @ that a spreadsheet would run
 * as a formula gets a ' before it (OWASP's advice).
 */
static void csv_field(FILE *f, const char *s)
{
	bool formula = strchr("=+-@", *s) && *s;

	if (!formula && !strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	if (formula)
		fputc('\'', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.9g", v);
	else
		fputc(',', f);
}

/* ---- the headline: one row per mode, on the terminal and atop report.md ------------- */

enum { HL_MODE, HL_OK, HL_BOOT, HL_CI, HL_KILLED, HL_FAILED, HL_BOUND, HL_COLS };

static const char *const hl_titles[HL_COLS] = {
	"mode", "ok", "boot time (s)", "95% CI", "SIGKILL", "failed probes", "bound",
};

struct hl_row {
	char cell[HL_COLS][80];
};

/* A mode's cells, from the statistics report.md shows (counts over ok boots as there). */
static void hl_row__fill(struct hl_row *row, const struct mode_stats *m)
{
	const struct summary *boot = &m->s[M_BOOT], *bound = &m->s[M_BOUND];
	const size_t len = sizeof(row->cell[0]);

	snprintf(row->cell[HL_MODE], len, "%s", m->name);
	snprintf(row->cell[HL_OK], len, "%d/%d", m->ok, m->boots);
	fmt(row->cell[HL_BOOT], len, boot->median);
	if (boot->n && isfinite(boot->ci_lo) && isfinite(boot->ci_hi))
		snprintf(row->cell[HL_CI], len, "%.3f .. %.3f", boot->ci_lo, boot->ci_hi);
	else
		snprintf(row->cell[HL_CI], len, "-");
	/* '*': a lower bound: the collector lost something, or records were refused. */
	snprintf(row->cell[HL_KILLED], len, "%d/%d%s", m->boots_with_kills, m->boots,
		 m->boots_kills_incomplete ? "*" : "");
	snprintf(row->cell[HL_FAILED], len, "%d (%d/%d)%s", m->failed_probes, m->boots_with_failed,
		 m->ok, m->boots_probes_incomplete ? "*" : "");
	if (!bound->n)
		snprintf(row->cell[HL_BOUND], len, "-");
	else if (bound->min == bound->max)
		snprintf(row->cell[HL_BOUND], len, "%g/%d", bound->median, m->devices);
	else
		snprintf(row->cell[HL_BOUND], len, "%g/%d (%g..%g)", bound->median, m->devices,
			 bound->min, bound->max);
}

/* ---- summary.csv ---------------------------------------------------------------- */

static void csv_row(FILE *f, const char *mode, const char *metric, const struct summary *s)
{
	csv_field(f, mode);
	fputc(',', f);
	csv_field(f, metric);
	fprintf(f, ",%zu", s->n);
	const double v[] = { s->median, s->q1, s->q3, s->iqr, s->min, s->max, s->ci_lo, s->ci_hi };

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		!isfinite(v[i]) ? fprintf(f, ",") : fprintf(f, ",%.6g", v[i]);
	fprintf(f, "\n");
}

static int write_csv(struct run_data *r, int dirfd, const char *dir)
{
	struct out_file o;
	FILE *f = out_file__open_at(&o, dirfd, dir, "summary.csv");

	fprintf(f, "mode,metric,n,median,q1,q3,iqr,min,max,ci95_lo,ci95_hi\n");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		for (int k = 0; k < M_COUNT; k++)
			csv_row(f, m->name, metric_names[k], &m->s[k]);
		for (int k = 0; k < m->nr_drivers; k++) {
			char *name = xasprintf("driver_probe_s:%s", m->drivers[k].driver);

			csv_row(f, m->name, name, &m->drivers[k].s);
			free(name);
		}
		if (!m->systemd_boots)
			continue;
		/* What ended after multi-user.target, per boot and the latest by name (late.h). */
		csv_row(f, m->name, "late_probes", &m->late_probes_s);
		csv_row(f, m->name, "late_devnodes", &m->late_devnodes_s);
		for (int k = 0; k < m->nr_late && k < LATE_SHOWN; k++) {
			const struct late_stats *l = &m->late[k];
			char *name = xasprintf("late_after_target_s:%s:%s:%s", l->kind, l->device,
					       l->driver);

			csv_row(f, m->name, name, &l->after);
			free(name);
		}
	}
	return out_file__commit(&o, WHO);
}

/* ---- the report: report.md and report.html, block by block (doc.h) ----------------- */

/* Cells of the program's words, @titles ending with NULL. */
static void put_cells(struct doc *d, const char *const *titles)
{
	for (int k = 0; titles[k]; k++)
		doc__cellf(d, "%s", titles[k]);
}

/* A table, its header row's first cells @titles. */
static void put_table(struct doc *d, const char *const *titles)
{
	doc__table(d);
	put_cells(d, titles);
}

/* A heading of the program's words. */
static void put_heading(struct doc *d, int level, const char *title)
{
	doc__heading(d, level);
	doc__text(d, "%s", title);
}

/* A row's cells after its label: n, median, IQR, 95 % CI, min – max. */
static void put_summary_cells(struct doc *d, const struct summary *s)
{
	char med[32], q1[32], q3[32], lo[32], hi[32], mn[32], mx[32];

	fmt(med, sizeof(med), s->median);
	fmt(q1, sizeof(q1), s->q1);
	fmt(q3, sizeof(q3), s->q3);
	fmt(lo, sizeof(lo), s->ci_lo);
	fmt(hi, sizeof(hi), s->ci_hi);
	fmt(mn, sizeof(mn), s->min);
	fmt(mx, sizeof(mx), s->max);
	doc__cellf(d, "%zu", s->n);
	doc__cellf(d, "%s", med);
	doc__cellf(d, "%s – %s", q1, q3);
	doc__cellf(d, "%s – %s", lo, hi);
	doc__cellf(d, "%s – %s", mn, mx);
}

/* A mode whose collector lost something or whose records were refused: lower bounds. */
static void put_mode_losses(struct doc *d, const struct mode_stats *m)
{
	if (!m->boots_lossy)
		return;
	doc__para(d);
	doc__bold(d, "Incomplete counts");
	doc__text(d, ": the collector lost %lld events in this mode's boots, or ran without a "
		  "program; %d records were refused in %d boots; SIGKILLs are unknown in %d of %d "
		  "boots and probes in %d (see \"What the collector lost\"). Counts below are "
		  "lower bounds.", (long long)m->events_lost, m->records_refused, m->boots_refused,
		  m->boots_kills_incomplete, m->boots, m->boots_probes_incomplete);
}

/* A mode with more drivers than this gets no per-driver rows in its table. */
#define MD_MODE_DRIVER_ROWS 8

static void put_drivers_probed(struct doc *d, const struct run_data *r);

static void put_modes(struct doc *d, struct run_data *r)
{
	put_heading(d, 2, "Per mode");
	put_drivers_probed(d, r);
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		doc__heading(d, 3);
		doc__name(d, m->name);
		doc__para(d);
		doc__text(d, "%d boots, %d ok; kill rate %d/%d boots; failed probes %d of %d, in %d "
			  "of %d ok boots", m->boots, m->ok, m->boots_with_kills, m->boots,
			  m->failed_probes, m->probes, m->boots_with_failed, m->ok);
		put_mode_losses(d, m);
		if (m->boots_udev_ignored) {
			doc__para(d);
			doc__text(d, "udevd ignored a setting in %d of %d boots: ",
				  m->boots_udev_ignored, m->boots);
			doc__code(d, m->udev_ignored);
		}
		put_table(d, (const char *const[]){ "metric", "n", "median", "IQR",
				"95 % CI of median", "min – max", NULL });
		for (int k = 0; k < M_COUNT; k++) {
			doc__row(d);
			doc__cellf(d, "%s", metric_titles[k]);
			put_summary_cells(d, &m->s[k]);
		}
		for (int k = 0; m->nr_drivers <= MD_MODE_DRIVER_ROWS && k < m->nr_drivers; k++) {
			doc__row(d);
			doc__cellf(d, "probe time of ");
			doc__name(d, m->drivers[k].driver);
			doc__text(d, " (s)");
			put_summary_cells(d, &m->drivers[k].s);
		}
		if (m->nr_drivers > MD_MODE_DRIVER_ROWS) {
			doc__para(d);
			doc__text(d, "The probe times of its %d drivers: summary.csv (per probe) and "
				  "drivers.csv (per boot).", m->nr_drivers);
		}
	}
}

static int kills_unknown(const struct run_data *r);

/* "p = 0.1 (exact), Holm p = 0.9 over 9 modes" for the answer and the tables. */
static void fmt_p(char *buf, size_t len, const struct comparison *c)
{
	if (c->family > 1)
		snprintf(buf, len, "Mann-Whitney p = %.3g%s, Holm p = %.3g over %d modes", c->mw.p,
			 c->mw.exact ? " (exact)" : "", c->p_holm, c->family);
	else
		snprintf(buf, len, "Mann-Whitney p = %.3g%s", c->mw.p, c->mw.exact ? " (exact)" : "");
}

/*
 * What this run could detect, in a sentence or two: the MDD at its boots, or
 * that no arrangement of them reaches the level; then the boots per mode a
 * difference of the observed size needs, where that is more than it had.
 */
static void put_power(struct doc *d, const struct comparison *c, const char *unit)
{
	size_t least = c->na < c->nb ? c->na : c->nb;

	if (isinf(c->mdd))
		doc__text(d, " With %zu and %zu boots no difference can reach p < %.3g (the exact "
			  "Mann-Whitney p cannot go below %.3g); that takes %zu boots per mode.",
			  c->nb, c->na, c->alpha, stats_mw_min_p(c->na, c->nb),
			  stats_mw_min_n(c->alpha));
	else if (isfinite(c->mdd))
		doc__text(d, " At these boots the smallest difference found with power %.1f at "
			  "p < %.3g is %.3f %s.", CMP_POWER, c->alpha, c->mdd, unit);
	/* beyond what the test itself needs, said just before */
	if (c->n_needed > least && (!isinf(c->mdd) || c->n_needed > stats_mw_min_n(c->alpha)))
		doc__text(d, " Need about %zu boots per mode to detect a %.3f %s difference.",
			  c->n_needed, fabs(c->diff), unit);
}

static void put_comparison_row(struct doc *d, const char *mode, int metric,
			       const struct comparison *c)
{
	char pct[32] = "-", mdd[32] = "none", need[32] = "-";

	if (isfinite(c->pct))
		snprintf(pct, sizeof(pct), "%+.1f %%", c->pct);
	if (isfinite(c->mdd))
		snprintf(mdd, sizeof(mdd), "%.3f", c->mdd);
	else if (isnan(c->mdd))
		snprintf(mdd, sizeof(mdd), "-");
	if (c->n_needed)
		snprintf(need, sizeof(need), "%zu", c->n_needed);
	doc__row(d);
	doc__cell_name(d, mode);
	doc__cellf(d, "%s", metric_titles[metric]);
	doc__cellf(d, "%.3f", c->median_a);
	doc__cellf(d, "%.3f", c->median_b);
	doc__cellf(d, "%+.3f", c->diff);
	if (isfinite(c->diff_lo) && isfinite(c->diff_hi))
		doc__cellf(d, "%+.3f – %+.3f", c->diff_lo, c->diff_hi);
	else
		doc__cellf(d, "-");
	doc__cellf(d, "%s", pct);
	doc__cellf(d, "%.3g%s", c->mw.p, c->mw.exact ? " (exact)" : "");
	doc__cellf(d, "%.3g", c->p_holm);
	doc__cellf(d, "%s", mdd);
	doc__cellf(d, "%s", need);
}

static void put_comparisons(struct doc *d, struct run_data *r, const struct mode_stats *base,
			    const struct comparison *cmp)
{
	if (!cmp)
		return;
	doc__heading(d, 2);
	doc__text(d, "Compared with ");
	doc__name(d, base->name);
	doc__para(d);
	doc__text(d, "Difference of medians (mode − ");
	doc__name(d, base->name);
	doc__text(d, ") with its 95 %% bootstrap CI; the two-sided Mann-Whitney U test's p, and "
		  "that p ");
	doc__bold(d, "Holm-adjusted");
	doc__text(d, " over the modes compared on the same metric (a verdict uses the Holm p: a "
		  "difference is significant when the CI excludes 0 and the Holm p is below "
		  "%.2g); ", CMP_ALPHA);
	doc__bold(d, "MDD");
	doc__text(d, ": the smallest difference these boots detect with power %.1f at p < 0.05 / "
		  "the number of modes compared (Holm's first step), by the normal approximation "
		  "from the pooled robust SD (IQR / 1.349) and Mann-Whitney's efficiency 3/π, "
		  "\"none\" when no arrangement of these boots can reach that p; ", CMP_POWER);
	doc__bold(d, "boots needed");
	doc__text(d, ": per mode, to detect the difference observed that way.");
	put_table(d, (const char *const[]){ "mode", "metric", NULL });
	doc__cellf(d, "median ");
	doc__name(d, base->name);
	put_cells(d, (const char *const[]){ "median mode", "difference", "95 % CI", "change", "p",
			"Holm p", "MDD", "boots needed", NULL });
	for (int i = 0; i < r->nr_modes; i++) {
		if (&r->modes[i] == base)
			continue;
		for (int k = 0; k < NR_CMP; k++)
			put_comparison_row(d, r->modes[i].name, cmp_metrics[k], &cmp[i * NR_CMP + k]);
	}
}

/* The headline as report.md's first table: the cells the terminal shows. */
static void put_headline(struct doc *d, const struct run_data *r)
{
	struct hl_row row;
	bool lossy = false;

	doc__table(d);
	for (int k = 0; k < HL_COLS; k++)
		doc__cell_name(d, hl_titles[k]);
	for (int i = 0; i < r->nr_modes; i++) {
		hl_row__fill(&row, &r->modes[i]);
		doc__row(d);
		for (int k = 0; k < HL_COLS; k++)
			doc__cell_name(d, row.cell[k]);
		lossy |= r->modes[i].boots_lossy;
	}
	if (lossy) {
		doc__para(d);
		doc__name(d, "* lower bounds: the collector lost events or ran without a program, or "
			  "records were refused, in some boots (see \"What the collector lost\").");
	}
}

/* "**MODE** against **BASE**" opening a paragraph of the answer. */
static void put_against(struct doc *d, const char *mode, const char *base)
{
	doc__para(d);
	doc__bold(d, mode);
	doc__text(d, " against ");
	doc__bold(d, base);
}

/* One mode's paragraph of the answer: its median boot time against the baseline's. */
static void put_answer_mode(struct doc *d, const char *name, const char *bname,
			    const struct comparison *c)
{
	const char *way = c->diff < 0 ? "faster" : "slower";
	char pct[32] = "", by[32] = "", p[128];

	if (isfinite(c->pct)) {
		snprintf(pct, sizeof(pct), ", %+.1f %%", c->pct);
		snprintf(by, sizeof(by), " (%+.1f %%)", c->pct);
	}
	fmt_p(p, sizeof(p), c);
	if (!c->na || !c->nb || !isfinite(c->diff_lo) || !isfinite(c->diff_hi)) {
		put_against(d, name, bname);
		if (c->na && c->nb && isfinite(c->diff))
			doc__text(d, ": not comparable, %zu and %zu ok boots with a boot time (a "
				  "confidence interval needs 2 a side); in these boots %.3f s against "
				  "%.3f s, %+.3f s%s.", c->nb, c->na, c->median_b, c->median_a, c->diff,
				  pct);
		else
			doc__text(d, ": not comparable, %zu and %zu ok boots with a boot time.",
				  c->nb, c->na);
		return;
	}
	if (comparison__significant(c)) {
		doc__para(d);
		doc__bold(d, name);
		doc__text(d, " boots ");
		doc__bold(d, way);
		doc__text(d, " than ");
		doc__bold(d, bname);
		doc__text(d, " by %.3f s%s in median boot time (%.3f s against %.3f s; 95 %% CI of "
			  "the difference %+.3f – %+.3f s; %s; %zu and %zu ok boots).", fabs(c->diff),
			  by, c->median_b, c->median_a, c->diff_lo, c->diff_hi, p, c->nb, c->na);
		return;
	}
	put_against(d, name, bname);
	if (comparison__suggestive(c)) {
		doc__text(d, ": ");
		doc__bold(d, way);
		doc__text(d, " by %.3f s%s in median boot time in these boots, but not significant "
			  "(%.3f s against %.3f s; the 95 %% CI of the difference, %+.3f – %+.3f s, "
			  "excludes 0; %s; %zu and %zu ok boots).", fabs(c->diff), by, c->median_b,
			  c->median_a, c->diff_lo, c->diff_hi, p, c->nb, c->na);
	} else {
		doc__text(d, ": no clear difference in median boot time (%.3f s against %.3f s, "
			  "%+.3f s%s; the 95 %% CI of the difference, %+.3f – %+.3f s, includes 0; %s; "
			  "%zu and %zu ok boots).", c->median_b, c->median_a, c->diff, pct,
			  c->diff_lo, c->diff_hi, p, c->nb, c->na);
	}
	put_power(d, c, "s");
}

/*
 * SIGKILLs to tasks that were neither loading a module nor probing (systemd
 * 257's journald kills its own helper on every boot): said apart, so that
 * no reader takes them for killed probes.
 */
static void put_other_kills(struct doc *d, const struct run_data *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		if (!m->boots_with_other_kills)
			continue;
		doc__text(d, n++ ? "; " : " Other SIGKILLs, neither from udevd nor to a task "
			  "loading a module or probing: ");
		doc__name(d, m->name);
		doc__text(d, " in %d of %d boots (the first: ", m->boots_with_other_kills, m->boots);
		doc__name(d, m->other_kill);
		doc__text(d, ")");
	}
	if (n)
		doc__text(d, ".");
}

/*
 * The answer, a paragraph per mode: its median boot time against the
 * baseline's, from run_comparisons' numbers; "no clear difference" when the
 * CI of the difference includes 0.  Then what was killed, in a sentence.
 */
static void put_answer(struct doc *d, struct run_data *r, const struct mode_stats *base,
		       const struct comparison *cmp)
{
	int kills = 0;

	if (!cmp)
		return;
	put_heading(d, 2, "Answer");
	doc__para(d);
	if (r->nr_modes > 2) {
		doc__text(d, "Each mode's median boot time against ");
		doc__bold(d, base->name);
		doc__text(d, ". A difference counts when the 95 %% CI of the difference of medians "
			  "excludes 0 and the Mann-Whitney p, Holm-adjusted over the %d modes compared "
			  "with ", r->nr_modes - 1);
		doc__name(d, base->name);
		doc__text(d, ", is below %.2g.", CMP_ALPHA);
	} else {
		doc__text(d, "The median boot time against ");
		doc__bold(d, base->name);
		doc__text(d, ". A difference counts when the 95 %% CI of the difference of medians "
			  "excludes 0 and the Mann-Whitney p is below %.2g (one comparison: nothing "
			  "to adjust).", CMP_ALPHA);
	}
	for (int i = 0; i < r->nr_modes; i++)
		if (&r->modes[i] != base)	/* cmp_metrics[0]: boot time */
			put_answer_mode(d, r->modes[i].name, base->name, &cmp[i * NR_CMP]);
	doc__para(d);
	doc__bold(d, "Killed");
	doc__text(d, ": ");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		if (!m->boots_with_kills)
			continue;
		doc__text(d, "%s", kills++ ? "; " : "");
		doc__name(d, m->name);
		doc__text(d, ", a SIGKILL in %d of %d boots", m->boots_with_kills, m->boots);
	}
	if (kills)
		doc__text(d, ". Who sent each, to which probe and why: \"Killed probes and drivers "
			  "at risk\", after the charts.");
	else
		doc__text(d, "no SIGKILL hit a task loading a module or probing in any mode%s.",
			  kills_unknown(r) ? " (as far as the collector saw: see \"What the "
			  "collector lost\")" : "");
	put_other_kills(d, r);
}

/* ---- drivers across modes (drivers.c's answers) ------------------------------------ */

#define MD_CHANGED_ROWS 20	/* drivers with a clear change shown in report.md */
#define MD_NAMES_LISTED 20	/* names listed of drivers seen in one mode only */

static void fmt_ms(char *buf, size_t len, double s, bool sign)
{
	if (!isfinite(s))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, sign ? "%+.2f" : "%.2f", s * 1e3);
}

/* Atop "Per mode": distinct drivers probed in user space, per mode. */
static void put_drivers_probed(struct doc *d, const struct run_data *r)
{
	doc__para(d);
	doc__bold(d, "Drivers probed");
	doc__text(d, " (distinct drivers with a probe in user space; per ok boot, median, and "
		  "over all ok boots): ");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		doc__text(d, "%s", i ? "; " : "");
		doc__name(d, m->name);
		if (m->n[M_DRIVERS])
			doc__text(d, " %g per boot, %d in all", m->s[M_DRIVERS].median,
				  m->nr_drivers);
		else
			doc__text(d, ": no ok boot with an event stream");
	}
	doc__text(d, ".");
}

static void put_driver_row(struct doc *d, const struct driver_change *v)
{
	const struct comparison *c = &v->c;
	char ma[32], mb[32], diff[32], lo[32], hi[32], pct[32] = "-", mdd[32];

	fmt_ms(ma, sizeof(ma), c->median_a, false);
	fmt_ms(mb, sizeof(mb), c->median_b, false);
	fmt_ms(diff, sizeof(diff), c->diff, true);
	fmt_ms(lo, sizeof(lo), c->diff_lo, true);
	fmt_ms(hi, sizeof(hi), c->diff_hi, true);
	if (isfinite(c->pct))
		snprintf(pct, sizeof(pct), "%+.1f %%", c->pct);
	fmt_ms(mdd, sizeof(mdd), c->mdd, false);
	if (isinf(c->mdd))
		snprintf(mdd, sizeof(mdd), "none");
	doc__row(d);
	doc__cell_name(d, v->driver);
	doc__cellf(d, "%zu / %zu", c->na, c->nb);
	doc__cellf(d, "%s", ma);
	doc__cellf(d, "%s", mb);
	doc__cellf(d, "%s", diff);
	doc__cellf(d, "%s – %s", lo, hi);
	doc__cellf(d, "%s", pct);
	doc__cellf(d, "%.3g", c->mw.p);
	doc__cellf(d, "%.3g", c->p_holm);
	doc__cellf(d, "%s", mdd);
	doc__cellf(d, "%s", driver_verdict__name(v->verdict));
}

/* "Only in sync (2): a, b." for the drivers of @v with verdict @which. */
static void put_one_mode_drivers(struct doc *d, const struct driver_change *v, int n,
				 enum driver_verdict which, const char *mode)
{
	int count = 0, listed = 0;

	for (int i = 0; i < n; i++)
		count += v[i].verdict == which;
	if (!count)
		return;
	doc__text(d, " Only in ");
	doc__name(d, mode);
	doc__text(d, " (%d): ", count);
	for (int i = 0; i < n && listed < MD_NAMES_LISTED; i++) {
		if (v[i].verdict != which)
			continue;
		doc__text(d, "%s", listed++ ? ", " : "");
		doc__name(d, v[i].driver);
	}
	doc__text(d, "%s.", count > listed ? ", …" : "");
}

/* The table of @m's drivers with a clear change against @base, at most MD_CHANGED_ROWS. */
static void put_changed_drivers(struct doc *d, const struct driver_change *v, int n, int changed,
				const char *bname, const char *mname)
{
	put_table(d, (const char *const[]){ "driver", NULL });
	doc__cellf(d, "boots ");
	doc__name(d, bname);
	doc__text(d, " / ");
	doc__name(d, mname);
	doc__cellf(d, "median ");
	doc__name(d, bname);
	doc__text(d, " (ms)");
	doc__cellf(d, "median ");
	doc__name(d, mname);
	doc__text(d, " (ms)");
	put_cells(d, (const char *const[]){ "difference (ms)", "95 % CI (ms)", "change", "p",
			"Holm p", "MDD (ms)", "verdict", NULL });
	for (int i = 0, shown = 0; i < n && shown < MD_CHANGED_ROWS; i++)
		if (v[i].verdict == DV_SLOWER || v[i].verdict == DV_FASTER) {
			put_driver_row(d, &v[i]);
			shown++;
		}
	if (changed > MD_CHANGED_ROWS) {
		doc__para(d);
		doc__text(d, "%d more with a clear change in drivers.csv.", changed - MD_CHANGED_ROWS);
	}
}

/* One mode's drivers against the baseline: clear changes, then one line of counts. */
static void put_mode_drivers(struct doc *d, const struct mode_stats *base,
			     const struct mode_stats *m)
{
	int n, changed = 0, unclear = 0, few = 0, weak = 0, family = 0;
	struct driver_change *v = driver_changes(base, m, &n);
	double alpha = CMP_ALPHA;
	size_t least = 0;

	for (int i = 0; i < n; i++) {
		changed += v[i].verdict == DV_SLOWER || v[i].verdict == DV_FASTER;
		unclear += v[i].verdict == DV_UNCLEAR || v[i].verdict == DV_FEW_BOOTS;
		few += v[i].verdict == DV_FEW_BOOTS;
		if (v[i].verdict == DV_UNCLEAR && comparison__suggestive(&v[i].c)) {
			weak++;
			family = v[i].c.family;
			alpha = v[i].c.alpha;
			least = v[i].c.na < v[i].c.nb ? v[i].c.na : v[i].c.nb;
		}
	}
	doc__heading(d, 3);
	doc__name(d, m->name);
	if (changed)
		put_changed_drivers(d, v, n, changed, base->name, m->name);
	doc__para(d);
	doc__name(d, m->name);
	doc__text(d, ": %d driver%s with a clear change, %d with no clear change", changed,
		  changed == 1 ? "" : "s", unclear);
	if (few)
		doc__text(d, " (%d of them in fewer than %d boots of a mode)", few, DRIVER_MIN_BOOTS);
	doc__text(d, ".");
	if (weak) {
		doc__text(d, " %d driver%s changed in these boots (the CI excludes 0) but not "
			  "significantly after Holm over %d drivers", weak, weak == 1 ? "" : "s",
			  family);
		if (stats_mw_min_p(least, least) >= alpha)
			doc__text(d, ": with %zu boots a side no p can go below %.3g; that takes %zu",
				  least, alpha, stats_mw_min_n(alpha));
		doc__text(d, " (drivers.csv: p_holm, mdd_s, boots_needed).");
	}
	put_one_mode_drivers(d, v, n, DV_ONLY_BASE, base->name);
	put_one_mode_drivers(d, v, n, DV_ONLY_MODE, m->name);
	free(v);
}

static void put_device_row(struct doc *d, const struct device_change *c,
			   const struct mode_stats *base, const struct mode_stats *m)
{
	char *da = device_outcome__describe(base, c->a), *db = device_outcome__describe(m, c->b);

	doc__row(d);
	doc__cell_name(d, m->name);
	doc__cell_name(d, c->driver);
	doc__cell_name(d, c->device);
	doc__cellf(d, "%s", da);
	doc__cellf(d, "%s", db);
	if (c->worse)
		doc__cell_name(d, c->worse > 0 ? m->name : base->name);
	else
		doc__cellf(d, "as often");
	free(db);
	free(da);
}

/* "- MODE: driver device, ..." for the renamed devices of @v, if any. */
static void put_renamed_item(struct doc *d, const char *mode, const struct device_change *v,
			     int n)
{
	int k = 0;

	for (int i = 0; i < n; i++) {
		if (!v[i].renamed)
			continue;
		if (!k++) {
			doc__item(d, 0);
			doc__name(d, mode);
			doc__text(d, ": ");
		}
		doc__text(d, "%s", k > 1 ? ", " : "");
		doc__name(d, v[i].driver);
		doc__text(d, " ");
		doc__name(d, v[i].device);
	}
}

static bool any_renamed(const struct device_change *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i].renamed)
			return true;
	return false;
}

/* What the async regressions were compared with: "a, b" of the modes with events. */
static void put_compared_modes(struct doc *d, const struct run_data *r,
			       const struct mode_stats *base)
{
	int k = 0;

	for (int i = 0; i < r->nr_modes; i++) {
		if (&r->modes[i] == base || !r->modes[i].event_boots)
			continue;
		doc__text(d, "%s", k++ ? ", " : "");
		doc__name(d, r->modes[i].name);
	}
}

/* Devices bound in a boot of one mode but not in a boot of the other. */
static void put_device_changes(struct doc *d, struct run_data *r, const struct mode_stats *base)
{
	struct device_change **v = xcalloc(r->nr_modes, sizeof(*v));
	int *n = xcalloc(r->nr_modes, sizeof(*n));
	int rows = 0, modes = 0, nr_renamed = 0;

	put_heading(d, 3, "Async regressions: devices bound in one mode, not in every boot of the "
		   "other");
	doc__para(d);
	doc__text(d, "A device is a driver and device name. Counts are over ok boots with an "
		  "event stream. Missing: no probe of it in that boot. Only rejected or deferred: "
		  "its probes returned -ENODEV, -ENXIO or -EPROBE_DEFER only. Failed: another "
		  "error, the first one shown. A device whose driver bound as many devices per "
		  "boot in both modes was renamed, not lost (virtio, USB and interface names "
		  "follow probe order): those are listed after the table.");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		if (m == base || !m->event_boots)
			continue;
		modes++;
		v[i] = device_changes(base, m, &n[i]);
		for (int k = 0; k < n[i] && !v[i][k].renamed; k++) {
			if (!rows++) {
				put_table(d, (const char *const[]){ "mode", "driver", "device", NULL });
				doc__cellf(d, "in ");
				doc__name(d, base->name);
				put_cells(d, (const char *const[]){ "in the mode",
						"unbound more often in", NULL });
			}
			put_device_row(d, &v[i][k], base, m);
		}
		nr_renamed += any_renamed(v[i], n[i]);
	}
	if (!base->event_boots || !modes) {
		doc__para(d);
		doc__text(d, "Nothing to compare: ");
		doc__name(d, base->name);
		doc__text(d, " or every other mode has no ok boot with an event stream.");
	} else if (!rows) {
		doc__para(d);
		doc__text(d, "None: every device bound in a boot of ");
		doc__name(d, base->name);
		doc__text(d, " was bound in every boot of ");
		put_compared_modes(d, r, base);
		doc__text(d, ", and the reverse%s.", nr_renamed ? ", but for renamed ones" : "");
	}
	if (nr_renamed) {
		doc__para(d);
		doc__text(d, "Renamed, not lost (against ");
		doc__name(d, base->name);
		doc__text(d, "):");
		for (int i = 0; i < r->nr_modes; i++)
			put_renamed_item(d, r->modes[i].name, v[i], n[i]);
	}
	for (int i = 0; i < r->nr_modes; i++)
		free(v[i]);
	free(v);
	free(n);
}

static void put_drivers(struct doc *d, struct run_data *r)
{
	struct mode_stats *base = run_data__baseline(r);

	if (!base || r->nr_modes < 2)
		return;
	doc__heading(d, 2);
	doc__text(d, "Driver probes compared with ");
	doc__name(d, base->name);
	doc__para(d);
	doc__text(d, "A driver's probe time in a boot is the sum of its probe spans in user "
		  "space; medians are over the ok boots it probed in, differences are mode − ");
	doc__name(d, base->name);
	doc__text(d, ". Verdict: %s. Every driver, with its numbers: drivers.csv.",
		  driver_verdict_rule);
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		if (m == base)
			continue;
		if (m->event_boots) {
			put_mode_drivers(d, base, m);
			continue;
		}
		doc__heading(d, 3);
		doc__name(d, m->name);
		doc__para(d);
		doc__text(d, "No ok boot with an event stream: nothing to compare.");
	}
	put_device_changes(d, r, base);
}

/* ---- boots that reach systemd: beside systemd-analyze, readiness of devices ---------- */

/*
 * The rest of a table's header after its first columns: per mode, one
 * column per @suffixes ("MODE: bootprobe").
 */
static void put_mode_columns(struct doc *d, const struct run_data *r, const char *const *suffixes)
{
	for (int i = 0; i < r->nr_modes; i++)
		for (int k = 0; suffixes[k]; k++) {
			doc__cell_name(d, r->modes[i].name);
			doc__text(d, "%s", suffixes[k]);
		}
}

static bool any_phases(const struct run_data *r)
{
	for (int i = 0; i < r->nr_modes; i++)
		if (r->modes[i].phase_boots)
			return true;
	return false;
}

static void put_phase_cell(struct doc *d, const struct summary *s)
{
	char med[32];

	fmt(med, sizeof(med), s->n ? s->median : NAN);
	doc__cellf(d, "%s", med);
}

/*
 * The boot's phases as bootprobe measured them next to what systemd-analyze
 * printed on the same boots: medians over the ok boots of each mode.
 */
static void put_systemd(struct doc *d, const struct run_data *r)
{
	if (!any_phases(r))
		return;
	put_heading(d, 2, "Beside systemd-analyze");
	doc__para(d);
	doc__text(d, "Medians (s) over each mode's ok boots that reached systemd. ");
	doc__em(d, "bootprobe");
	doc__text(d, ": the kernel starting the initramfs's /init, PID 1's exec of the root's "
		  "init in the event stream, multi-user.target's own timestamp and the probe "
		  "spans. ");
	doc__em(d, "systemd-analyze");
	doc__text(d, ": ");
	doc__code(d, "systemd-analyze time");
	doc__text(d, " on the same boot; with an initramfs-tools initrd (no systemd in it) its "
		  "\"kernel\" lasts until systemd starts in the root (in its main(), after the "
		  "dynamic loader: a little after the exec), which bootprobe splits at the "
		  "initramfs's /init. Its files are kept in each boot folder as "
		  "systemd-analyze-*.txt.");
	put_table(d, (const char *const[]){ "phase", NULL });
	put_mode_columns(d, r, (const char *const[]){ ": bootprobe", ": systemd-analyze", NULL });
	for (int k = 0; k < PH_COUNT; k++) {
		doc__row(d);
		doc__cellf(d, "%s", phase_titles[k]);
		for (int i = 0; i < r->nr_modes; i++) {
			put_phase_cell(d, &r->modes[i].phase_s[PS_BOOTPROBE][k]);
			put_phase_cell(d, &r->modes[i].phase_s[PS_SYSTEMD][k]);
		}
	}
}

static bool any_stages(const struct run_data *r)
{
	for (int i = 0; i < r->nr_modes; i++)
		if (r->modes[i].stage_boots)
			return true;
	return false;
}

/* Where our /init's boots spend their time: medians per mode. */
static void put_stages(struct doc *d, const struct run_data *r)
{
	if (!any_stages(r))
		return;
	put_heading(d, 2, "Where the boot's time goes");
	doc__para(d);
	doc__text(d, "Medians (s) over each mode's ok boots, stage after stage from QEMU's start "
		  "(kernel start is printk's 0; QEMU start is placed from console.log's last "
		  "write on the host, to about a jiffy). The collector's start-up runs beside the "
		  "stages unless /init waits for it (");
	doc__code(d, "bootprobe.collector=wait");
	doc__text(d, ", then it is inside \"/init → udevd launched\"). Empty: the boots did not "
		  "print that mark.");
	put_table(d, (const char *const[]){ "stage", NULL });
	put_mode_columns(d, r, (const char *const[]){ "", NULL });
	for (int k = 0; k < ST_COUNT; k++) {
		doc__row(d);
		doc__cellf(d, "%s", stage_titles[k]);
		for (int i = 0; i < r->nr_modes; i++)
			put_phase_cell(d, &r->modes[i].stage_s[k]);
	}
}

static bool any_devnodes(const struct run_data *r)
{
	for (int i = 0; i < r->nr_modes; i++)
		if (r->modes[i].nr_devnodes)
			return true;
	return false;
}

static const struct devnode_stats *mode__find_devnode(const struct mode_stats *m,
						      const struct devnode_stats *d)
{
	for (int i = 0; i < m->nr_devnodes; i++)
		if (!strcmp(m->devnodes[i].name, d->name) && !strcmp(m->devnodes[i].kind, d->kind) &&
		    !strcmp(m->devnodes[i].driver, d->driver))
			return &m->devnodes[i];
	return NULL;
}

/* Listed once, in the first mode that has it. */
static bool devnode_seen_before(const struct run_data *r, int mode, const struct devnode_stats *d)
{
	for (int i = 0; i < mode; i++)
		if (mode__find_devnode(&r->modes[i], d))
			return true;
	return false;
}

static void put_devnode_row(struct doc *d, const struct run_data *r,
			    const struct devnode_stats *dn)
{
	doc__row(d);
	doc__cell_name(d, dn->name);
	doc__cellf(d, "%s", dn->kind);
	doc__cell_name(d, *dn->driver ? dn->driver : "?");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		const struct devnode_stats *e = mode__find_devnode(m, dn);
		char med[32];

		if (!e) {
			doc__cellf(d, "absent in %d ok boots", m->event_boots);
			continue;
		}
		fmt(med, sizeof(med), e->s.n ? e->s.median : NAN);
		doc__cellf(d, "%s (%d of %d boots%s)", med, e->boots, m->event_boots,
			   e->ref && !strcmp(e->ref, "probe end") ? ", from probe end" : "");
		if (e->unit_sum.n) {
			fmt(med, sizeof(med), e->unit_sum.median);
			doc__text(d, "; systemd waited %s", med);
		}
	}
}

/* Disks no probe made (loop devices, ramdisks): named, not measured. */
static void put_driverless_devnodes(struct doc *d, const struct run_data *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_modes; i++)
		for (int k = 0; k < r->modes[i].nr_devnodes; k++) {
			const struct devnode_stats *dn = &r->modes[i].devnodes[k];

			if (*dn->driver || devnode_seen_before(r, i, dn))
				continue;
			if (!n++) {
				doc__para(d);
				doc__text(d, "Left out, no driver's probe behind them: ");
			}
			doc__text(d, "%s", n > 1 ? ", " : "");
			doc__name(d, dn->name);
		}
	if (n)
		doc__text(d, ".");
}

/*
 * Disks and network interfaces: when each appeared after the modprobe that
 * brought its driver returned (what a script that runs modprobe and then
 * looks for the device waits for).
 */
static void put_readiness(struct doc *d, const struct run_data *r)
{
	if (!any_devnodes(r))
		return;
	put_heading(d, 2, "Readiness of disks and network interfaces");
	doc__para(d);
	doc__text(d, "The readiness gap: from the return of the module load that brought the "
		  "driver of the device a disk or interface hangs off (or that device's probe end, "
		  "where no module load is known) to the disk's or interface's registration (");
	doc__code(d, "device_add_disk()");
	doc__text(d, ", ");
	doc__code(d, "register_netdevice()");
	doc__text(d, "); 0 when it registered first. Median (s), with the ok boots it appeared "
		  "in; then, where ");
	doc__code(d, "systemd-analyze blame");
	doc__text(d, " lists the device's unit (");
	doc__code(d, "dev-NAME.device");
	doc__text(d, ", ");
	doc__code(d, "sys-subsystem-net-devices-NAME.device");
	doc__text(d, "), how long systemd waited for it (median s; only a device some unit "
		  "needs, such as the root disk of /etc/fstab, has a job there): where boot units "
		  "waited on a probe.");
	put_table(d, (const char *const[]){ "device", "kind", "made by the probe of", NULL });
	put_mode_columns(d, r, (const char *const[]){ "", NULL });
	for (int i = 0; i < r->nr_modes; i++)
		for (int k = 0; k < r->modes[i].nr_devnodes; k++) {
			const struct devnode_stats *dn = &r->modes[i].devnodes[k];

			if (*dn->driver && !devnode_seen_before(r, i, dn))
				put_devnode_row(d, r, dn);
		}
	put_driverless_devnodes(d, r);
}

/* The per-mode columns of a drivers.csv row: @ds's probes and per-boot totals, or empty. */
static void csv_driver_cols(FILE *f, const struct driver_stats *ds)
{
	if (!ds) {
		fputs(",,,,,,,", f);
		return;
	}
	fprintf(f, ",%zu", ds->n);
	csv_num(f, ds->s.median);
	csv_num(f, ds->s.max);
	csv_num(f, ds->per_boot.q1);
	csv_num(f, ds->per_boot.q3);
	csv_num(f, ds->per_boot.ci_lo);
	csv_num(f, ds->per_boot.ci_hi);
}

/* A row of @base's own drivers: its probe times, nothing compared. */
static void csv_driver_own(FILE *f, const struct mode_stats *base, const struct driver_stats *ds)
{
	csv_field(f, base->name);
	fputc(',', f);
	csv_field(f, base->name);
	fputc(',', f);
	csv_field(f, ds->driver);
	fprintf(f, ",baseline,%zu,%zu", ds->nr_boot_s, ds->nr_boot_s);
	csv_num(f, ds->per_boot.median);
	csv_num(f, ds->per_boot.median);
	/* median_diff_s ... boots_needed: nothing compared */
	fputs(",,,,,,,,,", f);
	csv_driver_cols(f, ds);
	fputc('\n', f);
}

static void csv_driver_change(FILE *f, const struct mode_stats *base, const struct mode_stats *m,
			      const struct driver_change *v)
{
	const struct comparison *c = &v->c;

	csv_field(f, base->name);
	fputc(',', f);
	csv_field(f, m->name);
	fputc(',', f);
	csv_field(f, v->driver);
	fprintf(f, ",%s,%zu,%zu", driver_verdict__name(v->verdict), v->a ? v->a->nr_boot_s : 0,
		v->b ? v->b->nr_boot_s : 0);
	csv_num(f, v->a ? v->a->per_boot.median : NAN);
	csv_num(f, v->b ? v->b->per_boot.median : NAN);
	csv_num(f, c->diff);
	csv_num(f, c->diff_lo);
	csv_num(f, c->diff_hi);
	csv_num(f, c->pct);
	csv_num(f, c->mw.p);
	csv_num(f, c->p_holm);
	fprintf(f, ",%d", c->family);
	csv_num(f, c->mdd);
	if (c->n_needed)
		fprintf(f, ",%zu", c->n_needed);
	else
		fputc(',', f);
	csv_driver_cols(f, v->b);
	fputc('\n', f);
}

static int cmp_per_boot_desc(const void *pa, const void *pb)
{
	const struct driver_stats *a = *(const struct driver_stats *const *)pa;
	const struct driver_stats *b = *(const struct driver_stats *const *)pb;
	double x = a->per_boot.median, y = b->per_boot.median;

	if (x != y && !(isnan(x) && isnan(y)))
		return isnan(x) ? 1 : isnan(y) ? -1 : (x < y) - (x > y);
	return strcmp(a->driver, b->driver);
}

/*
 * drivers.csv: the baseline's drivers (of a one-mode run: its only mode's)
 * with their probe times, the slowest per boot first, verdict "baseline";
 * then every driver of every other mode against the baseline.  Each row
 * ends with the mode's own numbers of the driver (docs/report.md).
 */
static int write_drivers_csv(struct run_data *r, int dirfd, const char *dir)
{
	struct mode_stats *base = run_data__baseline(r);
	struct out_file o;
	FILE *f = out_file__open_at(&o, dirfd, dir, "drivers.csv");
	const struct driver_stats **own;

	fprintf(f, "baseline,mode,driver,verdict,baseline_boots,mode_boots,baseline_median_s,"
		"mode_median_s,median_diff_s,diff_ci95_lo_s,diff_ci95_hi_s,pct,mann_whitney_p,"
		"p_holm,holm_family,mdd_s,boots_needed,mode_probes,mode_probe_median_s,"
		"mode_probe_max_s,mode_boot_q1_s,mode_boot_q3_s,mode_boot_ci95_lo_s,mode_boot_ci95_hi_s\n");
	if (!base)
		return out_file__commit(&o, WHO);
	own = xcalloc(base->nr_drivers + 1, sizeof(*own));
	for (int k = 0; k < base->nr_drivers; k++)
		own[k] = &base->drivers[k];
	qsort(own, base->nr_drivers, sizeof(*own), cmp_per_boot_desc);
	for (int k = 0; k < base->nr_drivers; k++)
		csv_driver_own(f, base, own[k]);
	free(own);
	for (int i = 0; i < r->nr_modes; i++) {
		struct driver_change *v;
		int n;

		if (&r->modes[i] == base)
			continue;
		v = driver_changes(base, &r->modes[i], &n);
		for (int k = 0; k < n; k++)
			csv_driver_change(f, base, &r->modes[i], &v[k]);
		free(v);
	}
	return out_file__commit(&o, WHO);
}

static void put_efficiency(struct doc *d, struct run_data *r)
{
	put_heading(d, 2, "Against the physical limit");
	doc__para(d);
	doc__text(d, "Probe phase divided by the longest single probe (1.0: perfectly parallel) "
		  "and by the sum of all probes (1.0: perfectly serial).");
	put_table(d, (const char *const[]){ "mode", "phase / longest probe (median)",
			"phase / sum of probes (median)", NULL });
	for (int i = 0; i < r->nr_modes; i++) {
		doc__row(d);
		doc__cell_name(d, r->modes[i].name);
		doc__cellf(d, "%.2f", r->modes[i].eff_longest_s.median);
		doc__cellf(d, "%.2f", r->modes[i].eff_sum_s.median);
	}
	/* What if every probe were asynchronous (whatif_report.c, docs/whatif.md). */
	report__whatif(d, r);
}

static void put_orders(struct doc *d, struct run_data *r)
{
	put_heading(d, 2, "Probe order and device naming across boots");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		doc__item(d, 0);
		doc__bold(d, m->name);
		doc__text(d, ": %zu distinct probe order%s over %d ok boots; %zu distinct "
			  "device→driver set%s", m->orders.n, m->orders.n == 1 ? "" : "s", m->ok,
			  m->device_sets.n, m->device_sets.n == 1 ? "" : "s");
		for (size_t k = 0; k < m->orders.n && k < 5; k++) {
			doc__item(d, 1);
			doc__text(d, "%d boot%s: ", m->order_count[k],
				  m->order_count[k] == 1 ? "" : "s");
			doc__code(d, m->orders.v[k]);
		}
		for (size_t k = 0; m->device_sets.n > 1 && k < m->device_sets.n && k < 5; k++) {
			doc__item(d, 1);
			doc__text(d, "devices, %d boot%s: ", m->device_set_count[k],
				  m->device_set_count[k] == 1 ? "" : "s");
			doc__code(d, m->device_sets.v[k]);
		}
	}
}

/* Boots where a SIGKILL could have gone unseen. */
static int kills_unknown(const struct run_data *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_modes; i++)
		n += r->modes[i].boots_kills_incomplete;
	return n;
}

/* What `bootprobe explain` says of boot @b, as a code block. */
static void put_explain(struct doc *d, struct boot_data *b)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	boot__explain(b, m);
	fclose(m);
	doc__code_block(d, text);
	free(text);
}

static void put_kills(struct doc *d, struct run_data *r)
{
	int n = 0, unknown;

	put_heading(d, 2, "Killed probes and drivers at risk");
	for (int i = 0; i < r->nr_boots; i++) {
		struct boot_data *b = r->boots[i];
		struct boot_metrics bm;
		char *cmd;

		boot__metrics(b, &bm);
		if (!bm.kills && !bm.other_signals && !bm.failed_probes && !bm.udev_kills)
			continue;
		if (n++ < 10) {
			put_explain(d, b);
			continue;
		}
		cmd = xasprintf("bootprobe explain %s/boots/NAME", r->run_id);
		doc__para(d);
		doc__text(d, "(further boots with kills: ");
		doc__code(d, cmd);
		doc__text(d, ")");
		free(cmd);
		break;
	}
	unknown = kills_unknown(r);
	if (!n && !unknown) {
		doc__para(d);
		doc__text(d, "No SIGKILL hit a task loading a module or probing, and no probe failed.");
	} else if (!n) {
		doc__para(d);
		doc__text(d, "No SIGKILL was seen hitting a task loading a module or probing, and no "
			  "failed probe, but in %d boots the collector lost events or did not trace "
			  "signals, or signal records were refused: kills there are unknown.", unknown);
	}
}

/*
 * What the "refused" column counts, in the words every description of it
 * uses: since d9f74d4 the collector's own refusals count too.
 */
static const char refused_words[] =
	"records refused: by the reader (a stream's records or a kernel log's lines it could "
	"not use) or by the collector (boot-time trace records made for another kernel's "
	"arguments)";

/*
 * Every boot whose collector lost events or ran without a program that
 * counts, or whose stream had records refused (kept: the boots left out are
 * in "Boots left out or incomplete").
 */
static void put_losses(struct doc *d, struct run_data *r)
{
	char parts[256];
	int n = 0;

	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];
		struct boot_losses l;

		boot_data__losses(b, &l);
		if (!l.incomplete && !l.refused)
			continue;
		if (!n++) {
			put_heading(d, 2, "What the collector lost");
			doc__para(d);
			doc__text(d, "Boots whose counts are lower bounds: events dropped (BPF ring "
				  "buffer, writer), entries overwritten in the boot-time trace or "
				  "spans it could not keep (kprobe hits not recorded, starts "
				  "dropped, spans not followed past the collector's start), a "
				  "stream without its trailer, a program that was not attached, or "
				  "%s (what each record type costs: docs/events.md, \"What a "
				  "refused record costs\").", refused_words);
			put_table(d, (const char *const[]){ "boot", "BPF drops", "writer drops",
					"boot-time trace: overwritten", "spans lost", "trailer",
					"refused", "incomplete", NULL });
		}
		doc__row(d);
		doc__cell_name(d, b->name);
		doc__cellf(d, "%lld", (long long)b->bpf_drops);
		doc__cellf(d, "%lld", (long long)b->events_dropped);
		doc__cellf(d, "%lld", (long long)b->boot_trace_overwritten);
		doc__cellf(d, "%lld", (long long)b->boot_trace_spans_lost);
		doc__cellf(d, "%s", b->has_trailer ? "yes" : "missing");
		doc__cellf(d, "%d", l.refused);
		doc__cellf(d, "%s", l.incomplete ? incomplete__text(l.incomplete, parts,
								   sizeof(parts)) : "nothing");
	}
}

static void put_warnings(struct doc *d, struct run_data *r)
{
	if (!r->warnings.n)
		return;
	put_heading(d, 2, "Input problems (kept what could be used)");
	for (size_t i = 0; i < r->warnings.n && i < 40; i++) {
		doc__item(d, 0);
		doc__name(d, r->warnings.v[i]);
	}
	if (r->warnings.n > 40) {
		doc__item(d, 0);
		doc__text(d, "... and %zu more", r->warnings.n - 40);
	}
}

/*
 * What made the initrd of mode @mode's boots (boot.json's initrd_generator,
 * "dracut 106-6"), each once, in first-seen order; none for a run booted
 * before boot.json said it, or of the lab's image.
 */
static void mode_initrds(const struct run_data *r, const char *mode, struct strv *out)
{
	for (int i = 0; i < r->nr_boots; i++)
		if (!strcmp(r->boots[i]->mode, mode) && *r->boots[i]->initrd_generator &&
		    !strv__contains(out, r->boots[i]->initrd_generator))
			strv__push(out, r->boots[i]->initrd_generator);
}

/*
 * What each mode was: its kernel arguments, as the manifest recorded them,
 * and what made its boots' initrd when they say (a Debian image's
 * initramfs-tools or dracut).
 */
static void put_settings(struct doc *d, const struct run_data *r)
{
	struct strv *initrds;
	bool any_initrd = false;

	if (!r->mode_names.n)
		return;
	initrds = xcalloc(r->mode_names.n, sizeof(*initrds));
	for (size_t i = 0; i < r->mode_names.n; i++) {
		mode_initrds(r, r->mode_names.v[i], &initrds[i]);
		any_initrd |= initrds[i].n > 0;
	}
	put_heading(d, 2, "Modes");
	if (r->time_scale > 0 && r->time_scale != 1) {
		doc__para(d);
		doc__text(d, "Guest times are scaled by %g: probe times, udev timeouts and grace "
			  "windows below are %g times what the scenario states.", r->time_scale,
			  r->time_scale);
	}
	put_table(d, any_initrd ? (const char *const[]){ "mode", "initrd made by", NULL } :
				  (const char *const[]){ "mode", NULL });
	doc__cellf(d, "kernel arguments of its first boot%s",
		   r->baseline ? "; the baseline is marked" : "");
	for (size_t i = 0; i < r->mode_names.n; i++) {
		doc__row(d);
		doc__cell_name(d, r->mode_names.v[i]);
		doc__text(d, "%s", r->baseline && !strcmp(r->baseline, r->mode_names.v[i]) ?
			  " (baseline)" : "");
		if (any_initrd) {
			doc__cell(d);
			for (size_t k = 0; k < initrds[i].n; k++)
				doc__text(d, "%s%s", k ? ", " : "", initrds[i].v[k]);
			if (!initrds[i].n)
				doc__text(d, "(not recorded)");
		}
		doc__cell(d);
		doc__code(d, *r->mode_args.v[i] ? r->mode_args.v[i] : "(none)");
		strv__free(&initrds[i]);
	}
	free(initrds);
}

/*
 * The distinct hosts that ran the boots (boot.json's host), in first-seen
 * order, each's place in @index.
 */
static void run_hosts(const struct run_data *r, struct strv *hosts, struct keymap *index)
{
	for (int i = 0; i < r->nr_boots; i++)
		if (*r->boots[i]->host &&
		    keymap__put_str(index, r->boots[i]->host, (int)hosts->n) == (int)hosts->n)
			strv__push(hosts, r->boots[i]->host);
}

/* One host's boots of one mode, for the Hosts table. */
struct host_mode {
	int host, mode;		/* places in the hosts and in r->modes */
	double *t;		/* their boot times, NaNs left out */
	size_t n, nt;
};

static int cmp_host_mode(const void *pa, const void *pb)
{
	const struct host_mode *a = pa, *b = pb;

	if (a->host != b->host)
		return a->host - b->host;
	return a->mode - b->mode;
}

/*
 * Where the boots ran: a merged run (bootprobe merge) has boots of many
 * hosts, and a difference between hosts shows here before it hides in a
 * mode's spread.  Per host: boots of each mode and their median boot time.
 * The boots are grouped once by host and mode (a hash), then sorted: one
 * pass, however many hosts and modes a run has.
 */
static void put_hosts(struct doc *d, const struct run_data *r)
{
	struct strv hosts = { 0 };
	struct keymap host_index = { 0 }, group_index = { 0 };
	struct host_mode *g = NULL;
	int nr_g = 0;

	run_hosts(r, &hosts, &host_index);
	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];
		int key[2], k;
		double bt;

		if (!*b->host)
			continue;
		key[0] = keymap__get_str(&host_index, b->host);
		key[1] = keymap__get_str(&r->mode_index, b->mode);
		if (key[1] < 0)
			continue;
		k = keymap__put(&group_index, key, sizeof(key), nr_g);
		if (k == nr_g) {
			struct host_mode *x = ARRAY_PUSH(g, nr_g);

			x->host = key[0];
			x->mode = key[1];
		}
		g[k].n++;
		bt = boot_data__boot_time(b);
		if (!isnan(bt))
			*ARRAY_PUSH(g[k].t, g[k].nt) = bt;
	}
	if (hosts.n) {
		put_heading(d, 2, "Hosts");
		put_table(d, (const char *const[]){ "host", "mode", "boots",
				"median boot time (s)", NULL });
	}
	if (nr_g)
		qsort(g, nr_g, sizeof(*g), cmp_host_mode);
	for (int k = 0; k < nr_g; k++) {
		char med[32];

		fmt(med, sizeof(med), g[k].nt ? stats_median(g[k].t, g[k].nt) : NAN);
		doc__row(d);
		doc__cell_name(d, hosts.v[g[k].host]);
		doc__cell_name(d, r->modes[g[k].mode].name);
		doc__cellf(d, "%zu", g[k].n);
		doc__cellf(d, "%s", med);
		free(g[k].t);
	}
	free(g);
	keymap__free(&host_index);
	keymap__free(&group_index);
	strv__free(&hosts);
}

/* Boots kept with records refused. */
static int nr_kept_incomplete(const struct run_data *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_boots; i++)
		n += r->boots[i]->rejected > 0;
	return n;
}

/*
 * Boots left out of every statistic, and boots kept with records refused,
 * named early: every number is without the first, and the second's
 * incomplete parts are lower bounds.
 */
static void put_damaged(struct doc *d, const struct run_data *r)
{
	int kept = nr_kept_incomplete(r);

	if (!r->nr_damaged && !kept)
		return;
	put_heading(d, 2, "Boots left out or incomplete");
	doc__para(d);
	doc__text(d, "%d boot%s left out of every statistic in this report: boot.json could "
		  "not be read, or a record of the stream's header, trailer or probe spans had to "
		  "be refused. %d boot%s kept with records refused: each refused record costs "
		  "what depends on its type (docs/events.md, \"What a refused record costs\"), "
		  "shown as incomplete.", r->nr_damaged, r->nr_damaged == 1 ? " is" : "s are",
		  kept, kept == 1 ? " is" : "s are");
	put_table(d, (const char *const[]){ "boot", "mode", "verdict", "why", NULL });
	for (int i = 0; i < r->nr_damaged; i++) {
		doc__row(d);
		doc__cell_name(d, r->damaged[i].name);
		doc__cell_name(d, r->damaged[i].mode);
		doc__cell_name(d, "left out");
		doc__cell_name(d, r->damaged[i].why);
	}
	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];
		char *why = boot_data__refusals(b);

		if (!why)
			continue;
		doc__row(d);
		doc__cell_name(d, b->name);
		doc__cell_name(d, b->mode);
		doc__cell_name(d, "kept, incomplete");
		doc__cell_name(d, why);
		free(why);
	}
}

/* How many boots ran at once, and whether that is known not to bias them. */
static void put_jobs(struct doc *d, const struct run_data *r)
{
	char jobs[32];

	if (!r->jobs)
		return;
	snprintf(jobs, sizeof(jobs), "%d at once", r->jobs);
	doc__para(d);
	doc__text(d, "Boots ran ");
	doc__bold(d, jobs);
	doc__text(d, " (");
	if (r->jobs_from)
		doc__name(d, r->jobs_from);
	else
		doc__text(d, "source not recorded");
	doc__text(d, ").");
	if (r->jobs > 1) {
		doc__text(d, " Whether parallel boots change what is measured is checked by ");
		doc__code(d, "bench/jobs-bias.sh");
		doc__text(d, " (README, \"Parallel boots\").");
	}
}

/*
 * The answer first: the headline, each mode against the baseline, the
 * drivers that changed and the devices lost, the charts, what was killed;
 * then the detail, from the modes' kernel arguments on.
 */
/*
 * The charts this report drew, in order; the ones with nothing to draw in
 * any mode (@empty: every boot untraced) named once, without a heading.
 */
static void put_charts(struct doc *d, unsigned drawn, unsigned empty)
{
	put_heading(d, 2, "Charts");
	if (empty) {
		int n = 0;

		doc__para(d);
		doc__text(d, "No mode recorded a probe (its boots ran with the collector off, or "
			  "their logs had no probe lines), so these charts are not drawn: ");
		for (int i = 0; chart_names[i]; i++) {
			const char *t = chart_titles[i];
			int len = (int)strcspn(t, "(");

			if (!(empty & 1u << i))
				continue;
			/* The title up to its explanation in parentheses. */
			while (len && t[len - 1] == ' ')
				len--;
			doc__text(d, "%s%.*s", n++ ? "; " : "", len, t);
		}
		doc__text(d, ".");
	}
	for (int i = 0; chart_names[i]; i++) {
		if (empty & 1u << i)
			continue;
		put_heading(d, 3, chart_titles[i]);
		/* Only a chart this report drew: never a picture that came with the folder. */
		if (drawn & 1u << i) {
			doc__chart(d, chart_names[i]);
			continue;
		}
		doc__para(d);
		doc__text(d, "Not drawn: gnuplot failed on it (charts/gnuplot.log says why).");
	}
}

static void write_body(struct doc *d, struct run_data *r, bool charts, unsigned drawn,
		       unsigned empty)
{
	struct mode_stats *base = run_data__baseline(r);
	struct comparison *cmp = run_data__comparisons(r, base);

	doc__heading(d, 1);
	doc__text(d, "bootprobe report: ");
	doc__name(d, r->run_id);
	put_headline(d, r);
	doc__para(d);
	doc__text(d, "%d boots in %d modes. ", r->nr_boots, r->nr_modes);
	doc__bold(d, "Boot time");
	doc__text(d, " is measured %s; the guest's own boot-complete mark and QEMU's wall time "
		  "are shown next to it.", run_data__boot_time_words(r, true));
	put_jobs(d, r);
	if (r->until_end) {
		doc__para(d);
		doc__text(d, "The run booted in rounds until a condition held (");
		doc__code(d, "run --until-ci");
		doc__text(d, "): ");
		doc__name(d, r->until_end);
		doc__text(d, ".");
	}
	put_damaged(d, r);
	put_answer(d, r, base, cmp);
	report__slow_probes(d, r);
	report__late(d, r);
	put_drivers(d, r);
	if (charts)
		put_charts(d, drawn, empty);
	put_kills(d, r);
	doc__details(d);
	put_settings(d, r);
	put_hosts(d, r);
	put_modes(d, r);
	put_comparisons(d, r, base, cmp);
	put_stages(d, r);
	put_systemd(d, r);
	put_readiness(d, r);
	put_efficiency(d, r);
	put_orders(d, r);
	put_losses(d, r);
	put_warnings(d, r);
	free(cmp);
}

char *report__dir(const struct run_data *r, const struct report_opts *o)
{
	return o->out ? xstrdup(o->out) : xasprintf("%s/report", r->dir);
}

/*
 * The report's folder, open: --out DIR as the user named it (made if
 * missing), else report/ beneath RUN, neither a link nor under one.  Its
 * descriptor, or -1 after a message.
 */
static int report__open_dir(const struct run_data *r, const struct report_opts *o,
			    const char *dir)
{
	int runfd, fd;

	if (o->out) {
		fd = dir_open_user(o->out, true);
	} else {
		runfd = dir_open_user(r->dir, false);
		fd = runfd < 0 ? runfd : dir_open_beneath(runfd, "report", true);
		if (runfd >= 0)
			close(runfd);
	}
	if (fd < 0)
		fprintf(stderr, WHO ": %s: %s\n", dir, read_file_strerror(-fd));
	return fd < 0 ? -1 : fd;
}

int report__write(struct run_data *r, const struct report_opts *o)
{
	char *dir = report__dir(r, o);
	int fd = report__open_dir(r, o, dir), lock, err = 0;
	unsigned drawn = 0, empty = 0;
	json_object *sum;
	struct doc *d;

	if (fd < 0) {
		free(dir);
		return -1;
	}
	/* One writer at a time: a second one stops at once, naming the lock. */
	lock = dir_lock(fd, REPORT_LOCK);
	if (lock < 0) {
		fprintf(stderr, WHO ": %s/%s: %s\n", dir, REPORT_LOCK, lock == -EWOULDBLOCK ?
			"another bootprobe report is writing this folder (locked)" :
			read_file_strerror(-lock));
		close(fd);
		free(dir);
		return lock == -EWOULDBLOCK ? REPORT_LOCKED : -1;
	}
	/* Each output on its own: one that cannot be written does not stop the others. */
	if (o->charts && charts__write(r, fd, dir, &drawn, &empty))
		err = -1;
	d = doc__open(fd, dir);
	write_body(d, r, o->charts, drawn, empty);
	err |= doc__close(d, WHO);
	err |= write_csv(r, fd, dir);
	err |= write_drivers_csv(r, fd, dir);
	err |= report__whatif_csv(r, fd, dir, WHO);
	sum = run_data__summary_json(r);
	err |= jwrite_at(fd, dir, "summary.json", sum, WHO);
	json_object_put(sum);
	if (o->traces && report_traces__write(r, fd, dir))
		err = -1;
	close(lock);
	close(fd);
	free(dir);
	return err;
}

/* ---- the headline on the terminal: its rows aligned --------------------------------- */

void report__headline(const struct run_data *r, const char *dir, FILE *out)
{
	struct hl_row *rows = xcalloc(r->nr_modes + 1, sizeof(*rows));
	int width[HL_COLS] = { 0 };

	for (int k = 0; k < HL_COLS; k++)
		snprintf(rows[0].cell[k], sizeof(rows[0].cell[k]), "%s", hl_titles[k]);
	for (int i = 0; i < r->nr_modes; i++)
		hl_row__fill(&rows[i + 1], &r->modes[i]);
	/* Columns as wide as their widest cell; the mode left-aligned, the numbers right. */
	for (int i = 0; i <= r->nr_modes; i++)
		for (int k = 0; k < HL_COLS; k++)
			if ((int)strlen(rows[i].cell[k]) > width[k])
				width[k] = (int)strlen(rows[i].cell[k]);
	for (int i = 0; i <= r->nr_modes; i++) {
		fprintf(out, "%-*s", width[HL_MODE], rows[i].cell[HL_MODE]);
		for (int k = HL_MODE + 1; k < HL_COLS; k++)
			fprintf(out, "  %*s", width[k], rows[i].cell[k]);
		fputc('\n', out);
	}
	for (int i = 0; i < r->nr_modes; i++)
		if (r->modes[i].boots_lossy) {
			fprintf(out, "* lower bounds: the collector lost events or ran without a "
				"program, or records were refused, in some boots (report.md: What "
				"the collector lost)\n");
			break;
		}
	/* Each boot left out or kept incomplete, by folder: five of each, report.md has all. */
	if (run_data__print_verdicts(r, out, "", 5))
		fprintf(out, "(report.md: Boots left out or incomplete)\n");
	fprintf(out, "report: %s/report.html\n", dir);
	free(rows);
}

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
#include "charts.h"
#include "drivers.h"
#include "explain.h"
#include "html.h"
#include "jsonio.h"
#include "trace.h"

#include <ctype.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHO "bootprobe report"

static void fmt(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", v);
}

/* ---- escaping: one helper per output language ------------------------------------- */

/*
 * @s as Markdown text, safe in a paragraph, a heading or a table cell: bytes
 * Markdown would act on (`*[]<>&|~\ and _ not between two letters or digits)
 * as numeric character references, control bytes as '?'.  The caller frees.
 */
static char *md_str(const char *s)
{
	char *out = xmalloc(strlen(s) * 6 + 1), *o = out;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		bool inner = p > (const unsigned char *)s && isalnum(p[-1]) && isalnum(p[1]);

		if (*p < 0x20 || *p == 0x7f)
			*o++ = '?';
		else if (strchr("`*[]<>&|~\\", *p) || (*p == '_' && !inner))
			o += sprintf(o, "&#%d;", *p);
		else
			*o++ = (char)*p;
	}
	*o = '\0';
	return out;
}

/* Escaped names that live until the report is written (report__write frees them). */
static struct strv md_pool;

/* md_str(@s) for a printf argument: no free at the call site. */
static const char *md(const char *s)
{
	char *e = md_str(s);

	strv__push(&md_pool, e);
	free(e);
	return md_pool.v[md_pool.n - 1];
}

/*
 * @s inside a Markdown code span or code block: a backtick would end it (or
 * a ``` line close the block), so it becomes '; control bytes become '?',
 * line breaks too unless @block.
 */
static void md_code_text(FILE *f, const char *s, bool block)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '`')
			fputc('\'', f);
		else if ((c < 0x20 && !(block && c == '\n')) || c == 0x7f)
			fputc('?', f);
		else
			fputc(c, f);
	}
}

static void md_code(FILE *f, const char *s)
{
	md_code_text(f, s, false);
}

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
	if (boot->n)
		snprintf(row->cell[HL_CI], len, "%.3f .. %.3f", boot->ci_lo, boot->ci_hi);
	else
		snprintf(row->cell[HL_CI], len, "-");
	/* '*': a lower bound, the collector lost something in some boots. */
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
		isnan(v[i]) ? fprintf(f, ",") : fprintf(f, ",%.6g", v[i]);
	fprintf(f, "\n");
}

static int write_csv(struct run_data *r, const char *dir)
{
	struct out_file o;
	FILE *f = out_file__open(&o, dir, "summary.csv");

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
		csv_row(f, m->name, "whatif_all_async_boot_s", &m->whatif_s);
	}
	return out_file__commit(&o, WHO);
}

/* ---- report.md (the same text feeds report.html) ------------------------------------ */

static void md_summary_row(FILE *f, const char *label, const struct summary *s)
{
	char med[32], q1[32], q3[32], lo[32], hi[32], mn[32], mx[32];

	fmt(med, sizeof(med), s->median);
	fmt(q1, sizeof(q1), s->q1);
	fmt(q3, sizeof(q3), s->q3);
	fmt(lo, sizeof(lo), s->ci_lo);
	fmt(hi, sizeof(hi), s->ci_hi);
	fmt(mn, sizeof(mn), s->min);
	fmt(mx, sizeof(mx), s->max);
	fprintf(f, "| %s | %zu | %s | %s – %s | %s – %s | %s – %s |\n", label, s->n, med, q1, q3,
		lo, hi, mn, mx);
}

/* A mode whose collector lost something: its counts are lower bounds. */
static void md_mode_losses(FILE *f, const struct mode_stats *m)
{
	if (!m->boots_lossy)
		return;
	fprintf(f, "**Incomplete counts**: the collector lost %lld events in this mode's boots, or "
		"ran without a program; SIGKILLs are unknown in %d of %d boots and probes in %d "
		"(see \"What the collector lost\"). Counts below are lower bounds.\n\n",
		(long long)m->events_lost, m->boots_kills_incomplete, m->boots,
		m->boots_probes_incomplete);
}

/* A mode with more drivers than this gets no per-driver rows in its table. */
#define MD_MODE_DRIVER_ROWS 8

static void md_drivers_probed(FILE *f, const struct run_data *r);

static void md_modes(FILE *f, struct run_data *r)
{
	fprintf(f, "## Per mode\n\n");
	md_drivers_probed(f, r);
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		fprintf(f, "### %s\n\n%d boots, %d ok; kill rate %d/%d boots; failed probes %d of %d, "
			"in %d of %d ok boots\n\n", md(m->name), m->boots, m->ok, m->boots_with_kills,
			m->boots, m->failed_probes, m->probes, m->boots_with_failed, m->ok);
		md_mode_losses(f, m);
		if (m->boots_udev_ignored) {
			fprintf(f, "udevd ignored a setting in %d of %d boots: `",
				m->boots_udev_ignored, m->boots);
			md_code(f, m->udev_ignored);
			fprintf(f, "`\n\n");
		}
		fprintf(f, "| metric | n | median | IQR | 95 %% CI of median | min – max |\n"
			"|---|---|---|---|---|---|\n");
		for (int k = 0; k < M_COUNT; k++)
			md_summary_row(f, metric_titles[k], &m->s[k]);
		for (int k = 0; m->nr_drivers <= MD_MODE_DRIVER_ROWS && k < m->nr_drivers; k++) {
			char *name = md_str(m->drivers[k].driver);
			char *label = xasprintf("probe time of %s (s)", name);

			md_summary_row(f, label, &m->drivers[k].s);
			free(label);
			free(name);
		}
		if (m->nr_drivers > MD_MODE_DRIVER_ROWS)
			fprintf(f, "\nThe probe times of its %d drivers: summary.csv (per probe) and "
				"drivers.csv (per boot).\n", m->nr_drivers);
		fprintf(f, "\n");
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
static void md_power(FILE *f, const struct comparison *c, const char *unit)
{
	size_t least = c->na < c->nb ? c->na : c->nb;

	if (isinf(c->mdd))
		fprintf(f, " With %zu and %zu boots no difference can reach p < %.3g (the exact "
			"Mann-Whitney p cannot go below %.3g); that takes %zu boots per mode.", c->nb,
			c->na, c->alpha, stats_mw_min_p(c->na, c->nb), stats_mw_min_n(c->alpha));
	else if (isfinite(c->mdd))
		fprintf(f, " At these boots the smallest difference found with power %.1f at "
			"p < %.3g is %.3f %s.", CMP_POWER, c->alpha, c->mdd, unit);
	/* beyond what the test itself needs, said just before */
	if (c->n_needed > least && (!isinf(c->mdd) || c->n_needed > stats_mw_min_n(c->alpha)))
		fprintf(f, " Need about %zu boots per mode to detect a %.3f %s difference.",
			c->n_needed, fabs(c->diff), unit);
}

static void md_comparisons(FILE *f, struct run_data *r, const struct mode_stats *base,
			   const struct comparison *cmp)
{
	if (!cmp)
		return;
	fprintf(f, "## Compared with %s\n\n"
		"Difference of medians (mode − %s) with its 95 %% bootstrap CI; the two-sided "
		"Mann-Whitney U test's p, and that p **Holm-adjusted** over the modes compared "
		"on the same metric (a verdict uses the Holm p: a difference is significant when "
		"the CI excludes 0 and the Holm p is below %.2g); **MDD**: the smallest difference "
		"these boots detect with power %.1f at p < 0.05 / the number of modes compared "
		"(Holm's first step), by the normal approximation from the pooled robust SD "
		"(IQR / 1.349) and Mann-Whitney's efficiency 3/π, \"none\" when no arrangement "
		"of these boots can reach that p; **boots needed**: per mode, to detect the "
		"difference observed that way.\n\n"
		"| mode | metric | median %s | median mode | difference | 95 %% CI | change | p | "
		"Holm p | MDD | boots needed |\n"
		"|---|---|---|---|---|---|---|---|---|---|---|\n", md(base->name), md(base->name),
		CMP_ALPHA, CMP_POWER, md(base->name));
	for (int i = 0; i < r->nr_modes; i++) {
		if (&r->modes[i] == base)
			continue;
		for (int k = 0; k < NR_CMP; k++) {
			const struct comparison *c = &cmp[i * NR_CMP + k];
			char pct[32] = "-", mdd[32] = "none", need[32] = "-";

			if (isfinite(c->pct))
				snprintf(pct, sizeof(pct), "%+.1f %%", c->pct);
			if (isfinite(c->mdd))
				snprintf(mdd, sizeof(mdd), "%.3f", c->mdd);
			else if (isnan(c->mdd))
				snprintf(mdd, sizeof(mdd), "-");
			if (c->n_needed)
				snprintf(need, sizeof(need), "%zu", c->n_needed);
			fprintf(f, "| %s | %s | %.3f | %.3f | %+.3f | %+.3f – %+.3f | %s | %.3g%s | "
				"%.3g | %s | %s |\n", md(r->modes[i].name),
				metric_titles[cmp_metrics[k]], c->median_a, c->median_b, c->diff,
				c->diff_lo, c->diff_hi, pct, c->mw.p, c->mw.exact ? " (exact)" : "",
				c->p_holm, mdd, need);
		}
	}
	fprintf(f, "\n");
}

/* The headline as report.md's first table: the cells the terminal shows, escaped. */
static void md_headline(FILE *f, const struct run_data *r)
{
	struct hl_row row;
	bool lossy = false;

	fprintf(f, "|");
	for (int k = 0; k < HL_COLS; k++)
		fprintf(f, " %s |", md(hl_titles[k]));
	fprintf(f, "\n|");
	for (int k = 0; k < HL_COLS; k++)
		fprintf(f, "---|");
	fprintf(f, "\n");
	for (int i = 0; i < r->nr_modes; i++) {
		hl_row__fill(&row, &r->modes[i]);
		fprintf(f, "|");
		for (int k = 0; k < HL_COLS; k++)
			fprintf(f, " %s |", md(row.cell[k]));
		fprintf(f, "\n");
		lossy |= r->modes[i].boots_lossy;
	}
	fprintf(f, "\n");
	if (lossy)
		fprintf(f, "%s\n\n", md("* lower bounds: the collector lost events or ran without a "
					"program in some boots (see \"What the collector lost\")."));
}

/*
 * The answer, a paragraph per mode: its median boot time against the
 * baseline's, from run_comparisons' numbers; "no clear difference" when the
 * CI of the difference includes 0.  Then what was killed, in a sentence.
 */
static void md_answer(FILE *f, struct run_data *r, const struct mode_stats *base,
		      const struct comparison *cmp)
{
	char *bname;
	int kills = 0;

	if (!cmp)
		return;
	bname = md_str(base->name);
	fprintf(f, "## Answer\n\n");
	if (r->nr_modes > 2)
		fprintf(f, "Each mode's median boot time against **%s**. A difference counts when "
			"the 95 %% CI of the difference of medians excludes 0 and the Mann-Whitney p, "
			"Holm-adjusted over the %d modes compared with %s, is below %.2g.\n\n", bname,
			r->nr_modes - 1, bname, CMP_ALPHA);
	else
		fprintf(f, "The median boot time against **%s**. A difference counts when the 95 %% "
			"CI of the difference of medians excludes 0 and the Mann-Whitney p is below "
			"%.2g (one comparison: nothing to adjust).\n\n", bname, CMP_ALPHA);
	for (int i = 0; i < r->nr_modes; i++) {
		const struct comparison *c = &cmp[i * NR_CMP];	/* cmp_metrics[0]: boot time */
		const char *name = md(r->modes[i].name);
		char pct[32] = "", by[32] = "", p[128];

		if (&r->modes[i] == base)
			continue;
		if (isfinite(c->pct)) {
			snprintf(pct, sizeof(pct), ", %+.1f %%", c->pct);
			snprintf(by, sizeof(by), " (%+.1f %%)", c->pct);
		}
		fmt_p(p, sizeof(p), c);
		if (!c->na || !c->nb || !isfinite(c->diff_lo) || !isfinite(c->diff_hi)) {
			fprintf(f, "**%s** against **%s**: not comparable, %zu and %zu ok boots "
				"with a boot time.\n\n", name, bname, c->nb, c->na);
			continue;
		}
		if (comparison__significant(c))
			fprintf(f, "**%s** boots **%s** than **%s** by %.3f s%s in median boot time "
				"(%.3f s against %.3f s; 95 %% CI of the difference %+.3f – %+.3f s; "
				"%s; %zu and %zu ok boots).\n\n", name,
				c->diff < 0 ? "faster" : "slower", bname, fabs(c->diff), by,
				c->median_b, c->median_a, c->diff_lo, c->diff_hi, p, c->nb, c->na);
		else if (comparison__suggestive(c))
			fprintf(f, "**%s** against **%s**: **%s** by %.3f s%s in median boot time in "
				"these boots, but not significant (%.3f s against %.3f s; the 95 %% CI "
				"of the difference, %+.3f – %+.3f s, excludes 0; %s; %zu and %zu ok "
				"boots).", name, bname, c->diff < 0 ? "faster" : "slower",
				fabs(c->diff), by, c->median_b, c->median_a, c->diff_lo, c->diff_hi,
				p, c->nb, c->na);
		else
			fprintf(f, "**%s** against **%s**: no clear difference in median boot time "
				"(%.3f s against %.3f s, %+.3f s%s; the 95 %% CI of the difference, "
				"%+.3f – %+.3f s, includes 0; %s; %zu and %zu ok boots).", name, bname,
				c->median_b, c->median_a, c->diff, pct, c->diff_lo, c->diff_hi, p,
				c->nb, c->na);
		if (!comparison__significant(c)) {
			md_power(f, c, "s");
			fprintf(f, "\n\n");
		}
	}
	fprintf(f, "**Killed**: ");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		if (m->boots_with_kills)
			fprintf(f, "%s%s, a SIGKILL in %d of %d boots", kills++ ? "; " : "",
				md(m->name), m->boots_with_kills, m->boots);
	}
	if (kills)
		fprintf(f, ". Who sent each, to which probe and why: \"Killed probes and drivers "
			"at risk\", after the charts.\n\n");
	else
		fprintf(f, "no SIGKILL hit a task loading a module or probing in any mode%s.\n\n",
			kills_unknown(r) ? " (as far as the collector saw: see \"What the "
			"collector lost\")" : "");
	free(bname);
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
static void md_drivers_probed(FILE *f, const struct run_data *r)
{
	const char *sep = "";

	fprintf(f, "**Drivers probed** (distinct drivers with a probe in user space; per ok "
		"boot, median, and over all ok boots): ");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		char *name = md_str(m->name);

		if (m->n[M_DRIVERS])
			fprintf(f, "%s%s %g per boot, %d in all", sep, name, m->s[M_DRIVERS].median,
				m->nr_drivers);
		else
			fprintf(f, "%s%s: no ok boot with an event stream", sep, name);
		sep = "; ";
		free(name);
	}
	fprintf(f, ".\n\n");
}

static void md_driver_row(FILE *f, const struct driver_change *d)
{
	const struct comparison *c = &d->c;
	char *name = md_str(d->driver);
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
	fprintf(f, "| %s | %zu / %zu | %s | %s | %s | %s – %s | %s | %.3g | %.3g | %s | %s |\n",
		name, c->na, c->nb, ma, mb, diff, lo, hi, pct, c->mw.p, c->p_holm, mdd,
		driver_verdict__name(d->verdict));
	free(name);
}

/* "Only in sync (2): a, b." for the drivers of @v with verdict @which. */
static void md_one_mode_drivers(FILE *f, const struct driver_change *v, int n,
				enum driver_verdict which, const char *mode)
{
	int count = 0, listed = 0;
	char *m = md_str(mode);

	for (int i = 0; i < n; i++)
		count += v[i].verdict == which;
	if (!count) {
		free(m);
		return;
	}
	fprintf(f, " Only in %s (%d): ", m, count);
	for (int i = 0; i < n && listed < MD_NAMES_LISTED; i++) {
		char *name;

		if (v[i].verdict != which)
			continue;
		name = md_str(v[i].driver);
		fprintf(f, "%s%s", listed++ ? ", " : "", name);
		free(name);
	}
	fprintf(f, "%s.", count > listed ? ", …" : "");
	free(m);
}

/* The table of @m's drivers with a clear change against @base, at most MD_CHANGED_ROWS. */
static void md_changed_drivers(FILE *f, const struct driver_change *v, int n, int changed,
			       const char *bname, const char *mname)
{
	fprintf(f, "| driver | boots %s / %s | median %s (ms) | median %s (ms) | "
		"difference (ms) | 95 %% CI (ms) | change | p | Holm p | MDD (ms) | verdict |\n"
		"|---|---|---|---|---|---|---|---|---|---|---|\n", bname, mname, bname, mname);
	for (int i = 0, shown = 0; i < n && shown < MD_CHANGED_ROWS; i++)
		if (v[i].verdict == DV_SLOWER || v[i].verdict == DV_FASTER) {
			md_driver_row(f, &v[i]);
			shown++;
		}
	if (changed > MD_CHANGED_ROWS)
		fprintf(f, "\n%d more with a clear change in drivers.csv.\n", changed - MD_CHANGED_ROWS);
	fprintf(f, "\n");
}

/* One mode's drivers against the baseline: clear changes, then one line of counts. */
static void md_mode_drivers(FILE *f, const struct mode_stats *base, const struct mode_stats *m)
{
	int n, changed = 0, unclear = 0, few = 0, weak = 0, family = 0;
	struct driver_change *v = driver_changes(base, m, &n);
	double alpha = CMP_ALPHA;
	size_t least = 0;
	char *bname = md_str(base->name), *mname = md_str(m->name);

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
	fprintf(f, "### %s\n\n", mname);
	if (changed)
		md_changed_drivers(f, v, n, changed, bname, mname);
	fprintf(f, "%s: %d driver%s with a clear change, %d with no clear change", mname, changed,
		changed == 1 ? "" : "s", unclear);
	if (few)
		fprintf(f, " (%d of them in fewer than %d boots of a mode)", few, DRIVER_MIN_BOOTS);
	fprintf(f, ".");
	if (weak) {
		fprintf(f, " %d driver%s changed in these boots (the CI excludes 0) but not "
			"significantly after Holm over %d drivers", weak, weak == 1 ? "" : "s", family);
		if (stats_mw_min_p(least, least) >= alpha)
			fprintf(f, ": with %zu boots a side no p can go below %.3g; that takes %zu",
				least, alpha, stats_mw_min_n(alpha));
		fprintf(f, " (drivers.csv: p_holm, mdd_s, boots_needed).");
	}
	md_one_mode_drivers(f, v, n, DV_ONLY_BASE, base->name);
	md_one_mode_drivers(f, v, n, DV_ONLY_MODE, m->name);
	fprintf(f, "\n\n");
	free(bname);
	free(mname);
	free(v);
}

static void md_device_row(FILE *f, const struct device_change *c, const struct mode_stats *base,
			  const struct mode_stats *m)
{
	char *mode = md_str(m->name), *drv = md_str(c->driver), *dev = md_str(c->device);
	char *bname = md_str(base->name);
	char *da = device_outcome__describe(base, c->a), *db = device_outcome__describe(m, c->b);
	const char *worse = c->worse > 0 ? mode : c->worse < 0 ? bname : "as often";

	fprintf(f, "| %s | %s | %s | %s | %s | %s |\n", mode, drv, dev, da, db, worse);
	free(bname);
	free(db);
	free(da);
	free(dev);
	free(drv);
	free(mode);
}

/* "driver device, ..." of the renamed changes of @v, or NULL if none; the caller frees. */
static char *renamed_list(const struct device_change *v, int n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int k = 0;

	for (int i = 0; i < n; i++)
		k += v[i].renamed;
	if (!k)
		return NULL;
	f = open_memstream(&text, &len);
	k = 0;
	for (int i = 0; i < n; i++) {
		char *drv, *dev;

		if (!v[i].renamed)
			continue;
		drv = md_str(v[i].driver);
		dev = md_str(v[i].device);
		fprintf(f, "%s%s %s", k++ ? ", " : "", drv, dev);
		free(dev);
		free(drv);
	}
	fclose(f);
	return text;
}

/* Devices bound in a boot of one mode but not in a boot of the other. */
static void md_device_changes(FILE *f, struct run_data *r, const struct mode_stats *base)
{
	char *bname = md_str(base->name), *names = NULL, *moved = NULL;
	size_t len = 0, mlen = 0;
	FILE *compared = open_memstream(&names, &len), *renamed = open_memstream(&moved, &mlen);
	int rows = 0, modes = 0, nr_renamed = 0;

	fprintf(f, "### Async regressions: devices bound in one mode, not in every boot of the "
		"other\n\nA device is a driver and device name. Counts are over ok boots with an "
		"event stream. Missing: no probe of it in that boot. Only rejected or deferred: "
		"its probes returned -ENODEV, -ENXIO or -EPROBE_DEFER only. Failed: another "
		"error, the first one shown. A device whose driver bound as many devices per "
		"boot in both modes was renamed, not lost (virtio, USB and interface names "
		"follow probe order): those are listed after the table.\n\n");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		struct device_change *v;
		char *name, *list;
		int n;

		if (m == base || !m->event_boots)
			continue;
		name = md_str(m->name);
		fprintf(compared, "%s%s", modes++ ? ", " : "", name);
		v = device_changes(base, m, &n);
		for (int k = 0; k < n && !v[k].renamed; k++) {
			if (!rows++)
				fprintf(f, "| mode | driver | device | in %s | in the mode | unbound "
					"more often in |\n|---|---|---|---|---|---|\n", bname);
			md_device_row(f, &v[k], base, m);
		}
		list = renamed_list(v, n);
		if (list) {
			fprintf(renamed, "- %s: %s\n", name, list);
			nr_renamed++;
		}
		free(list);
		free(name);
		free(v);
	}
	fclose(compared);
	fclose(renamed);
	if (!base->event_boots || !modes)
		fprintf(f, "Nothing to compare: %s or every other mode has no ok boot with an "
			"event stream.\n", bname);
	else if (!rows)
		fprintf(f, "None: every device bound in a boot of %s was bound in every boot of %s, "
			"and the reverse%s.\n", bname, names, nr_renamed ? ", but for renamed ones" : "");
	if (nr_renamed)
		fprintf(f, "\nRenamed, not lost (against %s):\n\n%s", bname, moved);
	fprintf(f, "\n");
	free(moved);
	free(names);
	free(bname);
}

static void md_drivers(FILE *f, struct run_data *r)
{
	struct mode_stats *base = run_data__baseline(r);
	char *bname;

	if (!base || r->nr_modes < 2)
		return;
	bname = md_str(base->name);
	fprintf(f, "## Driver probes compared with %s\n\nA driver's probe time in a boot is the "
		"sum of its probe spans in user space; medians are over the ok boots it probed "
		"in, differences are mode − %s. Verdict: %s. Every driver, with its numbers: "
		"drivers.csv.\n\n", bname, bname, driver_verdict_rule);
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		char *name;

		if (m == base)
			continue;
		if (m->event_boots) {
			md_mode_drivers(f, base, m);
			continue;
		}
		name = md_str(m->name);
		fprintf(f, "### %s\n\nNo ok boot with an event stream: nothing to compare.\n\n",
			name);
		free(name);
	}
	md_device_changes(f, r, base);
	free(bname);
}

/* ---- boots that reach systemd: beside systemd-analyze, readiness of devices ---------- */

/*
 * The rest of a table's header after its first columns: per mode, one
 * column per @suffixes ("MODE: bootprobe"), then the separator line, which
 * starts with @left (the first columns' part).
 */
static void md_mode_columns(FILE *f, const struct run_data *r, const char *const *suffixes,
			    const char *left)
{
	for (int i = 0; i < r->nr_modes; i++) {
		char *name = md_str(r->modes[i].name);

		for (int k = 0; suffixes[k]; k++)
			fprintf(f, " %s%s |", name, suffixes[k]);
		free(name);
	}
	fprintf(f, "\n%s", left);
	for (int i = 0; i < r->nr_modes; i++)
		for (int k = 0; suffixes[k]; k++)
			fprintf(f, "---|");
	fprintf(f, "\n");
}

static bool any_phases(const struct run_data *r)
{
	for (int i = 0; i < r->nr_modes; i++)
		if (r->modes[i].phase_boots)
			return true;
	return false;
}

static void md_phase_cell(FILE *f, const struct summary *s)
{
	char med[32];

	fmt(med, sizeof(med), s->n ? s->median : NAN);
	fprintf(f, " %s |", med);
}

/*
 * The boot's phases as bootprobe measured them next to what systemd-analyze
 * printed on the same boots: medians over the ok boots of each mode.
 */
static void md_systemd(FILE *f, const struct run_data *r)
{
	if (!any_phases(r))
		return;
	fprintf(f, "## Beside systemd-analyze\n\nMedians (s) over each mode's ok boots that "
		"reached systemd. *bootprobe*: the kernel starting the initramfs's /init, PID 1's "
		"exec of the root's init in the event stream, multi-user.target's own timestamp "
		"and the probe spans. *systemd-analyze*: `systemd-analyze time` on the same boot; with an "
		"initramfs-tools initrd (no systemd in it) its \"kernel\" lasts until systemd "
		"starts in the root (in its main(), after the dynamic loader: a little after the "
		"exec), which bootprobe splits at the initramfs's /init. Its "
		"files are kept in each boot folder as systemd-analyze-*.txt.\n\n| phase |");
	md_mode_columns(f, r, (const char *const[]){ ": bootprobe", ": systemd-analyze", NULL },
			"|---|");
	for (int k = 0; k < PH_COUNT; k++) {
		fprintf(f, "| %s |", phase_titles[k]);
		for (int i = 0; i < r->nr_modes; i++) {
			md_phase_cell(f, &r->modes[i].phase_s[PS_BOOTPROBE][k]);
			md_phase_cell(f, &r->modes[i].phase_s[PS_SYSTEMD][k]);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
}

static bool any_stages(const struct run_data *r)
{
	for (int i = 0; i < r->nr_modes; i++)
		if (r->modes[i].stage_boots)
			return true;
	return false;
}

/* Where our /init's boots spend their time: medians per mode. */
static void md_stages(FILE *f, const struct run_data *r)
{
	if (!any_stages(r))
		return;
	fprintf(f, "## Where the boot's time goes\n\nMedians (s) over each mode's ok boots, "
		"stage after stage from QEMU's start (kernel start is printk's 0; QEMU start is "
		"placed from console.log's last write on the host, to about a jiffy). The "
		"collector's start-up runs beside the stages unless /init waits for it "
		"(`bootprobe.collector=wait`, then it is inside \"/init → udevd launched\"). "
		"Empty: the boots did not print that mark.\n\n| stage |");
	md_mode_columns(f, r, (const char *const[]){ "", NULL }, "|---|");
	for (int k = 0; k < ST_COUNT; k++) {
		fprintf(f, "| %s |", stage_titles[k]);
		for (int i = 0; i < r->nr_modes; i++)
			md_phase_cell(f, &r->modes[i].stage_s[k]);
		fprintf(f, "\n");
	}
	fprintf(f, "\n");
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

static void md_devnode_row(FILE *f, const struct run_data *r, const struct devnode_stats *d)
{
	char *name = md_str(d->name), *drv = md_str(*d->driver ? d->driver : "?");

	fprintf(f, "| %s | %s | %s |", name, d->kind, drv);
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];
		const struct devnode_stats *e = mode__find_devnode(m, d);
		char med[32];

		if (!e) {
			fprintf(f, " absent in %d ok boots |", m->event_boots);
			continue;
		}
		fmt(med, sizeof(med), e->s.n ? e->s.median : NAN);
		fprintf(f, " %s (%d of %d boots%s)", med, e->boots, m->event_boots,
			e->ref && !strcmp(e->ref, "probe end") ? ", from probe end" : "");
		if (e->unit_sum.n) {
			fmt(med, sizeof(med), e->unit_sum.median);
			fprintf(f, "; systemd waited %s", med);
		}
		fprintf(f, " |");
	}
	fprintf(f, "\n");
	free(name);
	free(drv);
}

/* Disks no probe made (loop devices, ramdisks): named, not measured. */
static void md_driverless_devnodes(FILE *f, const struct run_data *r)
{
	const char *sep = "";
	int n = 0;

	for (int i = 0; i < r->nr_modes; i++)
		for (int k = 0; k < r->modes[i].nr_devnodes; k++) {
			const struct devnode_stats *d = &r->modes[i].devnodes[k];
			char *name;

			if (*d->driver || devnode_seen_before(r, i, d))
				continue;
			if (!n++)
				fprintf(f, "Left out, no driver's probe behind them: ");
			name = md_str(d->name);
			fprintf(f, "%s%s", sep, name);
			free(name);
			sep = ", ";
		}
	if (n)
		fprintf(f, ".\n\n");
}

/*
 * Disks and network interfaces: when each appeared after the modprobe that
 * brought its driver returned (what a script that runs modprobe and then
 * looks for the device waits for).
 */
static void md_readiness(FILE *f, const struct run_data *r)
{
	if (!any_devnodes(r))
		return;
	fprintf(f, "## Readiness of disks and network interfaces\n\nThe readiness gap: from the "
		"return of the module load that brought the driver of the device a disk or "
		"interface hangs off (or that device's probe end, where no module load is known) "
		"to the disk's or interface's registration (`device_add_disk()`, "
		"`register_netdevice()`); 0 when it registered first. Median (s), with the ok "
		"boots it appeared in; then, where `systemd-analyze blame` lists the device's "
		"unit (`dev-NAME.device`, `sys-subsystem-net-devices-NAME.device`), how long "
		"systemd waited for it (median s; only a device some unit needs, such as the "
		"root disk of /etc/fstab, has a job there): where boot units waited on a probe.\n\n| device | kind | made by the probe of |");
	md_mode_columns(f, r, (const char *const[]){ "", NULL }, "|---|---|---|");
	for (int i = 0; i < r->nr_modes; i++)
		for (int k = 0; k < r->modes[i].nr_devnodes; k++) {
			const struct devnode_stats *d = &r->modes[i].devnodes[k];

			if (*d->driver && !devnode_seen_before(r, i, d))
				md_devnode_row(f, r, d);
		}
	fprintf(f, "\n");
	md_driverless_devnodes(f, r);
}

/* drivers.csv: every driver of every non-baseline mode against the baseline. */
static int write_drivers_csv(struct run_data *r, const char *dir)
{
	struct mode_stats *base = run_data__baseline(r);
	struct out_file o;
	FILE *f = out_file__open(&o, dir, "drivers.csv");

	fprintf(f, "baseline,mode,driver,verdict,baseline_boots,mode_boots,baseline_median_s,"
		"mode_median_s,median_diff_s,diff_ci95_lo_s,diff_ci95_hi_s,pct,mann_whitney_p,"
		"p_holm,holm_family,mdd_s,boots_needed\n");
	for (int i = 0; base && i < r->nr_modes; i++) {
		struct driver_change *v;
		int n;

		if (&r->modes[i] == base)
			continue;
		v = driver_changes(base, &r->modes[i], &n);
		for (int k = 0; k < n; k++) {
			const struct comparison *c = &v[k].c;

			csv_field(f, base->name);
			fputc(',', f);
			csv_field(f, r->modes[i].name);
			fputc(',', f);
			csv_field(f, v[k].driver);
			fprintf(f, ",%s,%zu,%zu", driver_verdict__name(v[k].verdict),
				v[k].a ? v[k].a->nr_boot_s : 0, v[k].b ? v[k].b->nr_boot_s : 0);
			csv_num(f, v[k].a ? v[k].a->per_boot.median : NAN);
			csv_num(f, v[k].b ? v[k].b->per_boot.median : NAN);
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
			fputc('\n', f);
		}
		free(v);
	}
	return out_file__commit(&o, WHO);
}

static void md_efficiency(FILE *f, struct run_data *r)
{
	struct mode_stats *base = run_data__baseline(r);

	fprintf(f, "## Against the physical limit\n\n"
		"Probe phase divided by the longest single probe (1.0: perfectly parallel) and by "
		"the sum of all probes (1.0: perfectly serial).\n\n"
		"| mode | phase / longest probe (median) | phase / sum of probes (median) |\n|---|---|---|\n");
	for (int i = 0; i < r->nr_modes; i++)
		fprintf(f, "| %s | %.2f | %.2f |\n", md(r->modes[i].name),
			r->modes[i].eff_longest_s.median,
			r->modes[i].eff_sum_s.median);
	if (!base)
		return;
	fprintf(f, "\n## What if every probe were asynchronous?\n\n"
		"Predicted from the %s boots alone: each boot's probe phase replaced by its longest "
		"probe (the critical path when all probes run in parallel).\n\n"
		"| | boot time, median (s) | 95 %% CI |\n|---|---|---|\n"
		"| predicted from %s | %.3f | %.3f – %.3f |\n", md(base->name), md(base->name),
		base->whatif_s.median, base->whatif_s.ci_lo, base->whatif_s.ci_hi);
	for (int i = 0; i < r->nr_modes; i++)
		if (&r->modes[i] != base)
			fprintf(f, "| measured %s | %.3f | %.3f – %.3f |\n", md(r->modes[i].name),
				r->modes[i].s[M_BOOT].median, r->modes[i].s[M_BOOT].ci_lo,
				r->modes[i].s[M_BOOT].ci_hi);
	fprintf(f, "\n");
}

static void md_orders(FILE *f, struct run_data *r)
{
	fprintf(f, "## Probe order and device naming across boots\n\n");
	for (int i = 0; i < r->nr_modes; i++) {
		const struct mode_stats *m = &r->modes[i];

		fprintf(f, "- **%s**: %zu distinct probe order%s over %d ok boots; %zu distinct "
			"device→driver set%s\n", md(m->name), m->orders.n, m->orders.n == 1 ? "" : "s", m->ok,
			m->device_sets.n, m->device_sets.n == 1 ? "" : "s");
		for (size_t k = 0; k < m->orders.n && k < 5; k++) {
			fprintf(f, "  - %d boot%s: `", m->order_count[k],
				m->order_count[k] == 1 ? "" : "s");
			md_code(f, m->orders.v[k]);
			fprintf(f, "`\n");
		}
		for (size_t k = 0; m->device_sets.n > 1 && k < m->device_sets.n && k < 5; k++) {
			fprintf(f, "  - devices, %d boot%s: `", m->device_set_count[k],
				m->device_set_count[k] == 1 ? "" : "s");
			md_code(f, m->device_sets.v[k]);
			fprintf(f, "`\n");
		}
	}
	fprintf(f, "\n");
}

/* Boots where a SIGKILL could have gone unseen. */
static int kills_unknown(const struct run_data *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_modes; i++)
		n += r->modes[i].boots_kills_incomplete;
	return n;
}

static void md_kills(FILE *f, struct run_data *r)
{
	int n = 0, unknown;

	fprintf(f, "## Killed probes and drivers at risk\n\n");
	for (int i = 0; i < r->nr_boots; i++) {
		struct boot_data *b = r->boots[i];
		struct boot_metrics bm;
		char *text = NULL;
		size_t len = 0;
		FILE *m;

		boot__metrics(b, &bm);
		if (!bm.kills && !bm.other_signals && !bm.failed_probes && !bm.udev_kills)
			continue;
		if (n++ >= 10) {
			fprintf(f, "(further boots with kills: `bootprobe explain %s/boots/NAME`)\n\n", r->dir);
			break;
		}
		m = open_memstream(&text, &len);
		boot__explain(b, m);
		fclose(m);
		fprintf(f, "```\n");
		md_code_text(f, text, true);
		fprintf(f, "```\n\n");
		free(text);
	}
	unknown = kills_unknown(r);
	if (!n && !unknown)
		fprintf(f, "No SIGKILL hit a task loading a module or probing, and no probe failed.\n\n");
	else if (!n)
		fprintf(f, "No SIGKILL was seen hitting a task loading a module or probing, and no "
			"failed probe, but in %d boots the collector lost events or did not trace "
			"signals: kills there are unknown.\n\n", unknown);
}

/* Every boot whose collector lost events or ran without a program that counts. */
static void md_losses(FILE *f, struct run_data *r)
{
	int n = 0;

	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];
		struct boot_losses l;
		char *name;

		boot_data__losses(b, &l);
		if (!l.events && !l.kills && !l.probes && !l.kthreads)
			continue;
		if (!n++)
			fprintf(f, "## What the collector lost\n\nBoots whose counts are lower "
				"bounds: events dropped (BPF ring buffer, writer), a stream without its "
				"trailer, or a program that was not attached.\n\n| boot | BPF drops | "
				"writer drops | trailer | incomplete |\n|---|---|---|---|---|\n");
		name = md_str(b->name);
		fprintf(f, "| %s | %lld | %lld | %s | %s%s%s%s |\n", name, (long long)b->bpf_drops,
			(long long)b->events_dropped, b->has_trailer ? "yes" : "missing",
			l.kills ? "SIGKILLs " : "", l.probes ? "probes " : "",
			l.kthreads ? "kthread_create() " : "", l.events ? "(every count)" : "");
		free(name);
	}
	if (n)
		fprintf(f, "\n");
}

static void md_warnings(FILE *f, struct run_data *r)
{
	if (!r->warnings.n)
		return;
	fprintf(f, "## Input problems (kept what could be used)\n\n");
	for (size_t i = 0; i < r->warnings.n && i < 40; i++)
		fprintf(f, "- %s\n", md(r->warnings.v[i]));
	if (r->warnings.n > 40)
		fprintf(f, "- ... and %zu more\n", r->warnings.n - 40);
	fprintf(f, "\n");
}

/* What each mode was: its kernel arguments, as the manifest recorded them. */
static void md_settings(FILE *f, const struct run_data *r)
{
	if (!r->mode_names.n)
		return;
	fprintf(f, "## Modes\n\n");
	if (r->time_scale > 0 && r->time_scale != 1)
		fprintf(f, "Guest times are scaled by %g: probe times, udev timeouts and grace "
			"windows below are %g times what the scenario states.\n\n", r->time_scale,
			r->time_scale);
	fprintf(f, "| mode | kernel arguments of its first boot%s |\n|---|---|\n",
		r->baseline ? "; the baseline is marked" : "");
	for (size_t i = 0; i < r->mode_names.n; i++) {
		fprintf(f, "| %s%s | `", md(r->mode_names.v[i]),
			r->baseline && !strcmp(r->baseline, r->mode_names.v[i]) ? " (baseline)" : "");
		md_code(f, *r->mode_args.v[i] ? r->mode_args.v[i] : "(none)");
		fprintf(f, "` |\n");
	}
	fprintf(f, "\n");
}

/* The distinct hosts that ran the boots (boot.json's host), in first-seen order. */
static void run_hosts(const struct run_data *r, struct strv *hosts)
{
	for (int i = 0; i < r->nr_boots; i++)
		if (*r->boots[i]->host && !strv__contains(hosts, r->boots[i]->host))
			strv__push(hosts, r->boots[i]->host);
}

/*
 * Where the boots ran: a merged run (bootprobe merge) has boots of many
 * hosts, and a difference between hosts shows here before it hides in a
 * mode's spread.  Per host: boots of each mode and their median boot time.
 */
static void md_hosts(FILE *f, const struct run_data *r)
{
	struct strv hosts = { 0 };
	double *t = xcalloc(r->nr_boots ? r->nr_boots : 1, sizeof(*t));

	run_hosts(r, &hosts);
	if (hosts.n)
		fprintf(f, "## Hosts\n\n| host | mode | boots | median boot time (s) |\n"
			"|---|---|---|---|\n");
	for (size_t h = 0; h < hosts.n; h++) {
		for (int m = 0; m < r->nr_modes; m++) {
			size_t n = 0, nt = 0;
			char med[32];

			for (int i = 0; i < r->nr_boots; i++) {
				const struct boot_data *b = r->boots[i];
				double bt = boot_data__boot_time(b);

				if (strcmp(b->host, hosts.v[h]) || strcmp(b->mode, r->modes[m].name))
					continue;
				n++;
				if (!isnan(bt))
					t[nt++] = bt;
			}
			if (!n)
				continue;
			fmt(med, sizeof(med), nt ? stats_median(t, nt) : NAN);
			fprintf(f, "| %s | %s | %zu | %s |\n", md(hosts.v[h]), md(r->modes[m].name),
				n, med);
		}
	}
	if (hosts.n)
		fprintf(f, "\n");
	strv__free(&hosts);
	free(t);
}

/* Boots left out of every statistic, named early: every number is without them. */
static void md_damaged(FILE *f, const struct run_data *r)
{
	if (!r->nr_damaged)
		return;
	fprintf(f, "## Damaged boots, left out\n\n%d boot%s left out of every statistic in this report: "
		"%s boot.json could not be read or %s event stream had records that had to be "
		"refused (their counts cannot be trusted).\n\n| boot | mode | why |\n|---|---|---|\n",
		r->nr_damaged, r->nr_damaged == 1 ? " is" : "s are", r->nr_damaged == 1 ? "its" : "their",
		r->nr_damaged == 1 ? "its" : "their");
	for (int i = 0; i < r->nr_damaged; i++)
		fprintf(f, "| %s | %s | %s |\n", md(r->damaged[i].name), md(r->damaged[i].mode),
			md(r->damaged[i].why));
	fprintf(f, "\n");
}

/* How many boots ran at once, and whether that is known not to bias them. */
static void md_jobs(FILE *f, const struct run_data *r)
{
	if (!r->jobs)
		return;
	fprintf(f, "Boots ran **%d at once** (%s).", r->jobs,
		r->jobs_from ? md(r->jobs_from) : "source not recorded");
	if (r->jobs > 1)
		fprintf(f, " Whether parallel boots change what is measured is checked by "
			"`bench/jobs-bias.sh` (README, \"Parallel boots\").");
	fprintf(f, "\n\n");
}

/*
 * The answer first: the headline, each mode against the baseline, the
 * drivers that changed and the devices lost, the charts, what was killed;
 * then the detail, from the modes' kernel arguments on.
 */
static void write_md_body(FILE *f, struct run_data *r, bool charts)
{
	struct mode_stats *base = run_data__baseline(r);
	struct comparison *cmp = run_data__comparisons(r, base);

	fprintf(f, "# bootprobe report: %s\n\n", md(r->run_id));
	md_headline(f, r);
	fprintf(f, "%d boots in %d modes. **Boot time** is measured %s; the guest's "
		"own boot-complete mark and QEMU's wall time are shown next to it.%s\n\n",
		r->nr_boots, r->nr_modes, boot_time_sentence, any_phases(r) ? " On a boot that reaches "
		"systemd, systemd's own multi-user.target timestamp takes the place of udev's "
		"queue (udev runs under systemd there)." : "");
	md_jobs(f, r);
	if (r->until_end)
		fprintf(f, "The run booted in rounds until a condition held (`run --until-ci`): "
			"%s.\n\n", md(r->until_end));
	md_damaged(f, r);
	md_answer(f, r, base, cmp);
	md_drivers(f, r);
	if (charts) {
		fprintf(f, "## Charts\n\n");
		for (int i = 0; chart_names[i]; i++)
			fprintf(f, "### %s\n\n![%s](charts/%s.svg)\n\n", chart_titles[i], chart_names[i],
				chart_names[i]);
	}
	md_kills(f, r);
	fprintf(f, MD_DETAILS "\n\n");
	md_settings(f, r);
	md_hosts(f, r);
	md_modes(f, r);
	md_comparisons(f, r, base, cmp);
	md_stages(f, r);
	md_systemd(f, r);
	md_readiness(f, r);
	md_efficiency(f, r);
	md_orders(f, r);
	md_losses(f, r);
	md_warnings(f, r);
	free(cmp);
}

char *report__dir(const struct run_data *r, const struct report_opts *o)
{
	return o->out ? xstrdup(o->out) : xasprintf("%s/report", r->dir);
}

int report__write(struct run_data *r, const struct report_opts *o)
{
	char *dir = report__dir(r, o);
	char *md = NULL, *path;
	size_t len = 0;
	json_object *sum;
	FILE *f;
	int err = mkdir_p(dir);

	if (err) {
		fprintf(stderr, WHO ": %s: %s\n", dir, strerror(-err));
		free(dir);
		return -1;
	}
	/* Each output on its own: one that cannot be written does not stop the others. */
	if (o->charts && charts__write(r, dir))
		err = -1;
	f = open_memstream(&md, &len);
	write_md_body(f, r, o->charts);
	fclose(f);
	path = xasprintf("%s/report.md", dir);
	err |= write_file_or_say(path, md, len, WHO);
	free(path);
	err |= report_html__write(dir, md);
	err |= write_csv(r, dir);
	err |= write_drivers_csv(r, dir);
	sum = run_data__summary_json(r);
	path = xasprintf("%s/summary.json", dir);
	err |= jwrite(path, sum, WHO);
	free(path);
	json_object_put(sum);
	if (o->traces && report_traces__write(r, dir))
		err = -1;
	strv__free(&md_pool);
	free(md);
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
				"program in some boots (report.md: What the collector lost)\n");
			break;
		}
	if (r->nr_damaged) {
		fprintf(out, "left out, damaged: ");
		for (int i = 0; i < r->nr_damaged && i < 5; i++)
			fprintf(out, "%s%s", i ? ", " : "", r->damaged[i].name);
		fprintf(out, "%s (report.md: Damaged boots)\n", r->nr_damaged > 5 ? ", …" : "");
	}
	fprintf(out, "report: %s/report.html\n", dir);
	free(rows);
}

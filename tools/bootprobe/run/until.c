// SPDX-License-Identifier: GPL-2.0
/*
 * The --until-ci rule.  The runner plans the whole budget (boot i of every
 * mode, its name and its per-boot draws, as a fixed run of --max-boots
 * would); this file only holds back the next round until the rule has looked
 * at the last one, so a run that stops is a prefix of the fixed run.
 */
#define _GNU_SOURCE
#include "until.h"
#include "rundata.h"
#include "runner.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum until_end until__decide(const double *widths, int n, double target, long rounds,
			     long max_rounds)
{
	bool narrow = n > 0;

	for (int i = 0; i < n; i++)
		narrow &= isfinite(widths[i]) && widths[i] < target;
	if (narrow)
		return UNTIL_NARROW;
	return rounds >= max_rounds ? UNTIL_BUDGET : UNTIL_GO_ON;
}

void until__widths(const double *const *x, const size_t *nx, int nr_modes, int base,
		   double *widths, int *n)
{
	*n = 0;
	for (int i = 0; i < nr_modes; i++) {
		struct comparison c;

		if (i == base)
			continue;
		compare_samples(x[base], nx[base], x[i], nx[i], &c);
		widths[(*n)++] = c.diff_hi - c.diff_lo;
	}
}

void until__init(struct until *u, const struct run *run)
{
	const struct run_opts *o = run->opts;

	memset(u, 0, sizeof(*u));
	u->on = o->until_ci_s > 0;
	u->allowed = u->on ? o->until_min : o->boots;
	u->widest = NAN;
}

bool until__may_start(const struct until *u, int index)
{
	return !u->on || (u->end == UNTIL_GO_ON && index <= u->allowed);
}

/* Rounds whose every boot finished, from the first. */
static long rounds_finished(const struct run *run)
{
	long done = 0;

	for (long r = 1; r <= run->opts->boots; r++) {
		for (int i = 0; i < run->nr_boots; i++)
			if (run->boots[i].index == r && !run->boots[i].finished)
				return done;
		done = r;
	}
	return done;
}

/*
 * The widths of the finished boots, read back from the results folder as
 * `report` reads them; one progress line; the widest kept in @u.  -1 when the
 * folder cannot be read.
 */
static int until__measure(struct until *u, const struct run *run, long round, double *widths,
			  int *n)
{
	char err[256];
	struct run_data *r = run_data__load(run->dir, err, sizeof(err));
	const double **x;
	size_t *nx;
	int base;

	if (!r) {
		fprintf(stderr, "bootprobe: --until-ci: round %ld: %s\n", round, err);
		return -1;
	}
	run_data__analyze(r);
	base = (int)(run_data__baseline(r) - r->modes);
	x = xcalloc(r->nr_modes + 1, sizeof(*x));
	nx = xcalloc(r->nr_modes + 1, sizeof(*nx));
	for (int i = 0; i < r->nr_modes; i++) {
		x[i] = r->modes[i].values[M_BOOT];
		nx[i] = r->modes[i].n[M_BOOT];
	}
	until__widths(x, nx, r->nr_modes, base, widths, n);
	snprintf(u->base, sizeof(u->base), "%s", r->modes[base].name);
	if (!run->opts->quiet)
		fprintf(stderr, "%sbootprobe: round %ld: 95 %% CI width of the boot-time difference "
			"from %s (target < %g s):", isatty(STDERR_FILENO) ? "\r\033[K" : "", round,
			u->base, run->opts->until_ci_s);
	for (int i = 0, k = 0; i < r->nr_modes; i++) {
		double w;

		if (i == base)
			continue;
		w = widths[k++];
		if (!run->opts->quiet)
			fprintf(stderr, " %s %.3f s%s", r->modes[i].name, w,
				k < *n ? "," : "\n");
		/* the widest; a NaN (no ok boot on a side) is the widest of all */
		if (k == 1 || isnan(w) || (!isnan(u->widest) && w > u->widest)) {
			u->widest = w;
			snprintf(u->widest_mode, sizeof(u->widest_mode), "%s", r->modes[i].name);
		}
	}
	free(nx);
	free(x);
	run_data__free(r);
	return 0;
}

bool until__step(struct until *u, struct run *run)
{
	double widths[MAX_MODES + 1];
	long done;
	int n;

	if (!u->on || u->end != UNTIL_GO_ON || run->interrupted)
		return u->on && u->end != UNTIL_GO_ON;
	done = rounds_finished(run);
	if (done < u->allowed || done == u->checked)
		return false;
	u->checked = done;
	if (until__measure(u, run, done, widths, &n))
		n = 0;	/* nothing read: never narrow, the budget still ends it */
	u->end = until__decide(widths, n, run->opts->until_ci_s, done, run->opts->boots);
	u->rounds = done;
	if (u->end == UNTIL_GO_ON)
		u->allowed = done + 1;
	return u->end != UNTIL_GO_ON;
}

void until__describe(const struct until *u, const struct run *run, char *buf, size_t len)
{
	const struct run_opts *o = run->opts;
	char widest[96];

	if (isnan(u->widest))
		snprintf(widest, sizeof(widest), "%s has no ok boot on a side", u->widest_mode);
	else
		snprintf(widest, sizeof(widest), "widest: %s, %.3f s", u->widest_mode, u->widest);
	if (u->end == UNTIL_NARROW)
		snprintf(buf, len, "every mode's 95 %% CI of its boot-time difference from %s is "
			 "narrower than %g s after %ld rounds (%s)", u->base, o->until_ci_s,
			 u->rounds, widest);
	else if (u->end == UNTIL_BUDGET)
		snprintf(buf, len, "the budget of %ld boots per mode is spent, and not every 95 %% "
			 "CI of a boot-time difference from %s is narrower than %g s (%s)", o->boots,
			 u->base, o->until_ci_s, widest);
	else
		snprintf(buf, len, "stopped after %ld rounds, before the rule ended it", u->checked);
}

// SPDX-License-Identifier: GPL-2.0
/* One mode against another: the difference of medians, its CI, Mann-Whitney, Holm, MDD. */
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

void compare_samples(const double *a, size_t na, const double *b, size_t nb,
		     struct comparison *c)
{
	memset(c, 0, sizeof(*c));
	c->na = na;
	c->nb = nb;
	c->median_a = stats_median(a, na);
	c->median_b = stats_median(b, nb);
	c->diff = c->median_b - c->median_a;
	c->pct = c->median_a ? c->diff / c->median_a * 100 : NAN;
	stats_median_diff_ci(a, na, b, nb, &c->diff_lo, &c->diff_hi);
	stats_mann_whitney(b, nb, a, na, &c->mw);
	c->sd = stats_pooled_robust_sd(a, na, b, nb);
	c->p_holm = c->mw.p;
	c->family = 1;
	c->alpha = CMP_ALPHA;
	comparison__power(c);
}

void comparison__power(struct comparison *c)
{
	c->mdd = stats_mdd(c->sd, c->na, c->nb, c->alpha, CMP_POWER);
	c->n_needed = stats_n_needed(c->sd, fabs(c->diff), c->alpha, CMP_POWER);
}

void comparisons__holm(struct comparison *const *c, int n)
{
	double *p = xcalloc(n + 1, sizeof(*p));
	int k = 0;

	for (int i = 0; i < n; i++) {
		p[i] = c[i]->mw.p;
		k += !isnan(p[i]);
	}
	stats_holm(p, n, p);
	for (int i = 0; i < n; i++) {
		c[i]->p_holm = p[i];
		c[i]->family = k;
		c[i]->alpha = CMP_ALPHA / (k ? k : 1);
		comparison__power(c[i]);
	}
	free(p);
}

static bool ci_excludes_0(const struct comparison *c)
{
	return isfinite(c->diff_lo) && isfinite(c->diff_hi) && (c->diff_lo > 0 || c->diff_hi < 0);
}

bool comparison__significant(const struct comparison *c)
{
	return ci_excludes_0(c) && c->p_holm < CMP_ALPHA;
}

bool comparison__suggestive(const struct comparison *c)
{
	return ci_excludes_0(c) && !(c->p_holm < CMP_ALPHA);
}

const char comparisons_note[] =
	"p: two-sided Mann-Whitney; p_holm: Holm-adjusted over the modes compared with the "
	"baseline on the same metric (holm_family comparisons); significant: the 95 % CI of "
	"the difference of medians excludes 0 and p_holm < 0.05; mdd: the shift a "
	"Mann-Whitney test at mdd_alpha (0.05 / holm_family) finds with power 0.8 at these "
	"sample sizes, by the normal approximation from the pooled robust SD (IQR / 1.349) "
	"and Mann-Whitney's efficiency 3/pi, null (no shift) when no arrangement of these "
	"boots reaches mdd_alpha; boots_needed: boots per mode to detect the observed "
	"difference that way";

const enum metric cmp_metrics[NR_CMP] = { M_BOOT, M_PHASE, M_GAP };

struct comparison *run_data__comparisons(struct run_data *r, const struct mode_stats *base)
{
	struct comparison *c, **fam;

	if (!base || r->nr_modes < 2)
		return NULL;
	c = xcalloc((size_t)r->nr_modes * NR_CMP, sizeof(*c));
	fam = xcalloc(r->nr_modes, sizeof(*fam));
	for (int k = 0; k < NR_CMP; k++) {
		int n = 0;

		for (int i = 0; i < r->nr_modes; i++) {
			if (&r->modes[i] == base)
				continue;
			compare_metric(base, &r->modes[i], cmp_metrics[k], &c[i * NR_CMP + k]);
			fam[n++] = &c[i * NR_CMP + k];
		}
		comparisons__holm(fam, n);
	}
	free(fam);
	return c;
}

void compare_metric(const struct mode_stats *a, const struct mode_stats *b, enum metric k,
		    struct comparison *c)
{
	compare_samples(a->values[k], a->n[k], b->values[k], b->n[k], c);
}

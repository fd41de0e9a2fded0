/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics for repeated boots: robust summaries, bootstrap, Mann-Whitney. */
#ifndef BOOTPROBE_STATS_H
#define BOOTPROBE_STATS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

/* Bootstrap resamples; the generator is seeded so reports are reproducible. */
#define STATS_BOOTSTRAP_B 2000
#define STATS_SEED 0x626f6f7470726f62ull /* "bootprob" */

struct summary {
	size_t n;
	double median, q1, q3, iqr, min, max, mean;
	double ci_lo, ci_hi;	/* 95 % bootstrap CI of the median */
};

/*
 * Quantile @p in [0, 1] of sorted @x by linear interpolation between order
 * statistics (Hyndman & Fan type 7: R's default, numpy's "linear").
 */
double stats_quantile_sorted(const double *x, size_t n, double p);
double stats_median(const double *x, size_t n);
/* The same median by selection; reorders @a (the bootstrap's hot path). */
double stats_median_select(double *a, size_t n);

/* Everything in struct summary; n == 0 gives NaNs. */
void stats_summarize(const double *x, size_t n, struct summary *s);

/*
 * 95 % percentile-bootstrap CI of median(b) - median(a); NaNs unless each
 * side has 2 values (one value resamples to itself: the interval would
 * show none of that side's spread, and a point for one boot a side).
 */
void stats_median_diff_ci(const double *a, size_t na, const double *b, size_t nb,
			  double *lo, double *hi);

struct mann_whitney {
	double u;		/* U of sample a: pairs (a_i, b_j) with a_i > b_j, ties 1/2 */
	double z;		/* normal approximation, tie-corrected, continuity-corrected */
	double p;		/* two-sided */
	int exact;		/* p from the exact distribution (no ties, small n) */
};

void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct mann_whitney *r);

/*
 * Holm's step-down adjustment of the @n p values of one family of
 * comparisons into @adj (may be @p): sorted ascending, the i-th (0-based) is
 * multiplied by (k - i), made monotone by a running maximum and capped at 1.
 * A NaN p (a comparison that could not be made) stays NaN and is not counted
 * in k.
 */
void stats_holm(const double *p, size_t n, double *adj);

/* The standard normal quantile: z with P(Z <= z) = @p, 0 < p < 1 (else NaN). */
double stats_norm_quantile(double p);

/* IQR / 1.349: the SD of a normal sample, read from its quartiles (type 7). */
double stats_robust_sd(const double *x, size_t n);
/* The two samples' robust SDs pooled with weights n - 1; NaN if na + nb < 3. */
double stats_pooled_robust_sd(const double *a, size_t na, const double *b, size_t nb);

/* Asymptotic relative efficiency of Mann-Whitney against the t test, normal data. */
#define STATS_MW_ARE (3.0 / M_PI)

/*
 * Minimum detectable difference: the shift a two-sided Mann-Whitney test at
 * level @alpha finds with probability @power, for samples of @na and @nb
 * with SD @sd, by the normal approximation
 *   (z[1 - alpha/2] + z[power]) * sd * sqrt(1/na + 1/nb) / sqrt(STATS_MW_ARE).
 * INFINITY when no arrangement of na and nb boots reaches p < @alpha
 * (stats_mw_min_p()), NaN when a side is empty or @sd is not known.
 */
double stats_mdd(double sd, size_t na, size_t nb, double alpha, double power);
/*
 * Boots per side (equal sides) to detect a shift of @d the same way: the
 * normal approximation's n, and at least stats_mw_min_n(@alpha); 0 when @d or
 * @sd is not usable.
 */
size_t stats_n_needed(double sd, double d, double alpha, double power);
/* The smallest two-sided exact Mann-Whitney p of @na vs @nb boots: 2 / C(na + nb, na). */
double stats_mw_min_p(size_t na, size_t nb);
/* The smallest n per side (equal sides) whose stats_mw_min_p() is below @alpha. */
size_t stats_mw_min_n(double alpha);

#endif

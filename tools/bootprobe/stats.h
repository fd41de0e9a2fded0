/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics for repeated boots: robust summaries, bootstrap, Mann-Whitney. */
#ifndef BOOTPROBE_STATS_H
#define BOOTPROBE_STATS_H

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

/* 95 % percentile-bootstrap CI of median(b) - median(a). */
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

/* A small reproducible generator (splitmix64). */
uint64_t stats_rand(uint64_t *state);

#endif

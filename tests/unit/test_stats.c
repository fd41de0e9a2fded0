// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics against values worked out independently; each expected number
 * says where it comes from.
 */
#include "check.h"
#include "rng.h"
#include "stats.h"

#include <math.h>

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

/* splitmix64's published first outputs from seed 0: every host draws the same. */
static void rng(void)
{
	uint64_t state = 0, mixed = rng__mix(12345);

	CHECK(rng__next(&state) == 0xe220a8397b1dcdafull &&
	      rng__next(&state) == 0x6e789e6aa1b965f4ull &&
	      rng__next(&state) == 0x06c45d188009454full,
	      "the generator is splitmix64: its first three draws from seed 0");
	state = 12345;
	CHECK(rng__next(&state) == mixed, "a sequence's draw is the mix of its state");
}

static void quantiles(void)
{
	double x4[] = { 4, 1, 3, 2 }, x3[] = { 7, 1, 3 };
	struct summary s;

	/* Type 7 on 1,2,3,4: h = 3p; q1 = 1 + 0.75 * (2 - 1) = 1.75 (numpy.percentile agrees). */
	stats_summarize(x4, 4, &s);
	CHECK(NEAR(s.median, 2.5, 1e-12) && NEAR(s.q1, 1.75, 1e-12) && NEAR(s.q3, 3.25, 1e-12),
	      "median 2.5, quartiles 1.75 and 3.25 of 1..4 (type-7 quantiles, worked by hand)");
	CHECK(NEAR(s.iqr, 1.5, 1e-12) && s.min == 1 && s.max == 4 && NEAR(s.mean, 2.5, 1e-12),
	      "IQR, min, max and mean of 1..4");
	CHECK(stats_median(x3, 3) == 3, "the median of an odd sample is its middle value");
	CHECK(s.ci_lo <= s.median && s.median <= s.ci_hi && s.ci_lo >= 1 && s.ci_hi <= 4,
	      "the bootstrap CI of the median brackets it within the data's range");
	stats_summarize(x3, 0, &s);
	CHECK(s.n == 0 && isnan(s.median), "an empty sample summarises to NaN, not a crash");
}

static void bootstrap(void)
{
	double flat[] = { 5, 5, 5, 5, 5 }, wide[40], lo, hi;
	struct summary s1, s2;

	stats_summarize(flat, 5, &s1);
	CHECK(s1.ci_lo == 5 && s1.ci_hi == 5, "a constant sample has a zero-width CI");
	for (int i = 0; i < 40; i++)
		wide[i] = i % 10;
	stats_summarize(wide, 10, &s1);
	stats_summarize(wide, 40, &s2);
	CHECK(s2.ci_hi - s2.ci_lo <= s1.ci_hi - s1.ci_lo,
	      "four times the boots give a CI no wider (%.2f vs %.2f)",
	      s2.ci_hi - s2.ci_lo, s1.ci_hi - s1.ci_lo);
	stats_summarize(wide, 40, &s1);
	CHECK(s1.ci_lo == s2.ci_lo && s1.ci_hi == s2.ci_hi, "the seeded bootstrap is reproducible");
	{
		double a[] = { 10, 11, 12, 13, 14 }, b[] = { 5, 6, 7, 8, 9 };

		stats_median_diff_ci(a, 5, b, 5, &lo, &hi);
		/* medians 12 and 7: the difference is -5; resamples stay within -9..-1 */
		CHECK(lo <= -5 && -5 <= hi && lo >= -9 && hi <= -1,
		      "the CI of median(b) - median(a) brackets -5 (got %.1f..%.1f)", lo, hi);
	}
}

static void mann_whitney(void)
{
	double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };
	double at[] = { 1, 2, 2 }, bt[] = { 2, 3, 4 };
	struct mann_whitney r;

	/* Full separation, 3 vs 3: U = 0, exact two-sided p = 2 / C(6,3) = 0.1. */
	stats_mann_whitney(a3, 3, b3, 3, &r);
	CHECK(r.u == 0 && r.exact && NEAR(r.p, 0.1, 1e-12), "3 vs 3 separated: U 0, exact p 0.1");
	/* 5 vs 5: p = 2 / C(10,5) = 2 / 252. */
	stats_mann_whitney(a5, 5, b5, 5, &r);
	CHECK(NEAR(r.p, 2.0 / 252, 1e-12), "5 vs 5 separated: exact p 2/252 = 0.00794");
	stats_mann_whitney(b5, 5, a5, 5, &r);
	CHECK(r.u == 25 && NEAR(r.p, 2.0 / 252, 1e-12), "swapping the samples gives U = na*nb and the same p");
	/*
	 * With ties (1,2,2 vs 2,3,4): U = 2 * 0.5 = 1; tie-corrected variance
	 * 9/12 * (7 - 24/30) = 4.65; z = (3.5 - 0.5) / sqrt(4.65) = 1.39122;
	 * p = erfc(z / sqrt 2) = 0.164160 (computed with Python's math.erfc).
	 */
	stats_mann_whitney(at, 3, bt, 3, &r);
	CHECK(r.u == 1 && !r.exact && NEAR(fabs(r.z), 1.3912167, 1e-6) && NEAR(r.p, 0.1641597, 1e-6),
	      "with ties: U 1, |z| 1.39122, p 0.16416 by the normal approximation");
	stats_mann_whitney(a3, 3, a3, 3, &r);
	CHECK(NEAR(r.p, 1.0, 1e-12), "identical samples: p = 1");
	stats_mann_whitney(a3, 0, b3, 3, &r);
	CHECK(isnan(r.p), "an empty sample gives NaN, not a crash");
}

/* The bootstrap's selection median must equal the sorted one, ties included. */
static void selection_median(void)
{
	double x[101];
	uint64_t rng = 42;
	int bad = 0;

	for (int round = 0; round < 500; round++) {
		size_t n = 1 + rng__next(&rng) % 100;
		double sorted_median;

		for (size_t i = 0; i < n; i++)
			x[i] = (double)(rng__next(&rng) % 7);	/* many ties */
		sorted_median = stats_median(x, n);
		if (stats_median_select(x, n) != sorted_median)
			bad++;
	}
	CHECK(bad == 0, "the selection median equals the sorted median on 500 random samples (%d differ)", bad);
	{
		double even[] = { 3, 1, 4, 1, 5, 9 }, lo, hi;

		/*
		 * One element a side resamples to itself: a point, which the
		 * report once read as "the CI excludes 0" beside p = 1.  No
		 * interval then, nor with one element on either side.
		 */
		stats_median_diff_ci(even, 1, even + 5, 1, &lo, &hi);
		CHECK(isnan(lo) && isnan(hi), "one element a side: no CI (got %g..%g)", lo, hi);
		stats_median_diff_ci(even, 1, even + 2, 4, &lo, &hi);
		CHECK(isnan(lo) && isnan(hi), "one element on a side: no CI (got %g..%g)", lo, hi);
		/* two a side: every resample's median lies within the samples' range */
		stats_median_diff_ci(even, 2, even + 4, 2, &lo, &hi);
		CHECK(isfinite(lo) && isfinite(hi) && lo >= 5 - 3 && hi <= 9 - 1 && lo <= hi,
		      "two a side: a CI within the samples' differences (got %g..%g)", lo, hi);
	}
}

/*
 * Holm's adjustment against results worked by hand (and what R's
 * p.adjust(p, "holm") prints for the same vectors).
 */
static void holm(void)
{
	double p1[] = { 0.01, 0.04, 0.03, 0.005 }, a1[4];
	double p2[] = { 0.01, 0.02, 0.03, 0.04, 0.05 }, a2[5];
	double p3[] = { 0.02, 0.5, 0.02 }, a3[3];
	double p4[] = { 0.01, NAN, 0.04 }, a4[3];
	double p5[40], a5[40];
	uint64_t rng = 7;
	int bad = 0;

	/* sorted 0.005 0.01 0.03 0.04: x4 0.02, x3 0.03, x2 0.06, x1 0.04 -> max 0.06 */
	stats_holm(p1, 4, a1);
	CHECK(NEAR(a1[0], 0.03, 1e-12) && NEAR(a1[1], 0.06, 1e-12) && NEAR(a1[2], 0.06, 1e-12) &&
	      NEAR(a1[3], 0.02, 1e-12), "Holm of 0.01 0.04 0.03 0.005: 0.03 0.06 0.06 0.02");
	/* x5 0.05, x4 0.08, x3 0.09, x2 0.08 -> 0.09, x1 0.05 -> 0.09 */
	stats_holm(p2, 5, a2);
	CHECK(NEAR(a2[0], 0.05, 1e-12) && NEAR(a2[1], 0.08, 1e-12) && NEAR(a2[2], 0.09, 1e-12) &&
	      NEAR(a2[3], 0.09, 1e-12) && NEAR(a2[4], 0.09, 1e-12),
	      "Holm of 0.01..0.05: 0.05 0.08 0.09 0.09 0.09 (the running maximum)");
	/* ties: 0.02 x3 = 0.06 and 0.02 x2 = 0.04 -> 0.06 for both */
	stats_holm(p3, 3, a3);
	CHECK(NEAR(a3[0], 0.06, 1e-12) && NEAR(a3[2], 0.06, 1e-12) && NEAR(a3[1], 0.5, 1e-12),
	      "tied p values get the same adjusted p (0.06), the largest keeps 0.5");
	stats_holm(p4, 3, a4);
	CHECK(NEAR(a4[0], 0.02, 1e-12) && isnan(a4[1]) && NEAR(a4[2], 0.04, 1e-12),
	      "a NaN p stays NaN and is not counted: a family of 2");
	stats_holm(p2, 1, a2);
	CHECK(a2[0] == 0.01, "a family of one is not adjusted");
	stats_holm(p2, 0, a2);
	for (int i = 0; i < 40; i++)
		p5[i] = (double)(rng__next(&rng) % 1000) / 999;	/* ties and 1.0 among them */
	stats_holm(p5, 40, a5);
	for (int i = 0; i < 40; i++)
		for (int j = 0; j < 40; j++)
			bad += a5[i] < p5[i] || a5[i] > 1 || (p5[i] < p5[j] && a5[i] > a5[j]) ||
			       (p5[i] == p5[j] && a5[i] != a5[j]);
	CHECK(!bad, "40 random p: adjusted >= raw, <= 1, in the raw order, ties equal (%d bad)", bad);
}

/* A normal sample from the seeded generator (Box-Muller). */
static double normal(uint64_t *rng)
{
	double u1 = ((double)(rng__next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = ((double)(rng__next(rng) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
}

/*
 * Power: each expected value computed independently, with Python's
 * statistics.NormalDist().inv_cdf and math.comb, and the formula by hand.
 */
static void power(void)
{
	double x5[] = { 5, 1, 4, 2, 3 }, x3[] = { 1, 3, 2 }, mdd;
	uint64_t rng = 11;
	int hits = 0;

	CHECK(NEAR(stats_norm_quantile(0.975), 1.9599639845400536, 1e-12) &&
	      NEAR(stats_norm_quantile(0.8), 0.8416212335729144, 1e-12) &&
	      NEAR(stats_norm_quantile(0.5), 0, 1e-12) && isnan(stats_norm_quantile(1)),
	      "normal quantiles: 1.959964 at 0.975, 0.841621 at 0.8 (Python's NormalDist)");
	/* type-7 quartiles of 1..5 are 2 and 4: IQR 2; of 1..3, 1.5 and 2.5: IQR 1 */
	CHECK(NEAR(stats_robust_sd(x5, 5), 2 / 1.349, 1e-12), "robust SD of 1..5: IQR 2 / 1.349");
	CHECK(NEAR(stats_pooled_robust_sd(x5, 5, x3, 3), 1.2839516735128815, 1e-12),
	      "pooled robust SD of 1..5 and 1..3: sqrt((4 * 1.4826^2 + 2 * 0.7413^2) / 6) = 1.28395");
	/* (1.959964 + 0.841621) * sqrt(2/10) / sqrt(3/pi) = 1.282133 */
	CHECK(NEAR(stats_mdd(1, 10, 10, 0.05, 0.8), 1.2821331941297647, 1e-9),
	      "MDD, SD 1, 10 vs 10, alpha 0.05, power 0.8: 1.28213");
	CHECK(NEAR(stats_mdd(0.5, 4, 4, 0.05, 0.8), 1.0136152892892207, 1e-9),
	      "MDD, SD 0.5, 4 vs 4: 1.01362");
	CHECK(isnan(stats_mdd(0.5, 0, 3, 0.05, 0.8)), "no boots on a side: no MDD (NaN)");
	CHECK(isinf(stats_mdd(0.5, 3, 3, 0.05, 0.8)),
	      "3 vs 3 boots: no difference is detectable at 0.05 (the exact p is 0.1 at best)");
	CHECK(NEAR(stats_mw_min_p(3, 3), 0.1, 1e-12) && NEAR(stats_mw_min_p(4, 4), 2.0 / 70, 1e-12) &&
	      NEAR(stats_mw_min_p(6, 6), 2.0 / 924, 1e-12) && NEAR(stats_mw_min_p(2, 5), 2.0 / 21, 1e-12),
	      "smallest exact p: 2 / C(na + nb, na): 0.1, 2/70, 2/924, 2/21");
	CHECK(stats_mw_min_n(0.05) == 4 && stats_mw_min_n(0.025) == 5 && stats_mw_min_n(0.05 / 9) == 6,
	      "smallest n per side: 4 at 0.05, 5 after Holm over 2 (0.025), 6 over 9 (0.0056)");
	/* 2 * 2.801585^2 / (3/pi) = 16.44 -> 17 */
	CHECK(stats_n_needed(1, 1, 0.05, 0.8) == 17, "boots per side to detect 1 SD: 17");
	/* 2 * (z(1 - 0.05/18) + z(0.8))^2 * 0.3^2 / (3/pi) / 0.5^2 = 9.85 -> 10 */
	CHECK(stats_n_needed(0.3, 0.5, 0.05 / 9, 0.8) == 10, "SD 0.3, shift 0.5, alpha 0.05/9: 10");
	CHECK(stats_n_needed(0.01, 5, 0.05, 0.8) == 4 && stats_n_needed(0, 1, 0.05 / 9, 0.8) == 6,
	      "a tiny spread still needs the boots the exact test needs (4, and 6 over 9)");
	CHECK(stats_n_needed(1, 0, 0.05, 0.8) == 0 && stats_n_needed(NAN, 1, 0.05, 0.8) == 0,
	      "no shift or no spread: no count (0)");
	/* The approximation checked by simulation: 35 vs 35 normal boots, shifted by the MDD. */
	mdd = stats_mdd(1, 35, 35, 0.05, 0.8);
	for (int rep = 0; rep < 2000; rep++) {
		double a[35], b[35];
		struct mann_whitney r;

		for (int i = 0; i < 35; i++) {
			a[i] = normal(&rng);
			b[i] = normal(&rng) + mdd;
		}
		stats_mann_whitney(a, 35, b, 35, &r);
		hits += r.p < 0.05;
	}
	CHECK(hits >= 1500 && hits <= 1700,
	      "simulated: a shift of the MDD is found in about 80 %% of 2000 runs of 35 vs 35 (%d)",
	      hits);
}

int main(void)
{
	rng();
	holm();
	power();
	selection_median();
	quantiles();
	bootstrap();
	mann_whitney();
	CHECK_DONE();
}

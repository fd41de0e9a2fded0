// SPDX-License-Identifier: GPL-2.0
/*
 * Statistics against values worked out independently; each expected number
 * says where it comes from.
 */
#include "check.h"
#include "stats.h"

#include <math.h>

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

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
		size_t n = 1 + stats_rand(&rng) % 100;
		double sorted_median;

		for (size_t i = 0; i < n; i++)
			x[i] = (double)(stats_rand(&rng) % 7);	/* many ties */
		sorted_median = stats_median(x, n);
		if (stats_median_select(x, n) != sorted_median)
			bad++;
	}
	CHECK(bad == 0, "the selection median equals the sorted median on 500 random samples (%d differ)", bad);
	{
		double even[] = { 3, 1, 4, 1, 5, 9 }, lo, hi;

		/* one element per sample: the resample is that element, the CI is exact */
		stats_median_diff_ci(even, 1, even + 5, 1, &lo, &hi);
		CHECK(lo == 6 && hi == 6, "a one-element resample gives its element (9 - 3 = 6)");
	}
}

int main(void)
{
	selection_median();
	quantiles();
	bootstrap();
	mann_whitney();
	CHECK_DONE();
}

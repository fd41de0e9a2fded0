// SPDX-License-Identifier: GPL-2.0
#include "rng.h"
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double *sorted_copy(const double *x, size_t n)
{
	double *c = xmalloc(n * sizeof(*c));

	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	return c;
}

double stats_quantile_sorted(const double *x, size_t n, double p)
{
	double h, lo;
	size_t i;

	if (!n)
		return NAN;
	h = (n - 1) * p;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (h - lo) * (x[i + 1] - x[i]);
}

double stats_median(const double *x, size_t n)
{
	double *c, m;

	if (!n)
		return NAN;
	c = sorted_copy(x, n);
	m = stats_quantile_sorted(c, n, 0.5);
	free(c);
	return m;
}

/* Put the k-th smallest of @a at a[k] (quickselect); a[] is reordered. */
static double select_kth(double *a, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;

	while (lo < hi) {
		double pivot = a[lo + (hi - lo) / 2], t;
		size_t i = lo, j = hi;

		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				t = a[i];
				a[i] = a[j];
				a[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return a[k];
}

/*
 * Median of a resample (with replacement) of @x into @buf: the same type-7
 * value as stats_quantile_sorted(sorted, n, 0.5), by selection instead of a
 * sort (the bootstrap's hot path).
 */
double stats_median_select(double *a, size_t n)
{
	size_t k = (n - 1) / 2;
	double lo, hi;

	if (!n)
		return NAN;
	lo = select_kth(a, n, k);
	if (n % 2)
		return lo;
	/* even n: the smallest value above position k is the next order statistic */
	hi = a[k + 1];
	for (size_t i = k + 2; i < n; i++)
		if (a[i] < hi)
			hi = a[i];
	return (lo + hi) / 2;
}

static double resample_median(const double *x, size_t n, double *buf, uint64_t *rng)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = x[rng__next(rng) % n];
	return stats_median_select(buf, n);
}

static void percentile_ci(double *stat, size_t b, double *lo, double *hi)
{
	qsort(stat, b, sizeof(*stat), cmp_double);
	*lo = stats_quantile_sorted(stat, b, 0.025);
	*hi = stats_quantile_sorted(stat, b, 0.975);
}

void stats_summarize(const double *x, size_t n, struct summary *s)
{
	uint64_t rng = STATS_SEED;
	double *c, *buf, *stat, sum = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n) {
		s->median = s->q1 = s->q3 = s->iqr = s->min = s->max = s->mean = NAN;
		s->ci_lo = s->ci_hi = NAN;
		return;
	}
	c = sorted_copy(x, n);
	for (size_t i = 0; i < n; i++)
		sum += c[i];
	s->mean = sum / n;
	s->min = c[0];
	s->max = c[n - 1];
	s->median = stats_quantile_sorted(c, n, 0.5);
	s->q1 = stats_quantile_sorted(c, n, 0.25);
	s->q3 = stats_quantile_sorted(c, n, 0.75);
	s->iqr = s->q3 - s->q1;
	buf = xmalloc(n * sizeof(*buf));
	stat = xmalloc(STATS_BOOTSTRAP_B * sizeof(*stat));
	for (size_t i = 0; i < STATS_BOOTSTRAP_B; i++)
		stat[i] = resample_median(c, n, buf, &rng);
	percentile_ci(stat, STATS_BOOTSTRAP_B, &s->ci_lo, &s->ci_hi);
	free(stat);
	free(buf);
	free(c);
}

void stats_median_diff_ci(const double *a, size_t na, const double *b, size_t nb,
			  double *lo, double *hi)
{
	uint64_t rng = STATS_SEED;
	double *bufa, *bufb, *stat;

	if (na < 2 || nb < 2) {
		*lo = *hi = NAN;
		return;
	}
	bufa = xmalloc(na * sizeof(*bufa));
	bufb = xmalloc(nb * sizeof(*bufb));
	stat = xmalloc(STATS_BOOTSTRAP_B * sizeof(*stat));
	for (size_t i = 0; i < STATS_BOOTSTRAP_B; i++)
		stat[i] = resample_median(b, nb, bufb, &rng) - resample_median(a, na, bufa, &rng);
	percentile_ci(stat, STATS_BOOTSTRAP_B, lo, hi);
	free(stat);
	free(bufb);
	free(bufa);
}

/*
 * Exact two-sided p of U for samples without ties: count, by dynamic
 * programming, the arrangements of na a's and nb b's by their U.
 */
static double mw_exact_p(double u, size_t na, size_t nb)
{
	size_t umax = na * nb;
	double *cnt, total = 0, tail = 0, mean = umax / 2.0, dev = fabs(u - mean);
	/* f[i][j][u]: arrangements of i a's and j b's with statistic u */
	size_t stride = umax + 1;
	double *f = xcalloc((na + 1) * (nb + 1) * stride, sizeof(*f));

#define F(i, j, k) f[((i) * (nb + 1) + (j)) * stride + (k)]
	for (size_t j = 0; j <= nb; j++)
		F(0, j, 0) = 1;
	for (size_t i = 1; i <= na; i++) {
		F(i, 0, 0) = 1;
		for (size_t j = 1; j <= nb; j++)
			for (size_t k = 0; k <= i * j; k++)
				/* largest is an a (beats j b's) or a b */
				F(i, j, k) = (k >= j ? F(i - 1, j, k - j) : 0) + F(i, j - 1, k);
	}
	cnt = &F(na, nb, 0);
	for (size_t k = 0; k <= umax; k++) {
		total += cnt[k];
		if (fabs(k - mean) >= dev - 1e-9)
			tail += cnt[k];
	}
#undef F
	free(f);
	return tail / total;
}

void stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb,
			struct mann_whitney *r)
{
	size_t n = na + nb, i, j;
	double *all, ties = 0, mean, var, u = 0;
	int has_ties = 0;

	memset(r, 0, sizeof(*r));
	if (!na || !nb) {
		r->u = r->z = r->p = NAN;
		return;
	}
	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
	r->u = u;
	/* Tie correction: sum of t^3 - t over groups of equal values. */
	all = xmalloc(n * sizeof(*all));
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	qsort(all, n, sizeof(*all), cmp_double);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && all[j] == all[i]; j++)
			;
		if (j - i > 1) {
			double t = j - i;

			ties += t * t * t - t;
			has_ties = 1;
		}
	}
	free(all);
	mean = na * nb / 2.0;
	var = na * nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (var > 0) {
		double d = fabs(u - mean) - 0.5;

		r->z = (d > 0 ? d : 0) / sqrt(var) * (u >= mean ? 1 : -1);
		r->p = erfc(fabs(r->z) / sqrt(2));
	} else {
		r->z = 0;
		r->p = 1;
	}
	if (!has_ties && na <= 30 && nb <= 30) {
		r->p = mw_exact_p(u, na, nb);
		r->exact = 1;
	}
	if (r->p > 1)
		r->p = 1;
}

struct p_index {
	double p;
	size_t i;
};

static int cmp_p_index(const void *a, const void *b)
{
	const struct p_index *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);	/* ties keep their order */
}

void stats_holm(const double *p, size_t n, double *adj)
{
	struct p_index *v = xmalloc((n + 1) * sizeof(*v));
	size_t k = 0;
	double run = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			v[k++] = (struct p_index){ p[i], i };
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			adj[i] = NAN;
	qsort(v, k, sizeof(*v), cmp_p_index);
	for (size_t j = 0; j < k; j++) {
		double a = v[j].p * (double)(k - j);

		if (a > run)
			run = a;
		adj[v[j].i] = run < 1 ? run : 1;
	}
	free(v);
}

/* Bisection on erfc: slower than a rational approximation, exact to a double. */
double stats_norm_quantile(double p)
{
	double lo = -40, hi = 40;

	if (!(p > 0 && p < 1))
		return NAN;
	for (int i = 0; i < 200 && hi - lo > 1e-15; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double stats_robust_sd(const double *x, size_t n)
{
	double *c, iqr;

	if (!n)
		return NAN;
	c = sorted_copy(x, n);
	iqr = stats_quantile_sorted(c, n, 0.75) - stats_quantile_sorted(c, n, 0.25);
	free(c);
	return iqr / 1.349;
}

double stats_pooled_robust_sd(const double *a, size_t na, const double *b, size_t nb)
{
	double sa, sb;

	if (na + nb < 3 || !na || !nb)
		return NAN;
	sa = stats_robust_sd(a, na);
	sb = stats_robust_sd(b, nb);
	return sqrt(((na - 1) * sa * sa + (nb - 1) * sb * sb) / (double)(na + nb - 2));
}

double stats_mw_min_p(size_t na, size_t nb)
{
	double c = 1;

	if (!na || !nb)
		return 1;
	/* C(na + nb, na), built up as a product of ratios */
	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return 2 / c > 1 ? 1 : 2 / c;
}

size_t stats_mw_min_n(double alpha)
{
	size_t n = 1;

	while (n < 1000 && stats_mw_min_p(n, n) >= alpha)
		n++;
	return n;
}

static double z_sum(double alpha, double power)
{
	return stats_norm_quantile(1 - alpha / 2) + stats_norm_quantile(power);
}

double stats_mdd(double sd, size_t na, size_t nb, double alpha, double power)
{
	if (!na || !nb)
		return NAN;
	if (stats_mw_min_p(na, nb) >= alpha)
		return INFINITY;
	if (!isfinite(sd) || sd < 0)
		return NAN;
	return z_sum(alpha, power) * sd * sqrt(1.0 / na + 1.0 / nb) / sqrt(STATS_MW_ARE);
}

size_t stats_n_needed(double sd, double d, double alpha, double power)
{
	size_t floor_n = stats_mw_min_n(alpha);
	double z = z_sum(alpha, power), n;

	if (!isfinite(sd) || sd < 0 || !isfinite(d) || d == 0)
		return 0;
	n = ceil(2 * z * z * sd * sd / (STATS_MW_ARE * d * d));
	if (n > 1e6)
		return 1000000;
	return (size_t)n > floor_n ? (size_t)n : floor_n;
}

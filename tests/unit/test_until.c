// SPDX-License-Identifier: GPL-2.0
/*
 * `run --until-ci`'s stop rule on synthetic boot times, without QEMU: the
 * decision, the widths it reads, and a run of rounds that stops where the
 * rule says, checked against the widths round by round.
 */
#include "check.h"
#include "rng.h"
#include "stats.h"
#include "until.h"

#include <math.h>

static void decide(void)
{
	double ok[] = { 0.4, 0.3 }, one_wide[] = { 0.4, 0.6 }, nan[] = { 0.1, NAN };
	double edge[] = { 0.5 };

	CHECK(until__decide(ok, 2, 0.5, 3, 30) == UNTIL_NARROW,
	      "every width below the target: narrow, whatever the budget");
	CHECK(until__decide(ok, 2, 0.5, 30, 30) == UNTIL_NARROW,
	      "narrow in the last round of the budget says narrow, not budget");
	CHECK(until__decide(one_wide, 2, 0.5, 3, 30) == UNTIL_GO_ON,
	      "one mode's CI still wider: go on");
	CHECK(until__decide(one_wide, 2, 0.5, 30, 30) == UNTIL_BUDGET,
	      "one wider when the budget is spent: budget");
	CHECK(until__decide(nan, 2, 0.5, 5, 30) == UNTIL_GO_ON,
	      "a mode without a width (no ok boot on a side) is never narrow");
	CHECK(until__decide(edge, 1, 0.5, 5, 30) == UNTIL_GO_ON,
	      "a width equal to the target is not narrower than it");
	CHECK(until__decide(ok, 0, 0.5, 5, 30) == UNTIL_GO_ON &&
	      until__decide(ok, 0, 0.5, 30, 30) == UNTIL_BUDGET,
	      "no widths at all: never narrow, the budget ends it");
}

static void widths(void)
{
	double base[] = { 10, 10, 10, 10 }, spread[] = { 7, 8, 9, 12 }, flat[] = { 9, 9, 9, 9 };
	const double *x[] = { spread, base, flat };
	size_t nx[] = { 4, 4, 4 }, nx0[] = { 4, 0, 4 };
	double w[3];
	int n;

	until__widths(x, nx, 3, 1, w, &n);
	CHECK(n == 2 && w[0] > 0 && w[1] == 0,
	      "widths of the modes but the baseline, in order: a spread gives a width, constant "
	      "boots none (%d: %.3f, %.3f)", n, w[0], w[1]);
	until__widths(x, nx0, 3, 1, w, &n);
	CHECK(n == 2 && isnan(w[0]) && isnan(w[1]), "a baseline without boots gives no width");
}

/* Boot times of a round: baseline ~ 10 s, a mode 2 s faster, another 0.5 s; SD 0.3 s. */
static double boot_time(uint64_t *rng, double mean)
{
	double u = ((double)(rng__next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = ((double)(rng__next(rng) >> 11) + 0.5) / 9007199254740992.0;

	return mean + 0.3 * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

/* Round by round as the runner does: the rule after each, from round 3. */
static long rounds_until(double target, long max, double *last, double *before)
{
	static double t[3][100];
	const double means[3] = { 10, 8, 9.5 };
	const double *x[] = { t[0], t[1], t[2] };
	uint64_t rng = 2026;
	size_t nx[3];
	double w[3];
	int n;

	*before = NAN;
	for (long r = 1; r <= max; r++) {
		for (int m = 0; m < 3; m++) {
			t[m][r - 1] = boot_time(&rng, means[m]);
			nx[m] = r;
		}
		if (r < UNTIL_MIN_ROUNDS)
			continue;
		until__widths(x, nx, 3, 0, w, &n);
		*last = fmax(w[0], w[1]);
		if (until__decide(w, n, target, r, max) != UNTIL_GO_ON)
			return r;
		*before = *last;
	}
	return -1;
}

static void rounds(void)
{
	double last, before;
	long r = rounds_until(0.6, 40, &last, &before);

	CHECK(r > UNTIL_MIN_ROUNDS && r < 40 && last < 0.6 && before >= 0.6,
	      "target 0.6 s: stops at round %ld, the first whose widest CI (%.3f s) is narrower; "
	      "the round before had %.3f s", r, last, before);
	r = rounds_until(0.001, 12, &last, &before);
	CHECK(r == 12 && last >= 0.001, "target 1 ms: the budget of 12 rounds ends it (%.3f s)", last);
	r = rounds_until(100, 40, &last, &before);
	CHECK(r == UNTIL_MIN_ROUNDS, "a generous target stops at the first check, round %d",
	      UNTIL_MIN_ROUNDS);
}

int main(void)
{
	decide();
	widths();
	rounds();
	CHECK_DONE();
}

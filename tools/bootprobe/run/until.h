/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `bootprobe run --until-ci WIDTH`: boot in rounds (one boot of every mode a
 * round, the boots of a fixed run in its order) until the 95 % CI of every
 * mode's boot-time difference from the baseline is narrower than WIDTH, or
 * the budget of boots per mode (--max-boots) is spent.  The CIs come from
 * the finished boots, read back from the results folder by rundata.c.
 */
#ifndef BOOTPROBE_UNTIL_H
#define BOOTPROBE_UNTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

struct run;

/* Rounds booted before the rule is first checked: fewer give no CI worth the name. */
#define UNTIL_MIN_ROUNDS 3
/* --max-boots when not given. */
#define UNTIL_DEFAULT_MAX 30

enum until_end { UNTIL_GO_ON, UNTIL_NARROW, UNTIL_BUDGET };

/*
 * The stop rule, after @rounds finished rounds: UNTIL_NARROW when each of
 * the @n widths (one per mode other than the baseline) is finite and below
 * @target; else UNTIL_BUDGET when @rounds reached @max_rounds; else go on.
 * No widths (n == 0) is never narrow.
 */
enum until_end until__decide(const double *widths, int n, double target, long rounds,
			     long max_rounds);

/*
 * The widths, from per-mode boot times @x[i] (@nx[i] values; i in
 * 0..@nr_modes): for every mode but @base, in order, the width of the 95 %
 * bootstrap CI of its median minus the baseline's (NaN without boots on a
 * side), through compare_samples(); *@n widths.
 */
void until__widths(const double *const *x, const size_t *nx, int nr_modes, int base,
		   double *widths, int *n);

/* The loop's state; zero for a run without --until-ci. */
struct until {
	bool on;
	long allowed;		/* rounds whose boots may start */
	long checked;		/* the last round the rule looked at */
	enum until_end end;
	long rounds;		/* rounds finished when it ended */
	char base[64];		/* the baseline's name, from the last check */
	char widest_mode[64];	/* the mode with the widest CI then, and that width */
	double widest;
};

void until__init(struct until *u, const struct run *run);
/* May boot @index (its round) start now? */
bool until__may_start(const struct until *u, int index);
/* After boots finished: check the rule once per completed round; true once it ended. */
bool until__step(struct until *u, struct run *run);
/* "every mode's ... narrower than 0.5 s after 6 rounds" for @u's end, into @buf. */
void until__describe(const struct until *u, const struct run *run, char *buf, size_t len);

#endif

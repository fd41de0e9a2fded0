// SPDX-License-Identifier: GPL-2.0
/* `bootprobe compare`: two runs side by side, and a CI gate. */
#define _GNU_SOURCE
#include "commands.h"
#include "jsonio.h"
#include "rundata.h"

#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char compare_usage[] =
"Usage: bootprobe compare [OPTIONS] RUN_A RUN_B\n"
"\n"
"Two runs side by side (two kernels, two scenarios): for every mode in both,\n"
"boot time and probe phase medians, the difference B - A with its 95 %\n"
"bootstrap CI, the change in percent, the Mann-Whitney p, that p\n"
"Holm-adjusted over the shared modes (per metric), and the minimum detectable\n"
"difference at these boots (power 0.8, p < 0.05 / modes; \"none\" when no\n"
"arrangement of them can reach it; docs/statistics.md).\n"
"\n"
"      --fail-if-slower PCT  exit 1 when B's median boot time is more than PCT %\n"
"                            above A's and the CI of the difference lies above 0;\n"
"                            exit 3 when a mode cannot be judged: no ok boot on\n"
"                            one side, the mode in one run only, a median, change\n"
"                            or CI that is not finite, or a boot left out by the\n"
"                            reader (named on stderr); the gate reads\n"
"                            the CI and PCT, not the p (see docs/statistics.md)\n"
"  -j, --json                machine-readable output\n"
"  -h, --help                this text\n"
"\n"
"A shared mode with no ok boot on one side exits 3 in any case (its medians\n"
"do not exist), and so does one whose boot time is defined differently in the\n"
"two runs (to multi-user.target on systemd boots, the lab's end on the lab's;\n"
"docs/reports.md, \"Boot time\"); numbers that do not exist are null under\n"
"--json.  A bad argument, a RUN folder missing or without a usable boot, or\n"
"two runs that share no mode exit 2.\n"
"\n"
"Each boot with records the reader refused is named on stderr: \"left out:\n"
"DIR: WHY\" when its header, trailer or probe spans are unusable (no number\n"
"uses it), else \"kept, incomplete: DIR: N records refused (first: FILE:LINE:\n"
"why); incomplete: PARTS\" (its boot time counts; docs/events.md says what\n"
"each record type costs).\n"
"\n"
"Examples:\n"
"  bootprobe compare results/old-kernel results/new-kernel\n"
"  bootprobe compare --fail-if-slower 5 results/main results/branch   # a CI gate\n";

/* @v by @fmt into @buf (32 bytes), "-" when it is not finite: no nan or inf printed. */
static const char *num(char *buf, const char *fmt, double v)
{
	if (!isfinite(v))
		return "-";
	snprintf(buf, 32, fmt, v);
	return buf;
}

/* Modes of @x missing from @y: named; the count. */
static int modes_missing(const struct run_data *x, const struct run_data *y, const char *side)
{
	int n = 0;

	for (int i = 0; i < x->nr_modes; i++)
		if (!run_data__mode((struct run_data *)y, x->modes[i].name)) {
			fprintf(stderr, "bootprobe compare: mode '%s' is in %s only (%s)\n",
				x->modes[i].name, side, x->dir);
			n++;
		}
	return n;
}

/*
 * A verdict the gate would read from numbers that do not exist (a median,
 * the change or the CI not finite): named; true if so.
 */
static bool comparison_unjudgeable(const struct mode_stats *m, const struct comparison *c)
{
	if (isfinite(c->median_a) && isfinite(c->median_b) && isfinite(c->pct) &&
	    isfinite(c->diff_lo))
		return false;
	fprintf(stderr, "bootprobe compare: mode '%s': a boot time median, the change or its CI "
		"is not finite: the gate cannot judge it\n", m->name);
	return true;
}

/* Boots of @r the gate should judge but the reader left out: named; how many. */
static int boots_left_out(const struct run_data *r)
{
	if (r->nr_damaged)
		fprintf(stderr, "bootprobe compare: %s: %d boot%s left out: the gate cannot judge "
			"the run\n", r->dir, r->nr_damaged, r->nr_damaged == 1 ? "" : "s");
	return r->nr_damaged;
}

/*
 * A shared mode whose boot time has no ok boot on a side, or is not defined
 * the same on both (boot_data__is_systemd(): to multi-user.target on one,
 * the lab's on the other): named; true if so.
 */
static bool mode_unjudgeable(const struct mode_stats *ma, const struct mode_stats *mb,
			     const struct run_data *a, const struct run_data *b)
{
	const char *ka = mode_stats__boot_time_kind(ma), *kb = mode_stats__boot_time_kind(mb);

	if (!ma->n[M_BOOT] || !mb->n[M_BOOT]) {
		fprintf(stderr, "bootprobe compare: mode '%s' has no ok boot with a boot time in "
			"%s: it cannot be compared\n", ma->name, !ma->n[M_BOOT] ? a->dir : b->dir);
		return true;
	}
	if (ka && kb && !strcmp(ka, kb) && strcmp(ka, "mixed"))
		return false;
	fprintf(stderr, "bootprobe compare: mode '%s': boot time is not defined the same way in "
		"%s (%s boots) and %s (%s boots): it cannot be compared\n", ma->name, a->dir,
		ka ? ka : "no", b->dir, kb ? kb : "no");
	return true;
}

static json_object *comparison_row(const struct mode_stats *m, enum metric k,
				   const struct comparison *c, bool slower)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mode", json_object_new_string(m->name));
	json_object_object_add(o, "metric", json_object_new_string(metric_names[k]));
	json_object_object_add(o, "median_a", jnum(c->median_a));
	json_object_object_add(o, "median_b", jnum(c->median_b));
	comparison__json(o, c);
	json_object_object_add(o, "slower_beyond_threshold", json_object_new_boolean(slower));
	return o;
}

/* The metrics compare reads, per shared mode. */
static const enum metric compare_metrics[] = { M_BOOT, M_PHASE };
#define NR_COMPARE 2

/*
 * Every mode in both runs on compare_metrics, Holm-adjusted per metric over
 * the shared modes: entry [shared * NR_COMPARE + k], *@n shared modes, their
 * indices in @a in @idx.  The caller frees both.
 */
static struct comparison *compare_all(struct run_data *a, struct run_data *b, int **idx, int *n)
{
	struct comparison *c = xcalloc((size_t)a->nr_modes * NR_COMPARE + 1, sizeof(*c));
	struct comparison **fam = xcalloc(a->nr_modes + 1, sizeof(*fam));

	*idx = xcalloc(a->nr_modes + 1, sizeof(**idx));
	*n = 0;
	for (int i = 0; i < a->nr_modes; i++) {
		struct mode_stats *mb = run_data__mode(b, a->modes[i].name);

		if (!mb)
			continue;
		for (int k = 0; k < NR_COMPARE; k++)
			compare_metric(&a->modes[i], mb, compare_metrics[k], &c[*n * NR_COMPARE + k]);
		(*idx)[(*n)++] = i;
	}
	for (int k = 0; k < NR_COMPARE; k++) {
		for (int s = 0; s < *n; s++)
			fam[s] = &c[s * NR_COMPARE + k];
		comparisons__holm(fam, *n);
	}
	free(fam);
	return c;
}

/* 0, 1 (slower beyond the gate), 2 (nothing shared) or 3 (a mode cannot be judged). */
static int compare_runs(struct run_data *a, struct run_data *b, double fail_pct, bool json)
{
	json_object *arr = json_object_new_array();
	bool regression = false, gate = !isnan(fail_pct);
	int shared = 0, unjudged = 0, one_sided, *idx;
	struct comparison *all = compare_all(a, b, &idx, &shared);

	if (!json)
		printf("%-14s %-16s %10s %10s %10s %22s %8s %8s %8s %8s\n", "mode", "metric", "A",
		       "B", "B-A", "95% CI", "change", "p", "Holm p", "MDD");
	for (int s = 0; s < shared; s++) {
		struct mode_stats *ma = &a->modes[idx[s]], *mb = run_data__mode(b, ma->name);

		unjudged += mode_unjudgeable(ma, mb, a, b) ||
			    (gate && ma->n[M_BOOT] && mb->n[M_BOOT] &&
			     comparison_unjudgeable(ma, &all[s * NR_COMPARE]));
		for (int k = 0; k < NR_COMPARE; k++) {
			const struct comparison *c = &all[s * NR_COMPARE + k];
			enum metric m = compare_metrics[k];
			char mdd[16] = "none";
			bool slower;

			slower = m == M_BOOT && gate && c->pct > fail_pct && c->diff_lo > 0;
			regression |= slower;
			if (isfinite(c->mdd))
				snprintf(mdd, sizeof(mdd), "%.3f", c->mdd);
			else if (isnan(c->mdd))
				snprintf(mdd, sizeof(mdd), "-");
			if (json) {
				json_object_array_add(arr, comparison_row(ma, m, c, slower));
			} else {
				char n[8][32];

				printf("%-14s %-16s %10s %10s %10s %10s .. %-8s %7s%% %8s %8s %8s%s\n",
				       ma->name, metric_names[m], num(n[0], "%.3f", c->median_a),
				       num(n[1], "%.3f", c->median_b), num(n[2], "%+.3f", c->diff),
				       num(n[3], "%.3f", c->diff_lo), num(n[4], "%.3f", c->diff_hi),
				       num(n[5], "%+.1f", c->pct), num(n[6], "%.3g", c->mw.p),
				       num(n[7], "%.3g", c->p_holm), mdd, slower ? "  SLOWER" : "");
			}
		}
	}
	if (!json && shared)
		printf("p: Mann-Whitney; Holm p: adjusted over the %d modes compared per metric; MDD: "
		       "the smallest difference these boots find with power %.1f at p < %.3g "
		       "(docs/statistics.md)\n", shared, CMP_POWER, CMP_ALPHA / shared);
	free(all);
	free(idx);
	one_sided = modes_missing(a, b, "A") + modes_missing(b, a, "B");
	/* A gate judges every boot it was given: one left out is no pass. */
	if (gate)
		unjudged += boots_left_out(a) + boots_left_out(b);
	if (json) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "a", json_object_new_string(a->dir));
		json_object_object_add(o, "b", json_object_new_string(b->dir));
		json_object_object_add(o, "comparisons", arr);
		json_object_object_add(o, "regression", json_object_new_boolean(regression));
		json_object_object_add(o, "modes_not_judged",
				       json_object_new_int(unjudged + (gate ? one_sided : 0)));
		jprint(o);
		json_object_put(o);
	} else {
		json_object_put(arr);
	}
	if (!shared) {
		fprintf(stderr, "bootprobe compare: %s and %s share no mode\n", a->dir, b->dir);
		return 2;
	}
	if (regression)
		fprintf(stderr, "bootprobe compare: %s is slower than %s by more than %g %%\n",
			b->dir, a->dir, fail_pct);
	if (regression)
		return 1;
	/* A gate that could not look at every mode has not passed. */
	return unjudged || (gate && one_sided) ? 3 : 0;
}

int cmd_compare(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "fail-if-slower", required_argument, NULL, 'f' }, { "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	double fail_pct = NAN;
	struct run_data *a, *b;
	bool json = false;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jh", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (!parse_seconds(optarg, &fail_pct))
				return usage_error("compare", "--fail-if-slower wants a percentage > 0, not",
						   optarg);
			break;
		case 'j': json = true; break;
		case 'h': fputs(compare_usage, stdout); return 0;
		case ':': return usage_error("compare", "option needs a value:", argv[optind - 1]);
		default: return usage_error("compare", "unknown option", argv[optind - 1]);
		}
	}
	if (optind != argc - 2)
		return usage_error("compare", "want two RUN folders", NULL);
	a = run_data__open(argv[optind], "compare");
	b = a ? run_data__open(argv[optind + 1], "compare") : NULL;
	if (!b) {
		run_data__free(a);
		return 2;
	}
	run_data__analyze(a);
	run_data__analyze(b);
	/* Which boots each side left out or kept incomplete, before any verdict. */
	run_data__print_verdicts(a, stderr, "bootprobe compare: ", 0);
	run_data__print_verdicts(b, stderr, "bootprobe compare: ", 0);
	rc = compare_runs(a, b, fail_pct, json);
	run_data__free(a);
	run_data__free(b);
	return rc;
}

/* SPDX-License-Identifier: GPL-2.0 */
/* A results folder loaded for analysis, and its per-mode statistics. */
#ifndef BOOTPROBE_RUNDATA_H
#define BOOTPROBE_RUNDATA_H

#include "analyze.h"
#include "boot.h"
#include "keymap.h"
#include "phases.h"
#include "stats.h"

#include <stdbool.h>
#include <stdio.h>

struct json_object;

/* The metrics compared across boots, in report order. */
enum metric {
	M_BOOT, M_GUEST, M_WALL, M_PHASE, M_FIRST, M_PROBE_MAX, M_PROBE_SUM, M_GAP,
	M_KILLS, M_FAILED, M_BOUND, M_DRIVERS, M_COUNT
};

extern const char *const metric_names[M_COUNT];	/* "boot_s", ... */
extern const char *const metric_titles[M_COUNT];	/* "boot time (s)", ... */

struct driver_stats {
	char driver[NAME_LEN];
	double *probe_s;	/* every probe of it in ok boots */
	size_t n;
	struct summary s;
	double *boot_s;		/* per ok boot it probed in: the sum of its probes */
	size_t nr_boot_s;
	struct summary per_boot;
	int last_boot;		/* the ok boot (1-based) boot_s's last value is of */
};

/* How a device's probes by a driver ended in a boot, worst first. */
enum device_end { DEV_MISSING, DEV_UNBOUND, DEV_FAILED, DEV_BOUND };

/* A disk or network interface over a mode's ok boots: when it appeared. */
struct devnode_stats {
	char name[NAME_LEN], kind[8];
	char driver[NAME_LEN];		/* the driver whose probe made it, "" unknown */
	int boots;			/* ok boots it appeared in */
	double *gap_s;			/* readiness gap per boot where it is known */
	size_t n;
	struct summary s;
	const char *ref;		/* what the gap is measured from (devnode__gap) */
	char unit[128];			/* its systemd device unit, "" if not named */
	double *unit_s;			/* that unit's time in systemd-analyze blame */
	size_t nr_unit;
	struct summary unit_sum;
};

/*
 * A probe's driver + device, or a disk or interface, that ended after
 * multi-user.target in some of a mode's ok systemd boots (probe_span__late(),
 * devnode__late()): when, and how long after the target.
 */
struct late_stats {
	char kind[8];		/* "probe", or the devnode's "block" or "net" */
	char device[NAME_LEN];	/* the probed device, or the disk's or interface's name */
	char driver[NAME_LEN];	/* the probing driver, or the one whose probe made it; "" */
	int boots;		/* ok boots it was late in */
	double *end_s, *after_s;	/* per such boot: its (last) end; that less the target */
	size_t n;
	struct summary end, after;
	int last_boot;		/* the ok boot (1-based) end_s's last value is of */
};

/* At most this many late probes, disks and interfaces per mode in the report and summaries. */
#define LATE_SHOWN 10

/* One driver + device pair over a mode's ok boots with an event stream. */
struct device_outcome {
	char driver[NAME_LEN], device[NAME_LEN];
	int bound;		/* boots where a probe of it returned 0 */
	int failed;		/* else boots with a failed probe (probe_span__failed) */
	int unbound;		/* else boots where it was only rejected or deferred */
	int first_error;	/* the first failed probe's error, 0 if none failed */
	int last_boot;		/* the boot (1-based) @end is of */
	enum device_end end;	/* that boot's best ending so far */
};

struct mode_stats {
	char *name;
	int boots, ok;
	int boots_with_kills;	/* kill rate = boots_with_kills / boots: a SIGKILL to a task
				 * loading a module or probing (or udevd's kill, from a log) */
	int boots_with_other_kills;	/* boots with a SIGKILL to any other task */
	char *other_kill;		/* the first of those, "TARGET, sent by SENDER" */
	int probes, failed_probes;	/* in ok boots, like every metric */
	int boots_with_failed;		/* ok boots with a failed probe */
	int boots_udev_ignored;		/* boots where udevd ignored a rules setting */
	/* boots whose collector lost something or records were refused (boot_data__losses) */
	int boots_lossy, boots_kills_incomplete, boots_probes_incomplete;
	int boots_refused, records_refused;	/* kept boots with records refused; those records */
	int64_t events_lost;		/* boot_losses.lost, summed */
	char *udev_ignored;		/* the first such line, for the report */
	int devices;			/* test devices per boot, the most an ok boot listed */
	double *values[M_COUNT];	/* per ok boot, NaNs left out */
	size_t n[M_COUNT];
	struct summary s[M_COUNT];
	struct driver_stats *drivers;	/* drivers with a user-space probe in ok boots */
	int nr_drivers;
	int event_boots;		/* ok boots with an event stream */
	struct device_outcome *dev_ends;	/* every probed driver + device, those boots */
	int nr_dev_ends;
	/* boots that reached systemd: the phases beside systemd-analyze's */
	int phase_boots;		/* ok boots with systemd's start or its analysis */
	double *phase[PS_COUNT][PH_COUNT];
	size_t nr_phase[PS_COUNT][PH_COUNT];
	struct summary phase_s[PS_COUNT][PH_COUNT];
	/* boots of our /init: where the time goes (boot__stages()) */
	int stage_boots;
	double *stage[ST_COUNT];
	size_t nr_stage[ST_COUNT];
	struct summary stage_s[ST_COUNT];
	struct devnode_stats *devnodes;	/* disks and interfaces, first seen first */
	int nr_devnodes;
	/* ok boots with a boot time, by its definition (boot_data__is_systemd()) */
	int systemd_boots, lab_boots;
	/* systemd boots: what ended after multi-user.target, the latest first (once analyzed) */
	int late_boots;			/* ok systemd boots with something late */
	double *late_probes, *late_devnodes;	/* per ok systemd boot: how many */
	size_t nr_late_probes, nr_late_devnodes;
	struct summary late_probes_s, late_devnodes_s;
	struct late_stats *late;
	int nr_late;
	/* async efficiency: phase / longest probe; sync: phase / sum of probes */
	double *eff_longest, *eff_sum;
	size_t nr_eff_longest, nr_eff_sum;
	struct summary eff_longest_s, eff_sum_s;
	/* probe order: distinct device orders across boots */
	struct strv orders;
	int *order_count;
	struct strv device_sets;	/* distinct "device=driver ..." sets */
	int *device_set_count;
	/*
	 * Indexes of drivers[], dev_ends[], devnodes[], orders, device_sets
	 * and late[] (keymap.h; late_index is emptied once late[] is sorted).
	 */
	struct keymap driver_index, dev_end_index, devnode_index, order_index, device_set_index;
	struct keymap late_index;
};

struct run_data {
	char *dir;		/* the folder as the user named it: opened, never printed in a report */
	int fd;			/* the folder @dir, open when fd_open: read beneath it */
	bool fd_open;
	/*
	 * The folder's own name.  Every file of the run is named by it in what
	 * the run's outputs say ("RUN_ID/boots/NAME/events.jsonl:5"), never by
	 * the path it was read at: a run reports the same wherever it lies.
	 */
	char *run_id;
	char *baseline;		/* the manifest's baseline mode, or NULL */
	char *until_end;	/* run --until-ci: what ended it (the manifest's), or NULL */
	/* The manifest's modes and boot 1's kernel arguments of each, in order. */
	struct strv mode_names, mode_args;
	double time_scale;	/* the scenario's, 0 if the manifest does not say */
	int jobs;		/* boots at once, 0 if the manifest does not say */
	char *jobs_from;	/* where that number came from, or NULL */
	struct boot_data **boots;
	int nr_boots;
	size_t mem_bytes;	/* what the boots hold, as each counted it (boot.h) */
	struct mode_stats *modes;
	int nr_modes;
	struct keymap mode_index;	/* modes[] by name */
	struct strv warnings;
	/*
	 * Boots left out of every statistic: boot.json unreadable, or the
	 * header, trailer or probe spans unusable (boot_data__unusable()).
	 * Boots kept with records refused are in boots[] (b->rejected).
	 */
	struct damaged_boot {
		char *name, *mode, *dir, *why;
		char *first;	/* the first refused record, "FILE:LINE: why"; NULL if none */
	} *damaged;
	int nr_damaged;
};

/*
 * What became of each boot with a refused record or an unreadable boot.json,
 * one line each, for every output that must say it (report, compare,
 * explain): "left out: DIR: WHY" for a boot left out, "kept, incomplete:
 * DIR: N records refused (first: FILE:LINE: why); incomplete: PARTS" for
 * one kept.  Each line starts with @prefix; at most @max lines of each kind
 * (0: all), then one saying how many more.  The number of boots named.
 */
int run_data__print_verdicts(const struct run_data *r, FILE *out, const char *prefix, int max);

/* Load every boot of a run; NULL with a message if there is nothing to use. */
struct run_data *run_data__load(const char *dir, char *err, int errlen);
/* run_data__load() for command @cmd: NULL after "bootprobe CMD: why" on stderr. */
struct run_data *run_data__open(const char *dir, const char *cmd);
/*
 * RUN/manifest.json's text (@len bytes, NUL-terminated; NULL when it could
 * not be read) into @r, whose dir is set: the baseline, time scale and modes,
 * and the boot folders it lists into @dirs (else every folder under boots/).
 * -1 with the one-line reason in @err when its schema is one this bootprobe
 * does not read (nothing of the run is then read).  What run_data__load()
 * does with the manifest; exposed for the fuzzer.
 */
int run_data__read_manifest(struct run_data *r, const char *text, size_t len,
			    struct strv *dirs, char *err, int errlen);
void run_data__free(struct run_data *r);
/* Fill the per-mode statistics. */
void run_data__analyze(struct run_data *r);
struct mode_stats *run_data__mode(struct run_data *r, const char *name);
/* The mode others are compared with: the manifest's baseline, else "sync", else the first. */
struct mode_stats *run_data__baseline(struct run_data *r);

/* The significance level and power every comparison is judged at. */
#define CMP_ALPHA 0.05
#define CMP_POWER 0.8

struct comparison {
	double median_a, median_b, diff, diff_lo, diff_hi, pct;
	struct mann_whitney mw;
	size_t na, nb;
	/* Power and multiplicity (comparison__power, comparisons__holm) */
	double sd;		/* pooled robust SD of the two samples */
	double p_holm;		/* Holm-adjusted over its family; mw.p in a family of one */
	int family;		/* comparisons in that family */
	double alpha;		/* CMP_ALPHA / family: what Holm asks of the smallest p */
	double mdd;		/* minimum detectable difference at alpha, CMP_POWER, this n */
	size_t n_needed;	/* boots per side to detect |diff| that way (0: no diff) */
};
void compare_metric(const struct mode_stats *a, const struct mode_stats *b, enum metric m,
		    struct comparison *c);
/* The same for any two samples (b − a). */
void compare_samples(const double *a, size_t na, const double *b, size_t nb,
		     struct comparison *c);
/*
 * Holm-adjust the Mann-Whitney p values of the @n comparisons @c (one
 * family: the comparisons answering one question, e.g. every mode's boot
 * time against the baseline), then their power at CMP_ALPHA / family.
 */
void comparisons__holm(struct comparison *const *c, int n);
/* MDD and boots needed at @c->alpha (set by compare_samples and comparisons__holm). */
void comparison__power(struct comparison *c);
/* A difference: the CI of the difference excludes 0 and the Holm p is below CMP_ALPHA. */
bool comparison__significant(const struct comparison *c);
/* The CI excludes 0 but the Holm p does not reach CMP_ALPHA. */
bool comparison__suggestive(const struct comparison *c);

/* The metrics every mode is compared on against the baseline; boot time first. */
extern const enum metric cmp_metrics[];
#define NR_CMP 3
/*
 * Every mode against @base on cmp_metrics, Holm-adjusted per metric over the
 * modes: entry [mode * NR_CMP + k]; NULL without a baseline and another
 * mode.  The caller frees.
 */
struct comparison *run_data__comparisons(struct run_data *r, const struct mode_stats *base);

/* What p, p_holm, mdd and boots_needed mean, in words (summary.json, report.md). */
extern const char comparisons_note[];
/* Those fields of @c into the JSON object @o. */
void comparison__json_power(struct json_object *o, const struct comparison *c);
/*
 * Every field of a comparison into @o, the one way summary.json and
 * compare --json write one: median_diff, its CI (diff_ci95_lo/hi), pct,
 * mann_whitney_u, p, p_exact, then comparison__json_power()'s.
 */
void comparison__json(struct json_object *o, const struct comparison *c);

/*
 * Which definition of boot time @m's ok boots took (boot_data__is_systemd()):
 * "systemd" (to multi-user.target), "lab", "mixed", or NULL when no ok boot
 * had a boot time.
 */
const char *mode_stats__boot_time_kind(const struct mode_stats *m);
/*
 * The definition of @r's boot time in words (boot_time_words[] or
 * boot_time_sentence[] as @sentence asks): the one its ok boots took, both
 * named when they took both.  Static text (valid until the next call).
 */
const char *run_data__boot_time_words(const struct run_data *r, bool sentence);

/* Boots of @m (with events) where @d had no probe span at all. */
int device_outcome__missing(const struct mode_stats *m, const struct device_outcome *d);

struct json_object *summary__json(const struct summary *s);
struct json_object *run_data__summary_json(struct run_data *r);

#endif

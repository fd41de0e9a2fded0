/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The what-if model over a run: for each kernel, its sync boots predicted
 * under driver-async and module-async (whatif.h), and beside each
 * prediction the boots of that mode the run measured, if any.
 */
#ifndef BOOTPROBE_WHATIF_RUN_H
#define BOOTPROBE_WHATIF_RUN_H

#include "keymap.h"
#include "rundata.h"
#include "stats.h"
#include "whatif.h"

/* One predicted quantity over the sync boots: sleeping probes and computing ones. */
struct whatif_pred {
	struct summary sleep, compute;
	double sync_median;		/* the sync boots' own */
};

/* A disk or interface, predicted (and measured where an async mode ran). */
struct whatif_dev {
	char name[NAME_LEN], kind[8], driver[NAME_LEN];
	struct whatif_pred when;	/* when it appeared, s since kernel start */
	int from_probe;			/* sync boots where its probe was found */
	struct summary measured;	/* in the measured mode's boots (n 0: none) */
};

/* The boots of an async mode the run measured, beside the prediction. */
struct whatif_measured {
	char *mode;			/* the run's mode */
	struct summary boot, phase;
	char *differs;			/* what else differs from the sync mode, or NULL */
	struct whatif_dev *dev;		/* as the prediction's dev[], .measured filled */
};

/* The disks and interfaces predicted per kernel and mode, the first to appear first. */
#define WHATIF_MAX_DEVS 64

/* One kernel's sync boots predicted for one async mode. */
struct whatif_row {
	char kernel[NAME_LEN];		/* the boots' kernel release, else image, else "" */
	char *sync_mode;		/* the run's mode the prediction is made from */
	enum whatif_mode mode;		/* WI_DRIVER_ASYNC or WI_MODULE_ASYNC */
	enum whatif_kind kind;
	int cpus;			/* the sync boots' guest CPUs; 0 unknown */
	bool cpus_mixed;		/* the sync boots differ in it */
	int sync_boots;			/* predicted (ok, with probe spans and a boot time) */
	int groups_parallel;		/* the most probe groups of 2+ a boot ran in parallel */
	struct whatif_pred boot, phase;
	struct whatif_dev *dev;
	int nr_dev;
	struct keymap dev_index;	/* dev[] by kind, name and driver */
	int devs_left_out;		/* devices past WHATIF_MAX_DEVS, in the boots they appeared */
	struct whatif_measured *meas;
	int nr_meas;
};

struct whatif_run {
	struct whatif_row *rows;
	int nr;
	struct strv skipped;		/* modes measured but not predicted, and why */
};

/* The model over @r's ok boots (boot.json is read again for the CPUs and the kernel). */
void whatif_run__build(struct whatif_run *w, const struct run_data *r);
void whatif_run__free(struct whatif_run *w);

/* Measured against predicted (sleeping probes), signed %; NAN if either is missing. */
double whatif_error_pct(double predicted, double measured);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What if every probe were asynchronous: a model of what a synchronous boot
 * waited for (its probes, grouped by the thread and module load that ran
 * them; the module loads and udev workers behind them; the disks and
 * interfaces they made; PID 1's exec and systemd's critical chain; the
 * guest's CPUs), replayed with the probes of each group in parallel.
 * docs/whatif.md states the model; this file is the one implementation.
 *
 * The event stream has no on-CPU time per probe, so every prediction is
 * made twice: with the probes sleeping (f = 0, the point prediction: what
 * parallel probes can gain at most) and with the probes computing (f = 1,
 * the bound: parallel probes gain only where CPUs were free).
 */
#ifndef BOOTPROBE_WHATIF_H
#define BOOTPROBE_WHATIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "boot.h"

/* How a boot probed, read from its kernel command line. */
enum whatif_mode {
	WI_SYNC,		/* no async switch */
	WI_DRIVER_ASYNC,	/* driver_async_probe=* */
	WI_MODULE_ASYNC,	/* module.async_probe=1 */
	WI_OTHER_ASYNC,		/* DRIVER.async_probe=1 or a driver list: not predicted */
	WI_MODES,
};

/* "sync", "driver-async", "module-async", "other async" */
const char *whatif_mode__name(enum whatif_mode m);
/* The mode of a boot whose kernel command line holds @cmdline (NULL: sync). */
enum whatif_mode whatif_mode__of_cmdline(const char *cmdline);

/* What ends the boot: the lab's /init (coldplug done), or systemd (multi-user.target). */
enum whatif_kind { WI_LAB, WI_SYSTEMD, WI_KINDS };
const char *whatif_kind__name(enum whatif_kind k);	/* "lab", "systemd" */
enum whatif_kind whatif_kind__of(const struct boot_data *b);

/* The guest's CPUs from a QEMU command line's -smp (N, cpus=N, N,...); 0 if none. */
int whatif_cpus_of_qemu(const char *qemu_cmdline);

/* The fraction of a probe's time on a CPU, as the model assumes it. */
enum whatif_cpu { WI_SLEEPING, WI_COMPUTING, WI_CPU_CASES };

/* A disk or interface: when it appeared, and when the model says it would. */
struct whatif_devnode {
	char name[NAME_LEN], kind[8], driver[NAME_LEN];
	double sync_s;			/* when it appeared in the sync boot */
	double pred_s[WI_CPU_CASES];	/* predicted */
	bool from_probe;		/* its probe was found (else it moved with nothing) */
};

/* One sync boot's prediction for one async mode. */
struct whatif_boot {
	enum whatif_kind kind;
	int cpus;			/* as given (0 unknown: 1 assumed) */
	double boot_s, phase_s;		/* the sync boot's own (boot_data__boot_time()) */
	double pred_boot_s[WI_CPU_CASES], pred_phase_s[WI_CPU_CASES];
	/* what moved: the initramfs's wait (systemd: PID 1's exec), the chain's device */
	double exec_gain_s[WI_CPU_CASES], chain_gain_s[WI_CPU_CASES];
	int groups, groups_parallel;	/* probe groups; those of 2+ probes the mode runs in parallel */
	struct whatif_devnode *dev;
	int nr_dev;
};

/*
 * Predict the sync boot @b under @mode (WI_DRIVER_ASYNC or WI_MODULE_ASYNC)
 * on @cpus CPUs into @out; -1 (and @out empty) if @b has no probe span with
 * a known start or no boot time.  whatif_boot__free() it either way.
 */
int whatif__predict(const struct boot_data *b, int cpus, enum whatif_mode mode,
		    struct whatif_boot *out);
void whatif_boot__free(struct whatif_boot *w);

/* ---- the error measured on the calibration runs ---- */

/* What is predicted: the boot time, the probe phase, a device's readiness. */
enum whatif_metric { WI_BOOT, WI_PHASE, WI_READY, WI_METRICS };
const char *whatif_metric__name(enum whatif_metric m);	/* "boot", "probe_phase", "readiness" */
/* The largest calibration error (%) a prediction may have to be printed unjudged. */
extern const double whatif_error_limit_pct[WI_METRICS];

/*
 * One row of the calibration table (results/whatif-calibration.csv, the
 * rows a report writes in report/whatif.csv for a run with async modes
 * measured): the signed error of a prediction against the measured median.
 */
struct whatif_cal_row {
	char run[96], kernel[NAME_LEN];
	enum whatif_kind kind;
	enum whatif_mode mode;
	enum whatif_metric metric;
	char what[NAME_LEN];		/* "" for boot and probe_phase; the device for readiness */
	int sync_boots, async_boots;
	double predicted_s, measured_s, measured_ci_lo_s, measured_ci_hi_s, error_pct;
};

struct whatif_cal {
	struct whatif_cal_row *rows;
	int nr;
	int refused;			/* lines refused (warnings says why) */
	struct strv warnings;		/* "LABEL:LINE: why" */
};

/* The table's header line (without its newline): the one format. */
extern const char whatif_cal_header[];
/* Print @row as one line of the table. */
void whatif_cal_row__print(const struct whatif_cal_row *row, FILE *f);
/* Parse @text (@label for messages) into @cal: rows kept, bad lines refused and named. */
void whatif_cal__parse(struct whatif_cal *cal, const char *text, const char *label);
void whatif_cal__free(struct whatif_cal *cal);
/* The table committed in results/whatif-calibration.csv, built into the program. */
const char *whatif_cal__builtin(void);

/*
 * The calibration's verdict on predictions of @metric for @mode on @kind
 * boots: the largest |error| of its rows (and how many rows, which runs)
 * into *@err_pct, *@rows; false when no row measured it.
 */
bool whatif_cal__error(const struct whatif_cal *cal, enum whatif_kind kind, enum whatif_mode mode,
		       enum whatif_metric metric, double *err_pct, int *rows);
/*
 * Whether a prediction no boot of the run can judge may be printed: only
 * when the calibration measured the model's error for @mode on @kind boots
 * and it is within whatif_error_limit_pct[@metric]; the calibration error
 * into *@err_pct (NAN: none), and in @why the sentence the report prints,
 * "withheld: ..." with the reason, or "unjudged: calibration error ...".
 */
bool whatif_cal__may_print(const struct whatif_cal *cal, enum whatif_kind kind,
			   enum whatif_mode mode, enum whatif_metric metric, double *err_pct,
			   char *why, size_t len);

#endif

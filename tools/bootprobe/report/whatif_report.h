/* SPDX-License-Identifier: GPL-2.0 */
/* report.md's "What if every probe were asynchronous?" and report/whatif.csv. */
#ifndef BOOTPROBE_WHATIF_REPORT_H
#define BOOTPROBE_WHATIF_REPORT_H

#include "doc.h"
#include "rundata.h"

/*
 * The section: for each kernel and async mode, the prediction from the sync
 * boots; judged against the measured boots of that mode where the run has
 * them, else shown only beside the calibration's error, or withheld with
 * the reason (docs/whatif.md).
 */
void report__whatif(struct doc *d, const struct run_data *r);
/*
 * whatif.csv in the report's folder: the judged predictions, one row per
 * metric (results/whatif-calibration.csv's format).  0, or -1 after "@who: ...".
 */
int report__whatif_csv(const struct run_data *r, int dirfd, const char *dir, const char *who);

#endif

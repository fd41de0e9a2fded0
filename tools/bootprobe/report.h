/* SPDX-License-Identifier: GPL-2.0 */
/* `bootprobe report`: a run's report.md, report.html, summary.csv/json, charts, traces. */
#ifndef BOOTPROBE_REPORT_H
#define BOOTPROBE_REPORT_H

#include <stdbool.h>

#include "rundata.h"

struct report_opts {
	const char *out;	/* folder; default RUN/report */
	bool charts;		/* run gnuplot */
	bool traces;		/* one Perfetto trace per boot */
};

int report__write(struct run_data *r, const struct report_opts *o);

#endif

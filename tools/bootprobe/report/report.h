/* SPDX-License-Identifier: GPL-2.0 */
/* `bootprobe report`: a run's report.md, report.html, summary.csv/json, charts, traces. */
#ifndef BOOTPROBE_REPORT_H
#define BOOTPROBE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "rundata.h"

struct report_opts {
	const char *out;	/* folder; default RUN/report */
	bool charts;		/* run gnuplot */
	bool traces;		/* one Perfetto trace per boot */
};

/* The report's folder: o->out, else RUN/report; the caller frees it. */
char *report__dir(const struct run_data *r, const struct report_opts *o);
/* The lock file in the report's folder, held while report__write() writes. */
#define REPORT_LOCK ".lock"
/* report__write() found the folder locked by another writer. */
#define REPORT_LOCKED 4
/*
 * The report, written into its folder through one descriptor: no link
 * followed at any level below the path the user gave (RUN, --out DIR).
 * 0; -1 when a file could not be written; REPORT_LOCKED when another
 * report holds the folder's lock (a message names it either way).
 */
int report__write(struct run_data *r, const struct report_opts *o);
/*
 * The headline: per mode in run order, ok boots, median boot time and its
 * 95 % CI, boots with a SIGKILL, failed probes and the boots with one, median
 * devices bound; then "report: DIR/report.html".
 */
void report__headline(const struct run_data *r, const char *dir, FILE *out);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/* gnuplot charts of a run, each as SVG and PNG. */
#ifndef BOOTPROBE_CHARTS_H
#define BOOTPROBE_CHARTS_H

#include "rundata.h"

/* Chart names written into DIR/charts/NAME.{svg,png}; a NULL-terminated list. */
extern const char *const chart_names[];
extern const char *const chart_titles[];

/*
 * Write data files and scripts into charts/ of the folder open at @outfd
 * (@out its path), run gnuplot; 0 or -1 with a message on stderr.  Bit i
 * of *@drawn says chart_names[i] was drawn by this call: only those are
 * shown (a picture that came with the folder, or an earlier report's, is
 * left as it stands, never inlined).  Bit i of *@empty says no mode had
 * anything to draw in chart_names[i] (every boot untraced): it was not
 * drawn, and that is no failure.
 */
int charts__write(struct run_data *r, int outfd, const char *out, unsigned *drawn,
		  unsigned *empty);

#endif

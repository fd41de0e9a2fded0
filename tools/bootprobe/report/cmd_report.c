// SPDX-License-Identifier: GPL-2.0
/* `bootprobe report`: analyse a run and write its report. */
#define _GNU_SOURCE
#include "commands.h"
#include "jsonio.h"
#include "report.h"
#include "rundata.h"

#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char report_usage[] =
"Usage: bootprobe report [OPTIONS] RUN\n"
"\n"
"Analyse a results folder: per mode and metric the median, IQR, min/max and a\n"
"95 % bootstrap CI; every mode against sync (or the first mode) with the CI of\n"
"the difference, a Mann-Whitney U test whose p is Holm-adjusted over the modes,\n"
"the minimum detectable difference at the run's boots and the boots per mode a\n"
"difference of the observed size needs (docs/statistics.md); kill and\n"
"failed-probe rates; async efficiency; the what-if prediction from sync boots;\n"
"probe orders; killed probes explained.  Writes RUN/report/: report.md,\n"
"report.html (self-contained), summary.csv, summary.json, charts/ (gnuplot SVG\n"
"and PNG), traces/ (one Perfetto / Chrome trace per boot).\n"
"\n"
"Then prints a headline, one row per mode in run order, and report.html's path;\n"
"its numbers are report.md's, counted over the same boots:\n"
"  ok             ok boots / boots\n"
"  boot time (s)  median boot time, and its 95 % bootstrap CI\n"
"  SIGKILL        boots with a SIGKILL from udevd or to a task loading a\n"
"                 module or probing / boots (the kill rate; other SIGKILLs are said\n"
"                 apart in report.md)\n"
"  failed probes  failed probes in ok boots (ok boots with one / ok boots)\n"
"  bound          test devices bound, median of the ok boots / devices\n"
"                 (min..max when the boots differ)\n"
"\n"
"  -o, --out DIR      write the report there instead of RUN/report\n"
"      --no-charts    skip gnuplot\n"
"      --no-traces    skip the per-boot traces\n"
"  -q, --quiet        no headline\n"
"  -j, --json         print summary.json on standard output instead of the\n"
"                     headline (the same rows are its \"headline\" array)\n"
"  -h, --help         this text\n"
"\n"
"The report's folder is written through one descriptor: below RUN (or DIR)\n"
"no link is followed, each file is written under a new random name and\n"
"renamed into place, and a lock (.lock in the folder) keeps a second report\n"
"out while one writes (docs/security.md).\n"
"\n"
"Exit status: 0 written; 1 a file of the report could not be written; 2 a bad\n"
"argument, or a RUN folder that is missing or has no usable boot; 4 another\n"
"bootprobe report is writing the same folder (its lock is held).\n"
"\n"
"Examples:\n"
"  bootprobe report results/20261203-092357-kill-policy\n"
"    mode         ok  boot time (s)           95% CI  SIGKILL  failed probes  bound\n"
"    killable    3/3          9.281   9.007 .. 9.896      3/3        3 (3/3)    0/1\n"
"    unkillable  3/3          8.729   8.689 .. 9.807      3/3        0 (0/3)    1/1\n"
"    grace       3/3          8.677   8.661 .. 9.252      3/3        0 (0/3)    1/1\n"
"    async       3/3          9.476   8.952 .. 9.712      3/3        0 (0/3)    1/1\n"
"    udev-180    3/3          9.349  9.054 .. 10.880      0/3        0 (0/3)    1/1\n"
"    report: results/20261203-092357-kill-policy/report/report.html\n"
"  bootprobe report --quiet results/RUN\n"
"  bootprobe report --json results/last | jq '.headline, .comparisons'\n";

int cmd_report(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' }, { "no-charts", no_argument, NULL, 'c' },
		{ "no-traces", no_argument, NULL, 't' }, { "quiet", no_argument, NULL, 'q' },
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	struct report_opts ro = { .charts = true, .traces = true };
	struct run_data *r;
	bool json = false, quiet = false;
	char *dir;
	int c, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:qjh", opts, NULL)) != -1) {
		switch (c) {
		case 'o': ro.out = optarg; break;
		case 'c': ro.charts = false; break;
		case 't': ro.traces = false; break;
		case 'q': quiet = true; break;
		case 'j': json = true; break;
		case 'h': fputs(report_usage, stdout); return 0;
		case ':': return usage_error("report", "option needs a value:", argv[optind - 1]);
		default: return usage_error("report", "unknown option", argv[optind - 1]);
		}
	}
	if (optind != argc - 1)
		return usage_error("report", "want exactly one RUN folder", NULL);
	r = run_data__open(argv[optind], "report");
	if (!r)
		return 2;
	run_data__analyze(r);
	rc = report__write(r, &ro);
	if (rc == REPORT_LOCKED) {
		run_data__free(r);
		return REPORT_LOCKED;
	}
	rc = rc ? 1 : 0;
	dir = report__dir(r, &ro);
	if (json) {
		json_object *s = run_data__summary_json(r);

		jprint(s);
		json_object_put(s);
	} else {
		if (!quiet)
			report__headline(r, dir, stdout);
		if (r->warnings.n)
			fprintf(stderr, "bootprobe report: %s: %zu input warning%s, see %s/report.md\n",
				r->dir, r->warnings.n, r->warnings.n == 1 ? "" : "s", dir);
	}
	free(dir);
	run_data__free(r);
	return rc;
}

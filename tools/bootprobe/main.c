// SPDX-License-Identifier: GPL-2.0
/* bootprobe: measure boot-time driver probe latency, diagnose killed probes. */
#include "commands.h"
#include "runner.h"
#include "util.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>


static void usage(FILE *out)
{
	fputs(
"Usage: bootprobe COMMAND [OPTIONS]\n"
"\n"
"Commands:\n"
"  run       boot the guest N times per mode and keep every boot's evidence\n"
"  report    analyse a run: statistics, comparisons, charts, report.md/html\n"
"  explain   why a probe was killed: causal chains of one boot or a run\n"
"  timeline  one boot in time order: probes, module loads, kthread waits, kills\n"
"  compare   two runs side by side; --fail-if-slower PCT as a CI gate\n"
"  import    a run folder from the boot logs of machines with the collector installed\n"
"  merge     join the parts of a run sharded over machines (run --shard K/N)\n"
"\n"
"Run 'bootprobe COMMAND --help' for a command's options and examples.\n"
"\n"
"Examples:\n"
"  bootprobe run --boots 10 --mode sync --mode async\n"
"  bootprobe run --scenario bench/scenarios/default.conf\n"
"  bootprobe report results/RUN\n"
"  bootprobe explain results/RUN/boots/killable-001\n"
"  bootprobe compare --fail-if-slower 5 results/A results/B\n",
		out);
}

static int cmd_run(int argc, char **argv)
{
	struct run_opts opts;
	struct run run = { 0 };
	char err[512];
	int rc, bad = 0;

	rc = run_opts__parse(&opts, argc, argv, err, sizeof(err));
	if (rc) {
		if (rc > 0)
			run__usage(stdout);
		else
			fprintf(stderr, "bootprobe run: %s\n", err);
		run_opts__free(&opts);
		return rc > 0 ? 0 : 2;
	}
	run__plan(&run, &opts);
	if (opts.dry_run) {
		run__print_plan(&run, stdout);
		run__free(&run);
		run_opts__free(&opts);
		return 0;
	}
	rc = run__execute(&run);
	if (opts.json && run.dir) {
		char *path = xasprintf("%s/manifest.json", run.dir);
		char *text = read_file(path, NULL);

		if (text)
			fputs(text, stdout);
		free(text);
		free(path);
	}
	for (int i = 0; i < run.nr_boots; i++)
		bad += run.boots[i].finished && run.boots[i].outcome != OUTCOME_OK;
	if (run.interrupted)
		rc = 130;
	else if (rc)
		rc = 1;
	else
		rc = bad ? 1 : 0;
	run__free(&run);
	run_opts__free(&opts);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "explain"))
		return cmd_explain(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "timeline"))
		return cmd_timeline(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "import"))
		return cmd_import(argc - 1, argv + 1);
	fprintf(stderr, "bootprobe: unknown command '%s' (see bootprobe --help)\n", argv[1]);
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/* bootprobe: measure boot-time driver probe latency, diagnose killed probes. */
#include "boot.h"
#include "commands.h"

#include <stdio.h>
#include <string.h>

/* The subcommands: name, handler, the line --help shows. */
static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *what;
} commands[] = {
	{ "run", cmd_run, "boot the guest N times per mode and keep every boot's evidence" },
	{ "report", cmd_report, "analyse a run: statistics, comparisons, charts, report.md/html" },
	{ "explain", cmd_explain, "why a probe was killed: causal chains of one boot or a run" },
	{ "timeline", cmd_timeline,
	  "one boot in time order: probes, module loads, kthread waits, kills" },
	{ "compare", cmd_compare, "two runs side by side; --fail-if-slower PCT as a CI gate" },
	{ "import", cmd_import,
	  "a run folder from the boot logs of machines with the collector installed" },
	{ "merge", cmd_merge, "join the parts of a run sharded over machines (run --shard K/N)" },
};

static void usage(FILE *out)
{
	fputs("Usage: bootprobe COMMAND [OPTIONS]\n\nCommands:\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].what);
	fputs(
"\n"
"Run 'bootprobe COMMAND --help' for a command's options and examples.\n"
"\n"
"Exit status, every command: 0 done; 1 done, and what it found is a failure\n"
"(a boot not ok, a report not written, compare slower than its gate); 2 a\n"
"bad argument or input (an unknown option, a RUN or BOOT folder that is\n"
"missing or has no usable boot); compare 3, a mode it could not judge;\n"
"run 130, interrupted.\n"
"\n"
"Environment: BOOTPROBE_MAX_BOOT_MEM (default 512M) and BOOTPROBE_MAX_RUN_MEM\n"
"(default 1G), the memory a boot and a run's boots may take as they are read:\n"
"a boot past its budget is left out, named; a run past its budget stops (2).\n"
"\n"
"Examples:\n"
"  bootprobe run --boots 10 --mode sync --mode async\n"
"  bootprobe run --scenario bench/scenarios/default.conf\n"
"  bootprobe report results/RUN\n"
"  bootprobe explain results/RUN/boots/killable-001\n"
"  bootprobe compare --fail-if-slower 5 results/A results/B\n",
		out);
}

int main(int argc, char **argv)
{
	char err[256];

	/* The memory budgets from the environment: a value that is no size is a bad argument. */
	if (mem_budget__init(err, sizeof(err))) {
		fprintf(stderr, "bootprobe: %s\n", err);
		return 2;
	}
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "bootprobe: unknown command '%s' (see bootprobe --help)\n", argv[1]);
	return 2;
}

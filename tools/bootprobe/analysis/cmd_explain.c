// SPDX-License-Identifier: GPL-2.0
/* `bootprobe explain`: why probes were killed, for a boot or every boot of a run. */
#define _GNU_SOURCE
#include "commands.h"
#include "explain.h"
#include "jsonio.h"
#include "rundata.h"

#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char explain_usage[] =
"Usage: bootprobe explain [--json] BOOT...\n"
"\n"
"For one boot folder (RUN/boots/MODE-NNN), or every boot of a RUN folder:\n"
"each SIGKILL that hit a task loading a module or probing, as a causal chain\n"
"(who sent it, when, what the victim was doing and for how long, what\n"
"kthread_create and the probe returned, whether the device is bound), the\n"
"victim's kernel stack, every failed probe, and every driver at risk: probe\n"
"time from one third of udev's event timeout (udevd's warning point).\n"
"udevd kills at its event timeout up to systemd 255, from 256 10 s after it\n"
"(systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=N changes the 10 s); explain\n"
"uses the boot's (udevd's version from boot.json or its log, else unknown).\n"
"A boot whose header, trailer or probe spans had a record refused is not\n"
"explained: \"left out: DIR: WHY\" on stderr (alone, it exits 2); one with\n"
"other records refused is, after \"kept, incomplete: DIR: WHY\" on stderr.\n"
"A bad argument, or a folder that is not a boot or run, exits 2.\n"
"\n"
"Examples:\n"
"  bootprobe explain results/RUN/boots/killable-001\n"
"  bootprobe explain --json results/RUN\n";

/*
 * A boot with records refused, named on stderr: left out (not explained:
 * its header, trailer or probe spans are unusable, and every chain stands
 * on them) or kept, incomplete.  True if left out.
 */
static bool explain__left_out(const struct boot_data *b)
{
	char *why = boot_data__refusals(b);

	if (why)
		fprintf(stderr, "bootprobe explain: %s: %s: %s\n",
			boot_data__unusable(b) ? "left out" : "kept, incomplete", b->dir, why);
	free(why);
	return boot_data__unusable(b);
}

static int explain_one(const char *dir, bool json, json_object *arr)
{
	char err[512];
	struct boot_data *b = boot_data__load(dir, err, sizeof(err));

	if (!b) {
		fprintf(stderr, "bootprobe explain: %s\n", err);
		return 2;
	}
	if (explain__left_out(b)) {
		boot_data__free(b);
		return 2;
	}
	if (json)
		json_object_array_add(arr, boot__explain_json(b));
	else
		boot__explain(b, stdout);
	boot_data__free(b);
	return 0;
}

int cmd_explain(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	json_object *arr = json_object_new_array();
	bool json = false;
	int c, rc = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(explain_usage, stdout);
			json_object_put(arr);
			return 0;
		}
		if (c != 'j') {
			json_object_put(arr);
			return usage_error("explain", "unknown option", argv[optind - 1]);
		}
		json = true;
	}
	if (optind == argc) {
		json_object_put(arr);
		return usage_error("explain", "want a BOOT or RUN folder", NULL);
	}
	for (int i = optind; i < argc; i++) {
		char *boots = xasprintf("%s/boots", argv[i]);

		if (path_exists(boots)) {
			struct run_data *r = run_data__open(argv[i], "explain");

			if (!r)
				rc = 2;
			else
				run_data__print_verdicts(r, stderr, "bootprobe explain: ", 0);
			for (int k = 0; r && k < r->nr_boots; k++) {
				if (json)
					json_object_array_add(arr, boot__explain_json(r->boots[k]));
				else {
					boot__explain(r->boots[k], stdout);
					putchar('\n');
				}
			}
			run_data__free(r);
		} else {
			rc = explain_one(argv[i], json, arr) ?: rc;
		}
		free(boots);
	}
	if (json)
		jprint(arr);
	json_object_put(arr);
	return rc;
}

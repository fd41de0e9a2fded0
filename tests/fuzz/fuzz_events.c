// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the event-stream and console parsers, then the analysis
 * on top, and what the report's first tables ask of a boot (slowest.h: its
 * attachments hold the critical chain that sd_chain__parse reads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "explain.h"
#include "boot.h"
#include "slowest.h"

/* What report.md's first tables and the timeline read of @b. */
static void first_tables(const struct boot_data *b)
{
	struct milestone_at ms[MS_COUNT];
	struct chain_device c[CHAIN_DEVICES_MAX];
	char cause[256];
	int n, *order = boot__probes_by_duration(b, &n), before[3];

	boot__milestones(b, ms);
	for (int k = 0; k < MS_COUNT; k++)
		boot__probes_before(b, ms[k].s, before, 3);
	for (int i = 0; i < n; i++)
		probe_span__cause(b, &b->probes[order[i]], cause, sizeof(cause));
	boot__chain_devices(b, c);
	free(order);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1);
	struct boot_data *b = boot_data__new("fuzz");
	struct boot_metrics m;
	FILE *null = fopen("/dev/null", "w");

	memcpy(text, data, size);
	text[size] = '\0';
	boot_data__parse_events(b, text, size, "fuzz.jsonl");
	boot_data__parse_console(b, text, "fuzz.log");
	boot__metrics(b, &m);
	first_tables(b);
	if (null) {
		boot__explain(b, null);
		fclose(null);
	}
	boot_data__free(b);
	free(text);
	return 0;
}

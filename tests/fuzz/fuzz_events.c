// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: the event-stream and console parsers, then the analysis on top. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "explain.h"
#include "boot.h"

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
	if (null) {
		boot__explain(b, null);
		fclose(null);
	}
	boot_data__free(b);
	free(text);
	return 0;
}

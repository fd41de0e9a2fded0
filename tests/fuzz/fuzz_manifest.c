// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a run folder's manifest.json, read as `bootprobe
 * report` reads it (run_data__read_manifest(), which run_data__load()
 * calls), then the per-mode analysis and the summary over one empty boot
 * per folder it lists, in the modes it names.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "rundata.h"

/* The folder named is never there: a manifest with no list reads no boots. */
#define RUN_DIR "/nonexistent/bootprobe-fuzz-run"
#define MAX_BOOTS 16

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	char *text = malloc(size + 1), err[512];
	struct run_data *r = calloc(1, sizeof(*r));
	struct strv dirs = { 0 };
	struct json_object *o;
	FILE *null = fopen("/dev/null", "w");

	memcpy(text, data, size);
	text[size] = '\0';
	r->dir = strdup(RUN_DIR);
	r->run_id = strdup("fuzz");
	run_data__read_manifest(r, text, size, &dirs, err, sizeof(err));
	r->boots = calloc(MAX_BOOTS, sizeof(*r->boots));
	for (size_t i = 0; i < dirs.n && i < MAX_BOOTS; i++) {
		struct boot_data *b = boot_data__new(dirs.v[i]);

		if (r->mode_names.n) {
			free(b->mode);
			b->mode = strdup(r->mode_names.v[i % r->mode_names.n]);
		}
		r->boots[r->nr_boots++] = b;
	}
	run_data__analyze(r);
	run_data__baseline(r);
	o = run_data__summary_json(r);
	json_object_to_json_string(o);
	json_object_put(o);
	if (null) {
		report__headline(r, RUN_DIR "/report", null);
		fclose(null);
	}
	strv__free(&dirs);
	run_data__free(r);
	free(text);
	return 0;
}

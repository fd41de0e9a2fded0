/* SPDX-License-Identifier: GPL-2.0 */
/*
 * For the results format's tests: docs/results.md's key tables, the keys
 * a file has, and the three writers run through their own entry points.
 */
#ifndef BOOTPROBE_TEST_RESULTS_LIB_H
#define BOOTPROBE_TEST_RESULTS_LIB_H

#include "commands.h"
#include "jsonio.h"
#include "runner.h"
#include "util.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DOC "docs/results.md"

static char *kernel, *initrd;

/* The kernel and initramfs a run is planned with, in @tmpdir. */
static void results_lib__init(const char *tmpdir)
{
	kernel = xasprintf("%s/bzImage", tmpdir);
	initrd = xasprintf("%s/initrd", tmpdir);
	write_file_atomic(kernel, "k", 1);
	write_file_atomic(initrd, "i", 1);
}

static void results_lib__free(void)
{
	free(kernel);
	free(initrd);
}

/* ---- the documented keys ----------------------------------------------------------- */

/* The keys of DOC's table under "## @file": its rows' first cells, `key`. */
static void doc_keys(const char *file, struct strv *keys)
{
	char *text = read_file(DOC, NULL), *save = NULL, *head = xasprintf("## %s", file);
	bool in = false;

	for (char *l = text ? strtok_r(text, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
		char key[128];

		if (!strncmp(l, "## ", 3))
			in = !strcmp(l, head);
		else if (in && sscanf(l, "| `%127[^`]` |", key) == 1)
			strv__push(keys, key);
	}
	free(head);
	free(text);
}

/*
 * Every key of @o as a path ("qemu_exit.code", "modes[].name"): objects and
 * arrays of objects are walked, except image_info (image.json's, as it is).
 */
static void json_keys(struct json_object *o, const char *prefix, struct strv *keys)
{
	if (json_object_is_type(o, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			json_keys(json_object_array_get_idx(o, i), prefix, keys);
		return;
	}
	if (!json_object_is_type(o, json_type_object))
		return;
	json_object_object_foreach(o, key, val) {
		char *path = *prefix ? xasprintf("%s.%s", prefix, key) : xstrdup(key);

		if (!strv__contains(keys, path))
			strv__push(keys, path);
		if (val && json_object_is_type(val, json_type_array)) {
			char *arr = xasprintf("%s[]", path);

			json_keys(val, arr, keys);
			free(arr);
		} else if (val && strcmp(path, "image_info")) {
			json_keys(val, path, keys);
		}
		free(path);
	}
}

/* ---- the three writers ------------------------------------------------------------- */

static const char *parse(struct run_opts *o, const char *first, ...)
{
	static char err[512];
	char *argv[32] = { "run" };
	int argc = 1;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return run_opts__parse(o, argc, argv, err, sizeof(err)) < 0 ? err : NULL;
}

/*
 * A run (shard @shard of 2, or the whole with NULL) in RESULTS/FOLDER as the
 * runner leaves it: every boot finished, its boot.json and the manifest.
 */
static void write_run(const char *results, const char *shard)
{
	struct run_opts o;
	struct run run = { 0 };
	const char *err = parse(&o, "--kernel", kernel, "--initrd", initrd, "-n", "2",
				"--run-id", "paths", "--results", results,
				shard ? "--shard" : NULL, shard, NULL);

	if (err)
		printf("# run options: %s\n", err);
	run__plan(&run, &o);
	run.id = xstrdup("paths");
	run.folder = o.shard_n ? xasprintf("paths.shard-%ld-of-%ld", o.shard_k, o.shard_n)
			       : xstrdup("paths");
	run.dir = xasprintf("%s/%s", results, run.folder);
	run.accel = "tcg";
	run.qemu_version = xstrdup("QEMU emulator version 7.2.22");
	run.nr_images = 1;
	run.images[0].name = "lab";
	run.images[0].build_hash = xstrdup("8d1f303c76b92667");
	run.images[0].guest_args = xstrdup("bootprobe.monitor=1");
	snprintf(run.started_at, sizeof(run.started_at), "2026-12-05T01:00:00Z");
	snprintf(run.ended_at, sizeof(run.ended_at), "2026-12-05T01:30:00Z");
	for (int i = 0; i < run.nr_boots; i++) {
		struct boot *b = &run.boots[i];

		b->dir = xasprintf("%s/boots/%s", run.dir, b->name);
		mkdir_p(b->dir);
		b->finished = true;
		b->outcome = i % 2 ? OUTCOME_TIMEOUT : OUTCOME_OK;
		b->wall_s = 9.25 + i;
		b->qe.exited = !(i % 2);
		b->qe.status = i % 2 ? 9 : 0;
		b->qe.timed_out = i % 2;
		results__write_boot(&run, b, "qemu -x", "driver_async_probe=*",
				    "console=ttyS0 udev.event_timeout=3");
		run.nr_finished++;
	}
	results__write_manifest(&run);
	run__free(&run);
	run_opts__free(&o);
}

static int call(int (*cmd)(int, char **), const char *first, ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && argc < 15; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	return cmd(argc, argv);
}

/* A collector's log of a recorded boot, its attachments before its trailer. */
static char *write_log(const char *tmpdir)
{
	char *events = read_file("tests/data/boots/sigterm/events.jsonl", NULL);
	char *trailer = events ? strstr(events, "{\"type\":\"trailer\"") : NULL;
	char *path = xasprintf("%s/machine.jsonl", tmpdir), *text;

	if (!trailer) {
		printf("# tests/data/boots/sigterm/events.jsonl: no trailer\n");
		free(events);
		return path;
	}
	text = xasprintf("%.*s"
		"{\"type\":\"attachment\",\"name\":\"uname-r.txt\",\"text\":\"6.1.0-57-amd64\\n\"}\n"
		"{\"type\":\"attachment\",\"name\":\"kernel-cmdline.txt\",\"text\":\"root=/dev/sda1\\n\"}\n"
		"{\"type\":\"attachment\",\"name\":\"dmi-product-name.txt\",\"text\":\"Test 3000\\n\"}\n"
		"%s", (int)(trailer - events), events, trailer);
	write_file_atomic(path, text, strlen(text));
	free(text);
	free(events);
	return path;
}

#endif

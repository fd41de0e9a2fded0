// SPDX-License-Identifier: GPL-2.0
/*
 * The results files as each path writes them and every reader reads them,
 * through the commands' own entry points: `run` (results__write_boot(),
 * results__write_manifest()), `merge` (cmd_merge()) and `import`
 * (cmd_import()) write files that carry the schema and only keys
 * docs/results.md describes; the analysis reads schema 0 files (those
 * committed under results/ and tests/data/) and refuses an unknown schema
 * with one line naming the file.
 */
#define _GNU_SOURCE
#include "check.h"
#include "results_lib.h"
#include "commands.h"
#include "jsonio.h"
#include "rundata.h"
#include "runner.h"
#include "util.h"

#include <glob.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/bootprobe-test-results-paths.XXXXXX";

/* @path's keys are all in DOC's table for @file, and it says schema 1. */
static void check_file(const char *what, const char *path, const char *file)
{
	const char *why = NULL;
	struct json_object *o = jread(path, &why);
	struct strv doc = { 0 }, got = { 0 };
	size_t undocumented = 0;

	doc_keys(file, &doc);
	if (o)
		json_keys(o, "", &got);
	for (size_t i = 0; i < got.n; i++)
		if (!strv__contains(&doc, got.v[i])) {
			printf("#   %s: '%s' is not in %s's table\n", path, got.v[i], file);
			undocumented++;
		}
	CHECK(o && doc.n && !undocumented, "%s: every key of its %s is in " DOC " (%zu keys)",
	      what, file, got.n);
	CHECK(o && jint(o, "schema", -1) == 1, "%s: its %s says \"schema\": 1", what, file);
	json_object_put(o);
	strv__free(&doc);
	strv__free(&got);
}

static void writers(void)
{
	char *res = xasprintf("%s/res", tmpdir), *p1, *p2, *merged, *log, *path;
	int rc;

	write_run(res, NULL);
	path = xasprintf("%s/paths/manifest.json", res);
	check_file("run", path, "manifest.json");
	free(path);
	path = xasprintf("%s/paths/boots/async-001/boot.json", res);
	check_file("run", path, "boot.json");
	free(path);

	write_run(res, "1/2");
	write_run(res, "2/2");
	p1 = xasprintf("%s/paths.shard-1-of-2", res);
	p2 = xasprintf("%s/paths.shard-2-of-2", res);
	merged = xasprintf("%s/merged", res);
	rc = call(cmd_merge, "merge", "--quiet", "--out", merged, p2, p1, NULL);
	CHECK(rc == 0, "merge joins the runner's two shards (exit %d)", rc);
	path = xasprintf("%s/manifest.json", merged);
	check_file("merge", path, "manifest.json");
	free(path);

	log = write_log(tmpdir);
	rc = call(cmd_import, "import", "--quiet", "--results", res, "--run-id", "imported", log,
		  NULL);
	CHECK(rc == 0, "import takes a collector's log (exit %d)", rc);
	path = xasprintf("%s/imported/manifest.json", res);
	check_file("import", path, "manifest.json");
	free(path);
	path = xasprintf("%s/imported/boots/6.1.0-57-amd64-001/boot.json", res);
	check_file("import", path, "boot.json");
	free(path);
	free(log);
	free(merged);
	free(p2);
	free(p1);
	free(res);
}

/* ---- the readers: schema 0 read, an unknown one refused ----------------------------- */

/* A run folder of @manifest and one boot, "sync-001", of @boot_json. */
static char *write_folder(const char *name, const char *manifest, const char *boot_json)
{
	char *run = xasprintf("%s/%s", tmpdir, name), *path;

	path = xasprintf("%s/boots/sync-001", run);
	mkdir_p(path);
	free(path);
	path = xasprintf("%s/manifest.json", run);
	write_file_atomic(path, manifest, strlen(manifest));
	free(path);
	path = xasprintf("%s/boots/sync-001/boot.json", run);
	write_file_atomic(path, boot_json, strlen(boot_json));
	free(path);
	return run;
}

static const char man_v0[] =
	"{\"run_id\":\"old\",\"time_scale\":0.5,\"modes\":[{\"name\":\"sync\","
	"\"kernel_args\":\"udev.event_timeout=3\"}],"
	"\"boots\":[{\"boot\":\"sync-001\",\"mode\":\"sync\",\"dir\":\"boots/sync-001\"}]}";
static const char boot_v0[] =
	"{\"boot\":\"sync-001\",\"mode\":\"sync\",\"index\":1,\"outcome\":\"ok\","
	"\"wall_s\":9.872,\"kernel_cmdline\":\"udev.event_timeout=3\"}";

/* A folder of the committed manifest @path, each boot it lists of @boot_json. */
static bool committed_manifest_read(const char *path, const char *boot_json, int n)
{
	const char *why = NULL;
	struct json_object *man = jread(path, &why), *boots = jarr(man, "boots");
	char *text = read_file(path, NULL), *name = xasprintf("committed-%d", n), err[512] = "";
	char *run = write_folder(name, text ? text : "", boot_json);
	struct run_data *r;
	bool ok;

	for (size_t i = 0; i < jlen(boots); i++) {
		const char *dir = jstr(json_object_array_get_idx(boots, i), "dir");
		char *bdir = xasprintf("%s/%s", run, dir), *bj = xasprintf("%s/boot.json", bdir);

		mkdir_p(bdir);
		write_file_atomic(bj, boot_json, strlen(boot_json));
		free(bj);
		free(bdir);
	}
	r = run_data__load(run, err, sizeof(err));
	ok = r && jlen(boots) && (size_t)r->nr_boots == jlen(boots) &&
	     r->mode_names.n == jlen(jarr(man, "modes"));
	if (!ok)
		printf("#   %s: %s\n", path, r ? "boots or modes missed" : err);
	run_data__free(r);
	json_object_put(man);
	free(run);
	free(name);
	free(text);
	return ok;
}

static void schema_zero(void)
{
	char *run = write_folder("v0", man_v0, boot_v0), err[512] = "";
	struct run_data *r = run_data__load(run, err, sizeof(err));
	glob_t g = { 0 };
	int read = 0;

	CHECK(r && r->nr_boots == 1 && r->mode_names.n == 1 && r->time_scale == 0.5 &&
	      !strcmp(r->boots[0]->outcome, "ok") && r->boots[0]->wall_s == 9.872,
	      "a manifest and a boot.json without a schema (0) are read whole");
	if (!r)
		printf("#   %s\n", err);
	run_data__free(r);
	free(run);
	glob("tests/data/manifest/*.json", 0, NULL, &g);
	glob("results/*/manifest.json", GLOB_APPEND, NULL, &g);
	for (size_t i = 0; i < g.gl_pathc; i++)
		read += committed_manifest_read(g.gl_pathv[i], boot_v0, (int)i);
	CHECK(g.gl_pathc >= 10 && read == (int)g.gl_pathc, "every committed manifest "
	      "(tests/data/manifest, results/*) is read with the boots and modes it lists "
	      "(%d of %zu)", read, g.gl_pathc);
	globfree(&g);
	read = 0;
	glob("tests/data/bootjson/*.json", 0, NULL, &g);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *text = read_file(g.gl_pathv[i], NULL), *name = xasprintf("bootjson-%zu", i);
		char *dir = write_folder(name, man_v0, text ? text : "");
		char *bdir = xasprintf("%s/boots/sync-001", dir);
		struct boot_data *b = boot_data__load(bdir, err, sizeof(err));
		struct json_object *o = json_tokener_parse(text ? text : "");

		if (b && !strcmp(b->mode, jstr(o, "mode")) && !strcmp(b->outcome, jstr(o, "outcome")))
			read++;
		else
			printf("#   %s: %s\n", g.gl_pathv[i], b ? "mode or outcome missed" : err);
		json_object_put(o);
		boot_data__free(b);
		free(bdir);
		free(dir);
		free(name);
		free(text);
	}
	CHECK(g.gl_pathc >= 4 && read == (int)g.gl_pathc, "every committed boot.json "
	      "(tests/data/bootjson, schema 0) is read (%d of %zu)", read, g.gl_pathc);
	globfree(&g);
}

static void schema_unknown(void)
{
	char *run = write_folder("v7", "{\"schema\":7,\"run_id\":\"new\",\"boots\":[{"
				 "\"boot\":\"sync-001\",\"dir\":\"boots/sync-001\"}]}", boot_v0);
	char *want = xasprintf("%s/manifest.json: schema 7: this bootprobe reads schemas 0 to 1",
			       run), err[512] = "", *bdir, *part, *out;
	struct run_data *r = run_data__load(run, err, sizeof(err));
	struct boot_data *b;
	int rc;

	CHECK(!r, "a manifest of schema 7 is refused: the run is not read");
	CHECK_STR(err, want, "with one line naming the file and the schemas read");
	run_data__free(r);
	free(want);
	free(run);

	run = write_folder("bv7", man_v0, "{\"schema\":7,\"boot\":\"sync-001\",\"mode\":\"sync\"}");
	bdir = xasprintf("%s/boots/sync-001", run);
	want = xasprintf("%s/boot.json: schema 7: this bootprobe reads schemas 0 to 1", bdir);
	err[0] = '\0';
	b = boot_data__load(bdir, err, sizeof(err));
	CHECK(!b, "a boot.json of schema 7 is refused");
	CHECK_STR(err, want, "with one line naming the file and the schemas read");
	boot_data__free(b);
	r = run_data__load(run, err, sizeof(err));
	CHECK(!r || (r->nr_boots == 0 && r->nr_damaged == 1),
	      "a run of that boot only leaves it out");
	run_data__free(r);
	free(want);
	free(bdir);
	free(run);

	/* A merge part of a newer bootprobe: refused, nothing written. */
	part = xasprintf("%s/res/paths.shard-1-of-2", tmpdir);
	run = xasprintf("%s/manifest.json", part);
	{
		char *text = read_file(run, NULL), *at = text ? strstr(text, "\"schema\":1") : NULL;

		if (at)
			at[9] = '7';
		if (text)
			write_file_atomic(run, text, strlen(text));
		free(text);
	}
	out = xasprintf("%s/res/merged-v7", tmpdir);
	rc = call(cmd_merge, "merge", "--quiet", "--out", out, part, NULL);
	CHECK(rc == 2 && !path_exists(out),
	      "merge refuses a part of schema 7 (exit %d), writing nothing", rc);
	free(out);
	free(run);
	free(part);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	results_lib__init(tmpdir);
	writers();
	schema_zero();
	schema_unknown();
	{
		char *cmd = xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	results_lib__free();
	CHECK_DONE();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The results module (resultfiles.h): docs/results.md's tables are the keys
 * its writer writes for a full boot.json and manifest.json, no more and no
 * fewer; what `run`, `merge` and `import` write is read back by its reader
 * and written again the same, byte for byte; schemas are read or refused.
 */
#define _GNU_SOURCE
#include "check.h"
#include "resultfiles.h"
#include "results_lib.h"

#include <math.h>

static char tmpdir[] = "/tmp/bootprobe-test-resultfiles.XXXXXX";

/* ---- docs/results.md against the writer --------------------------------------- */

/* @doc and @got hold the same keys; those that differ are printed. */
static bool same_keys(const char *file, const struct strv *doc, const struct strv *got)
{
	size_t diff = 0;

	for (size_t i = 0; i < doc->n; i++)
		if (!strv__contains(got, doc->v[i])) {
			printf("#   %s: '%s' is documented, never written\n", file, doc->v[i]);
			diff++;
		}
	for (size_t i = 0; i < got->n; i++)
		if (!strv__contains(doc, got->v[i])) {
			printf("#   %s: '%s' is written, not documented\n", file, got->v[i]);
			diff++;
		}
	return doc->n && !diff;
}

/* A boot.json with every key set; @exited picks qemu_exit's code or signal. */
static void full_boot(struct boot_file *f, bool exited)
{
	boot_file__init(f);
	f->boot = "sync-001";
	f->mode = "sync";
	f->index = 1;
	f->outcome = outcome__name(OUTCOME_OK);
	f->has_qemu_exit = true;
	f->qemu_exit = (struct qemu_exit){ .exited = exited, .status = exited ? 0 : 9 };
	f->wall_s = 9.5;
	f->console_last_write_s = 9.25;
	f->has_event_port = true;
	f->event_port = (struct port_counts){ .frames = 23, .samples = 19 };
	f->started_at = "2026-12-05T01:00:00Z";
	f->accel = "tcg";
	f->host = "alpha";
	f->kernel_cmdline = "udev.event_timeout=3";
	f->has_settings = true;
	f->udev_event_timeout_s = 3;
	f->udev_timeout_signal = "SIGTERM";
	f->kill_policy = "killable";
	f->image = "debian-12";
	f->kernel_release = "6.1.0-57-amd64";
	f->kernel_package = "6.1.192-3";
	f->initrd_generator = "initramfs-tools 0.142+deb12u3";
	f->udev_version = "252.39-1~deb12u2";
	f->machine = "Test 3000";
	f->imported_from = "a.jsonl";
	f->qemu_cmdline = "qemu -x";
	f->devices = 1;
}

static void full_host(struct host_info *h)
{
	*h = (struct host_info){ .hostname = "alpha", .kernel = "6.18", .machine = "x86_64",
				 .cpus = 2, .memory_mb = 2048 };
}

/* A manifest with every key set (a shard's and a merged run's keys together). */
static void full_manifest(struct manifest *m, struct manifest_mode *mode,
			  struct manifest_boot *boot, struct manifest_part *part)
{
	manifest__init(m);
	m->run_id = "full";
	m->scenario = "default";
	m->scenario_file = "bench/scenarios/default.conf";
	m->time_scale = 0.1;
	m->controller = "mptsas1068";
	m->image = "debian";
	m->root_image = "build/debian/root.img";
	m->root_writable = 0;
	m->image_info = json_tokener_parse("{\"image\":\"debian-12\",\"packages\":{}}");
	m->baseline = "sync";
	m->has_host = true;
	full_host(&m->host);
	m->qemu_version = "QEMU emulator version 7.2.22";
	m->accel_requested = "auto";
	m->accel_used = "tcg";
	m->accel_reason = "auto: no KVM";
	m->kernel = "build/guest/bzImage";
	m->initrd = "build/guest/initramfs.cpio";
	m->kernel_build_hash = "8d1f303c76b92667";
	m->guest_args = "bootprobe.monitor=1";
	m->boots_per_mode = 3;
	m->jobs = 2;
	m->jobs_from = "--jobs";
	m->timeout_s = 300;
	*mode = (struct manifest_mode){
		.name = "sync", .kernel_args = "", .udev_event_timeout_s = 3,
		.udev_conf_event_timeout_s = 4, .rules_event_timeout_s = 5,
		.udev_timeout_signal = "SIGTERM", .kill_policy = "grace", .grace_ms = 300,
		.devices = 1, .image = "debian-13",
	};
	m->modes = mode;
	m->nr_modes = 1;
	m->boots_planned = 1;
	m->plan_hash = "0123456789abcdef";
	m->plan_boots = 1;
	m->has_shard = true;
	m->shard = (struct manifest_shard){ .k = 1, .n = 1, .first = 0, .end = 1,
					    .folder = "full.shard-1-of-1" };
	*boot = (struct manifest_boot){ .boot = "sync-001", .mode = "sync", .dir = "boots/sync-001",
					.outcome = "ok", .wall_s = 9.5, .host = "alpha" };
	m->boots = boot;
	m->nr_boots = 1;
	*part = (struct manifest_part){ .folder = "full.shard-1-of-1", .k = 1, .n = 1,
					.hostname = "alpha", .has_host = true, .jobs = 2,
					.started_at = "2026-12-05T01:00:00Z",
					.ended_at = "2026-12-05T01:30:00Z", .boots = 1 };
	full_host(&part->host);
	m->parts = part;
	m->nr_parts = 1;
	m->started_at = "2026-12-05T01:00:00Z";
	m->ended_at = "2026-12-05T01:30:00Z";
	m->interrupted = 0;
	m->has_until = true;
	m->until = (struct manifest_until){ .ci_width_s = 0.5, .first_check_after = 3,
					    .max_boots_per_mode = 30, .ended = "converged" };
}

static void docs_are_the_writer(void)
{
	struct strv doc = { 0 }, got = { 0 };
	struct manifest m;
	struct manifest_mode mode;
	struct manifest_boot boot;
	struct manifest_part part;
	struct boot_file f;
	struct json_object *o;

	doc_keys("boot.json", &doc);
	for (int exited = 0; exited < 2; exited++) {
		full_boot(&f, exited);
		o = boot_file__json(&f);
		json_keys(o, "", &got);
		json_object_put(o);
	}
	CHECK(same_keys("boot.json", &doc, &got),
	      DOC "'s boot.json table is every key the writer writes (%zu keys)", doc.n);
	strv__free(&doc);
	strv__free(&got);

	doc_keys("manifest.json", &doc);
	full_manifest(&m, &mode, &boot, &part);
	o = manifest__json(&m);
	json_keys(o, "", &got);
	json_object_put(o);
	json_object_put(m.image_info);
	CHECK(same_keys("manifest.json", &doc, &got),
	      DOC "'s manifest.json table is every key the writer writes (%zu keys)", doc.n);
	strv__free(&doc);
	strv__free(&got);
}

/* ---- each path's files, read back and written again --------------------------- */

/* The text jwrite() gives @o. */
static char *as_written(struct json_object *o)
{
	return xasprintf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
}

/* @path read by the reader; written again, the same text.  The manifest stays in @m. */
static void manifest_round_trip(const char *what, const char *path, struct manifest *m)
{
	char err[512] = "", *text = read_file(path, NULL), *again = NULL;
	int ret = manifest__read(m, path, NULL, err, sizeof(err));
	struct json_object *o = ret ? NULL : manifest__json(m);

	if (o)
		again = as_written(o);
	CHECK(!ret && text && again && !strcmp(text, again),
	      "%s: its manifest.json, read by the reader and written again, is the same", what);
	if (ret)
		printf("#   %s\n", err);
	else if (text && again && strcmp(text, again))
		printf("#   written:\n%s#   again:\n%s", text, again);
	json_object_put(o);
	free(again);
	free(text);
}

static void boot_round_trip(const char *what, const char *path, struct boot_file *f)
{
	size_t len = 0;
	char err[512] = "", *text = read_file(path, &len), *again = NULL;
	int ret = text ? boot_file__parse(f, text, len, path, err, sizeof(err)) : -1;
	struct json_object *o = ret ? NULL : boot_file__json(f);

	if (o)
		again = as_written(o);
	CHECK(!ret && again && !strcmp(text, again),
	      "%s: its boot.json, read by the reader and written again, is the same", what);
	if (!ret && again && strcmp(text, again))
		printf("#   written:\n%s#   again:\n%s", text, again);
	json_object_put(o);
	free(again);
	free(text);
}

static const char *str(const char *s)
{
	return s ? s : "(none)";
}

static void run_path(const char *res)
{
	struct manifest m;
	struct boot_file f;
	char *path;

	write_run(res, NULL);
	path = xasprintf("%s/paths/manifest.json", res);
	manifest_round_trip("run", path, &m);
	CHECK(m.schema == 1 && m.nr_boots == 4 && m.nr_modes == 2 &&
	      !strcmp(str(m.boots[1].outcome), "timeout") && m.boots[1].wall_s == 10.25 &&
	      !strcmp(str(m.accel_used), "tcg") && !m.has_shard && m.has_host,
	      "run: the reader gives what the runner had: 4 boots, 2 modes, outcomes, times");
	manifest__free(&m);
	free(path);
	path = xasprintf("%s/paths/boots/async-001/boot.json", res);
	boot_round_trip("run", path, &f);
	CHECK(f.schema == 1 && f.index == 1 && !strcmp(str(f.outcome), "timeout") &&
	      f.has_qemu_exit && f.qemu_exit.timed_out && f.qemu_exit.status == 9 &&
	      f.has_settings && f.udev_event_timeout_s == 3,
	      "run: boot.json's outcome, QEMU's exit and the guest's settings read back");
	boot_file__free(&f);
	free(path);
}

static void merge_path(const char *res)
{
	char *p1 = xasprintf("%s/paths.shard-1-of-2", res), *p2 = xasprintf("%s/paths.shard-2-of-2", res);
	char *out = xasprintf("%s/merged", res), *path = xasprintf("%s/manifest.json", out);
	struct manifest m;
	int rc;

	write_run(res, "1/2");
	write_run(res, "2/2");
	rc = call(cmd_merge, "merge", "--quiet", "--out", out, p2, p1, NULL);
	CHECK(rc == 0, "merge joins the runner's two shards (exit %d)", rc);
	manifest_round_trip("merge", path, &m);
	CHECK(m.schema == 1 && m.nr_boots == 4 && m.nr_parts == 2 && !m.has_shard &&
	      !m.has_host && m.boots_planned == 4 && m.parts[0].k == 2 &&
	      !strcmp(str(m.boots[0].boot), "sync-001") && !strcmp(str(m.boots[3].boot), "async-002"),
	      "merge: the reader gives the whole plan's 4 boots in order, 2 parts, no shard");
	manifest__free(&m);
	free(path);
	free(out);
	free(p2);
	free(p1);
}

static void import_path(const char *res)
{
	char *log = write_log(tmpdir), *path;
	struct manifest m;
	struct boot_file f;
	int rc = call(cmd_import, "import", "--quiet", "--results", res, "--run-id", "imported",
		      log, NULL);

	CHECK(rc == 0, "import takes a collector's log (exit %d)", rc);
	path = xasprintf("%s/imported/manifest.json", res);
	manifest_round_trip("import", path, &m);
	CHECK(m.schema == 1 && m.nr_boots == 1 && m.nr_modes == 1 &&
	      !strcmp(str(m.boots[0].outcome), "ok") && !strcmp(str(m.modes[0].name),
								  "6.1.0-57-amd64"),
	      "import: the reader gives the boot, its outcome and its kernel's mode");
	manifest__free(&m);
	free(path);
	path = xasprintf("%s/imported/boots/6.1.0-57-amd64-001/boot.json", res);
	boot_round_trip("import", path, &f);
	CHECK(!strcmp(str(f.machine), "Test 3000") && !strcmp(str(f.kernel_cmdline), "root=/dev/sda1") &&
	      !f.has_settings && !f.has_qemu_exit && isnan(f.wall_s),
	      "import: boot.json's machine and command line read back, nothing a runner knows");
	boot_file__free(&f);
	free(path);
	free(log);
}

/* What made a Debian image's initrd goes into boot.json and reads back. */
static void initrd_generator(void)
{
	struct boot_file f, back;
	struct json_object *o;
	const char *text;
	char err[256];

	full_boot(&f, true);
	f.initrd_generator = "dracut 106-6";
	o = boot_file__json(&f);
	text = json_object_to_json_string(o);
	CHECK(!boot_file__parse(&back, text, strlen(text), "boot.json", err, sizeof(err)) &&
	      !strcmp(str(back.initrd_generator), "dracut 106-6"),
	      "boot.json's initrd_generator (dracut 106-6) reads back");
	CHECK(!strcmp(str(back.udev_version), "252.39-1~deb12u2"),
	      "boot.json's udev_version (252.39-1~deb12u2) reads back");
	boot_file__free(&back);
	json_object_put(o);
	boot_file__init(&f);
	o = boot_file__json(&f);
	CHECK(!json_object_object_get_ex(o, "initrd_generator", NULL),
	      "a boot without an image writes no initrd_generator (older files stay as they were)");
	json_object_put(o);
}

/* ---- schemas ------------------------------------------------------------------ */

static void schemas(void)
{
	static const struct {
		const char *json;
		int want;
		const char *err;
	} cases[] = {
		{ "{}", 0, "" },
		{ "{\"schema\":0}", 0, "" },
		{ "{\"schema\":1}", 1, "" },
		{ "{\"schema\":7}", -1, "RUN/manifest.json: schema 7: this bootprobe reads schemas 0 to 1" },
		{ "{\"schema\":-1}", -1, "RUN/manifest.json: schema -1: this bootprobe reads schemas 0 to 1" },
		{ "{\"schema\":\"1\"}", -1,
		  "RUN/manifest.json: schema '1' is no version: this bootprobe reads schemas 0 to 1" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct json_object *o = json_tokener_parse(cases[i].json);
		char err[256] = "";
		int got = results__schema(o, "RUN/manifest.json", err, sizeof(err));

		CHECK(got == cases[i].want && !strcmp(err, cases[i].err), "%s: schema %d%s%s",
		      cases[i].json, cases[i].want, *cases[i].err ? ", " : "", cases[i].err);
		if (strcmp(err, cases[i].err))
			printf("#   got %d '%s'\n", got, err);
		json_object_put(o);
	}
	CHECK(!strcmp(outcome__name(OUTCOME_OK), "ok") &&
	      !strcmp(outcome__name(OUTCOME_QEMU_ERROR), "qemu-error") &&
	      !strcmp(outcome__name(OUTCOME_INTERRUPTED), "interrupted"),
	      "outcome names are the documented ones");
}

int main(void)
{
	char *res;

	if (!mkdtemp(tmpdir)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	results_lib__init(tmpdir);
	res = xasprintf("%s/res", tmpdir);
	docs_are_the_writer();
	initrd_generator();
	run_path(res);
	merge_path(res);
	import_path(res);
	schemas();
	{
		char *cmd = xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	free(res);
	results_lib__free();
	CHECK_DONE();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Per-driver answers across modes, on a synthetic run whose every number is
 * known: 5 ok boots of sync (the baseline) and 5 of async, made from event
 * streams alone.  Per boot (probe times in ms):
 *   slowdrv    0000:00:05.0  sync 98..102 (median 100), async 3x (median 300)
 *   steady     virtio1       50, 51, 49, 50, 52 in both modes; named virtio4 in
 *                            async (renamed: one device bound per boot in both)
 *   twoprobe   two devices of 10 each: 20 per boot in both modes
 *   flaky      0000:00:03.0  bound in every sync boot; -4 in async boots 2 and 4
 *   virtio_blk virtio2       bound in every sync boot; no probe in async boot 5
 *   newdrv     virtio3       async only, bound in every boot
 *   BAD        hostile name  async boot 1 only, bound
 * Distinct drivers per boot: sync 5 (5 in all); async 7, 6, 6, 6, 5 -> 6 (7 in all).
 * The checks read report.md, report.html, drivers.csv and summary.json
 * (KEEP=1 keeps the report in /tmp/bootprobe-test-drivers.*).
 */
#include "check.h"
#include "jsonio.h"
#include "report.h"
#include "rundata.h"
#include "util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#define BOOTS 5
#define BAD "bad|name`,\"x"

static char tmpdir[] = "/tmp/bootprobe-test-drivers.XXXXXX";

/* One probe span of @ms milliseconds from @start_ms, its result @ret. */
static void probe(FILE *f, const char *driver, const char *device, double start_ms,
		  double ms, int ret)
{
	json_object *o = json_object_new_object();
	int64_t start = (int64_t)(start_ms * 1e6), end = (int64_t)((start_ms + ms) * 1e6);

	json_object_object_add(o, "type", json_object_new_string("probe"));
	json_object_object_add(o, "ts_ns", json_object_new_int64(end));
	json_object_object_add(o, "pid", json_object_new_int(44));
	json_object_object_add(o, "driver", json_object_new_string(driver));
	json_object_object_add(o, "device", json_object_new_string(device));
	json_object_object_add(o, "start_ns", json_object_new_int64(start));
	json_object_object_add(o, "end_ns", json_object_new_int64(end));
	json_object_object_add(o, "ret", json_object_new_int(ret));
	fprintf(f, "%s\n", json_object_to_json_string(o));
	json_object_put(o);
}

/* Boot @i (0-based) of @mode as an event stream. */
static char *events_of(const char *mode, int i)
{
	static const double slow[BOOTS] = { 100, 102, 98, 101, 99 };
	static const double steady[BOOTS] = { 50, 51, 49, 50, 52 };
	bool async = !strcmp(mode, "async");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fprintf(f, "{\"type\":\"header\",\"schema\":1}\n");
	probe(f, "slowdrv", "0000:00:05.0", 3000, slow[i] * (async ? 3 : 1), 0);
	probe(f, "steady", async ? "virtio4" : "virtio1", 3500, steady[i], 0);
	probe(f, "twoprobe", "0000:00:06.0", 3600, 10, 0);
	probe(f, "twoprobe", "0000:00:07.0", 3610, 10, 0);
	probe(f, "flaky", "0000:00:03.0", 3700, 5, async && (i == 1 || i == 3) ? -4 : 0);
	if (!async || i != 4)
		probe(f, "virtio_blk", "virtio2", 3800, 5, 0);
	if (async)
		probe(f, "newdrv", "virtio3", 3900, 5, 0);
	if (async && i == 0)
		probe(f, BAD, "dev|1", 4000, 5, 0);
	fprintf(f, "{\"type\":\"trailer\",\"events_written\":9,\"events_dropped\":0,\"bpf_drops\":0}\n");
	fclose(f);
	return text;
}

static struct boot_data *boot_of(const char *mode, int i)
{
	struct boot_data *b = boot_data__new(mode);
	char *text = events_of(mode, i);

	boot_data__parse_events(b, text, strlen(text), "events.jsonl");
	free(b->mode);
	free(b->outcome);
	free(b->name);
	b->mode = xstrdup(mode);
	b->outcome = xstrdup("ok");
	b->name = xasprintf("%s-%03d", mode, i + 1);
	free(text);
	return b;
}

/* 5 boots of sync, then 5 of @other (async: the table above; else as sync). */
static struct run_data *make_run(const char *other)
{
	struct run_data *r = xcalloc(1, sizeof(*r));

	r->dir = xstrdup(tmpdir);
	r->run_id = xstrdup("synthetic");
	r->boots = xcalloc(2 * BOOTS, sizeof(*r->boots));
	for (int i = 0; i < BOOTS; i++)
		r->boots[r->nr_boots++] = boot_of("sync", i);
	for (int i = 0; i < BOOTS; i++)
		r->boots[r->nr_boots++] = boot_of(other, i);
	run_data__analyze(r);
	return r;
}

static char *read_out(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text = read_file(path, NULL);

	free(path);
	return text;
}

static bool has(const char *text, const char *what)
{
	return text && strstr(text, what);
}

/* Whether a table line (one starting with '|') of @md holds @what. */
static bool table_has(const char *md, const char *what)
{
	for (const char *l = md; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *end = strchr(l, '\n'), *at = strstr(l, what);

		if (*l == '|' && at && (!end || at < end))
			return true;
	}
	return false;
}

/* The level-2 section of @md that opens with @heading, to the next one; the caller frees. */
static char *section(const char *md, const char *heading)
{
	const char *at = strstr(md, heading), *end;

	if (!at)
		return xstrdup("");
	end = strstr(at + strlen(heading), "\n## ");
	return end ? xasprintf("%.*s", (int)(end - at), at) : xstrdup(at);
}

static void check_md(const char *md)
{
	/* The tables of the driver comparison only (the first tables name every probe). */
	char *cmp = section(md, "## Driver probes compared with sync\n");

	CHECK(has(md, "**Drivers probed** (distinct drivers with a probe in user space; per ok "
		  "boot, median, and over all ok boots): sync 5 per boot, 5 in all; async 6 per "
		  "boot, 7 in all.\n"),
	      "report.md says: sync 5 drivers per boot and 5 in all, async 6 and 7");
	CHECK(has(md, "## Per mode\n\n**Drivers probed**"),
	      "the distinct-driver line opens the per-mode section, before its tables");
	CHECK(has(md, "## Driver probes compared with sync\n") && has(md, "excludes 0"),
	      "report.md has the driver section, its verdict rule stated");
	CHECK(has(md, "| slowdrv | 5 / 5 | 100.00 | 300.00 | +200.00 | "),
	      "slowdrv: medians 100 and 300 ms over 5 boots each, +200 ms");
	/*
	 * p 2/252 = 0.00794, Holm over 5 drivers 0.0397; MDD at alpha 0.05/5:
	 * robust SDs 2/1.349 and 6/1.349 ms pooled: 3.315 ms; (z(0.995) 2.5758
	 * + z(0.8) 0.8416) * 3.315 * sqrt(2/5) / sqrt(3/pi) = 7.33 ms (by hand).
	 */
	CHECK(has(md, " | +200.0 % | 0.00794 | 0.0397 | 7.33 | slower |\n"),
	      "slowdrv is called slower, +200 %%, p 0.00794, Holm p 0.0397, MDD 7.33 ms");
	CHECK(has(cmp, "| driver | boots sync / async |") && !has(cmp, "| steady |") &&
	      !has(cmp, "| twoprobe |"),
	      "the unchanged drivers are not in the table of clear changes");
	CHECK(has(md, "async: 1 driver with a clear change, 4 with no clear change. "
		  "Only in async (2): "),
	      "one line counts the unchanged ones and names those of async only");
	CHECK(has(md, "| async | flaky | 0000:00:03.0 | bound 5 of 5 | bound 3 of 5, failed 2 of 5 "
		  "(error -4) | async |\n"),
	      "flaky, bound in 5 of 5 sync boots, failed (-4) in 2 of 5 async ones: a regression");
	CHECK(has(md, "| async | virtio_blk | virtio2 | bound 5 of 5 | bound 4 of 5, missing 1 of 5 "
		  "| async |\n"),
	      "virtio_blk virtio2, without a probe in 1 of 5 async boots, is listed as missing there");
	CHECK(has(md, "| async | newdrv | virtio3 | missing 5 of 5 | bound 5 of 5 | sync |\n"),
	      "the reverse: newdrv virtio3, bound in async only, is listed as missing in sync");
	CHECK(has(md, "Renamed, not lost (against sync):\n\n- async: steady virtio1, steady virtio4\n"),
	      "steady's one device, virtio1 in sync and virtio4 in async, is listed as renamed");
	CHECK(!table_has(cmp, "| steady |"), "a renamed device is not in the regressions table");
	CHECK(has(cmp, "| mode | driver | device | in sync |") && !table_has(cmp, "| virtio1 |") &&
	      !table_has(cmp, "| 0000:00:05.0 |") && !table_has(cmp, "| 0000:00:06.0 |"),
	      "devices bound in every boot of both modes are not listed");
	CHECK(has(md, "| async | bad&#124;name&#96;,\"x | dev&#124;1 | missing 5 of 5 | bound 1 of 5, "
		  "missing 4 of 5 | sync |\n") && !table_has(md, "bad|name") && !table_has(md, "dev|1"),
	      "the hostile driver and device names are escaped in table cells, not able to split one");
	free(cmp);
}

static void check_html(const char *html)
{
	CHECK(has(html, "<td> bad|name`,&quot;x </td><td> dev|1 </td>"),
	      "report.html shows the hostile names as one cell each, escaped for HTML");
	CHECK(has(html, "<td> slowdrv </td><td class=n> 5 / 5 </td><td class=n> 100.00 </td>"
		  "<td class=n> 300.00 </td>"),
	      "report.html has slowdrv's row, its name left-aligned, its numbers right");
}

static void check_csv(const char *csv)
{
	CHECK(has(csv, "baseline,mode,driver,verdict,"), "drivers.csv has its header");
	CHECK(has(csv, "mode_boot_ci95_hi_s\nsync,sync,slowdrv,baseline,5,5,0.1,0.1,,,,,,,,,,5,0.1,"),
	      "drivers.csv: the baseline's own drivers first, the slowest per boot first, 5 probes");
	CHECK(has(csv, "\nsync,async,slowdrv,slower,5,5,0.1,0.3,0.2,"),
	      "drivers.csv: slowdrv slower, 5 boots each, medians 0.1 and 0.3 s, +0.2 s");
	CHECK(has(csv, "\nsync,async,steady,no clear change,5,5,0.05,0.05,0,"),
	      "drivers.csv: steady, 50 ms in both, no clear change");
	CHECK(has(csv, "\nsync,async,twoprobe,no clear change,5,5,0.02,0.02,0,"),
	      "drivers.csv: twoprobe's two 10 ms probes make 20 ms per boot");
	CHECK(has(csv, "\nsync,async,\"bad|name`,\"\"x\",only in mode,0,1,,0.005,,"),
	      "drivers.csv quotes the hostile name and leaves unknown numbers empty");
}

static json_object *find(json_object *arr, const char *key, const char *value)
{
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		json_object *o = json_object_array_get_idx(arr, i), *v;

		if (json_object_object_get_ex(o, key, &v) && !strcmp(json_object_get_string(v), value))
			return o;
	}
	return NULL;
}

static void check_json(struct run_data *r)
{
	json_object *sum = run_data__summary_json(r), *drv = jget(sum, "drivers");
	json_object *async = find(jget(drv, "modes"), "mode", "async");
	json_object *slow = find(jget(async, "drivers"), "driver", "slowdrv");
	json_object *flaky = find(jget(async, "devices_bound_differently"), "driver", "flaky");
	json_object *sync = find(jget(drv, "distinct_drivers"), "mode", "sync");
	const char *text = json_object_to_json_string(sum);

	CHECK(slow && !strcmp(json_object_get_string(jget(slow, "verdict")), "slower") &&
	      fabs(json_object_get_double(jget(slow, "baseline_median_s")) - 0.1) < 1e-9 &&
	      fabs(json_object_get_double(jget(slow, "mode_median_s")) - 0.3) < 1e-9,
	      "summary.json: slowdrv slower in async, medians 0.1 and 0.3 s");
	/*
	 * Five drivers are judged in async (3 boots or more in both modes):
	 * slowdrv's exact p, 2 / C(10, 5) = 2/252, is the smallest; Holm
	 * multiplies it by 5: 0.0397, still below 0.05.
	 */
	CHECK(slow && fabs(json_object_get_double(jget(slow, "mann_whitney_p")) - 2.0 / 252) < 1e-6 &&
	      fabs(json_object_get_double(jget(slow, "p_holm")) - 10.0 / 252) < 1e-6 &&
	      json_object_get_int(jget(slow, "holm_family")) == 5,
	      "summary.json: slowdrv's p 2/252, Holm-adjusted over the 5 judged drivers: 10/252");
	CHECK(slow && jget(slow, "mdd") && json_object_get_int(jget(slow, "boots_needed")) >= 5,
	      "summary.json: slowdrv has an MDD at 5 boots and a count of boots needed");
	CHECK(flaky && json_object_get_int(jget(jget(flaky, "mode"), "failed")) == 2 &&
	      json_object_get_int(jget(jget(flaky, "mode"), "boots")) == 5 &&
	      json_object_get_int(jget(jget(flaky, "baseline"), "bound")) == 5,
	      "summary.json: flaky failed in 2 of 5 async boots, bound in 5 sync ones");
	CHECK(sync && json_object_get_int(jget(sync, "union")) == 5 &&
	      json_object_get_double(jget(sync, "per_boot_median")) == 5,
	      "summary.json: sync probed 5 distinct drivers per boot, 5 in all");
	CHECK(drv && !strstr(text, "NaN") && !strstr(text, "nan") && !strstr(text, "inf"),
	      "summary.json has no non-finite number (they are null)");
	json_object_put(sum);
}

/* A mode whose boots are the baseline's: nothing changed, and the report says so. */
static void check_no_change(const char *dir)
{
	struct run_data *r = make_run("same");
	struct report_opts o = { .out = dir };
	char *md;

	CHECK(report__write(r, &o) == 0, "the report of sync against an identical mode is written");
	md = read_out(dir, "report.md");
	CHECK(has(md, "same: 0 drivers with a clear change, 5 with no clear change.\n"),
	      "an identical mode: none of its 5 drivers is flagged");
	CHECK(has(md, "None: every device bound in a boot of sync was bound in every boot of "
		  "same, and the reverse.\n"),
	      "an identical mode: the async regressions say none");
	free(md);
	run_data__free(r);
}

int main(void)
{
	struct report_opts o = { 0 };
	struct run_data *r;
	char *out, *md, *html, *csv;

	if (!mkdtemp(tmpdir)) {
		printf("not ok - a temporary folder is made\n");
		return 1;
	}
	r = make_run("async");
	out = xasprintf("%s/out", tmpdir);
	o.out = out;
	CHECK(r->nr_modes == 2 && report__write(r, &o) == 0,
	      "the report of 2 modes x %d synthetic boots is written", BOOTS);
	md = read_out(out, "report.md");
	html = read_out(out, "report.html");
	csv = read_out(out, "drivers.csv");
	check_md(md);
	check_html(html);
	check_csv(csv);
	check_json(r);
	run_data__free(r);
	free(out);
	out = xasprintf("%s/same", tmpdir);
	check_no_change(out);
	free(md);
	free(html);
	free(csv);
	{
		char *cmd = getenv("KEEP") ? xstrdup("true") : xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	free(out);
	CHECK_DONE();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The headline of `bootprobe report` on a synthetic run whose every number
 * is known: boot folders made from a recorded console (tests/data/console/
 * ok.log) with chosen coldplug times, drivers, probe results and SIGKILLs.
 * Each row must hold the counts worked out below, and agree with report.md
 * and with the "headline" array of summary.json.
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

static char tmpdir[] = "/tmp/bootprobe-test-headline.XXXXXX";

/*
 * The run, in manifest order (so modes come as sync, killable, hang).  Boot
 * time is coldplug done: both probes end at 6 s, before it.
 *   sync:     3 ok boots, 12.00 / 13.44 / 15.00 s -> median 13.44; no kill,
 *             no failed probe, both devices bound.
 *   killable: 4 ok boots, 9 / 10 / 11 / 30 s -> median 10.5; a SIGKILL in 3 of
 *             them and in the timed-out 5th -> 4/5; failed probes 1 + 2 in 2 ok
 *             boots (the timed-out boot's one is not counted, as in report.md);
 *             bound 1, 0, 2, 2 -> median 1.5 of 2, from 0 to 2.
 *   hang:     one timed-out boot without events: nothing to take a median of.
 */
static const struct boot_spec {
	const char *name, *mode, *outcome;
	const char *coldplug_done;
	int ret3, ret4;		/* the probes of 0000:00:03.0 and 0000:00:04.0 */
	bool kill;
	const char *drv3, *drv4;
	bool events;
} boots[] = {
	{ "sync-001", "sync", "ok", "13.44", 0, 0, false, "slowprobe", "slowprobe", true },
	{ "killable-001", "killable", "ok", "9.00", -4, 0, true, "none", "slowprobe", true },
	{ "sync-002", "sync", "ok", "12.00", 0, 0, false, "slowprobe", "slowprobe", true },
	{ "killable-002", "killable", "ok", "10.00", -4, -4, true, "none", "none", true },
	{ "sync-003", "sync", "ok", "15.00", 0, 0, false, "slowprobe", "slowprobe", true },
	{ "killable-003", "killable", "ok", "11.00", 0, 0, true, "slowprobe", "slowprobe", true },
	{ "killable-004", "killable", "ok", "30.00", 0, 0, false, "slowprobe", "slowprobe", true },
	{ "killable-005", "killable", "timeout", "50.00", -4, 0, true, "none", "slowprobe", true },
	{ "hang-001", "hang", "timeout", "13.44", 0, 0, false, "none", "none", false },
};
#define NR_BOOTS (sizeof(boots) / sizeof(boots[0]))

/* @text with its one occurrence of @from replaced by @to; NULL if absent. */
static char *replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	if (!at)
		return NULL;
	return xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

static char *console_of(const char *ok, const struct boot_spec *s)
{
	char *line = xasprintf("bootprobe: coldplug done at %s s", s->coldplug_done);
	char *d3 = xasprintf("device 0000:00:03.0 driver=%s", s->drv3);
	char *d4 = xasprintf("device 0000:00:04.0 driver=%s", s->drv4);
	char *a = replace(ok, "bootprobe: coldplug done at 13.44 s", line);
	char *b = a ? replace(a, "device 0000:00:03.0 driver=slowprobe", d3) : NULL;
	char *c = b ? replace(b, "device 0000:00:04.0 driver=slowprobe", d4) : NULL;

	free(line);
	free(d3);
	free(d4);
	free(a);
	free(b);
	return c;
}

static char *probe_record(const char *device, int64_t start_ns, int ret)
{
	return xasprintf("{\"type\":\"probe\",\"ts_ns\":%lld,\"pid\":44,\"comm\":\"(udev-worker)\","
			 "\"driver\":\"slowprobe\",\"device\":\"%s\",\"bus\":\"pci\","
			 "\"owner\":\"slowprobe\",\"async\":false,\"start_ns\":%lld,\"end_ns\":%lld,"
			 "\"ret\":%d}\n", (long long)(start_ns + 1000000000), device,
			 (long long)start_ns, (long long)(start_ns + 1000000000), ret);
}

/* udevd's SIGKILL to the worker probing 0000:00:03.0. */
static const char kill_record[] =
	"{\"type\":\"signal_generate\",\"ts_ns\":4500000000,\"pid\":32,\"comm\":\"systemd-udevd\","
	"\"sig\":9,\"result\":\"delivered\",\"target\":{\"pid\":44,\"comm\":\"(udev-worker)\"}}\n";

static char *events_of(const struct boot_spec *s)
{
	char *p3 = probe_record("0000:00:03.0", 4000000000LL, s->ret3);
	char *p4 = probe_record("0000:00:04.0", 5000000000LL, s->ret4);
	char *text = xasprintf(
		"{\"type\":\"header\",\"schema\":1}\n%s%s%s"
		"{\"type\":\"trailer\",\"events_written\":3,\"events_dropped\":0,\"bpf_drops\":0}\n",
		p3, p4, s->kill ? kill_record : "");

	free(p3);
	free(p4);
	return text;
}

static int write_text(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	int err = write_file_atomic(path, text, strlen(text));

	free(path);
	return err;
}

/* RUN/manifest.json listing the boots in order, and RUN/boots/NAME/ for each. */
static int make_run(const char *run, const char *ok)
{
	json_object *man = json_object_new_object(), *list = json_object_new_array();
	int err = 0;

	for (size_t i = 0; i < NR_BOOTS && !err; i++) {
		const struct boot_spec *s = &boots[i];
		char *dir = xasprintf("%s/boots/%s", run, s->name);
		char *rel = xasprintf("boots/%s", s->name);
		char *console = console_of(ok, s), *events = events_of(s);
		json_object *b = json_object_new_object(), *bj = json_object_new_object();

		json_object_object_add(b, "boot", json_object_new_string(s->name));
		json_object_object_add(b, "mode", json_object_new_string(s->mode));
		json_object_object_add(b, "dir", json_object_new_string(rel));
		json_object_array_add(list, b);
		json_object_object_add(bj, "boot", json_object_new_string(s->name));
		json_object_object_add(bj, "mode", json_object_new_string(s->mode));
		json_object_object_add(bj, "outcome", json_object_new_string(s->outcome));
		err = !console || mkdir_p(dir) ||
		      write_text(dir, "boot.json", json_object_to_json_string(bj)) ||
		      write_text(dir, "console.log", console) ||
		      (s->events && write_text(dir, "events.jsonl", events));
		json_object_put(bj);
		free(console);
		free(events);
		free(rel);
		free(dir);
	}
	json_object_object_add(man, "boots", list);
	if (!err)
		err = write_text(run, "manifest.json", json_object_to_json_string(man));
	json_object_put(man);
	return err;
}

/* The cells of a table line: separated by two spaces or more. */
static int split_cells(char *line, char *cells[], int max)
{
	int n = 0;
	char *p = line;

	while (*p == ' ')
		p++;
	while (*p && n < max) {
		char *end = strstr(p, "  ");

		cells[n++] = p;
		if (!end)
			break;
		*end = '\0';
		for (p = end + 1; *p == ' '; p++)
			;
	}
	return n;
}

#define COLS 7

static void check_row(char *line, const char *const want[COLS], const struct mode_stats *m)
{
	char *cells[COLS + 1] = { 0 }, ci[64];
	int n = split_cells(line, cells, COLS + 1);

	CHECK(n == COLS, "%s: the row has %d cells (mode, ok, boot time, CI, SIGKILL, failed, bound)",
	      want[0], COLS);
	if (n != COLS)
		return;
	CHECK_STR(cells[0], want[0], "row of mode %s", want[0]);
	CHECK_STR(cells[1], want[1], "%s: ok boots / boots", want[0]);
	CHECK_STR(cells[2], want[2], "%s: the median boot time", want[0]);
	if (m && m->s[M_BOOT].n) {
		snprintf(ci, sizeof(ci), "%.3f .. %.3f", m->s[M_BOOT].ci_lo, m->s[M_BOOT].ci_hi);
		CHECK_STR(cells[3], ci, "%s: the CI is report.md's bootstrap CI of the median", want[0]);
		CHECK(m->s[M_BOOT].ci_lo <= m->s[M_BOOT].median &&
		      m->s[M_BOOT].median <= m->s[M_BOOT].ci_hi,
		      "%s: the CI brackets the median", want[0]);
	} else {
		CHECK_STR(cells[3], "-", "%s: no ok boot, no CI", want[0]);
	}
	CHECK_STR(cells[4], want[4], "%s: boots with a SIGKILL / boots", want[0]);
	CHECK_STR(cells[5], want[5], "%s: failed probes (ok boots with one / ok boots)", want[0]);
	CHECK_STR(cells[6], want[6], "%s: devices bound, median / devices (range)", want[0]);
}

static void check_text(struct run_data *r, const char *dir)
{
	static const char *const sync[COLS] = { "sync", "3/3", "13.440", NULL, "0/3", "0 (0/3)", "2/2" };
	static const char *const killable[COLS] = {
		"killable", "4/5", "10.500", NULL, "4/5", "3 (2/4)", "1.5/2 (0..2)",
	};
	static const char *const hang[COLS] = { "hang", "0/1", "-", NULL, "0/1", "0 (0/0)", "-" };
	char *text = NULL, *lines[8] = { 0 }, *save = NULL, *want;
	size_t len = 0;
	int n = 0;
	FILE *f = open_memstream(&text, &len);

	report__headline(r, dir, f);
	fclose(f);
	for (char *l = strtok_r(text, "\n", &save); l && n < 8; l = strtok_r(NULL, "\n", &save))
		lines[n++] = l;
	CHECK(n == 5, "a header, one row per mode and the report's path: 5 lines (got %d)", n);
	if (n != 5) {
		free(text);
		return;
	}
	CHECK(strlen(lines[0]) == strlen(lines[1]) && strlen(lines[1]) == strlen(lines[2]) &&
	      strlen(lines[2]) == strlen(lines[3]) && lines[3][strlen(lines[3]) - 1] != ' ',
	      "the table is aligned: header and rows are equally wide, without trailing blanks");
	CHECK(!strncmp(lines[0], "mode ", 5) && strstr(lines[0], "boot time (s)") &&
	      strstr(lines[0], "95% CI") && strstr(lines[0], "SIGKILL") &&
	      strstr(lines[0], "failed probes") && strstr(lines[0], "bound"),
	      "the header names every column");
	check_row(lines[1], sync, run_data__mode(r, "sync"));
	check_row(lines[2], killable, run_data__mode(r, "killable"));
	check_row(lines[3], hang, run_data__mode(r, "hang"));
	want = xasprintf("report: %s/report.html", dir);
	CHECK_STR(lines[4], want, "the last line is the path of report.html");
	free(want);
	free(text);
}

/* @a of @o, then @b of that unless NULL. */
static json_object *jpath(json_object *o, const char *a, const char *b)
{
	json_object *v = jget(o, a);

	return b ? jget(v, b) : v;
}

static bool jnear(json_object *o, const char *a, const char *b, double want)
{
	json_object *v = jpath(o, a, b);

	return v && fabs(json_object_get_double(v) - want) < 1e-9;
}

static void check_json(struct run_data *r)
{
	json_object *sum = run_data__summary_json(r), *head = jpath(sum, "headline", NULL), *k;

	CHECK(head && json_object_is_type(head, json_type_array) &&
	      json_object_array_length(head) == 3,
	      "summary.json has a headline array with one entry per mode");
	if (!head || json_object_array_length(head) != 3) {
		json_object_put(sum);
		return;
	}
	k = json_object_array_get_idx(head, 0);
	CHECK_STR(json_object_get_string(jpath(k, "mode", NULL)), "sync",
		  "the JSON headline keeps the run's mode order");
	k = json_object_array_get_idx(head, 1);
	CHECK(jint(k, "boots", -1) == 5 && jint(k, "ok", -1) == 4 && jint(k, "boots_with_kills", -1) == 4,
	      "JSON killable: 5 boots, 4 ok, 4 with a SIGKILL");
	CHECK(jint(k, "failed_probes", -1) == 3 && jint(k, "boots_with_failed_probes", -1) == 2 &&
	      jint(k, "probes", -1) == 8,
	      "JSON killable: 3 failed of 8 probes, in 2 boots");
	CHECK(jnear(k, "boot_s", "median", 10.5) && jnear(k, "devices_bound", "median", 1.5) &&
	      jint(k, "devices", -1) == 2,
	      "JSON killable: median boot time 10.5 s, 1.5 of 2 devices bound");
	json_object_put(sum);
}

static void check_report_md(struct run_data *r, const char *dir)
{
	struct report_opts o = { .out = dir };
	char *path = xasprintf("%s/report.md", dir), *md;

	CHECK(report__write(r, &o) == 0, "the report (without charts and traces) is written");
	md = read_file(path, NULL);
	CHECK(md && strstr(md, "### killable\n\n5 boots, 4 ok; kill rate 4/5 boots; "
			  "failed probes 3 of 8, in 2 of 4 ok boots\n"),
	      "report.md gives killable the headline's kill rate and failed probes");
	CHECK(md && strstr(md, "| boot time (s) | 4 | 10.500 |") &&
	      strstr(md, "| devices bound per boot | 4 | 1.500 |"),
	      "report.md gives killable the headline's median boot time and devices bound");
	free(md);
	free(path);
}

/* The manifest's baseline picks the mode others are compared with. */
static void check_baseline(const char *run, const char *name, const char *want)
{
	char *path = xasprintf("%s/manifest.json", run), err[512];
	json_object *man = json_object_from_file(path);
	struct run_data *r;
	struct mode_stats *m;

	json_object *modes = json_object_new_array(), *m0 = json_object_new_object();

	json_object_object_add(m0, "name", json_object_new_string("killable"));
	json_object_object_add(m0, "kernel_args", json_object_new_string("udev.event_timeout=3"));
	json_object_array_add(modes, m0);
	json_object_object_add(man, "modes", modes);
	json_object_object_add(man, "baseline", json_object_new_string(name));
	json_object_to_file(path, man);
	json_object_put(man);
	r = run_data__load(run, err, sizeof(err));
	if (r)
		run_data__analyze(r);
	m = r ? run_data__baseline(r) : NULL;
	CHECK_STR(m ? m->name : NULL, want, "manifest baseline '%s' gives baseline mode %s", name, want);
	CHECK(r && r->mode_names.n == 1 && !strcmp(r->mode_args.v[0], "udev.event_timeout=3"),
	      "the manifest's modes and their kernel arguments are read for the report");
	run_data__free(r);
	free(path);
}

int main(void)
{
	char err[512], *run, *out, *ok = read_file("tests/data/console/ok.log", NULL);
	struct run_data *r = NULL;

	if (!ok || !mkdtemp(tmpdir)) {
		printf("not ok - tests/data/console/ok.log and a temporary folder are there\n");
		return 1;
	}
	run = xasprintf("%s/run", tmpdir);
	out = xasprintf("%s/out", tmpdir);
	CHECK(make_run(run, ok) == 0, "a run of %zu synthetic boots is made from ok.log", NR_BOOTS);
	r = run_data__load(run, err, sizeof(err));
	CHECK(r && r->nr_boots == (int)NR_BOOTS, "every boot of it loads");
	if (r) {
		run_data__analyze(r);
		CHECK(r->nr_modes == 3, "three modes");
		check_text(r, out);
		check_json(r);
		check_report_md(r, out);
	}
	CHECK_STR(r ? run_data__baseline(r)->name : NULL, "sync",
		  "without a manifest baseline, sync is the baseline");
	run_data__free(r);
	check_baseline(run, "killable", "killable");
	check_baseline(run, "no-such-mode", "sync");
	{
		char *cmd = xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	free(run);
	free(out);
	free(ok);
	CHECK_DONE();
}

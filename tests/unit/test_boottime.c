// SPDX-License-Identifier: GPL-2.0
/*
 * Boot time's two definitions (boot_data__boot_time()) and the late probes,
 * on a synthetic run whose every number is known by construction:
 *   systemd  3 boots, multi-user.target at 10 s, no coldplug mark.  Each:
 *            e1000 0000:00:07.0 probed 2.0-3.0; snd_hda_intel 0000:00:0b.0
 *            2.0-(11.5, 12.0, 12.5): late by 1.5, 2.0, 2.5 s; 11 more
 *            probes late1..late11 ending 10.11-10.21; a probe foo rejected
 *            (-ENODEV) at 13 s (made no device: not late); eth0 by e1000
 *            registering at 10.8 s (late).  Boot time 10 s each; 12 late
 *            probes and 1 late interface a boot; 13 late things by name, 10
 *            shown and 3 counted.
 *   lab      3 boots of our /init: udev's queue empty at 5 s, a probe ending
 *            at 6 s: boot time 6 s, as before; nothing is late there.
 * The checks read boot_data__boot_time(), the what-if model, summary.json,
 * summary.csv and report.md (KEEP=1 keeps them in /tmp/bootprobe-test-boottime.*).
 */
#include "check.h"
#include "jsonio.h"
#include "report.h"
#include "rundata.h"
#include "util.h"
#include "whatif.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#define BOOTS 3
/* What the test expects LATE_SHOWN to be (the old code has none). */
#define LATE_SHOWN_WANT 10

static char tmpdir[] = "/tmp/bootprobe-test-boottime.XXXXXX";

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static void probe(FILE *f, const char *driver, const char *device, double s, double e, int ret)
{
	fprintf(f, "{\"type\":\"probe\",\"ts_ns\":%.0f,\"pid\":44,\"driver\":\"%s\","
		"\"device\":\"%s\",\"start_ns\":%.0f,\"end_ns\":%.0f,\"ret\":%d}\n", e * 1e9,
		driver, device, s * 1e9, e * 1e9, ret);
}

/* Boot @i (0-based) of @mode ("systemd" or "lab"), as the table above says. */
static struct boot_data *boot_of(const char *mode, int i)
{
	struct boot_data *b = boot_data__new(mode);
	bool systemd = !strcmp(mode, "systemd");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	fprintf(f, "{\"type\":\"header\",\"schema\":1}\n");
	probe(f, "e1000", "0000:00:07.0", 2.0, 3.0, 0);
	if (systemd) {
		probe(f, "snd_hda_intel", "0000:00:0b.0", 2.0, 11.5 + 0.5 * i, 0);
		for (int k = 1; k <= 11; k++) {
			char dev[16];

			snprintf(dev, sizeof(dev), "late%d", k);
			probe(f, "latedrv", dev, 9.0, 10.1 + 0.01 * k, 0);
		}
		probe(f, "foo", "0000:00:09.0", 12.9, 13.0, -19);
		fprintf(f, "{\"type\":\"devnode\",\"ts_ns\":10800000000,\"pid\":1,\"comm\":\"x\","
			"\"kind\":\"net\",\"name\":\"eth0\",\"ret\":0,\"bound_driver\":\"e1000\","
			"\"bound_device\":\"0000:00:07.0\"}\n");
	} else {
		probe(f, "edu", "0000:00:05.0", 4.0, 6.0, 0);
	}
	fprintf(f, "{\"type\":\"trailer\",\"events_written\":9,\"events_dropped\":0,"
		"\"bpf_drops\":0}\n");
	fclose(f);
	boot_data__parse_events(b, text, strlen(text), "events.jsonl");
	free(text);
	b->init_start_s = 1.0;
	if (systemd)
		b->multi_user_s = 10.0;
	else
		b->coldplug_done_s = 5.0;
	free(b->mode);
	free(b->outcome);
	free(b->name);
	b->mode = xstrdup(mode);
	b->outcome = xstrdup("ok");
	b->name = xasprintf("%s-%03d", mode, i + 1);
	return b;
}

static struct run_data *make_run(void)
{
	struct run_data *r = xcalloc(1, sizeof(*r));

	r->dir = xstrdup(tmpdir);
	r->run_id = xstrdup("synthetic");
	r->boots = xcalloc(2 * BOOTS, sizeof(*r->boots));
	for (int i = 0; i < BOOTS; i++)
		r->boots[r->nr_boots++] = boot_of("systemd", i);
	for (int i = 0; i < BOOTS; i++)
		r->boots[r->nr_boots++] = boot_of("lab", i);
	run_data__analyze(r);
	return r;
}

static void check_boots(const struct run_data *r)
{
	const struct boot_data *s = r->boots[2], *l = r->boots[BOOTS];
	struct whatif_boot w;

	CHECK(s->nr_probes == 14 && s->nr_devnodes == 1,
	      "the systemd boot has its 14 probes and eth0");
	CHECK(near(boot_data__boot_time(s), 10.0),
	      "a systemd boot's boot time is multi-user.target, 10 s, not the last probe's end "
	      "(13 s) (%g)", boot_data__boot_time(s));
	CHECK(near(boot_data__boot_time(l), 6.0),
	      "a lab boot keeps its definition: the later of udev's queue (5 s) and the last "
	      "probe's end, 6 s (%g)", boot_data__boot_time(l));
	CHECK(whatif_kind__of(s) == WI_SYSTEMD && whatif_kind__of(l) == WI_LAB,
	      "the what-if model tells the two kinds apart as boot time does");
	CHECK(!whatif__predict(s, 1, WI_DRIVER_ASYNC, &w) && near(w.boot_s, 10.0) &&
	      w.pred_boot_s[WI_SLEEPING] <= 10.0 + 1e-9 &&
	      w.pred_boot_s[WI_COMPUTING] <= 10.0 + 1e-9,
	      "the what-if model's systemd boot ends at multi-user.target too: sync 10 s, "
	      "predicted %g and %g, no later", w.boot_s, w.pred_boot_s[WI_SLEEPING]);
	whatif_boot__free(&w);
}

/* Element @i of array @a, NULL when @a is no array or too short. */
static json_object *at(json_object *a, size_t i)
{
	return json_object_is_type(a, json_type_array) && i < json_object_array_length(a) ?
	       json_object_array_get_idx(a, i) : NULL;
}

/* Elements in array @a, 0 when it is none. */
static size_t len_of(json_object *a)
{
	return json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;
}

static json_object *mode_json(json_object *sum, const char *mode)
{
	return jget(jget(sum, "modes"), mode);
}

static void check_json(struct run_data *r)
{
	json_object *sum = run_data__summary_json(r), *sd = mode_json(sum, "systemd");
	json_object *lab = mode_json(sum, "lab"), *late = jget(sd, "late_after_target");
	json_object *first = at(jget(late, "latest"), 0), *head = at(jget(sum, "headline"), 0);
	const char *def = json_object_get_string(jget(sum, "boot_time_definition"));
	const char *text = json_object_to_json_string(sum);

	CHECK(head && near(json_object_get_double(jget(jget(head, "boot_s"), "median")), 10.0),
	      "summary.json: the systemd mode's median boot time is 10 s");
	CHECK(def && strstr(def, "multi-user.target") && strstr(def, "coldplug"),
	      "summary.json: boot_time_definition names both definitions of a run with both: %s",
	      def ? def : "(none)");
	CHECK(json_object_get_string(jget(sd, "boot_time_kind")) &&
	      !strcmp(json_object_get_string(jget(sd, "boot_time_kind")), "systemd") &&
	      json_object_get_string(jget(lab, "boot_time_kind")) &&
	      !strcmp(json_object_get_string(jget(lab, "boot_time_kind")), "lab"),
	      "summary.json: each mode says which definition its boots took");
	CHECK(json_object_get_int(jget(late, "boots")) == BOOTS &&
	      json_object_get_int(jget(late, "boots_with_late")) == BOOTS,
	      "summary.json: 3 of 3 systemd boots had something late");
	CHECK(near(json_object_get_double(jget(jget(late, "probes_per_boot"), "median")), 12) &&
	      near(json_object_get_double(jget(jget(late, "devnodes_per_boot"), "median")), 1),
	      "summary.json: 12 late probes (not the rejected one) and 1 late interface a boot");
	CHECK(first && !strcmp(json_object_get_string(jget(first, "driver")), "snd_hda_intel") &&
	      !strcmp(json_object_get_string(jget(first, "device")), "0000:00:0b.0") &&
	      near(json_object_get_double(jget(jget(first, "end_s"), "median")), 12.0) &&
	      near(json_object_get_double(jget(jget(first, "after_target_s"), "median")), 2.0) &&
	      json_object_get_int(jget(first, "boots")) == BOOTS,
	      "summary.json: the latest is snd_hda_intel's probe, at 12 s, 2 s after the target");
	CHECK(len_of(jget(late, "latest")) == LATE_SHOWN_WANT &&
	      json_object_get_int(jget(late, "not_shown")) == 3,
	      "summary.json: 10 of the 13 late things by name, 3 counted (not the rejected probe)");
	CHECK(lab && !jget(lab, "late_after_target"), "summary.json: a lab mode has no late list");
	CHECK(!strstr(text, "whatif_all_async_boot_s"),
	      "summary.json: the old what-if number is gone (analysis/whatif*.c answer it)");
	json_object_put(sum);
}

static void check_csv(const char *csv)
{
	CHECK(csv && strstr(csv, "\nsystemd,late_probes,3,12,"),
	      "summary.csv: late probes per systemd boot, 3 boots, median 12");
	CHECK(csv && strstr(csv, "\nsystemd,late_devnodes,3,1,"),
	      "summary.csv: late disks and interfaces per boot, median 1");
	CHECK(csv && strstr(csv, "\nsystemd,late_after_target_s:probe:0000:00:0b.0:snd_hda_intel,"
			    "3,2,"),
	      "summary.csv: snd_hda_intel's probe 2 s after multi-user.target in 3 boots");
	CHECK(csv && !strstr(csv, "lab,late_"), "summary.csv: no late rows for the lab mode");
	CHECK(csv && !strstr(csv, "whatif_all_async_boot_s"),
	      "summary.csv: the old what-if row is gone");
}

static void check_md(const char *md)
{
	CHECK(md && strstr(md, "**Boot time** is measured on a systemd boot from kernel start to "
			   "systemd reaching multi-user.target (") &&
	      strstr(md, "; on a lab boot from kernel start to the later of udev's queue"),
	      "report.md: the boot-time sentence says which definition each kind of boot took");
	CHECK(md && strstr(md, "## Late: after multi-user.target") && strstr(md, "Tejun Heo"),
	      "report.md: a section lists what ended after multi-user.target");
	CHECK(md && strstr(md, "| systemd | 3 | 3 | 12 | 1 |") && !strstr(md, "| lab | 3 | 0 |"),
	      "report.md: per mode with systemd boots, 12 late probes and 1 late interface a boot");
	CHECK(md && strstr(md, "| systemd | probe | 0000:00:0b.0 | snd_hda_intel | 3/3 | 12.000 | "
			   "2.000 | 2.500 |"),
	      "report.md: snd_hda_intel's probe: late in 3/3, at 12 s, 2 s after (2.5 at most)");
	CHECK(md && strstr(md, "| systemd | net | eth0 | e1000 | 3/3 | 10.800 | 0.800 | 0.800 |"),
	      "report.md: eth0 registered 0.8 s after multi-user.target");
	CHECK(md && strstr(md, "3 more late probes") && strstr(md, "| systemd | probe | late4 |") &&
	      !strstr(md, "| systemd | probe | late3 |"),
	      "report.md: bounded: the latest 10 listed, the 3 least late counted");
}

int main(void)
{
	struct report_opts o = { 0 };
	struct run_data *r;
	char *out, *md, *csv, *path;

	if (!mkdtemp(tmpdir)) {
		printf("not ok - a temporary folder is made\n");
		return 1;
	}
	r = make_run();
	check_boots(r);
	check_json(r);
	out = xasprintf("%s/out", tmpdir);
	o.out = out;
	CHECK(report__write(r, &o) == 0, "the report of the synthetic run is written");
	path = xasprintf("%s/report.md", out);
	md = read_file(path, NULL);
	free(path);
	path = xasprintf("%s/summary.csv", out);
	csv = read_file(path, NULL);
	free(path);
	check_md(md);
	check_csv(csv);
	free(md);
	free(csv);
	run_data__free(r);
	{
		char *cmd = getenv("KEEP") ? xstrdup("true") : xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	free(out);
	CHECK_DONE();
}

// SPDX-License-Identifier: GPL-2.0
/* `bootprobe run` pieces: argument parsing, the QEMU command line, result files. */
#include "check.h"
#include "jsonio.h"
#include "qemu.h"
#include "runner.h"
#include "util.h"

#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/bootprobe-test-runner.XXXXXX";
static char *kernel, *initrd;

/* Parse a NULL-terminated list after "run"; the error text or NULL. */
static const char *parse(struct run_opts *o, const char *first, ...)
{
	static char err[512];
	char *argv[32] = { "run" };
	int argc = 1, rc;
	va_list ap;

	va_start(ap, first);
	for (const char *a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	rc = run_opts__parse(o, argc, argv, err, sizeof(err));
	return rc < 0 ? err : NULL;
}

static void arguments(void)
{
	static const struct {
		const char *opt, *val, *want;
	} bad[] = {
		{ "--boots", "0", "--boots '0'" },
		{ "--jobs", "many", "--jobs 'many'" },
		{ "--timeout", "-5", "--timeout '-5'" },
		{ "--devices", "99", "--devices '99'" },
		{ "--accel", "hvf", "--accel 'hvf'" },
		{ "--run-id", "../up", "--run-id '../up'" },
		{ "--mode", "nope", "mode 'nope'" },
		{ "--kernel", "/nonexistent", "--kernel /nonexistent: no such file" },
		{ "--scenario", "/nonexistent.conf", "/nonexistent.conf: No such file" },
	};
	struct run_opts o;
	const char *err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = parse(&o, "--kernel", kernel, "--initrd", initrd, bad[i].opt, bad[i].val, NULL);
		CHECK(err && strstr(err, bad[i].want), "bad %s %s gives a one-line error", bad[i].opt, bad[i].val);
		if (err && !strstr(err, bad[i].want))
			printf("#   got: %s\n", err);
		run_opts__free(&o);
	}
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "extra", NULL);
	CHECK(err && strstr(err, "unexpected argument 'extra'"), "a stray argument is refused");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--frobnicate", NULL);
	CHECK(err && strstr(err, "unknown option '--frobnicate'"), "an unknown option is named");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--boots", NULL);
	CHECK(err && strstr(err, "needs a value"), "an option without its value is refused");
	run_opts__free(&o);

	err = parse(&o, "--kernel", kernel, "--initrd", initrd, NULL);
	CHECK(!err && o.sc.nr_modes == 2 && !strcmp(o.sc.modes[0].name, "sync") &&
	      !strcmp(o.sc.modes[1].name, "async") && o.boots == 1 && o.jobs == 1 &&
	      o.timeout_s == 300 && !strcmp(o.accel, "auto"),
	      "defaults: modes sync+async, 1 boot, 1 job, 300 s, accel auto");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "-n", "4", "-j", "2", "-t", "2.5",
		    "-d", "23", "-m", "x:a=1", "--append", "b=2", "-a", "tcg", NULL);
	CHECK(!err && o.boots == 4 && o.jobs == 2 && o.timeout_s == 2.5 && o.sc.devices == 23 &&
	      o.sc.nr_modes == 1 && !strcmp(o.sc.cmdline, "b=2") && !strcmp(o.accel, "tcg"),
	      "options are all taken");
	run_opts__free(&o);
}

/* --append goes through the checks of a scenario's cmdline, named --append. */
static void append_checks(void)
{
	static const struct {
		const char *val, *want;
	} bad[] = {
		{ "foo=\"bar", "--append: unbalanced double quote at byte 5" },
		{ "a=1\nb=2", "--append: control byte 0x0a at byte 4" },
		{ "a=1 \033[2J", "--append: control byte 0x1b at byte 5" },
	};
	char *huge = xmalloc(2100), *half = xmalloc(1100), *mode;
	struct run_opts o;
	const char *err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--append", bad[i].val, NULL);
		CHECK(err && strstr(err, bad[i].want), "--append is refused like a cmdline: %s", bad[i].want);
		if (err && !strstr(err, bad[i].want))
			printf("#   got: %s\n", err);
		run_opts__free(&o);
	}
	memset(huge, 'a', 2099);
	huge[2099] = '\0';
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--append", huge, NULL);
	CHECK(err && strstr(err, "--append: makes the kernel command line 2151 bytes, 104 over the 2047 "
			    "bytes x86 takes"), "an --append too long on its own is refused (%s)",
	      err ? err : "");
	run_opts__free(&o);
	memset(half, 'b', 1099);
	half[1099] = '\0';
	mode = xasprintf("m:%s", half);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--mode", "sync", "--mode", mode,
		    "--append", half, NULL);
	CHECK(err && strstr(err, "--append: makes the kernel command line of mode 'm' 2251 bytes, 204 over "
			    "the 2047 bytes x86 takes"),
	      "an --append that makes a mode's command line too long names --append and the mode (%s)",
	      err ? err : "");
	run_opts__free(&o);
	free(mode);
	free(half);
	free(huge);
}

static void command_line(void)
{
	struct qemu_config cfg = {
		.qemu = "qemu-system-x86_64", .kernel = "k", .initrd = "i", .accel = "tcg",
		.memory_mb = 512, .devices = 3, .kernel_args = "driver_async_probe=*",
		.console_path = "/r/console.log", .events_path = "/r/events.jsonl",
	};
	struct strv argv = { 0 };
	char *line;
	int edu = 0;

	qemu__build_argv(&cfg, &argv);
	line = strv__join_quoted(&argv);
	for (size_t i = 0; i < argv.n; i++)
		edu += !strcmp(argv.v[i], "edu");
	CHECK(edu == 3, "one -device edu per slowprobe device");
	CHECK(strstr(line, "-accel tcg,thread=multi") != NULL, "TCG runs multi-threaded");
	CHECK(strstr(line, "-append 'console=ttyS0 panic=-1 printk.devkmsg=on acpi=noirq driver_async_probe=*'") != NULL,
	      "the kernel command line carries the mode's arguments, quoted for a shell");
	CHECK(strstr(line, "name=org.bootprobe.events") && strstr(line, "path=/r/events.jsonl"),
	      "events go to their own virtio-serial port and file");
	CHECK(strstr(line, "-no-reboot") != NULL, "the guest's reboot ends QEMU");
	free(line);
	strv__free(&argv);
}

/* The Debian machine, and paths with commas, which QEMU's option lists double. */
static void command_line_debian(void)
{
	struct qemu_config cfg = {
		.qemu = "qemu-system-x86_64", .kernel = "k", .initrd = "i", .accel = "tcg",
		.memory_mb = 2048, .root_image = "/img/a,b.img",
		.console_path = "/r,1/console.log", .events_path = "/r,1/events.jsonl",
	};
	struct strv argv = { 0 };
	int devices = 0;
	char *line;

	qemu__build_argv(&cfg, &argv);
	line = strv__join_quoted(&argv);
	for (size_t i = 0; i < argv.n; i++)
		devices += !strcmp(argv.v[i], "-device");
	CHECK(strstr(line, "-M q35") != NULL, "the realistic machine is q35");
	CHECK(devices >= 25, "a PC's and a VM's devices, %d of them", devices);
	CHECK(strstr(line, "file=/img/a,,b.img,if=none,id=root,format=raw,snapshot=on") != NULL,
	      "the root image is opened snapshot=on, a comma in its path doubled");
	CHECK(strstr(line, "path=/r,,1/console.log") && strstr(line, "path=/r,,1/events.jsonl"),
	      "commas in the console and events paths are doubled");
	CHECK(strstr(line, "root=/dev/vda ro bootprobe.reboot=1") != NULL,
	      "the kernel mounts the first virtio disk and the guest reboots at the end");
	free(line);
	strv__free(&argv);
}

static struct json_object *load_json(const char *path)
{
	const char *why = NULL;
	struct json_object *o = jread(path, &why);

	if (!o)
		printf("# %s: %s\n", path, why);
	return o;
}

static void result_files(void)
{
	struct run_opts o;
	struct run run = { 0 };
	struct json_object *boot, *man, *boots;
	char *path;

	parse(&o, "--kernel", kernel, "--initrd", initrd, "-n", "2", NULL);
	run__plan(&run, &o);
	CHECK(run.nr_boots == 4 && !strcmp(run.boots[0].name, "sync-001") &&
	      !strcmp(run.boots[1].name, "async-001") && !strcmp(run.boots[3].name, "async-002"),
	      "boots are planned with modes interleaved");
	run.id = xstrdup("unit");
	run.dir = xasprintf("%s/unit", tmpdir);
	run.accel = "tcg";
	run.boots[1].dir = xasprintf("%s/boots/async-001", run.dir);
	mkdir_p(run.boots[1].dir);
	run.boots[1].finished = true;
	run.boots[1].outcome = OUTCOME_TIMEOUT;
	run.boots[1].wall_s = 12.0004;
	run.boots[1].qe.timed_out = true;
	run.boots[1].qe.status = 9;
	run.nr_finished = 1;
	CHECK(!results__write_boot(&run, &run.boots[1], "qemu -x", "driver_async_probe=*",
				   "console=ttyS0 udev.event_timeout=3 driver_async_probe=* "
				   "udev.timeout_signal=SIGTERM kthread.sigkill_policy=grace=30000 "
				   "udev.event_timeout=4500ms"),
	      "boot.json is written");
	CHECK(!results__write_manifest(&run), "manifest.json is written");

	path = xasprintf("%s/boot.json", run.boots[1].dir);
	boot = load_json(path);
	free(path);
	CHECK_STR(boot ? jstr(boot, "outcome") : NULL, "timeout", "boot.json holds the outcome");
	CHECK_STR(boot ? jstr(boot, "qemu_cmdline") : NULL, "qemu -x", "boot.json holds the QEMU command line");
	CHECK_STR(boot ? json_object_get_string(jget(boot, "wall_s")) : NULL, "12.000", "wall time is kept to the millisecond");
	CHECK(boot && jseconds(boot, "udev_event_timeout_s", 0, 1e6) == 4.5 &&
	      !strcmp(jstr(boot, "udev_timeout_signal"), "SIGTERM") &&
	      !strcmp(jstr(boot, "kill_policy"), "grace=30000"),
	      "boot.json holds the udev timeout (the last one), timeout signal and kill policy the guest read");
	path = xasprintf("%s/manifest.json", run.dir);
	man = load_json(path);
	free(path);
	CHECK(man && json_object_object_get_ex(man, "boots", &boots) &&
	      json_object_array_length(boots) == 1,
	      "the manifest lists finished boots only");
	CHECK_STR(man ? jstr(man, "run_id") : NULL, "unit", "the manifest names the run");
	json_object_put(boot);
	json_object_put(man);
	run__free(&run);
	run_opts__free(&o);
}

/* Every position in exactly one shard, shards contiguous and in order, none empty. */
static void shard_split(void)
{
	static const long totals[] = { 1, 2, 4, 7, 30, 97, 1000 };
	bool all_ok = true;

	for (size_t t = 0; t < sizeof(totals) / sizeof(totals[0]); t++) {
		long total = totals[t];

		for (long n = 1; n <= total && n <= 40; n++) {
			long next = 0, lo, hi, lo2, hi2;

			for (long k = 1; k <= n; k++) {
				shard__range(total, k, n, &lo, &hi);
				shard__range(total, k, n, &lo2, &hi2);
				if (lo != next || hi <= lo || lo2 != lo || hi2 != hi)
					all_ok = false;
				next = hi;
			}
			if (next != total)
				all_ok = false;
		}
	}
	CHECK(all_ok, "shards of 1..1000 boots into 1..40 parts: disjoint, complete, none "
	      "empty, the same every time");
}

/* A plan's boots by name, index and kernel arguments, one line each. */
static char *plan_lines(const struct run *run)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (int i = 0; i < run->nr_boots; i++) {
		const struct boot *b = &run->boots[i];
		char *args = mode__kernel_args(&run->opts->sc, &run->opts->sc.modes[b->mode],
					       b->index);

		fprintf(f, "%s %d %d %s\n", b->name, b->mode, b->index, args);
		free(args);
	}
	fclose(f);
	return text;
}

/*
 * Shards of a plan with drawn probe times: joined in order they are the
 * unsharded plan, name by name, draw by draw, with the same plan hash.
 */
static void shard_plans(void)
{
	char *sc = xasprintf("%s/drawn.conf", tmpdir), *whole_text, *joined = xstrdup("");
	const char *conf = "[scenario]\nname = drawn\ndevices = 2\nboots = 5\nseed = 11\n"
		"probe_ms = uniform 100 900\n[mode sync]\n[mode async]\n"
		"cmdline = driver_async_probe=*\n[mode third]\ncmdline = a=1\n";
	struct run_opts o, ow;
	struct run whole = { 0 };
	const char *err;
	char shard[16];
	bool hash_same = true, sizes_ok = true, interleaved = true;

	write_file_atomic(sc, conf, strlen(conf));
	err = parse(&ow, "--kernel", kernel, "--initrd", initrd, "-s", sc, NULL);
	CHECK(!err, "the drawn scenario parses%s%s", err ? ": " : "", err ? err : "");
	run__plan(&whole, &ow);
	whole_text = plan_lines(&whole);
	for (int k = 1; k <= 4; k++) {
		struct run part = { 0 };
		char *lines, *cat;

		snprintf(shard, sizeof(shard), "%d/4", k);
		err = parse(&o, "--kernel", kernel, "--initrd", initrd, "-s", sc, "--run-id", "x",
			    "--shard", shard, NULL);
		if (err) {
			CHECK(!err, "--shard %s parses: %s", shard, err);
			run_opts__free(&o);
			continue;
		}
		run__plan(&part, &o);
		hash_same &= !strcmp(part.plan_hash, whole.plan_hash);
		sizes_ok &= part.nr_planned == whole.nr_boots && part.nr_boots >= 3 &&
			    part.nr_boots <= 4;
		/* A part of 3 or 4 consecutive positions holds all three modes. */
		interleaved &= part.boots[0].mode != part.boots[1].mode &&
			       part.boots[1].mode != part.boots[2].mode &&
			       part.boots[0].mode != part.boots[2].mode;
		lines = plan_lines(&part);
		cat = xasprintf("%s%s", joined, lines);
		free(joined);
		joined = cat;
		free(lines);
		run__free(&part);
		run_opts__free(&o);
	}
	CHECK_STR(joined, whole_text, "shards 1..4 of 15 boots joined are the unsharded plan: "
		  "names, indexes and drawn kernel arguments");
	CHECK(hash_same, "every shard records the whole plan's hash");
	CHECK(sizes_ok, "15 boots in 4 shards: 3 or 4 each, the whole plan's size recorded");
	CHECK(interleaved, "each shard keeps the modes interleaved");
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "-s", sc, "--time-scale", "0.5",
		    NULL);
	if (!err) {
		struct run other = { 0 };

		run__plan(&other, &o);
		CHECK(strcmp(other.plan_hash, whole.plan_hash),
		      "another time scale is another plan hash");
		run__free(&other);
	}
	run_opts__free(&o);
	free(joined);
	free(whole_text);
	run__free(&whole);
	run_opts__free(&ow);
	free(sc);
}

static void shard_arguments(void)
{
	static const struct {
		const char *val, *want;
	} bad[] = {
		{ "0/2", "--shard '0/2': want K/N" },
		{ "3/2", "part 3 of 2 does not exist" },
		{ "2", "--shard '2': want K/N" },
		{ "1/x", "--shard '1/x': want K/N" },
		{ "1/2/3", "--shard '1/2/3'" },
		{ "-1/2", "--shard '-1/2'" },
		{ "1/5", "--shard 1/5: 5 parts of 4 boots" },
	};
	struct run_opts o;
	const char *err;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = parse(&o, "--kernel", kernel, "--initrd", initrd, "-n", "2", "--run-id", "r",
			    "--shard", bad[i].val, NULL);
		CHECK(err && strstr(err, bad[i].want), "--shard %s gives a one-line error",
		      bad[i].val);
		if (err && !strstr(err, bad[i].want))
			printf("#   got: %s\n", err);
		run_opts__free(&o);
	}
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--shard", "1/2", NULL);
	CHECK(err && strstr(err, "needs --run-id"), "--shard without --run-id is refused");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--shard", "1/2", "--dry-run",
		    NULL);
	CHECK(!err, "--shard --dry-run needs no run id");
	run_opts__free(&o);
}

/*
 * --until-ci: refused combinations, one line each; and its plan is a fixed
 * run's of --max-boots boots, name for name and draw for draw.
 */
static void until_plan(void)
{
	static const char conf[] =
		"[scenario]\nname = drawn\ndevices = 3\nseed = 99\n"
		"probe_ms = uniform 100 900\n\n[mode sync]\nprobing = sync\n\n"
		"[mode async]\nprobing = driver-async-probe\n";
	char *path = xasprintf("%s/drawn.conf", tmpdir);
	struct run_opts o, f;
	struct run ru = { 0 }, rf = { 0 };
	const char *err;
	int same = 0;

	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--max-boots", "5", NULL);
	CHECK(err && strstr(err, "--max-boots: only with --until-ci"), "--max-boots alone is refused");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--until-ci", "1", "--shard", "1/2",
		    "--run-id", "r", NULL);
	CHECK(err && strstr(err, "--until-ci: not with --shard"),
	      "--until-ci with --shard is refused (%s)", err ? err : "no error");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--until-ci", "wide", NULL);
	CHECK(err && strstr(err, "--until-ci 'wide'"), "--until-ci wants seconds");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--until-ci", "1", "-m", "sync", NULL);
	CHECK(err && strstr(err, "needs a mode besides the baseline"),
	      "--until-ci with one mode is refused");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--until-ci", "1", "-n", "9",
		    "--max-boots", "5", NULL);
	CHECK(err && strstr(err, "--max-boots 5: fewer than the 9 rounds"),
	      "a budget below the first rounds is refused");
	run_opts__free(&o);
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "--until-ci", "1", "--max-boots",
		    "2", NULL);
	CHECK(err && strstr(err, "--max-boots '2'"), "a budget below 3 rounds is refused");
	run_opts__free(&o);

	write_file_atomic(path, conf, strlen(conf));
	err = parse(&o, "--kernel", kernel, "--initrd", initrd, "-s", path, "--until-ci", "0.5",
		    "--max-boots", "6", NULL);
	CHECK(!err && o.until_ci_s == 0.5 && o.until_min == 3 && o.boots == 6,
	      "--until-ci 0.5 --max-boots 6: first check after 3 rounds, 6 planned");
	parse(&f, "--kernel", kernel, "--initrd", initrd, "-s", path, "-n", "6", NULL);
	run__plan(&ru, &o);
	run__plan(&rf, &f);
	for (int i = 0; i < ru.nr_boots && ru.nr_boots == rf.nr_boots; i++) {
		const struct boot *a = &ru.boots[i], *b = &rf.boots[i];
		char *ka = mode__kernel_args(&o.sc, &o.sc.modes[a->mode], a->index);
		char *kb = mode__kernel_args(&f.sc, &f.sc.modes[b->mode], b->index);

		same += !strcmp(a->name, b->name) && a->index == b->index && !strcmp(ka, kb);
		free(ka);
		free(kb);
	}
	CHECK(ru.nr_boots == 12 && same == 12,
	      "the --until-ci plan is the fixed run's: 12 boots, same names and per-boot draws (%d)",
	      same);
	run__free(&ru);
	run__free(&rf);
	run_opts__free(&o);
	run_opts__free(&f);
	free(path);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		printf("not ok - mkdtemp\n");
		return 1;
	}
	kernel = xasprintf("%s/bzImage", tmpdir);
	initrd = xasprintf("%s/initrd", tmpdir);
	write_file_atomic(kernel, "k", 1);
	write_file_atomic(initrd, "i", 1);
	arguments();
	append_checks();
	command_line();
	command_line_debian();
	result_files();
	shard_split();
	shard_plans();
	shard_arguments();
	until_plan();
	{
		char *cmd = xasprintf("rm -rf '%s'", tmpdir);

		if (system(cmd))
			printf("# could not remove %s\n", tmpdir);
		free(cmd);
	}
	CHECK_DONE();
}

// SPDX-License-Identifier: GPL-2.0
/* `bootprobe run`: its arguments, and the command. */
#define _GNU_SOURCE
#include "commands.h"
#include "runner.h"
#include "until.h"
#include "util.h"

#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEFAULT_TIMEOUT_S 300.0
#define DEFAULT_KERNEL "build/guest/bzImage"
#define DEFAULT_INITRD "build/guest/initramfs.cpio"

void run__usage(FILE *out)
{
	fputs(
"Usage: bootprobe run [OPTIONS]\n"
"\n"
"Boot the guest N times per mode; keep every boot's console, events,\n"
"QEMU command line, exit status, wall time and outcome in\n"
"RESULTS/RUN-ID/boots/MODE-NNN/, and the run in RESULTS/RUN-ID/manifest.json.\n"
"\n"
"  -s, --scenario FILE   modes and settings from a scenario file (bench/scenarios/)\n"
"  -m, --mode SPEC       add a mode: sync, async (driver_async_probe=*),\n"
"                        async-module (module.async_probe=1), or NAME:KERNEL-ARGS;\n"
"                        repeatable (default: sync and async)\n"
"  -n, --boots N         boots per mode (default: the scenario's, else 1); with\n"
"                        --until-ci the rounds before its rule is first checked\n"
"                        (at least 3)\n"
"      --until-ci WIDTH  boot in rounds, one boot of every mode a round, until the\n"
"                        95 % CI of each mode's boot-time difference from the\n"
"                        baseline is narrower than WIDTH seconds, or the budget is\n"
"                        spent; prints each round's widths and what ended it.  The\n"
"                        boots are those of a fixed run of --max-boots (same names,\n"
"                        same per-boot draws), cut after a round\n"
"      --max-boots N     with --until-ci: the budget, boots per mode (default 30)\n"
"  -j, --jobs J|auto     boots at once; auto: one per CPU available (default: the\n"
"                        scenario's jobs, else 1)\n"
"  -t, --timeout SEC     hard timeout per boot; QEMU is killed then\n"
"                        (default: the scenario's, else 300)\n"
"  -d, --devices N       QEMU edu devices for slowprobe, 0..24 (default: scenario's, else 0)\n"
"      --append ARGS     extra kernel arguments for every mode, checked like a\n"
"                        scenario's cmdline\n"
"      --time-scale F    multiply the scenario's guest times (probe times, udev\n"
"                        timeouts, grace) by F instead of its time_scale\n"
"  -a, --accel A         auto, kvm or tcg (default auto: KVM only if a KVM guest\n"
"                        really boots here, else TCG with a warning)\n"
"  -o, --results DIR     results root (default results)\n"
"      --run-id ID       run folder name (default DATE-TIME-SCENARIO); never reused\n"
"      --kernel FILE     guest kernel (default build/guest/bzImage; with a\n"
"                        Debian image, build/IMAGE/vmlinuz)\n"
"      --initrd FILE     guest initramfs (default build/guest/initramfs.cpio;\n"
"                        a Debian image: build/IMAGE/initrd.img)\n"
"      --image IMAGE     lab (our kernel, busybox /init), or a Debian release's stock\n"
"                        kernel, initramfs-tools and systemd on q35: debian (Debian 12,\n"
"                        6.1), debian-13 (6.12), debian-13-bpo (trixie-backports 7.x),\n"
"                        debian-13-dracut (6.12, its initrd made by dracut),\n"
"                        debian-sid (make debian-image DEBIAN_RELEASE=IMAGE);\n"
"                        default: the scenario's image, else lab\n"
"      --root-image FILE a Debian image: the root disk (default build/IMAGE/root.img,\n"
"                        opened read-only: every boot starts from the same image)\n"
"      --root-writable   image = debian: boots write to --root-image and keep it (what\n"
"                        an installed collector logs in /var/log/bootprobe); one job\n"
"      --qemu PATH       QEMU binary (default qemu-system-x86_64)\n"
"      --memory MB       guest memory (default 512; image = debian: 2048)\n"
"  -q, --quiet           no progress line\n"
"      --json            print the run's manifest.json on standard output at the end\n"
"      --dry-run         check the scenario and print every boot's kernel arguments;\n"
"                        boot nothing\n"
"      --shard K/N       run part K of N of the plan (needs --run-id, the same on\n"
"                        every part); into RESULTS/RUN-ID.shard-K-of-N; join the\n"
"                        parts with bootprobe merge.  Boot names, draws and order\n"
"                        are the unsharded run's: part K is plan positions\n"
"                        (K-1)*T/N .. K*T/N-1 of the T boots\n"
"  -h, --help            this text\n"
"\n"
"Outcomes: ok, timeout, panic, qemu-error (and interrupted on Ctrl-C).\n"
"Exit status: 0 all boots ok, 1 some boot not ok, 2 bad arguments, 130 interrupted.\n"
"\n"
"Examples:\n"
"  bootprobe run --boots 10 --mode sync --mode async\n"
"  bootprobe run --scenario bench/scenarios/default.conf --jobs auto\n"
"  bootprobe run --scenario bench/scenarios/default.conf --until-ci 0.5 --max-boots 20\n"
"  bootprobe run --scenario bench/scenarios/debian.conf --boots 1\n"
"  bootprobe run --image debian --mode sync --mode async --boots 5\n"
"  bootprobe run --scenario bench/scenarios/default.conf --boots 1 --dry-run\n"
"  bootprobe run --scenario bench/scenarios/default.conf --time-scale 1 --timeout 900\n"
"  bootprobe run -m 'killable:udev.event_timeout=3 slowprobe.probe_ms=4000' -d 1\n"
"  bootprobe run -m 'test:bootprobe.modprobe=test_async_driver_probe' -t 120\n"
"  bootprobe run -s bench/scenarios/default.conf --run-id big --shard 2/4 --dry-run\n"
"  bootprobe run -s bench/scenarios/default.conf --run-id big --shard 2/4\n",
		out);
}

static int fail(char *err, int errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

enum {
	OPT_APPEND = 256, OPT_RUN_ID, OPT_KERNEL, OPT_INITRD, OPT_QEMU, OPT_MEMORY, OPT_JSON, OPT_TIME_SCALE, OPT_DRY_RUN,
	OPT_ROOT_IMAGE,
	OPT_ROOT_WRITABLE,
	OPT_IMAGE,
	OPT_SHARD,
	OPT_UNTIL_CI,
	OPT_MAX_BOOTS,
};

static const struct option long_opts[] = {
	{ "scenario", required_argument, NULL, 's' },
	{ "mode", required_argument, NULL, 'm' },
	{ "boots", required_argument, NULL, 'n' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "timeout", required_argument, NULL, 't' },
	{ "devices", required_argument, NULL, 'd' },
	{ "append", required_argument, NULL, OPT_APPEND },
	{ "time-scale", required_argument, NULL, OPT_TIME_SCALE },
	{ "accel", required_argument, NULL, 'a' },
	{ "results", required_argument, NULL, 'o' },
	{ "run-id", required_argument, NULL, OPT_RUN_ID },
	{ "kernel", required_argument, NULL, OPT_KERNEL },
	{ "initrd", required_argument, NULL, OPT_INITRD },
	{ "root-image", required_argument, NULL, OPT_ROOT_IMAGE },
	{ "root-writable", no_argument, NULL, OPT_ROOT_WRITABLE },
	{ "image", required_argument, NULL, OPT_IMAGE },
	{ "qemu", required_argument, NULL, OPT_QEMU },
	{ "memory", required_argument, NULL, OPT_MEMORY },
	{ "quiet", no_argument, NULL, 'q' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
	{ "shard", required_argument, NULL, OPT_SHARD },
	{ "until-ci", required_argument, NULL, OPT_UNTIL_CI },
	{ "max-boots", required_argument, NULL, OPT_MAX_BOOTS },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

struct raw_opts {
	bool memory_set;
	const char *image;
	const char *scenario;
	const char *modes[MAX_MODES + 1];
	int nr_modes;
	long boots, devices, jobs, max_boots;
	double timeout_s, time_scale, until_ci_s;
	const char *append;
};

/* The CPUs this process may run on; each TCG guest keeps about one busy. */
static long cpus_available(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	return 1;
}

/* Boots at once, and where the number came from (the manifest and report say). */
static void resolve_jobs(struct run_opts *o, long jobs, const char *from)
{
	if (jobs == JOBS_AUTO) {
		long cpus = cpus_available();

		o->jobs = cpus < MAX_JOBS ? cpus : MAX_JOBS;
		snprintf(o->jobs_from, sizeof(o->jobs_from), "%s auto: %ld CPU%s available",
			 from, cpus, cpus == 1 ? "" : "s");
	} else if (jobs > 0) {
		o->jobs = jobs;
		snprintf(o->jobs_from, sizeof(o->jobs_from), "%s", from);
	} else {
		o->jobs = 1;
		snprintf(o->jobs_from, sizeof(o->jobs_from), "default");
	}
}

/* "K/N", 1 <= K <= N: whole decimal numbers, nothing else. */
static int parse_shard(struct run_opts *o, const char *arg, char *err, int errlen)
{
	const char *slash = strchr(arg, '/');
	char k[16];

	if (!slash || slash - arg >= (long)sizeof(k))
		return fail(err, errlen, "--shard '%s': want K/N, e.g. 2/4", arg);
	memcpy(k, arg, slash - arg);
	k[slash - arg] = '\0';
	if (!parse_long(k, 1, 100000, &o->shard_k) ||
	    !parse_long(slash + 1, 1, 100000, &o->shard_n))
		return fail(err, errlen, "--shard '%s': want K/N with whole numbers 1 <= K <= N",
			    arg);
	if (o->shard_k > o->shard_n)
		return fail(err, errlen, "--shard '%s': part %ld of %ld does not exist (K <= N)",
			    arg, o->shard_k, o->shard_n);
	return 0;
}

static int parse_one(struct run_opts *o, struct raw_opts *r, int c, const char *arg,
		     char *err, int errlen)
{
	switch (c) {
	case 's':
		r->scenario = arg;
		break;
	case 'm':
		if (r->nr_modes == MAX_MODES)
			return fail(err, errlen, "--mode: at most %d modes", MAX_MODES);
		r->modes[r->nr_modes++] = arg;
		break;
	case 'n':
		if (!parse_long(arg, 1, 100000, &r->boots))
			return fail(err, errlen, "--boots '%s': want a whole number 1..100000", arg);
		break;
	case 'j':
		if (!jobs__parse(arg, &r->jobs))
			return fail(err, errlen, "--jobs '%s': want auto or a whole number 1..%d", arg,
				    MAX_JOBS);
		break;
	case 't':
		if (!parse_seconds(arg, &r->timeout_s))
			return fail(err, errlen, "--timeout '%s': want seconds > 0", arg);
		break;
	case 'd':
		if (!parse_long(arg, 0, 24, &r->devices))
			return fail(err, errlen, "--devices '%s': want 0..24", arg);
		break;
	case OPT_APPEND:
		r->append = arg;
		break;
	case OPT_TIME_SCALE:
		if (!parse_seconds(arg, &r->time_scale) || r->time_scale > 10)
			return fail(err, errlen, "--time-scale '%s': want a factor > 0, at most 10", arg);
		break;
	case 'a':
		if (strcmp(arg, "auto") && strcmp(arg, "kvm") && strcmp(arg, "tcg"))
			return fail(err, errlen, "--accel '%s': want auto, kvm or tcg", arg);
		o->accel = arg;
		break;
	case 'o':
		o->results = arg;
		break;
	case OPT_RUN_ID:
		if (!name_is_valid(arg))
			return fail(err, errlen, "--run-id '%s': use letters, digits, '_', '.', '-'", arg);
		o->run_id = arg;
		break;
	case OPT_KERNEL:
		o->kernel = arg;
		break;
	case OPT_ROOT_IMAGE:
		o->root_image = arg;
		break;
	case OPT_ROOT_WRITABLE:
		o->root_writable = true;
		break;
	case OPT_IMAGE:
		if (!guest_image__find(arg))
			return fail(err, errlen, "--image '%s': want one of %s", arg,
				    guest_image__names());
		r->image = arg;
		break;
	case OPT_INITRD:
		o->initrd = arg;
		break;
	case OPT_QEMU:
		o->qemu = arg;
		break;
	case OPT_MEMORY:
		if (!parse_long(arg, 64, 65536, &o->memory_mb))
			return fail(err, errlen, "--memory '%s': want MB 64..65536", arg);
		r->memory_set = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case OPT_JSON:
		o->json = true;
		break;
	case OPT_DRY_RUN:
		o->dry_run = true;
		break;
	case OPT_SHARD:
		return parse_shard(o, arg, err, errlen);
	case OPT_UNTIL_CI:
		if (!parse_seconds(arg, &r->until_ci_s) || r->until_ci_s > 3600)
			return fail(err, errlen, "--until-ci '%s': want a CI width in seconds, > 0 "
				    "and at most 3600", arg);
		break;
	case OPT_MAX_BOOTS:
		if (!parse_long(arg, UNTIL_MIN_ROUNDS, 100000, &r->max_boots))
			return fail(err, errlen, "--max-boots '%s': want a whole number %d..100000",
				    arg, UNTIL_MIN_ROUNDS);
		break;
	default:
		return fail(err, errlen, "unknown option (see bootprobe run --help)");
	}
	return 0;
}

/* A Debian image's files, unless given; its guest needs more memory. */
static void apply_debian(struct run_opts *o, const struct raw_opts *r, const char *image)
{
	/* The options outlive the run: the paths are kept here, not allocated. */
	static char kernel[256], initrd[256], root[256];
	const char *dir = guest_image__find(image)->dir;

	if (!strcmp(o->kernel, DEFAULT_KERNEL)) {
		snprintf(kernel, sizeof(kernel), "%s/vmlinuz", dir);
		o->kernel = kernel;
	}
	if (!strcmp(o->initrd, DEFAULT_INITRD)) {
		snprintf(initrd, sizeof(initrd), "%s/initrd.img", dir);
		o->initrd = initrd;
	}
	if (!o->root_image) {
		snprintf(root, sizeof(root), "%s/root.img", dir);
		o->root_image = root;
	}
	if (!r->memory_set)
		o->memory_mb = 2048;
}

/* A root disk smaller than 64 MB (or not a regular file) is no image. */
static bool image_too_small(const char *path)
{
	struct stat st;

	return stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size < (64 << 20);
}

/*
 * --append joins the scenario's cmdline, through the same checks: its own
 * bytes, then every mode's whole line, then what a cmdline may clash with.
 */
static int apply_append(struct scenario *sc, const char *append, char *err, int errlen)
{
	const struct mode *m;
	char why[256], *joined;
	size_t len;

	if (kernel_args__check(append, why, sizeof(why)))
		return fail(err, errlen, "--append: %s", why);
	joined = *sc->cmdline ? xasprintf("%s %s", sc->cmdline, append) : xstrdup(append);
	free(sc->cmdline);
	sc->cmdline = joined;
	m = scenario__too_long(sc, &len);
	if (m)
		return fail(err, errlen, "--append: makes the kernel command line of mode '%s' %zu "
			    "bytes, %zu over " KERNEL_CMDLINE_LIMIT, m->name, len,
			    kernel_cmdline__over(len));
	return scenario__validate(sc, err, errlen);
}

/*
 * --until-ci: --boots becomes the rounds before the first check (at least
 * UNTIL_MIN_ROUNDS) and the budget the boots planned, so names and draws
 * are a fixed run's.  Combinations that make no sense are refused here, one
 * line each; an option that splits or shares a run's boots belongs here too.
 */
static int apply_until(struct run_opts *o, const struct raw_opts *r, char *err, int errlen)
{
	if (r->max_boots && !(r->until_ci_s > 0))
		return fail(err, errlen, "--max-boots: only with --until-ci (a fixed run takes "
			    "--boots)");
	if (!(r->until_ci_s > 0))
		return 0;
	if (o->shard_n)
		return fail(err, errlen, "--until-ci: not with --shard (a run that decides its "
			    "own length cannot be cut into parts in advance)");
	if (o->sc.nr_modes < 2)
		return fail(err, errlen, "--until-ci: needs a mode besides the baseline to "
			    "compare with it");
	o->until_ci_s = r->until_ci_s;
	o->until_min = o->boots > UNTIL_MIN_ROUNDS ? o->boots : UNTIL_MIN_ROUNDS;
	o->boots = r->max_boots ? r->max_boots : UNTIL_DEFAULT_MAX;
	if (o->boots < o->until_min)
		return fail(err, errlen, "--max-boots %ld: fewer than the %ld rounds booted before "
			    "the first check (--boots)", o->boots, o->until_min);
	return 0;
}

/* Options override the scenario; the scenario overrides the defaults. */
static int apply(struct run_opts *o, const struct raw_opts *r, char *err, int errlen)
{
	struct scenario *sc = &o->sc;

	if (r->scenario && scenario__load(sc, r->scenario, err, errlen))
		return -1;
	for (int i = 0; i < r->nr_modes; i++)
		if (scenario__add_mode_spec(sc, r->modes[i], err, errlen))
			return -1;
	if (!sc->nr_modes && (scenario__add_mode_spec(sc, "sync", err, errlen) ||
			      scenario__add_mode_spec(sc, "async", err, errlen)))
		return -1;
	if (r->devices >= 0)
		sc->devices = r->devices;
	if (r->time_scale > 0)
		sc->time_scale = r->time_scale;
	if (r->image) {
		const struct guest_image_info *gi = guest_image__find(r->image);

		sc->image = gi->kind;
		sc->image_name = gi->name;
	}
	/* The overrides may have made the scenario impossible. */
	if ((r->devices >= 0 || r->time_scale > 0 || r->image) &&
	    scenario__validate(sc, err, errlen))
		return -1;
	if (r->append && apply_append(sc, r->append, err, errlen))
		return -1;
	o->boots = r->boots ? r->boots : sc->boots ? sc->boots : 1;
	if (o->shard_n > o->boots * sc->nr_modes)
		return fail(err, errlen, "--shard %ld/%ld: %ld parts of %ld boots (%d modes x %ld) "
			    "would leave some empty", o->shard_k, o->shard_n, o->shard_n,
			    o->boots * sc->nr_modes, sc->nr_modes, o->boots);
	if (o->shard_n && !o->run_id && !o->dry_run)
		return fail(err, errlen, "--shard: needs --run-id, the same on every part, so "
			    "bootprobe merge can join them");
	resolve_jobs(o, r->jobs ? r->jobs : sc->jobs, r->jobs ? "--jobs" : "scenario");
	if (apply_until(o, r, err, errlen))
		return -1;
	o->timeout_s = r->timeout_s > 0 ? r->timeout_s : sc->timeout_s > 0 ? sc->timeout_s
									   : DEFAULT_TIMEOUT_S;
	if (sc->image == IMAGE_DEBIAN)
		apply_debian(o, r, sc->image_name);
	if (o->root_writable && (!o->root_image || o->jobs > 1))
		return fail(err, errlen, "--root-writable: for image debian, one job at a time "
			    "(boots would write the same disk)");
	if (o->dry_run)
		return 0;
	if (o->root_image && image_too_small(o->root_image))
		return fail(err, errlen, "--root-image %s: missing, not a file or too small to be "
			    "a root file system (make debian-image)", o->root_image);
	if (!path_exists(o->kernel))
		return fail(err, errlen, "--kernel %s: no such file (make guests)", o->kernel);
	if (!path_exists(o->initrd))
		return fail(err, errlen, "--initrd %s: no such file (make guests)", o->initrd);
	return 0;
}

int run_opts__parse(struct run_opts *o, int argc, char **argv, char *err, int errlen)
{
	struct raw_opts r = { .devices = -1 };
	int c;

	memset(o, 0, sizeof(*o));
	scenario__init(&o->sc);
	o->jobs = 1;
	o->memory_mb = 512;
	o->accel = "auto";
	o->results = "results";
	o->kernel = DEFAULT_KERNEL;
	o->initrd = DEFAULT_INITRD;
	o->qemu = "qemu-system-x86_64";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:m:n:j:t:d:a:o:qh", long_opts, NULL)) != -1) {
		if (c == 'h')
			return 1;
		if (c == '?')
			return fail(err, errlen, "unknown option '%s' (see bootprobe run --help)",
				    argv[optind - 1]);
		if (c == ':')
			return fail(err, errlen, "option '%s' needs a value", argv[optind - 1]);
		if (parse_one(o, &r, c, optarg, err, errlen))
			return -1;
	}
	if (optind < argc)
		return fail(err, errlen, "unexpected argument '%s' (see bootprobe run --help)",
			    argv[optind]);
	return apply(o, &r, err, errlen);
}

void run_opts__free(struct run_opts *o)
{
	scenario__free(&o->sc);
}

/* `bootprobe run`: plan, then boot (or print the plan); the exit status of main.c's policy. */
int cmd_run(int argc, char **argv)
{
	struct run_opts opts;
	struct run run = { 0 };
	char err[512];
	int rc, bad = 0;

	rc = run_opts__parse(&opts, argc, argv, err, sizeof(err));
	if (rc) {
		if (rc > 0)
			run__usage(stdout);
		else
			fprintf(stderr, "bootprobe run: %s\n", err);
		run_opts__free(&opts);
		return rc > 0 ? 0 : 2;
	}
	run__plan(&run, &opts);
	if (opts.dry_run) {
		run__print_plan(&run, stdout);
		run__free(&run);
		run_opts__free(&opts);
		return 0;
	}
	rc = run__execute(&run);
	if (opts.json && run.dir) {
		char *path = xasprintf("%s/manifest.json", run.dir);
		char *text = read_file(path, NULL);

		if (text)
			fputs(text, stdout);
		free(text);
		free(path);
	}
	for (int i = 0; i < run.nr_boots; i++)
		bad += run.boots[i].finished && run.boots[i].outcome != OUTCOME_OK;
	if (run.interrupted)
		rc = 130;
	else if (rc)
		rc = 1;
	else
		rc = bad ? 1 : 0;
	run__free(&run);
	run_opts__free(&opts);
	return rc;
}

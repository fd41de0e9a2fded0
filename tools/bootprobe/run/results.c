// SPDX-License-Identifier: GPL-2.0
/*
 * A results folder:
 *   results/<run-id>/manifest.json          the run, rewritten after each boot
 *   results/<run-id>/boots/<mode>-<NNN>/    one boot:
 *       qemu-cmdline.txt  the exact QEMU command line (shell-quoted)
 *       console.log       the serial console
 *       events.jsonl      the event port (virtio-serial), decoded if binary
 *       events.port       the port's binary stream, kept only if damaged
 *       qemu.log          QEMU's own stdout and stderr
 *       boot.json         mode, outcome, exit status, wall time, host
 * Both JSON files are the results format's (resultfiles.h, docs/results.md).
 * A shard (run --shard K/N) is the same in RESULTS/RUN-ID.shard-K-of-N, its
 * manifest naming the shard and the whole plan; bootprobe merge joins them.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "cmdline.h"
#include "jsonio.h"
#include "resultfiles.h"
#include "runner.h"
#include "util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The machine that ran a boot: what a merged run of many hosts splits by. */
static const char *host_name(void)
{
	static struct utsname u;

	if (!u.nodename[0] && uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "?");
	return u.nodename;
}

/*
 * What the guest read from its whole command line (@guest_cmdline): the
 * analysis takes them from here, not from the text again.
 */
static void boot_file__settings(struct boot_file *f, struct boot_settings *s,
				const char *guest_cmdline)
{
	boot_settings__from_cmdline(s, guest_cmdline);
	f->has_settings = true;
	f->udev_event_timeout_s = s->udev_event_timeout_s;
	f->udev_timeout_signal = s->timeout_signal;
	f->kill_policy = s->kill_policy;
}

/*
 * The image's release, uname -r, the kernel package's version, its udev
 * package's version and what made its initrd ("dracut 106-6": initrd.generator and .version, when the
 * image.json has them), from image.json (@info); *@pkg_name and *@initrd
 * are strings to free.
 */
static void boot_file__image(struct boot_file *f, struct json_object *info, char **pkg_name,
			     char **initrd)
{
	struct json_object *kpkg = NULL, *gen = jget(info, "initrd"), *udev;

	f->image = jstr(info, "image");
	f->kernel_release = jstr(info, "kernel_release");
	*pkg_name = xasprintf("linux-image-%s", f->kernel_release);
	kpkg = jget(jget(info, "packages"), *pkg_name);
	if (kpkg && json_object_is_type(kpkg, json_type_string))
		f->kernel_package = json_object_get_string(kpkg);
	udev = jget(jget(info, "packages"), "udev");
	if (udev && json_object_is_type(udev, json_type_string))
		f->udev_version = json_object_get_string(udev);
	if (*jstr(gen, "generator"))
		f->initrd_generator = *initrd = *jstr(gen, "version") ?
			xasprintf("%s %s", jstr(gen, "generator"), jstr(gen, "version")) :
			xstrdup(jstr(gen, "generator"));
}

int results__write_boot(const struct run *run, const struct boot *b,
			const char *qemu_cmdline, const char *kernel_args,
			const char *guest_cmdline)
{
	const struct mode *m = &run->opts->sc.modes[b->mode];
	const struct frame_stats *fs = &b->port.fs;
	struct boot_settings s;
	struct boot_file f;
	char *path, *pkg_name = NULL, *initrd = NULL;
	int err;

	boot_file__init(&f);
	f.boot = b->name;
	f.mode = m->name;
	f.index = b->index;
	f.outcome = outcome__name(b->outcome);
	f.has_qemu_exit = true;
	f.qemu_exit = b->qe;
	f.wall_s = b->wall_s;
	f.console_last_write_s = b->console_last_write_s;
	f.has_event_port = b->port.binary;
	f.event_port = (struct port_counts){
		.frames = fs->frames, .samples = fs->samples, .refused = fs->refused,
		.skipped_bytes = fs->skipped_bytes, .cut_bytes = fs->cut_bytes,
	};
	f.started_at = b->started_at;
	f.accel = run->accel;
	f.host = host_name();
	f.kernel_cmdline = kernel_args;
	boot_file__settings(&f, &s, guest_cmdline);
	if (run->images[run->mode_image[b->mode]].info)
		boot_file__image(&f, run->images[run->mode_image[b->mode]].info, &pkg_name,
				 &initrd);
	f.qemu_cmdline = qemu_cmdline;
	f.devices = mode__devices(&run->opts->sc, m);
	path = xasprintf("%s/boot.json", b->dir);
	err = boot_file__write(&f, path, "bootprobe");
	free(path);
	free(pkg_name);
	free(initrd);
	return err;
}

static void host_info__here(struct host_info *h, struct utsname *u)
{
	struct sysinfo si;

	host_info__init(h);
	if (!uname(u)) {
		h->hostname = u->nodename;
		h->kernel = u->release;
		h->machine = u->machine;
	}
	h->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!sysinfo(&si))
		h->memory_mb = (long)((int64_t)si.totalram * si.mem_unit >> 20);
}

/* A time in seconds the scenario sets, NAN when it does not. */
static double set_seconds(double s)
{
	return s > 0 ? s : NAN;
}

/* The scenario's modes; their kernel arguments are in @args, to free. */
static struct manifest_mode *modes__manifest(const struct run *run, struct strv *args)
{
	const struct scenario *sc = &run->opts->sc;
	struct manifest_mode *v = xcalloc(sc->nr_modes ? sc->nr_modes : 1, sizeof(*v));

	for (int i = 0; i < sc->nr_modes; i++) {
		const struct mode *m = &sc->modes[i];
		struct manifest_mode *mm = &v[i];
		char *a = mode__kernel_args(sc, m, 1);

		strv__push(args, a);
		free(a);
		manifest_mode__init(mm);
		mm->name = m->name;
		mm->kernel_args = args->v[args->n - 1];
		mm->udev_event_timeout_s = set_seconds(m->event_timeout * sc->time_scale);
		mm->udev_conf_event_timeout_s = set_seconds(m->conf_event_timeout * sc->time_scale);
		mm->rules_event_timeout_s = set_seconds(m->rules_event_timeout * sc->time_scale);
		mm->udev_timeout_signal = m->timeout_signal;
		mm->kill_policy = m->kill_policy;
		if (m->kill_policy && !strcmp(m->kill_policy, "grace"))
			mm->grace_ms = lround(m->grace_ms * sc->time_scale);
		mm->devices = mode__devices(sc, m);
		mm->image = m->image_name;
	}
	return v;
}

/* The finished boots; their folders ("boots/NAME") are in @dirs, to free. */
static size_t boots__manifest(const struct run *run, struct manifest_boot **out,
			      struct strv *dirs)
{
	struct manifest_boot *v = xcalloc(run->nr_boots ? run->nr_boots : 1, sizeof(*v));
	size_t n = 0;

	for (int i = 0; i < run->nr_boots; i++) {
		const struct boot *b = &run->boots[i];
		struct manifest_boot *mb = &v[n];

		if (!b->finished)
			continue;
		strv__pushf(dirs, "boots/%s", b->name);
		manifest_boot__init(mb);
		mb->boot = b->name;
		mb->mode = run->opts->sc.modes[b->mode].name;
		mb->dir = dirs->v[dirs->n - 1];
		mb->outcome = outcome__name(b->outcome);
		mb->wall_s = b->wall_s;
		mb->host = host_name();
		n++;
	}
	*out = v;
	return n;
}

/* A part of a sharded run: which, and where it sits in the whole plan. */
static void shard__manifest(struct manifest *man, const struct run *run)
{
	const struct run_opts *opts = run->opts;

	man->has_shard = true;
	man->shard.k = opts->shard_k;
	man->shard.n = opts->shard_n;
	shard__range(run->nr_planned, opts->shard_k, opts->shard_n, &man->shard.first,
		     &man->shard.end);
	man->shard.folder = run->folder;
}

static void until__manifest(struct manifest *man, const struct run *run)
{
	man->has_until = true;
	man->until.ci_width_s = run->opts->until_ci_s;
	man->until.first_check_after = run->opts->until_min;
	man->until.max_boots_per_mode = run->opts->boots;
	man->until.ended = run->until_end[0] ? run->until_end : NULL;
}

/* The scenario, the host and the tools: what the run ran with. */
static void setup__manifest(struct manifest *man, const struct run *run, struct utsname *u)
{
	const struct run_opts *opts = run->opts;

	man->run_id = run->id;
	man->scenario = opts->sc.name;
	man->scenario_file = opts->sc.path;
	man->time_scale = opts->sc.time_scale;
	man->controller = opts->sc.controller;
	man->image = opts->sc.image_name;
	man->root_image = opts->root_image;
	man->root_writable = opts->root_writable;
	man->image_info = run->images[0].info;
	man->baseline = opts->sc.baseline;
	man->has_host = true;
	host_info__here(&man->host, u);
	man->qemu_version = run->qemu_version;
	man->accel_requested = opts->accel;
	man->accel_used = run->accel;
	man->accel_reason = run->accel_reason;
	man->kernel = opts->kernel;
	man->initrd = opts->initrd;
	man->kernel_build_hash = run->images[0].build_hash;
	man->guest_args = run->images[0].guest_args;
}

int results__write_manifest(const struct run *run)
{
	const struct run_opts *opts = run->opts;
	struct strv args = { 0 }, dirs = { 0 };
	struct manifest man;
	struct utsname u;
	char *path;
	int err;

	manifest__init(&man);
	setup__manifest(&man, run, &u);
	man.boots_per_mode = opts->boots;
	man.jobs = opts->jobs;
	man.jobs_from = opts->jobs_from;
	man.timeout_s = opts->timeout_s;
	man.modes = modes__manifest(run, &args);
	man.nr_modes = opts->sc.nr_modes;
	man.boots_planned = run->nr_boots;
	man.plan_hash = run->plan_hash;
	man.plan_boots = run->nr_planned;
	if (opts->shard_n)
		shard__manifest(&man, run);
	man.nr_boots = boots__manifest(run, &man.boots, &dirs);
	man.started_at = run->started_at;
	man.ended_at = run->ended_at[0] ? run->ended_at : NULL;
	man.interrupted = run->interrupted;
	if (opts->until_ci_s > 0)
		until__manifest(&man, run);
	path = xasprintf("%s/manifest.json", run->dir);
	err = manifest__write(&man, path, "bootprobe");
	free(path);
	free(man.modes);
	free(man.boots);
	strv__free(&args);
	strv__free(&dirs);
	return err;
}

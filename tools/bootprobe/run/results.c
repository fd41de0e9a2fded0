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
 * A shard (run --shard K/N) is the same in RESULTS/RUN-ID.shard-K-of-N, its
 * manifest naming the shard and the whole plan; bootprobe merge joins them.
 */
#define _GNU_SOURCE
#include "boot.h"
#include "cmdline.h"
#include "jsonio.h"
#include "runner.h"
#include "util.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Seconds with millisecond precision, printed as such ("17.018"). */
static struct json_object *json_seconds(double s)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.3f", s);
	return json_object_new_double_s(s, buf);
}

static void add_str(struct json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, val ? json_object_new_string(val) : NULL);
}

static struct json_object *qemu_exit__json(const struct qemu_exit *qe)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "exited", json_object_new_boolean(qe->exited));
	if (qe->exited)
		json_object_object_add(o, "code", json_object_new_int(qe->status));
	else
		json_object_object_add(o, "signal", json_object_new_int(qe->status));
	json_object_object_add(o, "killed_at_timeout", json_object_new_boolean(qe->timed_out));
	json_object_object_add(o, "killed_by_interrupt", json_object_new_boolean(qe->interrupted));
	return o;
}

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
static void add_settings(struct json_object *o, const char *guest_cmdline)
{
	struct boot_settings s;

	boot_settings__from_cmdline(&s, guest_cmdline);
	json_object_object_add(o, "udev_event_timeout_s", json_seconds(s.udev_event_timeout_s));
	add_str(o, "udev_timeout_signal", s.timeout_signal);
	add_str(o, "kill_policy", s.kill_policy);
}

/* How the port's binary stream decoded: frames, and what was refused or cut. */
static struct json_object *port__json(const struct port_stats *ps)
{
	struct json_object *o = json_object_new_object();

	add_str(o, "format", "binary");
	json_object_object_add(o, "frames", json_object_new_int64(ps->fs.frames));
	json_object_object_add(o, "samples", json_object_new_int64(ps->fs.samples));
	json_object_object_add(o, "refused", json_object_new_int64(ps->fs.refused));
	json_object_object_add(o, "skipped_bytes", json_object_new_int64(ps->fs.skipped_bytes));
	json_object_object_add(o, "cut_bytes", json_object_new_int64(ps->fs.cut_bytes));
	return o;
}

int results__write_boot(const struct run *run, const struct boot *b,
			const char *qemu_cmdline, const char *kernel_args,
			const char *guest_cmdline)
{
	const struct mode *m = &run->opts->sc.modes[b->mode];
	struct json_object *o = json_object_new_object();
	char *path;
	int err;

	add_str(o, "boot", b->name);
	add_str(o, "mode", m->name);
	json_object_object_add(o, "index", json_object_new_int(b->index));
	add_str(o, "outcome", outcome__name(b->outcome));
	json_object_object_add(o, "qemu_exit", qemu_exit__json(&b->qe));
	json_object_object_add(o, "wall_s", json_seconds(b->wall_s));
	if (!isnan(b->console_last_write_s))
		json_object_object_add(o, "console_last_write_s",
				       json_seconds(b->console_last_write_s));
	if (b->port.binary)
		json_object_object_add(o, "event_port", port__json(&b->port));
	add_str(o, "started_at", b->started_at);
	add_str(o, "accel", run->accel);
	add_str(o, "host", host_name());
	add_str(o, "kernel_cmdline", kernel_args);
	add_settings(o, guest_cmdline);
	if (run->image_info) {
		const char *kver = jstr(run->image_info, "kernel_release");
		json_object *pkgs = NULL, *kpkg = NULL;
		char *name = xasprintf("linux-image-%s", kver);

		/* The release, the kernel package's version and uname -r. */
		add_str(o, "image", jstr(run->image_info, "image"));
		add_str(o, "kernel_release", kver);
		if (json_object_object_get_ex(run->image_info, "packages", &pkgs) &&
		    json_object_object_get_ex(pkgs, name, &kpkg) &&
		    json_object_is_type(kpkg, json_type_string))
			add_str(o, "kernel_package", json_object_get_string(kpkg));
		free(name);
	}
	add_str(o, "qemu_cmdline", qemu_cmdline);
	json_object_object_add(o, "devices",
			       json_object_new_int(mode__devices(&run->opts->sc, m)));
	path = xasprintf("%s/boot.json", b->dir);
	err = jwrite(path, o, "bootprobe");
	free(path);
	json_object_put(o);
	return err;
}

static struct json_object *host__json(void)
{
	struct json_object *o = json_object_new_object();
	struct utsname u;
	struct sysinfo si;

	if (!uname(&u)) {
		add_str(o, "hostname", u.nodename);
		add_str(o, "kernel", u.release);
		add_str(o, "machine", u.machine);
	}
	json_object_object_add(o, "cpus", json_object_new_int(sysconf(_SC_NPROCESSORS_ONLN)));
	if (!sysinfo(&si))
		json_object_object_add(o, "memory_mb",
			json_object_new_int64((int64_t)si.totalram * si.mem_unit >> 20));
	return o;
}

/* A time in seconds, left out when not set. */
static void add_seconds(struct json_object *o, const char *key, double s)
{
	if (s > 0)
		json_object_object_add(o, key, json_object_new_double(s));
}

static struct json_object *modes__json(const struct run *run)
{
	const struct scenario *sc = &run->opts->sc;
	struct json_object *arr = json_object_new_array();

	for (int i = 0; i < sc->nr_modes; i++) {
		const struct mode *m = &sc->modes[i];
		struct json_object *o = json_object_new_object();
		char *args = mode__kernel_args(sc, m, 1);

		add_str(o, "name", m->name);
		add_str(o, "kernel_args", args);
		add_seconds(o, "udev_event_timeout_s", m->event_timeout * sc->time_scale);
		add_seconds(o, "udev_conf_event_timeout_s", m->conf_event_timeout * sc->time_scale);
		add_seconds(o, "rules_event_timeout_s", m->rules_event_timeout * sc->time_scale);
		add_str(o, "udev_timeout_signal", m->timeout_signal);
		add_str(o, "kill_policy", m->kill_policy);
		if (m->kill_policy && !strcmp(m->kill_policy, "grace"))
			json_object_object_add(o, "grace_ms",
				json_object_new_int64(lround(m->grace_ms * sc->time_scale)));
		json_object_object_add(o, "devices", json_object_new_int(mode__devices(sc, m)));
		json_object_array_add(arr, o);
		free(args);
	}
	return arr;
}

static struct json_object *boots__json(const struct run *run)
{
	struct json_object *arr = json_object_new_array();

	for (int i = 0; i < run->nr_boots; i++) {
		const struct boot *b = &run->boots[i];
		struct json_object *o;

		if (!b->finished)
			continue;
		o = json_object_new_object();
		add_str(o, "boot", b->name);
		add_str(o, "mode", run->opts->sc.modes[b->mode].name);
		{
			char *rel = xasprintf("boots/%s", b->name);

			add_str(o, "dir", rel);
			free(rel);
		}
		add_str(o, "outcome", outcome__name(b->outcome));
		json_object_object_add(o, "wall_s", json_seconds(b->wall_s));
		add_str(o, "host", host_name());
		json_object_array_add(arr, o);
	}
	return arr;
}

/* A part of a sharded run: which, and where it sits in the whole plan. */
static struct json_object *shard__json(const struct run *run)
{
	const struct run_opts *opts = run->opts;
	struct json_object *o = json_object_new_object();
	long lo, hi;

	shard__range(run->nr_planned, opts->shard_k, opts->shard_n, &lo, &hi);
	json_object_object_add(o, "k", json_object_new_int64(opts->shard_k));
	json_object_object_add(o, "n", json_object_new_int64(opts->shard_n));
	json_object_object_add(o, "first", json_object_new_int64(lo));
	json_object_object_add(o, "end", json_object_new_int64(hi));
	add_str(o, "folder", run->folder);
	return o;
}

int results__write_manifest(const struct run *run)
{
	const struct run_opts *opts = run->opts;
	struct json_object *o = json_object_new_object();
	struct json_object *acc = json_object_new_object();
	char *path;
	int err;

	json_object_object_add(o, "schema", json_object_new_int(1));
	add_str(o, "run_id", run->id);
	add_str(o, "scenario", opts->sc.name);
	add_str(o, "scenario_file", opts->sc.path);
	json_object_object_add(o, "time_scale", json_object_new_double(opts->sc.time_scale));
	add_str(o, "controller", opts->sc.controller);
	add_str(o, "image", opts->sc.image_name);
	add_str(o, "root_image", opts->root_image);
	json_object_object_add(o, "root_writable", json_object_new_boolean(opts->root_writable));
	if (run->image_info)
		json_object_object_add(o, "image_info", json_object_get(run->image_info));
	add_str(o, "baseline", opts->sc.baseline);
	json_object_object_add(o, "host", host__json());
	add_str(o, "qemu_version", run->qemu_version);
	add_str(acc, "requested", opts->accel);
	add_str(acc, "used", run->accel);
	add_str(acc, "reason", run->accel_reason);
	json_object_object_add(o, "accel", acc);
	add_str(o, "kernel", opts->kernel);
	add_str(o, "initrd", opts->initrd);
	add_str(o, "kernel_build_hash", run->build_hash);
	add_str(o, "guest_args", run->guest_args);
	json_object_object_add(o, "boots_per_mode", json_object_new_int(opts->boots));
	json_object_object_add(o, "jobs", json_object_new_int(opts->jobs));
	add_str(o, "jobs_from", opts->jobs_from);
	json_object_object_add(o, "timeout_s", json_seconds(opts->timeout_s));
	json_object_object_add(o, "modes", modes__json(run));
	json_object_object_add(o, "boots_planned", json_object_new_int(run->nr_boots));
	add_str(o, "plan_hash", run->plan_hash);
	json_object_object_add(o, "plan_boots", json_object_new_int(run->nr_planned));
	if (opts->shard_n)
		json_object_object_add(o, "shard", shard__json(run));
	json_object_object_add(o, "boots", boots__json(run));
	add_str(o, "started_at", run->started_at);
	add_str(o, "ended_at", run->ended_at[0] ? run->ended_at : NULL);
	json_object_object_add(o, "interrupted", json_object_new_boolean(run->interrupted));
	if (opts->until_ci_s > 0) {
		struct json_object *u = json_object_new_object();

		json_object_object_add(u, "ci_width_s", json_seconds(opts->until_ci_s));
		json_object_object_add(u, "first_check_after", json_object_new_int(opts->until_min));
		json_object_object_add(u, "max_boots_per_mode", json_object_new_int(opts->boots));
		add_str(u, "ended", run->until_end[0] ? run->until_end : NULL);
		json_object_object_add(o, "until", u);
	}
	path = xasprintf("%s/manifest.json", run->dir);
	err = jwrite(path, o, "bootprobe");
	free(path);
	json_object_put(o);
	return err;
}

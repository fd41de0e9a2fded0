// SPDX-License-Identifier: GPL-2.0
/*
 * The one writer and the one reader of boot.json and manifest.json
 * (resultfiles.h; every key in docs/results.md).  The writer builds each
 * file from its struct in one fixed order; the reader takes only what
 * has the documented type, so a results folder from elsewhere may hold
 * anything.
 */
#define _GNU_SOURCE
#include "resultfiles.h"
#include "jsonio.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *outcome__name(enum outcome o)
{
	switch (o) {
	case OUTCOME_OK:
		return "ok";
	case OUTCOME_TIMEOUT:
		return "timeout";
	case OUTCOME_PANIC:
		return "panic";
	case OUTCOME_QEMU_ERROR:
		return "qemu-error";
	case OUTCOME_INTERRUPTED:
		return "interrupted";
	}
	return "unknown";
}

int results__schema(struct json_object *o, const char *label, char *err, int errlen)
{
	struct json_object *v = jget(o, "schema");
	bool is_int = v && json_object_is_type(v, json_type_int);
	int64_t n = is_int ? json_object_get_int64(v) : -1;

	if (!v)
		return 0;
	if (is_int && n >= RESULTS_SCHEMA_OLDEST && n <= RESULTS_SCHEMA)
		return (int)n;
	if (!is_int)
		snprintf(err, errlen, "%s: schema '%.40s' is no version: this bootprobe reads "
			 "schemas %d to %d", label, json_object_get_string(v),
			 RESULTS_SCHEMA_OLDEST, RESULTS_SCHEMA);
	else
		snprintf(err, errlen, "%s: schema %lld: this bootprobe reads schemas %d to %d",
			 label, (long long)n, RESULTS_SCHEMA_OLDEST, RESULTS_SCHEMA);
	return -1;
}

/* ---- writing: a key with no value is left out ------------------------------------ */

/* Seconds with millisecond precision, printed as such ("17.018"). */
static void put_seconds(struct json_object *o, const char *key, double s)
{
	char buf[32];

	if (!isfinite(s))
		return;
	snprintf(buf, sizeof(buf), "%.3f", s);
	json_object_object_add(o, key, json_object_new_double_s(s, buf));
}

/* A factor, every digit kept. */
static void put_double(struct json_object *o, const char *key, double v)
{
	if (isfinite(v))
		json_object_object_add(o, key, json_object_new_double(v));
}

static void put_str(struct json_object *o, const char *key, const char *s)
{
	if (s)
		json_object_object_add(o, key, json_object_new_string(s));
}

static void put_long(struct json_object *o, const char *key, long v)
{
	if (v >= 0)
		json_object_object_add(o, key, json_object_new_int64(v));
}

static void put_bool(struct json_object *o, const char *key, int v)
{
	if (v >= 0)
		json_object_object_add(o, key, json_object_new_boolean(v));
}

static void put_obj(struct json_object *o, const char *key, struct json_object *v)
{
	if (v)
		json_object_object_add(o, key, v);
}

/* ---- reading: what has another type is not there ------------------------------- */

static const char *get_str(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

/* An integer at least 0, else -1. */
static long get_long(struct json_object *o, const char *key)
{
	return jlong(o, key, 0, LONG_MAX);
}

static int get_bool(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_is_type(v, json_type_boolean) ? json_object_get_boolean(v) : -1;
}

/* @o at @key as an object, or NULL. */
static struct json_object *get_obj(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_is_type(v, json_type_object) ? v : NULL;
}

/*
 * @text parsed as an object of a schema this bootprobe reads: the object,
 * its schema in *@schema; NULL with "LABEL: why" in @err.
 */
static struct json_object *parse_versioned(const char *text, size_t len, const char *label,
					   int *schema, char *err, int errlen)
{
	const char *why = NULL;
	struct json_object *o = jparse(text, len, &why);

	if (!o) {
		snprintf(err, errlen, "%s: %s", label, why);
		return NULL;
	}
	*schema = results__schema(o, label, err, errlen);
	if (*schema < 0) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* ---- boot.json ------------------------------------------------------------------ */

void boot_file__init(struct boot_file *f)
{
	*f = (struct boot_file){
		.schema = RESULTS_SCHEMA, .index = -1, .devices = -1,
		.wall_s = NAN, .console_last_write_s = NAN, .udev_event_timeout_s = NAN,
	};
}

static struct json_object *qemu_exit__json(const struct qemu_exit *qe)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "exited", json_object_new_boolean(qe->exited));
	json_object_object_add(o, qe->exited ? "code" : "signal",
			       json_object_new_int(qe->status));
	json_object_object_add(o, "killed_at_timeout", json_object_new_boolean(qe->timed_out));
	json_object_object_add(o, "killed_by_interrupt", json_object_new_boolean(qe->interrupted));
	return o;
}

static struct json_object *port_counts__json(const struct port_counts *pc)
{
	struct json_object *o = json_object_new_object();

	put_str(o, "format", "binary");
	json_object_object_add(o, "frames", json_object_new_int64(pc->frames));
	json_object_object_add(o, "samples", json_object_new_int64(pc->samples));
	json_object_object_add(o, "refused", json_object_new_int64(pc->refused));
	json_object_object_add(o, "skipped_bytes", json_object_new_int64(pc->skipped_bytes));
	json_object_object_add(o, "cut_bytes", json_object_new_int64(pc->cut_bytes));
	return o;
}

struct json_object *boot_file__json(const struct boot_file *f)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "schema", json_object_new_int(RESULTS_SCHEMA));
	put_str(o, "boot", f->boot);
	put_str(o, "mode", f->mode);
	put_long(o, "index", f->index);
	put_str(o, "outcome", f->outcome);
	if (f->has_qemu_exit)
		put_obj(o, "qemu_exit", qemu_exit__json(&f->qemu_exit));
	put_seconds(o, "wall_s", f->wall_s);
	put_seconds(o, "console_last_write_s", f->console_last_write_s);
	if (f->has_event_port)
		put_obj(o, "event_port", port_counts__json(&f->event_port));
	put_str(o, "started_at", f->started_at);
	put_str(o, "accel", f->accel);
	put_str(o, "host", f->host);
	put_str(o, "kernel_cmdline", f->kernel_cmdline);
	if (f->has_settings) {
		put_seconds(o, "udev_event_timeout_s", f->udev_event_timeout_s);
		put_str(o, "udev_timeout_signal", f->udev_timeout_signal);
		put_str(o, "kill_policy", f->kill_policy);
	}
	put_str(o, "image", f->image);
	put_str(o, "kernel_release", f->kernel_release);
	put_str(o, "kernel_package", f->kernel_package);
	put_str(o, "initrd_generator", f->initrd_generator);
	put_str(o, "udev_version", f->udev_version);
	put_str(o, "machine", f->machine);
	put_str(o, "imported_from", f->imported_from);
	put_str(o, "qemu_cmdline", f->qemu_cmdline);
	put_long(o, "devices", f->devices);
	return o;
}

int boot_file__write(const struct boot_file *f, const char *path, const char *who)
{
	struct json_object *o = boot_file__json(f);
	int err = jwrite(path, o, who);

	json_object_put(o);
	return err;
}

static void qemu_exit__read(struct boot_file *f, struct json_object *q)
{
	f->has_qemu_exit = q != NULL;
	f->qemu_exit.exited = get_bool(q, "exited") == 1;
	f->qemu_exit.status = (int)jint(q, f->qemu_exit.exited ? "code" : "signal", 0);
	f->qemu_exit.timed_out = get_bool(q, "killed_at_timeout") == 1;
	f->qemu_exit.interrupted = get_bool(q, "killed_by_interrupt") == 1;
}

static void port_counts__read(struct boot_file *f, struct json_object *p)
{
	f->has_event_port = p != NULL;
	f->event_port.frames = jint(p, "frames", 0);
	f->event_port.samples = jint(p, "samples", 0);
	f->event_port.refused = jint(p, "refused", 0);
	f->event_port.skipped_bytes = jint(p, "skipped_bytes", 0);
	f->event_port.cut_bytes = jint(p, "cut_bytes", 0);
}

/*
 * The guest's settings: present as a group (the runner writes all three,
 * null for none); a boot.json without them (before the runner wrote them,
 * or imported) leaves them to the command line.
 */
static void settings__read(struct boot_file *f, struct json_object *o)
{
	f->has_settings = jget(o, "kill_policy") || jget(o, "udev_timeout_signal") ||
			  jget(o, "udev_event_timeout_s");
	f->udev_event_timeout_s = jseconds(o, "udev_event_timeout_s", 0, 86400);
	f->udev_timeout_signal = get_str(o, "udev_timeout_signal");
	f->kill_policy = get_str(o, "kill_policy");
}

int boot_file__parse(struct boot_file *f, const char *text, size_t len, const char *label,
		     char *err, int errlen)
{
	struct json_object *o;

	boot_file__init(f);
	o = parse_versioned(text, len, label, &f->schema, err, errlen);
	if (!o)
		return -1;
	f->json = o;
	f->boot = get_str(o, "boot");
	f->mode = get_str(o, "mode");
	f->index = get_long(o, "index");
	f->outcome = get_str(o, "outcome");
	qemu_exit__read(f, get_obj(o, "qemu_exit"));
	f->wall_s = jseconds(o, "wall_s", 0, 86400);
	f->console_last_write_s = jseconds(o, "console_last_write_s", 0, 86400);
	port_counts__read(f, get_obj(o, "event_port"));
	f->started_at = get_str(o, "started_at");
	f->accel = get_str(o, "accel");
	f->host = get_str(o, "host");
	f->kernel_cmdline = get_str(o, "kernel_cmdline");
	settings__read(f, o);
	f->image = get_str(o, "image");
	f->kernel_release = get_str(o, "kernel_release");
	f->kernel_package = get_str(o, "kernel_package");
	f->initrd_generator = get_str(o, "initrd_generator");
	f->udev_version = get_str(o, "udev_version");
	f->machine = get_str(o, "machine");
	f->imported_from = get_str(o, "imported_from");
	f->qemu_cmdline = get_str(o, "qemu_cmdline");
	f->devices = get_long(o, "devices");
	return 0;
}

void boot_file__free(struct boot_file *f)
{
	json_object_put(f->json);
	f->json = NULL;
}

/* ---- manifest.json -------------------------------------------------------------- */

void host_info__init(struct host_info *h)
{
	*h = (struct host_info){ .cpus = -1, .memory_mb = -1 };
}

void manifest_mode__init(struct manifest_mode *mm)
{
	*mm = (struct manifest_mode){
		.udev_event_timeout_s = NAN, .udev_conf_event_timeout_s = NAN,
		.rules_event_timeout_s = NAN, .grace_ms = -1, .devices = -1,
	};
}

void manifest_boot__init(struct manifest_boot *mb)
{
	*mb = (struct manifest_boot){ .wall_s = NAN };
}

void manifest__init(struct manifest *m)
{
	*m = (struct manifest){
		.schema = RESULTS_SCHEMA, .time_scale = NAN, .root_writable = -1,
		.boots_per_mode = -1, .jobs = -1, .timeout_s = NAN, .boots_planned = -1,
		.plan_boots = -1, .interrupted = -1,
	};
	host_info__init(&m->host);
}

static struct json_object *host_info__json(const struct host_info *h)
{
	struct json_object *o = json_object_new_object();

	put_str(o, "hostname", h->hostname);
	put_str(o, "kernel", h->kernel);
	put_str(o, "machine", h->machine);
	put_long(o, "cpus", h->cpus);
	put_long(o, "memory_mb", h->memory_mb);
	return o;
}

static struct json_object *accel__json(const struct manifest *m)
{
	struct json_object *o;

	if (!m->accel_requested && !m->accel_used && !m->accel_reason)
		return NULL;
	o = json_object_new_object();
	put_str(o, "requested", m->accel_requested);
	put_str(o, "used", m->accel_used);
	put_str(o, "reason", m->accel_reason);
	return o;
}

static struct json_object *modes__json(const struct manifest *m)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < m->nr_modes; i++) {
		const struct manifest_mode *mm = &m->modes[i];
		struct json_object *o = json_object_new_object();

		put_str(o, "name", mm->name);
		put_str(o, "kernel_args", mm->kernel_args);
		put_seconds(o, "udev_event_timeout_s", mm->udev_event_timeout_s);
		put_seconds(o, "udev_conf_event_timeout_s", mm->udev_conf_event_timeout_s);
		put_seconds(o, "rules_event_timeout_s", mm->rules_event_timeout_s);
		put_str(o, "udev_timeout_signal", mm->udev_timeout_signal);
		put_str(o, "kill_policy", mm->kill_policy);
		put_long(o, "grace_ms", mm->grace_ms);
		put_long(o, "devices", mm->devices);
		put_str(o, "image", mm->image);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *boots__json(const struct manifest *m)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < m->nr_boots; i++) {
		const struct manifest_boot *mb = &m->boots[i];
		struct json_object *o = json_object_new_object();

		put_str(o, "boot", mb->boot);
		put_str(o, "mode", mb->mode);
		put_str(o, "dir", mb->dir);
		put_str(o, "outcome", mb->outcome);
		put_seconds(o, "wall_s", mb->wall_s);
		put_str(o, "host", mb->host);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *shard__json(const struct manifest_shard *s)
{
	struct json_object *o = json_object_new_object();

	put_long(o, "k", s->k);
	put_long(o, "n", s->n);
	put_long(o, "first", s->first);
	put_long(o, "end", s->end);
	put_str(o, "folder", s->folder);
	return o;
}

static struct json_object *parts__json(const struct manifest *m)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < m->nr_parts; i++) {
		const struct manifest_part *p = &m->parts[i];
		struct json_object *o = json_object_new_object();

		put_str(o, "folder", p->folder);
		put_long(o, "k", p->k);
		put_long(o, "n", p->n);
		put_str(o, "hostname", p->hostname);
		if (p->has_host)
			put_obj(o, "host", host_info__json(&p->host));
		put_long(o, "jobs", p->jobs);
		put_str(o, "started_at", p->started_at);
		put_str(o, "ended_at", p->ended_at);
		put_long(o, "boots", p->boots);
		json_object_array_add(arr, o);
	}
	return arr;
}

static struct json_object *until__json(const struct manifest_until *u)
{
	struct json_object *o = json_object_new_object();

	put_seconds(o, "ci_width_s", u->ci_width_s);
	put_long(o, "first_check_after", u->first_check_after);
	put_long(o, "max_boots_per_mode", u->max_boots_per_mode);
	put_str(o, "ended", u->ended);
	return o;
}

/* The scenario and what it ran on: the keys before the plan. */
static void manifest__json_setup(struct json_object *o, const struct manifest *m)
{
	put_str(o, "run_id", m->run_id);
	put_str(o, "scenario", m->scenario);
	put_str(o, "scenario_file", m->scenario_file);
	put_double(o, "time_scale", m->time_scale);
	put_str(o, "controller", m->controller);
	put_str(o, "image", m->image);
	put_str(o, "root_image", m->root_image);
	put_bool(o, "root_writable", m->root_writable);
	if (m->image_info)
		put_obj(o, "image_info", json_object_get(m->image_info));
	put_str(o, "baseline", m->baseline);
	if (m->has_host)
		put_obj(o, "host", host_info__json(&m->host));
	put_str(o, "qemu_version", m->qemu_version);
	put_obj(o, "accel", accel__json(m));
	put_str(o, "kernel", m->kernel);
	put_str(o, "initrd", m->initrd);
	put_str(o, "kernel_build_hash", m->kernel_build_hash);
	put_str(o, "guest_args", m->guest_args);
}

struct json_object *manifest__json(const struct manifest *m)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "schema", json_object_new_int(RESULTS_SCHEMA));
	manifest__json_setup(o, m);
	put_long(o, "boots_per_mode", m->boots_per_mode);
	put_long(o, "jobs", m->jobs);
	put_str(o, "jobs_from", m->jobs_from);
	put_seconds(o, "timeout_s", m->timeout_s);
	json_object_object_add(o, "modes", modes__json(m));
	put_long(o, "boots_planned", m->boots_planned);
	put_str(o, "plan_hash", m->plan_hash);
	put_long(o, "plan_boots", m->plan_boots);
	if (m->has_shard)
		put_obj(o, "shard", shard__json(&m->shard));
	json_object_object_add(o, "boots", boots__json(m));
	if (m->nr_parts)
		put_obj(o, "parts", parts__json(m));
	put_str(o, "started_at", m->started_at);
	put_str(o, "ended_at", m->ended_at);
	put_bool(o, "interrupted", m->interrupted);
	if (m->has_until)
		put_obj(o, "until", until__json(&m->until));
	return o;
}

int manifest__write(const struct manifest *m, const char *path, const char *who)
{
	struct json_object *o = manifest__json(m);
	int err = jwrite(path, o, who);

	json_object_put(o);
	return err;
}

static void host_info__read(struct host_info *h, struct json_object *o)
{
	h->hostname = get_str(o, "hostname");
	h->kernel = get_str(o, "kernel");
	h->machine = get_str(o, "machine");
	h->cpus = get_long(o, "cpus");
	h->memory_mb = get_long(o, "memory_mb");
}

/* The elements of array @key of @o that are objects, and how many. */
static size_t objects_of(struct json_object *o, const char *key, struct json_object ***out)
{
	struct json_object *a = jarr(o, key);
	size_t n = 0;

	*out = xcalloc(jlen(a) ? jlen(a) : 1, sizeof(**out));
	for (size_t i = 0; i < jlen(a); i++) {
		struct json_object *e = json_object_array_get_idx(a, i);

		/* Kept in place as an empty one: a boot's number in messages stays its own. */
		(*out)[n++] = e && json_object_is_type(e, json_type_object) ? e : NULL;
	}
	return n;
}

static void modes__read(struct manifest *m, struct json_object *o)
{
	struct json_object **v;

	m->nr_modes = objects_of(o, "modes", &v);
	m->modes = xcalloc(m->nr_modes ? m->nr_modes : 1, sizeof(*m->modes));
	for (size_t i = 0; i < m->nr_modes; i++) {
		struct manifest_mode *mm = &m->modes[i];

		manifest_mode__init(mm);
		mm->name = get_str(v[i], "name");
		mm->kernel_args = get_str(v[i], "kernel_args");
		mm->udev_event_timeout_s = jseconds(v[i], "udev_event_timeout_s", 0, 86400);
		mm->udev_conf_event_timeout_s = jseconds(v[i], "udev_conf_event_timeout_s", 0, 86400);
		mm->rules_event_timeout_s = jseconds(v[i], "rules_event_timeout_s", 0, 86400);
		mm->udev_timeout_signal = get_str(v[i], "udev_timeout_signal");
		mm->kill_policy = get_str(v[i], "kill_policy");
		mm->grace_ms = get_long(v[i], "grace_ms");
		mm->devices = get_long(v[i], "devices");
		mm->image = get_str(v[i], "image");
	}
	free(v);
}

static void boots__read(struct manifest *m, struct json_object *o)
{
	struct json_object **v;

	m->has_boots = jarr(o, "boots") != NULL;
	m->nr_boots = objects_of(o, "boots", &v);
	m->boots = xcalloc(m->nr_boots ? m->nr_boots : 1, sizeof(*m->boots));
	for (size_t i = 0; i < m->nr_boots; i++) {
		struct manifest_boot *mb = &m->boots[i];

		manifest_boot__init(mb);
		mb->boot = get_str(v[i], "boot");
		mb->mode = get_str(v[i], "mode");
		mb->dir = get_str(v[i], "dir");
		mb->outcome = get_str(v[i], "outcome");
		mb->wall_s = jseconds(v[i], "wall_s", 0, 86400);
		mb->host = get_str(v[i], "host");
	}
	free(v);
}

static void parts__read(struct manifest *m, struct json_object *o)
{
	struct json_object **v;

	m->nr_parts = objects_of(o, "parts", &v);
	m->parts = xcalloc(m->nr_parts ? m->nr_parts : 1, sizeof(*m->parts));
	for (size_t i = 0; i < m->nr_parts; i++) {
		struct manifest_part *p = &m->parts[i];
		struct json_object *h = get_obj(v[i], "host");

		p->folder = get_str(v[i], "folder");
		p->k = get_long(v[i], "k");
		p->n = get_long(v[i], "n");
		p->hostname = get_str(v[i], "hostname");
		p->has_host = h != NULL;
		host_info__init(&p->host);
		host_info__read(&p->host, h);
		p->jobs = get_long(v[i], "jobs");
		p->started_at = get_str(v[i], "started_at");
		p->ended_at = get_str(v[i], "ended_at");
		p->boots = get_long(v[i], "boots");
	}
	free(v);
}

static void shard__read(struct manifest *m, struct json_object *s)
{
	m->has_shard = s != NULL;
	m->shard.k = get_long(s, "k");
	m->shard.n = get_long(s, "n");
	m->shard.first = get_long(s, "first");
	m->shard.end = get_long(s, "end");
	m->shard.folder = get_str(s, "folder");
}

static void until__read(struct manifest *m, struct json_object *u)
{
	m->has_until = u != NULL;
	m->until.ci_width_s = jseconds(u, "ci_width_s", 0, 86400);
	m->until.first_check_after = get_long(u, "first_check_after");
	m->until.max_boots_per_mode = get_long(u, "max_boots_per_mode");
	m->until.ended = get_str(u, "ended");
}

/* A factor a scenario accepts (above 0, at most 10); another is named, not used. */
static void time_scale__read(struct manifest *m, struct json_object *o, const char *label,
			     struct strv *warnings)
{
	struct json_object *v = jget(o, "time_scale");

	m->time_scale = jseconds(o, "time_scale", 1e-9, 10);
	if (isnan(m->time_scale) && v && warnings)
		strv__pushf(warnings, "%s: time_scale is no factor bootprobe uses (ignored)", label);
}

static void manifest__read_setup(struct manifest *m, struct json_object *o)
{
	struct json_object *acc = get_obj(o, "accel"), *host = get_obj(o, "host");

	m->run_id = get_str(o, "run_id");
	m->scenario = get_str(o, "scenario");
	m->scenario_file = get_str(o, "scenario_file");
	m->controller = get_str(o, "controller");
	m->image = get_str(o, "image");
	m->root_image = get_str(o, "root_image");
	m->root_writable = get_bool(o, "root_writable");
	m->image_info = get_obj(o, "image_info");
	m->baseline = get_str(o, "baseline");
	m->has_host = host != NULL;
	host_info__read(&m->host, host);
	m->qemu_version = get_str(o, "qemu_version");
	m->accel_requested = get_str(acc, "requested");
	m->accel_used = get_str(acc, "used");
	m->accel_reason = get_str(acc, "reason");
	m->kernel = get_str(o, "kernel");
	m->initrd = get_str(o, "initrd");
	m->kernel_build_hash = get_str(o, "kernel_build_hash");
	m->guest_args = get_str(o, "guest_args");
}

int manifest__parse(struct manifest *m, const char *text, size_t len, const char *label,
		    struct strv *warnings, char *err, int errlen)
{
	struct json_object *o;

	manifest__init(m);
	o = parse_versioned(text, len, label, &m->schema, err, errlen);
	if (!o)
		return -1;
	m->json = o;
	manifest__read_setup(m, o);
	time_scale__read(m, o, label, warnings);
	m->boots_per_mode = get_long(o, "boots_per_mode");
	m->jobs = get_long(o, "jobs");
	m->jobs_from = get_str(o, "jobs_from");
	m->timeout_s = jseconds(o, "timeout_s", 0, 1e9);
	modes__read(m, o);
	m->boots_planned = get_long(o, "boots_planned");
	m->plan_hash = get_str(o, "plan_hash");
	m->plan_boots = get_long(o, "plan_boots");
	shard__read(m, get_obj(o, "shard"));
	boots__read(m, o);
	parts__read(m, o);
	m->started_at = get_str(o, "started_at");
	m->ended_at = get_str(o, "ended_at");
	m->interrupted = get_bool(o, "interrupted");
	until__read(m, get_obj(o, "until"));
	return 0;
}

int manifest__read(struct manifest *m, const char *path, struct strv *warnings, char *err,
		   int errlen)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	int ret;

	if (!text) {
		manifest__init(m);
		snprintf(err, errlen, "%s: %s", path, read_file_strerror(errno));
		return -1;
	}
	ret = manifest__parse(m, text, len, path, warnings, err, errlen);
	free(text);
	return ret;
}

void manifest__free(struct manifest *m)
{
	free(m->modes);
	free(m->boots);
	free(m->parts);
	json_object_put(m->json);
	m->modes = NULL;
	m->boots = NULL;
	m->parts = NULL;
	m->json = NULL;
}

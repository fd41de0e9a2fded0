// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "rundata.h"
#include "drivers.h"
#include "jsonio.h"
#include "sdanalyze.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const metric_names[M_COUNT] = {
	"boot_s", "guest_s", "wall_s", "probe_phase_s", "first_probe_s", "probe_max_s",
	"probe_sum_s", "readiness_gap_s", "kills", "failed_probes", "devices_bound",
	"drivers_probed",
};

const char *const metric_titles[M_COUNT] = {
	"boot time (s)", "guest's own boot-complete (s)", "QEMU wall time (s)",
	"probe phase (s)", "first probe starts (s)", "longest probe (s)", "sum of probes (s)",
	"readiness gap, max per boot (s)", "SIGKILLs per boot", "failed probes per boot",
	"devices bound per boot", "distinct drivers probed per boot",
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "boots/NAME", NAME one plain folder name: a manifest names boots, never paths. */
static bool boot_dir_ok(const char *rel)
{
	const char *name = rel + 6;

	return !strncmp(rel, "boots/", 6) && *name && *name != '.' && !strchr(name, '/');
}

/*
 * Boot folders: those the manifest @man names, else (@why it could not be
 * read) every folder under boots/.
 */
static void list_boots(const char *dir, struct json_object *man, const char *why,
		       struct strv *out, struct strv *warnings)
{
	struct json_object *boots = jget(man, "boots");
	DIR *d;
	struct dirent *e;
	char *path;

	if (boots && json_object_is_type(boots, json_type_array)) {
		for (size_t i = 0; i < json_object_array_length(boots); i++) {
			const char *rel = jstr(json_object_array_get_idx(boots, i), "dir");
			char *path;

			if (!boot_dir_ok(rel)) {
				strv__pushf(warnings, "%s/manifest.json: boot %zu: dir '%s' is not "
					    "boots/NAME (skipped)", dir, i + 1, rel);
				continue;
			}
			path = xasprintf("%s/%s", dir, rel);
			/* A boot listed twice is one boot, not two samples. */
			if (strv__contains(out, path))
				strv__pushf(warnings, "%s/manifest.json: boot '%s' listed again "
					    "(counted once)", dir, rel);
			else
				strv__push(out, path);
			free(path);
		}
		return;
	}
	strv__pushf(warnings, "%s/manifest.json: %s; reading every folder under boots/", dir,
		    man ? "no boots list" : why ? why : "missing");
	path = xasprintf("%s/boots", dir);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			strv__pushf(out, "%s/%s", path, e->d_name);
	if (d)
		closedir(d);
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_str);
	free(path);
}

/* What the manifest @man says of the scenario: baseline, time scale, modes. */
static void read_manifest(struct run_data *r, struct json_object *man)
{
	struct json_object *modes = jget(man, "modes");
	double jobs;

	if (*jstr(man, "baseline"))
		r->baseline = xstrdup(jstr(man, "baseline"));
	/* run --until-ci: what stopped it */
	if (*jstr(jget(man, "until"), "ended"))
		r->until_end = xstrdup(jstr(jget(man, "until"), "ended"));
	/* A factor a scenario accepts (above 0, at most 10), else unknown (0). */
	r->time_scale = jseconds(man, "time_scale", 1e-9, 10);
	if (isnan(r->time_scale)) {
		if (jget(man, "time_scale") && !json_object_is_type(jget(man, "time_scale"), json_type_null))
			strv__pushf(&r->warnings, "%s/manifest.json: time_scale is no factor "
				    "bootprobe uses (ignored)", r->dir);
		r->time_scale = 0;
	}
	jobs = jseconds(man, "jobs", 1, 64);
	r->jobs = isnan(jobs) || jobs != (int)jobs ? 0 : (int)jobs;
	if (r->jobs && *jstr(man, "jobs_from"))
		r->jobs_from = xstrdup(jstr(man, "jobs_from"));
	if (!modes || !json_object_is_type(modes, json_type_array))
		return;
	for (size_t i = 0; i < json_object_array_length(modes); i++) {
		struct json_object *m = json_object_array_get_idx(modes, i);

		if (!*jstr(m, "name"))
			continue;
		strv__push(&r->mode_names, jstr(m, "name"));
		strv__push(&r->mode_args, jstr(m, "kernel_args"));
	}
}

/*
 * A boot left out of every statistic: boot.json unreadable (@b NULL, @msg
 * says why) or records of its stream refused.  Its warnings are kept.
 */
static void run_data__add_damaged(struct run_data *r, const char *bdir, const struct boot_data *b,
				  const char *msg)
{
	const char *slash = strrchr(bdir, '/');
	struct damaged_boot *d;

	r->damaged = realloc(r->damaged, (r->nr_damaged + 1) * sizeof(*r->damaged));
	if (!r->damaged)
		abort();
	d = &r->damaged[r->nr_damaged++];
	if (!b) {
		d->name = xstrdup(slash ? slash + 1 : bdir);
		d->mode = xstrdup("?");
		d->why = xstrdup(msg);
		strv__push(&r->warnings, msg);
		return;
	}
	d->name = xstrdup(b->name);
	d->mode = xstrdup(b->mode);
	d->why = xasprintf("%d record%s of its event stream refused, the first: %s", b->rejected,
			   b->rejected == 1 ? "" : "s", b->first_rejected);
	for (size_t j = 0; j < b->warnings.n; j++)
		strv__push(&r->warnings, b->warnings.v[j]);
}

void run_data__read_manifest(struct run_data *r, const char *text, size_t len,
			     struct strv *dirs)
{
	const char *why = "missing";
	struct json_object *man = text ? jparse(text, len, &why) : NULL;

	read_manifest(r, man);
	list_boots(r->dir, man, why, dirs, &r->warnings);
	json_object_put(man);
}

struct run_data *run_data__load(const char *dir, char *err, int errlen)
{
	struct run_data *r = xcalloc(1, sizeof(*r));
	struct strv dirs = { 0 };
	const char *slash;
	char *real, *path, *text;
	size_t len = 0;

	r->dir = xstrdup(dir);
	/* results/latest names its run by the folder it points at. */
	real = realpath(dir, NULL);
	slash = strrchr(real ? real : dir, '/');
	r->run_id = xstrdup(slash && slash[1] ? slash + 1 : dir);
	free(real);
	if (!path_exists(dir)) {
		snprintf(err, errlen, "%s: %s", dir, strerror(ENOENT));
		run_data__free(r);
		return NULL;
	}
	/*
	 * The manifest is read once: the boots it lists and what it says of the
	 * scenario.  read_file() takes a regular file only, of bounded size: a
	 * FIFO planted as manifest.json is not waited on.
	 */
	path = xasprintf("%s/manifest.json", dir);
	text = read_file(path, &len);
	if (!text && errno != ENOENT)
		strv__pushf(&r->warnings, "%s: %s", path, read_file_strerror(errno));
	free(path);
	run_data__read_manifest(r, text, len, &dirs);
	free(text);
	r->boots = xcalloc(dirs.n ? dirs.n : 1, sizeof(*r->boots));
	for (size_t i = 0; i < dirs.n; i++) {
		char msg[512];
		struct boot_data *b = boot_data__load(dirs.v[i], msg, sizeof(msg));

		if (b && !boot_data__damaged(b)) {
			r->boots[r->nr_boots++] = b;
			continue;
		}
		run_data__add_damaged(r, dirs.v[i], b, msg);
		boot_data__free(b);
	}
	strv__free(&dirs);
	if (!r->nr_boots) {
		if (r->nr_damaged)
			snprintf(err, errlen, "%s: no usable boot: %d damaged, the first %s: %.300s",
				 dir, r->nr_damaged, r->damaged[0].name, r->damaged[0].why);
		else
			snprintf(err, errlen, "%s: no finished boot to analyse (empty run?)", dir);
		run_data__free(r);
		return NULL;
	}
	return r;
}

static void mode_stats__free(struct mode_stats *m)
{
	for (int i = 0; i < M_COUNT; i++)
		free(m->values[i]);
	for (int i = 0; i < m->nr_drivers; i++) {
		free(m->drivers[i].probe_s);
		free(m->drivers[i].boot_s);
	}
	free(m->drivers);
	free(m->dev_ends);
	for (int i = 0; i < PS_COUNT; i++)
		for (int k = 0; k < PH_COUNT; k++)
			free(m->phase[i][k]);
	for (int i = 0; i < m->nr_devnodes; i++) {
		free(m->devnodes[i].gap_s);
		free(m->devnodes[i].unit_s);
	}
	free(m->devnodes);
	free(m->whatif);
	free(m->udev_ignored);
	free(m->eff_longest);
	free(m->eff_sum);
	strv__free(&m->orders);
	free(m->order_count);
	strv__free(&m->device_sets);
	free(m->device_set_count);
	free(m->name);
}

void run_data__free(struct run_data *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nr_boots; i++)
		boot_data__free(r->boots[i]);
	for (int i = 0; i < r->nr_modes; i++)
		mode_stats__free(&r->modes[i]);
	free(r->modes);
	free(r->boots);
	strv__free(&r->warnings);
	free(r->jobs_from);
	for (int i = 0; i < r->nr_damaged; i++) {
		free(r->damaged[i].name);
		free(r->damaged[i].mode);
		free(r->damaged[i].why);
	}
	free(r->damaged);
	free(r->dir);
	free(r->run_id);
	free(r->baseline);
	free(r->until_end);
	strv__free(&r->mode_names);
	strv__free(&r->mode_args);
	free(r);
}

struct mode_stats *run_data__mode(struct run_data *r, const char *name)
{
	for (int i = 0; i < r->nr_modes; i++)
		if (!strcmp(r->modes[i].name, name))
			return &r->modes[i];
	return NULL;
}

struct mode_stats *run_data__baseline(struct run_data *r)
{
	struct mode_stats *m = r->baseline ? run_data__mode(r, r->baseline) : NULL;

	if (!m)
		m = run_data__mode(r, "sync");
	return m ? m : r->nr_modes ? &r->modes[0] : NULL;
}

static void push_value(double **arr, size_t *n, double v)
{
	if (isnan(v))
		return;
	*arr = realloc(*arr, (*n + 1) * sizeof(**arr));
	if (!*arr)
		abort();
	(*arr)[(*n)++] = v;
}

static struct driver_stats *mode__driver(struct mode_stats *m, const char *driver)
{
	struct driver_stats *d;

	for (int i = 0; i < m->nr_drivers; i++)
		if (!strcmp(m->drivers[i].driver, driver))
			return &m->drivers[i];
	m->drivers = realloc(m->drivers, (m->nr_drivers + 1) * sizeof(*m->drivers));
	if (!m->drivers)
		abort();
	d = &m->drivers[m->nr_drivers++];
	memset(d, 0, sizeof(*d));
	snprintf(d->driver, sizeof(d->driver), "%s", driver);
	return d;
}

static void count_string(struct strv *set, int **counts, const char *s)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->v[i], s)) {
			(*counts)[i]++;
			return;
		}
	strv__push(set, s);
	*counts = realloc(*counts, set->n * sizeof(**counts));
	if (!*counts)
		abort();
	(*counts)[set->n - 1] = 1;
}

static int cmp_probe_start(const void *a, const void *b)
{
	const struct probe_span *x = *(const struct probe_span *const *)a;
	const struct probe_span *y = *(const struct probe_span *const *)b;

	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

/* The order devices were probed in, and which driver each ended with. */
static void boot__orders(const struct boot_data *b, struct mode_stats *m)
{
	const struct probe_span **ps = xcalloc(b->nr_probes + 1, sizeof(*ps));
	char *order = NULL, *devs = NULL;
	size_t len = 0, dlen = 0;
	FILE *f = open_memstream(&order, &len), *g = open_memstream(&devs, &dlen);
	int n = 0;

	for (int i = 0; i < b->nr_probes; i++)
		if (probe_span__in_user_space(b, &b->probes[i]))
			ps[n++] = &b->probes[i];
	qsort(ps, n, sizeof(*ps), cmp_probe_start);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? " " : "", ps[i]->device);
	for (int i = 0; i < b->nr_devices; i++)
		fprintf(g, "%s%s=%s", i ? " " : "", b->devices[i].device, b->devices[i].driver);
	fclose(f);
	fclose(g);
	if (n)
		count_string(&m->orders, &m->order_count, order);
	if (b->nr_devices)
		count_string(&m->device_sets, &m->device_set_count, devs);
	free(order);
	free(devs);
	free(ps);
}

/*
 * Ok boot @b's user-space probes into each driver's list, and each driver's
 * total of them into its per-boot list; the number of distinct drivers.
 */
static int mode__add_probes(struct mode_stats *m, const struct boot_data *b)
{
	int drivers = 0;

	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		double s = (p->end_ns - p->start_ns) / 1e9;
		struct driver_stats *d;

		if (!probe_span__in_user_space(b, p))
			continue;
		d = mode__driver(m, p->driver);
		push_value(&d->probe_s, &d->n, s);
		if (d->last_boot != m->ok) {
			d->last_boot = m->ok;
			push_value(&d->boot_s, &d->nr_boot_s, 0);
			drivers++;
		}
		d->boot_s[d->nr_boot_s - 1] += s;
	}
	return drivers;
}

static struct device_outcome *mode__device(struct mode_stats *m, const struct probe_span *p)
{
	struct device_outcome *d;

	for (int i = 0; i < m->nr_dev_ends; i++) {
		d = &m->dev_ends[i];
		if (!strcmp(d->driver, p->driver) && !strcmp(d->device, p->device))
			return d;
	}
	m->dev_ends = realloc(m->dev_ends, (m->nr_dev_ends + 1) * sizeof(*m->dev_ends));
	if (!m->dev_ends)
		abort();
	d = &m->dev_ends[m->nr_dev_ends++];
	memset(d, 0, sizeof(*d));
	snprintf(d->driver, sizeof(d->driver), "%s", p->driver);
	snprintf(d->device, sizeof(d->device), "%s", p->device);
	return d;
}

/*
 * How every driver + device pair of ok boot @b ended, over all its probe
 * spans (before user space too): bound if one returned 0, else failed if one
 * failed, else unbound (rejected or deferred only).
 */
static void mode__add_device_ends(struct mode_stats *m, const struct boot_data *b)
{
	m->event_boots++;
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		struct device_outcome *d = mode__device(m, p);
		enum device_end end = !p->ret ? DEV_BOUND :
				      probe_span__failed(p) ? DEV_FAILED : DEV_UNBOUND;

		if (end == DEV_FAILED && !d->first_error)
			d->first_error = p->ret;
		if (d->last_boot != m->event_boots) {
			d->last_boot = m->event_boots;
			d->end = end;
		} else if (end > d->end) {
			d->end = end;
		}
	}
	for (int i = 0; i < m->nr_dev_ends; i++) {
		struct device_outcome *d = &m->dev_ends[i];

		if (d->last_boot != m->event_boots)
			continue;
		d->bound += d->end == DEV_BOUND;
		d->failed += d->end == DEV_FAILED;
		d->unbound += d->end == DEV_UNBOUND;
	}
}

/* What @b's collector lost: counted so that no incomplete count looks whole. */
static void mode__add_losses(struct mode_stats *m, const struct boot_data *b)
{
	struct boot_losses l;

	boot_data__losses(b, &l);
	m->boots_lossy += l.events || l.kills || l.probes || l.kthreads;
	m->boots_kills_incomplete += l.kills;
	m->boots_probes_incomplete += l.probes;
	/* Each boot's is at most INT64_MAX - 1 (boot.c bounds the counts); the sum saturates. */
	m->events_lost = l.lost > INT64_MAX - m->events_lost ? INT64_MAX : m->events_lost + l.lost;
}

/* Ok boot @b's phases, if it reached systemd (image debian). */
static void mode__add_phases(struct mode_stats *m, const struct boot_data *b)
{
	struct boot_phases p;

	boot__phases(b, &p);
	if (!p.systemd && isnan(p.s[PS_BOOTPROBE][PH_TO_SYSTEMD]))
		return;
	m->phase_boots++;
	for (int i = 0; i < PS_COUNT; i++)
		for (int k = 0; k < PH_COUNT; k++)
			push_value(&m->phase[i][k], &m->nr_phase[i][k], p.s[i][k]);
}

static struct devnode_stats *mode__devnode(struct mode_stats *m, const struct devnode *d)
{
	struct devnode_stats *s;

	for (int i = 0; i < m->nr_devnodes; i++) {
		s = &m->devnodes[i];
		if (!strcmp(s->name, d->name) && !strcmp(s->kind, d->kind) &&
		    !strcmp(s->driver, d->bound_driver))
			return s;
	}
	m->devnodes = realloc(m->devnodes, (m->nr_devnodes + 1) * sizeof(*m->devnodes));
	if (!m->devnodes)
		abort();
	s = &m->devnodes[m->nr_devnodes++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", d->name);
	snprintf(s->kind, sizeof(s->kind), "%s", d->kind);
	snprintf(s->driver, sizeof(s->driver), "%s", d->bound_driver);
	if (!sd_device_unit(d->kind, d->name, s->unit, sizeof(s->unit)))
		*s->unit = '\0';
	return s;
}

/* Ok boot @b's disks and interfaces that registered, with their gaps. */
static void mode__add_devnodes(struct mode_stats *m, const struct boot_data *b)
{
	const char *blame = boot_data__attachment(b, SD_ANALYZE_BLAME);

	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];
		struct devnode_stats *s;
		struct devnode_gap g;

		if (d->ret)
			continue;
		s = mode__devnode(m, d);
		s->boots++;
		devnode__gap(b, d, &g);
		push_value(&s->gap_s, &s->n, g.gap_s);
		/* How long systemd's job for its .device unit waited (blame). */
		if (*s->unit && blame)
			push_value(&s->unit_s, &s->nr_unit, sd_blame__unit(blame, s->unit));
		if (g.ref)
			s->ref = g.ref;
	}
}

int device_outcome__missing(const struct mode_stats *m, const struct device_outcome *d)
{
	return m->event_boots - d->bound - d->failed - d->unbound;
}

static void mode__add_boot(struct mode_stats *m, const struct boot_data *b)
{
	struct boot_metrics bm;
	double v[M_COUNT];
	int drivers;

	m->boots++;
	boot__metrics(b, &bm);
	mode__add_losses(m, b);
	m->boots_with_kills += (b->has_events ? bm.kills : bm.udev_kills) > 0;
	if (b->udev_ignored.n) {
		m->boots_udev_ignored++;
		if (!m->udev_ignored)
			m->udev_ignored = xstrdup(b->udev_ignored.v[0]);
	}
	if (!boot_data__ok(b))
		return;
	m->ok++;
	m->probes += bm.probes;
	m->failed_probes += bm.failed_probes;
	m->boots_with_failed += bm.failed_probes > 0;
	if (bm.devices > m->devices)
		m->devices = bm.devices;
	v[M_BOOT] = bm.boot_s;
	v[M_GUEST] = bm.guest_s;
	v[M_WALL] = bm.wall_s;
	v[M_PHASE] = bm.probe_phase_s;
	v[M_FIRST] = bm.first_probe_s;
	v[M_PROBE_MAX] = bm.probe_max_s;
	v[M_PROBE_SUM] = bm.probe_sum_s;
	v[M_GAP] = bm.readiness_gap_max_s;
	v[M_KILLS] = b->has_events ? bm.kills : bm.udev_kills;
	v[M_FAILED] = b->has_events ? bm.failed_probes : NAN;
	v[M_BOUND] = bm.devices ? bm.bound : NAN;
	drivers = mode__add_probes(m, b);
	v[M_DRIVERS] = b->has_events ? drivers : NAN;
	if (b->has_events) {
		mode__add_device_ends(m, b);
		mode__add_devnodes(m, b);
	}
	mode__add_phases(m, b);
	for (int i = 0; i < M_COUNT; i++)
		push_value(&m->values[i], &m->n[i], v[i]);
	/* What-if: the probe phase replaced by its longest probe (all async). */
	if (bm.probes) {
		push_value(&m->whatif, &m->nr_whatif, bm.boot_s - bm.probe_phase_s + bm.probe_max_s);
		push_value(&m->eff_longest, &m->nr_eff_longest, bm.probe_phase_s / bm.probe_max_s);
		push_value(&m->eff_sum, &m->nr_eff_sum, bm.probe_phase_s / bm.probe_sum_s);
	}
	boot__orders(b, m);
}

void run_data__analyze(struct run_data *r)
{
	for (int i = 0; i < r->nr_boots; i++) {
		struct boot_data *b = r->boots[i];
		struct mode_stats *m = run_data__mode(r, b->mode);

		if (!m) {
			r->modes = realloc(r->modes, (r->nr_modes + 1) * sizeof(*r->modes));
			if (!r->modes)
				abort();
			m = &r->modes[r->nr_modes++];
			memset(m, 0, sizeof(*m));
			m->name = xstrdup(b->mode);
		}
		mode__add_boot(m, b);
		for (size_t j = 0; j < b->warnings.n; j++)
			strv__push(&r->warnings, b->warnings.v[j]);
	}
	for (int i = 0; i < r->nr_modes; i++) {
		struct mode_stats *m = &r->modes[i];

		for (int k = 0; k < M_COUNT; k++)
			stats_summarize(m->values[k], m->n[k], &m->s[k]);
		for (int k = 0; k < m->nr_drivers; k++) {
			struct driver_stats *d = &m->drivers[k];

			stats_summarize(d->probe_s, d->n, &d->s);
			stats_summarize(d->boot_s, d->nr_boot_s, &d->per_boot);
		}
		for (int s = 0; s < PS_COUNT; s++)
			for (int k = 0; k < PH_COUNT; k++)
				stats_summarize(m->phase[s][k], m->nr_phase[s][k], &m->phase_s[s][k]);
		for (int k = 0; k < m->nr_devnodes; k++) {
			struct devnode_stats *d = &m->devnodes[k];

			stats_summarize(d->gap_s, d->n, &d->s);
			stats_summarize(d->unit_s, d->nr_unit, &d->unit_sum);
		}
		stats_summarize(m->whatif, m->nr_whatif, &m->whatif_s);
		stats_summarize(m->eff_longest, m->nr_eff_longest, &m->eff_longest_s);
		stats_summarize(m->eff_sum, m->nr_eff_sum, &m->eff_sum_s);
	}
}

void compare_samples(const double *a, size_t na, const double *b, size_t nb,
		     struct comparison *c)
{
	memset(c, 0, sizeof(*c));
	c->na = na;
	c->nb = nb;
	c->median_a = stats_median(a, na);
	c->median_b = stats_median(b, nb);
	c->diff = c->median_b - c->median_a;
	c->pct = c->median_a ? c->diff / c->median_a * 100 : NAN;
	stats_median_diff_ci(a, na, b, nb, &c->diff_lo, &c->diff_hi);
	stats_mann_whitney(b, nb, a, na, &c->mw);
	c->sd = stats_pooled_robust_sd(a, na, b, nb);
	c->p_holm = c->mw.p;
	c->family = 1;
	c->alpha = CMP_ALPHA;
	comparison__power(c);
}

void comparison__power(struct comparison *c)
{
	c->mdd = stats_mdd(c->sd, c->na, c->nb, c->alpha, CMP_POWER);
	c->n_needed = stats_n_needed(c->sd, fabs(c->diff), c->alpha, CMP_POWER);
}

void comparisons__holm(struct comparison *const *c, int n)
{
	double *p = xcalloc(n + 1, sizeof(*p));
	int k = 0;

	for (int i = 0; i < n; i++) {
		p[i] = c[i]->mw.p;
		k += !isnan(p[i]);
	}
	stats_holm(p, n, p);
	for (int i = 0; i < n; i++) {
		c[i]->p_holm = p[i];
		c[i]->family = k;
		c[i]->alpha = CMP_ALPHA / (k ? k : 1);
		comparison__power(c[i]);
	}
	free(p);
}

static bool ci_excludes_0(const struct comparison *c)
{
	return isfinite(c->diff_lo) && isfinite(c->diff_hi) && (c->diff_lo > 0 || c->diff_hi < 0);
}

bool comparison__significant(const struct comparison *c)
{
	return ci_excludes_0(c) && c->p_holm < CMP_ALPHA;
}

bool comparison__suggestive(const struct comparison *c)
{
	return ci_excludes_0(c) && !(c->p_holm < CMP_ALPHA);
}

const char comparisons_note[] =
	"p: two-sided Mann-Whitney; p_holm: Holm-adjusted over the modes compared with the "
	"baseline on the same metric (holm_family comparisons); significant: the 95 % CI of "
	"the difference of medians excludes 0 and p_holm < 0.05; mdd: the shift a "
	"Mann-Whitney test at mdd_alpha (0.05 / holm_family) finds with power 0.8 at these "
	"sample sizes, by the normal approximation from the pooled robust SD (IQR / 1.349) "
	"and Mann-Whitney's efficiency 3/pi, null (no shift) when no arrangement of these "
	"boots reaches mdd_alpha; boots_needed: boots per mode to detect the observed "
	"difference that way";

const enum metric cmp_metrics[NR_CMP] = { M_BOOT, M_PHASE, M_GAP };

struct comparison *run_data__comparisons(struct run_data *r, const struct mode_stats *base)
{
	struct comparison *c, **fam;

	if (!base || r->nr_modes < 2)
		return NULL;
	c = xcalloc((size_t)r->nr_modes * NR_CMP, sizeof(*c));
	fam = xcalloc(r->nr_modes, sizeof(*fam));
	for (int k = 0; k < NR_CMP; k++) {
		int n = 0;

		for (int i = 0; i < r->nr_modes; i++) {
			if (&r->modes[i] == base)
				continue;
			compare_metric(base, &r->modes[i], cmp_metrics[k], &c[i * NR_CMP + k]);
			fam[n++] = &c[i * NR_CMP + k];
		}
		comparisons__holm(fam, n);
	}
	free(fam);
	return c;
}

void compare_metric(const struct mode_stats *a, const struct mode_stats *b, enum metric k,
		    struct comparison *c)
{
	compare_samples(a->values[k], a->n[k], b->values[k], b->n[k], c);
}

/* ---- JSON -------------------------------------------------------------------------- */

json_object *json_num(double v)
{
	char buf[32];

	if (isnan(v) || isinf(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.6g", v);
	return json_object_new_double_s(v, buf);
}

json_object *summary__json(const struct summary *s)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "n", json_object_new_int((int)s->n));
	json_object_object_add(o, "median", json_num(s->median));
	json_object_object_add(o, "q1", json_num(s->q1));
	json_object_object_add(o, "q3", json_num(s->q3));
	json_object_object_add(o, "iqr", json_num(s->iqr));
	json_object_object_add(o, "min", json_num(s->min));
	json_object_object_add(o, "max", json_num(s->max));
	json_object_object_add(o, "ci95_lo", json_num(s->ci_lo));
	json_object_object_add(o, "ci95_hi", json_num(s->ci_hi));
	return o;
}

static json_object *strings_with_counts(const struct strv *v, const int *counts)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < v->n; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "value", json_object_new_string(v->v[i]));
		json_object_object_add(o, "boots", json_object_new_int(counts[i]));
		json_object_array_add(a, o);
	}
	return a;
}

/* The phases beside systemd-analyze's, by source and phase name. */
static json_object *mode__phases_json(const struct mode_stats *m)
{
	static const char *const sources[PS_COUNT] = { "bootprobe", "systemd_analyze" };
	json_object *o = json_object_new_object();

	json_object_object_add(o, "boots", json_object_new_int(m->phase_boots));
	for (int i = 0; i < PS_COUNT; i++) {
		json_object *src = json_object_new_object();

		for (int k = 0; k < PH_COUNT; k++)
			if (m->phase_s[i][k].n)
				json_object_object_add(src, phase_names[k],
						       summary__json(&m->phase_s[i][k]));
		json_object_object_add(o, sources[i], src);
	}
	return o;
}

static json_object *mode__devnodes_json(const struct mode_stats *m)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < m->nr_devnodes; i++) {
		const struct devnode_stats *d = &m->devnodes[i];
		json_object *o = json_object_new_object();

		json_object_object_add(o, "name", json_object_new_string(d->name));
		json_object_object_add(o, "kind", json_object_new_string(d->kind));
		json_object_object_add(o, "driver", json_object_new_string(d->driver));
		json_object_object_add(o, "boots", json_object_new_int(d->boots));
		json_object_object_add(o, "gap_from", d->ref ? json_object_new_string(d->ref) : NULL);
		json_object_object_add(o, "readiness_gap_s", summary__json(&d->s));
		if (d->nr_unit) {
			json_object_object_add(o, "systemd_unit", json_object_new_string(d->unit));
			json_object_object_add(o, "systemd_blame_s", summary__json(&d->unit_sum));
		}
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *mode__json(const struct mode_stats *m)
{
	json_object *o = json_object_new_object(), *met = json_object_new_object();
	json_object *drv = json_object_new_object();

	json_object_object_add(o, "boots", json_object_new_int(m->boots));
	json_object_object_add(o, "ok", json_object_new_int(m->ok));
	json_object_object_add(o, "kill_rate",
			       json_num(m->boots ? (double)m->boots_with_kills / m->boots : NAN));
	json_object_object_add(o, "failed_probe_rate",
			       json_num(m->probes ? (double)m->failed_probes / m->probes : NAN));
	for (int k = 0; k < M_COUNT; k++)
		json_object_object_add(met, metric_names[k], summary__json(&m->s[k]));
	json_object_object_add(o, "metrics", met);
	for (int k = 0; k < m->nr_drivers; k++)
		json_object_object_add(drv, m->drivers[k].driver, summary__json(&m->drivers[k].s));
	json_object_object_add(o, "driver_probe_s", drv);
	json_object_object_add(o, "whatif_all_async_boot_s", summary__json(&m->whatif_s));
	json_object_object_add(o, "phase_over_longest_probe", summary__json(&m->eff_longest_s));
	json_object_object_add(o, "phase_over_sum_of_probes", summary__json(&m->eff_sum_s));
	json_object_object_add(o, "probe_orders", strings_with_counts(&m->orders, m->order_count));
	json_object_object_add(o, "device_sets", strings_with_counts(&m->device_sets, m->device_set_count));
	/* Only runs that have them: the lab's summaries stay as they were. */
	if (m->phase_boots)
		json_object_object_add(o, "phases", mode__phases_json(m));
	if (m->nr_devnodes)
		json_object_object_add(o, "devnodes", mode__devnodes_json(m));
	return o;
}

/*
 * One row of the headline `bootprobe report` prints: the same counts and
 * summaries as report.md, so the two cannot disagree.
 */
static json_object *mode__headline_json(const struct mode_stats *m)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "mode", json_object_new_string(m->name));
	json_object_object_add(o, "boots", json_object_new_int(m->boots));
	json_object_object_add(o, "ok", json_object_new_int(m->ok));
	json_object_object_add(o, "boot_s", summary__json(&m->s[M_BOOT]));
	json_object_object_add(o, "boots_with_kills", json_object_new_int(m->boots_with_kills));
	json_object_object_add(o, "boots_udev_ignored", json_object_new_int(m->boots_udev_ignored));
	json_object_object_add(o, "probes", json_object_new_int(m->probes));
	json_object_object_add(o, "failed_probes", json_object_new_int(m->failed_probes));
	json_object_object_add(o, "boots_with_failed_probes",
			       json_object_new_int(m->boots_with_failed));
	json_object_object_add(o, "devices", json_object_new_int(m->devices));
	json_object_object_add(o, "devices_bound", summary__json(&m->s[M_BOUND]));
	/* Only where something was lost: whole runs keep their summaries. */
	if (m->boots_lossy) {
		json_object_object_add(o, "boots_kills_incomplete",
				       json_object_new_int(m->boots_kills_incomplete));
		json_object_object_add(o, "boots_probes_incomplete",
				       json_object_new_int(m->boots_probes_incomplete));
		json_object_object_add(o, "events_lost", json_object_new_int64(m->events_lost));
	}
	return o;
}

/* The power and multiplicity fields of @c, for summary.json and compare --json. */
void comparison__json_power(json_object *o, const struct comparison *c)
{
	json_object_object_add(o, "p_holm", json_num(c->p_holm));
	json_object_object_add(o, "holm_family", json_object_new_int(c->family));
	json_object_object_add(o, "robust_sd", json_num(c->sd));
	json_object_object_add(o, "mdd_alpha", json_num(c->alpha));
	json_object_object_add(o, "mdd_power", json_num(CMP_POWER));
	json_object_object_add(o, "mdd", json_num(c->mdd));
	json_object_object_add(o, "boots_needed", c->n_needed ?
			       json_object_new_int64((int64_t)c->n_needed) : NULL);
	json_object_object_add(o, "significant",
			       json_object_new_boolean(comparison__significant(c)));
}

void comparison__json(json_object *o, const struct comparison *c)
{
	json_object_object_add(o, "median_diff", json_num(c->diff));
	json_object_object_add(o, "diff_ci95_lo", json_num(c->diff_lo));
	json_object_object_add(o, "diff_ci95_hi", json_num(c->diff_hi));
	json_object_object_add(o, "pct", json_num(c->pct));
	json_object_object_add(o, "mann_whitney_u", json_num(c->mw.u));
	json_object_object_add(o, "p", json_num(c->mw.p));
	json_object_object_add(o, "p_exact", json_object_new_boolean(c->mw.exact));
	comparison__json_power(o, c);
}

/* Mode @b against the baseline @a on metric @k: a row of summary.json's comparisons. */
static json_object *mode_comparison__json(const struct mode_stats *a, const struct mode_stats *b,
					  enum metric k, const struct comparison *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "baseline", json_object_new_string(a->name));
	json_object_object_add(o, "mode", json_object_new_string(b->name));
	json_object_object_add(o, "metric", json_object_new_string(metric_names[k]));
	comparison__json(o, c);
	return o;
}

/* The boots left out, each with its mode and why. */
static json_object *damaged__json(const struct run_data *r)
{
	json_object *a = json_object_new_array();

	for (int i = 0; i < r->nr_damaged; i++) {
		json_object *d = json_object_new_object();

		json_object_object_add(d, "boot", json_object_new_string(r->damaged[i].name));
		json_object_object_add(d, "mode", json_object_new_string(r->damaged[i].mode));
		json_object_object_add(d, "why", json_object_new_string(r->damaged[i].why));
		json_object_array_add(a, d);
	}
	return a;
}

json_object *run_data__summary_json(struct run_data *r)
{
	json_object *o = json_object_new_object(), *modes = json_object_new_object();
	json_object *cmp = json_object_new_array(), *warns = json_object_new_array();
	json_object *head = json_object_new_array();
	struct mode_stats *base = run_data__baseline(r);
	struct comparison *cs;

	json_object_object_add(o, "schema", json_object_new_int(1));
	json_object_object_add(o, "run", json_object_new_string(r->run_id));
	json_object_object_add(o, "boots", json_object_new_int(r->nr_boots));
	json_object_object_add(o, "damaged_boots", damaged__json(r));
	json_object_object_add(o, "boot_time_definition",
			       json_object_new_string(boot_time_words));
	/* Modes in run order (an array: "modes" is keyed by name). */
	for (int i = 0; i < r->nr_modes; i++)
		json_object_array_add(head, mode__headline_json(&r->modes[i]));
	json_object_object_add(o, "headline", head);
	for (int i = 0; i < r->nr_modes; i++)
		json_object_object_add(modes, r->modes[i].name, mode__json(&r->modes[i]));
	json_object_object_add(o, "modes", modes);
	cs = run_data__comparisons(r, base);
	for (int i = 0; cs && i < r->nr_modes; i++) {
		if (&r->modes[i] == base)
			continue;
		/* boot time and probe phase: cmp_metrics[0] and [1] */
		json_object_array_add(cmp, mode_comparison__json(base, &r->modes[i], M_BOOT,
								 &cs[i * NR_CMP]));
		json_object_array_add(cmp, mode_comparison__json(base, &r->modes[i], M_PHASE,
								 &cs[i * NR_CMP + 1]));
	}
	free(cs);
	json_object_object_add(o, "comparisons", cmp);
	json_object_object_add(o, "comparisons_note", json_object_new_string(comparisons_note));
	json_object_object_add(o, "drivers", drivers__json(r));
	for (size_t i = 0; i < r->warnings.n; i++)
		json_object_array_add(warns, json_object_new_string(r->warnings.v[i]));
	json_object_object_add(o, "warnings", warns);
	return o;
}

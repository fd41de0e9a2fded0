// SPDX-License-Identifier: GPL-2.0
/* A run folder loaded: its manifest, its boots, those left out named. */
#define _GNU_SOURCE
#include "rundata.h"
#include "drivers.h"
#include "fsat.h"
#include "jsonio.h"
#include "resultfiles.h"
#include "sdanalyze.h"
#include "text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
 * Boot folders: those the manifest @man names, else (@man NULL: @unread
 * says why it could not be read) every folder under boots/; each named
 * "@label/boots/NAME" (@label the run's id: rundata.h).
 */
static void list_boots(int runfd, const char *label, const struct manifest *man,
		       const char *unread, struct strv *out, struct strv *warnings)
{
	DIR *d = NULL;
	struct dirent *e;
	char *path;
	int bfd;

	if (man && man->has_boots) {
		struct keymap listed = { 0 };

		for (size_t i = 0; i < man->nr_boots; i++) {
			const char *rel = man->boots[i].dir ? man->boots[i].dir : "";
			char *path;

			if (!boot_dir_ok(rel)) {
				strv__pushf(warnings, "%s/manifest.json: boot %zu: dir '%s' is not "
					    "boots/NAME (skipped)", label, i + 1, rel);
				continue;
			}
			path = xasprintf("%s/%s", label, rel);
			/* A boot listed twice is one boot, not two samples (a hash: O(1) each). */
			if (keymap__put_str(&listed, path, (int)i) != (int)i)
				strv__pushf(warnings, "%s/manifest.json: boot '%s' listed again "
					    "(counted once)", label, rel);
			else
				strv__push(out, path);
			free(path);
		}
		keymap__free(&listed);
		return;
	}
	if (man)
		strv__pushf(warnings, "%s/manifest.json: no boots list; reading every folder "
			    "under boots/", label);
	else
		strv__pushf(warnings, "%s; reading every folder under boots/", unread);
	path = xasprintf("%s/boots", label);
	/* boots/ itself is no link either: one is named, not read. */
	bfd = runfd < 0 ? -ENOENT : dir_open_beneath(runfd, "boots", false);
	if (bfd < 0 && bfd != -ENOENT)
		strv__pushf(warnings, "%s: %s", path, read_file_strerror(-bfd));
	if (bfd >= 0 && !(d = fdopendir(bfd)))
		close(bfd);
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
static void read_manifest(struct run_data *r, const struct manifest *man)
{
	if (man->baseline && *man->baseline)
		r->baseline = xstrdup(man->baseline);
	/* run --until-ci: what stopped it */
	if (man->has_until && man->until.ended && *man->until.ended)
		r->until_end = xstrdup(man->until.ended);
	/* A factor a scenario accepts (the reader names another), else unknown (0). */
	r->time_scale = isnan(man->time_scale) ? 0 : man->time_scale;
	r->jobs = man->jobs >= 1 && man->jobs <= 64 ? (int)man->jobs : 0;
	if (r->jobs && man->jobs_from && *man->jobs_from)
		r->jobs_from = xstrdup(man->jobs_from);
	for (size_t i = 0; i < man->nr_modes; i++) {
		const struct manifest_mode *m = &man->modes[i];

		if (!m->name || !*m->name)
			continue;
		strv__push(&r->mode_names, m->name);
		strv__push(&r->mode_args, m->kernel_args ? m->kernel_args : "");
	}
}

/*
 * A boot left out of every statistic: boot.json unreadable (@b NULL, @msg
 * says why) or its header, trailer or probe spans unusable.  Its warnings
 * are kept.
 */
static void run_data__add_damaged(struct run_data *r, const char *bdir, const struct boot_data *b,
				  const char *msg)
{
	const char *slash = strrchr(bdir, '/');
	struct damaged_boot *d;

	d = ARRAY_PUSH(r->damaged, r->nr_damaged);
	d->dir = xstrdup(bdir);
	if (!b) {
		d->name = xstrdup(slash ? slash + 1 : bdir);
		d->mode = xstrdup("?");
		d->why = xstrdup(msg);
		strv__push(&r->warnings, msg);
		return;
	}
	d->name = xstrdup(b->name);
	d->mode = xstrdup(b->mode);
	d->why = boot_data__refusals(b);
	d->first = b->first_rejected ? xstrdup(b->first_rejected) : NULL;
	for (size_t j = 0; j < b->warnings.n; j++)
		strv__push(&r->warnings, b->warnings.v[j]);
}

/* "… and N more KIND" after @max lines, if there were more. */
static void more_lines(FILE *out, const char *prefix, int n, int max, const char *kind)
{
	if (max && n > max)
		fprintf(out, "%s… and %d more %s\n", prefix, n - max, kind);
}

int run_data__print_verdicts(const struct run_data *r, FILE *out, const char *prefix, int max)
{
	int kept = 0;

	/* A folder's name is the folder's: escape codes in it reach no terminal. */
	for (int i = 0; i < r->nr_damaged && (!max || i < max); i++) {
		char *dir = term_str(r->damaged[i].dir), *why = term_str(r->damaged[i].why);

		fprintf(out, "%sleft out: %s: %s\n", prefix, dir, why);
		free(why);
		free(dir);
	}
	more_lines(out, prefix, r->nr_damaged, max, "left out");
	for (int i = 0; i < r->nr_boots; i++) {
		char *why = boot_data__refusals(r->boots[i]);

		if (why && (!max || kept < max)) {
			char *dir = term_str(r->boots[i]->dir), *w = term_str(why);

			fprintf(out, "%skept, incomplete: %s: %s\n", prefix, dir, w);
			free(w);
			free(dir);
		}
		kept += why != NULL;
		free(why);
	}
	more_lines(out, prefix, kept, max, "kept, incomplete");
	return r->nr_damaged + kept;
}

int run_data__read_manifest(struct run_data *r, const char *text, size_t len,
			    struct strv *dirs, char *err, int errlen)
{
	char *label = xasprintf("%s/manifest.json", r->run_id), why[512];
	struct manifest man;
	int ret = 0;

	/* The results format's reader (resultfiles.h): the one for every manifest. */
	if (!text) {
		snprintf(why, sizeof(why), "%s: missing", label);
		list_boots(r->fd_open ? r->fd : -1, r->run_id, NULL, why, dirs, &r->warnings);
	} else if (manifest__parse(&man, text, len, label, &r->warnings, why, sizeof(why))) {
		/*
		 * A schema this bootprobe does not read: the run is not guessed
		 * at.  The error ends the command: it names the file by the
		 * path the user gave, not by the run's id.
		 */
		if (man.schema < 0) {
			size_t n = strlen(label);

			if (!strncmp(why, label, n))
				snprintf(err, errlen, "%s/manifest.json%s", r->dir, why + n);
			else
				snprintf(err, errlen, "%s", why);
			ret = -1;
		} else {
			list_boots(r->fd_open ? r->fd : -1, r->run_id, NULL, why, dirs, &r->warnings);
		}
	} else {
		read_manifest(r, &man);
		list_boots(r->fd_open ? r->fd : -1, r->run_id, &man, NULL, dirs, &r->warnings);
		manifest__free(&man);
	}
	free(label);
	return ret;
}

/* The boot folder @bdir, "RUN_ID/boots/NAME", opened beneath the run, no link followed. */
static struct boot_data *boot__load_beneath(struct run_data *r, const char *bdir, size_t budget,
					    bool of_run, bool *over, char *msg, int len)
{
	const char *rel = bdir + strlen(r->run_id) + 1;
	int dfd = open_beneath(r->fd, rel, O_RDONLY | O_DIRECTORY, 0);
	struct boot_data *b;

	*over = false;
	if (dfd < 0) {
		snprintf(msg, len, "%s: %s: not a finished boot", bdir, read_file_strerror(errno));
		return NULL;
	}
	b = boot_data__load_budget(dfd, bdir, budget, of_run, over, msg, len);
	close(dfd);
	return b;
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
	/*
	 * The folder the user named, resolved once; beneath it no link is
	 * followed (fsat.h): a planted one is named and refused.
	 */
	r->fd = dir_open_user(dir, false);
	if (r->fd < 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(-r->fd));
		run_data__free(r);
		return NULL;
	}
	r->fd_open = true;
	/*
	 * The manifest is read once: the boots it lists and what it says of the
	 * scenario.  read_file_at() takes a regular file only, of bounded size: a
	 * FIFO planted as manifest.json is not waited on.
	 */
	path = xasprintf("%s/manifest.json", r->run_id);
	text = read_file_at(r->fd, "manifest.json", &len);
	if (!text && errno != ENOENT)
		strv__pushf(&r->warnings, "%s: %s", path, read_file_strerror(errno));
	free(path);
	if (run_data__read_manifest(r, text, len, &dirs, err, errlen)) {
		free(text);
		run_data__free(r);
		return NULL;
	}
	free(text);
	r->boots = xcalloc(dirs.n ? dirs.n : 1, sizeof(*r->boots));
	for (size_t i = 0; i < dirs.n; i++) {
		char msg[512];
		/*
		 * Each boot is read under its own budget or what the run's has
		 * left, whichever is less: a boot past its own is left out,
		 * named; a run past its own stops here, naming the boot.
		 */
		size_t left = mem_budget__run() > r->mem_bytes ? mem_budget__run() - r->mem_bytes : 0;
		bool of_run = left < mem_budget__boot(), over;
		struct boot_data *b = boot__load_beneath(r, dirs.v[i], of_run ? left : mem_budget__boot(),
							 of_run, &over, msg, sizeof(msg));

		if (over && of_run) {
			snprintf(err, errlen, "%s: over the run's memory budget of %.1f MiB at %s (the %d "
				 "boot%s before it hold%s %.1f MiB; BOOTPROBE_MAX_RUN_MEM)", dir,
				 mem_budget__run() / 1048576.0, dirs.v[i], r->nr_boots,
				 r->nr_boots == 1 ? "" : "s", r->nr_boots == 1 ? "s" : "", r->mem_bytes / 1048576.0);
			strv__free(&dirs);
			run_data__free(r);
			return NULL;
		}
		if (b && !boot_data__unusable(b)) {
			r->boots[r->nr_boots++] = b;
			r->mem_bytes += b->mem_bytes;
			continue;
		}
		run_data__add_damaged(r, dirs.v[i], b, msg);
		boot_data__free(b);
	}
	strv__free(&dirs);
	if (!r->nr_boots) {
		if (r->nr_damaged)
			snprintf(err, errlen, "%s: no usable boot: %d left out, the first %s: %.300s",
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
	for (int k = 0; k < ST_COUNT; k++)
		free(m->stage[k]);
	for (int i = 0; i < m->nr_devnodes; i++) {
		free(m->devnodes[i].gap_s);
		free(m->devnodes[i].unit_s);
	}
	free(m->devnodes);
	for (int i = 0; i < m->nr_late; i++) {
		free(m->late[i].end_s);
		free(m->late[i].after_s);
	}
	free(m->late);
	free(m->late_probes);
	free(m->late_devnodes);
	keymap__free(&m->late_index);
	free(m->udev_ignored);
	free(m->other_kill);
	free(m->eff_longest);
	free(m->eff_sum);
	strv__free(&m->orders);
	free(m->order_count);
	strv__free(&m->device_sets);
	free(m->device_set_count);
	keymap__free(&m->driver_index);
	keymap__free(&m->dev_end_index);
	keymap__free(&m->devnode_index);
	keymap__free(&m->order_index);
	keymap__free(&m->device_set_index);
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
	keymap__free(&r->mode_index);
	free(r->boots);
	strv__free(&r->warnings);
	free(r->jobs_from);
	for (int i = 0; i < r->nr_damaged; i++) {
		free(r->damaged[i].name);
		free(r->damaged[i].mode);
		free(r->damaged[i].why);
		free(r->damaged[i].dir);
		free(r->damaged[i].first);
	}
	free(r->damaged);
	if (r->fd_open)
		close(r->fd);
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
	int i = keymap__get_str(&r->mode_index, name);

	return i < 0 ? NULL : &r->modes[i];
}

struct mode_stats *run_data__baseline(struct run_data *r)
{
	struct mode_stats *m = r->baseline ? run_data__mode(r, r->baseline) : NULL;

	if (!m)
		m = run_data__mode(r, "sync");
	return m ? m : r->nr_modes ? &r->modes[0] : NULL;
}

struct run_data *run_data__open(const char *dir, const char *cmd)
{
	char err[512];
	struct run_data *r = run_data__load(dir, err, sizeof(err));

	if (!r)
		fprintf(stderr, "bootprobe %s: %s\n", cmd, err);
	return r;
}

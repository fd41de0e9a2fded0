// SPDX-License-Identifier: GPL-2.0
/*
 * The what-if model over a run (whatif_run.h): the sync boots of each kernel
 * predicted for each async mode, the measured async boots beside them.
 */
#include "whatif_run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fsat.h"
#include "resultfiles.h"
#include "util.h"

/* What the model needs of a boot besides its records: boot.json's. */
struct wi_info {
	const struct boot_data *b;
	enum whatif_mode mode;
	int cpus;
	char kernel[NAME_LEN];
};

/*
 * boot.json again, through its one reader: the guest's CPUs (QEMU's -smp)
 * and its kernel.  A boot folder is "RUN_ID/boots/NAME", read beneath the run.
 */
static void info__read(const struct run_data *r, struct wi_info *in)
{
	size_t n = strlen(r->run_id), len = 0;
	const char *dir = in->b->dir;
	struct boot_file f;
	char *rel, *text, why[256];

	if (!r->fd_open || strncmp(dir, r->run_id, n) || dir[n] != '/')
		return;
	rel = xasprintf("%s/boot.json", dir + n + 1);
	text = read_file_beneath(r->fd, rel, &len);
	free(rel);
	if (!text)
		return;
	if (!boot_file__parse(&f, text, len, dir, why, sizeof(why))) {
		in->cpus = whatif_cpus_of_qemu(f.qemu_cmdline);
		snprintf(in->kernel, sizeof(in->kernel), "%s",
			 f.kernel_release && *f.kernel_release ? f.kernel_release :
			 f.image ? f.image : "");
		boot_file__free(&f);
	}
	free(text);
}

/* The run's boots the model can use, with what it needs of each. */
static struct wi_info *infos(const struct run_data *r, int *n)
{
	struct wi_info *in = xcalloc(r->nr_boots + 1, sizeof(*in));

	*n = 0;
	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];

		if (!boot_data__ok(b) || boot_data__unusable(b) || !b->has_events)
			continue;
		in[*n] = (struct wi_info){ .b = b, .mode = whatif_mode__of_cmdline(b->kernel_cmdline) };
		info__read(r, &in[*n]);
		(*n)++;
	}
	return in;
}

static bool is_of(const struct wi_info *in, const char *kernel, const char *mode)
{
	return !strcmp(in->kernel, kernel) && (!mode || !strcmp(in->b->mode, mode));
}

/*
 * The sync mode a kernel's predictions are made from: the run's baseline if
 * its boots of that kernel are sync, else the first sync mode of it.
 */
static const char *sync_mode(const struct run_data *r, const struct wi_info *in, int n,
			     const char *kernel)
{
	const char *first = NULL;

	for (int i = 0; i < n; i++) {
		if (!is_of(&in[i], kernel, NULL) || in[i].mode != WI_SYNC)
			continue;
		if (r->baseline && !strcmp(in[i].b->mode, r->baseline))
			return in[i].b->mode;
		if (!first)
			first = in[i].b->mode;
	}
	return first;
}

/* ---- accumulating per-boot values --------------------------------------------------- */

struct wi_vals {
	double *v[WI_CPU_CASES + 1];	/* sleeping, computing, sync */
	size_t n[WI_CPU_CASES + 1];
};

static void vals__push(struct wi_vals *a, int k, double x)
{
	if (isfinite(x))
		*ARRAY_PUSH(a->v[k], a->n[k]) = x;
}

static void vals__summarize(struct wi_vals *a, struct whatif_pred *p)
{
	struct summary s;

	stats_summarize(a->v[WI_SLEEPING], a->n[WI_SLEEPING], &p->sleep);
	stats_summarize(a->v[WI_COMPUTING], a->n[WI_COMPUTING], &p->compute);
	stats_summarize(a->v[WI_CPU_CASES], a->n[WI_CPU_CASES], &s);
	p->sync_median = s.median;
	for (int k = 0; k <= WI_CPU_CASES; k++)
		free(a->v[k]);
	*a = (struct wi_vals){ 0 };
}

/* A disk or interface across boots: the same kind, name and driver, as one key. */
static size_t dev_key(char *buf, size_t len, const char *kind, const char *name,
		      const char *driver)
{
	int n = snprintf(buf, len, "%s%c%s%c%s", kind, 0, name, 0, driver);

	return n < 0 ? 0 : (size_t)n < len ? (size_t)n + 1 : len;
}

struct wi_acc {
	struct wi_vals boot, phase;
	struct wi_vals *dev;
	struct keymap index;	/* row->dev by dev_key() */
};

/* The device of @d in @row (added if new), or -1 if @seen already had it in this boot. */
static int acc__dev(struct whatif_row *row, struct wi_acc *a, struct keymap *seen,
		    const struct whatif_devnode *d, int i)
{
	char key[3 * NAME_LEN];
	size_t len = dev_key(key, sizeof(key), d->kind, d->name, d->driver);
	int k;

	if (keymap__put(seen, key, len, i) != i)
		return -1;
	k = keymap__get(&a->index, key, len);
	if (k < 0 && row->nr_dev >= WHATIF_MAX_DEVS) {
		row->devs_left_out++;
		return -1;
	}
	if (k < 0) {
		struct whatif_dev *n;

		k = keymap__put(&a->index, key, len, row->nr_dev);
		n = ARRAY_PUSH(row->dev, row->nr_dev);
		snprintf(n->name, sizeof(n->name), "%s", d->name);
		snprintf(n->kind, sizeof(n->kind), "%s", d->kind);
		snprintf(n->driver, sizeof(n->driver), "%s", d->driver);
		a->dev = realloc(a->dev, row->nr_dev * sizeof(*a->dev));
		if (!a->dev)
			abort();
		a->dev[k] = (struct wi_vals){ 0 };
	}
	return k;
}

static void acc__boot(struct whatif_row *row, struct wi_acc *a, const struct whatif_boot *wb)
{
	struct keymap seen = { 0 };

	for (int k = 0; k < WI_CPU_CASES; k++) {
		vals__push(&a->boot, k, wb->pred_boot_s[k]);
		vals__push(&a->phase, k, wb->pred_phase_s[k]);
	}
	vals__push(&a->boot, WI_CPU_CASES, wb->boot_s);
	vals__push(&a->phase, WI_CPU_CASES, wb->phase_s);
	for (int i = 0; i < wb->nr_dev; i++) {
		const struct whatif_devnode *d = &wb->dev[i];
		/* a name may come twice in a boot (an interface renamed): its first */
		int k = acc__dev(row, a, &seen, d, i);

		if (k < 0)
			continue;
		row->dev[k].from_probe += d->from_probe;
		for (int c = 0; c < WI_CPU_CASES; c++)
			vals__push(&a->dev[k], c, d->pred_s[c]);
		vals__push(&a->dev[k], WI_CPU_CASES, d->sync_s);
	}
	keymap__free(&seen);
}

/* ---- one kernel, one async mode -------------------------------------------------------- */

static void row__predict(struct whatif_row *row, const struct wi_info *in, int n)
{
	struct wi_acc a = { 0 };

	for (int i = 0; i < n; i++) {
		struct whatif_boot wb;

		if (!is_of(&in[i], row->kernel, row->sync_mode))
			continue;
		if (!whatif__predict(in[i].b, in[i].cpus, row->mode, &wb)) {
			if (row->sync_boots && in[i].cpus != row->cpus)
				row->cpus_mixed = true;
			if (!row->sync_boots)
				row->kind = wb.kind;
			row->cpus = in[i].cpus;
			row->sync_boots++;
			if (wb.groups_parallel > row->groups_parallel)
				row->groups_parallel = wb.groups_parallel;
			acc__boot(row, &a, &wb);
		}
		whatif_boot__free(&wb);
	}
	vals__summarize(&a.boot, &row->boot);
	vals__summarize(&a.phase, &row->phase);
	for (int k = 0; k < row->nr_dev; k++)
		vals__summarize(&a.dev[k], &row->dev[k].when);
	free(a.dev);
	row->dev_index = a.index;
}

/* What else the measured mode changed beside the probing, in words; NULL if nothing. */
static char *settings_differ(const struct wi_info *in, int n, const struct whatif_row *row,
			     const char *mode)
{
	const struct boot_data *s = NULL, *m = NULL;

	for (int i = 0; i < n && (!s || !m); i++) {
		if (is_of(&in[i], row->kernel, row->sync_mode) && !s)
			s = in[i].b;
		if (is_of(&in[i], row->kernel, mode) && !m)
			m = in[i].b;
	}
	if (!s || !m)
		return NULL;
	if (s->event_timeout_s != m->event_timeout_s)
		return xasprintf("udev's event timeout %g s, against %g s", m->event_timeout_s,
				 s->event_timeout_s);
	if (strcmp(s->kill_policy, m->kill_policy))
		return xasprintf("kill policy '%s', against '%s'", m->kill_policy,
				 s->kill_policy);
	return NULL;
}

/* When each of @row's devices first appeared in the measured boot @b. */
static void measured__devs(const struct whatif_row *row, const struct boot_data *b,
			   struct wi_vals *dev)
{
	struct keymap seen = { 0 };
	char key[3 * NAME_LEN];

	for (int j = 0; j < b->nr_devnodes; j++) {
		const struct devnode *d = &b->devnodes[j];
		size_t len = dev_key(key, sizeof(key), d->kind, d->name, d->bound_driver);
		int k = keymap__get(&row->dev_index, key, len);

		/* a name may come twice in a boot: its first */
		if (k >= 0 && keymap__put(&seen, key, len, j) == j)
			vals__push(&dev[k], 0, d->ts_ns / 1e9);
	}
	keymap__free(&seen);
}

/* The measured boots of @mode: boot time, probe phase, each predicted device's time. */
static void measured__fill(struct whatif_measured *me, const struct whatif_row *row,
			   const struct wi_info *in, int n)
{
	struct wi_vals boot = { 0 }, phase = { 0 }, *dev = xcalloc(row->nr_dev + 1, sizeof(*dev));

	me->dev = xcalloc(row->nr_dev + 1, sizeof(*me->dev));
	for (int i = 0; i < n; i++) {
		struct boot_metrics bm;

		if (!is_of(&in[i], row->kernel, me->mode))
			continue;
		boot__metrics(in[i].b, &bm);
		vals__push(&boot, 0, bm.boot_s);
		vals__push(&phase, 0, bm.probe_phase_s);
		measured__devs(row, in[i].b, dev);
	}
	stats_summarize(boot.v[0], boot.n[0], &me->boot);
	stats_summarize(phase.v[0], phase.n[0], &me->phase);
	for (int k = 0; k < row->nr_dev; k++) {
		stats_summarize(dev[k].v[0], dev[k].n[0], &me->dev[k].measured);
		free(dev[k].v[0]);
	}
	free(boot.v[0]);
	free(phase.v[0]);
	free(dev);
}

/* The run's modes of @kernel whose boots probed as @mode, measured beside the prediction. */
static void row__measured(struct whatif_row *row, const struct run_data *r,
			  const struct wi_info *in, int n)
{
	for (int m = 0; m < r->nr_modes; m++) {
		const char *name = r->modes[m].name;
		struct whatif_measured *me;
		bool has = false;

		for (int i = 0; i < n && !has; i++)
			has = is_of(&in[i], row->kernel, name) && in[i].mode == row->mode;
		if (!has)
			continue;
		me = ARRAY_PUSH(row->meas, row->nr_meas);
		me->mode = xstrdup(name);
		me->differs = settings_differ(in, n, row, name);
		measured__fill(me, row, in, n);
	}
}

/* ---- the run ------------------------------------------------------------------------------ */

/* Each kernel once, in the order the boots name them. */
static void kernels(const struct wi_info *in, int n, struct strv *out)
{
	for (int i = 0; i < n; i++)
		if (!strv__contains(out, in[i].kernel))
			strv__push(out, in[i].kernel);
}

/* The async modes of @kernel that were measured and cannot be compared with a prediction. */
static void skipped(struct whatif_run *w, const struct wi_info *in, int n, const char *kernel,
		    const char *sync)
{
	for (int i = 0; i < n; i++) {
		const char *why = NULL;
		char *line;

		if (!is_of(&in[i], kernel, NULL) || in[i].mode == WI_SYNC)
			continue;
		if (in[i].mode == WI_OTHER_ASYNC)
			why = "async probing of chosen drivers only, which the model does not predict";
		else if (!sync)
			why = "no sync boot of this kernel to predict it from";
		if (!why)
			continue;
		line = xasprintf("%s%s%s: %s", in[i].b->mode, *kernel ? " on " : "", kernel, why);
		if (!strv__contains(&w->skipped, line))
			strv__push(&w->skipped, line);
		free(line);
	}
}

void whatif_run__build(struct whatif_run *w, const struct run_data *r)
{
	struct strv ks = { 0 };
	int n;
	struct wi_info *in = infos(r, &n);

	*w = (struct whatif_run){ 0 };
	kernels(in, n, &ks);
	for (size_t k = 0; k < ks.n; k++) {
		const char *sync = sync_mode(r, in, n, ks.v[k]);

		skipped(w, in, n, ks.v[k], sync);
		if (!sync)
			continue;
		for (int mode = WI_DRIVER_ASYNC; mode <= WI_MODULE_ASYNC; mode++) {
			struct whatif_row *row = ARRAY_PUSH(w->rows, w->nr);

			snprintf(row->kernel, sizeof(row->kernel), "%s", ks.v[k]);
			row->sync_mode = xstrdup(sync);
			row->mode = mode;
			row__predict(row, in, n);
			row__measured(row, r, in, n);
		}
	}
	strv__free(&ks);
	free(in);
}

void whatif_run__free(struct whatif_run *w)
{
	for (int i = 0; i < w->nr; i++) {
		struct whatif_row *row = &w->rows[i];

		for (int k = 0; k < row->nr_meas; k++) {
			free(row->meas[k].mode);
			free(row->meas[k].differs);
			free(row->meas[k].dev);
		}
		free(row->meas);
		free(row->dev);
		keymap__free(&row->dev_index);
		free(row->sync_mode);
	}
	free(w->rows);
	strv__free(&w->skipped);
	*w = (struct whatif_run){ 0 };
}

double whatif_error_pct(double predicted, double measured)
{
	if (!isfinite(predicted) || !isfinite(measured) || measured <= 0)
		return NAN;
	return 100.0 * (predicted - measured) / measured;
}

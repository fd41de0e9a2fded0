// SPDX-License-Identifier: GPL-2.0
/*
 * What if every probe were asynchronous: the model of docs/whatif.md.
 *
 * A sync boot's probes are put in groups: the consecutive outermost
 * synchronous probes one thread ran for one cause (a module load, an
 * initcall, a device added).  An async mode runs a group's probes side by
 * side; the thread that ran them waits for all of them (driver_async_probe=*
 * in a module load or an initcall: the kernel still synchronizes) or goes
 * on at once (module.async_probe=1, or a device added outside a load).
 * What the thread saves moves its later work earlier; the kernel's saving
 * moves everything after it; on a systemd boot the initramfs's wait (its
 * udev settle, then the root disk) moves PID 1's exec and all that follows,
 * and a disk or interface on multi-user.target's critical chain moves the
 * target.  With the probes computing (f = 1) a group's probes share the CPUs
 * the other threads left free, and probes that run on while their thread
 * goes on take CPU time from it.
 */
#include "whatif.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "cmdline.h"
#include "sdanalyze.h"
#include "util.h"

const char *whatif_mode__name(enum whatif_mode m)
{
	static const char *const names[WI_MODES] = {
		[WI_SYNC] = "sync", [WI_DRIVER_ASYNC] = "driver-async",
		[WI_MODULE_ASYNC] = "module-async", [WI_OTHER_ASYNC] = "other async",
	};

	return (unsigned)m < WI_MODES ? names[m] : "?";
}

/* The kernel reads "1", "y" and "Y" as true (kstrtobool()), and "on". */
static bool value_true(const char *v, size_t len)
{
	return len && (*v == '1' || *v == 'y' || *v == 'Y' || (len == 2 && !strncmp(v, "on", 2)));
}

enum whatif_mode whatif_mode__of_cmdline(const char *cmdline)
{
	const char *v, *p;
	size_t len;

	if (!cmdline)
		return WI_SYNC;
	v = cmdline__last(cmdline, "driver_async_probe", &len);
	if (v && len == 1 && *v == '*')
		return WI_DRIVER_ASYNC;
	if (v && len)
		return WI_OTHER_ASYNC;
	v = cmdline__last(cmdline, "module.async_probe", &len);
	if (v && value_true(v, len))
		return WI_MODULE_ASYNC;
	/* DRIVER.async_probe=1: one module's probes (the lab's async-probe mode). */
	for (p = strstr(cmdline, ".async_probe="); p; p = strstr(p + 1, ".async_probe="))
		if (value_true(p + 13, strcspn(p + 13, " \t\n")))
			return WI_OTHER_ASYNC;
	return WI_SYNC;
}

const char *whatif_kind__name(enum whatif_kind k)
{
	return k == WI_SYSTEMD ? "systemd" : "lab";
}

enum whatif_kind whatif_kind__of(const struct boot_data *b)
{
	return boot_data__is_systemd(b) ? WI_SYSTEMD : WI_LAB;
}

int whatif_cpus_of_qemu(const char *q)
{
	const char *p;

	for (p = q ? strstr(q, "-smp ") : NULL; p; p = strstr(p + 1, "-smp ")) {
		const char *v = p + 5, *c;
		long n;

		if (p != q && p[-1] != ' ')
			continue;
		/* "-smp 4", "-smp 4,sockets=1", "-smp cpus=4,..." */
		c = strstr(v, "cpus=");
		if (c && c < v + strcspn(v, " "))
			v = c + 5;
		n = strtol(v, NULL, 10);
		return n > 0 && n <= 4096 ? (int)n : 0;
	}
	return 0;
}

/* ---- the probes, in groups ---------------------------------------------------------------- */

struct wi_probe {
	const struct probe_span *p;
	double s, e;		/* sync start and end, s */
	double ps, pe;		/* predicted */
	double before;		/* its group's probes before it: their durations, summed */
	int parent;		/* the outermost probe holding it on its thread, -1 if none */
	int group;		/* its group if outermost and synchronous, else -1 */
};

struct wi_group {
	int pid, first, k;	/* thread; its first probe (index); probes */
	bool initcall;		/* caused by an initcall: the kernel waits before /init */
	bool alone;		/* a device added outside a load: its gain moves nothing else */
	bool parallel, waits;	/* the mode runs it in parallel; its thread waits for it */
	double t0, end;		/* first start, last end (sync) */
	double sum, max;	/* its probes' durations: sum and longest */
	double free_cpus;	/* CPUs the other threads' probes left, its span's average */
	int off;		/* its probes' durations: dur[off .. off + k), sorted */
	double gain;		/* what its thread saves */
	double ps;		/* its predicted start */
};

struct wi_boot {
	const struct boot_data *b;
	enum whatif_mode mode;
	enum whatif_cpu cpu;
	int cpus;
	struct wi_probe *p;
	int n;
	struct wi_group *g;
	int ng;
	/* the groups' probe durations, each group's sorted, and their running sums */
	double *dur, *dur_sum;
	/* outermost probes running at once: breakpoints, the count after, its integral */
	double *bt, *bi;
	int *bc, nb;
	/* the thread shift: groups in (pid, end) order, each pid's gains summed so far */
	double *tg_end, *tg_sum;
	/* the kernel's: initcall groups by end, their gains summed */
	double *ig_end, *ig_sum;
	int nig;
	int *dn_probe;		/* the probe (index) that made each devnode, -1 if none */
	int *ml_waited;		/* the load (index) each module load waited for, -1 if none */
	double exec_gain;	/* systemd: PID 1's exec moved this much earlier */
};

static int cmp_thread_start(const void *a, const void *b)
{
	const struct wi_probe *x = a, *y = b;

	if (x->p->pid != y->p->pid)
		return x->p->pid < y->p->pid ? -1 : 1;
	if (x->s != y->s)
		return x->s < y->s ? -1 : 1;
	return (x->e < y->e) - (x->e > y->e);	/* the outer one first */
}

/* The probes with a known start on the boot clock, by thread and start. */
static void wi_collect(struct wi_boot *w)
{
	const struct boot_data *b = w->b;

	w->p = xcalloc(b->nr_probes + 1, sizeof(*w->p));
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];

		if (p->other_clock || p->start_ns == UNKNOWN_NS || p->end_ns < p->start_ns)
			continue;
		w->p[w->n++] = (struct wi_probe){ .p = p, .s = p->start_ns / 1e9,
						  .e = p->end_ns / 1e9, .parent = -1, .group = -1 };
	}
	qsort(w->p, w->n, sizeof(*w->p), cmp_thread_start);
	/* A probe inside another on the same thread (a bus probing a child) is the parent's. */
	for (int i = 0, top = -1; i < w->n; i++) {
		if (top >= 0 && w->p[top].p->pid == w->p[i].p->pid && w->p[i].e <= w->p[top].e)
			w->p[i].parent = top;
		else
			top = i;
	}
}

static bool same_cause(const struct probe_span *a, const struct probe_span *b)
{
	return !strcmp(a->origin, b->origin) && !strcmp(a->origin_module, b->origin_module) &&
	       a->origin_pid == b->origin_pid;
}

/* Whether @mode makes the probes of driver module @owner asynchronous. */
static bool mode_parallel(enum whatif_mode mode, const char *owner)
{
	/* module.async_probe=1 asks it of every module loaded; a built-in driver is no module. */
	return mode == WI_DRIVER_ASYNC || (mode == WI_MODULE_ASYNC && *owner);
}

/*
 * Whether the thread that ran a group waits for its probes when they are
 * asynchronous: in 6.1 do_init_module() waits (async_synchronize_full())
 * unless the module asked for async probing, and the kernel waits for every
 * async probe before it starts /init; a device added elsewhere does not wait.
 */
static bool mode_waits(enum whatif_mode mode, const char *origin)
{
	return mode == WI_DRIVER_ASYNC && (!strcmp(origin, "module_load") ||
					    !strcmp(origin, "initcall"));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The count of outermost probes running at each instant, as breakpoints and
 * its integral: how many probe-seconds lie in any span, in O(log n).
 */
static void wi_concurrency(struct wi_boot *w)
{
	double *ev = xcalloc(2 * (size_t)w->n + 1, sizeof(*ev));
	int m = 0, c = 0;

	/* A start as +t, an end as its own list: count by merging two sorted lists. */
	for (int i = 0; i < w->n; i++)
		if (w->p[i].parent < 0)
			ev[m++] = w->p[i].s;
	qsort(ev, m, sizeof(*ev), cmp_double);
	w->bt = xcalloc(2 * (size_t)m + 1, sizeof(*w->bt));
	w->bi = xcalloc(2 * (size_t)m + 1, sizeof(*w->bi));
	w->bc = xcalloc(2 * (size_t)m + 1, sizeof(*w->bc));
	{
		double *ends = ev + m;
		int ne = 0, a = 0, b = 0;

		for (int i = 0; i < w->n; i++)
			if (w->p[i].parent < 0)
				ends[ne++] = w->p[i].e;
		qsort(ends, ne, sizeof(*ends), cmp_double);
		while (a < m || b < ne) {
			bool start = b >= ne || (a < m && ev[a] <= ends[b]);
			double t = start ? ev[a++] : ends[b++];

			c += start ? 1 : -1;
			w->bt[w->nb] = t;
			w->bi[w->nb] = w->nb ? w->bi[w->nb - 1] + w->bc[w->nb - 1] *
						   (t - w->bt[w->nb - 1]) : 0;
			w->bc[w->nb++] = c;
		}
	}
	free(ev);
}

/* Probe-seconds of outermost probes (of any thread) before @t. */
static double probe_seconds(const struct wi_boot *w, double t)
{
	int lo = 0, hi = w->nb;

	/* the last breakpoint at or before @t */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (w->bt[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? w->bi[lo - 1] + w->bc[lo - 1] * (t - w->bt[lo - 1]) : 0;
}

/* Seconds of [a, b) other threads were inside an outermost probe: all of them less the group's own. */
static double others_busy(const struct wi_boot *w, const struct wi_group *g)
{
	double busy = probe_seconds(w, g->end) - probe_seconds(w, g->t0) - g->sum;

	return busy > 0 ? busy : 0;
}

static void group__close(struct wi_boot *w, struct wi_group *g)
{
	double span = g->end - g->t0;
	double busy = span > 0 ? others_busy(w, g) / span : 0;
	double *d = w->dur + g->off;

	g->free_cpus = w->cpus - busy;
	if (g->free_cpus < 1)
		g->free_cpus = 1;
	g->parallel = mode_parallel(w->mode, w->p[g->first].p->owner);
	g->waits = mode_waits(w->mode, w->p[g->first].p->origin);
	g->initcall = !strcmp(w->p[g->first].p->origin, "initcall");
	qsort(d, g->k, sizeof(*d), cmp_double);
	for (int i = 0; i < g->k; i++)
		w->dur_sum[g->off + i] = d[i] + (i ? w->dur_sum[g->off + i - 1] : 0);
}

/*
 * Whether a probe of this cause may share a group with the one before it:
 * a module load's or the kernel's initcalls' (the kernel waits for all their
 * async probes at once, before /init).  A device added on a worker (a hub's
 * port, a SCSI scan) is a work item of its own, in a group alone.
 */
static bool chains(const struct probe_span *p)
{
	return !strcmp(p->origin, "module_load") || !strcmp(p->origin, "initcall");
}

/* Consecutive outermost synchronous probes of one thread and one cause. */
static void wi_group(struct wi_boot *w)
{
	struct wi_group *g = NULL;

	w->g = xcalloc(w->n + 1, sizeof(*w->g));
	w->dur = xcalloc(w->n + 1, sizeof(*w->dur));
	w->dur_sum = xcalloc(w->n + 1, sizeof(*w->dur_sum));
	for (int i = 0; i < w->n; i++) {
		struct wi_probe *q = &w->p[i];

		if (q->parent >= 0 || q->p->async)
			continue;
		if (!g || g->pid != q->p->pid || !chains(q->p) ||
		    !same_cause(w->p[g->first].p, q->p)) {
			if (g)
				group__close(w, g);
			g = &w->g[w->ng++];
			*g = (struct wi_group){ .pid = q->p->pid, .first = i, .t0 = q->s,
						.alone = !chains(q->p), .off = i };
		}
		q->group = (int)(g - w->g);
		q->before = g->sum;
		w->dur[g->off + g->k++] = q->e - q->s;
		g->sum += q->e - q->s;
		if (q->e - q->s > g->max)
			g->max = q->e - q->s;
		if (q->e > g->end)
			g->end = q->e;
	}
	if (g)
		group__close(w, g);
}

/* ---- the groups, replayed ------------------------------------------------------------------ */

static double cpu_share(const struct wi_boot *w)
{
	return w->cpu == WI_COMPUTING ? 1.0 : 0.0;
}

/* Side by side on min(k, free CPUs) lanes: at least the longest, at least the work / lanes. */
static double group__lanes(const struct wi_group *g)
{
	return g->k < g->free_cpus ? g->k : g->free_cpus;
}

/*
 * How long a probe of @d seconds takes in its group run in parallel: its
 * own time, or under processor sharing of the lanes the CPU work of the
 * group's probes up to its own length (f * sum min(d_j, d) / lanes).
 */
static double group__probe_time(const struct wi_boot *w, const struct wi_group *g, double d)
{
	const double *dur = w->dur + g->off, *sum = w->dur_sum + g->off;
	int lo = 0, hi = g->k;
	double shared;

	/* sum min(d_j, d): the durations up to @d in full, @d for each longer one */
	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (dur[mid] <= d)
			lo = mid + 1;
		else
			hi = mid;
	}
	shared = (lo ? sum[lo - 1] : 0) + d * (g->k - lo);
	shared *= cpu_share(w) / group__lanes(g);
	return shared > d ? shared : d;
}

/*
 * When the group's last probe ends, in the sync boot's time less what came
 * before: each probe starts where the thread reached it, its group's
 * earlier probes no longer run in front of it.
 */
static double group__last_end(const struct wi_boot *w, const struct wi_group *g)
{
	double end = -INFINITY;
	int seen = 0;

	for (int i = g->first; i < w->n && seen < g->k; i++) {
		const struct wi_probe *q = &w->p[i];

		if (q->group != (int)(g - w->g))
			continue;
		seen++;
		end = fmax(end, q->s - q->before + group__probe_time(w, g, q->e - q->s));
	}
	return end;
}

/*
 * What the group's thread saves: the thread is past the group's last
 * probe @sum earlier; waiting, it stays until the last probe ends; going
 * on, probes that compute take their CPU time from it.
 */
static double group__gain(const struct wi_boot *w, const struct wi_group *g)
{
	double end;

	if (!g->parallel)
		return 0;
	if (g->waits)
		end = fmax(g->end - g->sum, group__last_end(w, g));
	else
		end = g->end - g->sum + cpu_share(w) * g->sum / g->free_cpus;
	return g->end > end ? g->end - end : 0;
}

/*
 * How much earlier something at @t on thread @pid happens: what the
 * thread's groups ended by @t saved, what the kernel's initcall groups
 * saved by then (the kernel waits for them before anything of user space),
 * and on a systemd boot, after PID 1's exec, what the initramfs's wait saved.
 */
/* How many of the @n ascending @v are at or below @t. */
static int count_upto(const double *v, int n, double t)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (v[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The groups of thread @pid: [*lo, *hi) of w->g, which is in (pid, start) order. */
static void pid_run(const struct wi_boot *w, int pid, int *lo, int *hi)
{
	int a = 0, b = w->ng;

	while (a < b) {
		int mid = (a + b) / 2;

		if (w->g[mid].pid < pid)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	for (b = a; b < w->ng && w->g[b].pid == pid; b++)
		;
	*hi = b;
}

/*
 * The gains summed for wi_shift(): per thread in w->g's order (the ends
 * made non-decreasing within a thread), and the kernel's initcall groups
 * by end.
 */
struct end_gain {
	double end, gain;
};

static int cmp_end(const void *a, const void *b)
{
	return cmp_double(&((const struct end_gain *)a)->end, &((const struct end_gain *)b)->end);
}

static void wi_index_gains(struct wi_boot *w)
{
	struct end_gain *ig = xcalloc(w->ng + 1, sizeof(*ig));

	w->nig = 0;
	for (int i = 0; i < w->ng; i++) {
		const struct wi_group *g = &w->g[i];
		bool first = !i || w->g[i - 1].pid != g->pid;
		double own = g->alone || g->initcall ? 0 : g->gain;

		w->tg_end[i] = first ? g->end : fmax(g->end, w->tg_end[i - 1]);
		w->tg_sum[i] = first ? own : w->tg_sum[i - 1] + own;
		if (g->initcall)
			ig[w->nig++] = (struct end_gain){ g->end, g->gain };
	}
	qsort(ig, w->nig, sizeof(*ig), cmp_end);
	for (int i = 0; i < w->nig; i++) {
		w->ig_end[i] = ig[i].end;
		w->ig_sum[i] = ig[i].gain + (i ? w->ig_sum[i - 1] : 0);
	}
	free(ig);
}

static double wi_shift(const struct wi_boot *w, int pid, double t)
{
	double s = 0;
	int lo, hi, k;

	k = count_upto(w->ig_end, w->nig, t);
	if (k)
		s += w->ig_sum[k - 1];
	if (pid >= 0) {
		pid_run(w, pid, &lo, &hi);
		k = count_upto(w->tg_end + lo, hi - lo, t);
		if (k)
			s += w->tg_sum[lo + k - 1];
	}
	if (w->exec_gain > 0 && !isnan(w->b->init_exec_s) && t >= w->b->init_exec_s)
		s += w->exec_gain;
	return s;
}

static void wi_replay(struct wi_boot *w)
{
	for (int i = 0; i < w->ng; i++)
		w->g[i].gain = group__gain(w, &w->g[i]);
	wi_index_gains(w);
	for (int i = 0; i < w->ng; i++) {
		struct wi_group *g = &w->g[i];

		g->ps = g->t0 - wi_shift(w, g->pid, g->t0);
	}
	for (int i = 0; i < w->n; i++) {
		struct wi_probe *q = &w->p[i];
		const struct wi_group *g = q->group >= 0 ? &w->g[q->group] : NULL;
		int ref = q->p->async ? q->p->origin_pid : q->p->pid;

		if (q->parent >= 0) {
			/* A child moves with its parent (replayed before it: sorted by start). */
			double d = w->p[q->parent].s - w->p[q->parent].ps;

			q->ps = q->s - d;
			q->pe = q->e - d;
		} else if (g && g->parallel) {
			q->ps = q->s - q->before - (g->t0 - g->ps);
			q->pe = q->ps + group__probe_time(w, g, q->e - q->s);
		} else {
			q->ps = q->s - wi_shift(w, ref, q->s);
			q->pe = q->ps + (q->e - q->s);
		}
	}
}

/* ---- what the boot waited for ---------------------------------------------------------- */

static const struct boot_data *load_ctx;

static int cmp_load_end(const void *a, const void *b)
{
	const struct module_load *x = &load_ctx->modloads[*(const int *)a];
	const struct module_load *y = &load_ctx->modloads[*(const int *)b];

	return (x->end_ns > y->end_ns) - (x->end_ns < y->end_ns);
}

/*
 * The load each failed one waited for.  A second load of a module that is
 * still loading waits until it is live, then fails with -EEXIST (6.1's
 * add_unformed_module(): udev's workers, one event per device of a driver,
 * all load it at once).  The record of a failed load has no name: the load
 * waited for is the last one that succeeded on another thread and ended
 * within the failed one's span.  Lab boots only: the systemd path (PID 1's
 * exec after the initramfs's settle) takes each load's own thread.
 */
static void wi_load_waits(struct wi_boot *w)
{
	const struct boot_data *b = w->b;
	int *idx = xcalloc(b->nr_modloads + 1, sizeof(*idx)), n = 0;

	w->ml_waited = xcalloc(b->nr_modloads + 1, sizeof(*w->ml_waited));
	for (int i = 0; i < b->nr_modloads; i++)
		w->ml_waited[i] = -1;
	if (whatif_kind__of(b) == WI_SYSTEMD) {
		free(idx);
		return;
	}
	for (int i = 0; i < b->nr_modloads; i++)
		if (!b->modloads[i].ret && b->modloads[i].end_ns >= b->modloads[i].start_ns)
			idx[n++] = i;
	load_ctx = b;
	qsort(idx, n, sizeof(*idx), cmp_load_end);
	for (int i = 0; i < b->nr_modloads; i++) {
		const struct module_load *l = &b->modloads[i];
		int lo = 0, hi = n;

		if (l->ret != -EEXIST || l->end_ns < l->start_ns)
			continue;
		/* the loads ended by its end, latest first, back to its start */
		while (lo < hi) {
			int mid = (lo + hi) / 2;

			if (b->modloads[idx[mid]].end_ns <= l->end_ns)
				lo = mid + 1;
			else
				hi = mid;
		}
		while (--lo >= 0 && b->modloads[idx[lo]].end_ns >= l->start_ns) {
			if (b->modloads[idx[lo]].pid != l->pid) {
				w->ml_waited[i] = idx[lo];
				break;
			}
		}
	}
	free(idx);
}

/*
 * When a module load ended, predicted: its thread's later start less its
 * groups' saving; one that waited for another thread's load ends as long
 * after that load as it did in the sync boot, and not before it started.
 */
static double load_end(const struct wi_boot *w, const struct module_load *l)
{
	int k = w->ml_waited[l - w->b->modloads];
	const struct module_load *o = k >= 0 ? &w->b->modloads[k] : NULL;
	double s = l->start_ns / 1e9, t = l->end_ns / 1e9;

	if (!o)
		return t - wi_shift(w, l->pid, t);
	return fmax(s - wi_shift(w, l->pid, s), t - wi_shift(w, o->pid, o->end_ns / 1e9));
}

/* Probes by driver, device and start (indexes into w->p): the devnodes' look-up. */
static const struct wi_boot *sort_ctx;

static int cmp_drv_dev_start(const void *a, const void *b)
{
	const struct wi_probe *x = &sort_ctx->p[*(const int *)a], *y = &sort_ctx->p[*(const int *)b];
	int c = strcmp(x->p->driver, y->p->driver);

	if (!c)
		c = strcmp(x->p->device, y->p->device);
	return c ? c : cmp_double(&x->s, &y->s);
}

/* The first of @idx (sorted) whose probe is of @drv and @dev, or @n. */
static int first_of(const struct wi_boot *w, const int *idx, int n, const char *drv,
		    const char *dev)
{
	int lo = 0, hi = n;

	while (lo < hi) {
		int mid = (lo + hi) / 2;
		const struct probe_span *p = w->p[idx[mid]].p;
		int c = strcmp(p->driver, drv);

		if (!c)
			c = strcmp(p->device, dev);
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The probe that made each disk and interface: of its driver and device,
 * the last to start before it appeared.
 */
static void wi_devnode_probes(struct wi_boot *w)
{
	const struct boot_data *b = w->b;
	int *idx = xcalloc(w->n + 1, sizeof(*idx));

	for (int i = 0; i < w->n; i++)
		idx[i] = i;
	sort_ctx = w;
	qsort(idx, w->n, sizeof(*idx), cmp_drv_dev_start);
	w->dn_probe = xcalloc(b->nr_devnodes + 1, sizeof(*w->dn_probe));
	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];
		int k = first_of(w, idx, w->n, d->bound_driver, d->bound_device);

		w->dn_probe[i] = -1;
		for (; k < w->n; k++) {
			const struct wi_probe *q = &w->p[idx[k]];

			if (strcmp(q->p->driver, d->bound_driver) ||
			    strcmp(q->p->device, d->bound_device) || q->s > d->ts_ns / 1e9)
				break;
			w->dn_probe[i] = idx[k];
		}
	}
	free(idx);
}

/*
 * When @d appears: as long before or after its probe's predicted end as
 * it did before or after the sync end (a probe sharing the CPUs is slowed
 * while the others run, the longest ones end alone: its tail is its own).
 */
static double devnode_time(const struct wi_boot *w, const struct devnode *d, bool *found)
{
	int k = w->dn_probe[d - w->b->devnodes];
	const struct wi_probe *q = k >= 0 ? &w->p[k] : NULL;
	double t = d->ts_ns / 1e9;

	*found = q != NULL;
	if (!q)
		return t - wi_shift(w, -1, t);
	return fmax(q->ps, q->pe - (q->e - t));
}

/*
 * The root disk's name from the kernel command line the guest sent
 * (root=/dev/NAME) into @buf; false if it names none (root=UUID=...).
 */
static bool root_disk(const struct boot_data *b, char *buf, size_t len)
{
	const char *text = boot_data__attachment(b, "kernel-cmdline.txt");
	size_t n;
	const char *v = text ? cmdline__last(text, "root", &n) : NULL;

	if (!v || n <= 5 || strncmp(v, "/dev/", 5) || n - 5 >= len)
		return false;
	memcpy(buf, v + 5, n - 5);
	buf[n - 5] = '\0';
	return true;
}

/* Which disks a wait was for: none (udev's queue), the root disk, every disk. */
enum wi_disks { DISKS_NONE, DISKS_ROOT, DISKS_ALL };

static bool disk_waited(const struct boot_data *b, const struct devnode *d, enum wi_disks which,
			const char *root)
{
	if (which == DISKS_NONE || strcmp(d->kind, "block"))
		return false;
	/* root=/dev/vda1 is a partition of the disk vda */
	return which == DISKS_ALL || !strncmp(root, d->name, strlen(d->name));
}

/*
 * A module load udev made for an event (its worker's comm; "systemd-udevd"
 * before systemd 247): what udev's queue, and a settle, wait for.  A
 * modprobe run by a script (the initramfs's mount loading ext4) is not.
 */
static bool load_by_udev(const struct module_load *l)
{
	return !strcmp(l->comm, "(udev-worker)") || !strcmp(l->comm, "systemd-udevd");
}

/*
 * The latest end, sync and predicted, of udev's module loads and of the
 * disks @which, before @t.
 */
static void waited_before(const struct wi_boot *w, double t, enum wi_disks which,
			  double *sync, double *pred)
{
	const struct boot_data *b = w->b;
	char root[NAME_LEN] = "";
	bool found;

	if (which == DISKS_ROOT && !root_disk(b, root, sizeof(root)))
		which = DISKS_NONE;
	*sync = *pred = -INFINITY;
	for (int i = 0; i < b->nr_modloads; i++) {
		const struct module_load *l = &b->modloads[i];

		if (l->end_ns / 1e9 > t || l->end_ns < l->start_ns || !load_by_udev(l))
			continue;
		*sync = fmax(*sync, l->end_ns / 1e9);
		*pred = fmax(*pred, load_end(w, l));
	}
	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];

		if (d->ts_ns / 1e9 > t || !disk_waited(b, d, which, root))
			continue;
		*sync = fmax(*sync, d->ts_ns / 1e9);
		*pred = fmax(*pred, devnode_time(w, d, &found));
	}
}

/*
 * Systemd: the initramfs execs the root's init once udev settled (every
 * module load udev started has ended) and its root disk is there; both move
 * with the model, and PID 1's exec (with all between: the root's mount)
 * with the later of them.
 */
static double exec_gain(const struct wi_boot *w)
{
	double sync, pred, t = w->b->init_exec_s;

	if (isnan(t))
		return 0;
	waited_before(w, t, DISKS_ROOT, &sync, &pred);
	if (!isfinite(sync))
		return wi_shift(w, -1, t);
	return sync > pred ? sync - pred : 0;
}

/* The user-space probes' first start and last end, sync or predicted. */
static void probe_phase(const struct wi_boot *w, bool pred, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (int i = 0; i < w->n; i++) {
		const struct wi_probe *q = &w->p[i];

		if (!probe_span__in_user_space(w->b, q->p))
			continue;
		*lo = fmin(*lo, pred ? q->ps : q->s);
		*hi = fmax(*hi, pred ? q->pe : q->e);
	}
}

/*
 * What multi-user.target's critical chain saves: the least the disks and
 * interfaces on it (by their device units) moved beyond PID 1's exec; 0
 * when none of them is on it.
 */
static double chain_gain(const struct wi_boot *w)
{
	const char *text = boot_data__attachment(w->b, SD_ANALYZE_CHAIN);
	struct sd_chain_unit units[64];
	int n = text ? sd_chain__parse(text, units, 64) : 0;
	double gain = INFINITY;
	char unit[128];
	bool found;

	for (int i = 0; i < w->b->nr_devnodes; i++) {
		const struct devnode *d = &w->b->devnodes[i];

		if (!sd_device_unit(d->kind, d->name, unit, sizeof(unit)))
			continue;
		for (int k = 1; k < n; k++)
			if (!strcmp(units[k].unit, unit))
				gain = fmin(gain, d->ts_ns / 1e9 - devnode_time(w, d, &found) -
						  w->exec_gain);
	}
	return isfinite(gain) && gain > 0 ? gain : 0;
}

/* The later of @t and @u, NAN in either left alone. */
static double later(double t, double u)
{
	return isnan(t) ? u : isnan(u) ? t : fmax(t, u);
}

/*
 * The boot's end as boot_data__boot_time() defines it, each of its terms
 * moved: on a systemd boot multi-user.target alone (PID 1's exec and the
 * critical chain; a probe ending after it is late, not the boot's end); on
 * a lab boot udev's queue empty (the last module load before it), /init's
 * marks (the last probe's end, the last disk) and the last probe's end.
 */
static double boot_end(struct wi_boot *w, double *chain)
{
	const struct boot_data *b = w->b;
	double sync, pred, lo, hi, slo, shi, t;

	*chain = 0;
	if (boot_data__is_systemd(b)) {
		*chain = chain_gain(w);
		return b->multi_user_s - w->exec_gain - *chain;
	}
	probe_phase(w, true, &lo, &hi);
	probe_phase(w, false, &slo, &shi);
	waited_before(w, b->coldplug_done_s, DISKS_NONE, &sync, &pred);
	t = b->coldplug_done_s - (isfinite(sync) ? fmax(0, sync - pred) :
				  wi_shift(w, -1, b->coldplug_done_s));
	if (!isnan(b->devices_done_s))
		t = later(t, b->devices_done_s - (isfinite(shi) ? shi - hi : 0));
	if (!isnan(b->disks_done_s)) {
		waited_before(w, b->disks_done_s, DISKS_ALL, &sync, &pred);
		t = later(t, b->disks_done_s - (isfinite(sync) ? fmax(0, sync - pred) : 0));
	}
	return isfinite(hi) ? later(t, hi) : t;
}

/* ---- one boot, predicted --------------------------------------------------------------- */

static void predict_case(struct wi_boot *w, struct whatif_boot *out)
{
	double lo, hi;
	bool found;

	/* Pass 1 finds the initramfs's saving, pass 2 moves what follows PID 1's exec by it. */
	w->exec_gain = 0;
	wi_replay(w);
	if (out->kind == WI_SYSTEMD) {
		w->exec_gain = exec_gain(w);
		wi_replay(w);
	}
	out->exec_gain_s[w->cpu] = w->exec_gain;
	out->pred_boot_s[w->cpu] = boot_end(w, &out->chain_gain_s[w->cpu]);
	probe_phase(w, true, &lo, &hi);
	out->pred_phase_s[w->cpu] = isfinite(lo) ? hi - lo : NAN;
	for (int i = 0; i < w->b->nr_devnodes && i < out->nr_dev; i++) {
		out->dev[i].pred_s[w->cpu] = devnode_time(w, &w->b->devnodes[i], &found);
		out->dev[i].from_probe = found;
	}
}

static void devnodes_init(const struct boot_data *b, struct whatif_boot *out)
{
	out->dev = xcalloc(b->nr_devnodes + 1, sizeof(*out->dev));
	out->nr_dev = b->nr_devnodes;
	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];
		struct whatif_devnode *o = &out->dev[i];

		snprintf(o->name, sizeof(o->name), "%s", d->name);
		snprintf(o->kind, sizeof(o->kind), "%s", d->kind);
		snprintf(o->driver, sizeof(o->driver), "%s", d->bound_driver);
		o->sync_s = d->ts_ns / 1e9;
	}
}

static void wi_free(struct wi_boot *w)
{
	free(w->p);
	free(w->g);
	free(w->dur);
	free(w->dur_sum);
	free(w->bt);
	free(w->bi);
	free(w->bc);
	free(w->tg_end);
	free(w->tg_sum);
	free(w->ig_end);
	free(w->ig_sum);
	free(w->dn_probe);
	free(w->ml_waited);
}

/* Everything the replays share: groups, the CPUs' use, the gains' indexes, the devnodes' probes. */
static void wi_prepare(struct wi_boot *w)
{
	wi_concurrency(w);
	wi_group(w);
	w->tg_end = xcalloc(w->ng + 1, sizeof(*w->tg_end));
	w->tg_sum = xcalloc(w->ng + 1, sizeof(*w->tg_sum));
	w->ig_end = xcalloc(w->ng + 1, sizeof(*w->ig_end));
	w->ig_sum = xcalloc(w->ng + 1, sizeof(*w->ig_sum));
	wi_devnode_probes(w);
	wi_load_waits(w);
}

int whatif__predict(const struct boot_data *b, int cpus, enum whatif_mode mode,
		    struct whatif_boot *out)
{
	struct wi_boot w = { .b = b, .mode = mode, .cpus = cpus > 0 ? cpus : 1 };
	double lo, hi;

	*out = (struct whatif_boot){ .kind = whatif_kind__of(b), .cpus = cpus,
				     .boot_s = boot_data__boot_time(b) };
	wi_collect(&w);
	probe_phase(&w, false, &lo, &hi);
	if (!w.n || !isfinite(lo) || isnan(out->boot_s)) {
		wi_free(&w);
		return -1;
	}
	out->phase_s = hi - lo;
	wi_prepare(&w);
	out->groups = w.ng;
	for (int i = 0; i < w.ng; i++)
		out->groups_parallel += w.g[i].k > 1 && w.g[i].parallel;
	devnodes_init(b, out);
	for (w.cpu = 0; w.cpu < WI_CPU_CASES; w.cpu++)
		predict_case(&w, out);
	wi_free(&w);
	return 0;
}

void whatif_boot__free(struct whatif_boot *w)
{
	free(w->dev);
	w->dev = NULL;
	w->nr_dev = 0;
}

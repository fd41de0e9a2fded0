// SPDX-License-Identifier: GPL-2.0
/*
 * Which probes made a boot slow (slowest.h): the probes by duration, the
 * milestones and the probes that ended last before each, the device units
 * on systemd's critical chain.
 */
#define _GNU_SOURCE
#include "slowest.h"
#include "cmdline.h"
#include "sdanalyze.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const milestone_titles[MS_COUNT] = {
	[MS_ROOT] = "root device ready",
	[MS_HANDOVER] = "/init hands over to the root's init",
	[MS_COLDPLUG] = "udev's queue empty after coldplug",
	[MS_MULTI_USER] = "multi-user.target reached",
};

/* The disk root= names on @cmdline ("/dev/vda1" -> "vda1") into @buf; false if none. */
static bool root_name(const char *cmdline, char *buf, size_t len)
{
	const char *v;
	size_t n;

	if (!cmdline || !(v = cmdline__last(cmdline, "root", &n)))
		return false;
	if (n > 5 && !strncmp(v, "/dev/", 5)) {
		v += 5;
		n -= 5;
	}
	snprintf(buf, len, "%.*s", (int)(n < len - 1 ? n : len - 1), v);
	return n && n < len;
}

/*
 * The registration of the disk @name, or of the disk a partition @name is
 * on ("vda" for "vda1", "nvme0n1" for "nvme0n1p1"): the longest disk name
 * @name starts with.
 */
static const struct devnode *root_disk(const struct boot_data *b, const char *name)
{
	const struct devnode *best = NULL;

	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];
		size_t n = strlen(d->name);

		if (d->ret || strcmp(d->kind, "block") || !n || strncmp(name, d->name, n))
			continue;
		if (!best || n > strlen(best->name))
			best = d;
	}
	return best;
}

void boot__milestones(const struct boot_data *b, struct milestone_at ms[MS_COUNT])
{
	const char *cmdline = boot_data__attachment(b, "kernel-cmdline.txt");
	const struct devnode *root;

	for (int k = 0; k < MS_COUNT; k++)
		ms[k] = (struct milestone_at){ .s = NAN };
	if ((root_name(cmdline, ms[MS_ROOT].what, sizeof(ms[MS_ROOT].what)) ||
	     root_name(b->kernel_cmdline, ms[MS_ROOT].what, sizeof(ms[MS_ROOT].what))) &&
	    (root = root_disk(b, ms[MS_ROOT].what))) {
		ms[MS_ROOT].s = root->ts_ns / 1e9;
		ms[MS_ROOT].made_by = root;
		snprintf(ms[MS_ROOT].what, sizeof(ms[MS_ROOT].what), "%s", root->name);
	}
	/* The stream's exec of the root's init, else the console's init-bottom mark. */
	ms[MS_HANDOVER].s = !isnan(b->init_exec_s) ? b->init_exec_s : b->handover_s;
	/* On a systemd boot udev runs under systemd: no coldplug mark of ours. */
	ms[MS_COLDPLUG].s = b->coldplug_done_s;
	ms[MS_MULTI_USER].s = b->multi_user_s;
}

bool probe_span__timed(const struct probe_span *p)
{
	return !p->other_clock && p->start_ns != UNKNOWN_NS;
}

static int cmp_duration(const void *pa, const void *pb, void *ctx)
{
	const struct boot_data *bd = ctx;
	const struct probe_span *a = &bd->probes[*(const int *)pa];
	const struct probe_span *b = &bd->probes[*(const int *)pb];
	int64_t da = a->end_ns - a->start_ns, db = b->end_ns - b->start_ns;

	if (da != db)
		return da < db ? 1 : -1;
	return (a->start_ns > b->start_ns) - (a->start_ns < b->start_ns);
}

int *boot__probes_by_duration(const struct boot_data *b, int *n)
{
	int *idx = xcalloc(b->nr_probes + 1, sizeof(*idx));

	*n = 0;
	for (int i = 0; i < b->nr_probes; i++)
		if (probe_span__timed(&b->probes[i]))
			idx[(*n)++] = i;
	qsort_r(idx, *n, sizeof(*idx), cmp_duration, (void *)b);
	return idx;
}

int boot__probes_before(const struct boot_data *b, double t, int *out, int max)
{
	int n = 0;

	if (isnan(t) || max <= 0)
		return 0;
	/* Insertion into a short list, latest end first: max is a handful. */
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		int k = 0;

		if (p->other_clock || p->end_ns / 1e9 > t)
			continue;
		while (k < n && b->probes[out[k]].end_ns >= p->end_ns)
			k++;
		if (k == max)
			continue;
		if (n < max)
			n++;
		memmove(&out[k + 1], &out[k], (n - 1 - k) * sizeof(*out));
		out[k] = i;
	}
	return n;
}

/* The name of the task @pid as the stream knows it: a module load or a probe it ran. */
static const char *task_comm(const struct boot_data *b, int pid, const char *module)
{
	for (int i = 0; i < b->nr_modloads; i++)
		if (b->modloads[i].pid == pid && (!module || !strcmp(b->modloads[i].name, module)))
			return b->modloads[i].comm;
	for (int i = 0; i < b->nr_probes; i++)
		if (b->probes[i].pid == pid)
			return b->probes[i].comm;
	return NULL;
}

const char *probe_span__cause(const struct boot_data *b, const struct probe_span *p, char *buf,
			      size_t len)
{
	const char *comm;

	if (!strcmp(p->origin, "initcall")) {
		snprintf(buf, len, "kernel initcall");
	} else if (!strcmp(p->origin, "deferred")) {
		snprintf(buf, len, "deferred probe retry");
	} else if (!strcmp(p->origin, "module_load")) {
		comm = task_comm(b, p->origin_pid, *p->origin_module ? p->origin_module : NULL);
		if (!comm)
			comm = task_comm(b, p->origin_pid, NULL);
		snprintf(buf, len, "module %s, loaded by %s, pid %d",
			 *p->origin_module ? p->origin_module : "?", comm ? comm : "a task",
			 p->origin_pid);
	} else if (*p->origin) {
		comm = p->async ? task_comm(b, p->origin_pid, NULL) : p->comm;
		snprintf(buf, len, "device added by %s, pid %d", comm ? comm : "a task",
			 p->async ? p->origin_pid : p->pid);
	} else {
		snprintf(buf, len, "%s, pid %d", *p->comm ? p->comm : "a task", p->pid);
	}
	return buf;
}

/* The disk or interface whose systemd unit is @unit. */
static const struct devnode *unit_devnode(const struct boot_data *b, const char *unit)
{
	char name[128];

	for (int i = 0; i < b->nr_devnodes; i++)
		if (!b->devnodes[i].ret &&
		    sd_device_unit(b->devnodes[i].kind, b->devnodes[i].name, name, sizeof(name)) &&
		    !strcmp(name, unit))
			return &b->devnodes[i];
	return NULL;
}

/* Kernel-start seconds of the chain's "@0": when systemd's userspace began. */
static double chain_origin(const struct boot_data *b, const struct sd_chain_unit *top)
{
	struct sd_time t;

	if (sd_time__parse(boot_data__attachment(b, SD_ANALYZE_TIME), &t) && !isnan(t.kernel_s))
		return t.kernel_s + (isnan(t.initrd_s) ? 0 : t.initrd_s);
	if (top && !strcmp(top->unit, "multi-user.target") && !isnan(b->multi_user_s))
		return b->multi_user_s - top->at_s;
	return NAN;
}

int boot__chain_devices(const struct boot_data *b, struct chain_device *out)
{
	const char *text = boot_data__attachment(b, SD_ANALYZE_CHAIN);
	struct sd_chain_unit units[64];
	int nu, n = 0;
	double origin;

	if (!text)
		return -1;
	nu = sd_chain__parse(text, units, 64);
	origin = chain_origin(b, nu ? &units[0] : NULL);
	for (int i = 0; i < nu && n < CHAIN_DEVICES_MAX; i++) {
		size_t len = strlen(units[i].unit);

		if (len < 7 || strcmp(units[i].unit + len - 7, ".device"))
			continue;
		snprintf(out[n].unit, sizeof(out[n].unit), "%s", units[i].unit);
		out[n].at_s = origin + units[i].at_s;
		out[n].took_s = units[i].took_s;
		out[n].made_by = unit_devnode(b, units[i].unit);
		n++;
	}
	return n;
}

const struct boot_data *run_data__typical_boot(const struct run_data *r,
					       const struct mode_stats *m)
{
	const struct boot_data *best = NULL;
	double best_d = INFINITY;

	for (int i = 0; i < r->nr_boots; i++) {
		const struct boot_data *b = r->boots[i];
		double d;

		if (strcmp(b->mode, m->name) || !boot_data__ok(b))
			continue;
		d = fabs(boot_data__boot_time(b) - m->s[M_BOOT].median);
		if (!best || d < best_d) {
			best = b;
			best_d = d;
		}
	}
	return best;
}

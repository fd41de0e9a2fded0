// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "analyze.h"
#include "bootindex.h"
#include "explain.h"
#include "jsonio.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NS 1e9

const char *errno_name(int ret)
{
	static char buf[16];
	static const struct {
		int e;
		const char *name;
	} names[] = {
		{ 0, "0" }, { -2, "-ENOENT" }, { -4, "-EINTR" }, { -5, "-EIO" }, { -6, "-ENXIO" },
		{ -11, "-EAGAIN" }, { -12, "-ENOMEM" }, { -16, "-EBUSY" }, { -19, "-ENODEV" },
		{ -22, "-EINVAL" }, { -110, "-ETIMEDOUT" }, { -512, "-ERESTARTSYS" },
		{ -517, "-EPROBE_DEFER" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].e == ret)
			return names[i].name;
	snprintf(buf, sizeof(buf), "%d", ret);
	return buf;
}

/*
 * The load of the module behind probe @p that returned last before the
 * probe ended; the module's first successful load if none returned by then.
 */
static const struct module_load *module_of(const struct boot_data *b, const struct probe_span *p)
{
	const struct tindex *x = &boot_data__index(b)->modload_ok_name;
	const char *name = *p->origin_module ? p->origin_module : p->owner;
	char key[KEY_MAX];
	size_t len;
	int first, i;

	if (!*name)
		return NULL;
	len = keymap__pair(key, sizeof(key), name, "");
	first = tindex__first(x, key, len);
	if (first < 0 || b->modloads[first].end_ns > p->end_ns)
		return first < 0 ? NULL : &b->modloads[first];
	i = tindex__latest_before(x, key, len, p->end_ns, true);
	return &b->modloads[i];
}

double probe_span__readiness_gap(const struct boot_data *b, const struct probe_span *p)
{
	const struct module_load *m = module_of(b, p);

	if (!m)
		return NAN;
	return p->end_ns > m->end_ns ? (p->end_ns - m->end_ns) / NS : 0;
}

/* The last successful probe of @device by @driver (the first of equal ends). */
static const struct probe_span *probe_of_device(const struct boot_data *b, const char *driver,
						const char *device)
{
	char key[KEY_MAX];
	size_t len = keymap__pair(key, sizeof(key), driver, device);
	int i = tindex__latest_before(&boot_data__index(b)->probe_ok_pair, key, len, INT64_MAX,
				      true);

	return i < 0 ? NULL : &b->probes[i];
}

void devnode__gap(const struct boot_data *b, const struct devnode *d, struct devnode_gap *g)
{
	const struct probe_span *p;
	const struct module_load *m;
	int64_t ref;

	g->gap_s = NAN;
	g->ref = NULL;
	p = *d->bound_driver ? probe_of_device(b, d->bound_driver, d->bound_device) : NULL;
	if (!p)
		return;
	m = module_of(b, p);
	ref = m ? m->end_ns : p->end_ns;
	g->ref = m ? "modprobe return" : "probe end";
	g->gap_s = d->ts_ns > ref ? (d->ts_ns - ref) / NS : 0;
}

void boot__metrics(const struct boot_data *b, struct boot_metrics *m)
{
	double first = INFINITY, last = -INFINITY;

	memset(m, 0, sizeof(*m));
	m->boot_s = boot_data__boot_time(b);
	m->guest_s = b->complete_s;
	m->wall_s = b->wall_s;
	m->kills = b->nr_kills;
	m->first_other_kill = -1;
	for (int i = 0; i < b->nr_kills; i++) {
		const struct kill_event *k = &b->kills[i];

		/* udevd's kill of a worker counts whatever the worker was doing */
		if (k->module_for_ns >= 0 || k->probe_for_ns >= 0 || k->kthread_for_ns >= 0 ||
		    !strcmp(k->sender_comm, "systemd-udevd"))
			m->probe_kills++;
		else if (m->first_other_kill < 0)
			m->first_other_kill = i;
	}
	m->other_signals = boot__other_signals(b);
	m->udev_kills = b->nr_udev_kills;
	m->devices = b->nr_devices;
	for (int i = 0; i < b->nr_devices; i++)
		m->bound += strcmp(b->devices[i].driver, "none") != 0;
	for (int i = 0; i < b->nr_devnodes; i++)
		m->late_devnodes += devnode__late(b, &b->devnodes[i]);
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		double d, gap;

		m->late_probes += probe_span__late(b, p);
		if (!probe_span__in_user_space(b, p))
			continue;
		d = (p->end_ns - p->start_ns) / NS;
		m->probes++;
		m->failed_probes += probe_span__failed(p);
		m->probe_sum_s += d;
		if (d > m->probe_max_s)
			m->probe_max_s = d;
		first = fmin(first, p->start_ns / NS);
		last = fmax(last, p->end_ns / NS);
		gap = probe_span__readiness_gap(b, p);
		if (!isnan(gap) && gap > m->readiness_gap_max_s)
			m->readiness_gap_max_s = gap;
	}
	m->probe_phase_s = m->probes ? last - first : NAN;
	m->first_probe_s = m->probes ? first : NAN;
	m->last_probe_end_s = m->probes ? last : NAN;
	if (!m->probes)
		m->probe_max_s = m->probe_sum_s = m->readiness_gap_max_s = NAN;
}

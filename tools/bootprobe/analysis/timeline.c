// SPDX-License-Identifier: GPL-2.0
/*
 * `bootprobe timeline`: one boot, in time order from kernel start: kernel
 * init done, user space, udev coldplug, every probe span, module load,
 * kthread_create wait and SIGKILL, and boot complete.
 */
#define _GNU_SOURCE
#include "commands.h"
#include "analyze.h"
#include "boot.h"
#include "jsonio.h"
#include "phases.h"

#include <getopt.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tl_entry {
	double t, end;		/* end NAN for an instant */
	char *what;
	const char *kind;
};

struct timeline {
	struct tl_entry *e;
	int n;
	double st[ST_COUNT];	/* boot__stages() */
	bool has_stages;
};

static void tl_add(struct timeline *tl, const char *kind, double t, double end, char *what)
{
	if (isnan(t)) {
		free(what);
		return;
	}
	*ARRAY_PUSH(tl->e, tl->n) = (struct tl_entry){ .t = t, .end = end, .what = what,
						       .kind = kind };
}

static int cmp_entry(const void *a, const void *b)
{
	const struct tl_entry *x = a, *y = b;

	return (x->t > y->t) - (x->t < y->t);
}

static void timeline__build(const struct boot_data *b, struct timeline *tl)
{
	double ns = 1e9;

	tl->has_stages = boot__stages(b, tl->st);
	tl_add(tl, "mark", -b->printk_offset_s - tl->st[ST_FIRMWARE], NAN,
	       xstrdup("QEMU starts (host clock)"));
	tl_add(tl, "mark", -b->printk_offset_s, NAN, xstrdup("kernel starts (printk's 0)"));
	tl_add(tl, "mark", b->kernel_done_s, NAN, xstrdup("kernel init done (Run /init)"));
	tl_add(tl, "mark", b->init_start_s, NAN, xstrdup("user space starts (/init)"));
	tl_add(tl, "mark", b->collector_start_s, NAN, xstrdup("collector launched"));
	tl_add(tl, "mark", b->attach_s, NAN, xstrdup("collector's programs attached"));
	tl_add(tl, "mark", b->udevd_start_s, NAN, xstrdup("udevd launched"));
	tl_add(tl, "mark", b->coldplug_start_s, NAN, xstrdup("udev coldplug starts"));
	tl_add(tl, "mark", b->coldplug_done_s, NAN, xstrdup("udev queue empty (settle returned)"));
	tl_add(tl, "mark", b->devices_done_s, NAN, xstrdup("the expected devices probed"));
	tl_add(tl, "mark", boot_data__boot_time(b), NAN, xstrdup("boot time (bootprobe's definition)"));
	tl_add(tl, "mark", b->complete_s, NAN, xstrdup("guest boot complete (/init)"));
	tl_add(tl, "mark", b->handover_s, NAN, xstrdup("initramfs hands over to the root"));
	tl_add(tl, "mark", b->init_exec_s, NAN, xstrdup("PID 1 executes the root's init"));
	tl_add(tl, "mark", b->systemd_start_s, NAN, xstrdup("systemd's first line in the root"));
	tl_add(tl, "mark", b->multi_user_s, NAN, xstrdup("multi-user.target reached (systemd)"));
	for (int i = 0; i < b->nr_devnodes; i++) {
		const struct devnode *d = &b->devnodes[i];

		tl_add(tl, "devnode", d->ts_ns / ns, NAN,
		       xasprintf("%s %s appears (made by %s %s) -> %d",
				 strcmp(d->kind, "net") ? "disk" : "interface", d->name,
				 *d->bound_driver ? d->bound_driver : "?",
				 *d->bound_device ? d->bound_device : "?", d->ret));
	}
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];

		if (p->start_ns == UNKNOWN_NS)
			continue;
		if (p->source == SRC_KERNEL_LOG)
			tl_add(tl, "probe", p->start_ns / ns, p->end_ns / ns,
			       xasprintf("probe %s %s (from the kernel log, line %d; driver %s) -> %d",
					 p->driver, p->device, p->log_line,
					 p->driver_from == DRV_FROM_RECORD ? "named by the log" :
					 p->driver_from == DRV_FROM_MAP ? "from the sysfs map" :
					 "not known", p->ret));
		else
			tl_add(tl, "probe", p->start_ns / ns, p->end_ns / ns,
			       xasprintf("probe %s %s (%s, %s [%d]%s) -> %d", p->driver, p->device,
					 p->async ? "async" : "sync", p->comm, p->pid,
					 p->pre_collector ? ", before the collector" : "", p->ret));
	}
	for (int i = 0; i < b->nr_modloads; i++) {
		const struct module_load *m = &b->modloads[i];

		if (m->start_ns != UNKNOWN_NS)
			tl_add(tl, "module", m->start_ns / ns, m->end_ns / ns,
			       xasprintf("finit_module(%s) by %s [%d] -> %d", m->name, m->comm, m->pid,
					 m->ret));
	}
	for (int i = 0; i < b->nr_kwaits; i++) {
		const struct kthread_wait *k = &b->kwaits[i];

		tl_add(tl, "kthread", (k->end_ns - k->wait_ns) / ns, k->end_ns / ns,
		       xasprintf("kthread_create by %s [%d]%s%s -> %d", k->comm, k->pid,
				 *k->probe_device ? " in probe of " : "", k->probe_device, k->ret));
	}
	for (int i = 0; i < b->nr_kills; i++) {
		const struct kill_event *k = &b->kills[i];

		tl_add(tl, "signal", k->ts_ns / ns, NAN,
		       xasprintf("SIGKILL %s [%d] -> %s [%d] (%s)", k->sender_comm, k->sender_pid,
				 k->target_comm, k->target_pid, k->result));
	}
	qsort(tl->e, tl->n, sizeof(*tl->e), cmp_entry);
}

static void timeline__free(struct timeline *tl)
{
	for (int i = 0; i < tl->n; i++)
		free(tl->e[i].what);
	free(tl->e);
}

/* Where the boot's time went, stage by stage (phases.h); nothing if unknown. */
static void stages__print(const struct timeline *tl, FILE *out)
{
	if (!tl->has_stages)
		return;
	fprintf(out, "stages (s):\n");
	for (int k = 0; k < ST_COUNT; k++)
		if (!isnan(tl->st[k]))
			fprintf(out, "%9.3f  %s\n", tl->st[k], stage_titles[k]);
	fprintf(out, "\n");
}

static void timeline__print(const struct boot_data *b, const struct timeline *tl, FILE *out)
{
	fprintf(out, "boot %s (mode %s), %s\n", b->name, b->mode, b->outcome);
	stages__print(tl, out);
	fprintf(out, "seconds since CLOCK_BOOTTIME's 0 (the records' clock; console times less "
		"printk's offset, %.6f s)\n", b->printk_offset_s);
	for (int i = 0; i < tl->n; i++) {
		const struct tl_entry *e = &tl->e[i];

		if (isnan(e->end))
			fprintf(out, "%9.3f            %-7s %s\n", e->t, e->kind, e->what);
		else
			fprintf(out, "%9.3f +%9.3f %-7s %s\n", e->t, e->end - e->t, e->kind, e->what);
	}
}

/* The stages by name; null where a mark is missing. */
static json_object *stages__json(const struct timeline *tl)
{
	json_object *o = json_object_new_object();

	for (int k = 0; k < ST_COUNT; k++)
		json_object_object_add(o, stage_names[k], jdouble(tl->st[k]));
	return o;
}

static json_object *timeline__json(const struct boot_data *b, const struct timeline *tl)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	json_object_object_add(o, "boot", json_object_new_string(b->name));
	json_object_object_add(o, "mode", json_object_new_string(b->mode));
	json_object_object_add(o, "printk_offset_s", jdouble(b->printk_offset_s));
	json_object_object_add(o, "stages", stages__json(tl));
	for (int i = 0; i < tl->n; i++) {
		json_object *e = json_object_new_object();

		json_object_object_add(e, "t_s", jdouble(tl->e[i].t));
		if (!isnan(tl->e[i].end))
			json_object_object_add(e, "end_s", jdouble(tl->e[i].end));
		json_object_object_add(e, "kind", json_object_new_string(tl->e[i].kind));
		json_object_object_add(e, "what", json_object_new_string(tl->e[i].what));
		json_object_array_add(a, e);
	}
	json_object_object_add(o, "timeline", a);
	return o;
}

int cmd_timeline(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	bool json = false;
	char err[512];
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "jh", opts, NULL)) != -1) {
		if (c == 'h') {
			fputs("Usage: bootprobe timeline [--json] BOOT\n\n"
			      "One boot: where its time went, stage by stage (QEMU start, kernel\n"
			      "start, /init, udevd, coldplug, settle, the tail, and the collector's\n"
			      "start-up beside them), then in time order from kernel start: kernel\n"
			      "init done, user space, udev coldplug, every probe span, module load,\n"
			      "kthread_create wait and SIGKILL, boot time and the guest's boot complete.\n\n"
			      "Example:\n  bootprobe timeline results/RUN/boots/async-001\n", stdout);
			return 0;
		}
		if (c != 'j')
			return usage_error("timeline", "unknown option", argv[optind - 1]);
		json = true;
	}
	if (optind != argc - 1)
		return usage_error("timeline", "want one BOOT folder", NULL);
	struct boot_data *b = boot_data__load(argv[optind], err, sizeof(err));
	struct timeline tl = { 0 };

	if (!b) {
		fprintf(stderr, "bootprobe timeline: %s\n", err);
		return 2;
	}
	timeline__build(b, &tl);
	if (json) {
		json_object *o = timeline__json(b, &tl);

		jprint(o);
		json_object_put(o);
	} else {
		timeline__print(b, &tl, stdout);
	}
	for (size_t i = 0; i < b->warnings.n; i++)
		fprintf(stderr, "warning: %s\n", b->warnings.v[i]);
	timeline__free(&tl);
	boot_data__free(b);
	return 0;
}

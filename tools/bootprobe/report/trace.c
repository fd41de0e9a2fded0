// SPDX-License-Identifier: GPL-2.0
/* One boot as a Chrome trace-event file, which opens in the Perfetto UI. */
#define _GNU_SOURCE
#include "analyze.h"
#include "fsat.h"
#include "jsonio.h"
#include "rundata.h"
#include "trace.h"

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NS 1e9

static void trace_span(json_object *ev, const char *name, const char *cat, int pid, int tid,
		       int64_t start_ns, int64_t end_ns)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "cat", json_object_new_string(cat));
	json_object_object_add(e, "ph", json_object_new_string("X"));
	json_object_object_add(e, "ts", json_object_new_double(start_ns / 1e3));
	json_object_object_add(e, "dur", json_object_new_double((end_ns - start_ns) / 1e3));
	json_object_object_add(e, "pid", json_object_new_int(pid));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_array_add(ev, e);
}

static void trace_instant(json_object *ev, const char *name, int pid, int tid, double ts_s)
{
	json_object *e = json_object_new_object();

	json_object_object_add(e, "name", json_object_new_string(name));
	json_object_object_add(e, "ph", json_object_new_string("i"));
	json_object_object_add(e, "s", json_object_new_string(pid ? "t" : "g"));
	json_object_object_add(e, "ts", json_object_new_double(ts_s * 1e6));
	json_object_object_add(e, "pid", json_object_new_int(pid));
	json_object_object_add(e, "tid", json_object_new_int(tid));
	json_object_array_add(ev, e);
}

static void trace_thread_name(json_object *ev, int pid, const char *name)
{
	json_object *e = json_object_new_object(), *args = json_object_new_object();

	json_object_object_add(args, "name", json_object_new_string(name));
	json_object_object_add(e, "name", json_object_new_string("thread_name"));
	json_object_object_add(e, "ph", json_object_new_string("M"));
	json_object_object_add(e, "pid", json_object_new_int(0));
	json_object_object_add(e, "tid", json_object_new_int(pid));
	json_object_object_add(e, "args", args);
	json_object_array_add(ev, e);
}

/* All threads under one process track ("boot"): one row per kernel thread or worker. */
int boot__write_trace(const struct boot_data *b, int dirfd, const char *name)
{
	json_object *root = json_object_new_object(), *ev = json_object_new_array();
	const char *text;
	int err;

	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];
		char *name;

		if (p->start_ns == UNKNOWN_NS)
			continue;
		name = xasprintf("probe %s %s%s%s", p->driver, p->device,
				 p->async ? " (async)" : "", probe_span__failed(p) ? " FAILED" : "");
		trace_span(ev, name, "probe", 0, p->pid, p->start_ns, p->end_ns);
		trace_thread_name(ev, p->pid, p->comm);
		free(name);
	}
	for (int i = 0; i < b->nr_modloads; i++) {
		const struct module_load *m = &b->modloads[i];
		char *name = xasprintf("finit_module %s", m->name);

		if (m->start_ns != UNKNOWN_NS)
			trace_span(ev, name, "module", 0, m->pid, m->start_ns, m->end_ns);
		trace_thread_name(ev, m->pid, m->comm);
		free(name);
	}
	for (int i = 0; i < b->nr_kwaits; i++) {
		const struct kthread_wait *k = &b->kwaits[i];
		char *name = xasprintf("kthread_create %s", errno_name(k->ret));

		trace_span(ev, name, "kthread", 0, k->pid, k->end_ns - k->wait_ns, k->end_ns);
		free(name);
	}
	for (int i = 0; i < b->nr_kills; i++) {
		char *name = xasprintf("SIGKILL from %s [%d]", b->kills[i].sender_comm,
				       b->kills[i].sender_pid);

		trace_instant(ev, name, 0, b->kills[i].target_pid, b->kills[i].ts_ns / NS);
		free(name);
	}
	if (!isnan(b->init_start_s))
		trace_instant(ev, "user space starts", 0, 0, b->init_start_s);
	if (!isnan(b->coldplug_start_s))
		trace_instant(ev, "udev coldplug starts", 0, 0, b->coldplug_start_s);
	if (!isnan(b->coldplug_done_s))
		trace_instant(ev, "udev queue empty", 0, 0, b->coldplug_done_s);
	if (!isnan(b->complete_s))
		trace_instant(ev, "boot complete", 0, 0, b->complete_s);
	json_object_object_add(root, "traceEvents", ev);
	json_object_object_add(root, "displayTimeUnit", json_object_new_string("ms"));
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);
	err = write_file_at(dirfd, name, text, strlen(text));
	json_object_put(root);
	return err;
}

#define WHO "bootprobe report"

int report_traces__write(const struct run_data *r, int outfd, const char *dir)
{
	char *tdir = xasprintf("%s/traces", dir);
	int tfd = dir_open_beneath(outfd, "traces", true), err = tfd < 0 ? tfd : 0;
	struct strv used = { 0 };

	if (err)
		fprintf(stderr, WHO ": %s: %s\n", tdir, read_file_strerror(-err));
	for (int i = 0; !err && i < r->nr_boots; i++) {
		char name[128], *path;

		/* boot.json names the boot: a name, never a path; two alike get apart. */
		file_name_of(r->boots[i]->name, name, sizeof(name) - 16);
		for (size_t k = 0; k < used.n; k++)
			if (!strcmp(used.v[k], name)) {
				snprintf(name + strlen(name), 16, "-%d", i + 1);
				break;
			}
		strv__push(&used, name);
		path = xasprintf("%s.json", name);
		err = boot__write_trace(r->boots[i], tfd, path);
		if (err)
			fprintf(stderr, WHO ": %s/%s: %s\n", tdir, path, strerror(-err));
		free(path);
	}
	if (tfd >= 0)
		close(tfd);
	strv__free(&used);
	free(tdir);
	return err;
}

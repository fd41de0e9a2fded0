// SPDX-License-Identifier: GPL-2.0
/* Pre-collector initcalls and probes from the boot-time trace buffer. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boottrace.h"
#include "traceline.h"
#include "output.h"
#include "record.h"

#include <fcntl.h>
#include <unistd.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/*
 * Starts without an end yet: 64 overflowed in a lab boot of 32 virtio-scsi
 * disks (their async probes and disk registrations run at once).
 */
#define MAX_PENDING 512
#define SAME_END_NS 1000000	/* a BPF and a trace end this close: one end */

struct boottrace {
	struct output *out;
	struct boottrace_stats *st;
	struct boottrace_open *open;
	uint64_t attach_ns;
	bool clock_is_boot;	/* comparable with bpf_ktime_get_boot_ns() */
	struct boottrace_span pending[MAX_PENDING];	/* starts, no end yet */
	int npending;
	/*
	 * A kind whose kprobes were made for another kernel: 1 + its index in
	 * st->args.other[] (its records are refused), 0 if not.
	 */
	int refused[BT_NETDEV + 1];
};

/* The bootprobe/ kprobes (bootargs.c) and the spans they start and end. */
static const struct kprobe_event {
	const char *event;
	enum boottrace_kind kind;
	bool start;
} kprobe_events[] = {
	{ "probe_entry", BT_PROBE, true }, { "probe_return", BT_PROBE, false },
	{ "finit_module", BT_MODULE, true }, { "finit_module_ret", BT_MODULE, false },
	{ "init_module", BT_MODULE, true }, { "init_module_ret", BT_MODULE, false },
	{ "async_entry", BT_ASYNC, true }, { "async_return", BT_ASYNC, false },
	{ "disk_add", BT_DISK, true }, { "disk_added", BT_DISK, false },
	{ "netdev_add", BT_NETDEV, true }, { "netdev_added", BT_NETDEV, false },
};

static const struct kprobe_event *kprobe_event_of(const char *event)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kprobe_events); i++)
		if (!strcmp(kprobe_events[i].event, event))
			return &kprobe_events[i];
	return NULL;
}

/*
 * Value of key=: a quoted one (a kprobe's :string, "i8042 kbd") up to its
 * closing quote, blanks included; else up to a blank or '+' (a %pS offset).
 */
static void field(const char *rest, const char *key, char *buf, size_t len)
{
	const char *p = strstr(rest, key);
	bool quoted;
	size_t n = 0;

	buf[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	quoted = *p == '"';
	p += quoted;
	while (p[n] && p[n] != '"' && p[n] != '\n' && n + 1 < len &&
	       (quoted || (p[n] != ' ' && p[n] != '+')))
		n++;
	snprintf(buf, len, "%.*s", (int)n, p);
}

/* "func=init+0x0/0x1000 [mod]": the module a symbol is in, "" if built in. */
static void module_of(const char *rest, char *buf, size_t len)
{
	const char *open_ = strchr(rest, '['), *close_;

	buf[0] = '\0';
	if (open_ && (close_ = strchr(open_, ']')) && close_ > open_ + 1)
		snprintf(buf, len, "%.*s", (int)(close_ - open_ - 1), open_ + 1);
}

static long field_long(const char *rest, const char *key)
{
	char buf[32];

	field(rest, key, buf, sizeof(buf));
	return strtol(buf, NULL, 0);
}

/* module:module_load "slowprobe OE": the first word. */
static void first_word(const char *rest, char *buf, size_t len)
{
	size_t n = strcspn(rest, " \n");

	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), rest);
}

/* The innermost span of @kind running on @pid in @spans, if any. */
static const struct boottrace_span *span_of(const struct boottrace_span *spans,
					    int n, enum boottrace_kind kind,
					    int pid)
{
	int i;

	for (i = n - 1; i >= 0; i--)
		if (spans[i].kind == kind && spans[i].pid == pid &&
		    !spans[i].end_ns)
			return &spans[i];
	return NULL;
}

static bool is_devnode(enum boottrace_kind kind)
{
	return kind == BT_DISK || kind == BT_NETDEV;
}

/* A driver or device name the kprobe read, "" for "(fault)" (none). */
static bool fetched(const char *rest, const char *key, char *buf, size_t len)
{
	field(rest, key, buf, len);
	if (buf[0] == '(')
		buf[0] = '\0';
	return buf[0];
}

/*
 * A pointer the kprobe read as a number: false when it is "0x0" (NULL).
 * Absent (arguments older than the field): true, the string decides.
 */
static bool pointer_set(const char *rest, const char *key)
{
	char buf[24];

	if (!strstr(rest, key))
		return true;
	field(rest, key, buf, sizeof(buf));
	return buf[0] && strtoull(buf, NULL, 0) != 0;
}

/*
 * The device whose probe made a disk or interface: a disk's parent or
 * grandparent bound to a driver (read at entry), an interface's the probe
 * running on its thread.  A driver's name counts only if its pointer was
 * set: on 6.12 and 7.x a string fetch through a NULL pointer shows the
 * next string's bytes instead of "(fault)" (nvme0n1's parent nvme0, bound
 * to no driver, gave its grandparent's name as its driver).
 */
static void devnode_bound(const struct boottrace *bt, struct boottrace_span *p,
			  const char *rest)
{
	const struct boottrace_span *probe;

	if (p->kind == BT_DISK) {
		if (pointer_set(rest, " drvp0=") &&
		    fetched(rest, "drv0=", p->driver, sizeof(p->driver)))
			fetched(rest, "dev0=", p->device, sizeof(p->device));
		else if (pointer_set(rest, " up=") && pointer_set(rest, " drvp1=") &&
			 fetched(rest, "drv1=", p->driver, sizeof(p->driver)))
			fetched(rest, "dev1=", p->device, sizeof(p->device));
		else
			p->driver[0] = '\0';
		return;
	}
	probe = span_of(bt->pending, bt->npending - 1, BT_PROBE, p->pid);
	if (probe) {
		snprintf(p->driver, sizeof(p->driver), "%.*s",
			 (int)sizeof(p->driver) - 1, probe->name);
		snprintf(p->device, sizeof(p->device), "%s", probe->device);
	}
}

static void boottrace__push(struct boottrace *bt, enum boottrace_kind kind,
			    const struct traceline *t)
{
	struct boottrace_span *p;

	if (bt->npending == MAX_PENDING) {
		bt->st->starts_dropped++;
		return;
	}
	p = &bt->pending[bt->npending++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->pid = t->pid;
	p->start_ns = t->ts_ns;
	snprintf(p->comm, sizeof(p->comm), "%s", t->comm);
	if (kind == BT_INITCALL) {
		field(t->rest, "func=", p->name, sizeof(p->name));
		module_of(t->rest, p->module, sizeof(p->module));
	} else if (kind == BT_PROBE) {
		field(t->rest, "drv=", p->name, sizeof(p->name));
		field(t->rest, "dev=", p->device, sizeof(p->device));
		fetched(t->rest, "owner=", p->module, sizeof(p->module));	/* "" built in */
		p->async = span_of(bt->pending, bt->npending - 1, BT_ASYNC,
				   t->pid) != NULL;
	} else if (kind == BT_MODULE && !strcmp(t->event, "module_load")) {
		first_word(t->rest, p->name, sizeof(p->name));
	} else if (kind == BT_MODULE) {
		snprintf(p->syscall, sizeof(p->syscall), "%.*s",
			 (int)sizeof(p->syscall) - 1, t->event);
	} else if (is_devnode(kind)) {
		field(t->rest, "name=", p->name, sizeof(p->name));
		devnode_bound(bt, p, t->rest);
	}
}

/* The innermost pending start of this kind on this thread, removed. */
static bool boottrace__pop(struct boottrace *bt, enum boottrace_kind kind,
			   int pid, struct boottrace_span *out)
{
	int i;

	for (i = bt->npending - 1; i >= 0; i--) {
		if (bt->pending[i].kind != kind || bt->pending[i].pid != pid)
			continue;
		*out = bt->pending[i];
		memmove(&bt->pending[i], &bt->pending[i + 1],
			(bt->npending - i - 1) * sizeof(bt->pending[0]));
		bt->npending--;
		return true;
	}
	return false;
}

/*
 * The record of a span: an end (end_ns) or a start only.  A pre-collector
 * record has "pre_collector": true; one the trace ended after the cutover
 * says where its start and end came from.
 */
static json_object *span_json(const char *type, const struct boottrace_span *p,
			      uint64_t end_ns, const char *clock, bool pre)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "ts_ns", json_object_new_int64(
		end_ns ? end_ns : p->start_ns));
	if (pre)
		json_object_object_add(o, "pre_collector",
				       json_object_new_boolean(1));
	json_object_object_add(o, "clock", json_object_new_string(clock));
	json_object_object_add(o, "pid", json_object_new_int64(p->pid));
	json_object_object_add(o, "comm", json_str_n(p->comm, sizeof(p->comm)));
	json_object_object_add(o, "start_ns", json_object_new_int64(p->start_ns));
	if (end_ns) {
		json_object_object_add(o, "end_ns", json_object_new_int64(end_ns));
		json_object_object_add(o, "duration_ns",
				       json_object_new_int64(end_ns - p->start_ns));
	}
	if (!pre) {
		json_object_object_add(o, "start_from",
				       json_object_new_string("boot_trace"));
		json_object_object_add(o, "end_from",
				       json_object_new_string("boot_trace"));
	}
	if (p->kind == BT_INITCALL) {
		json_object_object_add(o, "func", json_str_n(p->name, sizeof(p->name)));
	} else if (p->kind == BT_MODULE) {
		json_object_object_add(o, "syscall",
				       json_str_n(p->syscall, sizeof(p->syscall)));
		json_object_object_add(o, "name", json_str_n(p->name, sizeof(p->name)));
	} else {
		json_object_object_add(o, "driver", json_str_n(p->name, sizeof(p->name)));
		json_object_object_add(o, "device",
				       json_str_n(p->device, sizeof(p->device)));
		json_object_object_add(o, "owner",
				       json_str_n(p->module, sizeof(p->module)));
		json_object_object_add(o, "async", json_object_new_boolean(p->async));
	}
	return o;
}

/*
 * The devnode record of a disk or interface registered at @end_ns, as the
 * collector's (docs/events.md); one the trace ended after the cutover
 * says so ("from": "boot_trace").
 */
static json_object *devnode_json(const struct boottrace_span *p, uint64_t end_ns,
				 long ret, const char *clock, bool pre)
{
	json_object *o = json_object_new_object();
	struct pt_devnode e = {
		.kind = p->kind == BT_NETDEV ? PT_DEVNODE_NET : PT_DEVNODE_BLOCK,
		.ret = (int)ret,
	};

	snprintf(e.name, sizeof(e.name), "%.*s", (int)sizeof(e.name) - 1, p->name);
	snprintf(e.bound_driver, sizeof(e.bound_driver), "%s", p->driver);
	snprintf(e.bound_device, sizeof(e.bound_device), "%s", p->device);

	json_object_object_add(o, "type", json_object_new_string("devnode"));
	json_object_object_add(o, "ts_ns", json_object_new_int64(end_ns));
	if (pre)
		json_object_object_add(o, "pre_collector", json_object_new_boolean(1));
	else
		json_object_object_add(o, "from", json_object_new_string("boot_trace"));
	json_object_object_add(o, "clock", json_object_new_string(clock));
	json_object_object_add(o, "pid", json_object_new_int64(p->pid));
	json_object_object_add(o, "comm", json_str_n(p->comm, sizeof(p->comm)));
	record__add_devnode(o, &e);
	return o;
}

/* The load of module @name running at @ts_ns in @spans, if any. */
static const struct boottrace_span *loading(const struct boottrace_span *spans,
					    int n, const char *name,
					    uint64_t ts_ns)
{
	int i;

	for (i = n - 1; name[0] && i >= 0; i--)
		if (spans[i].kind == BT_MODULE && !spans[i].end_ns &&
		    spans[i].start_ns <= ts_ns && !strcmp(spans[i].name, name))
			return &spans[i];
	return NULL;
}

static void origin_set(json_object *origin, const char *kind, int pid,
		       const char *comm, const char *key, const char *value)
{
	json_object_object_add(origin, "kind", json_object_new_string(kind));
	json_object_object_add(origin, "pid", json_object_new_int64(pid));
	json_object_object_add(origin, "comm", json_str_n(comm, 32));
	if (key)
		json_object_object_add(origin, key, json_str_n(value, 64));
}

/*
 * A probe's origin, as the collector's: the load of its driver's module
 * if one runs (on whichever thread: an async probe's is elsewhere), else
 * the initcall on its thread (a module's init is a module load), else
 * "other".
 */
static void add_origin(json_object *o, const struct boottrace_span *p,
		       const struct boottrace_span *spans, int n)
{
	const struct boottrace_span *m = loading(spans, n, p->module, p->start_ns);
	const struct boottrace_span *ic = span_of(spans, n, BT_INITCALL, p->pid);
	json_object *origin = json_object_new_object();

	if (m)
		origin_set(origin, "module_load", m->pid, m->comm, "module", m->name);
	else if (ic && ic->module[0])
		origin_set(origin, "module_load", p->pid, p->comm, "module",
			   ic->module);
	else if (ic)
		origin_set(origin, "initcall", p->pid, p->comm, "initcall", ic->name);
	else
		origin_set(origin, "other", p->pid, p->comm, NULL, NULL);
	json_object_object_add(o, "origin", origin);
}

/* really_probe() returns a driver's error as a positive number. */
static void add_ret(json_object *o, enum boottrace_kind kind, long ret)
{
	json_object_object_add(o, "ret", json_object_new_int64(ret));
	if (kind == BT_MODULE)
		return;
	if (kind == BT_PROBE)
		json_object_object_add(o, "probe_error", json_object_new_int64(
			ret > 0 ? -ret : ret));
}

static void boottrace__write(struct boottrace *bt, json_object *o)
{
	output__write(bt->out, o);
	json_object_put(o);
	bt->st->records++;
}

/*
 * Without the syscall events a module load ends with its init: drop it
 * once that initcall has ended.
 */
static void boottrace__module_done(struct boottrace *bt, int pid,
				   const char *module)
{
	const struct boottrace_span *m = span_of(bt->pending, bt->npending,
						 BT_MODULE, pid);
	struct boottrace_span gone;

	if (module[0] && m && !m->syscall[0] && !strcmp(m->name, module))
		boottrace__pop(bt, BT_MODULE, pid, &gone);
}

/*
 * module:module_load, in load_module() just before the module's init:
 * the name of the load the thread's syscall began.  Without that syscall
 * event, the thread loads the module from here until its init ends (a
 * module with no init has no end here; the thread's next load replaces
 * it).
 */
static void boottrace__module_load(struct boottrace *bt, const struct traceline *t)
{
	struct boottrace_span *m = (struct boottrace_span *)span_of(
		bt->pending, bt->npending, BT_MODULE, t->pid);
	struct boottrace_span gone;

	if (m && m->syscall[0]) {
		first_word(t->rest, m->name, sizeof(m->name));
		return;
	}
	while (boottrace__pop(bt, BT_MODULE, t->pid, &gone))
		;
	boottrace__push(bt, BT_MODULE, t);
}

static const char *record_type(enum boottrace_kind kind)
{
	return kind == BT_INITCALL ? "initcall" : kind == BT_PROBE ? "probe" :
	       "module_load";
}

static void boottrace__end(struct boottrace *bt, enum boottrace_kind kind,
			   const struct traceline *t)
{
	struct boottrace_span p;
	json_object *o;

	if (!boottrace__pop(bt, kind, t->pid, &p)) {
		bt->st->unmatched++;
		return;
	}
	if (kind == BT_ASYNC || (kind == BT_MODULE && !p.syscall[0]))
		return;
	if (is_devnode(kind)) {
		boottrace__write(bt, devnode_json(&p, t->ts_ns, field_long(t->rest, "ret="),
						  bt->st->clock, true));
		return;
	}
	o = span_json(record_type(kind), &p, t->ts_ns, bt->st->clock, true);
	add_ret(o, kind, field_long(t->rest, "ret="));
	if (kind == BT_PROBE)
		add_origin(o, &p, bt->pending, bt->npending);
	else if (kind == BT_INITCALL)
		boottrace__module_done(bt, t->pid, p.module);
	boottrace__write(bt, o);
}

/* A record of one event line (not a span): header fields of the task. */
static json_object *event_record(struct boottrace *bt, const char *type,
				 const struct traceline *t)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "ts_ns", json_object_new_int64(t->ts_ns));
	json_object_object_add(o, "pre_collector", json_object_new_boolean(1));
	json_object_object_add(o, "clock", json_object_new_string(bt->st->clock));
	json_object_object_add(o, "pid", json_object_new_int64(t->pid));
	json_object_object_add(o, "comm", json_str_n(t->comm, sizeof(t->comm)));
	return o;
}

/*
 * "caller=fn+0x1ce/0x300 [mod] fatal_signal=0": "fn+0x1ce [mod]", the way
 * the collector writes an address.
 */
static void caller_of(const char *rest, char *buf, size_t len)
{
	const char *p = strstr(rest, "caller=");
	size_t n, m;

	buf[0] = '\0';
	if (!p)
		return;
	p += strlen("caller=");
	n = strcspn(p, " /");
	m = strcspn(p, " ");
	snprintf(buf, len, "%.*s", (int)n, p);
	if (p[m] == ' ' && p[m + 1] == '[' && strchr(p + m, ']'))
		snprintf(buf + strlen(buf), len - strlen(buf), " %.*s",
			 (int)(strchr(p + m, ']') - (p + m + 1) + 1), p + m + 1);
}

/* kthread:kthread_create_{start,end} (kernel-patches/0003). */
static void boottrace__kthread(struct boottrace *bt, const struct traceline *t,
			       bool end)
{
	const struct boottrace_span *probe = span_of(bt->pending, bt->npending,
						     BT_PROBE, t->pid);
	json_object *o = event_record(bt, end ? "kthread_end" : "kthread_start", t);
	char caller[128];

	caller_of(t->rest, caller, sizeof(caller));
	json_object_object_add(o, "caller", json_object_new_string(caller));
	json_object_object_add(o, "source", json_object_new_string("tracepoint"));
	json_object_object_add(o, "fatal_signal", json_object_new_boolean(
		field_long(t->rest, "fatal_signal=")));
	if (probe)
		json_object_object_add(o, "probe_device",
				       json_str_n(probe->device,
						  sizeof(probe->device)));
	if (end) {
		json_object_object_add(o, "wait_ns", json_object_new_int64(
			field_long(t->rest, "wait_ns=")));
		json_object_object_add(o, "ret", json_object_new_int64(
			field_long(t->rest, "ret=")));
		json_object_object_add(o, "oom_victim", json_object_new_boolean(
			field_long(t->rest, "oom_victim=")));
	}
	boottrace__write(bt, o);
}

/* signal:signal_generate: "sig=10 errno=0 code=0 comm=x pid=5 grp=0 res=1". */
static void boottrace__signal(struct boottrace *bt, const struct traceline *t)
{
	json_object *o, *target;
	long sig = field_long(t->rest, "sig=");
	char comm[32];

	if (sig == 17 && !bt->st->sigchld) {	/* SIGCHLD: boot noise */
		bt->st->sigchld_filtered++;
		return;
	}
	o = event_record(bt, "signal_generate", t);
	json_object_object_add(o, "sig", json_object_new_int64(sig));
	json_object_object_add(o, "sig_name", json_object_new_string(signal_name(sig)));
	json_object_object_add(o, "errno", json_object_new_int64(
		field_long(t->rest, "errno=")));
	json_object_object_add(o, "code", json_object_new_int64(
		field_long(t->rest, "code=")));
	json_object_object_add(o, "group", json_object_new_int64(
		field_long(t->rest, "grp=")));
	json_object_object_add(o, "result", json_object_new_string(
		signal_result_name(field_long(t->rest, "res="))));
	target = json_object_new_object();
	json_object_object_add(target, "pid", json_object_new_int64(
		field_long(t->rest, " pid=")));
	field(t->rest, "comm=", comm, sizeof(comm));
	json_object_object_add(target, "comm", json_str_n(comm, sizeof(comm)));
	json_object_object_add(o, "target", target);
	json_object_object_add(o, "target_state", json_object_new_object());
	json_object_object_add(o, "target_stack", json_object_new_array());
	boottrace__write(bt, o);
}

/*
 * A bootprobe/ kprobe's line: a span's start or end, or, if its kind's
 * kprobes were made for another kernel, refused (a start counts the
 * record it would have made).
 */
static void boottrace__kprobe(struct boottrace *bt, const struct kprobe_event *kp,
			      const struct traceline *t)
{
	int other = bt->refused[kp->kind];

	if (other) {
		if (kp->start) {
			bt->st->args_refused[other - 1]++;
			bt->st->refused++;
		}
		return;
	}
	if (kp->start)
		boottrace__push(bt, kp->kind, t);
	else
		boottrace__end(bt, kp->kind, t);
}

static void boottrace__line(struct boottrace *bt, char *line)
{
	const struct kprobe_event *kp;
	struct traceline t;

	if (line[0] == '#') {
		unsigned long long in, written;
		const char *p = strstr(line, "entries-in-buffer/entries-written:");

		if (p && sscanf(p, "entries-in-buffer/entries-written: %llu/%llu",
				&in, &written) == 2 && written > in)
			bt->st->lost = written - in;
		return;
	}
	if (!traceline__parse(line, &t)) {
		if (line[0] && line[0] != '\n')
			bt->st->unparsed++;
		return;
	}
	bt->st->lines++;
	if (bt->clock_is_boot && t.ts_ns >= bt->attach_ns) {
		bt->st->skipped_late++;
		return;
	}
	if (!strcmp(t.event, "initcall_start"))
		boottrace__push(bt, BT_INITCALL, &t);
	else if (!strcmp(t.event, "initcall_finish"))
		boottrace__end(bt, BT_INITCALL, &t);
	else if ((kp = kprobe_event_of(t.event)))
		boottrace__kprobe(bt, kp, &t);
	else if (!strcmp(t.event, "module_load"))
		boottrace__module_load(bt, &t);
	else if (!strcmp(t.event, "kthread_create_start"))
		boottrace__kthread(bt, &t, false);
	else if (!strcmp(t.event, "kthread_create_end"))
		boottrace__kthread(bt, &t, true);
	else if (!strcmp(t.event, "signal_generate"))
		boottrace__signal(bt, &t);
}

/*
 * Keep a span open at the cutover: its end comes later.  A module load
 * without its syscall event counts only while its init runs; an async
 * function only told the probes before the cutover apart.
 */
static void boottrace__keep_open(struct boottrace *bt,
				 const struct boottrace_span *p)
{
	struct boottrace_open *op = bt->open;
	const struct boottrace_span *ic;

	if (!op || p->kind == BT_ASYNC)
		return;
	if (op->n == BOOTTRACE_MAX_OPEN) {
		op->lost++;	/* its end is not followed */
		return;
	}
	if (p->kind == BT_MODULE && !p->syscall[0]) {
		ic = span_of(bt->pending, bt->npending, BT_INITCALL, p->pid);
		if (!ic || strcmp(ic->module, p->name))
			return;
	}
	op->span[op->n++] = *p;
}

/* Starts without an end: what was still running when we attached. */
static void boottrace__flush_pending(struct boottrace *bt)
{
	static const char *const start_type[] = {
		[BT_INITCALL] = "initcall_start", [BT_PROBE] = "probe_start",
		[BT_MODULE] = "module_load_start",
	};
	json_object *o;
	int i;

	for (i = 0; i < bt->npending; i++) {
		const struct boottrace_span *p = &bt->pending[i];

		boottrace__keep_open(bt, p);
		if (p->kind == BT_ASYNC || is_devnode(p->kind) ||
		    (p->kind == BT_MODULE && !p->syscall[0]))
			continue;
		o = span_json(start_type[p->kind], p, 0, bt->st->clock, true);
		if (p->kind == BT_PROBE)
			add_origin(o, p, bt->pending, bt->npending);
		boottrace__write(bt, o);
		bt->st->unmatched++;
	}
	bt->npending = 0;
}

/*
 * tracefs/@rel through the folder's descriptor, opened once at the cutover:
 * on a machine whose initramfs moves /sys into the root (Debian's), the
 * collector's paths under /sys are empty after that, its descriptors not.
 */
static int tracefs_openat(int dir, const char *rel, int flags)
{
	if (dir < 0 && dir != AT_FDCWD) {
		errno = EBADF;
		return -1;
	}
	return openat(dir, rel, flags | O_CLOEXEC);
}

static FILE *tracefs_fopen(int dir, const char *rel, int flags, const char *mode)
{
	int fd = tracefs_openat(dir, rel, flags);
	FILE *f;

	if (fd < 0)
		return NULL;
	f = fdopen(fd, mode);
	if (!f)
		close(fd);
	return f;
}

/* The bracketed name of tracefs/trace_clock: "[boot] local ..." */
static void read_clock(int dir, char *clock, size_t len)
{
	char buf[256], *open_, *close_;
	FILE *f;

	snprintf(clock, len, "unknown");
	f = tracefs_fopen(dir, "trace_clock", O_RDONLY, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) && (open_ = strchr(buf, '[')) &&
	    (close_ = strchr(open_, ']')))
		snprintf(clock, len, "%.*s", (int)(close_ - open_ - 1), open_ + 1);
	fclose(f);
}

/*
 * The hits of the bootprobe/ kprobes the kernel could not record (a
 * return probe with no free instance, a probe hit inside another):
 * tracefs/kprobe_profile, "  bootprobe/probe_return   12   0".
 */
static uint64_t read_kprobe_missed(int dir)
{
	unsigned long long hits, missed;
	uint64_t sum = 0;
	char name[128], buf[256];
	FILE *f;

	f = tracefs_fopen(dir, "kprobe_profile", O_RDONLY, "r");
	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f))
		if (sscanf(buf, "%127s %llu %llu", name, &hits, &missed) == 3 &&
		    !strncmp(name, "bootprobe/", strlen("bootprobe/")))
			sum += missed;
	fclose(f);
	return sum;
}

/* Past this, tracefs/kprobe_events is not ours (ours is under 2 KiB). */
#define KPROBE_EVENTS_MAX (64 << 10)

/*
 * The bootprobe/ kprobes the kernel made from the command line
 * (tracefs/kprobe_events) against this kernel's own (st->kernel_kprobes,
 * from its BTF): a kind with an event made for another kernel has its
 * records refused, named in st->args; its offsets would read other
 * fields (net_device.name: +0 on 6.1, +304 on 6.12, +288 on 7.3).
 */
static void boottrace__check_args(struct boottrace *bt, int dir)
{
	struct boottrace_stats *st = bt->st;
	char *text;
	size_t n;
	FILE *f;
	int i;

	if (!st->kernel_kprobes) {
		if (st->kernel_err)
			snprintf(st->args_err, sizeof(st->args_err), "%s", st->kernel_err);
		return;
	}
	f = tracefs_fopen(dir, "kprobe_events", O_RDONLY, "r");
	if (!f) {
		snprintf(st->args_err, sizeof(st->args_err), "kprobe_events: %s",
			 strerror(errno));
		return;
	}
	text = malloc(KPROBE_EVENTS_MAX + 1);
	n = text ? fread(text, 1, KPROBE_EVENTS_MAX, f) : 0;
	fclose(f);
	if (!text || n == KPROBE_EVENTS_MAX) {
		snprintf(st->args_err, sizeof(st->args_err), "kprobe_events: %s",
			 text ? "over 64 KiB, not read" : strerror(ENOMEM));
		free(text);
		return;
	}
	text[n] = '\0';
	bootargs__compare(text, st->kernel_kprobes, &st->args);
	free(text);
	st->args_checked = true;
	for (i = 0; i < st->args.nr_other; i++) {
		const struct kprobe_event *kp = kprobe_event_of(st->args.other[i].event);

		if (kp && !bt->refused[kp->kind])
			bt->refused[kp->kind] = i + 1;
		fprintf(stderr, "probetrace: tracefs/kprobe_events: %s: %s (its records refused)\n",
			BOOTTRACE_OTHER_KERNEL, st->args.other[i].why);
	}
}

/*
 * The boot-time events, by whether the collector sees them itself once
 * attached (starts: turned off at the cutover) or not for the calls
 * already running (ends: followed while a span is open).
 */
static const char *const start_events[] = {
	"initcall/initcall_start", "kthread/kthread_create_start",
	"kthread/kthread_create_end", "signal/signal_generate",
	"module/module_load", "bootprobe/probe_entry",
	"bootprobe/finit_module", "bootprobe/init_module",
	"bootprobe/async_entry", "bootprobe/async_return",
	"bootprobe/disk_add", "bootprobe/netdev_add",
};
static const char *const end_events[] = {
	"initcall/initcall_finish", "bootprobe/probe_return",
	"bootprobe/finit_module_ret", "bootprobe/init_module_ret",
	"bootprobe/disk_added", "bootprobe/netdev_added",
};
static int end_kind(const char *event);

/* The kind of span end_events[@i] ends (its name after the system's). */
static int end_event_kind(size_t i)
{
	return end_kind(strchr(end_events[i], '/') + 1);
}

/*
 * Write @value to tracefs/@rel (O_TRUNC or O_APPEND in @flags): false if
 * there is no such file (older kernels).  A value the kernel refuses is
 * left at that; events_left_on tells.
 */
static bool tracefs_set(int dir, const char *rel, int flags, const char *value)
{
	int fd = tracefs_openat(dir, rel, O_WRONLY | flags);

	if (fd < 0)
		return false;
	if (write(fd, value, strlen(value)) < 0) {
		/* refused: see above */
	}
	close(fd);
	return true;
}

/*
 * Turn @ev off through set_event ("!system:event", appended: opened
 * without O_APPEND the file turns every event off).  A kernel may keep an
 * event without a folder under events/ (Debian's 6.1 did so for the first
 * boot-time kprobe): set_event finds it all the same.  An event the kernel
 * does not have is refused, one write at a time.
 */
static void set_event_off(int dir, const char *ev)
{
	const char *slash = strchr(ev, '/');
	char line[160];

	if (!slash)
		return;
	snprintf(line, sizeof(line), "!%.*s:%s\n", (int)(slash - ev), ev, slash + 1);
	tracefs_set(dir, "set_event", O_APPEND, line);
}

static void events_off(int dir, const char *const *ev, size_t n)
{
	char rel[128];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "events/%s/enable", ev[i]);
		if (!tracefs_set(dir, rel, O_TRUNC, "0\n"))
			set_event_off(dir, ev[i]);
	}
}

/*
 * How many of the boot-time events set_event still lists as enabled
 * ("system:event" lines): after the cutover, none should be.
 */
static int events_left_on(int dir)
{
	char buf[256], *colon;
	int n = 0;
	size_t i;
	FILE *f;

	f = tracefs_fopen(dir, "set_event", O_RDONLY, "r");
	if (!f)
		return 0;
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\n")] = '\0';
		colon = strchr(buf, ':');
		if (!colon)
			continue;
		*colon = '/';	/* "system:event" as our "system/event" */
		for (i = 0; i < ARRAY_SIZE(start_events); i++)
			n += !strcmp(buf, start_events[i]);
		for (i = 0; i < ARRAY_SIZE(end_events); i++)
			n += !strcmp(buf, end_events[i]);
	}
	fclose(f);
	return n;
}

/*
 * Is a span open whose end the trace will tell?  (A module load without
 * its syscall event ends with its initcall.)
 */
static bool open__followed(const struct boottrace_span *p)
{
	return !p->end_ns && (p->kind != BT_MODULE || p->syscall[0]);
}

static bool open__any(const struct boottrace_open *op)
{
	int i;

	for (i = 0; i < op->n; i++)
		if (open__followed(&op->span[i]))
			return true;
	return false;
}

static bool open__any_of(const struct boottrace_open *op, enum boottrace_kind kind)
{
	int i;

	for (i = 0; i < op->n; i++)
		if (op->span[i].kind == kind && open__followed(&op->span[i]))
			return true;
	return false;
}

/*
 * Turn off each end event no open span of its kind waits for (@all: every
 * one).  Once off it stays off: a kind's open spans only ever end.
 */
static void open__ends_off(struct boottrace_open *op, bool all)
{
	size_t i;

	if (!op->disable)
		return;
	for (i = 0; i < ARRAY_SIZE(end_events); i++) {
		if (op->ends_off & (1u << i) || (!all && open__any_of(op, end_event_kind(i))))
			continue;
		events_off(op->dir_fd, &end_events[i], 1);
		op->ends_off |= 1u << i;
	}
}

void boottrace__stop(struct boottrace_open *op)
{
	if (!op || op->pipe_fd < 0)
		return;
	close(op->pipe_fd);
	op->pipe_fd = -1;
	open__ends_off(op, true);
}

void boottrace__finish(struct boottrace_open *op, struct boottrace_stats *st)
{
	boottrace__stop(op);
	if (op->dir_fd < 0)
		return;
	st->kprobe_missed = read_kprobe_missed(op->dir_fd);
	st->events_left_on = events_left_on(op->dir_fd);
	close(op->dir_fd);
	op->dir_fd = -1;
}

/* Follow the ends of the spans open at the cutover on trace_pipe. */
static void boottrace__follow_start(struct boottrace *bt, bool disable)
{
	struct boottrace_open *op = bt->open;

	op->disable = disable;
	op->attach_ns = bt->attach_ns;
	if (bt->clock_is_boot && open__any(op))
		op->pipe_fd = tracefs_openat(op->dir_fd, "trace_pipe",
					     O_RDONLY | O_NONBLOCK);
	open__ends_off(op, op->pipe_fd < 0);
}

int boottrace__emit(const char *tracefs, uint64_t attach_ns, bool disable,
		    struct output *out, struct boottrace_stats *st,
		    struct boottrace_open *open)
{
	struct boottrace_open none;
	struct boottrace bt = { .out = out, .st = st,
				.open = open ? open : &none,
				.attach_ns = attach_ns };
	struct boottrace_stats in = *st;
	char *line = NULL;
	size_t cap = 0;
	int dir;
	FILE *f;

	memset(st, 0, sizeof(*st));
	st->sigchld = in.sigchld;
	st->kernel_kprobes = in.kernel_kprobes;
	st->kernel_btf = in.kernel_btf;
	st->kernel_err = in.kernel_err;
	memset(bt.open, 0, sizeof(*bt.open));
	bt.open->pipe_fd = -1;
	bt.open->dir_fd = -1;
	dir = tracefs_openat(AT_FDCWD, tracefs, O_RDONLY | O_DIRECTORY);
	if (dir < 0) {
		st->err = -errno;
		return st->err;
	}
	bt.open->dir_fd = dir;
	read_clock(dir, st->clock, sizeof(st->clock));
	bt.clock_is_boot = !strcmp(st->clock, "boot");
	boottrace__check_args(&bt, dir);
	/* Reading "trace" must not pause the ends being recorded. */
	tracefs_set(dir, "options/pause-on-trace", O_TRUNC, "0\n");
	if (disable)
		events_off(dir, start_events, ARRAY_SIZE(start_events));
	f = tracefs_fopen(dir, "trace", O_RDONLY, "r");
	if (!f) {
		st->err = -errno;
		if (!open)
			close(dir);
		return st->err;
	}
	while (getline(&line, &cap, f) > 0)
		boottrace__line(&bt, line);
	free(line);
	fclose(f);
	boottrace__flush_pending(&bt);
	if (open) {
		boottrace__follow_start(&bt, disable);
		return 0;
	}
	if (disable)
		events_off(dir, end_events, ARRAY_SIZE(end_events));
	close(dir);
	return 0;
}

/* The open span of @kind on @pid (innermost), or NULL. */
static struct boottrace_span *open__find(struct boottrace_open *op,
					 enum boottrace_kind kind, int pid)
{
	return (struct boottrace_span *)span_of(op->span, op->n, kind, pid);
}

/* Was a probe on @pid ending at @ts_ns already read from a BPF record? */
static bool open__claimed(struct boottrace_open *op, int pid, uint64_t ts_ns)
{
	int i;

	for (i = 0; i < op->nclaimed; i++) {
		uint64_t e = op->claimed[i].end_ns;

		if (op->claimed[i].pid == pid &&
		    (e > ts_ns ? e - ts_ns : ts_ns - e) < SAME_END_NS) {
			op->claimed[i] = op->claimed[--op->nclaimed];
			return true;
		}
	}
	return false;
}

static void open__claim(struct boottrace_open *op, int pid, uint64_t end_ns)
{
	if (op->nclaimed == (int)ARRAY_SIZE(op->claimed))
		memmove(&op->claimed[0], &op->claimed[1],
			--op->nclaimed * sizeof(op->claimed[0]));
	op->claimed[op->nclaimed].pid = pid;
	op->claimed[op->nclaimed++].end_ns = end_ns;
}

/* An end read from trace_pipe: the record of the open span it ends. */
static int open__end(struct boottrace_open *op, struct output *out,
		     const struct boottrace_end_event *ev)
{
	struct boottrace_span *p = open__find(op, ev->kind, ev->pid), *m;
	json_object *o;

	if (!p || (ev->kind == BT_PROBE && open__claimed(op, ev->pid, ev->ts_ns)))
		return 0;
	p->end_ns = ev->ts_ns;
	p->end_from_trace = true;
	if (ev->ts_ns > op->last_end_ns[ev->kind])
		op->last_end_ns[ev->kind] = ev->ts_ns;
	if (is_devnode(ev->kind)) {
		o = devnode_json(p, ev->ts_ns, ev->ret, "boot", false);
		output__write(out, o);
		json_object_put(o);
		op->ends_from_trace++;
		return 1;
	}
	o = span_json(record_type(ev->kind), p, ev->ts_ns, "boot", false);
	add_ret(o, ev->kind, ev->ret);
	if (ev->kind == BT_PROBE) {
		add_origin(o, p, op->span, op->n);
	} else if (ev->kind == BT_INITCALL &&
		   (m = open__find(op, BT_MODULE, ev->pid)) && !m->syscall[0] &&
		   !strcmp(m->name, p->module)) {
		m->end_ns = ev->ts_ns;
	}
	output__write(out, o);
	json_object_put(o);
	op->ends_from_trace++;
	return 1;
}

/* The kind of span an end event of trace_pipe ends, or -1. */
static int end_kind(const char *event)
{
	if (!strcmp(event, "probe_return"))
		return BT_PROBE;
	if (!strcmp(event, "initcall_finish"))
		return BT_INITCALL;
	if (!strcmp(event, "finit_module_ret") || !strcmp(event, "init_module_ret"))
		return BT_MODULE;
	if (!strcmp(event, "disk_added"))
		return BT_DISK;
	if (!strcmp(event, "netdev_added"))
		return BT_NETDEV;
	return -1;
}

/* A trace_pipe line: queued if it may end an open span. */
static void open__line(struct boottrace_open *op, char *line)
{
	struct boottrace_end_event *ev;
	struct traceline t;
	int kind;

	if (!traceline__parse(line, &t) || t.ts_ns < op->attach_ns)
		return;
	op->lines_after++;
	kind = end_kind(t.event);
	if (kind < 0 || !open__find(op, kind, t.pid))
		return;
	if (op->nqueued == (int)ARRAY_SIZE(op->queued)) {
		op->lost++;
		return;
	}
	ev = &op->queued[op->nqueued++];
	ev->ts_ns = t.ts_ns;
	ev->pid = t.pid;
	ev->kind = kind;
	ev->ret = field_long(t.rest, "ret=");
}

/* Whatever trace_pipe holds now, line by line. */
static void open__read(struct boottrace_open *op)
{
	char *nl, *line;
	ssize_t n;

	for (;;) {
		n = read(op->pipe_fd, op->buf + op->len,
			 sizeof(op->buf) - 1 - op->len);
		if (n <= 0)
			return;
		op->len += n;
		op->buf[op->len] = '\0';
		line = op->buf;
		while ((nl = strchr(line, '\n'))) {
			*nl = '\0';
			open__line(op, line);
			line = nl + 1;
		}
		op->len -= line - op->buf;
		memmove(op->buf, line, op->len);
		if (op->len == sizeof(op->buf) - 1) {
			op->len = 0;	/* a line longer than the buffer */
			op->lost++;
		}
	}
}

int boottrace__follow(struct boottrace_open *op, struct output *out,
		      uint64_t up_to_ns)
{
	int i, done = 0, kept = 0;

	if (!op || op->pipe_fd < 0)
		return 0;
	open__read(op);
	for (i = 0; i < op->nqueued; i++) {
		if (op->queued[i].ts_ns < up_to_ns)
			done += open__end(op, out, &op->queued[i]);
		else
			op->queued[kept++] = op->queued[i];
	}
	op->nqueued = kept;
	if (!open__any(op))
		boottrace__stop(op);
	else if (done)
		open__ends_off(op, false);
	return done;
}

static struct boottrace_span *open__probe(struct boottrace_open *op, int pid,
					  const char *driver,
					  const char *device)
{
	int i;

	for (i = op->n - 1; i >= 0; i--)
		if (op->span[i].kind == BT_PROBE && op->span[i].pid == pid &&
		    !strcmp(op->span[i].name, driver) &&
		    !strcmp(op->span[i].device, device))
			return &op->span[i];
	return NULL;
}

/*
 * Span @p of @op ends at @end_ns, from BPF: once.  An end the trace has
 * already given within SAME_END_NS is the same one (BT_DUPLICATE), any
 * other means @p was not the span open here (BT_NOT_OPEN).
 */
static enum boottrace_end open__end_once(struct boottrace_open *op,
				    struct boottrace_span *p, uint64_t end_ns)
{
	if (p->end_ns) {
		if (p->end_from_trace && (p->end_ns > end_ns ? p->end_ns - end_ns :
					  end_ns - p->end_ns) < SAME_END_NS) {
			op->duplicates++;
			return BT_DUPLICATE;
		}
		return BT_NOT_OPEN;
	}
	p->end_ns = end_ns;
	return BT_ENDED;
}

enum boottrace_end boottrace_open__end(struct boottrace_open *op, int pid,
				       const char *driver, const char *device,
				       uint64_t end_ns, uint64_t *start_ns)
{
	struct boottrace_span *p = op ? open__probe(op, pid, driver, device) : NULL;
	enum boottrace_end end;

	if (!p) {
		/* Another probe on a thread with an open one: not its end. */
		if (op && open__find(op, BT_PROBE, pid))
			open__claim(op, pid, end_ns);
		return BT_NOT_OPEN;
	}
	end = open__end_once(op, p, end_ns);
	if (end == BT_ENDED && !*start_ns)
		*start_ns = p->start_ns;
	return end;
}

/* The last span of @kind on @pid open at the cutover, ended or not. */
static struct boottrace_span *open__last(struct boottrace_open *op,
					 enum boottrace_kind kind, int pid)
{
	int i;

	for (i = op ? op->n - 1 : -1; i >= 0; i--)
		if (op->span[i].kind == kind && op->span[i].pid == pid &&
		    (kind != BT_MODULE || op->span[i].syscall[0]))
			return &op->span[i];
	return NULL;
}

enum boottrace_end boottrace_open__end_module(struct boottrace_open *op,
					      int pid, uint64_t end_ns,
					      const struct boottrace_span **span)
{
	struct boottrace_span *p = open__last(op, BT_MODULE, pid);

	if (!p)
		return BT_NOT_OPEN;
	*span = p;
	return open__end_once(op, p, end_ns);
}

enum boottrace_end boottrace_open__end_devnode(struct boottrace_open *op,
					       enum boottrace_kind kind, int pid,
					       const char *name, uint64_t end_ns)
{
	struct boottrace_span *p = open__last(op, kind, pid);

	if (!p || strcmp(p->name, name))
		return BT_NOT_OPEN;
	return open__end_once(op, p, end_ns);
}

bool boottrace_open__origin(const struct boottrace_open *op, const char *owner,
			    uint64_t start_ns, json_object *origin)
{
	const struct boottrace_span *m;

	if (!op || !origin || !(m = loading(op->span, op->n, owner, start_ns)))
		return false;
	origin_set(origin, "module_load", m->pid, m->comm, "module", m->name);
	json_object_object_add(origin, "from", json_object_new_string("boot_trace"));
	return true;
}

bool boottrace_open__has(const struct boottrace_open *op, int pid)
{
	int i;

	for (i = 0; op && i < op->n; i++)
		if (op->span[i].pid == pid && !op->span[i].end_ns)
			return true;
	return false;
}

bool boottrace_open__state(const struct boottrace_open *op, int pid,
			   uint64_t ts_ns, json_object *state)
{
	const struct boottrace_span *p;
	json_object *m, *name;
	bool added = false;

	if (!op || !state)
		return false;
	p = span_of(op->span, op->n, BT_MODULE, pid);
	if (p && !p->name[0])	/* killed before load_module() named it */
		p = NULL;
	/* The collector saw finit_module() enter, not the module's name. */
	if (p && p->start_ns <= ts_ns &&
	    json_object_object_get_ex(state, "module_load", &m) &&
	    json_object_object_get_ex(m, "name", &name) &&
	    !*json_object_get_string(name)) {
		json_object_object_add(m, "name", json_str_n(p->name, sizeof(p->name)));
		json_object_object_add(m, "name_from",
				       json_object_new_string("boot_trace"));
		added = true;
	} else if (p && p->start_ns <= ts_ns &&
		   !json_object_object_get_ex(state, "module_load", NULL)) {
		m = json_object_new_object();
		json_object_object_add(m, "name", json_str_n(p->name, sizeof(p->name)));
		json_object_object_add(m, "for_ns", json_object_new_int64(
			ts_ns - p->start_ns));
		json_object_object_add(m, "from", json_object_new_string("boot_trace"));
		json_object_object_add(state, "module_load", m);
		added = true;
	}
	p = span_of(op->span, op->n, BT_PROBE, pid);
	if (p && p->start_ns <= ts_ns &&
	    !json_object_object_get_ex(state, "probe", NULL)) {
		m = json_object_new_object();
		json_object_object_add(m, "driver", json_str_n(p->name, sizeof(p->name)));
		json_object_object_add(m, "device",
				       json_str_n(p->device, sizeof(p->device)));
		json_object_object_add(m, "for_ns", json_object_new_int64(
			ts_ns - p->start_ns));
		json_object_object_add(m, "from", json_object_new_string("boot_trace"));
		json_object_object_add(state, "probe", m);
		added = true;
	}
	return added;
}

/* The record a kind's start would have made. */
static const char *kind_record(enum boottrace_kind kind)
{
	return kind == BT_MODULE ? "module_load" : is_devnode(kind) ? "devnode" : "probe";
}

/*
 * The boot-time kprobes against this kernel's: where its own came from,
 * how many were compared, and each made for another kernel with the
 * records it cost.
 */
static json_object *args_stats_json(const struct boottrace_stats *st)
{
	json_object *o = json_object_new_object(), *other, *e;
	int i;

	json_object_object_add(o, "btf", st->kernel_btf ?
			       json_object_new_string(st->kernel_btf) : NULL);
	if (!st->args_checked) {
		json_object_object_add(o, "error", json_object_new_string(st->args_err));
		return o;
	}
	json_object_object_add(o, "compared", json_object_new_int64(st->args.compared));
	other = json_object_new_array();
	for (i = 0; i < st->args.nr_other; i++) {
		const struct kprobe_event *kp = kprobe_event_of(st->args.other[i].event);

		e = json_object_new_object();
		json_object_object_add(e, "event", json_object_new_string(
			st->args.other[i].event));
		json_object_object_add(e, "record", kp ? json_object_new_string(
			kind_record(kp->kind)) : NULL);
		json_object_object_add(e, "refused", json_object_new_int64(st->args_refused[i]));
		json_object_object_add(e, "why", json_object_new_string(st->args.other[i].why));
		json_object_array_add(other, e);
	}
	json_object_object_add(o, "made_for_another_kernel", other);
	return o;
}

/*
 * Per end event followed after the cutover, the last end it gave (ns, the
 * trace's clock): it was on until then (and a poll later), its handlers
 * running in every call of its function meanwhile.  The events no span
 * waited for were turned off at the cutover and are not listed.
 */
static json_object *ends_until_json(const struct boottrace_open *op)
{
	json_object *o = json_object_new_object();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(end_events); i++) {
		int k = end_event_kind(i);
		uint64_t ns = k < 0 ? 0 : op->last_end_ns[k];

		if (ns)
			json_object_object_add(o, strchr(end_events[i], '/') + 1,
					       json_object_new_int64(ns));
	}
	return o;
}

/* What was still open at the cutover, and how it ended. */
static json_object *open__stats_json(const struct boottrace_open *op)
{
	json_object *o = json_object_new_object();
	int i, still = 0;

	for (i = 0; i < op->n; i++)
		still += open__followed(&op->span[i]);
	json_object_object_add(o, "open", json_object_new_int64(op->n));
	json_object_object_add(o, "ends_from_trace",
			       json_object_new_int64(op->ends_from_trace));
	json_object_object_add(o, "bpf_duplicates",
			       json_object_new_int64(op->duplicates));
	json_object_object_add(o, "still_open", json_object_new_int64(still));
	json_object_object_add(o, "lines_after_cutover",
			       json_object_new_int64(op->lines_after));
	json_object_object_add(o, "lost", json_object_new_int64(op->lost));
	json_object_object_add(o, "ends_followed_until", ends_until_json(op));
	return o;
}

json_object *boottrace__stats_json(const struct boottrace_stats *st,
				   const struct boottrace_open *open,
				   const char *tracefs)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "source", json_object_new_string(tracefs));
	if (st->err) {
		json_object_object_add(o, "error", json_object_new_string(
			strerror(-st->err)));
		return o;
	}
	json_object_object_add(o, "clock", json_object_new_string(st->clock));
	json_object_object_add(o, "lines", json_object_new_int64(st->lines));
	json_object_object_add(o, "records", json_object_new_int64(st->records));
	json_object_object_add(o, "skipped_after_attach",
			       json_object_new_int64(st->skipped_late));
	json_object_object_add(o, "unparsed", json_object_new_int64(st->unparsed));
	json_object_object_add(o, "unmatched", json_object_new_int64(st->unmatched));
	json_object_object_add(o, "starts_dropped",
			       json_object_new_int64(st->starts_dropped));
	json_object_object_add(o, "sigchld_filtered",
			       json_object_new_int64(st->sigchld_filtered));
	json_object_object_add(o, "lost_entries", json_object_new_int64(st->lost));
	json_object_object_add(o, "kprobe_missed",
			       json_object_new_int64(st->kprobe_missed));
	json_object_object_add(o, "events_left_on",
			       json_object_new_int64(st->events_left_on));
	if (st->args_checked || st->args_err[0]) {
		json_object_object_add(o, "records_refused", json_object_new_int64(st->refused));
		json_object_object_add(o, "kernel_args", args_stats_json(st));
	}
	if (open)
		json_object_object_add(o, "after_cutover", open__stats_json(open));
	return o;
}

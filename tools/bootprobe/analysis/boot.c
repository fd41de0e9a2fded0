// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "boot.h"
#include "bootindex.h"
#include "cmdline.h"
#include "events.h"
#include "jsonio.h"
#include "keymap.h"
#include "ranges.h"
#include "resultfiles.h"
#include "sdanalyze.h"
#include "text.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EPROBE_DEFER_ 517

static void warn(struct boot_data *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void warn(struct boot_data *b, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	/* A pathological file must not flood the report: keep the first 50. */
	if (b->warnings.n == 50)
		strv__push(&b->warnings, "... further warnings not shown");
	if (b->warnings.n > 50)
		return;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	strv__push(&b->warnings, msg);
	free(msg);
}

/*
 * What a refused record costs, by its type: what the analysis makes of
 * that type (add_record() below) is what the boot lacks without it.  The
 * boot cannot do without its header (the clocks' offset), its trailer (what
 * the collector lost) or a probe span (boot time and every probe metric);
 * any other type makes its own parts incomplete.  A type the analysis does
 * not read costs nothing but the count.  docs/events.md, "What a refused
 * record costs", is this table in words.
 */
static const struct refusal_cost {
	unsigned incomplete;		/* enum incomplete */
	const char *unusable;		/* else the part the boot cannot do without */
} refusal_costs[EVENT_TYPE_MAX] = {
	[EVENT_UNKNOWN] = { 0, NULL },		/* a type not known here: never read */
	[EVENT_PROBE_START] = { 0, NULL },	/* the probe record holds its span */
	[EVENT_PROBE] = { 0, "probe spans" },
	[EVENT_KTHREAD_START] = { 0, NULL },	/* kthread_end holds the wait */
	[EVENT_KTHREAD_END] = { INC_KTHREADS, NULL },
	[EVENT_SIGNAL_GENERATE] = { INC_KILLS, NULL },
	[EVENT_SIGNAL_DELIVER] = { INC_SIGNAL_ENDS, NULL },
	[EVENT_EXIT] = { INC_SIGNAL_ENDS, NULL },
	[EVENT_MODULE_LOAD_START] = { 0, NULL },	/* module_load holds the span */
	[EVENT_MODULE_LOAD] = { INC_MODULES, NULL },
	[EVENT_MODULE_INIT] = { 0, NULL },
	[EVENT_DEVNODE] = { INC_DEVNODES, NULL },
	[EVENT_INIT_EXEC] = { INC_INIT_EXEC, NULL },
	[EVENT_HEADER] = { 0, "header" },
	[EVENT_TRAILER] = { 0, "trailer" },
	[EVENT_ATTACHMENT] = { INC_ATTACHMENTS, NULL },
	[EVENT_INITCALL] = { 0, NULL },
	[EVENT_INITCALL_START] = { 0, NULL },
};

unsigned boot_data__refusal_cost(int type, const char **unusable)
{
	*unusable = NULL;
	/*
	 * A line whose type cannot be read (no JSON object, no type) could
	 * have been any record: every count is incomplete, as when the
	 * collector drops one, and like a drop it does not sink the boot.
	 */
	if (type < 0 || type >= EVENT_TYPE_MAX)
		return INC_EVERY;
	*unusable = refusal_costs[type].unusable;
	return refusal_costs[type].incomplete;
}

static const char *const incomplete_names[] = {
	"probes", "SIGKILLs", "signal ends", "kthread_create()", "module loads",
	"disks and interfaces", "init exec", "attachments",
};

const char *incomplete__name(unsigned bit)
{
	return bit < sizeof(incomplete_names) / sizeof(incomplete_names[0]) ?
	       incomplete_names[bit] : NULL;
}

const char *incomplete__text(unsigned mask, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	if ((mask & INC_EVERY) == INC_EVERY) {
		snprintf(buf, len, "every count");
		return buf;
	}
	for (unsigned i = 0; incomplete__name(i); i++)
		if (mask & (1u << i) && n < len)
			n += snprintf(buf + n, len - n, "%s%s", n ? ", " : "", incomplete__name(i));
	return buf;
}

/*
 * A record of the event stream refused at its line (its @type, -1 if none
 * could be read): named like any warning, counted, and what depended on its
 * type marked incomplete, or the boot unusable (boot_data__unusable()).
 */
static void reject(struct boot_data *b, int type, const char *msg)
{
	const char *unusable;

	if (!b->rejected++)
		b->first_rejected = xstrdup(msg);
	b->refused_incomplete |= boot_data__refusal_cost(type, &unusable);
	if (unusable && !b->unusable)
		b->unusable = xasprintf("%s unusable (%s)", unusable, msg);
	warn(b, "%s", msg);
}

/*
 * @n records the collector refused (the trailer counts them): named like a
 * reader's refusal, counted, what their type feeds marked @incomplete.
 */
static void reject_records(struct boot_data *b, int n, unsigned incomplete, const char *msg)
{
	if (!b->rejected)
		b->first_rejected = xstrdup(msg);
	b->rejected += n;
	b->refused_incomplete |= incomplete;
	warn(b, "%s", msg);
}

char *boot_data__refusals(const struct boot_data *b)
{
	char parts[256];

	if (b->unusable)
		return xstrdup(b->unusable);
	if (!b->rejected)
		return NULL;
	return xasprintf("%d record%s refused (first: %s); incomplete: %s", b->rejected,
			 b->rejected == 1 ? "" : "s", b->first_rejected,
			 b->refused_incomplete ?
			 incomplete__text(b->refused_incomplete, parts, sizeof(parts)) :
			 "nothing (no count reads them)");
}

static void copy(char *dst, const char *src)
{
	snprintf(dst, NAME_LEN, "%s", src ? src : "");
}

/* ---- memory budget ---------------------------------------------------------------- */

/*
 * What a boot holds is counted as it is read (docs/scale.md): each array's
 * room as it doubles, the strings kept, the text being read, and for each
 * record the room its look-ups' indexes (bootindex.h) take later, about
 * 112 bytes per index it is in.  Past its budget the boot is not read on.
 */
#define INDEX_BYTES 112

static size_t budget_boot = BOOT_MEM_DEFAULT, budget_run = RUN_MEM_DEFAULT;

size_t mem_budget__boot(void)
{
	return budget_boot;
}

size_t mem_budget__run(void)
{
	return budget_run;
}

/* "512M", "1G", "1048576": bytes, at least 1 MiB; false for anything else. */
static bool parse_size(const char *s, size_t *out)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return false;
	switch (*end) {
	case 'K': case 'k': mult = 1ull << 10; end++; break;
	case 'M': case 'm': mult = 1ull << 20; end++; break;
	case 'G': case 'g': mult = 1ull << 30; end++; break;
	}
	if (mult > 1 && (!strcmp(end, "iB") || !strcmp(end, "B")))
		end += strlen(end);
	if (*end || v > SIZE_MAX / mult || v * mult < (1ull << 20))
		return false;
	*out = v * mult;
	return true;
}

int mem_budget__init(char *err, int errlen)
{
	static const struct {
		const char *env;
		size_t *v;
	} vars[] = { { "BOOTPROBE_MAX_BOOT_MEM", &budget_boot }, { "BOOTPROBE_MAX_RUN_MEM", &budget_run } };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i].env);

		if (v && !parse_size(v, vars[i].v)) {
			snprintf(err, errlen, "%s=%.64s: not a size of at least 1 MiB (bytes, or a "
				 "number and K, M or G)", vars[i].env, v);
			return -1;
		}
	}
	return 0;
}

/* @n more bytes held; true when that takes the boot past its budget (said once). */
static bool mem_take(struct boot_data *b, size_t n)
{
	b->mem_bytes += n;
	if (b->mem_bytes > b->mem_peak)
		b->mem_peak = b->mem_bytes;
	if (b->mem_budget && b->mem_bytes > b->mem_budget && !b->over_budget)
		b->over_budget = b->mem_budget_of_run ?
			xasprintf("%s: over what the run's memory budget had left for it, %.1f MiB "
				  "(BOOTPROBE_MAX_RUN_MEM)", b->dir, b->mem_budget / 1048576.0) :
			xasprintf("%s: over a boot's memory budget of %.1f MiB while reading it "
				  "(BOOTPROBE_MAX_BOOT_MEM)", b->dir, b->mem_budget / 1048576.0);
	return b->over_budget != NULL;
}

static void mem_give(struct boot_data *b, size_t n)
{
	b->mem_bytes -= n < b->mem_bytes ? n : b->mem_bytes;
}

/* ARRAY_PUSH on one of @b's arrays, its room counted as it doubles; @idx indexes it is in. */
#define MEM_PUSH(b, arr, n, idx) \
	(mem_take((b), ((((n) & ((n) - 1)) == 0) ? ((n) ? (size_t)(n) : 1) * sizeof(*(arr)) : 0) + \
		  (idx) * INDEX_BYTES), ARRAY_PUSH(arr, n))

/* ---- event records -------------------------------------------------------------- */

static void add_probe(struct boot_data *b, struct json_object *r)
{
	struct probe_span *p = MEM_PUSH(b, b->probes, b->nr_probes, 4);
	struct json_object *o = jget(r, "origin");

	copy(p->driver, jstr(r, "driver"));
	copy(p->device, jstr(r, "device"));
	copy(p->bus, jstr(r, "bus"));
	copy(p->owner, jstr(r, "owner"));
	copy(p->comm, jstr(r, "comm"));
	copy(p->origin, jstr(o, "kind"));
	copy(p->origin_module, jstr(o, "module"));
	p->origin_pid = (int)jint(o, "pid", 0);
	p->pid = (int)jint(r, "pid", 0);
	/* really_probe() returns a driver's error negated; probe_error is the driver's own. */
	p->ret = (int)jint(r, "probe_error", jint(r, "ret", 0));
	p->async = jbool(r, "async");
	p->pre_collector = jbool(r, "pre_collector");
	p->other_clock = p->pre_collector && strcmp(jstr(r, "clock"), "boot");
	p->end_ns = jint(r, "end_ns", jint(r, "ts_ns", 0));
	p->start_ns = jint(r, "start_ns", UNKNOWN_NS);
}

static void add_module(struct boot_data *b, struct json_object *r)
{
	struct module_load *m = MEM_PUSH(b, b->modloads, b->nr_modloads, 2);

	copy(m->name, jstr(r, "name"));
	/* A load that failed before the kernel read the module has only its file. */
	if (!*m->name && *jstr(r, "file")) {
		copy(m->name, jstr(r, "file"));
		m->name[strcspn(m->name, ".")] = '\0';
	}
	copy(m->comm, jstr(r, "comm"));
	m->pid = (int)jint(r, "pid", 0);
	m->ret = (int)jint(r, "ret", 0);
	m->end_ns = jint(r, "end_ns", jint(r, "ts_ns", 0));
	m->start_ns = jint(r, "start_ns", UNKNOWN_NS);
}

static void add_kthread(struct boot_data *b, struct json_object *r)
{
	struct kthread_wait *k = MEM_PUSH(b, b->kwaits, b->nr_kwaits, 2);
	const char *caller = jstr(r, "caller");

	copy(k->comm, jstr(r, "comm"));
	snprintf(k->caller, sizeof(k->caller), "%s", *caller ? caller : jstr(r, "threadfn"));
	copy(k->probe_device, jstr(r, "probe_device"));
	k->pid = (int)jint(r, "pid", 0);
	k->ret = (int)jint(r, "ret", 0);
	k->fatal_signal = jbool(r, "fatal_signal");
	k->end_ns = jint(r, "ts_ns", 0);
	k->wait_ns = jint(r, "wait_ns", 0);
}

/*
 * The kept signals still waiting for an end, indexed while the stream is
 * read so that each delivery or exit record costs what it matches, not a
 * scan of every signal kept: per target pid, those not yet followed by the
 * target's exit (a heap by time: an exit at T ends those sent at or before
 * T); per target pid and signal, those not yet delivered.  A signal is
 * named by its array and place (signal_ref()): the arrays move as they grow.
 */
struct signal_wait {
	int64_t ts_ns;
	int ref;
};

struct signal_heap {
	struct signal_wait *v;
	int n;
};

struct signal_list {
	int *v;
	int n;
};

struct signal_index {
	struct keymap by_pid;		/* target pid -> heaps[] */
	struct signal_heap *heaps;
	int nr_heaps;
	struct keymap by_pid_sig;	/* target pid and signal -> lists[] */
	struct signal_list *lists;
	int nr_lists;
};

static int signal_ref(bool sigkill, int i)
{
	return i * 2 + !sigkill;
}

static struct kill_event *signal_of(struct boot_data *b, int ref)
{
	return ref & 1 ? &b->signals[ref >> 1] : &b->kills[ref >> 1];
}

static void signal_heap__push(struct signal_heap *h, struct signal_wait w)
{
	int i = h->n;

	*ARRAY_PUSH(h->v, h->n) = w;
	while (i && h->v[(i - 1) / 2].ts_ns > w.ts_ns) {
		h->v[i] = h->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h->v[i] = w;
}

static struct signal_wait signal_heap__pop(struct signal_heap *h)
{
	struct signal_wait top = h->v[0], last = h->v[--h->n];
	int i = 0;

	for (;;) {
		int c = 2 * i + 1;

		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->v[c + 1].ts_ns < h->v[c].ts_ns)
			c++;
		if (h->v[c].ts_ns >= last.ts_ns)
			break;
		h->v[i] = h->v[c];
		i = c;
	}
	if (h->n)
		h->v[i] = last;
	return top;
}

static void signal_index__free(struct signal_index *x)
{
	for (int i = 0; i < x->nr_heaps; i++)
		free(x->heaps[i].v);
	free(x->heaps);
	for (int i = 0; i < x->nr_lists; i++)
		free(x->lists[i].v);
	free(x->lists);
	keymap__free(&x->by_pid);
	keymap__free(&x->by_pid_sig);
	memset(x, 0, sizeof(*x));
}

/* A kept signal, now waiting for its delivery and its target's exit. */
static void signal_index__add(struct signal_index *x, const struct kill_event *k, int ref)
{
	int key[2] = { k->target_pid, k->sig };
	int h = keymap__put(&x->by_pid, key, sizeof(key[0]), x->nr_heaps);
	int l = keymap__put(&x->by_pid_sig, key, sizeof(key), x->nr_lists);

	if (h == x->nr_heaps)
		ARRAY_PUSH(x->heaps, x->nr_heaps);
	if (l == x->nr_lists)
		ARRAY_PUSH(x->lists, x->nr_lists);
	signal_heap__push(&x->heaps[h], (struct signal_wait){ k->ts_ns, ref });
	*ARRAY_PUSH(x->lists[l].v, x->lists[l].n) = ref;
}

/*
 * The signal was delivered: to its default action, ignored, or to a handler.
 * Every signal of that number sent to the task and not yet delivered or
 * ended by its exit gets it; none of them waits for a delivery after.
 */
static void signal_delivered(struct boot_data *b, struct signal_index *x, struct json_object *r)
{
	int key[2] = { (int)jint(r, "pid", -1), (int)jint(r, "sig", 0) };
	int l = keymap__get(&x->by_pid_sig, key, sizeof(key));
	struct signal_list *list;

	if (l < 0)
		return;
	list = &x->lists[l];
	for (int i = 0; i < list->n; i++) {
		struct kill_event *k = signal_of(b, list->v[i]);

		b->signal_match_steps++;
		if (k->delivered_ns < 0 && k->exit_ns < 0) {
			k->delivered_ns = jint(r, "ts_ns", 0);
			snprintf(k->handler, sizeof(k->handler), "%s", jstr(r, "handler"));
		}
	}
	free(list->v);
	list->v = NULL;
	list->n = 0;
}

/* The target of kept signals exited: how; every one sent at or before the exit ends. */
static void task_exited(struct boot_data *b, struct signal_index *x, struct json_object *r)
{
	int pid = (int)jint(r, "pid", -1), h = keymap__get(&x->by_pid, &pid, sizeof(pid));
	int64_t ts = jint(r, "ts_ns", 0);
	struct signal_heap *heap;

	if (h < 0)
		return;
	heap = &x->heaps[h];
	while (heap->n && heap->v[0].ts_ns <= ts) {
		struct kill_event *k = signal_of(b, signal_heap__pop(heap).ref);

		b->signal_match_steps++;
		k->exit_ns = ts;
		k->exit_code = (int)jint(r, "exit_code", 0);
	}
}

/* A signal worth following: see struct kill_event. */
static bool signal_kept(struct json_object *r)
{
	struct json_object *s = jget(r, "target_state");

	return jint(r, "sig", 0) == 9 ||
	       (s && json_object_is_type(s, json_type_object) && json_object_object_length(s) > 0) ||
	       strstr(jstr(r, "comm"), "udev");
}

static void add_kill(struct boot_data *b, struct signal_index *x, struct json_object *r)
{
	bool sigkill = jint(r, "sig", 0) == 9;
	int ref = signal_ref(sigkill, sigkill ? b->nr_kills : b->nr_signals);
	/* Its room in the index that matches it to its ends (signal_index) too. */
	struct kill_event *k = sigkill ? MEM_PUSH(b, b->kills, b->nr_kills, 2) :
					 MEM_PUSH(b, b->signals, b->nr_signals, 1);
	struct json_object *t = jget(r, "target"), *s = jget(r, "target_state");
	struct json_object *stack = jget(r, "target_stack"), *m;

	k->ts_ns = jint(r, "ts_ns", 0);
	k->sig = (int)jint(r, "sig", 0);
	snprintf(k->sig_name, sizeof(k->sig_name), "%s",
		 *jstr(r, "sig_name") ? jstr(r, "sig_name") : "a signal");
	k->delivered_ns = k->exit_ns = -1;
	k->sender_pid = (int)jint(r, "pid", 0);
	copy(k->sender_comm, jstr(r, "comm"));
	k->target_pid = (int)jint(t, "pid", 0);
	copy(k->target_comm, jstr(t, "comm"));
	copy(k->result, jstr(r, "result"));
	k->module_for_ns = k->probe_for_ns = k->kthread_for_ns = -1;
	if ((m = jget(s, "module_load"))) {
		copy(k->module, jstr(m, "name"));
		k->module_for_ns = jint(m, "for_ns", -1);
	}
	if ((m = jget(s, "probe"))) {
		copy(k->probe_driver, jstr(m, "driver"));
		copy(k->probe_device, jstr(m, "device"));
		k->probe_for_ns = jint(m, "for_ns", -1);
	}
	if ((m = jget(s, "kthread_create"))) {
		snprintf(k->kthread_caller, sizeof(k->kthread_caller), "%s", jstr(m, "caller"));
		k->kthread_for_ns = jint(m, "for_ns", -1);
	}
	if (stack && json_object_is_type(stack, json_type_array))
		for (size_t i = 0; i < json_object_array_length(stack); i++) {
			struct json_object *f = json_object_array_get_idx(stack, i);

			const char *frame = json_object_is_type(f, json_type_string) ?
					    json_object_get_string(f) : "?";

			/* The string, its allocation's overhead and its pointer. */
			mem_take(b, strlen(frame) + 1 + 16 + sizeof(char *));
			strv__push(&k->stack, frame);
		}
	signal_index__add(x, k, ref);
}

/* A devnode the reader accepted has a kind, a name and a time. */
static void add_devnode(struct boot_data *b, struct json_object *r)
{
	struct devnode *d = MEM_PUSH(b, b->devnodes, b->nr_devnodes, 0);

	copy(d->name, jstr(r, "name"));
	snprintf(d->kind, sizeof(d->kind), "%s", jstr(r, "kind"));
	copy(d->bound_driver, jstr(r, "bound_driver"));
	copy(d->bound_device, jstr(r, "bound_device"));
	d->ret = (int)jint(r, "ret", 0);
	d->ts_ns = jint(r, "ts_ns", 0);
}

/*
 * PID 1's exec of the real root's init: the last one the collector saw
 * (initramfs-tools' /init execs run-init, which execs /sbin/init).
 */
static void add_init_exec(struct boot_data *b, struct json_object *r)
{
	b->init_exec_s = jint(r, "ts_ns", 0) / 1e9;
}

/* Beyond this, an offset is no clock's: a damaged header, not used. */
#define PRINTK_OFFSET_MAX_NS 60000000000LL

static void add_header(struct boot_data *b, struct json_object *r)
{
	int64_t off = jint(r, "printk_offset_ns", 0);

	b->has_header = true;
	copy(b->kthread_source, jstr(r, "kthread_source"));
	if (jhas_int(r, "attach_ns"))
		b->attach_s = jint(r, "attach_ns", 0) / 1e9;
	if (off < -PRINTK_OFFSET_MAX_NS || off > PRINTK_OFFSET_MAX_NS)
		warn(b, "header: printk_offset_ns %lld out of range (not used)", (long long)off);
	else
		b->printk_offset_s = off / 1e9;
}

/* The trailer's boot_trace counts (each at most INT64_MAX / 8: events.c). */
static void add_boot_trace_losses(struct boot_data *b, struct json_object *bt)
{
	if (!bt)
		return;
	b->boot_trace_overwritten = jint(bt, "lost_entries", 0);
	b->boot_trace_spans_lost = jint(bt, "kprobe_missed", 0) +
				   jint(bt, "starts_dropped", 0) +
				   jint(jget(bt, "after_cutover"), "lost", 0);
}

/*
 * The boot-time trace's records the collector refused, its kprobes made for
 * another kernel (the trailer's boot_trace.kernel_args; docs/events.md, "A
 * kernel booted with another kernel's arguments"): refused records of the
 * boot, named at the trailer's line.  Each costs what its record type
 * feeds, a probe what the trace's lost spans cost (probes incomplete: the
 * boot keeps the spans BPF saw).
 */
static void add_boot_trace_refusals(struct boot_data *b, struct json_object *bt,
				    const char *label, int line)
{
	struct json_object *other = jget(jget(bt, "kernel_args"), "made_for_another_kernel");
	size_t i, n = other && json_object_is_type(other, json_type_array) ?
		      json_object_array_length(other) : 0;

	for (i = 0; i < n && i < 16; i++) {
		struct json_object *e = json_object_array_get_idx(other, i);
		const char *record = jstr(e, "record");
		enum event_type type = event_type__of(record, strlen(record));
		int64_t refused = jint(e, "refused", 0);
		const char *unusable;
		char *msg;

		if (refused <= 0)
			continue;
		if (refused > INT_MAX - b->rejected)
			refused = INT_MAX - b->rejected;
		msg = xasprintf("%s:%d: boot_trace: %lld %.32s record%s refused: boot-time trace "
				"arguments made for another kernel: %.400s", label, line,
				(long long)refused, record, refused == 1 ? "" : "s", jstr(e, "why"));
		reject_records(b, (int)refused, type == EVENT_PROBE ? INC_PROBES :
			       boot_data__refusal_cost(type, &unusable), msg);
		free(msg);
	}
}

static void add_trailer(struct boot_data *b, struct json_object *r)
{
	struct json_object *na = jget(r, "not_attached");

	b->has_trailer = true;
	b->events_written = jint(r, "events_written", 0);
	b->events_dropped = jint(r, "events_dropped", 0);
	b->bpf_drops = jint(r, "bpf_drops", 0);
	add_boot_trace_losses(b, jget(r, "boot_trace"));
	if (na && json_object_is_type(na, json_type_array))
		for (size_t i = 0; i < json_object_array_length(na); i++) {
			struct json_object *e = json_object_array_get_idx(na, i);

			strv__pushf(&b->not_attached, "%s: %s", jstr(e, "program"), jstr(e, "reason"));
		}
}

/* Whether the trailer lists program @prog as not attached. */
static bool not_attached(const struct boot_data *b, const char *prog)
{
	size_t n = strlen(prog);

	for (size_t i = 0; i < b->not_attached.n; i++)
		if (!strncmp(b->not_attached.v[i], prog, n) && b->not_attached.v[i][n] == ':')
			return true;
	return false;
}

static int64_t nonneg(int64_t v)
{
	return v > 0 ? v : 0;
}

static int64_t sat_add(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

void boot_data__losses(const struct boot_data *b, struct boot_losses *l)
{
	memset(l, 0, sizeof(*l));
	if (b->from_log) {
		/* A log gives spans and udevd's word; the rest only the collector sees. */
		l->refused = b->rejected;
		l->incomplete = b->refused_incomplete | LOG_CANNOT_GIVE;
		if (b->log.begin_missing)
			l->incomplete |= INC_PROBES;
		if (b->log.cut)
			l->incomplete |= INC_PROBES | INC_KILLS;
		return;
	}
	if (!b->has_events)
		return;
	l->lost = sat_add(sat_add(nonneg(b->bpf_drops), nonneg(b->events_dropped)),
			  sat_add(nonneg(b->boot_trace_overwritten),
				  nonneg(b->boot_trace_spans_lost)));
	l->refused = b->rejected;
	l->incomplete = b->refused_incomplete;
	if (b->bpf_drops > 0 || b->events_dropped > 0 || b->boot_trace_overwritten > 0 ||
	    !b->has_trailer)
		l->incomplete |= INC_EVERY;
	if (not_attached(b, "signal_generate"))
		l->incomplete |= INC_KILLS;
	if (b->boot_trace_spans_lost > 0 || not_attached(b, "probe_enter") ||
	    not_attached(b, "probe_exit"))
		l->incomplete |= INC_PROBES;
	if ((not_attached(b, "kthread_tp_end") || not_attached(b, "kthread_tp_start")) &&
	    not_attached(b, "kthread_fexit"))
		l->incomplete |= INC_KTHREADS;
}

static void add_attachment(struct boot_data *b, struct json_object *r, const char *label,
			   int line)
{
	struct json_object *t = jget(r, "text");
	const char *name = jstr(r, "name");
	struct attachment *a;

	/* The reader accepted its name and text; the limits are the host's. */
	if (b->nr_attachments >= MAX_ATTACHMENTS ||
	    json_object_get_string_len(t) > MAX_ATTACHMENT_BYTES) {
		warn(b, "%s:%d: attachment '%s': over the limit of %d files of %d bytes (skipped)",
		     label, line, name, MAX_ATTACHMENTS, MAX_ATTACHMENT_BYTES);
		return;
	}
	if (boot_data__attachment(b, name)) {
		warn(b, "%s:%d: attachment '%s' sent twice (the first kept)", label, line, name);
		return;
	}
	if (jbool(r, "truncated"))
		warn(b, "%s:%d: attachment '%s' was cut by the collector at its size limit",
		     label, line, name);
	a = MEM_PUSH(b, b->attachments, b->nr_attachments, 0);
	mem_take(b, json_object_get_string_len(t) + 1);
	copy(a->name, name);
	a->text = xstrdup(json_object_get_string(t));
	a->truncated = jbool(r, "truncated");
}

const char *boot_data__attachment(const struct boot_data *b, const char *name)
{
	for (int i = 0; i < b->nr_attachments; i++)
		if (!strcmp(b->attachments[i].name, name))
			return b->attachments[i].text;
	return NULL;
}

/* The attachments kept as files in the boot folder, by these names only. */
static const char *const kept_attachments[] = {
	"systemd-analyze-time.txt", "systemd-analyze-blame.txt",
	"systemd-analyze-critical-chain.txt", "uname-r.txt", "kernel-cmdline.txt",
	"dmi-product-name.txt", "dmesg.txt", NULL,
};

int boot_data__save_attachments(const struct boot_data *b)
{
	int n = 0, err;

	for (int i = 0; kept_attachments[i]; i++) {
		const char *text = boot_data__attachment(b, kept_attachments[i]);
		char *path;

		if (!text)
			continue;
		path = xasprintf("%s/%s", b->dir, kept_attachments[i]);
		err = write_file_atomic(path, text, strlen(text));
		free(path);
		if (err)
			return err;
		n++;
	}
	return n;
}

/* The boot a stream is read into, the stream's name, and its reader. */
struct stream {
	struct boot_data *b;
	const char *label;
	struct events_reader *r;
	struct signal_index signals;
};

/* A record the reader accepted, to what the analysis keeps of it. */
static void add_record(void *ctx, struct json_object *r, enum event_type type, int line)
{
	struct stream *st = ctx;
	struct boot_data *b = st->b;

	/* Past its memory budget the boot is not read on: it is left out, named. */
	if (b->over_budget) {
		st->r->stop = true;
		return;
	}
	switch (type) {
	case EVENT_PROBE:
		add_probe(b, r);
		break;
	case EVENT_MODULE_LOAD:
		add_module(b, r);
		break;
	case EVENT_KTHREAD_END:
		add_kthread(b, r);
		break;
	case EVENT_SIGNAL_GENERATE:
		if (signal_kept(r))
			add_kill(b, &st->signals, r);
		break;
	case EVENT_SIGNAL_DELIVER:
		signal_delivered(b, &st->signals, r);
		break;
	case EVENT_EXIT:
		task_exited(b, &st->signals, r);
		break;
	case EVENT_HEADER:
		add_header(b, r);
		break;
	case EVENT_TRAILER:
		add_trailer(b, r);
		add_boot_trace_refusals(b, jget(r, "boot_trace"), st->label, line);
		break;
	case EVENT_ATTACHMENT:
		add_attachment(b, r, st->label, line);
		break;
	case EVENT_DEVNODE:
		add_devnode(b, r);
		break;
	case EVENT_INIT_EXEC:
		add_init_exec(b, r);
		break;
	default:
		/* Known and not used by the analysis (initcalls, span starts), or unknown. */
		break;
	}
}

/* The reader's words: a refused record is damage, anything else a warning. */
static void stream_problem(void *ctx, bool damage, const char *msg)
{
	struct stream *st = ctx;

	if (damage)
		reject(st->b, st->r->type, msg);
	else
		warn(st->b, "%s", msg);
}

static const struct events_ops boot_events_ops = {
	.record = add_record,
	.problem = stream_problem,
};

void boot_data__parse_events(struct boot_data *b, const char *text, size_t len,
			     const char *label)
{
	struct events_reader r;
	struct stream st = { .b = b, .label = label, .r = &r };

	if (events_reader__init(&r, label, &boot_events_ops, &st))
		abort();
	boot_index__free(b->index);
	b->index = NULL;
	b->has_events = true;
	/* The text is held while it is read. */
	mem_take(b, len);
	events_reader__text(&r, text, len);
	mem_give(b, len);
	events_reader__finish(&r);
	b->unknown_records = (int)r.unknown;
	events_reader__free(&r);
	signal_index__free(&st.signals);
}

/* ---- the kernel's own log: initcall_debug, the driver core, udevd ------------------ */

const char *record_source__name(int source)
{
	static const char *const names[] = { "bpf", "boot_trace", "kernel_log" };

	return source >= 0 && source < 3 ? names[source] : "?";
}

static const char *const log_kind_names[LOG_KIND_MAX] = {
	"probe", "probe failure", "deferral", "initcall", "udevd kill", "udevd timeout",
	"sysfs map",
};

const char *log_kind__name(int kind)
{
	return kind >= 0 && kind < LOG_KIND_MAX ? log_kind_names[kind] : NULL;
}

/*
 * What a refused kernel-log record costs, as refusal_costs[] says for the
 * stream's: a log line is refused for what that line is (cut, duplicated,
 * out of time order, bytes that are no text, longer than a kernel record),
 * and the rest of the log stands, so it costs the parts its kind feeds,
 * never the boot.  Only a log holding two boots is unusable (log_finish()).
 * docs/gather.md, "What a refused log line costs", is this table in words.
 */
static const struct refusal_cost log_refusal_costs[LOG_KIND_MAX] = {
	[LOG_PROBE] = { INC_PROBES, NULL },
	[LOG_PROBE_FAILED] = { INC_PROBES, NULL },
	[LOG_DEFERRED] = { INC_PROBES, NULL },
	[LOG_INITCALL] = { 0, NULL },		/* no count reads initcalls */
	[LOG_UDEV_KILL] = { INC_KILLS, NULL },
	[LOG_UDEV_TIMEOUT] = { INC_KILLS, NULL },
	[LOG_MAP] = { INC_PROBES, NULL },	/* a span's driver name */
};

unsigned boot_data__log_refusal_cost(int kind, const char **unusable)
{
	*unusable = NULL;
	if (kind < 0 || kind >= LOG_KIND_MAX)
		return 0;
	*unusable = log_refusal_costs[kind].unusable;
	return log_refusal_costs[kind].incomplete;
}

static void log_reject(struct boot_data *b, int kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A kernel-log record refused at FILE:LINE: named, counted and costed as reject() does. */
static void log_reject(struct boot_data *b, int kind, const char *fmt, ...)
{
	const char *unusable;
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (!b->rejected++)
		b->first_rejected = xstrdup(msg);
	b->refused_incomplete |= boot_data__log_refusal_cost(kind, &unusable);
	warn(b, "%s", msg);
	free(msg);
}

/*
 * The most text one kernel log record holds: 1024 bytes (6.12's
 * PRINTKRB_RECORD_MAX; 6.1's LOG_LINE_MAX is 992, CONSOLE_LOG_MAX 1024 less
 * its prefix).  A longer line after its stamp is two lines run together.
 */
#define LOG_RECORD_MAX 1024
/*
 * printk's stamps of two CPUs may cross by a few µs (each takes its time
 * before its record is placed); a record further back than this is from
 * another clock or another log.
 */
#define LOG_CLOCK_BACK_S 0.01
/* At most this many µs in a "returned ... after N usecs": a day. */
#define LOG_USECS_MAX 86400000000LL

/* A failure line waiting for its probe's "returned" line (same device). */
struct log_failure {
	char device[NAME_LEN], driver[NAME_LEN];
	int err, line;
	double ts_s;
	bool used;
};

/* One console or kernel log being read, line by line. */
struct console_state {
	const char *label;
	int lineno;
	bool cut;			/* this line is the last, without its newline */
	const int *bad;			/* lines with bytes that are no text, ascending */
	int nr_bad, next_bad;
	double last_record_s;		/* the latest record's stamp, -INFINITY at first */
	int last_record_line;
	struct keymap seen;		/* record lines read, for duplicates */
	struct log_failure *fails;
	int nr_fails;
	struct keymap failing;		/* device -> its latest unused failure */
};

/* One record's fields as the line says them. */
struct log_fields {
	char device[NAME_LEN], driver[NAME_LEN], text[160];
	long long usecs;
	int ret, pid, seqnum;
};

/* @s, @n bytes, into @dst of NAME_LEN: false if it is empty or does not fit. */
static bool take_name(char *dst, const char *s, size_t n)
{
	if (!n || n >= NAME_LEN || memchr(s, ' ', n))
		return false;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return true;
}

/*
 * A driver's name, @n bytes at @s, into @dst of NAME_LEN: false if it is
 * empty, does not fit or has a blank at either end.  A driver's name may
 * hold blanks ("i8042 kbd", "i6300ESB timer": drv->name as the driver
 * wrote it); a device's (dev_name()) does not.
 */
static bool take_driver(char *dst, const char *s, size_t n)
{
	if (!n || n >= NAME_LEN || s[0] == ' ' || s[n - 1] == ' ')
		return false;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return true;
}

/* The last " returned " in @s before its end, or NULL. */
static const char *last_returned(const char *s)
{
	const char *q = NULL;

	for (const char *p = strstr(s, " returned "); p; p = strstr(p + 1, " returned "))
		q = p;
	return q;
}

/* The start of the word that ends at @end in @s (after its last blank), or NULL. */
static const char *word_before(const char *s, const char *end)
{
	const char *w = end;

	while (w > s && w[-1] != ' ')
		w--;
	return w > s ? w : NULL;
}

/* "RET after N usecs" and nothing after: false if it is not exactly that. */
static bool returned_after(const char *p, struct log_fields *f)
{
	int n = -1;

	if (sscanf(p, "%d after %lld usecs%n", &f->ret, &f->usecs, &n) != 2 || n < 0)
		return false;
	p += n;
	p += strspn(p, " \r");
	return !*p && f->usecs >= 0 && f->usecs <= LOG_USECS_MAX;
}

/*
 * The kind of kernel-log record @rest is, its fields in @f; -1 if it is
 * none, LOG_KIND_MAX if it starts as one but is in no kernel's format.
 * The formats, from drivers/base/dd.c and init/main.c:
 *   6.1, 6.12: "probe of DEV returned RET after N usecs"
 *   7.x:       "probe of DEV with driver DRV returned RET after N usecs"
 *   6.1:       "DRV: probe of DEV failed with error N"        (pr_warn)
 *   6.12, 7.x: "DRV DEV: probe with driver DRV failed with error N" (dev_err)
 *   6.1:       "BUS DEV: deferred probe pending"              (dev_info)
 *   6.12, 7.x: "BUS DEV: deferred probe pending: REASON"
 *   every one: "initcall FUNC returned RET after N usecs"
 * and udevd's "Worker [PID] processing SEQNUM=N killed" and "Spawned
 * process 'CMD' [PID] timed out after T, killing".
 */
static int log_line_kind(const char *rest, struct log_fields *f)
{
	const char *p, *q;

	memset(f, 0, sizeof(*f));
	if (!strncmp(rest, "probe of ", 9)) {
		/*
		 * 7.3.4's vmlinux: "probe of %s with driver %s returned %d after
		 * %lld usecs"; the driver's name may hold blanks, so it ends at
		 * the last " returned ".
		 */
		p = rest + 9;
		q = last_returned(p);
		if (!q)
			return strstr(p, " failed with error ") ? -1 : LOG_KIND_MAX;
		if ((f->text[0] = 0, strstr(p, " with driver ")) &&
		    strstr(p, " with driver ") < q) {
			const char *w = strstr(p, " with driver ");

			if (!take_name(f->device, p, w - p) ||
			    !take_driver(f->driver, w + 13, q - (w + 13)))
				return LOG_KIND_MAX;
		} else if (!take_name(f->device, p, q - p)) {
			return LOG_KIND_MAX;
		}
		return returned_after(q + 10, f) ? LOG_PROBE : LOG_KIND_MAX;
	}
	if (!strncmp(rest, "initcall ", 9) && (q = strstr(rest + 9, " returned ")) &&
	    !strstr(rest, " returned with ")) {
		size_t n = q - (rest + 9);

		/* FUNC is %pS: "name+0x0/0x50", of a module "name+0x0/0x50 [mod]". */
		if (!n || n >= sizeof(f->text))
			return LOG_KIND_MAX;
		memcpy(f->text, rest + 9, n);
		f->text[n] = '\0';
		return returned_after(q + 10, f) ? LOG_INITCALL : LOG_KIND_MAX;
	}
	if ((q = strstr(rest, ": probe with driver ")) && strstr(q, " failed with error ")) {
		/*
		 * "DRV DEV: probe with driver DRV failed with error N": DEV is
		 * the word before the colon (DRV may hold blanks).
		 */
		const char *sp = word_before(rest, q), *e;
		int n = -1;

		if (!sp || !take_name(f->device, sp, q - sp))
			return LOG_KIND_MAX;
		p = q + 20;
		e = strstr(p, " failed with error ");
		if (!take_driver(f->driver, p, e - p) ||
		    sscanf(e + 19, "%d%n", &f->ret, &n) != 1 || e[19 + n] != '\0')
			return LOG_KIND_MAX;
		return LOG_PROBE_FAILED;
	}
	if ((q = strstr(rest, ": probe of ")) && strstr(q, " failed with error ")) {
		/* "DRV: probe of DEV failed with error N" */
		const char *e = strstr(q, " failed with error ");
		int n = -1;

		if (!take_driver(f->driver, rest, q - rest) ||
		    !take_name(f->device, q + 11, e - (q + 11)) ||
		    sscanf(e + 19, "%d%n", &f->ret, &n) != 1 || e[19 + n] != '\0')
			return LOG_KIND_MAX;
		return LOG_PROBE_FAILED;
	}
	if ((q = strstr(rest, ": deferred probe pending"))) {
		const char *sp = word_before(rest, q);

		if (!sp || !take_name(f->device, sp, q - sp))
			return LOG_KIND_MAX;
		p = q + 24;
		if (*p == ':')
			snprintf(f->text, sizeof(f->text), "%s", p + 1 + (p[1] == ' '));
		else if (*p)
			return LOG_KIND_MAX;
		return LOG_DEFERRED;
	}
	if ((p = strstr(rest, "Worker [")) && strstr(p, " killed") &&
	    sscanf(p, "Worker [%d] processing SEQNUM=%d killed", &f->pid, &f->seqnum) == 2)
		return LOG_UDEV_KILL;
	if ((p = strstr(rest, "pawned process '")) && (q = strstr(p, "' [")) &&
	    strstr(q, " timed out after ")) {
		size_t n = q - (p + 16);

		snprintf(f->text, sizeof(f->text), "%.*s", (int)(n < sizeof(f->text) ? n :
								 sizeof(f->text) - 1), p + 16);
		if (sscanf(q, "' [%d] timed out after", &f->pid) != 1)
			return LOG_KIND_MAX;
		return LOG_UDEV_TIMEOUT;
	}
	return -1;
}

/* Whether the line being read holds bytes that are no text (read_console's pass). */
static bool line_is_bad(struct console_state *st)
{
	while (st->next_bad < st->nr_bad && st->bad[st->next_bad] < st->lineno)
		st->next_bad++;
	return st->next_bad < st->nr_bad && st->bad[st->next_bad] == st->lineno;
}

/*
 * A record line refused before it is read (cut, bytes that are no text,
 * too long, no stamp, a duplicate, out of time order): named and costed;
 * true if refused.
 */
static bool log_line_refused(struct boot_data *b, struct console_state *st, int kind,
			     double raw, const char *rest)
{
	const char *what = log_kind__name(kind), *L = st->label;
	int ln = st->lineno, first;
	char *key;

	if (st->cut) {
		log_reject(b, kind, "%s:%d: the log ends inside this %s line (cut short; not read)",
			   L, ln, what);
		return true;
	}
	if (line_is_bad(st)) {
		log_reject(b, kind, "%s:%d: bytes that are not UTF-8 text in a %s line (its names "
			   "would be wrong; refused)", L, ln, what);
		return true;
	}
	if (isnan(raw)) {
		log_reject(b, kind, "%s:%d: a %s line without the kernel's [seconds] stamp (a log "
			   "written without times: dmesg -t, printk.time=0; refused)", L, ln, what);
		return true;
	}
	key = xasprintf("%.6f %s", raw, rest);
	first = keymap__put_str(&st->seen, key, ln);
	free(key);
	if (first != ln) {
		log_reject(b, kind, "%s:%d: the same %s line as line %d (duplicated; not counted "
			   "again)", L, ln, what, first);
		return true;
	}
	if (raw < st->last_record_s - LOG_CLOCK_BACK_S) {
		log_reject(b, kind, "%s:%d: a %s line at %.6f s, before line %d's %.6f s (the clock "
			   "jumped back or two logs are interleaved; refused)", L, ln, what, raw,
			   st->last_record_line, st->last_record_s);
		return true;
	}
	if (raw > st->last_record_s) {
		st->last_record_s = raw;
		st->last_record_line = ln;
	}
	return false;
}

/* A span from a "returned" line: the kernel prints it at the probe's end. */
static void log_probe(struct boot_data *b, struct console_state *st, const struct log_fields *f,
		      double raw)
{
	int64_t end = llround(raw * 1e9), dur = f->usecs * 1000;
	struct probe_span *p;
	int k;

	if (dur > end) {
		log_reject(b, LOG_PROBE, "%s:%d: a probe of %s of %lld usecs ending at %.6f s: "
			   "longer than the boot (refused)", st->label, st->lineno, f->device,
			   f->usecs, raw);
		return;
	}
	p = MEM_PUSH(b, b->probes, b->nr_probes, 4);
	memset(p, 0, sizeof(*p));
	copy(p->device, f->device);
	p->source = SRC_KERNEL_LOG;
	p->log_line = st->lineno;
	p->end_ns = end;
	p->start_ns = end - dur;
	/* really_probe() returns a driver's error negated: the driver's own, as add_probe(). */
	p->ret = f->ret > 0 ? -f->ret : f->ret;
	p->driver_from = DRV_UNKNOWN;
	if (*f->driver) {
		copy(p->driver, f->driver);
		p->driver_from = DRV_FROM_RECORD;
	}
	/* A failure line of the device was printed inside this probe, just before. */
	if (p->ret && (k = keymap__get_str(&st->failing, f->device)) >= 0 && !st->fails[k].used) {
		if (!*p->driver) {
			copy(p->driver, st->fails[k].driver);
			p->driver_from = DRV_FROM_RECORD;
		}
		st->fails[k].used = true;
	}
	b->log.probe_lines++;
}

static void log_failure(struct boot_data *b, struct console_state *st, const struct log_fields *f,
			double raw)
{
	struct log_failure *x = ARRAY_PUSH(st->fails, st->nr_fails);
	int k = st->nr_fails - 1;

	copy(x->device, f->device);
	copy(x->driver, f->driver);
	x->err = f->ret;
	x->line = st->lineno;
	x->ts_s = raw;
	/* The latest failure of the device waits for its "returned" line. */
	if (keymap__put_str(&st->failing, f->device, k) != k) {
		int old = keymap__get_str(&st->failing, f->device);

		keymap__free(&st->failing);
		for (int i = 0; i < st->nr_fails; i++)
			if (i != old && !st->fails[i].used)
				keymap__put_str(&st->failing, st->fails[i].device, i);
	}
	b->log.failed_lines++;
}

/*
 * The failures no "returned" line followed (a log without initcall_debug):
 * a failed probe known by its end, its start not (no span: start unknown).
 */
static void log_unpaired_failures(struct boot_data *b, struct console_state *st)
{
	for (int i = 0; i < st->nr_fails; i++) {
		const struct log_failure *x = &st->fails[i];
		struct probe_span *p;

		if (x->used)
			continue;
		p = MEM_PUSH(b, b->probes, b->nr_probes, 4);
		memset(p, 0, sizeof(*p));
		copy(p->device, x->device);
		copy(p->driver, x->driver);
		p->driver_from = DRV_FROM_RECORD;
		p->source = SRC_KERNEL_LOG;
		p->log_line = x->line;
		p->ret = x->err;
		p->end_ns = llround(x->ts_s * 1e9);
		p->start_ns = UNKNOWN_NS;
		b->log.unpaired_failures++;
	}
}

/* A kernel-log record line, read into the boot; false if @rest is none. */
static bool log_record(struct boot_data *b, struct console_state *st, double raw,
		       const char *rest)
{
	struct log_fields f;
	int kind = log_line_kind(rest, &f);

	if (kind < 0)
		return false;
	if (st->cut) {
		log_reject(b, kind == LOG_KIND_MAX ? LOG_PROBE : kind, "%s:%d: the log ends inside "
			   "this %s line (cut short; not read)", st->label, st->lineno,
			   log_kind__name(kind == LOG_KIND_MAX ? LOG_PROBE : kind));
		return true;
	}
	if (strlen(rest) > LOG_RECORD_MAX) {
		log_reject(b, kind == LOG_KIND_MAX ? LOG_PROBE : kind, "%s:%d: %zu bytes after the "
			   "stamp, more than one kernel record holds (%d): two lines run together "
			   "(refused)", st->label, st->lineno, strlen(rest), LOG_RECORD_MAX);
		return true;
	}
	if (kind == LOG_KIND_MAX) {
		/* It starts as a record and is none: malformed, or another line ran into it. */
		log_reject(b, strncmp(rest, "initcall ", 9) ? LOG_PROBE : LOG_INITCALL,
			   "%s:%d: a driver-core or initcall line in no kernel's format (damaged, or "
			   "another line ran into it; refused)", st->label, st->lineno);
		return true;
	}
	if (log_line_refused(b, st, kind, raw, rest))
		return true;
	b->log.records++;
	switch (kind) {
	case LOG_PROBE:
		log_probe(b, st, &f, raw);
		break;
	case LOG_PROBE_FAILED:
		log_failure(b, st, &f, raw);
		break;
	case LOG_DEFERRED: {
		struct log_deferral *d = MEM_PUSH(b, b->deferrals, b->nr_deferrals, 0);

		memset(d, 0, sizeof(*d));
		copy(d->device, f.device);
		snprintf(d->reason, sizeof(d->reason), "%s", f.text);
		d->reason[strcspn(d->reason, "\r\n")] = '\0';
		d->ts_s = raw;
		b->log.deferred_lines++;
		break;
	}
	case LOG_INITCALL: {
		struct log_initcall *c = MEM_PUSH(b, b->initcalls, b->nr_initcalls, 0);
		int64_t end = llround(raw * 1e9);

		snprintf(c->func, sizeof(c->func), "%s", f.text);
		c->ret = f.ret;
		c->end_ns = end;
		c->start_ns = end - f.usecs * 1000;
		b->log.initcall_lines++;
		break;
	}
	case LOG_UDEV_KILL: {
		struct udev_kill *k = MEM_PUSH(b, b->udev_kills, b->nr_udev_kills, 1);

		b->log.records--;	/* udevd's lines alone make no log boot */
		k->worker_pid = f.pid;
		k->seqnum = f.seqnum;
		k->ts_s = raw - b->printk_offset_s;
		break;
	}
	case LOG_UDEV_TIMEOUT: {
		struct udev_timeout *t = MEM_PUSH(b, b->udev_timeouts, b->nr_udev_timeouts, 0);

		b->log.records--;
		t->pid = f.pid;
		t->ts_s = raw - b->printk_offset_s;
		snprintf(t->cmd, sizeof(t->cmd), "%.127s", f.text);
		break;
	}
	}
	return true;
}

/*
 * "HOST kernel: text" or "HOST systemd-udevd[PID]: text" after a journal
 * stamp (journalctl -o short-monotonic): the text; @rest itself otherwise.
 */
static const char *journal_text(const char *rest)
{
	const char *sp = strchr(rest, ' '), *colon;

	if (!sp || sp == rest)
		return rest;
	if (!strncmp(sp, " kernel: ", 9))
		return sp + 9;
	colon = strstr(sp + 1, "]: ");
	if (colon && !strncmp(sp + 1, "systemd-udevd[", 14) && !memchr(sp + 1, ' ', colon - sp))
		return colon + 3;
	return rest;
}

/* "# bootprobe-gather: boot_id=ID ..." (docs/gather.md): the id into @id of 40. */
static bool gather_header(const char *line, char *id)
{
	const char *p;

	if (strncmp(line, "# bootprobe-gather: ", 20) || !(p = strstr(line, "boot_id=")))
		return false;
	snprintf(id, 40, "%.*s", (int)strcspn(p + 8, " \t\r\n"), p + 8);
	return true;
}

/* ---- console ---------------------------------------------------------------------- */

/*
 * "[   12.345678] rest" at @p: the time and rest; false if @p is no stamp
 * (a kernel stamp has a fraction: "Worker [152]" is none).
 */
static bool stamp_at(const char *p, double *t, const char **rest)
{
	int n = 0;

	if (sscanf(p, "[ %lf]%n", t, &n) != 1 || n <= 0 || !isfinite(*t) ||
	    !memchr(p, '.', n))
		return false;
	*rest = p + n + (p[n] == ' ');
	return true;
}

/*
 * "[   12.345678] rest" → 12.345678 and rest; NAN when the line has no
 * stamp.  A kernel line can follow a user-space line the console had not
 * ended ("Begin: Running /scripts/init-bottom ... [   16.47] bootprobe:
 * ..."): then the stamp is found inside the line.
 */
static double kernel_stamp(const char *line, const char **rest)
{
	double t;

	for (const char *p = line; (p = strchr(p, '[')); p++)
		if (stamp_at(p, &t, rest))
			return t;
	*rest = line;
	return NAN;
}

/*
 * A number of a console line out of its range (field_ranges): the line is
 * refused at FILE:LINE, named and counted.  True if refused.
 */
static bool console_refuse(struct boot_data *b, const char *label, int lineno,
			   enum field_range f, double v)
{
	const struct field_range_def *d = &field_ranges[f];

	if (field_range__ok(f, v))
		return false;
	b->console_refused++;
	if (!isfinite(v))
		warn(b, "%s:%d: %s is not a finite number (line refused)", label, lineno, d->name);
	else
		warn(b, "%s:%d: %s %g is outside %g..%g%s%s (line refused)", label, lineno, d->name,
		     v, d->min, d->max, *d->unit ? " " : "", d->unit);
	return true;
}

/* The mark's number @v of a line: in range, else the line is refused. */
#define MARK_OK(v) (!console_refuse(b, label, lineno, FR_CONSOLE_MARK, (v)))
#define COUNT_OK(x, y) (!console_refuse(b, label, lineno, FR_DEVICE_COUNT, (x)) && \
			!console_refuse(b, label, lineno, FR_DEVICE_COUNT, (y)))

/* The version word at @p ("257.13-1~deb13u1") into @dst of NAME_LEN, if it starts with a digit. */
static void version_word(char *dst, const char *p)
{
	size_t n = strcspn(p, " \t\r\n");

	if (isdigit((unsigned char)*p) && n < NAME_LEN)
		snprintf(dst, NAME_LEN, "%.*s", (int)n, p);
}

static void console_line(struct boot_data *b, const char *line, struct console_state *st)
{
	const char *label = st->label, *rest, *p;
	int lineno = st->lineno;
	double raw = kernel_stamp(line, &rest), t, v;
	struct udev_kill *k;
	int a, c;
	char dev[NAME_LEN], drv[NAME_LEN], id[40];

	if (gather_header(line, id)) {
		if (!*b->log.boot_id)
			snprintf(b->log.boot_id, sizeof(b->log.boot_id), "%s", id);
		return;
	}
	/* A stamp no boot has (1e309, negative) would become every time on the line. */
	if (!isnan(raw) && console_refuse(b, label, lineno, FR_KERNEL_STAMP, raw))
		return;
	rest = journal_text(rest);
	t = raw - b->printk_offset_s;
	b->last_stamp_raw_s = raw;
	if (!isnan(raw) && isnan(b->log.first_stamp_s)) {
		b->log.first_stamp_s = raw;
		b->log.first_at = xasprintf("%s:%d", label, lineno);
	}
	if (!strncmp(rest, "Linux version ", 14)) {
		/* The kernel's first line: one per boot the log holds. */
		if (!b->log.linux_versions++)
			snprintf(b->log.release, sizeof(b->log.release), "%.*s",
				 (int)strcspn(rest + 14, " "), rest + 14);
		else if (!b->log.two_boots)
			b->log.two_boots = xasprintf("%s:%d: a second 'Linux version' line: two "
						     "boots in one log", label, lineno);
		return;
	}
	if (!strncmp(rest, "Command line: ", 14) && !b->log.cmdline) {
		b->log.cmdline = xstrdup(rest + 14);
		return;
	}
	/* Without the collector's stream the kernel's own lines are the records. */
	if (!b->has_events && log_record(b, st, raw, rest))
		return;
	if (!strncmp(rest, "Run /init as init process", 25) ||
	    (!strncmp(rest, "Run /", 5) && strstr(rest, " as init process") && isnan(b->kernel_done_s)))
		b->kernel_done_s = t;
	else if (sscanf(rest, "bootprobe: init start at %lf", &v) == 1 && MARK_OK(v))
		b->init_start_s = isnan(t) ? v : t;
	else if (sscanf(rest, "bootprobe: collector started at %lf", &v) == 1 && MARK_OK(v))
		b->collector_start_s = isnan(t) ? v : t;
	else if (sscanf(rest, "bootprobe: udevd start at %lf", &v) == 1 && MARK_OK(v))
		b->udevd_start_s = isnan(t) ? v : t;
	else if (sscanf(rest, "bootprobe: coldplug start at %lf", &v) == 1 && MARK_OK(v))
		b->coldplug_start_s = isnan(t) ? v : t;
	else if (sscanf(rest, "bootprobe: coldplug done at %lf", &v) == 1 && MARK_OK(v))
		b->coldplug_done_s = isnan(t) ? v : t;
	else if (sscanf(rest, "bootprobe: %d of %d expected devices probed at %lf", &a, &c, &v) == 3 &&
		 MARK_OK(v) && COUNT_OK(a, c)) {
		b->probed = a;
		b->expected = c;
		b->devices_done_s = isnan(t) ? v : t;
	} else if (sscanf(rest, "bootprobe: %d of %d expected disks present at %lf", &a, &c, &v) == 3 &&
		   MARK_OK(v) && COUNT_OK(a, c)) {
		b->disks = a;
		b->disks_expected = c;
		b->disks_done_s = isnan(t) ? v : t;
	} else if (strstr(rest, "Invalid value for OPTIONS key, ignoring")) {
		/* udevd names the rules file and line just before. */
		strv__push(&b->udev_ignored, rest);
	} else if (sscanf(rest, "bootprobe: initramfs hands over to the root at %lf", &v) == 1 &&
		   MARK_OK(v)) {
		b->handover_s = isnan(t) ? v : t;
	} else if (!strncmp(rest, "systemd[1]: systemd ", 20) &&
		   strstr(rest, " running in system mode") && isnan(b->systemd_start_s)) {
		b->systemd_start_s = t;
		if (!*b->systemd_log_version)
			version_word(b->systemd_log_version, rest + 20);
	} else if ((p = strstr(rest, "Starting systemd-udevd version ")) ||
		   ((p = strstr(rest, "udevd[")) && (p = strstr(p, "]: starting version ")))) {
		/* 252, 257: "Starting systemd-udevd version V"; up to 246 "starting version V" */
		if (!*b->udevd_log_version)
			version_word(b->udevd_log_version, strstr(p, "version ") + 8);
	} else if (sscanf(rest, "bootprobe: system %*[a-z-]; multi-user.target reached at %lf",
			  &v) == 1 && MARK_OK(v)) {
		/* systemd's own timestamp; 0 when the target was never reached */
		b->multi_user_s = v > 0 ? v : NAN;
	} else if (sscanf(rest, "bootprobe: BOOT-COMPLETE at %lf", &v) == 1 && MARK_OK(v))
		b->complete_s = isnan(t) ? v : t;
	else if (sscanf(rest, "bootprobe: device %63s driver=%63s", dev, drv) == 2) {
		struct device_state *d = MEM_PUSH(b, b->devices, b->nr_devices, 1);

		copy(d->device, dev);
		copy(d->driver, drv);
	} else if ((p = strstr(rest, "Worker [")) &&
		   sscanf(p, "Worker [%d] processing SEQNUM=%d killed", &a, &c) == 2 &&
		   strstr(p, "killed")) {
		k = MEM_PUSH(b, b->udev_kills, b->nr_udev_kills, 1);
		k->worker_pid = a;
		k->seqnum = c;
		k->ts_s = t;
	}
}

/*
 * @text's lines into @b, @bad the lines (ascending, @nr_bad) whose bytes
 * were no text before they were made inert; @cut when its last line has no
 * newline.
 */
static void parse_console_lines(struct boot_data *b, const char *text, const char *label,
				const int *bad, int nr_bad, bool cut)
{
	char *copy_ = xstrdup(text), *line = copy_, *nl;
	struct console_state st = { .label = label, .bad = bad, .nr_bad = nr_bad,
				    .last_record_s = -INFINITY };

	boot_index__free(b->index);
	b->index = NULL;
	mem_take(b, strlen(text) + 1);
	/* Line by line, counted: a refused line is named at FILE:LINE. */
	for (st.lineno = 1; *line && !b->over_budget; line = nl + 1, st.lineno++) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		st.cut = cut && !nl;
		if (st.cut && !b->has_events)
			b->log.cut = true;
		if (*line)
			console_line(b, line, &st);
		if (!nl)
			break;
	}
	log_unpaired_failures(b, &st);
	keymap__free(&st.seen);
	keymap__free(&st.failing);
	free(st.fails);
	mem_give(b, strlen(text) + 1);
	free(copy_);
}

void boot_data__parse_console(struct boot_data *b, const char *text, const char *label)
{
	parse_console_lines(b, text, label, NULL, 0, false);
}

/* ---- the files a gathered boot keeps beside its kernel log (docs/gather.md) ------------ */

/* File @name of the folder @dfd, at most an attachment's size; NULL if absent (said if unreadable). */
static char *beside_file(struct boot_data *b, int dfd, const char *dir, const char *name,
			 size_t *len)
{
	char *text = read_file_at_max(dfd, name, len, MAX_ATTACHMENT_BYTES);

	if (!text && errno != ENOENT)
		warn(b, "%s/%s: %s", dir, name, read_file_strerror(errno));
	if (text && strlen(text) != *len) {
		warn(b, "%s/%s: a NUL byte (not read)", dir, name);
		free(text);
		return NULL;
	}
	return text;
}

/* Whether file @path's first line names another boot than the kernel log's; said if so. */
static bool other_boot(struct boot_data *b, const char *text, const char *path, int kind,
		       const char *what)
{
	char id[40];

	if (!gather_header(text, id) || !*b->log.boot_id || !strcmp(id, b->log.boot_id))
		return false;
	log_reject(b, kind, "%s:1: boot id %s, not the kernel log's %s: %s another boot's (not "
		   "read)", path, id, b->log.boot_id, what);
	return true;
}

/* One line of a tab-separated file beside the log: its @n fields; false if it has not @n. */
static bool tab_fields(char *line, char **f, int n)
{
	for (int i = 0; i < n; i++) {
		f[i] = line;
		line = i < n - 1 ? strchr(line, '\t') : line + strcspn(line, "\t\r");
		if (!line || (i == n - 1 && *line == '\t'))
			return false;
		*line++ = '\0';
		if (!*f[i] && i < n - 1)
			return false;
	}
	return true;
}

/*
 * drivers.txt: "BUS<TAB>DEVICE<TAB>DRIVER", a device bound when the files
 * were gathered (docs/gather.md): names the driver of a span whose line did
 * not, and its bus.  The state at gather time: a device bound then may have
 * been probed by another driver before; only a probe that returned 0 takes
 * its driver from here.
 */
static void read_driver_map(struct boot_data *b, char *text, const char *path)
{
	struct keymap dev = { 0 };
	struct map_entry {
		char bus[NAME_LEN], driver[NAME_LEN];
	} *v = NULL;
	int n = 0, lineno = 1;

	if (other_boot(b, text, path, LOG_MAP, "the map is"))
		return;
	for (char *line = text, *nl; *line; line = nl + 1, lineno++) {
		char *f[3];

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (*line && *line != '#') {
			if (!text_is_clean(line, strlen(line), true) || !tab_fields(line, f, 3) ||
			    strlen(f[0]) >= NAME_LEN || strlen(f[1]) >= NAME_LEN ||
			    strlen(f[2]) >= NAME_LEN || !*f[2]) {
				log_reject(b, LOG_MAP, "%s:%d: not BUS<TAB>DEVICE<TAB>DRIVER in names of "
					   "at most %d bytes of text (refused)", path, lineno,
					   NAME_LEN - 1);
			} else if (keymap__put_str(&dev, f[1], n) == n) {
				struct map_entry *e = ARRAY_PUSH(v, n);

				copy(e->bus, f[0]);
				copy(e->driver, f[2]);
			}
		}
		if (!nl)
			break;
	}
	for (int i = 0; i < b->nr_probes; i++) {
		struct probe_span *p = &b->probes[i];
		int k;

		if (p->source != SRC_KERNEL_LOG)
			continue;
		k = keymap__get_str(&dev, p->device);
		if (k >= 0)
			copy(p->bus, v[k].bus);
		if (k >= 0 && !*p->driver && p->ret == 0) {
			copy(p->driver, v[k].driver);
			p->driver_from = DRV_FROM_MAP;
		}
	}
	keymap__free(&dev);
	free(v);
}

/* devices-deferred.txt: /sys/kernel/debug/devices_deferred at gather time, "DEV<TAB>REASON". */
static void read_deferred(struct boot_data *b, char *text, const char *path)
{
	int lineno = 1;

	if (other_boot(b, text, path, LOG_DEFERRED, "the deferred list is"))
		return;
	for (char *line = text, *nl; *line; line = nl + 1, lineno++) {
		char *f[2];

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (*line && *line != '#') {
			if (!text_is_clean(line, strlen(line), true) || !tab_fields(line, f, 2) ||
			    strlen(f[0]) >= NAME_LEN) {
				log_reject(b, LOG_DEFERRED, "%s:%d: not DEVICE<TAB>REASON in text "
					   "(refused)", path, lineno);
			} else {
				struct log_deferral *d = MEM_PUSH(b, b->deferrals, b->nr_deferrals, 0);

				memset(d, 0, sizeof(*d));
				copy(d->device, f[0]);
				snprintf(d->reason, sizeof(d->reason), "%s", f[1]);
				d->ts_s = NAN;
				d->from_debugfs = true;
			}
		}
		if (!nl)
			break;
	}
}

static void add_attachment_text(struct boot_data *b, const char *name, const char *text,
				size_t len)
{
	struct attachment *a;

	if (b->nr_attachments >= MAX_ATTACHMENTS || boot_data__attachment(b, name))
		return;
	a = MEM_PUSH(b, b->attachments, b->nr_attachments, 0);
	copy(a->name, name);
	a->text = text_clean(text, len, true, NULL);
	mem_take(b, strlen(a->text) + 1);
}

/*
 * What the log lacks, judged once every file is read: is it a log boot at
 * all (records from initcall_debug or the driver core, no stream), two boots
 * in one log, its beginning overwritten, its end cut; user space's start and
 * multi-user.target from systemd-analyze.
 */
static void log_finish(struct boot_data *b)
{
	struct log_account *l = &b->log;
	struct sd_time t;

	b->from_log = !b->has_events &&
		      l->probe_lines + l->failed_lines + l->deferred_lines + l->initcall_lines > 0;
	if (!b->from_log)
		return;
	if (l->two_boots && !b->unusable)
		b->unusable = xasprintf("kernel log unusable (%s)", l->two_boots);
	if (l->non_text)
		warn(b, "%s", l->non_text);
	if (!l->linux_versions) {
		l->begin_missing = true;
		warn(b, "%s: the kernel log begins at %.6f s without the kernel's 'Linux version' "
		     "line: its beginning was overwritten before it was read (a kernel log buffer "
		     "too small for initcall_debug: boot with log_buf_len=4M); the probes before it "
		     "are missing", l->first_at ? l->first_at : b->dir, l->first_stamp_s);
	}
	if (l->cut)
		warn(b, "%s: the kernel log ends inside a line: its end is missing", b->dir);
	/* A span whose line, failure line and map named no driver: not known. */
	for (int i = 0; i < b->nr_probes; i++)
		if (b->probes[i].source == SRC_KERNEL_LOG && !*b->probes[i].driver) {
			copy(b->probes[i].driver, "?");
			b->probes[i].driver_from = DRV_UNKNOWN;
		}
	/* The kernel starts the first user-space program: user space's probes from here. */
	if (isnan(b->init_start_s))
		b->init_start_s = b->kernel_done_s;
	if (isnan(b->multi_user_s) && sd_time__parse(boot_data__attachment(b, SD_ANALYZE_TIME), &t) &&
	    isfinite(t.kernel_s) && isfinite(t.target_s))
		b->multi_user_s = t.kernel_s + (isfinite(t.initrd_s) ? t.initrd_s : 0) + t.target_s;
}

/*
 * Why @v (@len bytes) cannot be gather.txt's initrd_generator, NULL if it
 * can: "unknown", "none", or NAME [VERSION] (NAME of [a-z0-9._+-], VERSION
 * of [A-Za-z0-9.+~:_-], each starting with a letter or digit), at most
 * NAME_LEN - 1 bytes of text: it becomes boot.json's and the report's.
 */
static const char *initrd_generator_invalid(const char *v, size_t len, char *buf, size_t blen)
{
	static const char name[] = "abcdefghijklmnopqrstuvwxyz0123456789._+-";
	static const char version[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789.+~:_-";
	size_t n, vn;

	for (size_t i = 0; i < len; i++)
		if ((unsigned char)v[i] < 0x20 || v[i] == 0x7f) {
			snprintf(buf, blen, "a control byte (0x%02x)", (unsigned char)v[i]);
			return buf;
		}
	if (!text_is_clean(v, len, false))
		return "bytes that are not UTF-8 text, or an invisible control character";
	if (len > NAME_LEN - 1) {
		snprintf(buf, blen, "%zu bytes, more than %d", len, NAME_LEN - 1);
		return buf;
	}
	n = strspn(v, name);
	vn = v[n] == ' ' ? strspn(v + n + 1, version) : 0;
	if (!n || !isalnum((unsigned char)v[0]) ||
	    (n < len && (v[n] != ' ' || !vn || !isalnum((unsigned char)v[n + 1]) ||
			 n + 1 + vn != len)))
		return "not NAME [VERSION] (a name of [a-z0-9._+-], a version of "
		       "[A-Za-z0-9.+~:_-])";
	return NULL;
}

/*
 * gather.txt, the folder's manifest (docs/gather.md): what made the
 * boot's initrd ("initrd_generator dracut 106-6", "unknown", "none"), when
 * the script said and boot.json does not already.  Its other lines are the
 * script's account of what it gathered, not read here.  A bad line is
 * refused at FILE:LINE and counted; it costs no count (the report's
 * "initrd made by" then says nothing), and the boot stands.
 */
static void read_gather_manifest(struct boot_data *b, char *text, const char *path,
				 const char *boot_id, const char *whose)
{
	static const char key[] = "initrd_generator ";
	const size_t nk = sizeof(key) - 1;
	char *found = NULL, buf[96];
	int lineno = 1, found_at = 0;
	bool other = false;

	for (char *line = text, *nl; *line; line = nl + 1, lineno++) {
		const char *why;
		size_t len;

		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		len = strlen(line);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (!strncmp(line, "boot_id ", 8) && *boot_id && strcmp(line + 8, boot_id)) {
			char *id = term_str(line + 8), *want = term_str(boot_id);

			log_reject(b, -1, "%s:%d: boot id %.40s, not %s %.40s: its "
				   "initrd_generator is another boot's (not read)", path, lineno, id,
				   whose, want);
			free(want);
			free(id);
			other = true;
		} else if (!strncmp(line, key, nk)) {
			why = initrd_generator_invalid(line + nk, len - nk, buf, sizeof(buf));
			if (why)
				log_reject(b, -1, "%s:%d: initrd_generator: %s (refused)", path, lineno,
					   why);
			else if (found)
				log_reject(b, -1, "%s:%d: a second initrd_generator line (line %d's is "
					   "read; refused)", path, lineno, found_at);
			else {
				found = line + nk;
				found_at = lineno;
			}
		}
		if (!nl)
			break;
	}
	if (found && !other && !*b->initrd_generator) {
		free(b->initrd_generator);
		b->initrd_generator = xstrdup(found);
	}
}

void boot_data__read_gather_attachment(struct boot_data *b)
{
	const char *a = boot_data__attachment(b, "gather.gather.txt");
	const char *id = boot_data__attachment(b, "boot-id.txt");
	char *text, *boot_id;

	if (!a)
		return;
	text = xstrdup(a);
	boot_id = xasprintf("%.*s", id ? (int)strcspn(id, "\n") : 0, id ? id : "");
	read_gather_manifest(b, text, "the stream's attachment gather.gather.txt", boot_id,
			     "the stream's");
	free(boot_id);
	free(text);
}

void boot_data__read_beside_log(struct boot_data *b, int dfd, const char *dir)
{
	static const char *const texts[] = {
		"systemd-analyze-time.txt", "systemd-analyze-blame.txt",
		"systemd-analyze-critical-chain.txt", "uname-r.txt", "kernel-cmdline.txt",
		"dmi-product-name.txt",
	};
	char *text, *path;
	size_t len;

	/* A bare kernel log has nothing beside it. */
	if (dfd < 0) {
		log_finish(b);
		return;
	}
	path = xasprintf("%s/gather.txt", dir);
	text = beside_file(b, dfd, dir, "gather.txt", &len);
	if (text)
		read_gather_manifest(b, text, path, b->log.boot_id, "the kernel log's");
	free(text);
	free(path);
	path = xasprintf("%s/udevd.log", dir);
	text = beside_file(b, dfd, dir, "udevd.log", &len);
	if (text && !other_boot(b, text, path, LOG_UDEV_KILL, "udevd's lines are"))
		boot_data__read_console(b, text, len, path);
	free(text);
	free(path);
	path = xasprintf("%s/drivers.txt", dir);
	text = beside_file(b, dfd, dir, "drivers.txt", &len);
	if (text)
		read_driver_map(b, text, path);
	free(text);
	free(path);
	path = xasprintf("%s/devices-deferred.txt", dir);
	text = beside_file(b, dfd, dir, "devices-deferred.txt", &len);
	if (text)
		read_deferred(b, text, path);
	free(text);
	free(path);
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		text = beside_file(b, dfd, dir, texts[i], &len);
		if (text)
			add_attachment_text(b, texts[i], text, len);
		free(text);
	}
	log_finish(b);
}

/* ---- boot.json ------------------------------------------------------------------- */

/*
 * What the boot ran with: boot.json's, written by the runner from the
 * command line it gave the guest; a boot.json from before it wrote them
 * has only the command line, read here by the same scanner.
 */
static void boot_data__settings(struct boot_data *b, const struct boot_file *f,
				const char *label)
{
	struct boot_settings s;

	boot_settings__from_cmdline(&s, b->kernel_cmdline);
	if (*s.refused)
		warn(b, "%s: kernel_cmdline: %s is no time within %g..%g s (refused; udevd's "
		     "default or an earlier value stands)", label, s.refused,
		     field_ranges[FR_EVENT_TIMEOUT].min, field_ranges[FR_EVENT_TIMEOUT].max);
	b->event_timeout_s = isnan(f->udev_event_timeout_s) ? s.udev_event_timeout_s
							    : f->udev_event_timeout_s;
	if (s.extra_ignored)
		warn(b, "%s: kernel_cmdline: systemd.setenv=SYSTEMD_UDEV_EXTRA_TIMEOUT_SEC=%s is no "
		     "time up to 5 h: udevd 256 and later ignore it and keep their 10 s", label,
		     s.extra_set);
	copy(b->udev_version, f->udev_version ? f->udev_version : "");
	copy(b->kill_policy, f->kill_policy ? f->kill_policy : s.kill_policy);
}

/* The systemd release of a version ("257.13-1~deb13u1": 257), 0 if none. */
static int systemd_release(const char *v)
{
	const char *colon = strchr(v, ':');	/* a Debian epoch */
	long n;
	char *end;

	if (colon)
		v = colon + 1;
	n = strtol(v, &end, 10);
	return end == v || n <= 0 || n > 100000 ? 0 : (int)n;
}

void boot_data__udev_deadline(const struct boot_data *b, struct udev_deadline *d)
{
	struct boot_settings s;

	boot_settings__from_cmdline(&s, b->kernel_cmdline);
	memset(d, 0, sizeof(*d));
	d->timeout_s = b->event_timeout_s;
	d->extra_if_new_s = s.udev_extra_timeout_s;
	snprintf(d->extra_set, sizeof(d->extra_set), "%s", s.extra_set);
	d->extra_ignored = s.extra_ignored;
	d->version = "";
	d->version_from = "";
	if (*b->udev_version) {
		d->version = b->udev_version;
		d->version_from = "boot.json";
	} else if (*b->udevd_log_version) {
		d->version = b->udevd_log_version;
		d->version_from = "udevd's log";
	} else if (*b->systemd_log_version) {
		d->version = b->systemd_log_version;
		d->version_from = "systemd's log";
	}
	d->systemd = systemd_release(d->version);
	if (!d->systemd)
		d->extra_s = NAN;
	else
		d->extra_s = d->systemd >= UDEV_EXTRA_TIMEOUT_SINCE ? s.udev_extra_timeout_s : 0;
}

double udev_deadline__latest(const struct udev_deadline *d)
{
	return d->timeout_s + (isnan(d->extra_s) ? d->extra_if_new_s : d->extra_s);
}

/* @s, or @dflt when the file has none or an empty one. */
static char *dup_or(const char *s, const char *dflt)
{
	return xstrdup(s && *s ? s : dflt);
}

int boot_data__parse_boot_json(struct boot_data *b, const char *text, size_t len,
			       const char *label, char *err, int errlen)
{
	struct boot_file f;
	char why[512];

	/* The results format's reader (resultfiles.h): the one for every boot.json. */
	if (boot_file__parse(&f, text, len, label, why, sizeof(why))) {
		/* A schema it does not read says so alone; a file no JSON object is no boot. */
		snprintf(err, errlen, "%s%s", why, f.schema < 0 ? "" : ": not a finished boot");
		return -1;
	}
	free(b->name);
	free(b->mode);
	free(b->outcome);
	free(b->kernel_cmdline);
	free(b->host);
	free(b->initrd_generator);
	b->host = dup_or(f.host, "");
	b->initrd_generator = dup_or(f.initrd_generator, "");
	b->name = dup_or(f.boot, "?");
	b->mode = dup_or(f.mode, "?");
	b->outcome = dup_or(f.outcome, "?");
	b->kernel_cmdline = dup_or(f.kernel_cmdline, "");
	b->wall_s = f.wall_s;
	b->console_last_write_s = f.console_last_write_s;
	boot_data__settings(b, &f, label);
	if (!strcmp(b->mode, "?"))
		warn(b, "%s: no mode", label);
	boot_file__free(&f);
	return 0;
}

static int load_boot_json(struct boot_data *b, int dfd, char *err, int errlen)
{
	char *path = xasprintf("%s/boot.json", b->dir);
	size_t len = 0;
	char *text = read_file_at(dfd, "boot.json", &len);
	int ret;

	if (!text) {
		snprintf(err, errlen, "%s: %s: not a finished boot", path,
			 read_file_strerror(errno));
		free(path);
		return -1;
	}
	ret = boot_data__parse_boot_json(b, text, len, path, err, errlen);
	free(text);
	free(path);
	return ret;
}

struct boot_data *boot_data__new(const char *dir)
{
	struct boot_data *b = xcalloc(1, sizeof(*b));

	b->dir = xstrdup(dir);
	b->init_start_s = b->coldplug_start_s = b->coldplug_done_s = NAN;
	b->devices_done_s = b->complete_s = b->kernel_done_s = NAN;
	b->disks_done_s = b->multi_user_s = b->systemd_start_s = b->handover_s = NAN;
	b->init_exec_s = NAN;
	b->collector_start_s = b->udevd_start_s = b->attach_s = NAN;
	b->last_stamp_raw_s = b->console_last_write_s = NAN;
	b->log.first_stamp_s = NAN;
	b->wall_s = NAN;
	b->event_timeout_s = UDEV_EVENT_TIMEOUT_DEFAULT_S;
	b->name = xstrdup("?");
	b->mode = xstrdup("?");
	b->outcome = xstrdup("?");
	b->kernel_cmdline = xstrdup("");
	b->host = xstrdup("");
	b->initrd_generator = xstrdup("");
	return b;
}

/*
 * A console line holding a NUL byte is noise on a serial line: it is named
 * and blanked (spaces), and the lines after it are read.  One pass: a file
 * of many such lines costs no more than its size.  (The event stream's
 * reader refuses such a line itself.)
 */
static void blank_nul_lines(struct boot_data *b, char *text, size_t len, const char *label)
{
	char *end = text + len, *line, *nl;
	int lineno = 1;

	if (!memchr(text, '\0', len))
		return;
	for (line = text; line < end; line = nl + 1, lineno++) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		if (memchr(line, '\0', nl - line)) {
			warn(b, "%s:%d: NUL byte (line skipped)", label, lineno);
			memset(line, ' ', nl - line);
		}
	}
}

/*
 * The boot folder's file @name (open at @dfd, never through a link), as
 * text of @len bytes, at most what the boot's memory budget has left;
 * NULL after a warning naming @path (or the budget's line).
 */
static char *read_input(struct boot_data *b, int dfd, const char *name, const char *path,
			size_t *len, bool may_be_missing)
{
	size_t left = !b->mem_budget ? READ_FILE_MAX :
		      b->mem_budget > b->mem_bytes ? b->mem_budget - b->mem_bytes : 0;
	char *text = read_file_at_max(dfd, name, len, left);
	int err = errno;

	if (!text && errno == EFBIG && left < READ_FILE_MAX)
		mem_take(b, left + 1);	/* the file alone is past it: said as the budget */
	else if (!text && !(may_be_missing && errno == ENOENT))
		warn(b, "%s: %s", path, read_file_strerror(errno));
	errno = err;
	return text;
}

struct boot_data *boot_data__load(const char *dir, char *err, int errlen)
{
	/* The folder the user named: a link to it is the user's choice. */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct boot_data *b;

	if (dfd < 0) {
		snprintf(err, errlen, "%s/boot.json: %s: not a finished boot", dir, strerror(errno));
		return NULL;
	}
	b = boot_data__load_at(dfd, dir, err, errlen);
	close(dfd);
	return b;
}

struct boot_data *boot_data__load_at(int dfd, const char *dir, char *err, int errlen)
{
	bool over;

	return boot_data__load_budget(dfd, dir, mem_budget__boot(), false, &over, err, errlen);
}

/*
 * The lines of @text (@len bytes) whose bytes are not text (invalid UTF-8,
 * control codes) before text_clean() makes them inert: ascending, counted
 * in *@n; the first few named.  For a kernel log only: its records name
 * devices and drivers, which such bytes would make wrong.
 */
static int *bad_text_lines(struct boot_data *b, const char *text, size_t len, const char *label,
			   int *n)
{
	const char *end = text + len, *line, *nl;
	int *v = NULL, lineno = 1;

	*n = 0;
	for (line = text; line < end; line = nl + 1, lineno++) {
		nl = memchr(line, '\n', end - line);
		if (!nl)
			nl = end;
		if (!text_is_clean(line, nl - line, true))
			*ARRAY_PUSH(v, *n) = lineno;
	}
	/* Said once the log is known to be one (log_finish()). */
	if (*n && !b->log.non_text)
		b->log.non_text = xasprintf("%s:%d: bytes that are not UTF-8 text (shown as ?), on "
					    "%d line%s", label, v[0], *n, *n == 1 ? "" : "s");
	b->log.non_utf8_lines += *n;
	return v;
}

void boot_data__read_console(struct boot_data *b, char *text, size_t len, const char *path)
{
	char *clean;
	size_t clean_len;
	int *bad = NULL, nr_bad = 0;
	bool cut = len && text[len - 1] != '\n';

	blank_nul_lines(b, text, len, path);
	if (!b->has_events)
		bad = bad_text_lines(b, text, len, path, &nr_bad);
	/* Inert once where it is read: no control, C1 or bidi code, valid UTF-8. */
	clean = text_clean(text, len, true, NULL);
	clean_len = strlen(clean) + 1;
	if (!mem_take(b, clean_len))
		parse_console_lines(b, clean, path, bad, nr_bad, cut);
	mem_give(b, clean_len);
	free(clean);
	free(bad);
}

struct boot_data *boot_data__load_budget(int dfd, const char *dir, size_t budget, bool of_run,
					 bool *over, char *err, int errlen)
{
	struct boot_data *b = boot_data__new(dir);
	char *path, *text;
	size_t len;
	bool no_stream;

	*over = false;
	if (load_boot_json(b, dfd, err, errlen)) {
		boot_data__free(b);
		return NULL;
	}
	b->mem_budget = budget;
	b->mem_budget_of_run = of_run;
	path = xasprintf("%s/events.jsonl", dir);
	/* No stream at all is said below, once it is known no kernel log stands in for it. */
	text = read_input(b, dfd, "events.jsonl", path, &len, true);
	no_stream = !text && errno == ENOENT;
	if (text && len)
		boot_data__parse_events(b, text, len, path);
	free(text);
	free(path);
	path = xasprintf("%s/console.log", dir);
	text = b->over_budget ? NULL : read_input(b, dfd, "console.log", path, &len, false);
	if (text) {
		mem_take(b, len + 1);
		boot_data__read_console(b, text, len, path);
		mem_give(b, len + 1);
	}
	free(text);
	free(path);
	/* No stream: the kernel's own log may be the boot's records (docs/gather.md). */
	if (!b->has_events && !b->over_budget)
		boot_data__read_beside_log(b, dfd, dir);
	/* A boot read from its kernel log never had a stream: nothing is missing. */
	if (no_stream && !b->from_log)
		warn(b, "%s/events.jsonl: %s", dir, read_file_strerror(ENOENT));
	if (b->over_budget) {
		snprintf(err, errlen, "%s", b->over_budget);
		*over = true;
		boot_data__free(b);
		return NULL;
	}
	return b;
}

void boot_data__free(struct boot_data *b)
{
	if (!b)
		return;
	boot_index__free(b->index);
	free(b->over_budget);
	for (int i = 0; i < b->nr_kills; i++)
		strv__free(&b->kills[i].stack);
	free(b->kills);
	for (int i = 0; i < b->nr_signals; i++)
		strv__free(&b->signals[i].stack);
	free(b->signals);
	for (int i = 0; i < b->nr_attachments; i++)
		free(b->attachments[i].text);
	free(b->attachments);
	free(b->devnodes);
	free(b->probes);
	free(b->modloads);
	free(b->kwaits);
	free(b->udev_kills);
	free(b->udev_timeouts);
	free(b->initcalls);
	free(b->deferrals);
	free(b->log.cmdline);
	free(b->log.two_boots);
	free(b->log.non_text);
	free(b->log.first_at);
	free(b->devices);
	strv__free(&b->warnings);
	free(b->first_rejected);
	free(b->unusable);
	strv__free(&b->udev_ignored);
	strv__free(&b->not_attached);
	free(b->dir);
	free(b->name);
	free(b->mode);
	free(b->outcome);
	free(b->kernel_cmdline);
	free(b->host);
	free(b->initrd_generator);
	free(b);
}

/*
 * A probe from /init on, whoever recorded it: the boot-time trace records
 * udev's probes too while the collector starts up beside the boot.
 */
bool probe_span__in_user_space(const struct boot_data *b, const struct probe_span *p)
{
	if (p->other_clock || p->start_ns == UNKNOWN_NS)
		return false;
	/* In doubles: /init's start comes from the console, and may be any. */
	return isnan(b->init_start_s) || p->start_ns >= trunc(b->init_start_s * 1e9) - 1e6;
}

bool probe_span__failed(const struct probe_span *p)
{
	/* -ENODEV and -ENXIO reject a match; -EPROBE_DEFER retries later. */
	return p->ret != 0 && p->ret != -19 && p->ret != -6 && p->ret != -EPROBE_DEFER_;
}

const char *const boot_time_words[2] = {
	"kernel start to the later of udev's queue empty after coldplug and the end of "
	"the last driver probe in user space",
	"kernel start to multi-user.target reached (probes, disks and interfaces ending "
	"after it counted as late)",
};
const char *const boot_time_sentence[2] = {
	"from kernel start to the later of udev's queue being empty after coldplug and the "
	"end of the last driver probe in user space (async probes included)",
	"from kernel start to systemd reaching multi-user.target (a probe, disk or interface "
	"that ends after it is late, listed below, not part of the boot time)",
};

bool boot_data__ok(const struct boot_data *b)
{
	return !strcmp(b->outcome, outcome__name(OUTCOME_OK));
}

bool boot_data__is_systemd(const struct boot_data *b)
{
	return isnan(b->coldplug_done_s) && !isnan(b->multi_user_s);
}

double boot_data__boot_time(const struct boot_data *b)
{
	double t = b->coldplug_done_s;

	if (boot_data__is_systemd(b))
		return b->multi_user_s;
	if (isnan(t))
		return NAN;
	if (!isnan(b->devices_done_s) && b->devices_done_s > t)
		t = b->devices_done_s;
	if (!isnan(b->disks_done_s) && b->disks_done_s > t)
		t = b->disks_done_s;
	for (int i = 0; i < b->nr_probes; i++) {
		const struct probe_span *p = &b->probes[i];

		if (probe_span__in_user_space(b, p) && p->end_ns / 1e9 > t)
			t = p->end_ns / 1e9;
	}
	return t;
}

bool probe_span__late(const struct boot_data *b, const struct probe_span *p)
{
	/* A driver's -ENODEV or -ENXIO made no device: nothing to be late. */
	if (p->ret == -19 || p->ret == -6)
		return false;
	return boot_data__is_systemd(b) && !p->other_clock && p->end_ns / 1e9 > b->multi_user_s;
}

bool devnode__late(const struct boot_data *b, const struct devnode *d)
{
	return boot_data__is_systemd(b) && !d->ret && d->ts_ns / 1e9 > b->multi_user_s;
}

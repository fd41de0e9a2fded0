// SPDX-License-Identifier: GPL-2.0
/* BPF events to JSON records: one function per record type. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/types.h>

#include "probetrace.h"
#include "clock.h"
#include "events.h"
#include "ksyms.h"
#include "record.h"

/* The record names are the reader's (tools/common/events.c), numbered as enum pt_type. */
#define SAME(ev, pt) ((int)EVENT_##ev == (int)PT_##pt)
_Static_assert(SAME(PROBE_START, PROBE_START) && SAME(PROBE, PROBE) &&
	       SAME(KTHREAD_START, KTHREAD_START) && SAME(KTHREAD_END, KTHREAD_END) &&
	       SAME(SIGNAL_GENERATE, SIGNAL_GENERATE) && SAME(SIGNAL_DELIVER, SIGNAL_DELIVER) &&
	       SAME(EXIT, EXIT) && SAME(MODULE_LOAD_START, MODULE_LOAD_START) &&
	       SAME(MODULE_LOAD, MODULE_LOAD) && SAME(MODULE_INIT, MODULE_INIT) &&
	       SAME(DEVNODE, DEVNODE) && SAME(INIT_EXEC, INIT_EXEC) && SAME(BPF_MAX, TYPE_MAX),
	       "enum event_type (tools/common/events.h) numbers the BPF records as enum pt_type");
#undef SAME

static const char *const origin_names[] = {
	[PT_ORIGIN_OTHER] = "other",
	[PT_ORIGIN_MODULE_LOAD] = "module_load",
	[PT_ORIGIN_INITCALL] = "initcall",
	[PT_ORIGIN_DEFERRED] = "deferred",
};

/* TRACE_SIGNAL_* of include/trace/events/signal.h. */
static const char *const signal_results[] = {
	"delivered", "ignored", "already_pending", "overflow_fail", "lose_info",
};

static const char *const sig_names[] = {
	[1] = "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT",
	"SIGBUS", "SIGFPE", "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2",
	"SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
	"SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU",
	"SIGXFSZ", "SIGVTALRM", "SIGPROF", "SIGWINCH", "SIGIO", "SIGPWR",
	"SIGSYS",
};

const char *record__type_name(uint32_t type)
{
	return type < PT_TYPE_MAX ? event_type__name(type) : NULL;
}

const char *signal_name(int sig)
{
	if (sig > 0 && sig < (int)(sizeof(sig_names) / sizeof(sig_names[0])))
		return sig_names[sig];
	return sig >= 32 && sig <= 64 ? "SIGRT" : "?";
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

json_object *json_str_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, o = 0, l;
	char *buf = malloc(n + 1);
	json_object *j;

	if (!buf)
		return NULL;
	/* json-c escapes control bytes; bytes that are not UTF-8 become '?'. */
	while (i < n) {
		l = utf8_seq_len(u + i, n - i);
		if (!l) {
			buf[o++] = '?';
			i++;
			continue;
		}
		memcpy(buf + o, u + i, l);
		o += l;
		i += l;
	}
	j = json_object_new_string_len(buf, (int)o);
	free(buf);
	return j;
}

json_object *json_str_n(const char *s, size_t max)
{
	return json_str_len(s, strnlen(s, max < 511 ? max : 511));
}

json_object *json_hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_object_new_string(buf);
}

/* Keys are string literals: json-c need not copy them. */
static void add(json_object *o, const char *key, json_object *v)
{
	json_object_object_add_ex(o, key, v, JSON_C_OBJECT_ADD_CONSTANT_KEY);
}

#define add_str(o, key, field) add(o, key, json_str_n(field, sizeof(field)))
#define add_int(o, key, v) add(o, key, json_object_new_int64((int64_t)(v)))
#define add_bool(o, key, v) add(o, key, json_object_new_boolean(!!(v)))

/* ---- symbols --------------------------------------------------------------- */

/*
 * kallsyms for addr, read again when modules changed since the last read
 * and addr is outside the core kernel (reading it costs ~0.1-0.5 s of a
 * TCG guest's only CPU).
 */
static struct ksyms *symbolizer__get(struct symbolizer *sym, uint64_t addr)
{
	uint64_t t0;

	if (!sym)
		return NULL;
	/* Read (or failed to read, e.g. kptr_restrict) and still current. */
	if (sym->loaded_ns && !sym->stale)
		return sym->ks;
	if (sym->ks && ksyms__is_core(sym->ks, addr))
		return sym->ks;
	ksyms__free(sym->ks);
	t0 = mono_ns();
	sym->ks = sym->fd >= 0 ? ksyms__load_fd(sym->fd)
			       : ksyms__load(sym->path ? sym->path : "/proc/kallsyms");
	sym->err = sym->ks ? 0 : -errno;
	sym->stale = 0;
	sym->loaded_ns = mono_ns();
	sym->loads++;
	sym->load_total_ns += sym->loaded_ns - t0;
	return sym->ks;
}

void symbolizer__free(struct symbolizer *sym)
{
	if (sym) {
		ksyms__free(sym->ks);
		sym->ks = NULL;
		if (sym->fd >= 0)
			close(sym->fd);
		sym->fd = -1;
	}
}

/*
 * An address as "sym+0xoff", or as hex when it cannot be resolved.  An
 * unknown address may be in a module loaded since kallsyms was read: read
 * it again, at most once per 100 ms.
 */
static json_object *json_sym(struct symbolizer *sym, uint64_t addr)
{
	char buf[320];
	uint64_t now;

	if (!addr)
		return json_hex(addr);
	if (ksyms__resolve(symbolizer__get(sym, addr), addr, buf, sizeof(buf)))
		return json_object_new_string(buf);
	now = mono_ns();
	if (sym && sym->ks && !ksyms__is_core(sym->ks, addr) &&
	    now - sym->loaded_ns > 100000000ULL) {
		sym->stale = 1;
		if (ksyms__resolve(symbolizer__get(sym, addr), addr, buf, sizeof(buf)))
			return json_object_new_string(buf);
	}
	return json_hex(addr);
}

/*
 * A symbol the kernel printed with %pS, "sym+0xoff/0xsize [module]", in
 * our form "sym+0xoff [module]"; a hex address (unresolved) as it is.
 */
static json_object *json_ksym(const char *s, size_t max)
{
	char buf[PT_SYM_LEN + 1];
	size_t n = strnlen(s, max), cut;
	const char *slash = memchr(s, '/', n);

	if (n >= sizeof(buf) || !slash)
		return json_str_n(s, max);
	cut = strcspn(slash, " ");
	snprintf(buf, sizeof(buf), "%.*s%.*s", (int)(slash - s), s,
		 (int)(n - (slash - s) - cut), slash + cut);
	return json_str_n(buf, sizeof(buf));
}

/* @addr as the kernel printed it into @printed (%pS), else from kallsyms. */
static json_object *json_kaddr(struct symbolizer *sym, uint64_t addr,
			       const char *printed, size_t max)
{
	return printed[0] ? json_ksym(printed, max) : json_sym(sym, addr);
}

/* ---- record types ------------------------------------------------------------ */

/*
 * start_ns, end_ns and duration_ns of a span; a start of 0 means it began
 * before the collector attached: start and duration are then null.
 */
static void add_span(json_object *o, __u64 start_ns, __u64 end_ns)
{
	add(o, "start_ns", start_ns ? json_object_new_int64(start_ns) : NULL);
	add_int(o, "end_ns", end_ns);
	add(o, "duration_ns", start_ns ? json_object_new_int64(end_ns - start_ns) : NULL);
}

static json_object *record__new(const struct pt_hdr *h)
{
	json_object *o = json_object_new_object();

	add(o, "type", json_object_new_string(event_type__name(h->type)));
	add_int(o, "ts_ns", h->ts_ns);
	add_int(o, "cpu", h->cpu);
	add_int(o, "pid", h->pid);
	add_int(o, "tgid", h->tgid);
	add_str(o, "comm", h->comm);
	return o;
}

static json_object *origin__json(const struct pt_origin_info *oi,
				 struct symbolizer *sym)
{
	json_object *o = json_object_new_object();
	uint32_t k = oi->kind;

	add(o, "kind", json_object_new_string(
		k < sizeof(origin_names) / sizeof(origin_names[0]) ?
		origin_names[k] : "?"));
	add_int(o, "pid", oi->pid);
	add_str(o, "comm", oi->comm);
	if (oi->module[0])
		add_str(o, "module", oi->module);
	if (k == PT_ORIGIN_INITCALL)
		add(o, "initcall", json_kaddr(sym, oi->initcall_fn, oi->initcall_sym,
					       sizeof(oi->initcall_sym)));
	return o;
}

static json_object *probe__json(const struct pt_probe *e,
				struct symbolizer *sym)
{
	json_object *o = record__new(&e->hdr);

	add_str(o, "driver", e->driver);
	add_str(o, "device", e->device);
	add_str(o, "bus", e->bus);
	add_str(o, "owner", e->owner);
	add_bool(o, "async", e->async);
	add_int(o, "depth", e->depth);
	add(o, "dev_addr", json_hex(e->dev));
	if (e->hdr.type == PT_PROBE) {
		add_span(o, e->start_ns, e->hdr.ts_ns);
		add_int(o, "ret", e->ret);
		/* really_probe() returns the driver's error negated. */
		add_int(o, "probe_error", e->ret > 0 ? -e->ret : e->ret);
	}
	add(o, "origin", origin__json(&e->origin, sym));
	return o;
}

static json_object *kthread__json(const struct pt_kthread *e,
				  struct symbolizer *sym)
{
	json_object *o = record__new(&e->hdr);

	add(o, e->src == PT_KTHREAD_SRC_TP ? "caller" : "threadfn",
	    json_kaddr(sym, e->caller, e->caller_sym, sizeof(e->caller_sym)));
	add(o, "source", json_object_new_string(
		e->src == PT_KTHREAD_SRC_TP ? "tracepoint" : "fentry"));
	add_bool(o, "fatal_signal", e->fatal_signal);
	if (e->hdr.type == PT_KTHREAD_END) {
		add_int(o, "wait_ns", e->wait_ns);
		add_int(o, "ret", e->ret);
		if (e->src == PT_KTHREAD_SRC_TP)
			add_bool(o, "oom_victim", e->oom_victim);
	}
	if (e->probe_device[0])
		add_str(o, "probe_device", e->probe_device);
	return o;
}

static json_object *state__json(const struct pt_task_state *s,
				struct symbolizer *sym)
{
	json_object *o = json_object_new_object();
	json_object *m;

	if (s->module_ns) {
		m = json_object_new_object();
		add_str(m, "name", s->module);
		add_str(m, "file", s->module_file);
		add_int(m, "for_ns", s->module_ns);
		if (s->module_init_ns)
			add_int(m, "init_for_ns", s->module_init_ns);
		add(o, "module_load", m);
	}
	if (s->probe_depth) {
		m = json_object_new_object();
		add_str(m, "driver", s->probe_driver);
		add_str(m, "device", s->probe_device);
		add_int(m, "for_ns", s->probe_ns);
		add_int(m, "nesting", s->probe_depth);
		add_bool(m, "async", s->async);
		add(o, "probe", m);
	}
	if (s->kthread_ns) {
		m = json_object_new_object();
		add_int(m, "for_ns", s->kthread_ns);
		add(m, "caller", json_kaddr(sym, s->kthread_caller, s->kthread_caller_sym,
					    sizeof(s->kthread_caller_sym)));
		add(o, "kthread_create", m);
	}
	return o;
}

const char *signal_result_name(int r)
{
	return r >= 0 && r < (int)(sizeof(signal_results) / sizeof(signal_results[0])) ?
	       signal_results[r] : "?";
}

/*
 * Frame @i's line in the kernel's printing (stack_sym), into @buf; false
 * if that half was cut short before it.
 */
static bool stack_line(const struct pt_signal *e, int i, char *buf, size_t len)
{
	const char *half = e->stack_sym[i / PT_STACK_HALF];
	/* The reserved record was not zeroed: only up to the string's end. */
	const char *p = half, *end = half + strnlen(half, PT_STACK_SYM_LEN), *nl;

	for (int k = i % PT_STACK_HALF; k > 0; k--) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			return false;
		p = nl + 1;
	}
	nl = memchr(p, '\n', end - p);
	if (!nl || nl == p || (size_t)(nl - p) >= len)
		return false;
	memcpy(buf, p, nl - p);
	buf[nl - p] = '\0';
	return true;
}

static json_object *stack__json(const struct pt_signal *e, struct symbolizer *sym)
{
	json_object *a = json_object_new_array();
	int i, n = e->stack_sz / (int)sizeof(e->stack[0]);
	char line[PT_SYM_LEN];

	for (i = 0; i < n && i < PT_STACK_MAX; i++) {
		if (!stack_line(e, i, line, sizeof(line)))
			line[0] = '\0';
		json_object_array_add(a, json_kaddr(sym, e->stack[i], line, sizeof(line)));
	}
	return a;
}

static void signal__add_common(json_object *o, int sig, int err, int code)
{
	add_int(o, "sig", sig);
	add(o, "sig_name", json_object_new_string(signal_name(sig)));
	add_int(o, "errno", err);
	add_int(o, "code", code);
}

static json_object *signal__json(const struct pt_signal *e, size_t size,
				 struct symbolizer *sym)
{
	int r = e->result;
	json_object *o, *t;

	/* A short record has neither state nor stack. */
	if (size < sizeof(*e) && (e->has_state || e->stack_sz)) {
		errno = EINVAL;
		return NULL;
	}
	o = record__new(&e->hdr);
	t = json_object_new_object();

	signal__add_common(o, e->sig, e->errno_, e->code);
	add_int(o, "group", e->group);
	add(o, "result", json_object_new_string(signal_result_name(r)));
	add_int(t, "pid", e->target_pid);
	add_int(t, "tgid", e->target_tgid);
	add_str(t, "comm", e->target_comm);
	add(o, "target", t);
	add(o, "target_state", e->has_state ?
	    state__json(&e->target_state, sym) : json_object_new_object());
	if (e->stack_sz >= 0)
		add(o, "target_stack", stack__json(e, sym));
	else
		add_int(o, "target_stack_error", e->stack_sz);
	return o;
}

static json_object *deliver__json(const struct pt_signal_deliver *e)
{
	json_object *o = record__new(&e->hdr);

	signal__add_common(o, e->sig, e->errno_, e->code);
	if (e->handler <= 1)
		add(o, "handler", json_object_new_string(
			e->handler ? "ignore" : "default"));
	else
		add(o, "handler", json_hex(e->handler));
	add(o, "sa_flags", json_hex(e->sa_flags));
	return o;
}

static json_object *exit__json(const struct pt_exit *e)
{
	json_object *o = record__new(&e->hdr);

	add_int(o, "exit_code", e->exit_code);
	add_int(o, "exit_status", (e->exit_code >> 8) & 0xff);
	add_int(o, "exit_signal", e->exit_code & 0x7f);
	add_bool(o, "leader", e->leader);
	return o;
}

static json_object *module__json(const struct pt_module *e,
				 struct symbolizer *sym)
{
	json_object *o = record__new(&e->hdr);
	uint32_t t = e->hdr.type;

	if (t != PT_MODULE_INIT)
		add(o, "syscall", json_object_new_string(
			e->syscall == PT_SYS_FINIT_MODULE ? "finit_module" :
			"init_module"));
	if (e->fd >= 0)
		add_int(o, "fd", e->fd);
	if (t != PT_MODULE_LOAD_START)
		add_str(o, "name", e->name);
	add_str(o, "file", e->file);
	if (t != PT_MODULE_LOAD_START) {
		add_span(o, e->start_ns, e->hdr.ts_ns);
		add_int(o, "ret", e->ret);
		add_bool(o, "fatal_signal", e->fatal_signal);
	}
	/* Module text comes and goes: reload kallsyms at the next lookup. */
	if (sym)
		sym->stale = 1;
	return o;
}

static json_object *init_exec__json(const struct pt_init_exec *e)
{
	json_object *o = record__new(&e->hdr);

	add_str(o, "filename", e->filename);
	return o;
}

void record__add_devnode(json_object *o, const struct pt_devnode *e)
{
	add(o, "kind", json_object_new_string(e->kind == PT_DEVNODE_NET ? "net" : "block"));
	add_str(o, "name", e->name);
	add_int(o, "ret", e->ret);
	add_str(o, "bound_driver", e->bound_driver);
	add_str(o, "bound_device", e->bound_device);
}

static json_object *devnode__json(const struct pt_devnode *e)
{
	json_object *o = record__new(&e->hdr);

	record__add_devnode(o, e);
	return o;
}

static const size_t type_sizes[PT_TYPE_MAX] = {
	[PT_PROBE_START] = sizeof(struct pt_probe),
	[PT_PROBE] = sizeof(struct pt_probe),
	[PT_KTHREAD_START] = sizeof(struct pt_kthread),
	[PT_KTHREAD_END] = sizeof(struct pt_kthread),
	[PT_SIGNAL_GENERATE] = PT_SIGNAL_SHORT,	/* the full one: below */
	[PT_SIGNAL_DELIVER] = sizeof(struct pt_signal_deliver),
	[PT_EXIT] = sizeof(struct pt_exit),
	[PT_MODULE_LOAD_START] = sizeof(struct pt_module),
	[PT_MODULE_LOAD] = sizeof(struct pt_module),
	[PT_MODULE_INIT] = sizeof(struct pt_module),
	[PT_DEVNODE] = sizeof(struct pt_devnode),
	[PT_INIT_EXEC] = sizeof(struct pt_init_exec),
};

json_object *record__from_event(const void *data, size_t size,
				struct symbolizer *sym)
{
	const struct pt_hdr *h = data;

	if (size < sizeof(*h) || !h->type || h->type >= PT_TYPE_MAX ||
	    size < type_sizes[h->type]) {
		errno = EINVAL;
		return NULL;
	}
	switch (h->type) {
	case PT_PROBE_START:
	case PT_PROBE:
		return probe__json(data, sym);
	case PT_KTHREAD_START:
	case PT_KTHREAD_END:
		return kthread__json(data, sym);
	case PT_SIGNAL_GENERATE:
		return signal__json(data, size, sym);
	case PT_SIGNAL_DELIVER:
		return deliver__json(data);
	case PT_EXIT:
		return exit__json(data);
	case PT_DEVNODE:
		return devnode__json(data);
	case PT_INIT_EXEC:
		return init_exec__json(data);
	default:
		return module__json(data, sym);
	}
}

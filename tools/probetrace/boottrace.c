// SPDX-License-Identifier: GPL-2.0
/* Pre-collector initcalls and probes from the boot-time trace buffer. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boottrace.h"
#include "output.h"
#include "record.h"

#define MAX_PENDING 64

enum span_kind { SPAN_INITCALL, SPAN_PROBE };

/* One event line of tracefs/trace. */
struct tline {
	char comm[32];
	int pid;
	uint64_t ts_ns;
	char event[64];
	const char *rest;
};

/* A start whose end has not been read yet. */
struct pending {
	enum span_kind kind;
	int pid;
	uint64_t ts_ns;
	char comm[32];
	char name[96];		/* initcall function or driver */
	char dev[64];
	char module[64];	/* a module's init: the module ("[mod]" of %pS) */
};

struct boottrace {
	struct output *out;
	struct boottrace_stats *st;
	struct boottrace_open *open;
	uint64_t attach_ns;
	bool clock_is_boot;	/* comparable with bpf_ktime_get_boot_ns() */
	struct pending pending[MAX_PENDING];
	int npending;
};

/* "  12.345678:" to ns; the fraction may have 6 or 9 digits. */
static bool parse_ts(const char *s, uint64_t *ns)
{
	uint64_t sec, frac = 0;
	int digits = 0;
	char *end;

	sec = strtoull(s, &end, 10);
	if (end == s || *end != '.')
		return false;
	for (s = end + 1; isdigit((unsigned char)*s); s++, digits++)
		if (digits < 9)
			frac = frac * 10 + (*s - '0');
	if (!digits || *s != ':')
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return true;
}

/* The "[CPU]" field: '[', digits, ']' after a blank. */
static char *find_cpu_field(char *line)
{
	char *p = line, *q;

	while ((p = strchr(p, '['))) {
		q = p + 1;
		while (isdigit((unsigned char)*q))
			q++;
		if (q > p + 1 && *q == ']' && p > line && p[-1] == ' ')
			return p;
		p++;
	}
	return NULL;
}

/* "  comm-123  [000] d..1.  1.234567: event: rest" */
static bool tline_parse(char *line, struct tline *t)
{
	char *cpu = find_cpu_field(line), *dash, *p, *tok;
	size_t len;

	if (!cpu)
		return false;
	for (p = cpu - 1; p > line && *p == ' '; p--)
		*p = '\0';
	while (*line == ' ')
		line++;
	dash = strrchr(line, '-');
	if (!dash || dash == line)
		return false;
	*dash = '\0';
	t->pid = atoi(dash + 1);
	snprintf(t->comm, sizeof(t->comm), "%s", line);
	p = strchr(cpu, ']') + 1;
	/* Flags (irq-info) may or may not be there: find the timestamp. */
	for (tok = strtok(p, " "); tok; tok = strtok(NULL, " ")) {
		if (parse_ts(tok, &t->ts_ns))
			break;
	}
	if (!tok)
		return false;
	tok = strtok(NULL, " ");
	if (!tok || (len = strlen(tok)) < 2 || tok[len - 1] != ':')
		return false;
	snprintf(t->event, sizeof(t->event), "%.*s", (int)len - 1, tok);
	t->rest = tok + len + 1;
	return true;
}

/* Value of key= up to a blank, '+' (a %pS offset) or quote. */
static void field(const char *rest, const char *key, char *buf, size_t len)
{
	const char *p = strstr(rest, key);
	size_t n = 0;

	buf[0] = '\0';
	if (!p)
		return;
	p += strlen(key);
	if (*p == '"')
		p++;
	while (p[n] && p[n] != ' ' && p[n] != '"' && p[n] != '+' &&
	       p[n] != '\n' && n + 1 < len)
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

static void boottrace__push(struct boottrace *bt, enum span_kind kind,
			    const struct tline *t)
{
	struct pending *p;

	if (bt->npending == MAX_PENDING) {
		bt->st->unparsed++;
		return;
	}
	p = &bt->pending[bt->npending++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->pid = t->pid;
	p->ts_ns = t->ts_ns;
	snprintf(p->comm, sizeof(p->comm), "%s", t->comm);
	if (kind == SPAN_INITCALL) {
		field(t->rest, "func=", p->name, sizeof(p->name));
		module_of(t->rest, p->module, sizeof(p->module));
	} else {
		field(t->rest, "drv=", p->name, sizeof(p->name));
		field(t->rest, "dev=", p->dev, sizeof(p->dev));
	}
}

/* The innermost pending start of this kind on this thread, removed. */
static bool boottrace__pop(struct boottrace *bt, enum span_kind kind, int pid,
			   struct pending *out)
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

/* The initcall running on pid, if any: a probe's origin. */
static const struct pending *boottrace__initcall_of(struct boottrace *bt,
						    int pid)
{
	int i;

	for (i = bt->npending - 1; i >= 0; i--)
		if (bt->pending[i].kind == SPAN_INITCALL &&
		    bt->pending[i].pid == pid)
			return &bt->pending[i];
	return NULL;
}

static json_object *pre_record(struct boottrace *bt, const char *type,
			       const struct pending *p, uint64_t end_ns)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "type", json_object_new_string(type));
	json_object_object_add(o, "ts_ns", json_object_new_int64(
		end_ns ? end_ns : p->ts_ns));
	json_object_object_add(o, "pre_collector", json_object_new_boolean(1));
	json_object_object_add(o, "clock", json_object_new_string(bt->st->clock));
	json_object_object_add(o, "pid", json_object_new_int64(p->pid));
	json_object_object_add(o, "comm", json_str_n(p->comm, sizeof(p->comm)));
	json_object_object_add(o, "start_ns", json_object_new_int64(p->ts_ns));
	if (end_ns) {
		json_object_object_add(o, "end_ns", json_object_new_int64(end_ns));
		json_object_object_add(o, "duration_ns",
				       json_object_new_int64(end_ns - p->ts_ns));
	}
	return o;
}

static void boottrace__write(struct boottrace *bt, json_object *o)
{
	output__write(bt->out, o);
	json_object_put(o);
	bt->st->records++;
}

static void boottrace__end(struct boottrace *bt, enum span_kind kind,
			   const struct tline *t)
{
	const struct pending *ic;
	json_object *o, *origin;
	struct pending p;
	long ret;

	if (!boottrace__pop(bt, kind, t->pid, &p)) {
		bt->st->unmatched++;
		return;
	}
	o = pre_record(bt, kind == SPAN_INITCALL ? "initcall" : "probe", &p,
		       t->ts_ns);
	ret = field_long(t->rest, "ret=");
	json_object_object_add(o, "ret", json_object_new_int64(ret));
	if (kind == SPAN_PROBE)
		json_object_object_add(o, "probe_error", json_object_new_int64(
			ret > 0 ? -ret : ret));
	if (kind == SPAN_INITCALL) {
		json_object_object_add(o, "func", json_str_n(p.name, sizeof(p.name)));
		boottrace__write(bt, o);
		return;
	}
	json_object_object_add(o, "driver", json_str_n(p.name, sizeof(p.name)));
	json_object_object_add(o, "device", json_str_n(p.dev, sizeof(p.dev)));
	origin = json_object_new_object();
	ic = boottrace__initcall_of(bt, t->pid);
	/* A module's init runs as an initcall too: that is a module load. */
	json_object_object_add(origin, "kind", json_object_new_string(
		!ic ? "other" : ic->module[0] ? "module_load" : "initcall"));
	if (ic && ic->module[0])
		json_object_object_add(origin, "module",
				       json_str_n(ic->module, sizeof(ic->module)));
	else if (ic)
		json_object_object_add(origin, "initcall",
				       json_str_n(ic->name, sizeof(ic->name)));
	json_object_object_add(o, "origin", origin);
	boottrace__write(bt, o);
}

/* The innermost probe running on pid, if any. */
static const struct pending *boottrace__probe_of(struct boottrace *bt, int pid)
{
	int i;

	for (i = bt->npending - 1; i >= 0; i--)
		if (bt->pending[i].kind == SPAN_PROBE && bt->pending[i].pid == pid)
			return &bt->pending[i];
	return NULL;
}

/* A record of one event line (not a span): header fields of the task. */
static json_object *event_record(struct boottrace *bt, const char *type,
				 const struct tline *t)
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
static void boottrace__kthread(struct boottrace *bt, const struct tline *t,
			       bool end)
{
	const struct pending *probe = boottrace__probe_of(bt, t->pid);
	json_object *o = event_record(bt, end ? "kthread_end" : "kthread_start", t);
	char caller[128];

	caller_of(t->rest, caller, sizeof(caller));
	json_object_object_add(o, "caller", json_object_new_string(caller));
	json_object_object_add(o, "source", json_object_new_string("tracepoint"));
	json_object_object_add(o, "fatal_signal", json_object_new_boolean(
		field_long(t->rest, "fatal_signal=")));
	if (probe)
		json_object_object_add(o, "probe_device",
				       json_str_n(probe->dev, sizeof(probe->dev)));
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
static void boottrace__signal(struct boottrace *bt, const struct tline *t)
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

static void boottrace__line(struct boottrace *bt, char *line)
{
	struct tline t;

	if (line[0] == '#') {
		unsigned long long in, written;
		const char *p = strstr(line, "entries-in-buffer/entries-written:");

		if (p && sscanf(p, "entries-in-buffer/entries-written: %llu/%llu",
				&in, &written) == 2 && written > in)
			bt->st->lost = written - in;
		return;
	}
	if (!tline_parse(line, &t)) {
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
		boottrace__push(bt, SPAN_INITCALL, &t);
	else if (!strcmp(t.event, "initcall_finish"))
		boottrace__end(bt, SPAN_INITCALL, &t);
	else if (!strcmp(t.event, "probe_entry"))
		boottrace__push(bt, SPAN_PROBE, &t);
	else if (!strcmp(t.event, "probe_return"))
		boottrace__end(bt, SPAN_PROBE, &t);
	else if (!strcmp(t.event, "kthread_create_start"))
		boottrace__kthread(bt, &t, false);
	else if (!strcmp(t.event, "kthread_create_end"))
		boottrace__kthread(bt, &t, true);
	else if (!strcmp(t.event, "signal_generate"))
		boottrace__signal(bt, &t);
}

/* Keep an open probe's start for the collector's record of its end. */
static void boottrace__keep_open(struct boottrace *bt, const struct pending *p)
{
	struct boottrace_open *op = bt->open;

	if (!op || p->kind != SPAN_PROBE || op->n == BOOTTRACE_MAX_OPEN)
		return;
	op->probe[op->n].pid = p->pid;
	op->probe[op->n].start_ns = p->ts_ns;
	op->probe[op->n].taken = false;
	snprintf(op->probe[op->n].driver, sizeof(op->probe[0].driver), "%s", p->name);
	snprintf(op->probe[op->n].device, sizeof(op->probe[0].device), "%s", p->dev);
	op->n++;
}

bool boottrace_open__take(struct boottrace_open *op, int pid,
			  const char *driver, const char *device,
			  uint64_t *start_ns)
{
	int i;

	for (i = 0; op && i < op->n; i++) {
		if (op->probe[i].taken || op->probe[i].pid != pid ||
		    strcmp(op->probe[i].driver, driver) ||
		    strcmp(op->probe[i].device, device))
			continue;
		op->probe[i].taken = true;
		*start_ns = op->probe[i].start_ns;
		return true;
	}
	return false;
}

/* Starts without an end: a probe still running when we attached. */
static void boottrace__flush_pending(struct boottrace *bt)
{
	json_object *o;
	int i;

	for (i = 0; i < bt->npending; i++) {
		const struct pending *p = &bt->pending[i];

		boottrace__keep_open(bt, p);
		o = pre_record(bt, p->kind == SPAN_INITCALL ? "initcall_start" :
			       "probe_start", p, 0);
		json_object_object_add(o, p->kind == SPAN_INITCALL ? "func" :
				       "driver", json_str_n(p->name, sizeof(p->name)));
		if (p->kind == SPAN_PROBE)
			json_object_object_add(o, "device",
					       json_str_n(p->dev, sizeof(p->dev)));
		boottrace__write(bt, o);
		bt->st->unmatched++;
	}
	bt->npending = 0;
}

/* The bracketed name of tracefs/trace_clock: "[boot] local ..." */
static void read_clock(const char *tracefs, char *clock, size_t len)
{
	char path[512], buf[256], *open_, *close_;
	FILE *f;

	snprintf(clock, len, "unknown");
	snprintf(path, sizeof(path), "%s/trace_clock", tracefs);
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) && (open_ = strchr(buf, '[')) &&
	    (close_ = strchr(open_, ']')))
		snprintf(clock, len, "%.*s", (int)(close_ - open_ - 1), open_ + 1);
	fclose(f);
}

static void disable_boot_kprobes(const char *tracefs)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/events/bootprobe/enable", tracefs);
	f = fopen(path, "we");
	if (!f)
		return;
	fputs("0\n", f);
	fclose(f);
}

int boottrace__emit(const char *tracefs, uint64_t attach_ns, bool disable,
		    struct output *out, struct boottrace_stats *st,
		    struct boottrace_open *open)
{
	struct boottrace bt = { .out = out, .st = st, .open = open,
				.attach_ns = attach_ns };
	bool sigchld = st->sigchld;
	char path[512], *line = NULL;
	size_t cap = 0;
	FILE *f;


	memset(st, 0, sizeof(*st));
	st->sigchld = sigchld;
	if (open)
		open->n = 0;
	read_clock(tracefs, st->clock, sizeof(st->clock));
	bt.clock_is_boot = !strcmp(st->clock, "boot");
	if (disable)
		disable_boot_kprobes(tracefs);
	snprintf(path, sizeof(path), "%s/trace", tracefs);
	f = fopen(path, "re");
	if (!f) {
		st->err = -errno;
		return st->err;
	}
	while (getline(&line, &cap, f) > 0)
		boottrace__line(&bt, line);
	free(line);
	fclose(f);
	boottrace__flush_pending(&bt);
	return 0;
}

json_object *boottrace__stats_json(const struct boottrace_stats *st,
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
	json_object_object_add(o, "sigchld_filtered",
			       json_object_new_int64(st->sigchld_filtered));
	json_object_object_add(o, "lost_entries", json_object_new_int64(st->lost));
	return o;
}

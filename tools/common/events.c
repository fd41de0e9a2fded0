// SPDX-License-Identifier: GPL-2.0
/* The one reader of a probetrace event stream: docs/events.md's rules, here only. */
#define _GNU_SOURCE
#include "events.h"
#include "jsonio.h"
#include "util.h"

#include <errno.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static const char *const type_names[EVENT_TYPE_MAX] = {
	[EVENT_PROBE_START] = "probe_start",
	[EVENT_PROBE] = "probe",
	[EVENT_KTHREAD_START] = "kthread_start",
	[EVENT_KTHREAD_END] = "kthread_end",
	[EVENT_SIGNAL_GENERATE] = "signal_generate",
	[EVENT_SIGNAL_DELIVER] = "signal_deliver",
	[EVENT_EXIT] = "exit",
	[EVENT_MODULE_LOAD_START] = "module_load_start",
	[EVENT_MODULE_LOAD] = "module_load",
	[EVENT_MODULE_INIT] = "module_init",
	[EVENT_DEVNODE] = "devnode",
	[EVENT_INIT_EXEC] = "init_exec",
	[EVENT_HEADER] = "header",
	[EVENT_TRAILER] = "trailer",
	[EVENT_ATTACHMENT] = "attachment",
	[EVENT_INITCALL] = "initcall",
	[EVENT_INITCALL_START] = "initcall_start",
};

const char *event_type__name(unsigned int type)
{
	return type < EVENT_TYPE_MAX ? type_names[type] : NULL;
}

enum event_type event_type__of(const char *name, size_t len)
{
	for (int t = EVENT_UNKNOWN + 1; t < EVENT_TYPE_MAX; t++)
		if (strlen(type_names[t]) == len && !memcmp(type_names[t], name, len))
			return t;
	return EVENT_UNKNOWN;
}

/*
 * The latest time a record may hold: a day after boot.  Guest clocks start
 * at 0 and the slowest boot bootprobe runs (2014's real times) takes an
 * hour; INT64-sized times would turn sums and medians into nonsense.
 */
#define MAX_EVENT_NS (86400LL * 1000000000)
/* PID_MAX_LIMIT (include/linux/threads.h, 64-bit). */
#define MAX_PID (4LL * 1024 * 1024)
/* _NSIG on x86. */
#define MAX_SIG 64
/* An attachment's name becomes a file name on the host: short, plain. */
#define MAX_ATTACHMENT_NAME 64

/*
 * The type each field the analysis reads must have, wherever it stands,
 * and for integers the range it must lie in.
 */
static const struct {
	const char *key;
	enum json_type type;
	long long min, max;
} field_types[] = {
	{ "ts_ns", json_type_int, 0, MAX_EVENT_NS },
	{ "start_ns", json_type_int, 0, MAX_EVENT_NS },
	{ "end_ns", json_type_int, 0, MAX_EVENT_NS },
	{ "wait_ns", json_type_int, 0, MAX_EVENT_NS },
	{ "for_ns", json_type_int, 0, MAX_EVENT_NS },
	{ "duration_ns", json_type_int, 0, MAX_EVENT_NS },
	{ "pid", json_type_int, 0, MAX_PID }, { "tgid", json_type_int, 0, MAX_PID },
	{ "sig", json_type_int, 1, MAX_SIG },
	{ "ret", json_type_int, INT32_MIN, INT32_MAX },
	{ "probe_error", json_type_int, -4095, 0 },
	{ "schema", json_type_int, 0, INT32_MAX },
	/* Counts: at most half of INT64_MAX, so that a sum of two is an int64. */
	{ "bpf_drops", json_type_int, 0, INT64_MAX / 2 },
	{ "events_dropped", json_type_int, 0, INT64_MAX / 2 },
	{ "events_written", json_type_int, 0, INT64_MAX / 2 },
	/* The trailer's boot_trace losses: a sum of three stays an int64. */
	{ "lost_entries", json_type_int, 0, INT64_MAX / 8 },
	{ "kprobe_missed", json_type_int, 0, INT64_MAX / 8 },
	{ "starts_dropped", json_type_int, 0, INT64_MAX / 8 },
	{ "lost", json_type_int, 0, INT64_MAX / 8 },
	/* The trailer's boot_trace refusals: added to the reader's own (an int). */
	{ "records_refused", json_type_int, 0, INT32_MAX / 2 },
	{ "async", json_type_boolean, 0, 0 }, { "pre_collector", json_type_boolean, 0, 0 },
	{ "fatal_signal", json_type_boolean, 0, 0 }, { "truncated", json_type_boolean, 0, 0 },
	{ "type", json_type_string, 0, 0 }, { "driver", json_type_string, 0, 0 },
	{ "device", json_type_string, 0, 0 }, { "comm", json_type_string, 0, 0 },
	{ "name", json_type_string, 0, 0 }, { "kind", json_type_string, 0, 0 },
	/*
	 * A signal's state at the kill, which the analysis counts the keys
	 * of; no other record has a field of that name.  (Not "probe" or
	 * "module_load": the trailer counts records by those names.)
	 */
	{ "target_state", json_type_object, 0, 0 },
};

static void say(struct events_reader *r, bool damage, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FILE:LINE: what" to the caller; a refused record is counted. */
static void say(struct events_reader *r, bool damage, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	r->rejected += damage;
	if (r->ops->problem)
		r->ops->problem(r->ctx, damage, msg);
	free(msg);
}

/* One field against field_types[]: false after refusing the record. */
static bool field_typed(struct events_reader *r, const char *key, struct json_object *v)
{
	for (size_t i = 0; i < sizeof(field_types) / sizeof(field_types[0]); i++) {
		long long n;

		if (strcmp(key, field_types[i].key) || !v)
			continue;
		if (!json_object_is_type(v, field_types[i].type)) {
			say(r, true, "%s:%d: field '%s' is %s, want %s (record skipped)", r->label,
			    r->line, key, json_type_to_name(json_object_get_type(v)),
			    json_type_to_name(field_types[i].type));
			return false;
		}
		n = field_types[i].type == json_type_int ? json_object_get_int64(v) : 0;
		if (field_types[i].type == json_type_int &&
		    (n < field_types[i].min || n > field_types[i].max)) {
			say(r, true, "%s:%d: field '%s' is %lld, outside %lld..%lld (record skipped)",
			    r->label, r->line, key, n, field_types[i].min, field_types[i].max);
			return false;
		}
	}
	return true;
}

/*
 * A field of the wrong type ("pid":"152", "async":"false") would be read
 * as something else and tied to the wrong event, a number out of its range
 * would overflow what is computed from it: the record is refused, named at
 * its line.  Nested objects (origin, target) are checked too.
 */
static bool record_typed(struct events_reader *r, struct json_object *o, int depth)
{
	json_object_object_foreach(o, key, v) {
		if (v && json_object_is_type(v, json_type_object) && depth < 2) {
			if (!record_typed(r, v, depth + 1))
				return false;
			continue;
		}
		if (!field_typed(r, key, v))
			return false;
	}
	/* A span ends after it starts. */
	if (jhas_int(o, "start_ns") && jhas_int(o, "end_ns") &&
	    jint(o, "end_ns", 0) < jint(o, "start_ns", 0)) {
		say(r, true, "%s:%d: end_ns before start_ns (record skipped)", r->label, r->line);
		return false;
	}
	return true;
}

static bool attachment_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= MAX_ATTACHMENT_NAME || s[0] == '.')
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/* What a record of type @t must hold beyond its fields' types; false after refusing it. */
static bool record_complete(struct events_reader *r, struct json_object *o, enum event_type t)
{
	struct json_object *text = jget(o, "text");
	const char *kind = jstr(o, "kind");

	switch (t) {
	case EVENT_DEVNODE:
		if ((strcmp(kind, "block") && strcmp(kind, "net")) || !*jstr(o, "name") ||
		    !jhas_int(o, "ts_ns")) {
			say(r, true, "%s:%d: devnode without kind, name or time (skipped)", r->label,
			    r->line);
			return false;
		}
		return true;
	case EVENT_INIT_EXEC:
		if (!jhas_int(o, "ts_ns")) {
			say(r, true, "%s:%d: init_exec without a time (skipped)", r->label, r->line);
			return false;
		}
		return true;
	case EVENT_ATTACHMENT:
		if (!attachment_name_ok(jstr(o, "name")) || !text ||
		    !json_object_is_type(text, json_type_string)) {
			say(r, true, "%s:%d: attachment without a valid name and text (skipped)",
			    r->label, r->line);
			return false;
		}
		return true;
	default:
		return true;
	}
}

/* Where @t may stand: one header, one trailer, nothing after the trailer. */
static bool record_placed(struct events_reader *r, struct json_object *o, enum event_type t)
{
	/* The trailer is the last record: the collector wrote nothing after it. */
	if (r->trailer && t != EVENT_TRAILER) {
		say(r, true, "%s:%d: a record after the trailer (skipped)", r->label, r->line);
		return false;
	}
	if (t == EVENT_TRAILER && r->trailer) {
		say(r, true, "%s:%d: a second trailer (ignored: the first one counts)", r->label,
		    r->line);
		return false;
	}
	if (t == EVENT_HEADER && r->header) {
		say(r, true, "%s:%d: a second header (ignored)", r->label, r->line);
		return false;
	}
	return true;
}

/* The type @o says it is, into r->type (-1: no type string), before it is judged. */
static void record_type(struct events_reader *r, struct json_object *o)
{
	struct json_object *v = jget(o, "type");
	const char *name;

	if (!v || !json_object_is_type(v, json_type_string) || !json_object_get_string_len(v))
		return;
	name = json_object_get_string(v);
	r->type = event_type__of(name, json_object_get_string_len(v));
}

static void record(struct events_reader *r, struct json_object *o)
{
	const char *name;
	enum event_type t;

	record_type(r, o);
	if (!record_typed(r, o, 0))
		return;
	name = jstr(o, "type");
	t = r->type < 0 ? EVENT_UNKNOWN : (enum event_type)r->type;
	if (!record_placed(r, o, t) || !record_complete(r, o, t))
		return;
	if (t == EVENT_UNKNOWN && !*name) {
		say(r, true, "%s:%d: record without a type", r->label, r->line);
		return;
	}
	if (t == EVENT_UNKNOWN && !r->unknown++)
		say(r, false, "%s:%d: unknown record type '%.40s' (ignored; later ones counted)",
		    r->label, r->line, name);
	if (t == EVENT_HEADER) {
		r->header = true;
		r->schema = jint(o, "schema", 0);
		if (r->schema != EVENTS_SCHEMA)
			say(r, false, "%s:%d: schema %lld, this bootprobe reads schema %d", r->label,
			    r->line, (long long)r->schema, EVENTS_SCHEMA);
	}
	r->trailer |= t == EVENT_TRAILER;
	r->records++;
	r->ops->record(r->ctx, o, t, r->line);
}

void events_reader__line(struct events_reader *r, const char *line, size_t len, bool ended)
{
	struct json_object *o;

	r->line++;
	r->type = -1;
	if (memchr(line, '\0', len)) {
		say(r, true, "%s:%d: NUL byte (line skipped)", r->label, r->line);
		return;
	}
	/* Blank lines. */
	if (strspn(line, " \r") >= len)
		return;
	json_tokener_reset(r->tok);
	o = len <= INT_MAX ? json_tokener_parse_ex(r->tok, line, (int)len) : NULL;
	if (!o || json_tokener_get_error(r->tok) != json_tokener_success ||
	    json_tokener_get_parse_end(r->tok) != len) {
		/*
		 * A last line cut short is a stream cut short (QEMU stopped):
		 * a loss, like the missing trailer, not damage.
		 */
		if (ended) {
			say(r, true, "%s:%d: not a JSON object (skipped)", r->label, r->line);
		} else {
			r->cut = true;
			say(r, false, "%s:%d: truncated last line (skipped)", r->label, r->line);
		}
	} else if (!json_object_is_type(o, json_type_object)) {
		say(r, true, "%s:%d: not a JSON object (skipped)", r->label, r->line);
	} else {
		/* An attachment's text is lines (systemd-analyze's output). */
		jscrub(o, !strcmp(jstr(o, "type"), "attachment"));
		record(r, o);
	}
	json_object_put(o);
}

void events_reader__text(struct events_reader *r, const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end && !r->stop) {
		const char *nl = memchr(p, '\n', end - p);

		events_reader__line(r, p, nl ? (size_t)(nl - p) : (size_t)(end - p), nl);
		p = nl ? nl + 1 : end;
	}
}

int events_reader__file(struct events_reader *r, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int err = 0;

	while (!r->stop && (len = getline(&line, &cap, f)) > 0) {
		bool ended = line[len - 1] == '\n';

		events_reader__line(r, line, len - ended, ended);
	}
	if (ferror(f))
		err = -EIO;
	free(line);
	return err;
}

void events_reader__finish(struct events_reader *r)
{
	if (!r->header)
		say(r, false, "%s: no header record", r->label);
	if (!r->trailer)
		say(r, false, "%s: no trailer record: the stream is truncated (the collector did "
		    "not finish)", r->label);
}

int events_reader__init(struct events_reader *r, const char *label,
			const struct events_ops *ops, void *ctx)
{
	memset(r, 0, sizeof(*r));
	r->label = label;
	r->ops = ops;
	r->ctx = ctx;
	r->schema = -1;
	r->type = -1;
	r->tok = json_tokener_new();
	return r->tok ? 0 : -ENOMEM;
}

void events_reader__free(struct events_reader *r)
{
	if (r->tok)
		json_tokener_free(r->tok);
	r->tok = NULL;
}

bool events_reader__whole(const struct events_reader *r)
{
	return r->header && r->trailer && !r->rejected && !r->cut;
}

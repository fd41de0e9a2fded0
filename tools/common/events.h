/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one reader of a probetrace event stream (docs/events.md), shared by
 * bootprobe (a boot's events.jsonl) and probetrace --input: one set of
 * rules, docs/events.md's "What bootprobe accepts".  A record the rules
 * refuse is named at FILE:LINE and counted as damage; a stream cut short
 * (no trailer, a last line cut) is a loss; every other record reaches the
 * caller, its strings scrubbed of control bytes.
 */
#ifndef BOOTPROBE_EVENTS_H
#define BOOTPROBE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct json_object;
struct json_tokener;

#define EVENTS_SCHEMA 1

/* Record types, one name each (event_type__name()). */
enum event_type {
	EVENT_UNKNOWN = 0,
	/* The records made from BPF events: the numbers of enum pt_type (bpf/probetrace.h). */
	EVENT_PROBE_START = 1,
	EVENT_PROBE,
	EVENT_KTHREAD_START,
	EVENT_KTHREAD_END,
	EVENT_SIGNAL_GENERATE,
	EVENT_SIGNAL_DELIVER,
	EVENT_EXIT,
	EVENT_MODULE_LOAD_START,
	EVENT_MODULE_LOAD,
	EVENT_MODULE_INIT,
	EVENT_DEVNODE,
	EVENT_INIT_EXEC,
	EVENT_BPF_MAX,
	/* The collector's own, and the pre-collector records from the boot-time trace. */
	EVENT_HEADER = EVENT_BPF_MAX,
	EVENT_TRAILER,
	EVENT_ATTACHMENT,
	EVENT_INITCALL,
	EVENT_INITCALL_START,
	EVENT_TYPE_MAX,
};

/* The record type's name in the stream; NULL for EVENT_UNKNOWN or out of range. */
const char *event_type__name(unsigned int type);
/* The type named by @len bytes at @name; EVENT_UNKNOWN if none. */
enum event_type event_type__of(const char *name, size_t len);

struct events_ops {
	/* An accepted record, of its type (EVENT_UNKNOWN: a type this reader does not know). */
	void (*record)(void *ctx, struct json_object *r, enum event_type type, int line);
	/* "FILE:LINE: what": a refused record when @damage, else a loss or a note. */
	void (*problem)(void *ctx, bool damage, const char *msg);
};

struct events_reader {
	const char *label;		/* the file, in every message */
	const struct events_ops *ops;
	void *ctx;
	struct json_tokener *tok;
	int line;			/* lines read */
	/*
	 * The record on the current line: its type (EVENT_UNKNOWN, a type not
	 * known here), or -1 while none can be read (not a JSON object, no
	 * type string).  A problem() callback reads it to tell what a refused
	 * record was.
	 */
	int type;
	bool header, trailer;		/* the first of each, accepted */
	bool cut;			/* the last line was cut short */
	bool stop;			/* set by a callback: read no further line */
	int64_t schema;			/* the header's (0 if it says none), -1 without a header */
	uint64_t records;		/* accepted */
	uint64_t rejected;		/* refused: the stream is damaged */
	uint64_t unknown;		/* accepted, of a type not known here */
};

/* 0, or -ENOMEM. */
int events_reader__init(struct events_reader *r, const char *label,
			const struct events_ops *ops, void *ctx);
/*
 * One line (without its '\n'; it may hold NUL bytes).  @ended: a newline
 * followed it (a last line without one, if it does not parse, was cut short).
 */
void events_reader__line(struct events_reader *r, const char *line, size_t len, bool ended);
/* Every line of @len bytes of text. */
void events_reader__text(struct events_reader *r, const char *text, size_t len);
/* Every line of @f; 0, or -errno of a read error. */
int events_reader__file(struct events_reader *r, FILE *f);
/* The end of the stream: says what it lacks (a header, a trailer). */
void events_reader__finish(struct events_reader *r);
void events_reader__free(struct events_reader *r);
/* Whole and undamaged: a header, a trailer, nothing refused or cut. */
bool events_reader__whole(const struct events_reader *r);

#endif

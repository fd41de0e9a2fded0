/* SPDX-License-Identifier: GPL-2.0 */
/*
 * probetrace records: BPF events turned into JSON objects, one per line of
 * the JSON Lines stream (docs/events.md is the schema).
 */
#ifndef PROBETRACE_RECORD_H
#define PROBETRACE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

struct pt_devnode;

#define PT_SCHEMA_VERSION 1

struct ksyms;

/* Symbol lookups for stacks and call sites, reloaded when modules load. */
struct symbolizer {
	const char *path;	/* /proc/kallsyms */
	int fd;			/* path opened at start, or -1: read through it */
	struct ksyms *ks;
	int err;		/* -errno of the last load, 0 if loaded */
	int stale;		/* a module was loaded since the last load */
	uint64_t loaded_ns;	/* CLOCK_MONOTONIC of the last load */
	uint64_t loads;		/* kallsyms reads, and the time they took: */
	uint64_t load_total_ns;	/* never at start-up, only for a stack */
};

/*
 * The JSON record of one ring buffer sample; NULL with errno EINVAL when
 * the sample is too short for its type or of an unknown type.
 */
json_object *record__from_event(const void *data, size_t size,
				struct symbolizer *sym);
/*
 * Into @o: a devnode's own fields (kind, name, ret, bound_driver,
 * bound_device), for a record of the boot-time trace as for a sample's.
 */
void record__add_devnode(json_object *o, const struct pt_devnode *e);
/* The record type name of enum pt_type, NULL if unknown. */
const char *record__type_name(uint32_t type);

/* A JSON string of n bytes (at most max for json_str_n), made valid UTF-8 ('?' for bad bytes). */
json_object *json_str_len(const char *s, size_t n);
json_object *json_str_n(const char *s, size_t max);
/* "0x..." for an address. */
json_object *json_hex(uint64_t v);
const char *signal_name(int sig);
/* TRACE_SIGNAL_* as a string: "delivered", "ignored", ... or "?". */
const char *signal_result_name(int result);

void symbolizer__free(struct symbolizer *sym);

#endif

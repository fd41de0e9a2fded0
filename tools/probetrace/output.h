/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where records go: JSON Lines, binary frames (frame.h) or a human-readable
 * table.  JSON Lines and frames are
 * gathered in a buffer and written by output__flush() in one write(2) per
 * batch (a write per record to a virtio port cost ~50 us of a TCG guest's
 * one CPU); a batch is written whole or all its records counted lost.
 */
#ifndef PROBETRACE_OUTPUT_H
#define PROBETRACE_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>
#include <linux/types.h>

#include "probetrace.h"

struct output {
	int fd;			/* JSON Lines */
	FILE *table;		/* table mode, else NULL */
	bool own_fd;
	uint64_t written;	/* records written whole */
	uint64_t failed;	/* records lost to write errors */
	char *buf;		/* JSON Lines not written yet, */
	size_t len, cap;	/* their bytes and the buffer's, */
	uint64_t pending;	/* and how many records they are */
	int last_err;		/* -errno of the last write error */
	bool binary;		/* frames (frame.h), not JSON Lines */
	uint64_t samples_by_type[PT_TYPE_MAX];	/* samples buffered per type */
	json_object *by_type;	/* written records per type */
};

/* path NULL or "-": stdout.  table: 1 table, 0 JSON, -1 table on a tty. */
int output__open(struct output *out, const char *path, int table);
/* Into the buffer (a table row: printed); 0 or -errno, counted if lost. */
int output__write(struct output *out, json_object *rec);
/* A ring buffer sample as it came, framed (binary output only); 0 or -errno. */
int output__write_sample(struct output *out, const void *data, size_t size);
/* Records written per type, {"probe": N, ...}; owned by @out. */
json_object *output__by_type(struct output *out);
/* Write the buffered records; 0, or -errno with all of them counted lost. */
int output__flush(struct output *out);
/* Bytes buffered: flush when past OUTPUT_BATCH. */
static inline size_t output__pending_bytes(const struct output *out)
{
	return out->len;
}
#define OUTPUT_BATCH	(64 * 1024)
/* Flushes, then closes. */
void output__close(struct output *out);

/* One table row (and, for kills, the victim's stack below it). */
void table__print(FILE *f, json_object *rec);
void table__print_heading(FILE *f);

#endif

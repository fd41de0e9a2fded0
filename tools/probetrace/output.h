/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where records go: JSON Lines (one write(2) per record, so a record is
 * either written whole or counted as dropped) or a human-readable table.
 */
#ifndef PROBETRACE_OUTPUT_H
#define PROBETRACE_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

struct output {
	int fd;			/* JSON Lines */
	FILE *table;		/* table mode, else NULL */
	bool own_fd;
	uint64_t written;	/* records written whole */
	uint64_t failed;	/* records lost to write errors */
	int last_err;		/* -errno of the last write error */
	json_object *by_type;	/* written records per type */
};

/* path NULL or "-": stdout.  table: 1 table, 0 JSON, -1 table on a tty. */
int output__open(struct output *out, const char *path, int table);
/* 0 or -errno; the record is counted either way. */
int output__write(struct output *out, json_object *rec);
void output__close(struct output *out);

/* One table row (and, for kills, the victim's stack below it). */
void table__print(FILE *f, json_object *rec);
void table__print_heading(FILE *f);

#endif

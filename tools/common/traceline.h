/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One event line of tracefs's trace or trace_pipe, the one scanner of that
 * syntax (the collector's boot-time trace, the guest's clockcheck):
 *   "  comm-123  [000] d..1.  1.234567: event: rest"
 */
#ifndef BOOTPROBE_TRACELINE_H
#define BOOTPROBE_TRACELINE_H

#include <stdbool.h>
#include <stdint.h>

struct traceline {
	char comm[32];
	int pid;
	uint64_t ts_ns;		/* the trace clock's time, 6 or 9 digits */
	char event[64];
	const char *rest;	/* what follows "event: " ("" if nothing) */
};

/* Parse @line (modified: fields are cut in place).  False if no event line. */
bool traceline__parse(char *line, struct traceline *t);

/* "12.345678:" to ns; false if @s is not a timestamp field. */
bool traceline__ts(const char *s, uint64_t *ns);

#endif

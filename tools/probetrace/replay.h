/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read a recorded probetrace stream back (host side) by the rules bootprobe
 * reads it with (tools/common/events.h, docs/events.md "What bootprobe
 * accepts"): a refused record, a truncated or corrupted stream is reported,
 * never a crash.
 */
#ifndef PROBETRACE_REPLAY_H
#define PROBETRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

struct output;

struct replay_stats {
	uint64_t lines;
	uint64_t records;	/* accepted records written to the output */
	uint64_t malformed;	/* records refused (damage) */
	bool header;		/* a header record */
	bool trailer;		/* a trailer record, nothing accepted after it */
	int64_t schema;		/* the header's schema version, -1 if none */
};

/*
 * Returns 0 when the stream is whole (a header, a trailer last, nothing
 * refused or cut), 1 when it is truncated or has refused records, -errno
 * when the file cannot be read.  `probetrace --input` exits 0, 2 and 1.
 */
int replay__run(const char *path, struct output *out, struct replay_stats *st);

#endif

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Read a recorded probetrace stream back (host side): every line is parsed
 * and checked; a truncated or corrupted stream is reported, never a crash.
 */
#ifndef PROBETRACE_REPLAY_H
#define PROBETRACE_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

struct output;

struct replay_stats {
	uint64_t lines;
	uint64_t records;	/* valid records written to the output */
	uint64_t malformed;	/* lines that are not a JSON object with a type */
	bool header;		/* a header record, first */
	bool trailer;		/* a trailer record, last */
	int64_t schema;		/* the header's schema version, -1 if none */
};

/*
 * Returns 0 when the stream is whole (header first, trailer last, every
 * line valid), 1 when it is truncated or has malformed lines, -errno when
 * the file cannot be read.  `probetrace --input` exits 0, 2 and 1.
 */
int replay__run(const char *path, struct output *out, struct replay_stats *st);

#endif

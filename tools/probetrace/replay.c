// SPDX-License-Identifier: GPL-2.0
/*
 * Read a recorded probetrace stream back through the reader bootprobe uses
 * (tools/common/events.c), so that a stream is judged here by the rules the
 * reports read it with.  A binary stream (probetrace --binary) is decoded
 * into the same JSON lines first (frame.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "events.h"
#include "frame.h"
#include "output.h"
#include "replay.h"
#include "util.h"

/* Every accepted record goes to the output, of a known type or not. */
static void replay__record(void *ctx, json_object *o, enum event_type type, int line)
{
	output__write(ctx, o);
}

static void replay__problem(void *ctx, bool damage, const char *msg)
{
	fprintf(stderr, "%s\n", msg);
}

static const struct events_ops replay_ops = {
	.record = replay__record,
	.problem = replay__problem,
};

/* All of @f (stdin) into memory, up to READ_FILE_MAX; NULL with errno set. */
static char *read_all(FILE *f, size_t *len)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap), *more;

	while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n < cap)
			continue;
		if (cap >= READ_FILE_MAX) {
			free(buf);
			errno = EFBIG;
			return NULL;
		}
		more = realloc(buf, cap * 2);
		if (!more)
			free(buf);
		buf = more;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

static void replay__line(void *ctx, const char *s, size_t n)
{
	events_reader__line(ctx, s, n, true);
}

/* The frames of a binary stream through the reader; false if any was damaged. */
static bool replay__frames(struct events_reader *r, const char *buf, size_t len,
			   const char *path)
{
	struct frame_stats fs;

	if (frame__decode(buf, len, replay__line, r, &fs)) {
		fprintf(stderr, "%s: out of memory\n", path);
		return false;
	}
	if (fs.refused || fs.skipped_bytes || fs.cut_bytes)
		fprintf(stderr, "%s: %llu frames refused, %llu bytes between frames skipped, "
			"%llu bytes of a last frame cut short\n", path,
			(unsigned long long)fs.refused,
			(unsigned long long)fs.skipped_bytes,
			(unsigned long long)fs.cut_bytes);
	return !fs.refused && !fs.skipped_bytes && !fs.cut_bytes;
}

int replay__run(const char *path, struct output *out, struct replay_stats *st)
{
	struct events_reader r;
	bool whole, frames_ok = true;
	size_t len = 0;
	char *buf;
	int err;

	memset(st, 0, sizeof(*st));
	st->schema = -1;
	buf = strcmp(path, "-") ? read_file(path, &len) : read_all(stdin, &len);
	if (!buf)
		return -errno;
	err = events_reader__init(&r, path, &replay_ops, out);
	if (err) {
		free(buf);
		return err;
	}
	if (frame__is_stream(buf, len))
		frames_ok = replay__frames(&r, buf, len, path);
	else
		events_reader__text(&r, buf, len);
	free(buf);
	events_reader__finish(&r);
	st->lines = r.line;
	st->records = r.records;
	st->malformed = r.rejected;
	st->header = r.header;
	st->trailer = r.trailer;
	st->schema = r.header ? r.schema : -1;
	whole = events_reader__whole(&r) && frames_ok;
	events_reader__free(&r);
	return whole ? 0 : 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Read a JSON Lines stream of probetrace records back through the reader
 * bootprobe uses (tools/common/events.c), so that a stream is judged here
 * by the rules the reports read it with.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

#include "events.h"
#include "output.h"
#include "replay.h"

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

int replay__run(const char *path, struct output *out, struct replay_stats *st)
{
	struct events_reader r;
	bool whole;
	FILE *f;
	int err;

	memset(st, 0, sizeof(*st));
	st->schema = -1;
	err = events_reader__init(&r, path, &replay_ops, out);
	if (err)
		return err;
	f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f) {
		err = -errno;
		events_reader__free(&r);
		return err;
	}
	err = events_reader__file(&r, f);
	if (f != stdin)
		fclose(f);
	if (!err)
		events_reader__finish(&r);
	st->lines = r.line;
	st->records = r.records;
	st->malformed = r.rejected;
	st->header = r.header;
	st->trailer = r.trailer;
	st->schema = r.header ? r.schema : -1;
	whole = events_reader__whole(&r);
	events_reader__free(&r);
	if (err)
		return err;
	return whole ? 0 : 1;
}

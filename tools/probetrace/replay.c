// SPDX-License-Identifier: GPL-2.0
/* Read a JSON Lines stream of probetrace records back, defensively. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "output.h"
#include "record.h"
#include "replay.h"

/* The record of one line, or NULL with why in *why. */
static json_object *replay__parse(json_tokener *tok, const char *line,
				  size_t len, const char **why)
{
	json_object *o, *type;

	json_tokener_reset(tok);
	o = json_tokener_parse_ex(tok, line, (int)len);
	if (!o) {
		*why = json_tokener_get_error(tok) == json_tokener_continue ?
		       "truncated JSON" :
		       json_tokener_error_desc(json_tokener_get_error(tok));
		return NULL;
	}
	if (json_tokener_get_parse_end(tok) != len) {
		*why = "data after the JSON object";
	} else if (!json_object_is_type(o, json_type_object)) {
		*why = "not a JSON object";
	} else if (!json_object_object_get_ex(o, "type", &type) ||
		   !json_object_is_type(type, json_type_string)) {
		*why = "no \"type\" string";
	} else {
		return o;
	}
	json_object_put(o);
	return NULL;
}

static const char *record_type(json_object *o)
{
	json_object *t;

	json_object_object_get_ex(o, "type", &t);
	return json_object_get_string(t);
}

static void replay__record(struct replay_stats *st, json_object *o,
			   struct output *out)
{
	const char *type = record_type(o);
	json_object *v;

	if (!strcmp(type, "header") && st->records == 0) {
		st->header = true;
		if (json_object_object_get_ex(o, "schema", &v))
			st->schema = json_object_get_int64(v);
	}
	/* A trailer counts only when nothing follows it. */
	st->trailer = !strcmp(type, "trailer");
	output__write(out, o);
	st->records++;
}

int replay__run(const char *path, struct output *out, struct replay_stats *st)
{
	json_tokener *tok = json_tokener_new();
	const char *why = NULL;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	json_object *o;
	FILE *f;

	memset(st, 0, sizeof(*st));
	st->schema = -1;
	if (!tok)
		return -ENOMEM;
	f = strcmp(path, "-") ? fopen(path, "re") : stdin;
	if (!f) {
		json_tokener_free(tok);
		return -errno;
	}
	while ((len = getline(&line, &cap, f)) > 0) {
		st->lines++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (!len)
			continue;
		o = replay__parse(tok, line, (size_t)len, &why);
		if (!o) {
			st->malformed++;
			fprintf(stderr, "%s:%" PRIu64 ": malformed record: %s\n",
				path, st->lines, why);
			continue;
		}
		replay__record(st, o, out);
		json_object_put(o);
	}
	free(line);
	if (f != stdin)
		fclose(f);
	json_tokener_free(tok);
	if (!st->header)
		fprintf(stderr, "%s: no header record first\n", path);
	if (!st->trailer)
		fprintf(stderr, "%s: no trailer record last: stream truncated\n",
			path);
	return st->malformed || !st->header || !st->trailer ? 1 : 0;
}

// SPDX-License-Identifier: GPL-2.0
#include "jsonio.h"
#include "util.h"
#include "fsat.h"
#include "text.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

struct json_object *jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	return o && json_object_is_type(o, json_type_object) &&
	       json_object_object_get_ex(o, key, &v) ? v : NULL;
}

const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "";
}

bool jhas_int(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_is_type(v, json_type_int);
}

int64_t jint(struct json_object *o, const char *key, int64_t dflt)
{
	return jhas_int(o, key) ? json_object_get_int64(jget(o, key)) : dflt;
}

long jlong(struct json_object *o, const char *key, long min, long max)
{
	long x;

	if (!jhas_int(o, key))
		return -1;
	x = (long)json_object_get_int64(jget(o, key));
	return x < min || x > max ? -1 : x;
}

bool jbool(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_get_boolean(v);
}

struct json_object *jarr(struct json_object *o, const char *key)
{
	struct json_object *v = jget(o, key);

	return v && json_object_is_type(v, json_type_array) ? v : NULL;
}

size_t jlen(struct json_object *a)
{
	return a ? json_object_array_length(a) : 0;
}

double jseconds(struct json_object *o, const char *key, double min, double max)
{
	struct json_object *v = jget(o, key);
	double d;

	if (!v || !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	d = json_object_get_double(v);
	return isfinite(d) && d >= min && d <= max ? d : NAN;
}

struct json_object *jdouble(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

struct json_object *jnum(double v)
{
	char buf[32];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.6g", v);
	return json_object_new_double_s(v, buf);
}

void jscrub(struct json_object *o, bool keep_lines)
{
	size_t len;
	char *s;

	switch (o ? json_object_get_type(o) : json_type_null) {
	case json_type_string:
		len = (size_t)json_object_get_string_len(o);
		if (text_is_clean(json_object_get_string(o), len, keep_lines))
			break;
		s = text_clean(json_object_get_string(o), len, keep_lines, NULL);
		json_object_set_string(o, s);
		free(s);
		break;
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++)
			jscrub(json_object_array_get_idx(o, i), keep_lines);
		break;
	case json_type_object: {
		/* Keys are only looked up, never shown: they stay as they are. */
		json_object_object_foreach(o, key, val) {
			(void)key;
			jscrub(val, keep_lines);
		}
		break;
	}
	default:
		break;
	}
}

struct json_object *jparse(const char *text, size_t len, const char **why)
{
	struct json_object *o = NULL;

	if (strlen(text) != len) {
		*why = "a NUL byte";
	} else if (!(o = json_tokener_parse(text)) || !json_object_is_type(o, json_type_object)) {
		*why = "not a JSON object";
		json_object_put(o);
		o = NULL;
	} else {
		jscrub(o, false);
	}
	return o;
}

struct json_object *jread(const char *path, const char **why)
{
	size_t len = 0;
	char *text = read_file(path, &len);
	struct json_object *o = text ? jparse(text, len, why) : NULL;

	if (!text)
		*why = read_file_strerror(errno);
	free(text);
	return o;
}

/* The one way bootprobe prints JSON for people and jq alike. */
#define JSON_FLAGS (JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)

void jprint(struct json_object *o)
{
	/* Valid UTF-8, whatever a name held: a byte that was none is U+FFFD. */
	jscrub(o, true);
	puts(json_object_to_json_string_ext(o, JSON_FLAGS));
}

int jwrite_at(int dirfd, const char *dir, const char *name, struct json_object *o,
	      const char *who)
{
	const char *text;
	char *withnl;
	int err;

	jscrub(o, true);
	text = json_object_to_json_string_ext(o, JSON_FLAGS);
	withnl = xasprintf("%s\n", text);
	err = write_file_at(dirfd, name, withnl, strlen(withnl));

	if (err)
		fprintf(stderr, "%s: %s/%s: %s\n", who, dir, name, strerror(-err));
	free(withnl);
	return err ? -1 : 0;
}

int jwrite(const char *path, struct json_object *o, const char *who)
{
	const char *text = json_object_to_json_string_ext(o, JSON_FLAGS);
	char *withnl = xasprintf("%s\n", text);
	int err = write_file_or_say(path, withnl, strlen(withnl), who);

	free(withnl);
	return err;
}

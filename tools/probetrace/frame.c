// SPDX-License-Identifier: GPL-2.0
/* The binary event stream read back: frames to JSON lines (frame.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "frame.h"
#include "record.h"

/* A header that can start a frame: the magic, a known kind, a sane length. */
static bool frame__valid(const struct pt_frame *f)
{
	return f->magic == PT_FRAME_MAGIC && !f->reserved && f->len <= PT_FRAME_MAX &&
	       (f->kind == PT_FRAME_SAMPLE || f->kind == PT_FRAME_JSON);
}

bool frame__is_stream(const void *buf, size_t len)
{
	struct pt_frame f;

	if (len < sizeof(f))
		return false;
	memcpy(&f, buf, sizeof(f));
	return frame__valid(&f);
}

/* One sample, copied to aligned memory, as its JSON record; false if refused. */
static bool frame__sample(const char *p, size_t n, uint64_t *aligned,
			  void (*line)(void *ctx, const char *s, size_t n), void *ctx)
{
	json_object *rec;
	const char *s;

	memcpy(aligned, p, n);
	rec = record__from_event(aligned, n, NULL);
	if (!rec)
		return false;
	s = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	line(ctx, s, strlen(s));
	json_object_put(rec);
	return true;
}

/* A JSON frame is one line: a newline in it would make two. */
static bool frame__json(const char *p, size_t n,
			void (*line)(void *ctx, const char *s, size_t n), void *ctx)
{
	if (!n || memchr(p, '\n', n))
		return false;
	line(ctx, p, n);
	return true;
}

int frame__decode(const void *buf, size_t len,
		  void (*line)(void *ctx, const char *s, size_t n), void *ctx,
		  struct frame_stats *st)
{
	const char *p = buf, *end = p + len;
	const char *past = NULL;	/* a header whose frame runs past the end */
	uint64_t *aligned = malloc(PT_FRAME_MAX);
	struct pt_frame f;
	bool ok;

	memset(st, 0, sizeof(*st));
	if (!aligned)
		return -ENOMEM;
	while ((size_t)(end - p) >= sizeof(f)) {
		memcpy(&f, p, sizeof(f));
		if (!frame__valid(&f) || (size_t)(end - p) - sizeof(f) < f.len) {
			/*
			 * The last frame cut short, or damage that looks like a
			 * header: look on for a whole frame after it.
			 */
			if (!past && frame__valid(&f))
				past = p;
			else if (!past)
				st->skipped_bytes++;
			p++;
			continue;
		}
		if (past) {
			st->skipped_bytes += p - past;
			past = NULL;
		}
		p += sizeof(f);
		st->frames++;
		if (f.kind == PT_FRAME_SAMPLE)
			ok = frame__sample(p, f.len, aligned, line, ctx);
		else
			ok = frame__json(p, f.len, line, ctx);
		if (!ok)
			st->refused++;
		else if (f.kind == PT_FRAME_SAMPLE)
			st->samples++;
		else
			st->json++;
		p += f.len;
	}
	st->cut_bytes = end - (past ? past : p);
	free(aligned);
	return 0;
}

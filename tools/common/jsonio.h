/* SPDX-License-Identifier: GPL-2.0 */
/*
 * JSON in and out, for every reader and writer of bootprobe's files: an
 * accessor never trusts the shape of what it reads (a file from a guest or
 * a results folder may hold anything), a file is read bounded and written
 * whole.
 */
#ifndef BOOTPROBE_JSONIO_H
#define BOOTPROBE_JSONIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;

/* @key of object @o, or NULL (also when @o is NULL or not an object). */
struct json_object *jget(struct json_object *o, const char *key);
/* The string at @key, "" when missing or not a string. */
const char *jstr(struct json_object *o, const char *key);
/* Whether @key holds an integer. */
bool jhas_int(struct json_object *o, const char *key);
/* The integer at @key, @dflt when missing or not an integer. */
int64_t jint(struct json_object *o, const char *key, int64_t dflt);
/* The integer at @key within @min..@max, else -1. */
long jlong(struct json_object *o, const char *key, long min, long max);
/* The truth of @key (json-c's: false when missing). */
bool jbool(struct json_object *o, const char *key);
/* The array at @key, or NULL (json-c asserts on non-array accesses). */
struct json_object *jarr(struct json_object *o, const char *key);
/* Elements of array @a; 0 for NULL. */
size_t jlen(struct json_object *a);
/*
 * @key of @o as a number of seconds or a factor: finite, within @min..@max,
 * else NAN (a results folder may say NaN, Infinity or -1).
 */
double jseconds(struct json_object *o, const char *key, double min, double max);
/*
 * A JSON number, or NULL (JSON null) when @v is NaN or infinite: no output
 * prints NaN.  jdouble() keeps every digit (times in explain and timeline),
 * jnum() six significant ones (statistics in summary.json and compare).
 */
struct json_object *jdouble(double v);
struct json_object *jnum(double v);
/*
 * Every string value in @o through text_clean(): a file from a guest or a
 * results folder, scrubbed once where it is parsed, hands no control byte,
 * no C1 or bidirectional control and no byte that is not UTF-8 to any
 * output.  jprint() and jwrite_at() scrub what they print the same way (a
 * folder name is no JSON string either), line breaks kept.
 */
void jscrub(struct json_object *o, bool keep_lines);
/*
 * A JSON object from a guest or a results folder (boot.json, the manifest,
 * image.json): @len bytes of text with no NUL byte, one object, scrubbed.
 * NULL with @why saying what was wrong.  jread() reads the file first,
 * through read_file() (regular, bounded).
 */
struct json_object *jparse(const char *text, size_t len, const char **why);
struct json_object *jread(const char *path, const char **why);
/*
 * @o as pretty JSON with a final newline at @path, written whole
 * (write_file_atomic()); 0, or -1 after "@who: PATH: why" on stderr.
 */
int jwrite(const char *path, struct json_object *o, const char *who);
/* The same as @name in the folder open at @dirfd (@dir its path), write_file_at(). */
int jwrite_at(int dirfd, const char *dir, const char *name, struct json_object *o,
	      const char *who);
/* @o as pretty JSON on standard output, as jwrite() writes a file. */
void jprint(struct json_object *o);

#endif

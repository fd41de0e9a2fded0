// SPDX-License-Identifier: GPL-2.0
/* JSON Lines, binary frames and table output of probetrace records. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "frame.h"
#include "jsonio.h"
#include "output.h"
#include "record.h"

int output__open(struct output *out, const char *path, int table)
{
	memset(out, 0, sizeof(*out));
	out->fd = STDOUT_FILENO;
	if (path && strcmp(path, "-")) {
		out->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			       0644);
		if (out->fd < 0)
			return -errno;
		out->own_fd = true;
	}
	if (table < 0)
		table = isatty(out->fd);
	if (table) {
		out->table = fdopen(dup(out->fd), "w");
		if (!out->table) {
			output__close(out);
			return -errno;
		}
		table__print_heading(out->table);
	}
	out->by_type = json_object_new_object();
	return 0;
}

static void output__count_type(struct output *out, json_object *rec)
{
	json_object *t, *n;
	const char *type = "?";

	if (json_object_object_get_ex(rec, "type", &t))
		type = json_object_get_string(t);
	if (json_object_object_get_ex(out->by_type, type, &n))
		json_object_int_inc(n, 1);
	else
		json_object_object_add(out->by_type, type, json_object_new_int64(1));
}

/* The whole line in one write(2), retried on short writes and EINTR. */
static int write_all(int fd, const char *buf, size_t len)
{
	ssize_t n;

	while (len) {
		n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Room for @n more bytes in the buffer; 0 or -ENOMEM. */
static int output__reserve(struct output *out, size_t n)
{
	size_t cap;
	char *buf;

	if (out->len + n <= out->cap)
		return 0;
	cap = out->cap ? out->cap : 2 * OUTPUT_BATCH;
	while (cap < out->len + n)
		cap *= 2;
	buf = realloc(out->buf, cap);
	if (!buf)
		return -ENOMEM;
	out->buf = buf;
	out->cap = cap;
	return 0;
}

/* @len bytes of @kind behind a frame header, into the buffer. */
static int output__buffer_frame(struct output *out, enum pt_frame_kind kind,
				const void *data, size_t len)
{
	struct pt_frame f = frame__header(kind, len);

	if (len > PT_FRAME_MAX)
		return -EMSGSIZE;
	if (output__reserve(out, sizeof(f) + len))
		return -ENOMEM;
	memcpy(out->buf + out->len, &f, sizeof(f));
	memcpy(out->buf + out->len + sizeof(f), data, len);
	out->len += sizeof(f) + len;
	out->pending++;
	return 0;
}

/* One line into the buffer (one JSON frame in binary output). */
static int output__buffer_json(struct output *out, json_object *rec)
{
	const char *s;
	size_t len;

	s = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
					   JSON_C_TO_STRING_NOSLASHESCAPE);
	len = strlen(s);
	if (out->binary)
		return output__buffer_frame(out, PT_FRAME_JSON, s, len);
	if (output__reserve(out, len + 1))
		return -ENOMEM;
	memcpy(out->buf + out->len, s, len);
	out->buf[out->len + len] = '\n';
	out->len += len + 1;
	out->pending++;
	return 0;
}

int output__write_sample(struct output *out, const void *data, size_t size)
{
	const struct pt_hdr *h = data;
	int err = -EINVAL;

	if (out->binary && !out->table && size >= sizeof(*h) && h->type < PT_TYPE_MAX)
		err = output__buffer_frame(out, PT_FRAME_SAMPLE, data, size);
	if (err) {
		out->failed++;
		out->last_err = err;
		return err;
	}
	out->samples_by_type[h->type]++;
	return 0;
}

json_object *output__by_type(struct output *out)
{
	json_object *n;
	const char *name;

	for (uint32_t t = 0; t < PT_TYPE_MAX; t++) {
		name = record__type_name(t);
		if (!out->samples_by_type[t] || !name)
			continue;
		if (json_object_object_get_ex(out->by_type, name, &n))
			json_object_int_inc(n, out->samples_by_type[t]);
		else
			json_object_object_add(out->by_type, name,
					       json_object_new_int64(out->samples_by_type[t]));
		out->samples_by_type[t] = 0;
	}
	return out->by_type;
}

int output__flush(struct output *out)
{
	int err = 0;

	if (out->len)
		err = write_all(out->fd, out->buf, out->len);
	if (err) {
		out->failed += out->pending;
		out->last_err = err;
	} else {
		out->written += out->pending;
	}
	out->len = 0;
	out->pending = 0;
	return err;
}

int output__write(struct output *out, json_object *rec)
{
	int err = 0;

	if (out->table) {
		table__print(out->table, rec);
		if (fflush(out->table) == EOF)
			err = -errno;
		else
			out->written++;
	} else {
		err = output__buffer_json(out, rec);
	}
	if (err) {
		out->failed++;
		out->last_err = err;
		return err;
	}
	output__count_type(out, rec);
	return 0;
}

void output__close(struct output *out)
{
	if (out->fd >= 0)
		output__flush(out);
	free(out->buf);
	if (out->table)
		fclose(out->table);
	if (out->own_fd && out->fd >= 0)
		close(out->fd);
	json_object_put(out->by_type);
	memset(out, 0, sizeof(*out));
	out->fd = -1;
}

/* ---- table ------------------------------------------------------------------ */

/* Records read back may be anything: jsonio's accessors check the type. */
static double jms(json_object *o, const char *key)
{
	return jint(o, key, 0) / 1e6;
}

void table__print_heading(FILE *f)
{
	fprintf(f, "%-12s %-17s %-7s %-16s %s\n", "TIME(s)", "EVENT", "PID",
		"COMM", "DETAILS");
}

static void print_origin(FILE *f, json_object *origin)
{
	const char *kind = jstr(origin, "kind");

	fprintf(f, " origin=%s", *kind ? kind : "?");
	if (jget(origin, "module"))
		fprintf(f, "(%s by %s[%" PRId64 "])", jstr(origin, "module"),
			jstr(origin, "comm"), jint(origin, "pid", 0));
}

static void print_probe(FILE *f, json_object *r, bool span)
{
	fprintf(f, "%s %s", jstr(r, "driver"), jstr(r, "device"));
	if (*jstr(r, "bus"))
		fprintf(f, " bus=%s", jstr(r, "bus"));
	if (span) {
		if (jget(r, "duration_ns"))
			fprintf(f, " %.3f ms", jms(r, "duration_ns"));
		if (jint(r, "probe_error", 0))
			fprintf(f, " error=%" PRId64, jint(r, "probe_error", 0));
		else
			fprintf(f, " ret=%" PRId64, jint(r, "ret", 0));
	}
	if (jget(r, "async"))
		fprintf(f, " %s", json_object_get_boolean(jget(r, "async")) ?
			"async" : "sync");
	print_origin(f, jget(r, "origin"));
	if (json_object_get_boolean(jget(r, "pre_collector")))
		fprintf(f, " [before collector]");
}

static void print_state(FILE *f, json_object *s)
{
	json_object *m;

	if ((m = jget(s, "module_load")))
		fprintf(f, "; target in %s of %s for %.1f ms", "module load",
			jstr(m, "name")[0] ? jstr(m, "name") : jstr(m, "file"),
			jms(m, "for_ns"));
	if ((m = jget(s, "probe")))
		fprintf(f, "; in probe of %s by %s for %.1f ms",
			jstr(m, "device"), jstr(m, "driver"), jms(m, "for_ns"));
	if ((m = jget(s, "kthread_create")))
		fprintf(f, "; in kthread_create for %.3f ms", jms(m, "for_ns"));
}

static void print_signal(FILE *f, json_object *r)
{
	json_object *t = jget(r, "target"), *stack = jarr(r, "target_stack");
	size_t i, n;

	fprintf(f, "%s -> %s[%" PRId64 "] %s", jstr(r, "sig_name"),
		jstr(t, "comm"), jint(t, "pid", 0), jstr(r, "result"));
	print_state(f, jget(r, "target_state"));
	if (jint(r, "sig", 0) != 9 || !stack)
		return;
	n = jlen(stack);
	for (i = 0; i < n; i++)
		fprintf(f, "\n%*s%s", 56, "",
			json_object_get_string(json_object_array_get_idx(stack, i)) ?: "null");
}

static void print_names(FILE *f, json_object *arr, const char *key)
{
	size_t i, n = jlen(arr);

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : " ",
			jstr(json_object_array_get_idx(arr, i), key));
}

static void print_header(FILE *f, json_object *r)
{
	json_object *na = jarr(r, "not_attached");

	fprintf(f, "schema %" PRId64 ", clock %s, kernel %s, kthread from %s, "
		"%zu programs attached, %zu not:", jint(r, "schema", 0),
		jstr(r, "clock"), jstr(r, "kernel"), jstr(r, "kthread_source"),
		jlen(jarr(r, "attached")), jlen(na));
	print_names(f, na, "program");
}

static void print_trailer(FILE *f, json_object *r)
{
	fprintf(f, "%s: %" PRId64 " events written, %" PRId64
		" dropped in user space, %" PRId64 " dropped in BPF; not attached:",
		jstr(r, "exit_reason"), jint(r, "events_written", 0),
		jint(r, "events_dropped", 0), jint(r, "bpf_drops", 0));
	print_names(f, jarr(r, "not_attached"), "program");
}

static void print_details(FILE *f, const char *type, json_object *r)
{
	if (!strcmp(type, "header"))
		print_header(f, r);
	else if (!strcmp(type, "trailer"))
		print_trailer(f, r);
	else if (!strcmp(type, "probe") || !strcmp(type, "probe_start"))
		print_probe(f, r, !strcmp(type, "probe"));
	else if (!strcmp(type, "signal_generate"))
		print_signal(f, r);
	else if (!strcmp(type, "signal_deliver"))
		fprintf(f, "%s handler=%s", jstr(r, "sig_name"), jstr(r, "handler"));
	else if (!strcmp(type, "exit"))
		fprintf(f, "status=%" PRId64 " signal=%" PRId64,
			jint(r, "exit_status", 0), jint(r, "exit_signal", 0));
	else if (!strcmp(type, "kthread_start"))
		fprintf(f, "%s%s", jstr(r, jget(r, "caller") ? "caller" : "threadfn"),
			json_object_get_boolean(jget(r, "fatal_signal")) ?
			" fatal signal pending" : "");
	else if (!strcmp(type, "kthread_end"))
		fprintf(f, "%s waited %.3f ms ret=%" PRId64 "%s",
			jstr(r, jget(r, "caller") ? "caller" : "threadfn"),
			jms(r, "wait_ns"), jint(r, "ret", 0),
			json_object_get_boolean(jget(r, "fatal_signal")) ?
			" fatal signal pending" : "");
	else if (!strncmp(type, "module_", 7))
		fprintf(f, "%s %s %.3f ms ret=%" PRId64, jstr(r, "name"),
			jstr(r, "file"), jms(r, "duration_ns"), jint(r, "ret", 0));
	else if (!strcmp(type, "devnode"))
		fprintf(f, "%s %s ret=%" PRId64 " made by %s %s", jstr(r, "kind"),
			jstr(r, "name"), jint(r, "ret", 0), jstr(r, "bound_driver"),
			jstr(r, "bound_device"));
	else if (!strcmp(type, "init_exec"))
		fprintf(f, "PID 1 executes %s", jstr(r, "filename"));
	else if (!strcmp(type, "attachment"))
		fprintf(f, "%s: %" PRId64 " bytes%s", jstr(r, "name"), jint(r, "bytes", 0),
			json_object_get_boolean(jget(r, "truncated")) ? " (truncated)" : "");
	else if (!strcmp(type, "initcall"))
		fprintf(f, "%s %.3f ms ret=%" PRId64 " [before collector]",
			jstr(r, "func"), jms(r, "duration_ns"), jint(r, "ret", 0));
	else
		fprintf(f, "%s", json_object_to_json_string_ext(
				r, JSON_C_TO_STRING_PLAIN));
}

void table__print(FILE *f, json_object *rec)
{
	const char *type = jstr(rec, "type");
	json_object *ts = jget(rec, "ts_ns");

	if (!ts)
		ts = jget(rec, "start_ns");
	if (ts)
		fprintf(f, "%12.6f ", json_object_get_int64(ts) / 1e9);
	else
		fprintf(f, "%12s ", "-");
	fprintf(f, "%-17s %-7" PRId64 " %-16s ", type, jint(rec, "pid", 0),
		jstr(rec, "comm"));
	print_details(f, type, rec);
	fputc('\n', f);
}
